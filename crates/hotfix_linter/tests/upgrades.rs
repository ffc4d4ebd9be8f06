//! Every upgrade rule against its fixtures, with the invariants every upgrade must keep.
//!
//! Fixtures live in `testdata/upgrades/<CODE>/*.yaml` (or `.json`). A first line
//! `# hotfix-test: --to VERSION [--unsafe-fixes] [--version-style date|name]` sets the options
//! (default: `--to wallaby`). Fixtures whose name starts with `none_` must not be reported by
//! the rule; every other fixture must be. Each fixture's input, findings and resulting diff are
//! an insta snapshot in `snapshots/upgrades/`. For every fixture the harness checks: the
//! upgrade converges, its text parses, upgrading again changes nothing, A→B→C gives the same
//! text as A→C, and every byte outside the edited ranges is the original's.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hotfix_hot::{Template, Version};
use hotfix_linter::upgrade::{
    Upgrade, UpgradeOptions, UpgradeStatus, VersionStyle, all_upgrade_rules, check_step, upgrade,
};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/upgrades")
}

/// The options a fixture asks for in its first line.
fn options(source: &str) -> UpgradeOptions {
    let mut options = UpgradeOptions {
        target: Version::LATEST,
        unsafe_fixes: false,
        version_style: VersionStyle::Keep,
    };
    let Some(line) = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# hotfix-test:"))
    else {
        return options;
    };
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        match word {
            "--to" => {
                options.target = words
                    .next()
                    .and_then(Version::parse)
                    .expect("--to takes a version");
            }
            "--unsafe-fixes" => options.unsafe_fixes = true,
            "--version-style" => {
                options.version_style = match words.next() {
                    Some("date") => VersionStyle::Date,
                    Some("name") => VersionStyle::Name,
                    _ => VersionStyle::Keep,
                };
            }
            other => panic!("unknown fixture option {other}"),
        }
    }
    options
}

fn status(result: &Upgrade) -> String {
    match &result.status {
        UpgradeStatus::AlreadyAtTarget { version } => format!("already at {version}"),
        UpgradeStatus::Upgraded { from, to } => {
            format!("upgraded {from} → {to} ({} rewrites)", result.fixes)
        }
        UpgradeStatus::Blocked {
            from,
            reached,
            blocked,
        } => {
            let mut out = format!(
                "upgraded {from} → {reached}, blocked at {} → {}",
                blocked.step.0, blocked.step.1
            );
            for blocker in blocked.blockers() {
                let d = &blocker.diagnostic;
                let _ = write!(
                    out,
                    "\n  by {} at {}:{}: {}\n    help: {}",
                    d.code,
                    blocker.line,
                    blocker.column,
                    d.message,
                    d.help.as_deref().unwrap_or("")
                );
            }
            if let Some(reach) = &blocked.unsafe_fixes {
                let _ = write!(
                    out,
                    "\n  --unsafe-fixes would reach {}{}",
                    reach.reached,
                    if reach.blocked {
                        " (blocked there)"
                    } else {
                        ""
                    }
                );
                for (code, message) in &reach.rewrites {
                    let _ = write!(out, "\n    {code}: {message}");
                }
            }
            out
        }
    }
}

fn report(source: &str, options: &UpgradeOptions, result: &Upgrade) -> String {
    let lines = hotfix_yaml::LineIndex::new(&result.text);
    let mut out = format!(
        "options: --to {}{}\nstatus: {}\n",
        options.target,
        if options.unsafe_fixes {
            " --unsafe-fixes"
        } else {
            ""
        },
        status(result)
    );
    for (code, message) in &result.unsafe_applied {
        let _ = writeln!(out, "{code} unsafe rewrite applied: {message}");
    }
    for d in &result.diagnostics {
        let at = lines.position(&result.text, d.span.start);
        let _ = writeln!(
            out,
            "{} {}:{} {}: {}",
            d.code,
            at.line,
            at.char_col,
            d.severity.as_str(),
            d.message
        );
        if let Some(help) = &d.help {
            let _ = writeln!(out, "  help: {help}");
        }
        if let Some(fix) = &d.fix {
            let _ = writeln!(
                out,
                "  fix ({}): {}",
                fix.applicability.as_str(),
                fix.message
            );
        }
    }
    out.push_str("diff:\n");
    out.push_str(
        &similar::TextDiff::from_lines(source, &result.text)
            .unified_diff()
            .context_radius(2)
            .to_string(),
    );
    out
}

