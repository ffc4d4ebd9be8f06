//! `hotfix types` and `hotfix type NAME`: Heat's resource types, as users see them.

use std::process::Output;

use hotfix_testkit::{Hotfix, hotfix_binary};
use serde_json::Value;

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).without_stdin();

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

fn success(args: &[&str]) -> String {
    let output = HOTFIX.run(args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    stdout(&output)
}

fn snapshot(name: &str, value: &str) {
    insta::with_settings!({
        snapshot_path => "../snapshots/cli",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, value);
    });
}

#[test]
fn type_shows_a_servers_properties_nested_schemas_attributes_and_translation() {
    snapshot(
        "type_os_nova_server",
        &success(&["type", "OS::Nova::Server"]),
    );
}

#[test]
fn type_shows_a_removed_type_as_a_placeholder() {
    snapshot(
        "type_os_designate_record",
        &success(&["type", "OS::Designate::Record"]),
    );
}

#[test]
fn type_json_has_the_nested_schema_of_list_items_and_the_flags() {
    let json: Value =
        serde_json::from_str(&success(&["type", "OS::Nova::Server", "--format", "json"]))
            .expect("JSON");
    assert_eq!(json["name"], "OS::Nova::Server");
    assert_eq!(json["heat_version"], "27.0.1");
    assert_eq!(json["support_status"]["status"], "SUPPORTED");
    assert_eq!(
        (json["hidden"].clone(), json["snapshot"].clone()),
        (Value::Bool(false), Value::Bool(true))
    );
    assert_eq!(json["dynamic_attributes"], false);
    let flavor = &json["properties"]["flavor"];
    assert_eq!(flavor["type"], "string");
    assert_eq!(flavor["required"], true);
    assert_eq!(flavor["update_allowed"], true);
    assert_eq!(
        flavor["constraints"],
        serde_json::json!([{"custom_constraint": "nova.flavor"}])
    );
    let networks = &json["properties"]["networks"];
    assert_eq!(networks["type"], "list");
    assert_eq!(networks["items"]["type"], "map");
    assert_eq!(
        networks["items"]["schema"]["network"]["type"], "string",
        "{networks}"
    );
    assert_eq!(
        networks["items"]["schema"]["uuid"]["support_status"]["status"],
        "HIDDEN"
    );
    assert_eq!(json["attributes"]["show"]["type"], "map");
    assert_eq!(
        json["translation"][0],
        serde_json::json!({"rule": "Replace", "path": ["networks", "network"], "value_name": "uuid"})
    );
}

#[test]
fn types_lists_every_type_once_with_its_status() {
    let text = success(&["types"]);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("Heat 27.0.1 (openstack-heat): 201 resource types, 38 of them hidden")
    );
    assert_eq!(lines.next(), Some(""));
    let types: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
    assert_eq!(types.len(), 201);
    let names: Vec<&str> = types
        .iter()
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert!(names.is_sorted(), "{names:?}");
    let line = |name: &str| {
        types
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .copied()
            .unwrap_or_else(|| panic!("{name} is listed"))
    };
    assert!(line("OS::Nova::Server").ends_with("  supported"));
    assert!(line("OS::Heat::ResourceGroup").ends_with("  supported since 2014.1"));
    assert_eq!(
        line("OS::Designate::Record")
            .split_once("  ")
            .map(|(_, s)| s.trim_start()),
        Some(
            "hidden since 10.0.0 (before: deprecated since 8.0.0, supported since 5.0.0); \
             removed: a no-op placeholder, like OS::Heat::None"
        )
    );
    assert!(
        line("OS::Heat::SoftwareDeployments").ends_with("; use OS::Heat::SoftwareDeploymentGroup")
    );
    assert!(line("OS::Neutron::ExtraRoute").ends_with("  unsupported"));
    assert!(
        text.contains("\n  OS::Quantum*  "),
        "the default environment's aliases follow: {text}"
    );
}

