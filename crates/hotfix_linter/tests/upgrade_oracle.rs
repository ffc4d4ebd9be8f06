//! Upgrades proven against Heat, and upgrades of the whole corpus.
//!
//! For every upgrade fixture and every corpus template that hotfix rewrites, the original (at
//! its version) and the upgraded text (at the target) are resolved by Heat's own engine
//! (`scripts/heat_oracle.py`, `diff`), with the parameters' defaults and, where there is none,
//! a value generated from the type: every Safe rewrite must resolve identically.
//! Ignored by a plain `cargo test`; `scripts/test.sh` runs the `heat_` test everywhere and the
//! `shared_` ones beside `../shared` (see `common`).

use std::collections::BTreeMap;

use hotfix_hot::{Template, Version};
use hotfix_linter::upgrade::{UpgradeOptions, UpgradeStatus, VersionStyle, upgrade};
use serde_json::{Value, json};

mod common;

use common::{Heat, files, params, shared, workspace};

fn diff(heat: &mut Heat, a: &str, b: &str, params: &Value) -> Value {
    heat.request(&json!({"cmd": "diff", "a": a, "b": b, "params": params}))
}

/// `resources.NAME` / `outputs.NAME` of every definition a warning points into.
fn warned_definitions(text: &str, diagnostics: &[hotfix_diagnostics::Diagnostic]) -> Vec<String> {
    let Ok(doc) = hotfix_yaml::parse(text) else {
        return Vec::new();
    };
    let template = Template::new(&doc);
    let mut out = Vec::new();
    for d in diagnostics
        .iter()
        .filter(|d| d.severity == hotfix_diagnostics::Severity::Warning)
    {
        for (section, defs) in [
            ("resources", &template.resources),
            ("outputs", &template.outputs),
        ] {
            for def in defs {
                let span = doc.node(def.value).span;
                if span.start <= d.span.start && d.span.end <= span.end {
                    out.push(format!("{section}.{}", def.name));
                }
            }
        }
    }
    out
}

fn fixture_options(source: &str) -> UpgradeOptions {
    let mut target = Version::LATEST;
    if let Some(line) = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# hotfix-test:"))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "--to")
            && let Some(v) = words.get(i + 1).and_then(|w| Version::parse(w))
        {
            target = v;
        }
    }
    // Safe rewrites only: those are the ones that must not change what Heat computes.
    UpgradeOptions {
        target,
        unsafe_fixes: false,
        version_style: VersionStyle::Keep,
    }
}

#[derive(Default)]
struct Tally {
    rewritten: usize,
    equal: usize,
    /// Differ only where the upgrade reported a change of meaning.
    warned: usize,
    blocked: BTreeMap<String, usize>,
    differ: Vec<String>,
}

fn prove(heat: &mut Heat, label: &str, source: &str, options: &UpgradeOptions, tally: &mut Tally) {
    let Ok(result) = upgrade(source, options) else {
        return;
    };
    if let UpgradeStatus::Blocked { blocked, .. } = &result.status {
        *tally
            .blocked
            .entry(blocked.blocker.diagnostic.code.to_owned())
            .or_default() += 1;
    }
    if result.text == source {
        return;
    }
    tally.rewritten += 1;
    let answer = diff(heat, source, &result.text, &params(source));
    if answer["equal"] == json!(true) {
        tally.equal += 1;
        return;
    }
    // A change of meaning the upgrade reported as a warning is expected: only the differences
    // in definitions that no warning speaks of count against the rewrites.
    let warned = warned_definitions(&result.text, &result.diagnostics);
    let unexplained: Vec<String> = answer["diffs"].as_array().map_or_else(
        || vec![answer.to_string()],
        |diffs| {
            diffs
                .iter()
                .filter_map(|d| d["path"].as_str())
                .filter(|path| {
                    let owner = path.split('.').take(2).collect::<Vec<_>>().join(".");
                    !warned.contains(&owner)
                })
                .map(str::to_owned)
                .collect()
        },
    );
    if unexplained.is_empty() {
        tally.warned += 1;
    } else {
        tally
            .differ
            .push(format!("{label}: {}", unexplained.join(", ")));
    }
}

