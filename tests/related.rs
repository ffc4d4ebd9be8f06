//! A finding with a label in another file (X003: the nested template's `parameters`), in every
//! output format: a second code frame (human), nothing more (concise), `related` (JSON),
//! `relatedLocations` with the other file's URI, relative as the finding's is (SARIF), and the
//! place as text (GitHub annotations, GitLab Code Quality, JUnit).

use std::path::{Path, PathBuf};

use hotfix_testkit::{Hotfix, hotfix_binary};
use serde_json::Value;

mod common;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/related")
}

/// A repository in a temporary folder with the fixture tree, so that paths do not depend on
/// where the checkout is.
fn repo() -> tempfile::TempDir {
    let dir = hotfix_testkit::repository();
    common::copy_tree(&fixtures(), dir.path());
    dir
}

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!())
    .plain()
    .before(&["lint"])
    .after(&["--no-config", "--quiet"])
    .env(&[("COLUMNS", "100")]);

fn stdout(dir: &Path, args: &[&str]) -> String {
    let output = HOTFIX.run_in(dir, args);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
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
fn every_format_shows_the_place_in_the_nested_template() {
    let dir = repo();
    let dir = dir.path();
    for format in ["human", "concise", "json", "github", "gitlab", "junit"] {
        let out = stdout(dir, &["templates", "--format", format]);
        snapshot(&format!("related_{format}"), &out);
    }
    let human = stdout(dir, &["templates"]);
    assert!(
        human.contains("╭─[templates/nested/server.yaml:3:1]"),
        "{human}"
    );
    let concise = stdout(dir, &["templates", "--format", "concise"]);
    assert_eq!(concise.lines().count(), 1, "{concise}");
    let json: Value =
        serde_json::from_str(&stdout(dir, &["templates", "--format", "json"])).expect("JSON");
    let related = &json[0]["related"][0];
    assert_eq!(related["path"], "templates/nested/server.yaml");
    assert_eq!(related["start"]["line"], 3);
    assert_eq!(
        related["message"],
        "parameters of `nested/server.yaml` declared here"
    );
}

/// The `relatedLocations` of the one result of a SARIF log.
fn related_locations(sarif: &str) -> (Value, Value) {
    let sarif: Value = serde_json::from_str(sarif).expect("SARIF is JSON");
    let result = &sarif["runs"][0]["results"][0];
    (
        result["locations"][0]["physicalLocation"]["artifactLocation"].clone(),
        result["relatedLocations"].clone(),
    )
}

#[test]
fn sarif_related_locations_are_relative_to_the_root_as_the_finding_is() {
    let dir = repo();
    let (primary, related) =
        related_locations(&stdout(dir.path(), &["templates", "--format", "sarif"]));
    assert_eq!(
        primary,
        serde_json::json!({"uri": "templates/app.yaml", "uriBaseId": "%SRCROOT%"})
    );
    snapshot(
        "related_sarif_related_locations",
        &serde_json::to_string_pretty(&related).expect("JSON"),
    );
    // From inside the folder, and by an absolute path: the same URIs.
    let inside = dir.path().join("templates");
    let absolute = inside.join("app.yaml");
    for (cwd, path) in [
        (inside.as_path(), "."),
        (dir.path(), absolute.to_str().expect("UTF-8")),
    ] {
        let (again_primary, again) = related_locations(&stdout(cwd, &[path, "--format", "sarif"]));
        assert_eq!(again_primary, primary, "{path}");
        assert_eq!(again, related, "{path}");
    }
}

#[test]
fn a_baseline_keys_the_finding_as_before() {
    let dir = repo();
    let dir = dir.path();
    let output = HOTFIX.run_in(dir, &["templates", "--write-baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(0));
    let baseline: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("baseline.json")).expect("the baseline"),
    )
    .expect("JSON");
    let findings = baseline["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "{baseline}");
    assert_eq!(findings[0]["path"], "templates/app.yaml");
    // The finding is keyed by the parent's line alone: moving the nested template's
    // `parameters` leaves it known.
    let nested = dir.join("templates/nested/server.yaml");
    let text = std::fs::read_to_string(&nested).expect("the nested template");
    std::fs::write(&nested, format!("# moved\n# down\n{text}")).expect("the nested template");
    let output = HOTFIX.run_in(dir, &["templates", "--baseline", "baseline.json"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    // Suppressing it in the parent's own line works as for any finding.
    let app = dir.join("templates/app.yaml");
    let text = std::fs::read_to_string(&app).expect("the parent");
    std::fs::write(
        &app,
        text.replace(
            "flavour: m1.small",
            "flavour: m1.small  # hotfix: ignore[X003]",
        ),
    )
    .expect("the parent");
    assert_eq!(HOTFIX.run_in(dir, &["templates"]).status.code(), Some(0));
}
