//! Every template of `../shared/corpus` loads to exactly what Heat's own loader produces.
//!
//! The expectations are computed now, by `scripts/heat_load.py` running Heat's
//! `template_format.simple_parse` (from the `openstack-heat` package). This test needs
//! `../shared/corpus` and the Heat environment made by `scripts/setup-oracle.sh`; it is
//! ignored by a plain `cargo test` and run by `scripts/test.sh` beside `../shared` (the
//! `shared_` prefix: see `crates/hotfix_linter/tests/common/mod.rs`), where a missing corpus or
//! Python fails it loudly.

mod common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use common::{python, workspace};

fn shared() -> PathBuf {
    let path = hotfix_testkit::shared();
    assert!(
        path.join("corpus").is_dir(),
        "this test needs the template corpus at {} (set HOTFIX_SHARED to the shared folder)",
        path.join("corpus").display()
    );
    path
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's engine; run by scripts/test.sh beside ../shared"]
fn shared_corpus_loads_exactly_as_heat_loads_it() {
    let corpus = shared().join("corpus");
    let output = Command::new(python())
        .arg(workspace().join("scripts/heat_load.py"))
        .arg("tree")
        .arg(&corpus)
        .output()
        .expect("run scripts/heat_load.py");
    assert!(
        output.status.success(),
        "scripts/heat_load.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");

    let (mut equal, mut rejected, mut checked) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in stdout.lines() {
        let record: Value = serde_json::from_str(line).expect("a JSON line");
        let path = record["path"].as_str().expect("path");
        checked += 1;
        let bytes = std::fs::read(path).expect("read a corpus file");
        let ours = hotfix_yaml::check_bytes(&bytes)
            .and_then(hotfix_yaml::parse_unlimited)
            .and_then(|doc| doc.to_python_json());
        match (record.get("json").and_then(Value::as_str), ours) {
            (Some(expected), Ok(actual)) if expected == actual => equal += 1,
            (Some(expected), Ok(actual)) => failures.push(format!(
                "{path}: values differ\n  heat:   {}\n  hotfix: {}",
                first_difference(expected, &actual).0,
                first_difference(expected, &actual).1
            )),
            (Some(_), Err(err)) => {
                failures.push(format!("{path}: Heat loads it, hotfix fails: {err}"));
            }
            (None, Ok(_)) => failures.push(format!(
                "{path}: Heat fails ({}), hotfix loads it",
                record["error"]
            )),
            (None, Err(err)) => {
                assert!(!err.message.is_empty(), "{path}: an empty error message");
                rejected += 1;
            }
        }
    }
    eprintln!(
        "corpus: {checked} templates checked: {equal} identical to Heat's loader, {rejected} rejected by both, {} differences",
        failures.len()
    );
    assert!(
        checked > 500,
        "expected hundreds of corpus templates, found {checked}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The two texts around their first differing character.
fn first_difference(a: &str, b: &str) -> (String, String) {
    let at = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let window = |s: &str| {
        let mut start = at.saturating_sub(60).min(s.len());
        while !s.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (at + 60).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        s[start..end].to_owned()
    };
    (window(a), window(b))
}
