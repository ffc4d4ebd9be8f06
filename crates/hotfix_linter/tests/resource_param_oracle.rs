//! The rules on parameters read by resource fields, against Heat itself.
//!
//! - `get-param-type-mismatch` (H616): for each parameter type and each property type (and a
//!   few properties inside maps and lists), Heat converts a spread of values of that parameter
//!   type at stack create (strict validation, real plugins, no cloud: the shared oracle). The
//!   rule reports a property exactly when Heat fails for every value, with Heat's text; and
//!   reports a default exactly when Heat fails with it, with Heat's exact text, except the
//!   `json` defaults written as strings that the rule documents it does not model.
//!
//! H616 needs the shared oracle (strict validation): its test is `shared_…`.

use hotfix_linter::{Selector, Settings, lint};
use serde_json::{Value, json};

mod common;

fn only(code: &str) -> Settings {
    Settings {
        select: vec![Selector::parse(code).expect("a rule code")],
        ..Settings::default()
    }
}

/// The findings of one rule: (message, the Heat text its help quotes).
fn findings(code: &str, text: &str) -> Vec<(String, String)> {
    lint("t.json", text.as_bytes(), &only(code))
        .into_iter()
        .filter(|d| d.code == code)
        .map(|d| {
            let help = d.help.unwrap_or_default();
            let quoted = help
                .rsplit_once("Heat: `")
                .and_then(|(_, q)| q.strip_suffix('`'))
                .unwrap_or_else(|| panic!("the help quotes Heat: {help}"))
                .to_owned();
            (d.message, quoted)
        })
        .collect()
}

/// Whether `text` is `pattern` with each `…` standing for any text.
fn matches_form(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').collect();
    let (first, rest) = parts.split_first().expect("one part at least");
    let Some(mut left) = text.strip_prefix(first) else {
        return false;
    };
    for (i, part) in rest.iter().enumerate() {
        if i + 1 == rest.len() {
            return left.ends_with(part);
        }
        match left.find(part) {
            Some(at) => left = &left[at + part.len()..],
            None => return false,
        }
    }
    left.is_empty()
}

/// A property of a registered type that Heat checks without a cloud, written around the
/// `get_param` call; `path` is where Heat's message puts it.
struct Case {
    kind: &'static str,
    type_name: &'static str,
    path: &'static str,
    properties: fn(Value) -> Value,
}

const CASES: &[Case] = &[
    Case {
        kind: "string",
        type_name: "OS::Heat::TestResource",
        path: "value",
        properties: |p| json!({"value": p}),
    },
    Case {
        kind: "integer",
        type_name: "OS::Barbican::Order",
        path: "bit_length",
        properties: |p| json!({"type": "key", "bit_length": p}),
    },
    Case {
        kind: "number",
        type_name: "OS::Heat::TestResource",
        path: "wait_secs",
        properties: |p| json!({"wait_secs": p}),
    },
    Case {
        kind: "boolean",
        type_name: "OS::Heat::TestResource",
        path: "fail",
        properties: |p| json!({"fail": p}),
    },
    Case {
        kind: "map",
        type_name: "OS::Heat::TestResource",
        path: "action_wait_secs",
        properties: |p| json!({"action_wait_secs": p}),
    },
    Case {
        kind: "list",
        type_name: "OS::Neutron::Net",
        path: "dhcp_agent_ids",
        properties: |p| json!({"dhcp_agent_ids": p}),
    },
    Case {
        kind: "any",
        type_name: "OS::Heat::Value",
        path: "value",
        properties: |p| json!({"value": p}),
    },
    // The one-name list form, `{get_param: [p]}`.
    Case {
        kind: "string",
        type_name: "OS::Heat::TestResource",
        path: "value",
        properties: |p| json!({"value": {"get_param": [p["get_param"]]}}),
    },
    // Inside a list of maps, and a map of known keys.
    Case {
        kind: "string",
        type_name: "OS::Heat::SoftwareConfig",
        path: "inputs[0].name",
        properties: |p| json!({"inputs": [{"name": p}]}),
    },
    Case {
        kind: "boolean",
        type_name: "OS::Heat::SoftwareConfig",
        path: "inputs[1].replace_on_change",
        properties: |p| json!({"inputs": [{"name": "a"}, {"name": "b", "replace_on_change": p}]}),
    },
    Case {
        kind: "number",
        type_name: "OS::Heat::TestResource",
        path: "action_wait_secs.create",
        properties: |p| json!({"action_wait_secs": {"create": p}}),
    },
    Case {
        kind: "integer",
        type_name: "OS::Heat::ResourceGroup",
        path: "count",
        properties: |p| json!({"count": p, "resource_def": {"type": "OS::Heat::None"}}),
    },
];

/// Values of each parameter type, as a user (or a default) gives them: enough to find a value
/// that converts whenever one does.
fn samples(ty: &str) -> Vec<Value> {
    let values = match ty {
        "string" => json!([
            "abc",
            "",
            "12",
            " 7 ",
            "1.5",
            "1e3",
            "true",
            "FALSE",
            "a,b",
            "{\"a\": 1}",
            "[]"
        ]),
        "number" => json!([1, 0, -3, 1.5, "2", "2.5", true, false]),
        "comma_delimited_list" => json!(["a,b", "", "x", "1", "true", ["p", "q"]]),
        "json" => json!([
            {"a": 1},
            {},
            [1, 2],
            [],
            "{\"a\": 1}",
            "[]",
            "\"abc\"",
            "\"12\"",
            "1",
            "1.5",
            "true",
            "null",
            ""
        ]),
        "boolean" => json!([true, false, "true", "no", "1", "on"]),
        _ => unreachable!("a parameter type"),
    };
    values.as_array().expect("a list").clone()
}