/// Whether the rule reports anything on the fixture, in its own step (or, for a rule of every
/// step, in any step up to the target).
fn rule_reports(code: &str, source: &str, target: Version) -> bool {
    let Ok(doc) = hotfix_yaml::parse(source) else {
        return false;
    };
    let Some(version) = Template::new(&doc).version() else {
        return false;
    };
    let Some(rule) = all_upgrade_rules().iter().find(|r| r.code == code) else {
        return false;
    };
    let steps: Vec<(Version, Version)> = match rule.step {
        Some(step) => vec![step],
        None => Version::ALL
            .windows(2)
            .map(|w| (w[0], w[1]))
            .filter(|&(from, to)| from >= version && to <= target)
            .collect(),
    };
    steps.into_iter().any(|step| {
        if step.0 == version {
            return rule_reports_at(code, source, step, target);
        }
        // The step is further on: run the upgrade up to it first.
        upgrade(
            source,
            &UpgradeOptions {
                target: step.0,
                unsafe_fixes: false,
                version_style: VersionStyle::Keep,
            },
        )
        .is_ok_and(|before| rule_reports_at(code, &before.text, step, target))
    })
}

fn rule_reports_at(code: &str, source: &str, step: (Version, Version), target: Version) -> bool {
    let Ok(doc) = hotfix_yaml::parse(source) else {
        return false;
    };
    if Template::new(&doc).version() != Some(step.0) {
        return false;
    }
    check_step(&doc, step, target)
        .iter()
        .any(|d| d.code == code)
}

/// How many findings each of the lint rules that mark a likely mistake reports, of those that
/// a later version cannot take back: a removed function stays removed (`removed-function`),
/// and `Fn::GetAtt` is a function in no version (`cfn-function-not-in-hot`). (The others
/// depend on which keys are functions in the version: `{Ref: x, note: y}` is a function with
/// sibling keys in 2013-05-23, where `Ref` is a function, and plain data in wallaby; the
/// upgrade guards them step by step.)
fn likely_mistakes(text: &str) -> std::collections::BTreeMap<&'static str, usize> {
    let settings = hotfix_linter::Settings {
        select: ["H201", "H204"]
            .iter()
            .filter_map(|c| hotfix_linter::Selector::parse(c))
            .collect(),
        ..hotfix_linter::Settings::default()
    };
    let mut out = std::collections::BTreeMap::new();
    for d in hotfix_linter::lint("", text.as_bytes(), &settings) {
        *out.entry(d.code).or_insert(0) += 1;
    }
    out
}

