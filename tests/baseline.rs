//! `hotfix lint --write-baseline` and `--baseline`: adopt hotfix on a tree with findings and
//! fail only on new ones.

use std::path::{Path, PathBuf};
use std::process::Command;

use hotfix_testkit::{Hotfix, hotfix_binary};

mod common;

use common::copy_tree;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/baseline/tree")
}

/// The fixtures' findings include `unused-parameter`, which is outside the default set.
const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!())
    .outside_github_actions()
    .before(&["lint"])
    .after(&[
        "--no-config",
        "--format",
        "concise",
        "--extend-select",
        "H408",
    ]);

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn edit(path: &Path, old: &str, new: &str) {
    let source = std::fs::read_to_string(path).expect("the fixture files");
    assert!(source.contains(old), "{old:?} not in {}", path.display());
    std::fs::write(path, source.replacen(old, new, 1)).expect("the fixture files");
}

#[test]
fn a_baseline_hides_known_findings_and_reports_new_and_stale_ones() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let tree = dir.path().join("tree");
    copy_tree(&fixtures(), &tree);

    // Three findings: recorded, exit 0, nothing on stdout.
    let output = HOTFIX.run_in(dir.path(), &["tree", "--write-baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), "");
    assert!(
        text(&output.stderr).contains("wrote 3 findings to the baseline baseline.json"),
        "{}",
        text(&output.stderr)
    );
    let baseline: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("baseline.json")).unwrap()).unwrap();
    let entries = baseline["findings"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    for entry in entries {
        assert!(
            entry["path"].as_str().unwrap().starts_with("tree/"),
            "{entry}"
        );
        assert!(entry["code"].as_str().unwrap().starts_with('H'), "{entry}");
        assert!(
            entry["fingerprint"].as_str().unwrap().contains(':'),
            "{entry}"
        );
    }

    // With the baseline: nothing to report, from the root or from a subfolder.
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    assert_eq!(text(&output.stdout), "");
    let output = HOTFIX.run_in(&tree, &[".", "--baseline", "../baseline.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));

    // Moving code: lines added above the findings and a resource moved above another.
    let app = tree.join("app.yaml");
    edit(
        &app,
        "heat_template_version: 2016-10-14\n",
        "# Owned by the application team.\n# Deployed by the pipeline.\nheat_template_version: 2016-10-14\n",
    );
    let network = "  private_network:\n    type: OS::Neutron::Net\n    properties:\n      name: application-private-network\n      admin_state_up: true\n\n";
    edit(&app, network, "");
    edit(&app, "resources:\n", &format!("resources:\n{network}"));
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    assert_eq!(text(&output.stdout), "");
    assert!(
        !text(&output.stderr).contains("no longer"),
        "{}",
        text(&output.stderr)
    );

    // One new problem: exactly that one is reported.
    let source = std::fs::read_to_string(&app).unwrap();
    std::fs::write(
        &app,
        format!("{source}  balancer_address:\n    value: {{get_attr: [load_balancer, vip]}}\n"),
    )
    .unwrap();
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with("tree/app.yaml:39:24: H302 `get_attr` refers to `load_balancer`"),
        "{stdout}"
    );
    assert!(
        text(&output.stderr).contains("1 error, 0 warnings"),
        "the summary counts only new findings: {}",
        text(&output.stderr)
    );

    // One problem fixed: its entry no longer occurs, and hotfix says so.
    edit(
        &tree.join("nested/volume.yaml"),
        "parameters:\n",
        "parameters:\n  volume_kind:\n    type: string\n",
    );
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout).lines().count(), 1);
    assert!(
        text(&output.stderr).contains("hotfix: baseline: 2 entries matched, 1 no longer occurs"),
        "{}",
        text(&output.stderr)
    );
    // A run on some files only (as pre-commit does) says nothing of the others' entries.
    let output = HOTFIX.run_in(
        dir.path(),
        &["tree/app.yaml", "--baseline", "baseline.json"],
    );
    assert_eq!(text(&output.stdout).lines().count(), 1);
    assert!(
        !text(&output.stderr).contains("no longer"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn a_missing_or_invalid_baseline_is_a_failure_of_hotfix() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixtures(), &dir.path().join("tree"));
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "missing.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot read the baseline missing.json"));
    std::fs::write(dir.path().join("bad.json"), "{\"findings\": 3}").unwrap();
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "bad.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("bad.json is not a hotfix baseline"));
    // Writing and reading one baseline at once makes no sense.
    let output = HOTFIX.run_in(
        dir.path(),
        &["tree", "--baseline", "a.json", "--write-baseline", "b.json"],
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_baseline_survives_edits_to_the_lines_around_its_findings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let tree = dir.path().join("tree");
    copy_tree(&fixtures(), &tree);
    let output = HOTFIX.run_in(dir.path(), &["tree", "--write-baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));

    // Unchanged: every entry matched where it was recorded.
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    assert!(
        text(&output.stderr).contains("hotfix: baseline: 3 entries matched\n"),
        "{}",
        text(&output.stderr)
    );

    // Values renamed on the lines that follow two findings (their fingerprints hash the next
    // hundred characters) and on the line of the third's neighbour: nothing comes back.
    let app = tree.join("app.yaml");
    edit(
        &app,
        "    description: A port the previous release needed; nothing uses it any more.\n",
        "    description: The port release 1 needed; unused since release 2.\n",
    );
    edit(
        &app,
        "        - network: {get_resource: private_network}\n",
        "        - network: {get_resource: private_net}\n",
    );
    edit(&app, "  private_network:\n", "  private_net:\n");
    edit(
        &app,
        "        purpose: the application server, reachable only from the private network\n",
        "        purpose: the application server, reachable only from the internal network\n",
    );
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "baseline.json"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "no recorded finding comes back: {}",
        text(&output.stdout)
    );
    assert_eq!(text(&output.stdout), "");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("hotfix: baseline: 3 entries matched (2 moved: their line or the lines after it changed)\n"),
        "{stderr}"
    );
    // The edits did move two fingerprints: matching on them alone would report two as new.
    let recorded: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("baseline.json")).unwrap()).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(dir.path())
        .args([
            "lint",
            "tree",
            "--no-config",
            "--extend-select",
            "H408",
            "--format",
            "sarif",
        ])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run hotfix");
    let sarif: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let now: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["partialFingerprints"]["primaryLocationLineHash"]
                .as_str()
                .unwrap()
        })
        .collect();
    let kept = recorded["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| now.contains(&e["fingerprint"].as_str().unwrap()))
        .count();
    assert_eq!(kept, 1, "{now:?} {recorded}");

    // A second finding with the same rule and message is new: each entry matches one finding.
    edit(
        &app,
        "      image: {get_param: image}\n",
        "      image: {get_param: image}\n      key_name: {get_param: image}\n",
    );
    let output = HOTFIX.run_in(dir.path(), &["tree", "--baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout).lines().count(),
        1,
        "{}",
        text(&output.stdout)
    );
}
