//! The repository's Heat driver, `scripts/heat_oracle.py`: what it answers, that it refuses
//! what it does not answer, and (beside `../shared`) that it answers as the shared oracle does
//! and installs the same Heat. See `common` for the `heat_` / `shared_` convention.

use std::collections::BTreeSet;
use std::path::Path;

use hotfix_hot::Version;
use hotfix_linter::upgrade::{UpgradeOptions, VersionStyle, upgrade};
use serde_json::{Value, json};

mod common;

use common::{Heat, files, params, shared, workspace};

const TEMPLATE: &str = "\
heat_template_version: 2016-10-14
parameters:
  size: {type: number, default: 2}
  name: {type: string}
conditions:
  big: {equals: [{get_param: size}, 3]}
resources:
  server:
    type: OS::Nova::Server
    properties:
      name: {list_join: ['-', [{get_param: name}, {get_resource: port}]]}
      ip: {get_attr: [port, fixed_ips, 0, ip_address]}
      all: {get_attr: [port]}
  port:
    type: OS::Neutron::Port
  extra:
    type: OS::Heat::None
    condition: big
outputs:
  missing: {value: {get_resource: extra}}
";

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_the_driver_resolves_a_template_as_a_created_stack() {
    let mut heat = Heat::start();
    let answer = heat.request(&json!({
        "cmd": "resolve", "template": TEMPLATE, "params": {"name": "web"},
    }));
    assert_eq!(answer["template_class"], "HOTemplate20161014", "{answer}");
    assert_eq!(answer["version"], "heat_template_version: 2016-10-14");
    assert_eq!(
        answer["parameters"],
        json!({"size": {"value": 2}, "name": {"value": "web"}})
    );
    assert_eq!(answer["conditions"], json!({"big": {"value": false}}));
    assert_eq!(answer["disabled_resources"], json!(["extra"]));
    assert_eq!(
        answer["resources"]["server"]["properties"],
        json!({"value": {
            "name": "web-<ref:port>",
            "ip": "<attr:port.fixed_ips.0.ip_address>",
            "all": {"<attrs:port>": "<attrs:port>"},
        }})
    );
    // A reference to a resource its condition disables: Heat's own error, at resolve time.
    assert_eq!(
        answer["outputs"]["missing"],
        json!({
            "error": "The specified reference \"extra\" (in unknown) is incorrect.",
            "error_type": "InvalidTemplateReference",
        })
    );

    // Concrete attribute values are selected into as Heat selects them.
    let answer = heat.request(&json!({
        "cmd": "resolve", "template": TEMPLATE, "params": {"name": "web"},
        "attrs": {"port": {"fixed_ips": [{"ip_address": "10.0.0.5"}]}},
    }));
    assert_eq!(
        answer["resources"]["server"]["properties"]["value"]["ip"],
        "10.0.0.5"
    );

    // The zones of the cloud, which HOT 2013-05-23 still asks for.
    let zones =
        "heat_template_version: 2013-05-23\noutputs:\n  zones: {value: {'Fn::GetAZs': ''}}\n";
    let answer = heat.request(&json!({"cmd": "resolve", "template": zones}));
    assert_eq!(
        answer["outputs"]["zones"],
        json!({"value": ["nova"]}),
        "{answer}"
    );
}

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_the_driver_validates_and_diffs() {
    let mut heat = Heat::start();
    let valid = heat.request(&json!({"cmd": "validate", "template": TEMPLATE, "types": "generic"}));
    assert_eq!(valid["valid"], true, "{valid}");
    assert_eq!(
        valid["stubbed_types"],
        json!(["OS::Heat::None", "OS::Neutron::Port", "OS::Nova::Server"])
    );
    let broken = TEMPLATE.replace("{get_resource: port}", "{get_resource: nope}");
    let invalid = heat.request(&json!({"cmd": "validate", "template": broken, "types": "generic"}));
    assert_eq!(invalid["valid"], false, "{invalid}");
    assert_eq!(
        invalid["error_type"], "InvalidTemplateReference",
        "{invalid}"
    );
    assert!(
        invalid["error"]
            .as_str()
            .is_some_and(|e| e.contains("The specified reference \"nope\"")),
        "{invalid}"
    );
    let not_yaml = heat.request(&json!({"cmd": "validate", "template": "[1, 2]"}));
    assert_eq!(not_yaml["valid"], false, "{not_yaml}");

    let params = json!({"name": "web"});
    let same = heat.request(&json!({
        "cmd": "diff", "a": TEMPLATE, "params": params,
        "b": TEMPLATE.replace("{list_join: ['-',", "{list_join: [\"-\","),
    }));
    assert_eq!(same, json!({"equal": true, "diffs": []}));
    let other = heat.request(&json!({
        "cmd": "diff", "a": TEMPLATE, "b": TEMPLATE.replace("'-'", "'+'"), "params": params,
    }));
    assert_eq!(other["equal"], false, "{other}");
    assert_eq!(other["diffs"][0]["path"], "resources.server.properties");
    let unparsable =
        heat.request(&json!({"cmd": "diff", "a": TEMPLATE, "b": "a: [", "params": params}));
    assert_eq!(unparsable["equal"], false, "{unparsable}");
    assert!(unparsable["b_error"]["error"].is_string(), "{unparsable}");
}

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_the_driver_refuses_what_it_does_not_answer_and_goes_on() {
    let mut heat = Heat::start();
    for (request, says) in [
        (
            json!({"cmd": "validate", "template": TEMPLATE, "strict": true}),
            "takes \"strict\" and \"no_cloud\" together",
        ),
        (
            json!({"cmd": "resolve", "template": TEMPLATE, "prams": {}}),
            "does not take prams",
        ),
        (
            json!({"cmd": "validate", "template": TEMPLATE, "types": "all"}),
            "not 'all'",
        ),
        (
            json!({"cmd": "validate", "template": TEMPLATE, "plugin_validate": ["OS::Nova::Server"]}),
            "plugin_validate is a list of resource types, with \"strict\"",
        ),
        (
            json!({"cmd": "validate", "template": TEMPLATE, "strict": true, "no_cloud": true,
                   "plugin_validate": ["OS::Nova::Sever"]}),
            "'OS::Nova::Sever', which is not a registered resource type",
        ),
        (json!({"cmd": "stack", "template": TEMPLATE}), "unknown cmd"),
        (json!(["resolve"]), "a JSON object"),
    ] {
        let answer = heat.request(&request);
        let error = answer["request_error"]["error"]
            .as_str()
            .unwrap_or_default();
        assert!(error.contains(says), "{request}: {answer}");
    }
    let answer =
        heat.request(&json!({"cmd": "validate", "template": TEMPLATE, "types": "generic"}));
    assert_eq!(answer["valid"], true, "{answer}");
}

