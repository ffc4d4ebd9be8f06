//! The environment (`E`) and cross-file (`X`) findings on the shared corpus, pinned: each was
//! read and checked (the commit that changes a count says which finding came or went, and why).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

/// The shared folder (`HOTFIX_SHARED`, or `../shared` beside the repository).
fn corpus() -> PathBuf {
    let shared = std::env::var_os("HOTFIX_SHARED").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    let corpus = shared.join("corpus");
    assert!(
        corpus.is_dir(),
        "{} is missing: ../shared must sit beside the repository (or set HOTFIX_SHARED)",
        corpus.display()
    );
    corpus
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_environment_and_cross_file_findings_on_the_corpus_are_the_checked_ones() {
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(corpus())
        .args([
            "lint",
            ".",
            "--select",
            "E,X",
            "--no-config",
            "--format",
            "concise",
            "--exit-zero",
            "--quiet",
        ])
        .env("NO_COLOR", "1")
        .output()
        .expect("run hotfix");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for line in stdout.lines() {
        // `path:line:col: CODE message`
        let code = line
            .split(": ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_default();
        *counts.entry(code.to_owned()).or_default() += 1;
    }
    let expected: BTreeMap<String, usize> = [
        // tripleo environments whose parameter_defaults entries are all commented out.
        ("E003", 3),
        // tripleo cinder-dellsc-config.yaml and computealt.yaml: renamed service templates.
        ("E007", 2),
        // tripleo deployment/deprecated/neutron (paths left behind when the files moved),
        // puppet/extraconfig/pre_deploy/controller/multiple.yaml (both trees), tacker test data.
        ("X001", 9),
        // heat-translator's expected outputs name CSAR scripts that are not beside them.
        ("X002", 21),
        // tripleo-heat-templates-2015's `FileInclude` (examples/*_hot.yaml and
        // deprecated/overcloud-source.yaml): sources of TripleO's old merge tool, which no
        // environment maps; Heat refuses them (they also carry its `Path` keys).
        ("X007", 16),
        // None: the corpus passes few literals to a nested template's parameters (about twenty
        // values, TripleO's service names and flags), and Heat accepts them all.
        ("X008", 0),
    ]
    .into_iter()
    .map(|(code, n)| (code.to_owned(), n))
    .collect();
    // A code pinned at zero is one the run must not report.
    for code in expected.keys() {
        counts.entry(code.clone()).or_default();
    }
    assert_eq!(counts, expected, "{stdout}");
}
