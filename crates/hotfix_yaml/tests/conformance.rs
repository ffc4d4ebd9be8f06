//! The YAML 1.1 conformance table: small documents whose expected values were produced by
//! Heat's own loader (`scripts/heat_load.py cases`, PyYAML with Heat's `yaml_loader`).
//!
//! Regenerate the expectations after editing `cases.json`:
//! `.venv-heat/bin/python scripts/heat_load.py cases testdata/yaml/conformance/cases.json testdata/yaml/conformance/expected.json`

use hotfix_yaml::LoadErrorKind;
use serde_json::Value;

const EXPECTED: &str = include_str!("../../../testdata/yaml/conformance/expected.json");

#[test]
fn every_conformance_case_loads_as_heat_loads_it() {
    let cases: Vec<Value> = serde_json::from_str(EXPECTED).expect("expected.json is JSON");
    assert!(cases.len() > 200, "the table lost its cases");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().expect("name");
        let yaml = case["yaml"].as_str().expect("yaml");
        let ours = hotfix_yaml::parse_unlimited(yaml).and_then(|doc| doc.to_python_json());
        match (case.get("json").and_then(Value::as_str), &ours) {
            (Some(expected), Ok(actual)) if expected == actual => {}
            // Heat's simple_parse turns an empty or null document into `{}`, which its
            // parse() then rejects with "Template format version not found.": hotfix says so
            // at once.
            (Some("{}"), Err(err)) if err.kind == LoadErrorKind::Empty => {}
            (Some(expected), _) => {
                failures.push(format!("{name}: Heat gives {expected}, hotfix {ours:?}"));
            }
            (None, Err(_)) => {}
            (None, Ok(actual)) => failures.push(format!(
                "{name}: Heat fails ({}), hotfix gives {actual}",
                case["error"]
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
