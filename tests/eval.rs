//! `hotfix eval`: what users see, the inputs it takes as `openstack stack create` takes them,
//! and how it fails.

use std::path::{Path, PathBuf};
use std::process::Output;

use hotfix_testkit::{Hotfix, hotfix_binary};

fn testdata(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/cli/eval")
        .join(path)
}

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).without_stdin();

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

fn path(name: &str) -> String {
    testdata(name).to_string_lossy().into_owned()
}

#[test]
fn eval_prints_parameters_conditions_resources_and_outputs_as_heat_computes_them() {
    let output = HOTFIX.run(&["eval", &path("app.yaml"), "-P", "db_password=s3cret"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = stdout(&output);
    for line in [
        "  is_prod:\n    value: false",
        "disabled_resources:\n  - lb",
        "          name: app-dev",
        "          script: \"run --replicas 2 --db s3cret\"",
        "            - zone-az1\n            - zone-az2",
        "          digest: ef260e9aa3c673af240d17a2660480361a8e081d1ffeca2a5ed0e3219fc18567",
        "    deletion_policy:\n      value: Retain",
        "        config: \"<ref:config>\"",
        "  prod_only:\n    value: null",
        "  debug:\n    value: false",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
    // Wallaby's two-argument `if` with a false condition leaves the key out.
    assert!(!out.contains("monitoring"), "{out}");
    assert_eq!(stderr(&output), "");
}

#[test]
fn eval_takes_environments_parameters_and_attribute_values() {
    let output = HOTFIX.run(&[
        "eval",
        &path("app.yaml"),
        "-e",
        &path("prod.env.yaml"),
        "--parameter",
        "db_password=x;debug=yes",
        "--attrs",
        &path("attrs.json"),
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let config = &json["resources"]["config"]["properties"]["value"]["value"];
    assert_eq!(config["name"], "app-prod");
    assert_eq!(config["monitoring"], "enabled");
    assert_eq!(config["url"], "https://203.0.113.7:443/api");
    // parameter_defaults replace the template's default.
    assert_eq!(config["script"], "run --replicas 3 --db x");
    assert_eq!(json["parameters"]["debug"]["value"], true);
    assert_eq!(json["outputs"]["prod_only"]["value"], "203.0.113.7");
    assert_eq!(json["conditions"]["is_prod"]["value"], true);
    assert!(json.get("disabled_resources").is_none(), "{json}");
}

#[test]
fn eval_reports_what_heat_would_raise_with_its_place_and_exits_1() {
    let output = HOTFIX.run(&["eval", &path("errors.yaml")]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    let file = path("errors.yaml");
    for line in [
        format!(
            "{file}:3:9: parameters: Parameter 'size' is invalid: Invalid default 10 (10 is out of range (min: 1, max: 8)) (InvalidSchemaError)"
        ),
        format!(
            "{file}:9:15: resources.r.properties: The following params were not found in the template: $missing (ValueError)"
        ),
        format!("{file}:11:19: outputs.joined: \"list_join\" must operate on a list (TypeError)"),
        format!(
            "{file}:12:45: outputs.over: The Parameter (name) was not provided. (UserParameterMissing)"
        ),
    ] {
        assert!(err.contains(&line), "missing {line:?} in\n{err}");
    }
    // The output shows the same errors where Heat reports them.
    let out = stdout(&output);
    assert!(out.contains("error_type: UserParameterMissing"), "{out}");
}

#[test]
fn eval_checks_values_against_constraints_with_heats_text() {
    let output = HOTFIX.run(&[
        "eval",
        &path("app.yaml"),
        "-P",
        "db_password=x",
        "-P",
        "replicas=9",
        "-P",
        "env=staging",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        err.contains("parameters: Parameter 'env' is invalid: \"staging\" is not an allowed value [\"dev\", \"prod\"] (StackValidationFailed)"),
        "{err}"
    );
}

#[test]
fn eval_reads_get_file_relative_to_the_template() {
    let output = HOTFIX.run(&["eval", &path("files.yaml"), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(
        json["resources"]["script"]["properties"]["value"]["config"],
        "#!/bin/sh\necho set up\n"
    );
}

#[test]
fn eval_takes_a_parameter_from_a_file() {
    let output = HOTFIX.run(&[
        "eval",
        &path("app.yaml"),
        "--parameter-file",
        &format!("db_password={}", path("files/setup.sh")),
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(
        json["parameters"]["db_password"]["value"],
        "#!/bin/sh\necho set up\n"
    );
}

#[test]
fn eval_fails_with_exit_2_and_one_line_on_unusable_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let binary = dir.path().join("binary.yaml");
    std::fs::write(&binary, b"heat_template_version: 2016-10-14\0\x01").expect("write");
    let not_json = dir.path().join("attrs.json");
    std::fs::write(&not_json, "{nope").expect("write");
    let cases: [(Vec<String>, &str); 5] = [
        (vec![path("missing.yaml")], "cannot read"),
        (vec![binary.to_string_lossy().into_owned()], "binary file"),
        (
            vec![path("app.yaml"), "-P".into(), "oops".into()],
            "Malformed parameter(oops). Use the key=value format.",
        ),
        (
            vec![
                path("app.yaml"),
                "--attrs".into(),
                not_json.to_string_lossy().into_owned(),
            ],
            "not JSON",
        ),
        (vec![path("")], "is a directory"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["eval".to_owned()];
        all.extend(args);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let output = HOTFIX.run(&refs);
        assert_eq!(output.status.code(), Some(2), "{all:?}");
        let err = stderr(&output);
        assert!(err.starts_with("hotfix: error: "), "{err}");
        assert!(err.contains(expected), "{all:?}: {err}");
        assert_eq!(stdout(&output), "", "{all:?}");
    }
}

#[test]
fn eval_help_explains_inputs_outputs_and_exit_codes() {
    let output = HOTFIX.run(&["eval", "--help"]);
    assert!(output.status.success());
    let help = stdout(&output);
    for text in [
        "--environment",
        "--parameter",
        "--parameter-file",
        "--attrs",
        "--format",
        "<ref:r>",
        "yaql",
        "Exit codes",
    ] {
        assert!(help.contains(text), "missing {text:?} in\n{help}");
    }
}

#[test]
fn eval_names_the_versions_heat_accepts_and_leaves_cfn_templates_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "heat_template_version: 2016-10-15\nresources: {}\n").expect("write");
    let output = HOTFIX.run(&["eval", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(":1:24: template: The template version is invalid: \"heat_template_version: 2016-10-15\". \"heat_template_version\" should be one of: 2013-05-23, "),
        "{}",
        stderr(&output)
    );
    let cfn = dir.path().join("cfn.yaml");
    std::fs::write(
        &cfn,
        "AWSTemplateFormatVersion: 2010-09-09\nResources: {}\n",
    )
    .expect("write");
    let output = HOTFIX.run(&["eval", cfn.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(
            "a CloudFormation-format template (AWSTemplateFormatVersion) is not evaluated"
        ),
        "{}",
        stderr(&output)
    );
}