/// `plugin_validate`: the types named keep their plugin's own `validate()`, the others the base
/// one; a request to a cloud ends the validation with `cloud_call`, never an answer made up.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_the_driver_runs_the_plugins_named_and_stops_at_a_cloud() {
    let mut heat = Heat::start();
    let template = |properties: &str| {
        format!(
            "heat_template_version: 2016-10-14\nresources:\n  s:\n    type: OS::Nova::Server\n    \
             properties: {properties}\n"
        )
    };
    let validate = |heat: &mut Heat, properties: &str, keep: Value| {
        heat.request(&json!({
            "cmd": "validate", "template": template(properties), "strict": true,
            "no_cloud": true, "plugin_validate": keep,
        }))
    };
    let both = "{flavor: f, block_device_mapping_v2: [{volume_id: v}], security_groups: [a], \
                networks: [{port: p}]}";
    // The base validate() does not know that a port excludes security groups; the server's does.
    assert_eq!(validate(&mut heat, both, json!([])), json!({"valid": true}));
    assert_eq!(
        validate(&mut heat, both, json!(["OS::Nova::Server"])),
        json!({
            "valid": false,
            "error": "Cannot define the following properties at the same time: \
                      security_groups, networks/port.",
            "error_type": "ResourcePropertyConflict",
        })
    );
    // Its image is looked up in the cloud's image service: no answer is made up.
    let answer = validate(
        &mut heat,
        "{flavor: f, image: cirros}",
        json!(["OS::Nova::Server"]),
    );
    assert_eq!(
        answer,
        json!({"cloud_call": "glance client (GlanceClientPlugin)"})
    );
    // And the plugins are as before for the next request.
    assert_eq!(
        validate(&mut heat, "{flavor: f, image: cirros}", json!([])),
        json!({"valid": true})
    );
}

