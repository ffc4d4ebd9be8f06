//! Ctrl-C during `hotfix upgrade`: no temporary file is left, and every template is either as
//! it was or fully upgraded.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;

use common::{copy_tree, snapshot_tree};

fn template(i: usize) -> String {
    format!(
        "heat_template_version: 2013-05-23\n# template {i}\nparameters:\n  p: {{type: string, default: x}}\nresources:\n  r:\n    type: OS::Heat::None\n    properties:\n      a: {{\"Fn::Join\": [\"-\", [{{Ref: p}}, \"{i}\"]]}}\n      b: {{\"Fn::Base64\": \"{i}\"}}\noutputs:\n  o: {{value: {{\"Fn::Select\": [0, [{{Ref: p}}]]}}}}\n"
    )
}

fn make_tree(dir: &Path, count: usize) {
    for i in 0..count {
        let sub = dir.join(format!("d{}", i % 20));
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::fs::write(sub.join(format!("t{i}.yaml")), template(i)).expect("write");
    }
}

fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    snapshot_tree(dir).into_iter().collect()
}

fn upgrade(dir: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(["upgrade", "--to", "wallaby", "--no-config", "."])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hotfix")
}

/// Interrupts an upgrade of `tree` (a copy) after each delay and checks what is on disk.
fn interrupt_at_several_moments(original: &BTreeMap<PathBuf, Vec<u8>>, make: &dyn Fn(&Path)) {
    let done = tempfile::tempdir().expect("tempdir");
    make(done.path());
    let finished = upgrade(done.path()).wait_with_output().expect("upgrade");
    // 1: some templates are blocked or cannot be upgraded as they are (the corpus has some).
    let completed = finished.status.code();
    assert!(
        matches!(completed, Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&finished.stderr)
    );
    let upgraded = files(done.path());
    let mut interrupted_runs = 0;
    for delay in [2_u64, 30, 100, 250, 500] {
        let dir = tempfile::tempdir().expect("tempdir");
        make(dir.path());
        let output = interrupt_after(upgrade(dir.path()), delay);
        let stderr = String::from_utf8_lossy(&output.stderr);
        match output.status.code() {
            Some(130) => {
                interrupted_runs += 1;
                assert!(stderr.contains("hotfix: interrupted"), "{stderr}");
            }
            // It finished before the signal arrived (as the uninterrupted run did), or the
            // signal came before hotfix installed its handler and it ended at once, before
            // writing anything. Both are checked below like every other case.
            code if code == completed || code.is_none() => {}
            other => panic!("after {delay} ms: exit {other:?}: {stderr}"),
        }
        let now = files(dir.path());
        assert_eq!(
            now.keys().collect::<Vec<_>>(),
            original.keys().collect::<Vec<_>>(),
            "after {delay} ms: a file appeared or vanished (a temporary file?)"
        );
        for (path, bytes) in &now {
            assert!(
                *bytes == original[path] || *bytes == upgraded[path],
                "after {delay} ms: {} is neither the original nor the upgrade",
                path.display()
            );
        }
        // Every file it rewrote has its line: results are printed as files complete, not at
        // the end of a run that may never come.
        let rewritten = now
            .iter()
            .filter(|(path, bytes)| **bytes != original[*path])
            .count();
        let reported = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter(|line| line.contains(": upgraded "))
            .count();
        assert_eq!(rewritten, reported, "after {delay} ms: {stderr}");
    }
    assert!(
        interrupted_runs > 0,
        "no run was interrupted: make the tree larger"
    );
}

#[test]
fn an_interrupted_upgrade_leaves_every_template_whole() {
    let make = |dir: &Path| make_tree(dir, 1200);
    let reference = tempfile::tempdir().expect("tempdir");
    make(reference.path());
    interrupt_at_several_moments(&files(reference.path()), &make);
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_an_interrupted_upgrade_of_copies_of_the_corpus_leaves_every_template_whole() {
    let corpus = common::corpus();
    // One copy: an upgrade of the corpus writes (and syncs) some 3,000 files, seconds of work,
    // so every delay below but the last lands in the middle of it.
    let make = |dir: &Path| copy_tree(&corpus, dir);
    let reference = tempfile::tempdir().expect("tempdir");
    make(reference.path());
    interrupt_at_several_moments(&files(reference.path()), &make);
}

#[test]
fn an_interrupted_lint_fix_leaves_every_template_whole_and_says_so() {
    let template = |i: usize| {
        format!(
            "heat_template_version: 2016-04-08\n# template {i}\nresources:\n  r:\n    type: OS::Heat::None\n    properties:\n      v:\n        repeat:\n          permutations: true\n          for_each: {{<%a%>: [x, y]}}\n          template: <%a%>\n"
        )
    };
    let make = |dir: &Path| {
        for i in 0..1500 {
            std::fs::write(dir.join(format!("t{i}.yaml")), template(i)).expect("write");
        }
    };
    let done = tempfile::tempdir().expect("tempdir");
    make(done.path());
    let fix = |dir: &Path| {
        Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .args(["lint", "--fix", "--no-config", "--exit-zero", "."])
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run hotfix")
    };
    let finished = fix(done.path()).wait_with_output().expect("fix");
    assert_eq!(
        finished.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&finished.stderr)
    );
    let (original, fixed) = (
        template(0),
        files(done.path())[Path::new("t0.yaml")].clone(),
    );
    assert_ne!(
        original.as_bytes(),
        fixed.as_slice(),
        "the fixture has a Safe fix"
    );
    let mut interrupted_runs = 0;
    for delay in [20_u64, 80, 200] {
        let dir = tempfile::tempdir().expect("tempdir");
        make(dir.path());
        let output = interrupt_after(fix(dir.path()), delay);
        let stderr = String::from_utf8_lossy(&output.stderr);
        match output.status.code() {
            Some(130) => {
                interrupted_runs += 1;
                assert!(stderr.contains("hotfix: interrupted"), "{stderr}");
            }
            Some(0) | None => {}
            other => panic!("after {delay} ms: exit {other:?}: {stderr}"),
        }
        let now = files(dir.path());
        assert_eq!(
            now.len(),
            1500,
            "after {delay} ms: a temporary file is left"
        );
        for (i, bytes) in (0..1500).map(|i| (i, &now[Path::new(&format!("t{i}.yaml"))])) {
            let fixed_i =
                String::from_utf8_lossy(&fixed).replace("template 0", &format!("template {i}"));
            assert!(
                *bytes == template(i).into_bytes() || *bytes == fixed_i.into_bytes(),
                "after {delay} ms: t{i}.yaml is neither the original nor the fixed text"
            );
        }
    }
    assert!(
        interrupted_runs > 0,
        "no run was interrupted: make the tree larger"
    );
}

/// Sends SIGINT to `child` after `delay` ms and waits for it to end.
fn interrupt_after(child: std::process::Child, delay: u64) -> std::process::Output {
    std::thread::sleep(Duration::from_millis(delay));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    child.wait_with_output().expect("hotfix ends")
}