fn check_invariants(name: &str, source: &str, options: &UpgradeOptions, result: &Upgrade) {
    hotfix_yaml::parse(&result.text)
        .unwrap_or_else(|e| panic!("{name}: the upgraded text does not parse: {e}"));
    // No rewrite erases a likely mistake: what lint reports on the original, it still reports.
    let after = likely_mistakes(&result.text);
    for (code, count) in likely_mistakes(source) {
        let left = after.get(code).copied().unwrap_or(0);
        assert!(
            left >= count,
            "{name}: the upgrade erased {} of the {count} {code} findings",
            count - left
        );
    }
    let again = upgrade(&result.text, options).unwrap_or_else(|e| panic!("{name}: again: {e}"));
    assert_eq!(
        again.text, result.text,
        "{name}: upgrading again changed the text"
    );
    for (range, at) in result.segments.kept() {
        assert_eq!(
            result.text.get(at..at + range.len()),
            source.get(range.clone()),
            "{name}: original bytes {range:?} did not survive"
        );
    }
    // A → B → C gives what A → C gives, for every B in between.
    let original = Template::new(&hotfix_yaml::parse(source).expect("parses")).version();
    let Some(original) = original else { return };
    for middle in Version::ALL
        .iter()
        .copied()
        .filter(|v| *v > original && *v < options.target)
    {
        let first = upgrade(
            source,
            &UpgradeOptions {
                target: middle,
                ..options.clone()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: to {middle}: {e}"));
        let second = upgrade(&first.text, options)
            .unwrap_or_else(|e| panic!("{name}: {middle} onwards: {e}"));
        assert_eq!(
            second.text, result.text,
            "{name}: upgrading through {middle} gives a different text"
        );
    }
}

#[test]
fn every_upgrade_rule_has_fixtures_that_keep_the_invariants() {
    let mut missing = Vec::new();
    for rule in all_upgrade_rules() {
        let dir = testdata().join(rule.code);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            missing.push(rule.code);
            continue;
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.expect("an entry").path()).collect();
        files.sort();
        let mut reported = 0;
        for file in files {
            let file_name = file
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a name")
                .to_owned();
            let name = format!("{}/{file_name}", rule.code);
            let source = std::fs::read_to_string(&file).expect("a UTF-8 fixture");
            let options = options(&source);
            let result = upgrade(&source, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
            check_invariants(&name, &source, &options, &result);
            let reports = rule_reports(rule.code, &source, options.target);
            if file_name.starts_with("none_") {
                assert!(
                    !reports,
                    "{name}: {} should not report this fixture",
                    rule.code
                );
            } else {
                assert!(reports, "{name}: {} should report this fixture", rule.code);
                reported += 1;
            }
            let stem = file_name
                .rsplit_once('.')
                .map_or(file_name.as_str(), |(s, _)| s);
            insta::with_settings!({
                snapshot_path => "../../../snapshots/upgrades",
                prepend_module_to_snapshot => false,
                omit_expression => true,
                description => format!("{name}\n{source}"),
            }, {
                insta::assert_snapshot!(format!("{}__{stem}", rule.code), report(&source, &options, &result));
            });
        }
        assert!(reported > 0, "{}: needs a fixture it reports", rule.code);
    }
    assert!(
        missing.is_empty(),
        "upgrade rules without fixtures in testdata/upgrades: {missing:?}"
    );
}

#[test]
fn upgrade_rule_codes_are_unique_sorted_and_documented() {
    let rules = all_upgrade_rules();
    for pair in rules.windows(2) {
        assert!(
            pair[0].code < pair[1].code,
            "{:?} before {:?}",
            pair[0],
            pair[1]
        );
    }
    for rule in rules {
        assert!(
            rule.code.starts_with('U') && rule.code.len() == 4,
            "{rule:?}"
        );
        let doc = rule.documentation();
        for heading in [
            "## What it does",
            "## Why is this bad?",
            "## Example",
            "Use instead:",
        ] {
            assert!(doc.contains(heading), "{rule:?} docs lack {heading:?}");
        }
    }
}

#[test]
fn every_upgrade_rule_doc_example_is_reported_and_its_use_instead_is_not() {
    for rule in all_upgrade_rules() {
        let (example, instead) = hotfix_linter::docs::upgrade_doc_examples(rule);
        let example =
            example.unwrap_or_else(|| panic!("{}: no ```yaml block under ## Example", rule.code));
        let instead =
            instead.unwrap_or_else(|| panic!("{}: no ```yaml block under Use instead:", rule.code));
        let target = rule.step.map_or(Version::LATEST, |(_, to)| to);
        assert!(
            rule_reports(rule.code, &example, target),
            "{}: the example is not reported",
            rule.code
        );
        // "Use instead" may already be at a later version (the upgraded form): then the rule
        // has nothing to report by construction; otherwise it must not report it.
        assert!(
            !rule_reports(rule.code, &instead, target),
            "{}: \"Use instead\" is still reported",
            rule.code
        );
    }
}

#[test]
fn a_function_the_bump_would_remove_where_no_rule_rewrites_it_blocks_the_step() {
    // `TemplateURL` is not a resource key Heat accepts: no rule rewrites the `Fn::Join` under
    // it, and 2014-10-16 has no `Fn::Join`. Bumping the version would add that error; the
    // blocker named is the key Heat rejects at any version (Heat, validate: `"TemplateURL" is
    // not a valid keyword inside a resource definition`), which is what to fix.
    let source = "heat_template_version: 2013-05-23\nresources:\n  r:\n    type: OS::Heat::None\n    TemplateURL:\n      Fn::Join: ['', [a, b]]\n    properties:\n      value: {'Fn::Join': ['', [a, b]]}\n";
    let result = upgrade(source, &options("")).expect("upgrade");
    let UpgradeStatus::Blocked { blocked, .. } = &result.status else {
        panic!("not blocked: {}", status(&result));
    };
    assert_eq!(
        blocked.step,
        (
            Version::parse("2013-05-23").unwrap(),
            Version::parse("2014-10-16").unwrap()
        )
    );
    let blocker = &blocked.blocker.diagnostic;
    assert_eq!(blocker.code, "H603");
    assert_eq!((blocked.blocker.line, blocked.blocker.column), (5, 5));
    assert!(blocker.fix.is_none(), "upgrade applies no lint fix");
    let help = blocker.help.as_deref().unwrap_or_default();
    assert!(
        help.contains("hotfix does not rewrite the `Fn::Join` under it"),
        "{help}"
    );
    assert!(blocked.more.is_empty(), "{:?}", blocked.more);
    // The text keeps the version its content meets, and the step's own rewrites are not kept
    // either: the file is left as it was.
    assert_eq!(result.text, source);
}