const PARAM_TYPES: [&str; 5] = [
    "string",
    "number",
    "comma_delimited_list",
    "json",
    "boolean",
];

fn h616_template(case: &Case, param: &Value) -> String {
    let template = json!({
        "heat_template_version": "2018-08-31",
        "parameters": {"p": param},
        "resources": {"r": {
            "type": case.type_name,
            "properties": (case.properties)(json!({"get_param": "p"})),
        }},
    });
    serde_json::to_string_pretty(&template).expect("JSON")
}

/// Heat's answer to a stack create's validation: `None` when the value converts, else the text
/// after `Property error: resources.r.properties.PATH: ` (which must be there). A converted
/// value that a constraint or the nested schema refuses (`-3 is out of range`, `Unknown
/// Property a`) converts.
fn strict(heat: &mut common::Heat, text: &str, params: &Value, path: &str) -> Option<String> {
    let answer = heat.request(&json!({
        "cmd": "validate", "template": text, "params": params,
        "types": "real", "strict": true, "no_cloud": true,
    }));
    if answer["valid"] == json!(true) {
        return None;
    }
    let error = answer["error"].as_str().expect("an error text");
    if error.contains(" is out of range ") || error.contains(": Unknown Property ") {
        return None;
    }
    let prefix = format!("Property error: resources.r.properties.{path}: ");
    Some(
        error
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("Heat fails otherwise than converting {path}: {error}"))
            .to_owned(),
    )
}

#[test]
#[ignore = "needs ../shared (the shared Heat oracle) and Heat's engine; run by scripts/test.sh"]
fn shared_get_param_type_mismatches_are_the_conversions_heat_fails() {
    let types = hotfix_hot::resource_types::all();
    let mut heat = common::Heat::start_shared();
    let mut wrong = Vec::new();
    let mut table = Vec::new();
    let (mut requests, mut defaults_reported, mut gaps) = (0, 0, 0);
    for case in CASES {
        let top = case.path.split(['.', '[']).next().expect("a name");
        let schema = &types.get(case.type_name).expect("registered").properties[top];
        if !case.path.contains(['.', '[']) {
            assert_eq!(schema.kind.as_str(), case.kind, "{}", case.path);
        }
        for ty in PARAM_TYPES {
            // Every value of the type, given by the user.
            let text = h616_template(case, &json!({"type": ty}));
            let reported = findings("H616", &text);
            let mut failures = Vec::new();
            let samples = samples(ty);
            for value in &samples {
                requests += 1;
                if let Some(error) = strict(&mut heat, &text, &json!({"p": value}), case.path) {
                    failures.push(error);
                }
            }
            let never = failures.len() == samples.len();
            let verdict = match failures.len() {
                0 => "converts",
                n if n == samples.len() => "never",
                _ => "some fail",
            };
            table.push(format!("{ty} -> {} ({}): {verdict}", case.kind, case.path));
            match (never, reported.as_slice()) {
                (false, []) => {}
                (true, [(message, quoted)]) => {
                    if !message.contains(&format!("`{}`", case.path)) {
                        wrong.push(format!(
                            "{ty} -> {}: the message names another place: {message}",
                            case.path
                        ));
                    }
                    for error in &failures {
                        if !matches_form(quoted, error) {
                            wrong.push(format!(
                                "{ty} -> {}: hotfix quotes `{quoted}`, Heat says `{error}`",
                                case.path
                            ));
                        }
                    }
                }
                _ => wrong.push(format!(
                    "{ty} -> {}: Heat fails for {} of {} values, hotfix reports {reported:?}",
                    case.path,
                    failures.len(),
                    samples.len()
                )),
            }
            // Each value as the default, no value given.
            for value in &samples {
                let text = h616_template(case, &json!({"type": ty, "default": value}));
                let reported = findings("H616", &text);
                requests += 1;
                let heat_fails = strict(&mut heat, &text, &json!({}), case.path);
                match (&heat_fails, reported.as_slice()) {
                    (None, []) => {}
                    (Some(error), [(_, quoted)]) => {
                        defaults_reported += 1;
                        if quoted != error {
                            wrong.push(format!("{ty} -> {} default {value}: hotfix quotes `{quoted}`, Heat says `{error}`", case.path));
                        }
                    }
                    // The documented gap: a json default written as a string is not parsed.
                    (Some(_), []) if ty == "json" && value.is_string() => gaps += 1,
                    _ => wrong.push(format!(
                        "{ty} -> {} default {value}: Heat: {heat_fails:?}, hotfix: {reported:?}",
                        case.path
                    )),
                }
            }
        }
    }
    println!("{}", table.join("\n"));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    println!(
        "H616 oracle: {requests} strict validations, {defaults_reported} failing defaults reported with Heat's exact text, {gaps} json string defaults not modelled; every parameter type hotfix reports fails for every value and no other"
    );
}

#[test]
fn the_form_of_a_quoted_text_matches_the_texts_it_stands_for() {
    assert!(matches_form("\"…\" is not a map", "\"abc\" is not a map"));
    assert!(matches_form(
        "Value must be a string; got […]",
        "Value must be a string; got ['a', 'b']"
    ));
    assert!(matches_form(
        "unhashable type: 'list'",
        "unhashable type: 'list'"
    ));
    assert!(!matches_form("\"…\" is not a map", "\"abc\" is not a list"));
    assert!(!matches_form(
        "Value must be a string; got […]",
        "Value must be a string; got 1"
    ));
}
