//! The template rules on a resource whose type the stack's environment maps onto a type of Heat
//! (`My::Port: OS::Neutron::Port`, `"OS::Networking::*": "OS::Neutron::*"`), against Heat's
//! client and engine through `../shared/oracles/heat/stack.py` (`-e ENV`, the checks of a stack
//! create, no cloud): Heat creates such a resource as the type it is mapped onto and checks its
//! properties as that type's. Every template fixture under `testdata/rules/H*/` with an
//! environment beside it (`env/NAME`) is sent with it: an `invalid` one must be refused, with
//! Heat's text among the rule's findings; a `valid` one accepted, with no finding of the rule.

mod common;
mod stacks;

use std::path::Path;
use std::process::Command;

use hotfix_linter::{Files, Selector, Settings, all_rules, lint_with_files};
use hotfix_stack::StackPath;

use stacks::Disk;

/// Heat's verdict on the template `fixture` with its environment `env`.
fn heat(fixture: &Path, env: &Path) -> serde_json::Value {
    let output = Command::new(common::python())
        .arg(common::shared().join("oracles/heat/stack.py"))
        .arg(fixture)
        .args(["--strict", "--no-cloud", "-e"])
        .arg(env)
        .output()
        .expect("run stack.py");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "stack.py gave no JSON for {}: {err}\n{}",
            fixture.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// Words only: Heat's text and hotfix's help wrap differently.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
#[ignore = "needs Heat (.venv-heat) and ../shared/oracles/heat/stack.py"]
fn shared_a_type_an_environment_maps_onto_heats_is_checked_as_heat_checks_it() {
    let mut checked = 0;
    let mut problems = Vec::new();
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
            let answer = heat(&fixture, &env);
            checked += 1;
            let accepted = answer["valid"] == serde_json::Value::Bool(true);
            let error = answer["error"].as_str().unwrap_or_default().to_owned();

            let source = std::fs::read_to_string(&fixture).expect("a fixture");
            let path = StackPath::new(&fixture.to_string_lossy());
            let roots = [path.parent()];
            let (registry, stack) = stacks::fixture_stack(&roots, &fixture, false);
            let files = Files {
                source: &Disk,
                path: &path,
                roots: &roots,
                registry: registry.as_ref(),
                stack_templates: &stack,
            };
            let settings = Settings {
                select: vec![Selector::parse(rule.code).expect("a code")],
                ..Settings::default()
            };
            let findings = lint_with_files(&display, source.as_bytes(), &settings, Some(&files));
            let said = squeeze(
                &findings
                    .iter()
                    .map(|d| format!("{} {}", d.message, d.help.clone().unwrap_or_default()))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            if name.starts_with("invalid") {
                if accepted {
                    problems.push(format!("{display}: Heat accepts it"));
                } else if findings.is_empty() {
                    problems.push(format!("{display}: Heat says `{error}`, hotfix nothing"));
                } else if !said.contains(&squeeze(&error)) {
                    problems.push(format!(
                        "{display}: Heat says `{error}`, hotfix says: {said}"
                    ));
                }
            } else if !accepted {
                problems.push(format!("{display}: Heat refuses it: {error}"));
            } else if !findings.is_empty() {
                problems.push(format!("{display}: Heat accepts it, hotfix says: {said}"));
            }
        }
    }
    assert!(checked >= 5, "only {checked} fixtures were sent to Heat");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