#[test]
fn types_json_lists_every_type_with_its_flags() {
    let json: Value = serde_json::from_str(&success(&["types", "--format", "json"])).expect("JSON");
    assert_eq!(json["heat"]["version"], "27.0.1");
    let types = json["types"].as_array().expect("a list");
    assert_eq!(types.len(), 201);
    let glance = types
        .iter()
        .find(|t| t["name"] == "OS::Glance::Image")
        .expect("OS::Glance::Image is listed");
    assert_eq!(glance["hidden"], true);
    assert_eq!(glance["none_resource"], true);
    assert_eq!(glance["support_status"]["version"], "22.0.0");
    assert_eq!(
        json["default_environment"]["OS::Metering::Alarm"],
        "OS::Aodh::Alarm"
    );
}

#[test]
fn an_unknown_type_fails_with_the_likely_name() {
    let output = HOTFIX.run(&["type", "OS::Nova::Servr"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        "hotfix: error: `OS::Nova::Servr` is not a resource type of Heat 27.0.1; did you mean \
         `OS::Nova::Server`? (`hotfix types` lists them)\n"
    );
    let output = HOTFIX.run(&["type", "Nothing::Like::It", "--format", "json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "hotfix: error: `Nothing::Like::It` is not a resource type of Heat 27.0.1 (`hotfix \
         types` lists them)\n"
    );
}

#[test]
fn a_name_only_the_default_environment_knows_names_what_it_maps_to() {
    let output = HOTFIX.run(&["type", "OS::Quantum::Net"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "hotfix: error: `OS::Quantum::Net` is not a resource type of Heat 27.0.1; Heat's default \
         environment (environment.d/default.yaml, where a deployment installs it) maps it to \
         `OS::Neutron::Net`\n"
    );
}

#[test]
fn type_help_says_what_the_columns_mean() {
    let help = success(&["type", "--help"]);
    assert!(help.contains("update_allowed"), "{help}");
    assert!(help.contains("Names are case-sensitive"), "{help}");
    let help = success(&["types", "--help"]);
    assert!(help.contains("Hidden types are listed too"), "{help}");
}

#[test]
fn type_and_types_show_the_heat_of_the_release_named() {
    // Heat 16.1.0 (wallaby): an Octavia listener's loadbalancer is not required yet, and the
    // LBaaS v2 load balancer is a working type with properties (a placeholder in Heat 27.0.1).
    let listener = success(&["type", "OS::Octavia::Listener", "--heat-release", "wallaby"]);
    assert!(
        listener.starts_with("OS::Octavia::Listener (Heat 16.1.0)\n"),
        "{listener}"
    );
    assert!(
        listener.contains("\n  loadbalancer: string; custom constraint octavia.loadbalancer\n"),
        "{listener}"
    );
    let newest = success(&["type", "OS::Octavia::Listener"]);
    assert!(
        newest.starts_with("OS::Octavia::Listener (Heat 27.0.1)\n"),
        "{newest}"
    );
    assert!(
        newest.contains("\n  loadbalancer: string, required;"),
        "{newest}"
    );
    let lbaas = success(&[
        "type",
        "OS::Neutron::LBaaS::LoadBalancer",
        "--heat-release",
        "wallaby",
    ]);
    assert!(
        lbaas.contains("\n  vip_subnet: string, required;"),
        "{lbaas}"
    );
    let json: Value = serde_json::from_str(&success(&[
        "types",
        "--format",
        "json",
        "--heat-release",
        "2025.1",
    ]))
    .expect("JSON");
    assert_eq!(json["heat"]["version"], "24.1.2");
}

#[test]
fn type_and_types_read_the_heat_release_of_the_configuration_that_applies_here() {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::write(
        dir.path().join("hotfix.toml"),
        "heat-release = \"wallaby\"\n",
    )
    .expect("write");
    let below = dir.path().join("templates");
    std::fs::create_dir(&below).expect("a folder");
    let run = |args: &[&str]| {
        let output = HOTFIX.run_in(&below, args);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let listener = run(&["type", "OS::Octavia::Listener"]);
    assert!(
        listener.starts_with("OS::Octavia::Listener (Heat 16.1.0)\n"),
        "{listener}"
    );
    let json: Value = serde_json::from_str(&run(&["types", "--format", "json"])).expect("JSON");
    assert_eq!(json["heat"]["version"], "16.1.0");
    // The command line replaces the configuration's release.
    let newest = run(&["type", "OS::Octavia::Listener", "--heat-release", "2026.2"]);
    assert!(
        newest.starts_with("OS::Octavia::Listener (Heat 27.0.1)\n"),
        "{newest}"
    );
}
