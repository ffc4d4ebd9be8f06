//! Every rule's fixes against its fixtures (`testdata/rules/<CODE>/`), with the invariants
//! every fix must keep.
//!
//! For every fixture on which the rule offers a fix, `fix_file` runs with `--fix` and with
//! `--fix --unsafe-fixes` (that rule alone, then every rule): fixing converges, the fixed text
//! loads, fixing it again changes nothing, every byte outside the edits is the original's,
//! each applied fix removed its finding and made none, and no finding that is left still
//! offers a fix that would be applied. The rule's declared fix availability must match what its
//! fixtures show. What each fixture's fixes do is an insta snapshot in `snapshots/fixes/`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hotfix_diagnostics::{Applicability, Diagnostic};
use hotfix_linter::fix::{FixOutcome, is_applied};
use hotfix_linter::{FixAvailability, Rule, Selector, Settings, all_rules, fix_file, lint};
use hotfix_yaml::LineIndex;

mod common;

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/rules")
}

/// Only the rule, with the `heat-release` the fixture names (as `tests/rules.rs` lints it).
fn only(code: &str, source: &str) -> Settings {
    Settings {
        select: vec![Selector::parse(code).expect("a rule code")],
        heat_release: common::heat_release_named_in(source),
        ..Settings::default()
    }
}

/// The rule's fixtures: `(CODE/file name, text)`, sorted.
fn fixtures(rule: &Rule) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(testdata().join(rule.code)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries.map(|e| e.expect("a dir entry").path()).collect();
    files.sort();
    // Folders hold the files an environment fixture names.
    files.retain(|file| file.is_file());
    files
        .iter()
        .map(|file| {
            let name = file
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a file name");
            (
                format!("{}/{name}", rule.code),
                std::fs::read_to_string(file).expect("a UTF-8 fixture"),
            )
        })
        .collect()
}

#[test]
fn every_fix_converges_loads_is_idempotent_and_removes_only_its_own_finding() {
    let mut mismatched = Vec::new();
    for &rule in all_rules() {
        let (mut with_fix, mut without_fix) = (0, 0);
        for (name, source) in fixtures(rule) {
            let settings = only(rule.code, &source);
            let before: Vec<Diagnostic> = lint(&name, source.as_bytes(), &settings)
                .into_iter()
                .filter(|d| d.code == rule.code)
                .collect();
            let offered = before.iter().filter(|d| d.fix.is_some()).count();
            with_fix += offered;
            without_fix += before.len() - offered;
            assert!(
                before.iter().all(|d| d
                    .fix
                    .as_ref()
                    .is_none_or(|f| f.applicability != Applicability::DisplayOnly)),
                "{name}: a display-only fix: say it in the help instead"
            );
            // Every rule together, on every fixture: fixes of different rules must not fight.
            for unsafe_fixes in [false, true] {
                let outcome = fix_file(&name, &source, &Settings::default(), unsafe_fixes)
                    .unwrap_or_else(|e| panic!("{name} (all rules): {e}"));
                check_invariants(&name, &source, &Settings::default(), unsafe_fixes, &outcome);
            }
            if offered == 0 {
                continue;
            }
            let mut report = String::new();
            let mut previous: Option<FixOutcome> = None;
            for unsafe_fixes in [false, true] {
                let outcome = fix_file(&name, &source, &settings, unsafe_fixes)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                check_invariants(&name, &source, &settings, unsafe_fixes, &outcome);
                // Each fix removes its finding (one edit of an anchored node may remove the
                // findings of its aliases too), and no fix makes a finding that was not there.
                let after = outcome.diagnostics.len();
                assert!(
                    after + outcome.applied.len() <= before.len(),
                    "{name}: {} findings, {} fixes applied, yet {after} left",
                    before.len(),
                    outcome.applied.len()
                );
                let mut messages: Vec<&str> = before.iter().map(|d| d.message.as_str()).collect();
                for d in &outcome.diagnostics {
                    let Some(i) = messages.iter().position(|m| *m == d.message) else {
                        panic!("{name}: fixing made a new finding: {}", d.message);
                    };
                    messages.swap_remove(i);
                }
                let flag = if unsafe_fixes {
                    "--fix --unsafe-fixes"
                } else {
                    "--fix"
                };
                if previous.as_ref().is_some_and(|p| p.text == outcome.text) {
                    let _ = writeln!(report, "\n{flag}: the same as --fix");
                } else {
                    describe(&mut report, flag, &source, &outcome);
                }
                previous = Some(outcome);
            }
            let stem = name
                .rsplit_once('.')
                .map_or(name.as_str(), |(s, _)| s)
                .replace('/', "__");
            insta::with_settings!({
                snapshot_path => "../../../snapshots/fixes",
                prepend_module_to_snapshot => false,
                omit_expression => true,
                description => format!("{name}\n{source}"),
            }, {
                insta::assert_snapshot!(stem, report.trim_start());
            });
        }
        let declared = rule.fix;
        let shown = match (with_fix, without_fix) {
            (0, _) => FixAvailability::None,
            (_, 0) => FixAvailability::Always,
            _ => FixAvailability::Sometimes,
        };
        if declared != shown {
            mismatched.push(format!(
                "{}: declares fix {}, its fixtures show {} ({with_fix} findings with a fix, {without_fix} without)",
                rule.code,
                declared.as_str(),
                shown.as_str()
            ));
        }
    }
    assert!(
        mismatched.is_empty(),
        "declared fix availability does not match the fixtures (add a fixture or correct the declaration):\n{}",
        mismatched.join("\n")
    );
}

