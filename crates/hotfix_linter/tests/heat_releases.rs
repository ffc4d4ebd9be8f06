//! `heat-release` selects the resource types of that release's Heat: the fixtures of
//! `testdata/heat-release/wallaby/` are templates that Heat 16.1.0 (wallaby) and Heat 27.0.1
//! (hibiscus, the newest) judge differently. Each is linted with `heat-release = "wallaby"` and
//! without a release, and the errors hotfix reports are the ones expected below; the `heat_`
//! test checks those against both Heats: each refuses the fixture exactly when hotfix reports an
//! error for its release, with the text hotfix quotes.

use std::path::PathBuf;

use hotfix_diagnostics::Severity;
use hotfix_hot::heat_release::HeatRelease;
use hotfix_linter::{Settings, lint};
use serde_json::json;

mod common;

/// Fixture; the errors with `heat-release = "wallaby"` and without one; the text of Heat's
/// refusal that the finding holds (H615 writes the value in backticks where Heat quotes it).
const CASES: &[(&str, &[&str], &[&str], &str)] = &[
    (
        "octavia-listener-without-loadbalancer.yaml",
        &[],
        &["H613"],
        "Property loadbalancer not assigned",
    ),
    (
        "lbaas-v2-bogus-property.yaml",
        &["H609"],
        &[],
        "Unknown Property bogus_property",
    ),
    (
        "ike-policy-aes-cmac.yaml",
        &["H615"],
        &[],
        "aes-cmac` is not an allowed value",
    ),
];

fn fixture(name: &str) -> (String, String) {
    let path: PathBuf = common::workspace()
        .join("testdata/heat-release/wallaby")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("fixture");
    (path.display().to_string(), text)
}

fn wallaby() -> HeatRelease {
    HeatRelease::parse("wallaby").expect("a release")
}

/// The errors hotfix reports for the fixture with that release: codes, and messages with help.
fn errors(name: &str, release: Option<HeatRelease>) -> (Vec<&'static str>, Vec<String>) {
    let (path, text) = fixture(name);
    let settings = Settings {
        heat_release: release,
        ..Settings::default()
    };
    let found: Vec<_> = lint(&path, text.as_bytes(), &settings)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let codes = found.iter().map(|d| d.code).collect();
    let texts = found
        .iter()
        .map(|d| format!("{} {}", d.message, d.help.as_deref().unwrap_or_default()))
        .collect();
    (codes, texts)
}

