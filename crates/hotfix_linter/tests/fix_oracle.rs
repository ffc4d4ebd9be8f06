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
                let translated = renames_properties(&outcome);
                judge(&mut heat, &label, &source, &outcome.text, translated, tally);
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
            let translated = renames_properties(&outcome);
            judge(
                &mut heat,
                &label,
                &source,
                &outcome.text,
                translated,
                &mut corpus,
            );
        }
    }
    eprintln!(
        "fix oracle: corpus ({templates} templates, every rule, --fix): {}",
        corpus.line()
    );
    assert!(templates > 300, "too few corpus templates: {templates}");
    assert_safe(&[&corpus]);
}

/// Whether fixes of `deprecated-property` applied: they rename properties as Heat's
/// translation rules do, so Heat's properties are compared after its translation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Translated {
    /// No such fix: the resolved properties are compared.
    No,
    /// With fixes of other rules.
    Also,
    /// Those fixes alone: on a template Heat rejects for another reason, the fixed text must
    /// be rejected with the same error, and the translated properties must be equal.
    Only,
}

fn renames_properties(outcome: &hotfix_linter::fix::FixOutcome) -> Translated {
    let renames = outcome.applied.iter().filter(|a| a.code == "H612").count();
    match renames {
        0 => Translated::No,
        n if n == outcome.applied.len() => Translated::Only,
        _ => Translated::Also,
    }
}