/// What must hold for every fixed text.
fn check_invariants(
    name: &str,
    source: &str,
    settings: &Settings,
    unsafe_fixes: bool,
    outcome: &FixOutcome,
) {
    if outcome.applied.is_empty() {
        assert_eq!(
            outcome.text, source,
            "{name}: no fix applied, yet the text changed"
        );
        return;
    }
    hotfix_yaml::parse(&outcome.text)
        .unwrap_or_else(|e| panic!("{name}: the fixed text does not load: {e}"));
    for applied in &outcome.applied {
        assert!(
            is_applied(applied.applicability, unsafe_fixes),
            "{name}: a {} fix was applied with unsafe_fixes={unsafe_fixes}",
            applied.applicability.as_str()
        );
    }
    for d in &outcome.diagnostics {
        assert!(
            !d.fix
                .as_ref()
                .is_some_and(|f| is_applied(f.applicability, unsafe_fixes)),
            "{name}: {} still offers a fix that would be applied: {d:?}",
            d.code
        );
    }
    for (range, at) in outcome.segments.kept() {
        assert_eq!(
            outcome.text.get(at..at + range.len()),
            source.get(range.clone()),
            "{name}: original bytes {range:?} did not survive"
        );
    }
    let again = fix_file(name, &outcome.text, settings, unsafe_fixes)
        .unwrap_or_else(|e| panic!("{name}: fixing again: {e}"));
    assert!(
        again.applied.is_empty() && again.text == outcome.text,
        "{name}: fixing again changed the text: {:?}",
        again.applied
    );
}

/// The fixes applied (where they were in the original), what is left, and the diff.
fn describe(out: &mut String, flag: &str, source: &str, outcome: &FixOutcome) {
    let lines = LineIndex::new(source);
    let _ = writeln!(out, "\n{flag}: {} applied", outcome.applied.len());
    for applied in &outcome.applied {
        let at = lines.position(source, applied.offset);
        let _ = writeln!(
            out,
            "  {}:{} {} ({}): {}",
            at.line,
            at.char_col,
            applied.code,
            applied.applicability.as_str(),
            applied.message
        );
    }
    let left = LineIndex::new(&outcome.text);
    for d in &outcome.diagnostics {
        let at = left.position(&outcome.text, d.span.start);
        let fix = d.fix.as_ref().map_or_else(String::new, |f| {
            format!(" [fix ({}): {}]", f.applicability.as_str(), f.message)
        });
        let _ = writeln!(
            out,
            "  left {}:{} {}: {}{fix}",
            at.line, at.char_col, d.code, d.message
        );
    }
    out.push_str(
        &similar::TextDiff::from_lines(source, &outcome.text)
            .unified_diff()
            .context_radius(2)
            .to_string(),
    );
}
