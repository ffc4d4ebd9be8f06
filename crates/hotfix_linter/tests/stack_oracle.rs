//! The environment rules (`E0xx`) and the cross-file rules (`X0xx`) against Heat's client and
//! engine, through `../shared/oracles/heat/stack.py` (python-heatclient's client phase, as
//! `openstack stack create -e` runs it, then Heat's engine, with the checks of a stack create,
//! no cloud). Every fixture under `testdata/rules/E*/` is sent as an environment of
//! `testdata/stacks/minimal.yaml`; every fixture under `testdata/rules/X*/` as the top
//! template, with the files beside it and, when `env/NAME` is beside the fixture `NAME`, that
//! environment (`-e`). An `invalid` fixture of a rule whose findings are errors
//! must be refused, with Heat's text among the findings (quoted in a message or help); one of a
//! warning rule, and every `valid` fixture (the fixed tree), must be accepted. Fixtures named
//! `valid_deployment_layout*` name paths that exist only where templates are deployed: valid
//! to hotfix, absent here, so not sent.

mod common;
mod stacks;

use std::path::Path;

use serde_json::{Value, json};

use hotfix_linter::{Scope, all_rules};

use common::Heat;
use stacks::squeeze;

/// Mistakes Heat finds only once the stack exists (no oracle creates one), by rule and the
/// start of the fixtures' names: those `invalid` fixtures pass validation, and the text hotfix
/// quotes is checked against Heat's own source instead (in the installed package).
const AT_RUN_TIME: &[(&str, &str, &str, &str)] = &[
    (
        "X006",
        "invalid",
        "heat/common/exception.py",
        "The Referenced Attribute (%(resource)s %(key)s) is incorrect.",
    ),
    // A `json` parameter given a string that is not JSON: the nested stack's parameter refuses
    // it when Heat creates the nested stack (`Parameter.validate`, `JsonParam.parse`).
    (
        "X008",
        "invalid_at_nested_create",
        "heat/engine/parameters.py",
        "Parameter '%(name)s' is invalid: %(exp)s",
    ),
    (
        "X008",
        "invalid_at_nested_create",
        "heat/engine/parameters.py",
        "Value must be valid JSON: %s",
    ),
];

/// The environment rules about what Heat checks only when it creates the stack (the values
/// of parameters): their fixtures are sent with the checks of a stack create.
const AT_CREATE: &[&str] = &["E010"];

/// Fixtures that name paths of a deployment layout: valid to hotfix, absent on this machine.
const LAYOUT_ONLY: &str = "valid_deployment_layout";

/// Heat's verdict on a stack of the minimal template and the environment `fixture`, or of the
/// template `fixture` (with the checks of a stack create, no cloud). `plain` answers the first
/// kind, `strict` the second (a process that ran `--no-cloud` answers only that kind).
fn heat(
    plain: &mut Heat,
    strict: &mut Heat,
    fixture: &Path,
    environment: bool,
    at_create: bool,
) -> Value {
    let workspace = common::workspace();
    let mut args: Vec<String> = Vec::new();
    let heat = if environment {
        args.extend([
            workspace
                .join("testdata/stacks/minimal.yaml")
                .display()
                .to_string(),
            "-e".into(),
            fixture.display().to_string(),
        ]);
        if at_create {
            args.extend(["--strict".into(), "--no-cloud".into()]);
            strict
        } else {
            plain
        }
    } else {
        args.extend([
            fixture.display().to_string(),
            "--strict".into(),
            "--no-cloud".into(),
        ]);
        if let Some(env) = stacks::fixture_environment(fixture) {
            args.extend(["-e".into(), env.display().to_string()]);
        }
        strict
    };
    let answer = heat.request(&json!(args));
    assert!(
        answer.get("batch_error").is_none(),
        "{}: {answer}",
        fixture.display()
    );
    answer
}