/// The summary line of a proof.
fn summary(name: &str, tally: &Tally) -> String {
    format!(
        "upgrade oracle ({name}): {} rewritten, {} resolve identically under Heat, {} differ only where a warning says the meaning changes, {} differ; blocked: {:?}",
        tally.rewritten,
        tally.equal,
        tally.warned,
        tally.differ.len(),
        tally.blocked
    )
}

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_every_safe_rewrite_of_a_fixture_resolves_identically() {
    let mut heat = Heat::start();
    let mut fixtures = Tally::default();
    let mut paths = Vec::new();
    files(&workspace().join("testdata/upgrades"), &mut paths);
    paths.sort();
    for path in &paths {
        let source = std::fs::read_to_string(path).expect("a fixture");
        let label = path
            .strip_prefix(workspace())
            .unwrap_or(path)
            .display()
            .to_string();
        prove(
            &mut heat,
            &label,
            &source,
            &fixture_options(&source),
            &mut fixtures,
        );
    }
    eprintln!("{}", summary("fixtures", &fixtures));
    let differ = fixtures.differ.join("\n");
    assert!(
        fixtures.rewritten > 50,
        "too few rewrites: {}",
        fixtures.rewritten
    );
    assert!(
        differ.is_empty(),
        "Safe rewrites that Heat resolves differently:\n{differ}"
    );
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's engine; run by scripts/test.sh beside ../shared"]
fn shared_every_safe_rewrite_of_the_corpus_resolves_identically() {
    let mut heat = Heat::start();
    let mut corpus = Tally::default();
    let mut paths = Vec::new();
    files(&shared().join("corpus"), &mut paths);
    paths.sort();
    let options = UpgradeOptions {
        target: Version::LATEST,
        unsafe_fixes: false,
        version_style: VersionStyle::Keep,
    };
    for path in &paths {
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        if !source
            .lines()
            .any(|l| l.starts_with("heat_template_version"))
        {
            continue;
        }
        let label = path
            .strip_prefix(shared())
            .unwrap_or(path)
            .display()
            .to_string();
        prove(&mut heat, &label, &source, &options, &mut corpus);
    }
    eprintln!("{}", summary("corpus", &corpus));
    let differ = corpus.differ.join("\n");
    assert!(
        corpus.rewritten > 100,
        "too few rewrites: {}",
        corpus.rewritten
    );
    assert!(
        differ.is_empty(),
        "Safe rewrites that Heat resolves differently:\n{differ}"
    );
}

/// How many findings each of the likely-mistake rules that no later version takes back
/// (`removed-function`, `cfn-function-not-in-hot`) reports on a text: an upgrade never lowers
/// them.
fn likely_mistakes(text: &str) -> (usize, usize) {
    let settings = hotfix_linter::Settings {
        select: ["H201", "H204"]
            .iter()
            .filter_map(|c| hotfix_linter::Selector::parse(c))
            .collect(),
        ..hotfix_linter::Settings::default()
    };
    let found = hotfix_linter::lint("", text.as_bytes(), &settings);
    let count = |code: &str| found.iter().filter(|d| d.code == code).count();
    (count("H201"), count("H204"))
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_upgrading_the_corpus_converges_is_idempotent_and_keeps_every_other_byte_and_likely_mistake()
 {
    let mut paths = Vec::new();
    files(&shared().join("corpus"), &mut paths);
    paths.sort();
    let (mut templates, mut rewritten, mut blocked, mut failed) = (0, 0, 0, Vec::new());
    for target in [Version::V2015_10_15, Version::LATEST] {
        for unsafe_fixes in [false, true] {
            let options = UpgradeOptions {
                target,
                unsafe_fixes,
                version_style: VersionStyle::Keep,
            };
            for path in &paths {
                let Ok(source) = std::fs::read_to_string(path) else {
                    continue;
                };
                if !source
                    .lines()
                    .any(|l| l.starts_with("heat_template_version"))
                {
                    continue;
                }
                let result = match upgrade(&source, &options) {
                    Ok(result) => result,
                    Err(
                        hotfix_linter::upgrade::UpgradeError::Load(_)
                        | hotfix_linter::upgrade::UpgradeError::NoVersion,
                    ) => continue,
                    Err(err) => {
                        failed.push(format!("{}: {err}", path.display()));
                        continue;
                    }
                };
                templates += 1;
                if result.text != source {
                    rewritten += 1;
                }
                if matches!(result.status, UpgradeStatus::Blocked { .. }) {
                    blocked += 1;
                }
                if hotfix_yaml::parse(&result.text).is_err() {
                    failed.push(format!(
                        "{}: the upgraded text does not parse",
                        path.display()
                    ));
                }
                match upgrade(&result.text, &options) {
                    Ok(again) if again.text == result.text => {}
                    _ => failed.push(format!(
                        "{}: a second upgrade changes the text",
                        path.display()
                    )),
                }
                let (before, after) = (likely_mistakes(&source), likely_mistakes(&result.text));
                if after.0 < before.0 || after.1 < before.1 {
                    failed.push(format!(
                        "{}: the upgrade erased a finding of H201 or H204",
                        path.display()
                    ));
                }
                for (range, at) in result.segments.kept() {
                    if result.text.get(at..at + range.len()) != source.get(range.clone()) {
                        failed.push(format!(
                            "{}: bytes {range:?} changed outside the edits",
                            path.display()
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "corpus upgrades: {templates} runs, {rewritten} rewritten, {blocked} blocked, {} failures",
        failed.len()
    );
    assert!(templates > 1000, "too few templates: {templates}");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// `conditions-take-effect` (U502) against Heat: every fixture it reports is one Heat refuses
/// at its version, with a text the rule quotes, and one Heat accepts once upgraded with
/// `--unsafe-fixes` (the conditions then take effect); without it the upgrade stops before
/// 2016-10-14.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_conditions_refused_before_newton_take_effect_after_the_upgrade() {
    let mut heat = Heat::start();
    let mut validate = |text: &str| -> String {
        let answer =
            heat.request(&json!({"cmd": "validate", "template": text, "types": "generic"}));
        if answer["valid"] == json!(true) {
            String::new()
        } else {
            answer["error"]
                .as_str()
                .unwrap_or("(no message)")
                .to_owned()
        }
    };
    let mut paths = Vec::new();
    files(&workspace().join("testdata/upgrades/U502"), &mut paths);
    paths.sort();
    let mut proven = 0;
    for path in &paths {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("none_") {
            continue;
        }
        let source = std::fs::read_to_string(path).expect("a fixture");
        let mut options = fixture_options(&source);
        let blocked = upgrade(&source, &options).expect("upgrades");
        let UpgradeStatus::Blocked { blocked, .. } = &blocked.status else {
            panic!("{name}: not blocked without --unsafe-fixes");
        };
        assert_eq!(blocked.blocker.diagnostic.code, "U502", "{name}");
        let refused = validate(&source);
        assert!(
            !refused.is_empty() && blocked.blocker.diagnostic.message.contains(&refused),
            "{name}: Heat says {refused:?}; the rule says {}",
            blocked.blocker.diagnostic.message
        );
        options.unsafe_fixes = true;
        let upgraded = upgrade(&source, &options).expect("upgrades");
        assert!(
            matches!(upgraded.status, UpgradeStatus::Upgraded { .. }),
            "{name}: --unsafe-fixes does not take the step"
        );
        assert!(
            upgraded.diagnostics.iter().any(|d| d.code == "U502"),
            "{name}: the change is not reported"
        );
        let accepted = validate(&upgraded.text);
        assert!(
            accepted.is_empty(),
            "{name}: upgraded, Heat refuses it: {accepted}"
        );
        proven += 1;
    }
    assert!(proven >= 5, "too few fixtures: {proven}");
}
