//! Fixes proven against Heat.
//!
//! Every rule that offers fixes is run alone on every fixture of `testdata/rules/` (so that a
//! rule's fix is also tried on the other rules' fixtures), with `--fix` and with
//! `--fix --unsafe-fixes`, and on every template of `../shared/corpus` with every rule and
//! `--fix`. Whenever a fix applied, Heat's own engine (`scripts/heat_oracle.py`) validates the
//! original and the fixed text (`validate` with generic types) and resolves both (`diff`, with
//! the parameters' defaults or values generated from their types).
//!
//! A Safe fix must keep what Heat computes: Heat accepts the original and the fixed text, and
//! resolves them identically. A Safe fix on a template Heat rejects proves nothing, so it
//! fails too: such a fix must be Unsafe. Unsafe fixes are only counted (how many keep the
//! result, how many change it, how many start from a template Heat rejects): a count of
//! Unsafe fixes that never change anything is a hint that one could be Safe. Ignored by a
//! plain `cargo test`; `scripts/test.sh` runs the `heat_` test everywhere and the `shared_` one
//! beside `../shared` (see `common`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hotfix_diagnostics::Applicability;
use hotfix_linter::{FixAvailability, Selector, Settings, all_rules, fix_file};
use serde_json::json;

mod common;

use common::{Heat, params, shared, workspace};

/// What Heat made of the fixes of one rule (or of the corpus), for one kind of run.
#[derive(Default)]
struct Tally {
    /// Templates a fix changed.
    fixed: usize,
    /// Heat accepts both texts and resolves them identically.
    same: usize,
    /// Heat accepts the original, and rejects the fixed text or resolves it differently.
    changed: Vec<String>,
    /// Heat rejects the original: nothing to compare.
    rejected: Vec<String>,
}

impl Tally {
    fn line(&self) -> String {
        format!(
            "{} fixed: {} resolve identically, {} change what Heat computes, {} start from a template Heat rejects",
            self.fixed,
            self.same,
            self.changed.len(),
            self.rejected.len()
        )
    }
}

/// Fails on every Safe fix that changes what Heat computes or starts from a template Heat
/// rejects.
fn assert_safe(safe: &[&Tally]) {
    let wrong: Vec<&String> = safe
        .iter()
        .flat_map(|t| t.changed.iter().chain(&t.rejected))
        .collect();
    assert!(
        wrong.is_empty(),
        "Safe fixes that change what Heat computes, or that start from a template Heat rejects (make them Unsafe):\n{}",
        wrong
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_every_safe_fix_of_a_fixture_keeps_what_heat_computes() {
    let mut heat = Heat::start();
    let mut tallies: BTreeMap<(&str, &str), Tally> = BTreeMap::new();
    let fixtures = files(&workspace().join("testdata/rules"));
    let fixable = all_rules()
        .iter()
        .filter(|r| r.fix != FixAvailability::None);
    for rule in fixable {
        let settings = Settings {
            select: vec![Selector::parse(rule.code).expect("a rule code")],
            ..Settings::default()
        };
        for path in &fixtures {
            let source = std::fs::read_to_string(path).expect("a UTF-8 fixture");
            let label = path
                .strip_prefix(workspace())
                .unwrap_or(path)
                .display()
                .to_string();
            for unsafe_fixes in [false, true] {
                let outcome = fix_file(&label, &source, &settings, unsafe_fixes)
                    .unwrap_or_else(|e| panic!("{label}: {e}"));
                // The Unsafe run is judged only where an Unsafe fix applied: its Safe fixes are
                // the Safe run's.
                let kind = if unsafe_fixes { "unsafe" } else { "safe" };
                let unsafe_applied = outcome
                    .applied
                    .iter()
                    .any(|a| a.applicability == Applicability::Unsafe);
                if outcome.applied.is_empty() || (unsafe_fixes && !unsafe_applied) {
                    continue;
                }
                let tally = tallies.entry((rule.code, kind)).or_default();
                judge(&mut heat, &label, &source, &outcome.text, tally);
            }
        }
    }
    for ((code, kind), tally) in &tallies {
        eprintln!(
            "fix oracle: {code} {kind} fixes on fixtures: {}",
            tally.line()
        );
        for what in tally.changed.iter().chain(&tally.rejected) {
            eprintln!("    {what}");
        }
    }
    let safe: Vec<&Tally> = tallies
        .iter()
        .filter(|((_, kind), _)| *kind == "safe")
        .map(|(_, t)| t)
        .collect();
    assert!(
        safe.iter().map(|t| t.fixed).sum::<usize>() > 0,
        "no Safe fix applied to any fixture: nothing was proven"
    );
    assert_safe(&safe);
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's engine; run by scripts/test.sh beside ../shared"]
fn shared_every_safe_fix_of_the_corpus_keeps_what_heat_computes() {
    let mut heat = Heat::start();
    let mut corpus = Tally::default();
    let mut templates = 0;
    for path in files(&shared().join("corpus")) {
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue;
        };
        if !source
            .lines()
            .any(|l| l.starts_with("heat_template_version"))
        {
            continue;
        }
        templates += 1;
        let label = path
            .strip_prefix(shared())
            .unwrap_or(&path)
            .display()
            .to_string();
        let outcome = fix_file(&label, &source, &Settings::default(), false)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        if !outcome.applied.is_empty() {
            judge(&mut heat, &label, &source, &outcome.text, &mut corpus);
        }
    }
    eprintln!(
        "fix oracle: corpus ({templates} templates, every rule, --fix): {}",
        corpus.line()
    );
    assert!(templates > 300, "too few corpus templates: {templates}");
    assert_safe(&[&corpus]);
}

/// Asks Heat about one original and its fixed text.
fn judge(heat: &mut Heat, label: &str, original: &str, fixed: &str, tally: &mut Tally) {
    tally.fixed += 1;
    if let Some(error) = validate(heat, original) {
        tally
            .rejected
            .push(format!("{label}: Heat rejects the original: {error}"));
        return;
    }
    if let Some(error) = validate(heat, fixed) {
        tally
            .changed
            .push(format!("{label}: Heat rejects the fixed text: {error}"));
        return;
    }
    let answer = heat.request(&json!({
        "cmd": "diff", "a": original, "b": fixed, "params": params(original),
    }));
    if answer["equal"] == json!(true) {
        tally.same += 1;
        return;
    }
    let paths: Vec<&str> = answer["diffs"]
        .as_array()
        .map(|diffs| diffs.iter().filter_map(|d| d["path"].as_str()).collect())
        .unwrap_or_default();
    let what = if paths.is_empty() {
        answer.to_string()
    } else {
        paths.join(", ")
    };
    tally
        .changed
        .push(format!("{label}: Heat resolves differently: {what}"));
}

/// `None` when Heat accepts the template, else its error text.
fn validate(heat: &mut Heat, template: &str) -> Option<String> {
    let response =
        heat.request(&json!({"cmd": "validate", "template": template, "types": "generic"}));
    if response["valid"] == json!(true) {
        return None;
    }
    Some(
        response["error"]
            .as_str()
            .or_else(|| response["request_error"].as_str())
            .unwrap_or("(no message)")
            .to_owned(),
    )
}

/// Every YAML or JSON file under `dir` (not Jinja2 sources, not hidden folders), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') {
                    stack.push(path);
                }
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
                && !name.contains(".j2")
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