#[test]
#[ignore = "needs Heat (.venv-heat) and ../shared/oracles/heat/stack.py"]
fn shared_environment_and_cross_file_rules_agree_with_heats_client_and_engine() {
    let mut checked = 0;
    let mut problems = Vec::new();
    let (mut plain, mut strict) = (Heat::start_stack(), Heat::start_stack());
    let cross_file = |code: &str| code.starts_with('X');
    for rule in all_rules()
        .iter()
        .filter(|r| r.scope == Scope::Environment || cross_file(r.code))
    {
        let environment = rule.scope == Scope::Environment;
        let dir = common::workspace().join("testdata/rules").join(rule.code);
        let mut fixtures: Vec<_> = std::fs::read_dir(&dir)
            .expect("fixtures")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        fixtures.sort();
        for fixture in fixtures {
            let name = fixture
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            let invalid = name.starts_with("invalid");
            if !invalid && (!name.starts_with("valid") || name.starts_with(LAYOUT_ONLY)) {
                continue;
            }
            let at_create = AT_CREATE.contains(&rule.code);
            let answer = heat(&mut plain, &mut strict, &fixture, environment, at_create);
            checked += 1;
            let accepted = answer["valid"] == Value::Bool(true);
            let error = answer["error"].as_str().unwrap_or_default().to_owned();
            let display = format!("{}/{name}", rule.code);
            let at_run_time = AT_RUN_TIME
                .iter()
                .find(|(code, start, ..)| *code == rule.code && name.starts_with(start));
            let refuses = invalid
                && rule.severity == hotfix_diagnostics::Severity::Error
                && at_run_time.is_none();
            if !refuses {
                if !accepted {
                    problems.push(format!("{display}: Heat refuses it: {error}"));
                }
                continue;
            }
            if accepted {
                problems.push(format!("{display}: Heat accepts it"));
                continue;
            }
            // E001: Heat's loader words its YAML errors its own way; refused is the check.
            if rule.code == "E001" {
                continue;
            }
            let (_, said) = stacks::said(rule.code, &display, &fixture, environment);
            let expected = match error.strip_prefix("Could not fetch contents for file://") {
                // hotfix shows the file name, not this machine's absolute path.
                Some(path) => format!(
                    "Could not fetch contents for file://…/{}",
                    path.rsplit('/').next().unwrap_or_default()
                ),
                None => squeeze(&without_folders(&error)),
            };
            if !said.contains(&expected) {
                problems.push(format!(
                    "{display}: Heat says `{error}`, hotfix says: {said}"
                ));
            }
        }
    }
    run_time_texts_are_heats(&mut problems);
    assert!(checked >= 20, "only {checked} fixtures were sent to Heat");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Heat's text with a nested template's URL (`resources.server<file:///…/params.yaml>`) as
/// hotfix shows it: the file name, not this machine's folders.
fn without_folders(error: &str) -> String {
    let Some(start) = error.find("<file:///") else {
        return error.to_owned();
    };
    let Some(length) = error[start..].find('>') else {
        return error.to_owned();
    };
    let url = &error[start + 1..start + length];
    let name = url.rsplit('/').next().unwrap_or_default();
    format!(
        "{}<file://…/{name}>{}",
        &error[..start],
        &error[start + length + 1..]
    )
}

/// The texts of the rules in [`AT_RUN_TIME`] are Heat's, as its installed source writes them.
fn run_time_texts_are_heats(problems: &mut Vec<String>) {
    for (code, _, file, text) in AT_RUN_TIME {
        let site = common::python()
            .parent()
            .and_then(Path::parent)
            .map(|venv| venv.join("lib"))
            .expect("the virtual environment");
        let source = std::fs::read_dir(&site)
            .expect("lib/")
            .flatten()
            .map(|python| python.path().join("site-packages").join(file))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{file} in {}", site.display()));
        let heat = std::fs::read_to_string(&source).expect("Heat's source");
        let joined = squeeze(&heat.replace("\"\n", "").replace('"', ""));
        if !joined.contains(&squeeze(text)) {
            problems.push(format!("{code}: Heat's {file} no longer says `{text}`"));
        }
    }
}
