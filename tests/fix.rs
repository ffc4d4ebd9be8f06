//! `hotfix lint --fix`, `--unsafe-fixes`, `--diff` and `--show-fixes` from the outside, on a
//! temporary copy of `testdata/cli/fix`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

use common::{copy_tree, snapshot_tree};

fn tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/fix")
}

/// A writable copy of `testdata/cli/fix`.
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    copy_tree(&tree(), dir.path());
    dir
}

/// `hotfix lint --no-config ARGS` in `dir`, in the concise format unless with `--diff`.
fn lint(dir: &Path, args: &[&str]) -> Output {
    let format: &[&str] = if args.contains(&"--diff") {
        &[]
    } else {
        &["--format", "concise"]
    };
    Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(dir)
        .args(["lint", "--no-config"])
        .args(format)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run hotfix")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).expect("a file of the tree")
}

fn original(name: &str) -> String {
    read(&tree(), name)
}

/// `repeat.yaml` once its Safe fix is applied: the `permutations: true` line is gone.
fn repeat_fixed() -> String {
    original("repeat.yaml").replace(
        "          permutations: true   # nests anyway before 2017-09-01\n",
        "",
    )
}

#[test]
fn fix_applies_the_safe_fixes_in_place_and_reports_what_remains() {
    let dir = copy();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let file = dir.path().join("repeat.yaml");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let output = lint(dir.path(), &["--fix", "."]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    // The H605 error is left (its fix is Unsafe): exit code 1.
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(read(dir.path(), "repeat.yaml"), repeat_fixed());
    // Unsafe fixes, suppressed findings and clean files are left alone.
    for name in ["nested/volume.yaml", "suppressed.yaml", "clean.yaml"] {
        assert_eq!(read(dir.path(), name), original(name), "{name}");
    }
    // What remains is reported on the fixed text.
    assert_eq!(
        stdout,
        "nested/volume.yaml:5:22: H605 `retain` is not a deletion policy in 2016-04-08\n\
         repeat.yaml:11:14: H004 `12:30` loads as the integer `750` (YAML 1.1 base 60), not the string \"12:30\"\n"
    );
    assert!(
        stderr.contains("4 templates checked (0 skipped): 1 error, 1 warning, 0 info"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "fixed 1 finding in 1 file; 2 hidden fixes can be enabled with `--unsafe-fixes`\n"
        ),
        "{stderr}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("repeat.yaml"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
    }
    // No temporary file is left behind.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["clean.yaml", "nested", "repeat.yaml", "suppressed.yaml"]
    );
    // A second run has nothing left to fix.
    let again = lint(dir.path(), &["--fix", "."]);
    assert!(
        text(&again.stderr).contains("fixed 0 findings in 0 files"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(read(dir.path(), "repeat.yaml"), repeat_fixed());
}

#[test]
fn unsafe_fixes_are_applied_only_when_asked_and_the_exit_code_follows_what_remains() {
    let dir = copy();
    let output = lint(dir.path(), &["--fix", "--unsafe-fixes", "."]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        read(dir.path(), "repeat.yaml"),
        repeat_fixed().replace("start: 12:30", "start: '12:30'")
    );
    assert_eq!(
        read(dir.path(), "nested/volume.yaml"),
        original("nested/volume.yaml")
            .replace("deletion_policy: retain", "deletion_policy: Retain")
    );
    assert_eq!(
        read(dir.path(), "suppressed.yaml"),
        original("suppressed.yaml")
    );
    assert!(
        stderr.contains("fixed 3 findings in 2 files (2 with unsafe fixes)\n"),
        "{stderr}"
    );
    // --fail-on counts what remains: nothing.
    let output = lint(dir.path(), &["--fix", "--fail-on", "info", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn without_fix_unsafe_fixes_only_changes_what_is_counted_as_fixable() {
    let dir = copy();
    let plain = lint(dir.path(), &["."]);
    assert_eq!(plain.status.code(), Some(1));
    assert!(
        text(&plain.stderr).ends_with(
            "1 fixable with `--fix`; 2 hidden fixes can be enabled with `--fix --unsafe-fixes`\n"
        ),
        "{}",
        text(&plain.stderr)
    );
    let unsafe_fixes = lint(dir.path(), &["--unsafe-fixes", "."]);
    assert_eq!(unsafe_fixes.status.code(), Some(1));
    assert_eq!(text(&unsafe_fixes.stdout), text(&plain.stdout));
    assert!(
        text(&unsafe_fixes.stderr).ends_with("3 fixable with `--fix --unsafe-fixes`\n"),
        "{}",
        text(&unsafe_fixes.stderr)
    );
    for name in ["repeat.yaml", "nested/volume.yaml"] {
        assert_eq!(read(dir.path(), name), original(name), "{name}");
    }
}

#[test]
fn diff_prints_what_fix_would_change_writes_nothing_and_exits_with_1() {
    let dir = copy();
    let output = lint(dir.path(), &["--diff", "."]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stdout,
        "--- a/repeat.yaml\n+++ b/repeat.yaml\n@@ -6,7 +6,6 @@\n     properties:\n       rules:\n         repeat:\n-          permutations: true   # nests anyway before 2017-09-01\n           for_each: {<%port%>: ['80', '443']}\n           template: {port: <%port%>}\n       start: 12:30             # YAML 1.1 reads 750\n"
    );
    assert!(
        stderr.contains(
            "would fix 1 finding in 1 file; 2 hidden fixes can be enabled with `--unsafe-fixes`\n"
        ),
        "{stderr}"
    );
    assert_eq!(read(dir.path(), "repeat.yaml"), original("repeat.yaml"));
    // With --unsafe-fixes the diff shows the Unsafe fixes too; still nothing is written.
    let output = lint(dir.path(), &["--diff", "--unsafe-fixes", "."]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("-    deletion_policy: retain    # lower case needs 2016-10-14\n+    deletion_policy: Retain    # lower case needs 2016-10-14\n"),
        "{stdout}"
    );
    for name in ["repeat.yaml", "nested/volume.yaml"] {
        assert_eq!(read(dir.path(), name), original(name), "{name}");
    }
    let exit_zero = lint(dir.path(), &["--diff", "--exit-zero", "."]);
    assert_eq!(exit_zero.status.code(), Some(0));
    assert!(text(&exit_zero.stdout).starts_with("--- a/repeat.yaml\n"));
    // Nothing to change: no diff, exit code 0.
    let clean = lint(dir.path(), &["--diff", "clean.yaml", "suppressed.yaml"]);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean.stderr));
    assert_eq!(text(&clean.stdout), "");
}

#[test]
fn show_fixes_lists_each_fix_where_it_is_in_the_file() {
    let dir = copy();
    let output = lint(
        dir.path(),
        &["--diff", "--unsafe-fixes", "--show-fixes", "."],
    );
    let stderr = text(&output.stderr);
    // With --diff, places in the file as it is.
    assert!(
        stderr.contains(
            "nested/volume.yaml:5:22: would fix H605 (unsafe): Replace `retain` with `Retain`\n\
             repeat.yaml:9:11: would fix H903 (safe): Remove `permutations: true`\n\
             repeat.yaml:12:14: would fix H004 (unsafe): Quote `12:30`\n"
        ),
        "{stderr}"
    );
    // With --fix, places in the fixed file (the removed line was line 9).
    let output = lint(
        dir.path(),
        &["--fix", "--unsafe-fixes", "--show-fixes", "."],
    );
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "nested/volume.yaml:5:22: fixed H605 (unsafe): Replace `retain` with `Retain`\n\
             repeat.yaml:9:1: fixed H903 (safe): Remove `permutations: true`\n\
             repeat.yaml:11:14: fixed H004 (unsafe): Quote `12:30`\n"
        ),
        "{stderr}"
    );
    // --show-fixes needs something to show.
    let alone = lint(dir.path(), &["--show-fixes", "."]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(
        text(&alone.stderr).contains("<--fix|--diff>"),
        "{}",
        text(&alone.stderr)
    );
}

#[test]
fn a_read_only_file_is_refused_left_alone_and_the_rest_is_fixed() {
    let dir = copy();
    let read_only = dir.path().join("nested/volume.yaml");
    let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&read_only, permissions).unwrap();
    let output = lint(dir.path(), &["--fix", "--unsafe-fixes", "."]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "hotfix: error: cannot fix nested/volume.yaml: not written: the file is read-only"
        ),
        "{stderr}"
    );
    assert_eq!(
        read(dir.path(), "nested/volume.yaml"),
        original("nested/volume.yaml")
    );
    assert_eq!(
        read(dir.path(), "repeat.yaml"),
        repeat_fixed().replace("start: 12:30", "start: '12:30'")
    );
    // Still checked, its findings (as on disk) reported: it does not vanish from the summary.
    assert!(
        stderr.contains("4 templates checked (0 skipped): 1 error,"),
        "{stderr}"
    );
    assert!(
        text(&output.stdout).contains("`retain` is not a deletion policy"),
        "{}",
        text(&output.stdout)
    );
    let alone = lint(
        dir.path(),
        &["--fix", "--unsafe-fixes", "nested/volume.yaml"],
    );
    let stderr = text(&alone.stderr);
    assert_eq!(alone.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("not written: the file is read-only")
            && stderr.contains("1 template checked (0 skipped): 1 error,"),
        "{stderr}"
    );
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_fixing_a_copy_of_the_corpus_twice_changes_nothing_the_second_time() {
    let corpus = common::corpus();
    let dir = tempfile::tempdir().expect("file system");
    copy_tree(&corpus, dir.path());
    let before = snapshot_tree(dir.path());
    let args = [
        "--fix",
        "--unsafe-fixes",
        "--show-fixes",
        "--exit-zero",
        ".",
    ];
    let first = lint(dir.path(), &args);
    let stderr = text(&first.stderr);
    assert_eq!(first.status.code(), Some(0), "{stderr}");
    let summary = stderr
        .lines()
        .find(|l| l.starts_with("fixed "))
        .unwrap_or_else(|| panic!("no summary line: {stderr}"))
        .to_owned();
    let after_first = snapshot_tree(dir.path());
    assert_eq!(
        before.len(),
        after_first.len(),
        "files appeared or vanished"
    );
    let mut changed = 0;
    for ((path, old), (_, new)) in before.iter().zip(&after_first) {
        if old == new {
            continue;
        }
        changed += 1;
        let new = String::from_utf8(new.clone()).expect("fixed text is UTF-8");
        let old = String::from_utf8(old.clone()).expect("only text is fixed");
        assert!(
            hotfix_yaml::parse(&old).is_ok(),
            "{}: fixed, yet it did not load",
            path.display()
        );
        if let Err(err) = hotfix_yaml::parse(&new) {
            panic!("{}: the fixed file does not load: {err}", path.display());
        }
    }
    let second = lint(dir.path(), &args);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    assert!(
        text(&second.stderr).contains("fixed 0 findings in 0 files"),
        "{}",
        text(&second.stderr)
    );
    let after_second = snapshot_tree(dir.path());
    assert!(after_first == after_second, "the second run changed files");
    eprintln!(
        "corpus copy: {summary}; {changed} files changed by the first run, none by the second"
    );
    let fixes: Vec<&str> = stderr.lines().filter(|l| l.contains(": fixed H")).collect();
    assert_eq!(
        fixes.len(),
        summary
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(usize::MAX),
        "--show-fixes lists every fix the summary counts"
    );
    for line in fixes {
        eprintln!("  {line}");
    }
}
