//! The playground's requests, answered on the host (the module answers the same code; the
//! corpus test of tests/playground.rs runs it as WebAssembly against the command line).

use serde_json::{Value, json};

fn call(request: &Value) -> Value {
    serde_json::from_str(&hotfix_wasm::call(&request.to_string())).expect("JSON")
}

const PORT: &str = "heat_template_version: 2016-10-14
resources:
  port:
    type: OS::Neutron::Port
    properties:
      network_id: {get_param: net}
";

fn codes(answer: &Value) -> Vec<&str> {
    answer["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["code"].as_str().expect("code"))
        .collect()
}

#[test]
fn lint_gives_the_findings_with_their_frames() {
    let answer = call(&json!({"op": "lint", "files": {"t.yaml": PORT}, "path": "t.yaml"}));
    assert_eq!(answer["kind"], "template");
    let codes = codes(&answer);
    assert!(codes.contains(&"H301"), "{answer}");
    let findings = answer["findings"].as_array().expect("findings");
    let frames = answer["frames"].as_array().expect("frames");
    assert_eq!(findings.len(), frames.len());
    let undefined = findings
        .iter()
        .position(|f| f["code"] == "H301")
        .expect("H301");
    assert_eq!(findings[undefined]["start"]["line"], 6);
    assert_eq!(findings[undefined]["path"], "t.yaml");
    assert!(
        frames[undefined]
            .as_str()
            .expect("frame")
            .contains("network_id: {get_param: net}"),
        "{}",
        frames[undefined]
    );
}

#[test]
fn settings_select_and_ignore_rules() {
    let request = |settings: Value| json!({"op": "lint", "files": {"t.yaml": PORT}, "path": "t.yaml", "settings": settings});
    let ignored = call(&request(json!({"ignore": ["H301"]})));
    assert!(!codes(&ignored).contains(&"H301"), "{ignored}");
    let only = call(&request(json!({"select": ["H301"]})));
    assert_eq!(codes(&only), ["H301"]);
    let wrong = call(&request(json!({"select": ["no-such-rule"]})));
    assert!(
        wrong["error"]
            .as_str()
            .is_some_and(|e| e.contains("no-such-rule")),
        "{wrong}"
    );
}

#[test]
fn a_nested_template_of_the_tree_is_read() {
    let top = "heat_template_version: 2016-10-14
resources:
  inner:
    type: inner.yaml
    properties:
      size: 1
";
    let inner = "heat_template_version: 2016-10-14
parameters:
  count:
    type: number
";
    let alone = call(&json!({"op": "lint", "files": {"top.yaml": top}, "path": "top.yaml"}));
    let both = call(&json!({
        "op": "lint",
        "files": {"top.yaml": top, "inner.yaml": inner},
        "path": "top.yaml",
    }));
    // Without the nested template its properties cannot be checked; with it, `size` is not
    // one of its parameters.
    assert_ne!(codes(&alone), codes(&both), "{alone}\n{both}");
}

#[test]
fn fix_and_apply_rename_the_deprecated_property() {
    let fixed = call(&json!({"op": "fix", "files": {"t.yaml": PORT}, "path": "t.yaml"}));
    assert!(fixed["applied"].as_u64() >= Some(1), "{fixed}");
    assert!(
        fixed["text"]
            .as_str()
            .expect("text")
            .contains("      network: {get_param: net}")
    );
    let linted = call(&json!({"op": "lint", "files": {"t.yaml": PORT}, "path": "t.yaml"}));
    let index = linted["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .position(|f| !f["fix"].is_null())
        .expect("a finding with a fix");
    let applied = call(&json!({
        "op": "apply", "files": {"t.yaml": PORT}, "path": "t.yaml", "index": index,
    }));
    assert_eq!(applied["text"], fixed["text"]);
    let none = call(&json!({
        "op": "apply", "files": {"t.yaml": PORT}, "path": "t.yaml", "index": 99,
    }));
    assert_eq!(none["error"], "finding 99 has no fix");
}

#[test]
fn upgrade_rewrites_the_version() {
    let old = "heat_template_version: 2013-05-23\nresources: {}\n";
    let answer = call(&json!({
        "op": "upgrade", "files": {"t.yaml": old}, "path": "t.yaml", "to": "2018-08-31",
    }));
    assert_eq!(answer["status"], "upgraded", "{answer}");
    assert_eq!(
        answer["text"],
        "heat_template_version: 2018-08-31\nresources: {}\n"
    );
    let unknown = call(&json!({
        "op": "upgrade", "files": {"t.yaml": old}, "path": "t.yaml", "to": "1999-01-01",
    }));
    assert_eq!(unknown["error"], "unknown version `1999-01-01`");
}

#[test]
fn rules_have_their_documentation() {
    let answer = call(&json!({"op": "rules"}));
    let rules = answer["rules"].as_array().expect("rules");
    let h301 = rules.iter().find(|r| r["code"] == "H301").expect("H301");
    assert!(
        h301["doc"]
            .as_str()
            .expect("doc")
            .contains("## What it does")
    );
}

#[test]
fn a_bad_request_is_an_error_not_a_panic() {
    for (request, error) in [
        ("not json", "the request is not JSON"),
        ("{}", "the request has no `op`"),
        (
            r#"{"op": "lint", "files": {}, "path": "x.yaml"}"#,
            "`x.yaml` is not one of the files",
        ),
        (
            r#"{"op": "dance", "files": {}, "path": "x"}"#,
            "`x` is not one of the files",
        ),
    ] {
        let answer: Value = serde_json::from_str(&hotfix_wasm::call(request)).expect("JSON");
        assert!(
            answer["error"]
                .as_str()
                .is_some_and(|e| e.starts_with(error)),
            "{request}: {answer}"
        );
    }
}

const STACK: &str = "heat_template_version: 2016-10-14
parameters:
  size: {type: number, default: 1}
  name: {type: string}
resources:
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      config: {get_file: scripts/boot.sh}
  app:
    type: My::App
    properties:
      count: {get_param: size}
    depends_on: config
outputs:
  greeting:
    value:
      str_replace:
        template: NAME-SIZE
        params: {NAME: {get_param: name}, SIZE: {get_param: size}}
";

const APP: &str = "heat_template_version: 2016-10-14
parameters:
  count: {type: number}
resources: {}
";

fn stack_files() -> Value {
    json!({
        "top.yaml": STACK,
        "app.yaml": APP,
        "env.yaml": "parameters:\n  size: 3\nresource_registry:\n  My::App: app.yaml\n",
        "scripts/boot.sh": "#!/bin/sh\necho hi\n",
    })
}

#[test]
fn eval_takes_the_environments_the_parameters_and_the_files() {
    let answer = call(&json!({
        "op": "eval", "files": stack_files(), "path": "top.yaml",
        "environments": ["env.yaml"], "parameters": {"name": "web"},
    }));
    assert_eq!(answer["problems"], json!([]), "{answer}");
    let json = &answer["json"];
    assert_eq!(json["outputs"]["greeting"]["value"], "web-3", "{answer}");
    assert_eq!(
        json["resources"]["config"]["properties"]["value"]["config"], "#!/bin/sh\necho hi\n",
        "{answer}"
    );
    let yaml = answer["yaml"].as_str().expect("yaml");
    assert!(yaml.contains("value: web-3"), "{yaml}");
}

#[test]
fn eval_says_what_heat_would_refuse() {
    // No value for `name`: Heat refuses the stack; eval names the parameter.
    let answer = call(&json!({"op": "eval", "files": stack_files(), "path": "top.yaml"}));
    let problems = answer["problems"].as_array().expect("problems");
    assert!(
        problems
            .iter()
            .any(|p| p["message"].as_str().unwrap_or_default().contains("name")),
        "{answer}"
    );
    let broken = call(&json!({"op": "eval", "files": {"t.yaml": "a: [b"}, "path": "t.yaml"}));
    assert!(
        broken["error"]
            .as_str()
            .unwrap_or_default()
            .starts_with("t.yaml:1:"),
        "{broken}"
    );
    let unknown = call(&json!({
        "op": "eval", "files": stack_files(), "path": "top.yaml", "environments": ["nope.yaml"],
    }));
    assert!(
        unknown["error"]
            .as_str()
            .unwrap_or_default()
            .contains("nope.yaml"),
        "{unknown}"
    );
}

#[test]
fn graph_draws_the_stack_through_the_environment() {
    let answer = call(&json!({
        "op": "graph", "files": stack_files(), "path": "top.yaml", "environments": ["env.yaml"],
    }));
    let edges = answer["graph"]["edges"].as_array().expect("edges");
    let has = |kind: &str, to: &str| {
        edges
            .iter()
            .any(|e| e["kind"] == kind && e["to"].as_str().unwrap_or_default().contains(to))
    };
    assert!(has("nested_by_registry", "app.yaml"), "{answer}");
    assert!(has("get_file", "scripts/boot.sh"), "{answer}");
    assert!(has("depends_on", "config"), "{answer}");
    let dot = answer["dot"].as_str().expect("dot");
    assert!(dot.starts_with("digraph hotfix {"), "{dot}");
    assert!(dot.contains("My::App"), "{dot}");
}

#[test]
fn lint_reads_the_environments_given_as_lint_dash_e_does() {
    // Two environments of the tree map the type to different templates, and neither is closer:
    // without `-e` no mistake is claimed that only one of them makes; with `-e` the one given
    // decides, for lint and fix alike.
    let files = json!({
        "top.yaml": "heat_template_version: 2016-10-14\nresources:\n  s:\n    type: My::Server\n    properties:\n      flavor: m1\n",
        "envs/a.yaml": "resource_registry:\n  My::Server: ../a.yaml\n",
        "envs/b.yaml": "resource_registry:\n  My::Server: ../b.yaml\n",
        "a.yaml": "heat_template_version: 2016-10-14\nparameters:\n  flavor: {type: string}\n",
        "b.yaml": "heat_template_version: 2016-10-14\nparameters:\n  image: {type: string, default: x}\n",
    });
    let lint = |op: &str, environments: Value| {
        call(&json!({"op": op, "files": files, "path": "top.yaml", "environments": environments}))
    };
    assert_eq!(codes(&lint("lint", json!([]))), Vec::<&str>::new());
    assert_eq!(
        codes(&lint("lint", json!(["envs/a.yaml"]))),
        Vec::<&str>::new()
    );
    let given_b = lint("lint", json!(["envs/b.yaml"]));
    assert_eq!(codes(&given_b), ["X003"], "{given_b}");
    assert!(
        given_b["findings"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("envs/b.yaml")),
        "{given_b}"
    );
    let fixed = lint("fix", json!(["envs/b.yaml"]));
    assert_eq!(codes(&fixed), ["X003"], "{fixed}");
    // An environment that is not one of the files, or does not load, ends the request.
    let missing = lint("lint", json!(["envs/c.yaml"]));
    assert!(
        missing["error"]
            .as_str()
            .is_some_and(|e| e.contains("envs/c.yaml")),
        "{missing}"
    );
    let files = json!({"top.yaml": PORT, "bad.yaml": "resource_registry: [\n"});
    let bad = call(
        &json!({"op": "lint", "files": files, "path": "top.yaml", "environments": ["bad.yaml"]}),
    );
    assert!(
        bad["error"]
            .as_str()
            .is_some_and(|e| e.contains("bad.yaml")),
        "{bad}"
    );
    // A file given with -e is linted as an environment, whatever it holds (as the command
    // line does): one holding only `parameters`, and one whose only section is misspelt.
    let files = json!({"top.yaml": PORT, "prod.yaml": "parameters:\n  flavor: m1\n", "prod2.yaml": "paramters:\n  flavor: m1\n"});
    let given = |path: &str| {
        call(&json!({"op": "lint", "files": files, "path": path, "environments": [path]}))
    };
    let prod = given("prod.yaml");
    assert_eq!(
        (prod["kind"].as_str(), codes(&prod)),
        (Some("environment"), vec![]),
        "{prod}"
    );
    let prod2 = given("prod2.yaml");
    assert_eq!(
        (prod2["kind"].as_str(), codes(&prod2)),
        (Some("environment"), vec!["E002"]),
        "{prod2}"
    );
}

/// A Cloudify blueprint and the fragment it imports, as `hotfix lint` reads them on disk: the
/// fragment uses an input its importer declares (not a finding) and one nobody declares.
#[test]
fn a_blueprint_fragment_is_linted_with_what_its_importer_declares() {
    let files = json!({
        "app/blueprint.yaml": "tosca_definitions_version: cloudify_dsl_1_3\nimports:\n  - parts/vm.yaml\ninputs:\n  size:\n    default: 1\n",
        "app/parts/vm.yaml": "tosca_definitions_version: cloudify_dsl_1_3\nnode_templates:\n  vm:\n    type: cloudify.nodes.Root\n    properties:\n      size: {get_input: size}\n      other: {get_input: nope}\n",
        "elsewhere/vm.yaml": "tosca_definitions_version: cloudify_dsl_1_3\nnode_templates:\n  vm:\n    type: cloudify.nodes.Root\n    properties:\n      size: {get_input: size}\n",
    });
    let lint = |path: &str| call(&json!({"op": "lint", "files": files, "path": path}));
    let fragment = lint("app/parts/vm.yaml");
    assert_eq!(fragment["kind"], "blueprint");
    assert_eq!(codes(&fragment), ["C001"]);
    assert!(
        fragment["findings"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("`nope`")),
        "{fragment}"
    );
    // The importer sees its fragment's names; a blueprint nobody imports has none of them.
    assert_eq!(codes(&lint("app/blueprint.yaml")), Vec::<&str>::new());
    assert_eq!(codes(&lint("elsewhere/vm.yaml")), ["C001"]);
}
