//! The template rules on a resource whose type the stack's environment maps onto a type of Heat
//! (`My::Port: OS::Neutron::Port`, `"OS::Networking::*": "OS::Neutron::*"`), against Heat's
//! client and engine through `../shared/oracles/heat/stack.py` (`-e ENV`, the checks of a stack
//! create, no cloud): Heat creates such a resource as the type it is mapped onto and checks its
//! properties as that type's. Every template fixture under `testdata/rules/H*/` with an
//! environment beside it (`env/NAME`) is sent with it: an `invalid` one must be refused, with
//! Heat's text among the rule's findings; a `valid` one accepted, with no finding of the rule.

mod common;
mod stacks;

use hotfix_linter::all_rules;
use serde_json::json;

use common::Heat;
use stacks::squeeze;

#[test]
#[ignore = "needs Heat (.venv-heat) and ../shared/oracles/heat/stack.py"]
fn shared_a_type_an_environment_maps_onto_heats_is_checked_as_heat_checks_it() {
    let mut checked = 0;
    let mut problems = Vec::new();
    // Every question is a stack create's checks with no cloud: one process answers them all.
    let mut heat = Heat::start_stack();
    for rule in all_rules().iter().filter(|r| r.code.starts_with('H')) {
        let dir = common::workspace().join("testdata/rules").join(rule.code);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut fixtures: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        fixtures.sort();
        for fixture in fixtures {
            let Some(env) = stacks::fixture_environment(&fixture) else {
                continue;
            };
            let name = fixture
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            let display = format!("{}/{name}", rule.code);
            let answer = heat.request(&json!([
                fixture.display().to_string(),
                "--strict",
                "--no-cloud",
                "-e",
                env.display().to_string(),
            ]));
            assert!(answer.get("batch_error").is_none(), "{display}: {answer}");
            checked += 1;
            let accepted = answer["valid"] == serde_json::Value::Bool(true);
            let error = answer["error"].as_str().unwrap_or_default().to_owned();

            let (findings, said) = stacks::said(rule.code, &display, &fixture, false);
            if name.starts_with("invalid") {
                if accepted {
                    problems.push(format!("{display}: Heat accepts it"));
                } else if findings == 0 {
                    problems.push(format!("{display}: Heat says `{error}`, hotfix nothing"));
                } else if !said.contains(&squeeze(&error)) {
                    problems.push(format!(
                        "{display}: Heat says `{error}`, hotfix says: {said}"
                    ));
                }
            } else if !accepted {
                problems.push(format!("{display}: Heat refuses it: {error}"));
            } else if findings != 0 {
                problems.push(format!("{display}: Heat accepts it, hotfix says: {said}"));
            }
        }
    }
    assert!(checked >= 5, "only {checked} fixtures were sent to Heat");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
