//! `invalid-function-arguments` (H205) against Heat, on when Heat raises each error: a call
//! whose error Heat raises when it parses the template (or in the function's `validate()`) is
//! refused wherever it is; one whose error Heat raises only when it resolves the value is
//! refused in a resource (its properties are resolved at stack create) but accepted in an
//! output, whose value Heat resolves only when it is read. So hotfix reports the second kind
//! in an output as a warning, and everything else as an error.
//!
//! `testdata/rules/H205/invalid_outputs*.yaml` (one per version whose functions differ) hold
//! one call per output (and per resource with a finding), together every check of the rule
//! but `equals`, which only conditions have; `invalid_unused_conditions.yaml` holds conditions
//! that something uses and conditions that nothing uses, where Heat resolves nothing either. For each H205 finding, the template keeps the output or resource that holds it
//! and drops the others that hold one; Heat (`scripts/heat_oracle.py`, `validate` with
//! `strict` and `no_cloud`: the checks of a stack create, no cloud) must refuse it exactly when
//! the finding is an error. With every such output and resource dropped, Heat accepts it,
//! and with it a resource that is never created holding an error of the second kind and an
//! output that is never shown holding one of the first, which hotfix does not report.

use hotfix_diagnostics::{Diagnostic, Severity};
use hotfix_linter::{Selector, Settings, lint};
use hotfix_yaml::{Document, Entry};
use serde_json::json;

mod common;

use common::Heat;

const FIXTURES: [&str; 4] = [
    "testdata/rules/H205/invalid_outputs.yaml",
    "testdata/rules/H205/invalid_outputs_icehouse.yaml",
    "testdata/rules/H205/invalid_outputs_kilo.yaml",
    "testdata/rules/H205/invalid_unused_conditions.yaml",
];

/// `None` when Heat accepts the template (with the checks of a stack create), else its error.
fn refused(heat: &mut Heat, template: &str) -> Option<String> {
    let answer = heat.request(&json!({
        "cmd": "validate",
        "template": template,
        "types": "real",
        "strict": true,
        "no_cloud": true,
    }));
    if answer["valid"] == json!(true) {
        return None;
    }
    assert_eq!(answer["valid"], json!(false), "not a verdict: {answer}");
    Some(
        answer["error"]
            .as_str()
            .unwrap_or("(no message)")
            .to_owned(),
    )
}

/// The entries of the `conditions`, `resources` and `outputs` sections, each with its name.
fn section_entries(doc: &Document) -> Vec<(String, Entry)> {
    let mut out = Vec::new();
    for section in ["conditions", "resources", "outputs"] {
        let Some(map) = doc.get(doc.root(), section) else {
            continue;
        };
        for entry in doc.entries(map) {
            let name = doc.str_value(entry.key).expect("a name").to_owned();
            out.push((format!("{section}.{name}"), entry));
        }
    }
    out
}

/// The bytes an entry takes: its lines, from its key's to its value's.
fn lines_of(source: &str, doc: &Document, entry: Entry) -> (usize, usize) {
    let start = doc.node(entry.key).span.start;
    let end = doc.node(entry.value).span.end;
    let start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let end = source[end..]
        .find('\n')
        .map_or(source.len(), |i| end + i + 1);
    (start, end)
}

/// The source without the entries `drop`: a resource or output is taken out, a condition
/// (which others may name) becomes `true`.
fn without(source: &str, doc: &Document, drop: &[Entry]) -> String {
    let conditions = doc.get(doc.root(), "conditions");
    let mut ranges: Vec<(usize, usize, &str)> = drop
        .iter()
        .map(|&e| {
            if conditions.is_some_and(|c| doc.entries(c).contains(&e)) {
                let span = doc.node(e.value).span;
                (span.start, span.end, "true")
            } else {
                let (start, end) = lines_of(source, doc, e);
                (start, end, "")
            }
        })
        .collect();
    ranges.sort_unstable();
    let mut out = String::new();
    let mut at = 0;
    for (start, end, instead) in ranges {
        out.push_str(&source[at..start]);
        out.push_str(instead);
        at = end;
    }
    out.push_str(&source[at..]);
    out
}

/// What Heat made of one fixture's findings: errors, warnings, and the disagreements.
#[derive(Default)]
struct Tally {
    errors: usize,
    warnings: usize,
    problems: Vec<String>,
}

fn check(heat: &mut Heat, fixture: &str, tally: &mut Tally) {
    let source = std::fs::read_to_string(common::workspace().join(fixture)).expect("the fixture");
    let doc = hotfix_yaml::parse(&source).expect("YAML");
    let settings = Settings {
        select: vec![Selector::parse("H205").expect("a code")],
        ..Settings::default()
    };
    let findings: Vec<Diagnostic> = lint(fixture, source.as_bytes(), &settings)
        .into_iter()
        .filter(|d| d.code == "H205")
        .collect();
    let entries = section_entries(&doc);
    let holder = |finding: &Diagnostic| {
        entries
            .iter()
            .find(|(_, e)| {
                let (start, end) = lines_of(&source, &doc, *e);
                (start..end).contains(&finding.span.start)
            })
            .unwrap_or_else(|| panic!("{fixture}: no definition holds {finding:?}"))
    };
    let holders: Vec<Entry> = findings.iter().map(|f| holder(f).1).collect();
    for (i, own) in holders.iter().enumerate() {
        assert!(
            !holders[..i].contains(own),
            "{fixture}: {} holds two findings; one each, so that each template has only that \
             call",
            holder(&findings[i]).0
        );
    }
    let bare = without(&source, &doc, &holders);
    if let Some(error) = refused(heat, &bare) {
        panic!("{fixture}: Heat refuses it without its calls: {error}\n{bare}");
    }
    for (finding, own) in findings.iter().zip(&holders) {
        let (name, _) = holder(finding);
        let others: Vec<Entry> = holders.iter().copied().filter(|e| e != own).collect();
        let verdict = refused(heat, &without(&source, &doc, &others));
        let error = finding.severity == Severity::Error;
        if error {
            tally.errors += 1;
        } else {
            tally.warnings += 1;
        }
        if error != verdict.is_some() {
            tally.problems.push(format!(
                "{fixture}: {name}: hotfix reports {:?} `{}`, Heat {}",
                finding.severity,
                finding.message,
                verdict.map_or_else(|| "accepts it".to_owned(), |e| format!("refuses it: {e}"))
            ));
        }
    }
}

#[test]
#[ignore = "needs Heat (.venv-heat)"]
fn heat_function_argument_errors_in_outputs_are_warnings_exactly_when_heat_accepts_them() {
    let mut heat = Heat::start();
    let mut tally = Tally::default();
    for fixture in FIXTURES {
        check(&mut heat, fixture, &mut tally);
    }
    eprintln!(
        "H205 phases: {} errors, {} warnings, as Heat",
        tally.errors, tally.warnings
    );
    assert!(
        tally.errors > 0 && tally.warnings > 0,
        "the fixtures must hold findings of both kinds"
    );
    assert!(tally.problems.is_empty(), "{}", tally.problems.join("\n"));
}
