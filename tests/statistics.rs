//! `hotfix lint --statistics`, `--quiet` and `--silent`: how much is printed, never what the
//! exit code says; and a reader that stops reading early.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/formats")
}

fn lint_in(dir: &Path, args: &[&str], github_actions: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hotfix"));
    command
        .current_dir(dir)
        .arg("lint")
        // The fixtures' warnings include `unused-parameter`, which is outside the default set.
        .args(["--extend-select", "H408"])
        .args(args)
        .env("NO_COLOR", "1");
    if github_actions {
        command.env("GITHUB_ACTIONS", "true");
    } else {
        command.env_remove("GITHUB_ACTIONS");
    }
    command.output().expect("run hotfix")
}

fn lint(args: &[&str]) -> Output {
    lint_in(&fixtures(), args, false)
}

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

#[test]
fn statistics_count_the_findings_of_each_rule() {
    let output = lint(&["templates", "--no-config", "--statistics"]);
    assert_eq!(output.status.code(), Some(1), "the exit code is unchanged");
    let stdout = text(&output.stdout);
    snapshot("lint_statistics", &stdout);
    // Most first, then by code; `[*]` where every finding has a safe fix.
    assert_eq!(
        stdout,
        "2\tH301\t[ ] undefined-parameter\n\
         2\tH903\t[*] permutations-ignored\n\
         1\tH102\t[ ] invalid-version\n\
         1\tH408\t[ ] unused-parameter\n"
    );
    // The summary still goes to stderr.
    assert!(
        text(&output.stderr).contains("3 templates checked (0 skipped): 3 errors, 3 warnings"),
        "{}",
        text(&output.stderr)
    );

    // The same counts as the findings of `--format json`.
    let findings: Vec<Value> =
        serde_json::from_slice(&lint(&["templates", "--no-config", "--format", "json"]).stdout)
            .unwrap();
    let output = lint(&[
        "templates",
        "--no-config",
        "--statistics",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let statistics: Vec<Value> = serde_json::from_slice(&output.stdout).expect("a JSON list");
    let total: u64 = statistics
        .iter()
        .map(|s| s["count"].as_u64().unwrap())
        .sum();
    assert_eq!(usize::try_from(total).unwrap(), findings.len());
    assert_eq!(
        statistics[1],
        serde_json::json!({"code": "H903", "name": "permutations-ignored", "count": 2, "fixable": true})
    );
    assert_eq!(text(&output.stderr), "", "no summary beside JSON on stdout");
}

#[test]
fn statistics_respect_the_selection_and_the_exit_code_rules() {
    let output = lint(&[
        "templates",
        "--no-config",
        "--statistics",
        "--select",
        "H4,H9",
        "--ignore",
        "H903",
    ]);
    assert_eq!(text(&output.stdout), "1\tH408\tunused-parameter\n");
    // Only a warning is left: the exit code is 0 unless warnings fail.
    assert_eq!(output.status.code(), Some(0));
    let output = lint(&[
        "templates",
        "--no-config",
        "--statistics",
        "--select",
        "H408",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(output.status.code(), Some(1));
    // Nothing found: nothing printed, or an empty JSON list.
    let output = lint(&["templates/fine.json", "--statistics"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "");
    let output = lint(&["templates/fine.json", "--statistics", "--format", "json"]);
    assert_eq!(text(&output.stdout), "[]\n");
}

#[test]
fn statistics_are_a_table_under_github_actions_and_refuse_report_formats() {
    let output = lint_in(
        &fixtures(),
        &["templates", "--no-config", "--statistics"],
        true,
    );
    assert!(
        text(&output.stdout).starts_with("2\tH301\t"),
        "{}",
        text(&output.stdout)
    );
    for format in ["sarif", "github", "junit", "gitlab"] {
        let output = lint(&["templates", "--statistics", "--format", format]);
        assert_eq!(output.status.code(), Some(2), "{format}");
        assert_eq!(text(&output.stdout), "");
        assert!(
            text(&output.stderr).contains(
                "--statistics prints a table or JSON: use it with --format human, concise or json"
            ),
            "{}",
            text(&output.stderr)
        );
    }
}

#[test]
fn quiet_prints_only_the_findings() {
    let loud = lint(&["templates", "--no-config", "--format", "concise"]);
    for flag in ["--quiet", "-q"] {
        let quiet = lint(&["templates", "--no-config", "--format", "concise", flag]);
        assert_eq!(quiet.status.code(), Some(1));
        assert_eq!(quiet.stdout, loud.stdout);
        assert!(!quiet.stdout.is_empty());
        assert_eq!(text(&quiet.stderr), "", "{flag}");
    }
    assert!(text(&loud.stderr).contains("templates checked"));
    // With statistics: only the table.
    let output = lint(&["templates", "--no-config", "--statistics", "-q"]);
    assert!(text(&output.stdout).starts_with("2\tH301"));
    assert_eq!(text(&output.stderr), "");
    // Hotfix's own failures are never hidden.
    let output = lint(&["no-such-folder", "-q"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("hotfix: error"));
    // `--quiet --verbose` contradicts itself.
    let output = lint(&["templates", "--quiet", "--verbose"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot be used with"));
}

#[test]
fn quiet_leaves_out_the_baseline_notes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("templates")).unwrap();
    let template = dir.path().join("templates/repeat.yaml");
    std::fs::copy(fixtures().join("templates/repeat.yaml"), &template).unwrap();
    let written = lint_in(
        dir.path(),
        &["templates", "--write-baseline", "baseline.toml", "-q"],
        false,
    );
    assert_eq!(written.status.code(), Some(0));
    assert_eq!(text(&written.stderr), "");
    assert!(dir.path().join("baseline.toml").is_file());
    // Fix one finding: its baseline entry no longer occurs, which only a loud run says.
    let source = std::fs::read_to_string(&template).unwrap();
    std::fs::write(
        &template,
        source.replace("  unused:\n    type: string\n", ""),
    )
    .unwrap();
    let loud = lint_in(
        dir.path(),
        &["templates", "--baseline", "baseline.toml"],
        false,
    );
    assert!(
        text(&loud.stderr).contains("1 no longer occurs"),
        "{}",
        text(&loud.stderr)
    );
    let quiet = lint_in(
        dir.path(),
        &["templates", "--baseline", "baseline.toml", "--quiet"],
        false,
    );
    assert_eq!(quiet.status.code(), loud.status.code());
    assert_eq!(text(&quiet.stderr), "");
}

#[test]
fn silent_prints_nothing_and_keeps_the_exit_code() {
    for flag in ["--silent", "-s"] {
        let output = lint(&["templates", "--no-config", flag]);
        assert_eq!(output.status.code(), Some(1), "{flag}");
        assert_eq!(text(&output.stdout), "");
        assert_eq!(text(&output.stderr), "");
    }
    let output = lint(&["templates/fine.json", "--silent"]);
    assert_eq!(output.status.code(), Some(0));
    // A file named by `--output` is still written.
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let output = lint(&[
        "templates",
        "--no-config",
        "--silent",
        "--format",
        "json",
        "--output",
        report.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout), "");
    assert_eq!(text(&output.stderr), "");
    let written: Vec<Value> = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(written.len(), 6);
    // Failures are still said.
    let output = lint(&["no-such-folder", "--silent"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("hotfix: error"));
}

/// `hotfix lint … | head`: the reader goes away early, and that is not a failure of hotfix,
/// also for the formats written through `serde_json`.
#[test]
fn a_closed_pipe_is_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let mut template = String::from("heat_template_version: 2016-10-14\nparameters:\n");
    for i in 0..3000 {
        writeln!(template, "  unused{i}: {{type: string}}").unwrap();
    }
    std::fs::write(dir.path().join("big.yaml"), template).unwrap();
    for format in ["json", "sarif", "gitlab", "junit", "concise"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .current_dir(dir.path())
            .args([
                "lint",
                "big.yaml",
                "--extend-select",
                "H408",
                "--format",
                format,
            ])
            .env_remove("GITHUB_ACTIONS")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run hotfix");
        // Close the reading end before hotfix writes: its output (far more than a pipe holds)
        // meets a closed pipe.
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("hotfix ends");
        let stderr = text(&output.stderr);
        assert!(
            !stderr.contains("hotfix: error") && !stderr.contains("panicked"),
            "{format}: {stderr}"
        );
        assert_eq!(output.status.code(), Some(0), "{format}: {stderr}");
    }
}
