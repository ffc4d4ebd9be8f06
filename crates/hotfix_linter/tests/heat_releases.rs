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
