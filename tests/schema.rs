//! `hotfix schema`: the JSON Schemas editors validate templates and environments with. Their
//! effect in a real client is tested by editors/schema-check (yaml-language-server).

use hotfix_testkit::{Hotfix, hotfix_binary};
use serde_json::Value;

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).without_stdin();

fn json(args: &[&str]) -> Value {
    let output = HOTFIX.run(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty());
    serde_json::from_slice(&output.stdout).expect("JSON")
}

#[test]
fn the_template_schema_is_draft_07_with_every_registered_type() {
    let schema = json(&["schema"]);
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    assert_eq!(
        schema["required"],
        serde_json::json!(["heat_template_version"])
    );
    let types = json(&["types", "--format", "json"]);
    let registered = types["types"].as_array().expect("types").len();
    let listed = schema["definitions"]["resource_type"]["anyOf"][0]["enum"]
        .as_array()
        .expect("the enum")
        .len();
    assert_eq!(listed, registered);
    assert!(
        schema["definitions"]["OS::Nova::Server properties"]["properties"]["flavor"].is_object()
    );
}

#[test]
fn the_environment_schema_names_the_sections() {
    let schema = json(&["schema", "--environment", "--heat-release", "wallaby"]);
    assert_eq!(schema["title"], "OpenStack Heat environment file");
    assert!(schema["properties"]["parameter_defaults"].is_object());
}

#[test]
fn a_version_the_release_does_not_have_is_an_error() {
    let output = HOTFIX.run(&[
        "schema",
        "--heat-release",
        "pike",
        "--template-version",
        "queens",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "hotfix: error: heat_template_version 2018-03-02 arrived after the Heat of pike: name a later \
         --heat-release or an earlier --template-version\n"
    );
}

#[test]
fn every_release_writes_each_releases_schema_and_the_newest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().join("schemas");
    let output = HOTFIX.run(&["schema", "--every-release", folder.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty() && output.stderr.is_empty());
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .expect("the folder")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .into_string()
                .expect("UTF-8")
        })
        .collect();
    names.sort();
    // liberty … hibiscus: 23 releases, then the newest and the environment.
    assert_eq!(names.len(), 25, "{names:?}");
    assert!(names.contains(&"hot-liberty.schema.json".to_owned()));
    assert!(names.contains(&"hot-hibiscus.schema.json".to_owned()));
    let newest: Value =
        serde_json::from_slice(&std::fs::read(folder.join("hot.schema.json")).expect("read"))
            .expect("JSON");
    assert_eq!(newest, json(&["schema"]));
    let queens: Value = serde_json::from_slice(
        &std::fs::read(folder.join("hot-queens.schema.json")).expect("read"),
    )
    .expect("JSON");
    assert_eq!(queens, json(&["schema", "--heat-release", "queens"]));
}
