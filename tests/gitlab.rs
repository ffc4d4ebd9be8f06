//! `hotfix lint --format gitlab`: a GitLab Code Quality report, with every field GitLab's
//! documentation requires ("Code Quality report format"), fingerprints unique and stable, and
//! paths relative to the repository root.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use hotfix_testkit::{Hotfix, hotfix_binary};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// A repository in a temporary folder with the format and annotation fixtures under
/// `templates/`.
fn fixture_repo() -> tempfile::TempDir {
    let dir = hotfix_testkit::repository();
    for from in [
        "testdata/cli/formats/templates",
        "testdata/cli/github/templates",
    ] {
        hotfix_testkit::copy_tree(&repo().join(from), &dir.path().join("templates"));
    }
    dir
}

/// `hotfix lint` run in `dir` as a shell there runs it: `PWD` names the folder as reached,
/// links included.
///
/// The fixtures' warnings include `unused-parameter`, which is outside the default set.
const HOTFIX: Hotfix =
    Hotfix::new(hotfix_binary!())
        .plain()
        .with_pwd()
        .before(&["lint", "--extend-select", "H408"]);

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn snapshot(name: &str, value: &str) {
    insta::with_settings!({
        snapshot_path => "../snapshots/cli",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, value);
    });
}

/// The report of `hotfix lint --format gitlab ARGS`, which finds something.
fn report(dir: &Path, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["--format", "gitlab"];
    all.extend_from_slice(args);
    let output = HOTFIX.run_in(dir, &all);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert_eq!(text(&output.stderr), "", "no summary beside machine output");
    // GitLab's parser does not allow a byte-order mark.
    assert_eq!(output.stdout.first(), Some(&b'['));
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON array")
}

fn string<'a>(issue: &'a Value, field: &str) -> &'a str {
    issue[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} is not a string: {issue}"))
}

/// What GitLab's documentation requires of each issue: `description`, `check_name`,
/// `fingerprint`, `severity` (one of five) as strings, `location.path` a relative path in the
/// repository, and `location.lines.begin` (or `location.positions.begin.line`) an integer.
fn check_documented_fields(dir: &Path, issues: &[Value]) {
    for issue in issues {
        assert!(!string(issue, "description").trim().is_empty(), "{issue}");
        assert!(!string(issue, "check_name").is_empty(), "{issue}");
        assert!(!string(issue, "fingerprint").is_empty(), "{issue}");
        assert!(
            ["info", "minor", "major", "critical", "blocker"].contains(&string(issue, "severity")),
            "{issue}"
        );
        let location = &issue["location"];
        let path = string(location, "path");
        assert!(
            !path.starts_with('/') && !path.starts_with("./") && !path.contains('\\'),
            "not a relative path: {path}"
        );
        assert!(
            dir.join(path).is_file(),
            "{path} is not a file of the repository"
        );
        let begin = location["lines"]["begin"]
            .as_u64()
            .or_else(|| location["positions"]["begin"]["line"].as_u64())
            .unwrap_or_else(|| panic!("no begin line: {issue}"));
        assert!(begin >= 1, "{issue}");
    }
    // GitLab keeps one issue per fingerprint.
    let fingerprints: BTreeSet<&str> = issues.iter().map(|i| string(i, "fingerprint")).collect();
    assert_eq!(fingerprints.len(), issues.len(), "fingerprints are unique");
}

#[test]
fn gitlab_report_has_the_documented_fields() {
    let dir = fixture_repo();
    let issues = report(dir.path(), &["templates", "--no-config"]);
    check_documented_fields(dir.path(), &issues);
    snapshot(
        "gitlab_report",
        &serde_json::to_string_pretty(&issues).unwrap(),
    );

    // One issue per finding, in the order of the other formats, with the severity mapped.
    let json = HOTFIX.run_in(
        dir.path(),
        &["templates", "--no-config", "--format", "json"],
    );
    let findings: Vec<Value> = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(issues.len(), findings.len());
    for (issue, finding) in issues.iter().zip(&findings) {
        assert_eq!(issue["check_name"], finding["code"]);
        assert_eq!(issue["location"]["path"], finding["path"]);
        assert_eq!(
            issue["location"]["lines"]["begin"],
            finding["start"]["line"]
        );
        let severity = match string(finding, "severity") {
            "error" => "major",
            "warning" => "minor",
            _ => "info",
        };
        assert_eq!(issue["severity"], severity);
        // GitLab does not show `check_name`: the description names the rule.
        assert!(
            string(issue, "description").starts_with(&format!(
                "{} {}: ",
                string(finding, "code"),
                string(finding, "name")
            )),
            "{issue}"
        );
    }
    // Configured severities are mapped too: `info` is `info`.
    std::fs::write(
        dir.path().join("info.toml"),
        "[severity]\nH408 = \"info\"\n",
    )
    .unwrap();
    let info = report(
        dir.path(),
        &[
            "templates/repeat.yaml",
            "--select",
            "H408",
            "--config",
            "info.toml",
            "--fail-on",
            "info",
        ],
    );
    assert_eq!(info.len(), 1);
    assert_eq!(info[0]["severity"], "info");
}

#[test]
fn gitlab_fingerprints_survive_lines_added_above_and_runs_elsewhere() {
    let dir = fixture_repo();
    let before = report(dir.path(), &["templates", "--no-config"]);
    // Comment lines above every finding of one file: its findings move down, their
    // fingerprints stay.
    let path = dir.path().join("templates/repeat.yaml");
    let source = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("# one\n# two\n{source}")).unwrap();
    let after = report(dir.path(), &["templates", "--no-config"]);
    assert_eq!(before.len(), after.len());
    for (old, new) in before.iter().zip(&after) {
        assert_eq!(old["fingerprint"], new["fingerprint"], "{old}\n{new}");
        let moved = u64::from(old["location"]["path"] == "templates/repeat.yaml") * 2;
        assert_eq!(
            old["location"]["lines"]["begin"].as_u64().unwrap() + moved,
            new["location"]["lines"]["begin"].as_u64().unwrap()
        );
    }
    // Run from a folder inside the repository: the same paths, the same fingerprints.
    let inside = report(&dir.path().join("templates"), &[".", "--no-config"]);
    assert_eq!(inside, after);
}

#[test]
fn gitlab_report_of_a_clean_tree_is_an_empty_array() {
    let dir = fixture_repo();
    let output = HOTFIX.run_in(
        dir.path(),
        &[
            "templates/clean.yaml",
            "templates/fine.json",
            "--format",
            "gitlab",
        ],
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "[]\n");
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_gitlab_report_of_the_corpus_has_the_documented_fields() {
    // The corpus as a shell names it after `cd ../shared/corpus`, links kept.
    let corpus =
        repo()
            .join("../shared/corpus")
            .components()
            .fold(PathBuf::new(), |mut path, component| {
                if component == std::path::Component::ParentDir {
                    path.pop();
                } else {
                    path.push(component);
                }
                path
            });
    assert!(
        corpus.is_dir(),
        "{} is missing: ../shared must sit beside the repository",
        corpus.display()
    );
    let output = HOTFIX.run_in(&corpus, &[".", "--format", "gitlab", "--exit-zero"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let issues: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert!(issues.len() > 500, "{} issues", issues.len());
    check_documented_fields(&corpus, &issues);
}