/// Asks Heat about one original and its fixed text; with `translated`, each resource's
/// properties are compared as its plugin reads them after Heat's translation rules.
fn judge(
    heat: &mut Heat,
    label: &str,
    original: &str,
    fixed: &str,
    translated: Translated,
    tally: &mut Tally,
) {
    tally.fixed += 1;
    let rejected = validate(heat, original);
    let fixed_rejected = validate(heat, fixed);
    // A rename Heat's translation makes keeps its reading of a template it rejects for another
    // reason: the same refusal, and the same translated properties, are what is kept then.
    if let (Translated::Only, Some(error)) = (translated, &rejected) {
        if fixed_rejected.as_ref() != Some(error) {
            tally.changed.push(format!(
                "{label}: Heat rejects the original ({error}), and the fixed text otherwise: {fixed_rejected:?}"
            ));
            return;
        }
    } else if let Some(error) = &rejected {
        tally
            .rejected
            .push(format!("{label}: Heat rejects the original: {error}"));
        return;
    }
    if let (None, Some(error)) = (&rejected, fixed_rejected) {
        tally
            .changed
            .push(format!("{label}: Heat rejects the fixed text: {error}"));
        return;
    }
    let answer = heat.request(&json!({
        "cmd": "diff", "a": original, "b": fixed, "params": params(original),
        "translated": translated != Translated::No,
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

/// The fixtures of `deprecated-property` and the corpus templates it reports: with `--fix`
/// (that rule alone), and with `--unsafe-fixes`, Heat accepts the fixed text wherever it accepts
/// the original (the checks of a stack create, real types, no cloud), and reads the same
/// properties from both after its own translation rules. The corpus walk also judges the
/// substitutes of `deprecated-resource-type` (see [`judge_substitutes`]), with the same Heat.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_deprecated_property_renames_keep_the_properties_heat_translates() {
    let mut heat = Heat::start();
    let mut tally = Tally::default();
    let mut last_fixed = None;
    let mut reshaped = Tally::default();
    for path in files(&workspace().join("testdata/rules/H612")) {
        let source = std::fs::read_to_string(&path).expect("a UTF-8 fixture");
        let label = path.display().to_string();
        if let Some(fixed) = judge_renames(&mut heat, &label, &source, false, &mut tally) {
            last_fixed = Some((source.clone(), fixed));
        }
        // The Unsafe fixes write what Heat's translation makes of the value, in its new form:
        // Heat reads the same properties from both too.
        judge_renames(&mut heat, &label, &source, true, &mut reshaped);
    }
    eprintln!("fix oracle: H612 renames on fixtures: {}", tally.line());
    eprintln!(
        "fix oracle: H612 with --unsafe-fixes on fixtures: {}",
        reshaped.line()
    );
    assert!(tally.same >= 3, "too few fixtures proven: {}", tally.line());
    assert!(
        reshaped.same > tally.same,
        "no Unsafe fix proven: {}",
        reshaped.line()
    );
    assert!(
        reshaped.changed.is_empty(),
        "Unsafe fixes that change what Heat accepts or translates:\n{}",
        reshaped.changed.join("\n")
    );
    assert!(
        tally.changed.is_empty(),
        "renames that change what Heat accepts or translates:\n{}",
        tally.changed.join("\n")
    );
    // The comparison can fail: the renamed keys differ before translation, and a value changed
    // beside a rename is seen after it.
    let (source, fixed) = last_fixed.expect("a fixture with a fix");
    let raw = heat.request(&json!({"cmd": "diff", "a": source, "b": fixed}));
    assert_eq!(raw["equal"], json!(false), "{raw}");
    let changed = fixed.replacen("private", "elsewhere", 1);
    assert_ne!(changed, fixed);
    let answer = heat.request(&json!({
        "cmd": "diff", "a": source, "b": changed, "translated": true,
    }));
    assert_eq!(answer["equal"], json!(false), "{answer}");
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's engine; run by scripts/test.sh beside ../shared"]
fn shared_deprecations_of_the_corpus_keep_the_properties_heat_translates() {
    let mut heat = Heat::start();
    let mut tally = Tally::default();
    let settings = Settings {
        select: vec![Selector::parse("H612").expect("a rule code")],
        ..Settings::default()
    };
    let mut reshaped = Tally::default();
    // The substitutes of deprecated-resource-type, judged in the same walk with the same Heat.
    let mut substitutes = Tally::default();
    let (mut findings, mut safe, mut unsafe_fixes) = (0, 0, 0);
    let mut left: BTreeMap<String, usize> = BTreeMap::new();
    for path in files(&shared().join("corpus")) {
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue;
        };
        let label = path
            .strip_prefix(shared())
            .unwrap_or(&path)
            .display()
            .to_string();
        if source.contains("Deployments") || source.contains("BayModel") {
            judge_substitutes(&mut heat, &label, &source, &mut substitutes);
        }
        let diagnostics = hotfix_linter::lint(&label, source.as_bytes(), &settings);
        for d in diagnostics.iter().filter(|d| d.code == "H612") {
            findings += 1;
            if d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Safe)
            {
                safe += 1;
            } else if d.fix.is_some() {
                unsafe_fixes += 1;
            } else {
                // The kind: the message without its location in the template.
                *left.entry(d.message.clone()).or_default() += 1;
            }
        }
        if findings > 0 && diagnostics.iter().any(|d| d.fix.is_some()) {
            judge_renames(&mut heat, &label, &source, false, &mut tally);
            let unsafe_fix = diagnostics.iter().any(|d| {
                d.code == "H612"
                    && d.fix
                        .as_ref()
                        .is_some_and(|f| f.applicability == Applicability::Unsafe)
            });
            if unsafe_fix {
                judge_renames(&mut heat, &label, &source, true, &mut reshaped);
            }
        }
    }
    eprintln!(
        "fix oracle: H612 on the corpus: {findings} findings, {safe} with a Safe fix, \
         {unsafe_fixes} with an Unsafe one; {}; with --unsafe-fixes: {}",
        tally.line(),
        reshaped.line()
    );
    for (message, count) in &left {
        eprintln!("    left: {count} × {message}");
    }
    for what in &tally.rejected {
        eprintln!("    {what}");
    }
    assert!(safe > 0, "no H612 finding of the corpus has a fix");
    assert!(
        tally.changed.is_empty(),
        "renames that change what Heat accepts or translates:\n{}",
        tally.changed.join("\n")
    );
    for what in &reshaped.changed {
        eprintln!("    unsafe: {what}");
    }
    eprintln!(
        "fix oracle: H611 substitutes on the corpus: {}",
        substitutes.line()
    );
    assert!(substitutes.fixed > 0, "no H611 fix applied to the corpus");
    assert!(
        substitutes.changed.is_empty(),
        "type changes that change more than the type:\n{}",
        substitutes.changed.join("\n")
    );
}

/// The fixtures of `deprecated-resource-type` (the corpus templates it reports are judged in
/// `shared_deprecations_of_the_corpus_…`): with `--fix --unsafe-fixes` (that rule alone), Heat accepts the fixed text wherever it accepts the
/// original (a stack create's checks, real types, no cloud), and the two differ, after Heat's
/// translation, only in the types the fixes changed to the substitute Heat names.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_deprecated_resource_type_substitutes_change_only_the_type() {
    let mut heat = Heat::start();
    let mut tally = Tally::default();
    for path in files(&workspace().join("testdata/rules/H611")) {
        let source = std::fs::read_to_string(&path).expect("a UTF-8 fixture");
        judge_substitutes(&mut heat, &path.display().to_string(), &source, &mut tally);
    }
    eprintln!("fix oracle: H611 substitutes on fixtures: {}", tally.line());
    assert!(tally.same >= 3, "too few fixtures proven: {}", tally.line());
    // The comparison can fail: a value changed beside the type is seen.
    let source =
        std::fs::read_to_string(workspace().join("testdata/rules/H611/invalid_substitutes.yaml"))
            .expect("the fixture");
    let settings = Settings {
        select: vec![Selector::parse("H611").expect("a rule code")],
        ..Settings::default()
    };
    let fixed = fix_file("control", &source, &settings, true)
        .expect("fixed")
        .text;
    let changed = fixed.replacen("config: abc", "config: abd", 1);
    assert_ne!(changed, fixed);
    let answer = heat.request(&json!({
        "cmd": "diff", "a": source, "b": changed, "translated": true,
    }));
    assert_eq!(beside_the_types(&answer).len(), 1, "{answer}");
    assert!(
        tally.changed.is_empty() && tally.rejected.is_empty(),
        "type changes that change more than the type:\n{}",
        tally
            .changed
            .iter()
            .chain(&tally.rejected)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// `deprecated-resource-type` alone with `--fix --unsafe-fixes` on one text, judged by Heat as a
/// stack create sees it: the same verdict, and no difference after translation but the types.
fn judge_substitutes(heat: &mut Heat, label: &str, source: &str, tally: &mut Tally) {
    let settings = Settings {
        select: vec![Selector::parse("H611").expect("a rule code")],
        ..Settings::default()
    };
    let outcome =
        fix_file(label, source, &settings, true).unwrap_or_else(|e| panic!("{label}: {e}"));
    if outcome.applied.is_empty() {
        return;
    }
    tally.fixed += 1;
    let given = params(source);
    let before = validate_strict(heat, source, &given);
    let after = validate_strict(heat, &outcome.text, &given);
    if let Some(error) = &before {
        tally
            .rejected
            .push(format!("{label}: Heat rejects the original: {error}"));
    }
    if before != after {
        tally.changed.push(format!(
            "{label}: Heat judges the fixed text otherwise: {before:?} then {after:?}"
        ));
        return;
    }
    let answer = heat.request(&json!({
        "cmd": "diff", "a": source, "b": outcome.text, "params": given,
        "translated": true,
    }));
    let other = beside_the_types(&answer);
    if answer["diffs"].is_array() && other.is_empty() {
        tally.same += 1;
    } else {
        tally.changed.push(format!(
            "{label}: Heat reads more than the type differently: {answer}"
        ));
    }
}

/// The differences of a `diff` answer other than a resource's type changed to a substitute.
fn beside_the_types(answer: &serde_json::Value) -> Vec<&serde_json::Value> {
    let substitutes = [
        "SoftwareDeployment",
        "StructuredDeployment",
        "ClusterTemplate",
    ];
    answer["diffs"]
        .as_array()
        .map(|diffs| {
            diffs
                .iter()
                .filter(|d| {
                    let path = d["path"].as_str().unwrap_or_default();
                    let to = d["b"].as_str().unwrap_or_default();
                    let field = path.rsplit('.').next();
                    !(path.starts_with("resources.")
                        && field == Some("type")
                        && substitutes.iter().any(|s| to.contains(s)))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `deprecated-property` alone with `--fix` (and `--unsafe-fixes`) on one text, judged by Heat as a stack create
/// sees it; the fixed text when a fix applied.
fn judge_renames(
    heat: &mut Heat,
    label: &str,
    source: &str,
    unsafe_fixes: bool,
    tally: &mut Tally,
) -> Option<String> {
    let settings = Settings {
        select: vec![Selector::parse("H612").expect("a rule code")],
        ..Settings::default()
    };
    let outcome =
        fix_file(label, source, &settings, unsafe_fixes).unwrap_or_else(|e| panic!("{label}: {e}"));
    if outcome.applied.is_empty() {
        return None;
    }
    tally.fixed += 1;
    let given = params(source);
    if let Some(error) = validate_strict(heat, source, &given) {
        // Nothing to keep accepted; what Heat translates is still compared.
        tally
            .rejected
            .push(format!("{label}: Heat rejects the original: {error}"));
    } else if let Some(error) = validate_strict(heat, &outcome.text, &given) {
        tally
            .changed
            .push(format!("{label}: Heat rejects the fixed text: {error}"));
        return Some(outcome.text);
    }
    let answer = heat.request(&json!({
        "cmd": "diff", "a": source, "b": outcome.text, "params": given,
        "translated": true,
    }));
    if answer["equal"] == json!(true) {
        tally.same += 1;
    } else {
        tally
            .changed
            .push(format!("{label}: Heat translates differently: {answer}"));
    }
    Some(outcome.text)
}

/// `None` when Heat accepts the template as a stack create checks it (real types, no cloud),
/// else its error text.
fn validate_strict(heat: &mut Heat, template: &str, params: &serde_json::Value) -> Option<String> {
    let response = heat.request(&json!({
        "cmd": "validate", "template": template, "params": params, "strict": true,
        "no_cloud": true,
    }));
    if response["valid"] == json!(true) {
        return None;
    }
    Some(response.to_string())
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