#[test]
fn each_release_reports_what_its_heat_refuses() {
    for (name, on_wallaby, on_newest, _) in CASES {
        for (release, expected) in [
            (Some(wallaby()), on_wallaby),
            (None, on_newest),
            (Some(HeatRelease::LATEST), on_newest),
        ] {
            let (codes, texts) = errors(name, release);
            assert_eq!(codes, *expected, "{name} with {release:?}: {texts:#?}");
        }
    }
}

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh, scripts/setup-heat-release.sh); run by scripts/test.sh"]
fn heat_each_release_refuses_what_hotfix_reports_for_it() {
    let mut newest = common::Heat::start();
    let mut old = common::Heat::start_release("wallaby");
    let mut wrong = Vec::new();
    for (name, _, _, heat_text) in CASES {
        let (_, text) = fixture(name);
        for (label, release, heat) in [
            ("Heat 16.1.0 (wallaby)", Some(wallaby()), &mut old),
            ("Heat 27.0.1 (no heat-release)", None, &mut newest),
        ] {
            let answer = heat.request(&json!({
                "cmd": "validate", "template": text, "strict": true, "no_cloud": true,
            }));
            let refused = answer["valid"] != json!(true);
            let error = answer["error"].as_str().unwrap_or_default();
            let (codes, texts) = errors(name, release);
            if refused == codes.is_empty() {
                wrong.push(format!("{name}: {label} says {answer}, hotfix {codes:?}"));
            } else if refused
                && !(error.contains(&heat_text.replace('`', "\""))
                    && texts.iter().any(|t| t.contains(heat_text)))
            {
                wrong.push(format!(
                    "{name}: {label} says {error:?}, hotfix {texts:?}; expected both to hold \
                     {heat_text:?}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The `update_policy` of every type against both Heats: Heat checks it against the type's
/// `update_policy_schema` when it validates the template (before the properties, so none are
/// given). For every registered type of the release, a few keys (those Heat's groups take, and
/// one no type has), and for the types that take some, each key and each nested key given each
/// probe value. Heat refuses `update_policy` (`Property error: resources.r.update_policy…`)
/// exactly when hotfix reports an error of H609, H614 or H615 on it, and one of hotfix's quotes
/// is Heat's text. The schemas are the same in every release's data (rocky to hibiscus), so the
/// two Heats check the one rule on each release's own types.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh, scripts/setup-heat-release.sh); run by scripts/test.sh"]
fn heat_update_policies_are_refused_as_each_release_refuses_them() {
    use hotfix_linter::Selector;
    let mut wrong = Vec::new();
    let mut counts = Vec::new();
    for (label, release, mut heat) in [
        ("Heat 27.0.1", None, common::Heat::start()),
        (
            "Heat 16.1.0 (wallaby)",
            Some(wallaby()),
            common::Heat::start_release("wallaby"),
        ),
    ] {
        let settings = Settings {
            heat_release: release,
            select: ["H609", "H614", "H615"]
                .iter()
                .map(|c| Selector::parse(c).expect("code"))
                .collect(),
            ..Settings::default()
        };
        let cases = update_policy_cases(hotfix_hot::resource_types::for_release(release));
        let (mut refused, mut accepted) = (0, 0);
        for (type_name, policy) in &cases {
            let template = serde_json::to_string_pretty(&json!({
                "heat_template_version": "2018-08-31",
                "resources": {"r": {
                    "type": type_name,
                    "properties": properties(type_name),
                    "update_policy": policy,
                }},
            }))
            .expect("JSON");
            // What `openstack orchestration template validate` checks: a group's create-time
            // checks (its size, its members) come before `update_policy` in strict validation.
            let answer = heat.request(&json!({"cmd": "validate", "template": template}));
            let error = answer["error"].as_str().unwrap_or_default();
            let heat_refuses = error.starts_with("Property error: resources.r.update_policy");
            if answer["valid"] != json!(true) && !heat_refuses {
                wrong.push(format!(
                    "{label}: {type_name} {policy}: refused for another reason: {answer}"
                ));
                continue;
            }
            let found: Vec<String> = lint("t.json", template.as_bytes(), &settings)
                .iter()
                .map(|d| format!("{} {}", d.message, d.help.as_deref().unwrap_or_default()))
                .filter(|text| text.contains("resources.r.update_policy"))
                .collect();
            if heat_refuses {
                refused += 1;
            } else {
                accepted += 1;
            }
            if heat_refuses == found.is_empty() {
                wrong.push(format!(
                    "{label}: {type_name} {policy}: Heat {error:?}, hotfix {found:?}"
                ));
            } else if heat_refuses && !found.iter().any(|t| quotes(t, error)) {
                wrong.push(format!(
                    "{label}: {type_name} {policy}: Heat says {error:?}, hotfix quotes {found:?}"
                ));
            }
        }
        counts.push(format!("{label}: {refused} refused, {accepted} accepted"));
    }
    eprintln!("{}", counts.join("; "));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The `update_policy` values tried on each type: for every type, the keys Heat's groups take
/// and one no type has; for the types that take some, each key and each nested key given each
/// probe value.
fn update_policy_cases(
    types: &hotfix_hot::resource_types::ResourceTypes,
) -> Vec<(String, serde_json::Value)> {
    let probes = [
        json!(null),
        json!(true),
        json!(0),
        json!(1),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("x"),
        json!("10"),
        json!("2.5"),
        json!([]),
        json!([1]),
        json!({}),
        json!({"x": 1}),
    ];
    let mut cases: Vec<(String, serde_json::Value)> = Vec::new();
    for (name, t) in types.iter() {
        for key in [
            "rolling_update",
            "RollingUpdate",
            "AutoScalingRollingUpdate",
            "bogus",
        ] {
            cases.push((name.to_owned(), json!({ key: {} })));
        }
        for (key, schema) in &t.update_policy {
            for probe in &probes {
                cases.push((name.to_owned(), json!({ key: probe })));
            }
            for nested in schema.schema.keys() {
                for probe in &probes {
                    cases.push((name.to_owned(), json!({ key: { nested: probe } })));
                }
            }
        }
    }
    cases
}

/// The properties a type needs before Heat looks at its `update_policy`: none, but
/// `OS::Neutron::RBACPolicy`, whose translation rules read `object_type` when it is made.
fn properties(type_name: &str) -> serde_json::Value {
    match type_name {
        "OS::Neutron::RBACPolicy" => json!({"object_type": "network"}),
        _ => json!({}),
    }
}

/// Whether a finding's text quotes Heat's error: whole, or as `Property error: PATH: …` (a
/// constraint's help, whose own words say what Heat's do). Python 3.8 (wallaby's Heat) says
/// `a number` where 3.10 and later, and hotfix, say `a real number`.
fn quotes(finding: &str, error: &str) -> bool {
    let finding = finding.replace("a real number", "a number");
    let error = error.replace("a real number", "a number");
    finding.contains(&format!("`{error}`"))
        || error.split_once(": ").is_some_and(|(_, rest)| {
            rest.split_once(": ")
                .is_some_and(|(path, _)| finding.contains(&format!("`Property error: {path}: …`")))
        })
}