/// The requests the fixture tests send, for every fixture: `validate` with generic types,
/// `resolve` with generated parameters, for upgrade fixtures `diff` with the Safe upgrade, and
/// for the resource rules' fixtures `validate` with real types under the checks of a stack create.
fn fixture_requests() -> Vec<(String, Value)> {
    let mut paths = Vec::new();
    for dir in ["testdata/rules", "testdata/upgrades"] {
        files(&workspace().join(dir), &mut paths);
    }
    paths.sort();
    let mut out = Vec::new();
    for path in &paths {
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        let label = path
            .strip_prefix(workspace())
            .unwrap_or(path)
            .display()
            .to_string();
        out.push((
            format!("{label} (validate)"),
            json!({"cmd": "validate", "template": source, "types": "generic"}),
        ));
        if path.starts_with(workspace().join("testdata/rules")) && label.contains("/H6") {
            // The resource rules' fixtures, under the checks of a stack create.
            out.push((
                format!("{label} (validate at create)"),
                json!({"cmd": "validate", "template": source, "types": "real",
                       "strict": true, "no_cloud": true}),
            ));
        }
        out.push((
            format!("{label} (resolve)"),
            json!({"cmd": "resolve", "template": source, "params": params(&source)}),
        ));
        if path.starts_with(workspace().join("testdata/upgrades")) {
            let options = UpgradeOptions {
                target: Version::LATEST,
                unsafe_fixes: false,
                version_style: VersionStyle::Keep,
            };
            if let Ok(result) = upgrade(&source, &options) {
                out.push((
                    format!("{label} (diff)"),
                    json!({"cmd": "diff", "a": source, "b": result.text, "params": params(&source)}),
                ));
            }
        }
    }
    out
}

#[test]
#[ignore = "needs ../shared/oracles and Heat's engine; run by scripts/test.sh beside ../shared"]
fn shared_the_driver_answers_every_fixture_request_as_the_shared_oracle() {
    let requests = fixture_requests();
    let mut ours = Heat::start();
    let mut theirs = Heat::start_shared();
    let mut differ = Vec::new();
    let mut kinds = BTreeSet::new();
    for (label, request) in &requests {
        let (a, b) = (ours.request(request), theirs.request(request));
        // Heat names an autoscaling group's members at random (12 characters of `short_id`):
        // `resources.asg<nested_stack>.resources.foksw7e2bxlc`.
        if a != b && without_member_names(&a.to_string()) != without_member_names(&b.to_string()) {
            differ.push(format!("{label}:\n  ours:   {a}\n  shared: {b}"));
        }
        // Heat's own exceptions (an unknown version, say) are answered alike; a request the
        // driver refuses is a request the fixture tests cannot make.
        if a["request_error"]["error_type"] == "Unsupported" {
            differ.push(format!("{label}: refused: {a}"));
        }
        kinds.insert(label.rsplit('(').next().unwrap_or_default().to_owned());
    }
    eprintln!(
        "oracle driver: {} fixture requests, {} answered differently from the shared oracle",
        requests.len(),
        differ.len()
    );
    assert!(requests.len() > 500, "too few requests: {}", requests.len());
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The text with every word of 12 lower-case letters and digits (a random member name of
/// Heat's, or an ordinary word, alike on both sides) replaced by `<name>`.
fn without_member_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.len() == 12 {
            out.push_str("<name>");
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The package pins of a requirements file, comments and blank lines left out.
fn pins(path: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
        .lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect()
}

#[test]
#[ignore = "needs ../shared/oracles; run by scripts/test.sh beside ../shared"]
fn shared_the_heat_pins_agree_with_the_shared_oracle() {
    let ours = pins(&workspace().join("scripts/heat-requirements.txt"));
    let theirs = pins(&shared().join("oracles/heat/requirements.txt"));
    assert!(
        ours.iter().any(|pin| pin.starts_with("openstack-heat==")),
        "{ours:?}"
    );
    assert_eq!(
        ours, theirs,
        "scripts/heat-requirements.txt and ../shared/oracles/heat/requirements.txt pin different versions"
    );
}
