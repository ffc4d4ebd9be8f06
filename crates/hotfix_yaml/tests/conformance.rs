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

/// The table holds what Heat's loader gives today: `scripts/heat_load.py cases`, run again with
/// the pinned Heat and PyYAML (`scripts/heat-requirements.txt`, `scripts/heat-constraints.txt`),
/// writes the same file.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_the_table_is_what_heats_loader_gives_today() {
    let workspace = hotfix_testkit::workspace();
    let python = hotfix_testkit::python();
    // The loader is PyYAML: another version may load the table differently.
    let constraints = std::fs::read_to_string(workspace.join("scripts/heat-constraints.txt"))
        .expect("scripts/heat-constraints.txt");
    let pinned = constraints
        .lines()
        .find_map(|line| line.strip_prefix("PyYAML=="))
        .expect("a PyYAML pin");
    let version = std::process::Command::new(&python)
        .args(["-c", "import yaml; print(yaml.__version__)"])
        .output()
        .expect("run Python");
    let version = String::from_utf8_lossy(&version.stdout).trim().to_owned();
    assert_eq!(
        version,
        pinned,
        "{} has PyYAML {version}, the table was made with {pinned}: run scripts/setup-oracle.sh \
         (or point HOTFIX_PYTHON at an environment with the pins)",
        python.display()
    );
    let fresh = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance-expected.json");
    let output = std::process::Command::new(&python)
        .arg(workspace.join("scripts/heat_load.py"))
        .arg("cases")
        .arg(workspace.join("testdata/yaml/conformance/cases.json"))
        .arg(&fresh)
        .output()
        .expect("run scripts/heat_load.py");
    assert!(
        output.status.success(),
        "scripts/heat_load.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let fresh: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&fresh).expect("the fresh table"))
            .expect("JSON");
    let committed: Vec<Value> = serde_json::from_str(EXPECTED).expect("expected.json is JSON");
    let differ: Vec<String> = fresh
        .iter()
        .zip(&committed)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("{}: Heat now gives {a}, the table says {b}", b["name"]))
        .collect();
    assert_eq!(
        fresh.len(),
        committed.len(),
        "cases.json and expected.json have different cases"
    );
    assert!(
        differ.is_empty(),
        "testdata/yaml/conformance/expected.json is not what Heat's loader gives (regenerate it as \
         the top of this file says, and look at what changed):\n{}",
        differ.join("\n")
    );
}
