//! The embedded resource-type data against Heat itself: it is what
//! `scripts/gen-resource-types.py` writes from the pinned Heat, and its behaviour flags agree
//! with what Heat's validation accepts, type by type.
//!
//! These tests need Heat's engine: they are `#[ignore]`d and named `heat_…`, and
//! `scripts/test.sh` runs them after installing Heat into `.venv-heat` (`HOTFIX_PYTHON` names
//! another Python with Heat).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use hotfix_hot::heat_release::HeatRelease;
use hotfix_hot::resource_types;
use hotfix_testkit::{python, workspace};
use serde_json::{Value, json};

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_the_embedded_resource_type_data_is_what_the_script_writes() {
    let output = Command::new(python())
        .arg(workspace().join("scripts/gen-resource-types.py"))
        .arg("-")
        .output()
        .expect("run scripts/gen-resource-types.py");
    assert!(
        output.status.success(),
        "scripts/gen-resource-types.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let fresh = String::from_utf8(output.stdout).expect("UTF-8");
    if fresh != resource_types::RESOURCE_TYPES_JSON {
        let changed: Vec<&str> = fresh
            .lines()
            .filter(|line| {
                !resource_types::RESOURCE_TYPES_JSON
                    .lines()
                    .any(|l| l == *line)
            })
            .map(|line| line.find("\":").map_or(line, |end| &line[..=end]))
            .take(10)
            .collect();
        panic!(
            "crates/hotfix_hot/data/resource_types.json is stale against Heat's registry \
             (the lines that differ start {}). Regenerate it with\n  .venv-heat/bin/python \
             scripts/gen-resource-types.py crates/hotfix_hot/data/resource_types.json\n\
             (see docs/resource-types.md)",
            changed.join(", ")
        );
    }
}

/// The release table (`hotfix_hot::heat_release`) against what OpenStack's own packages in
/// Heat's environment say: oslo.log's `versionutils.deprecated` lists the series in release
/// order with the numbers of those since 2023 (`ANTELOPE = '2023.1'`), and the installed
/// `openstack-heat` is a release of the table's last series.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_the_release_table_agrees_with_openstack() {
    const SCRIPT: &str = r"
import json
from importlib import metadata
from oslo_log import versionutils as v
d = v.deprecated
series = [(k.lower(), val) for k, val in vars(d).items()
          if k.isupper() and isinstance(val, str) and val in v._RELEASES]
series.sort(key=lambda s: v._RELEASE_KEYS.index(s[1]))
print(json.dumps({'series': series, 'heat': metadata.version('openstack-heat')}))
";
    let output = Command::new(python())
        .args(["-c", SCRIPT])
        .output()
        .expect("run Heat's Python");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answer: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let oslo: Vec<(String, String)> =
        serde_json::from_value(answer["series"].clone()).expect("pairs");
    let ours: Vec<HeatRelease> = HeatRelease::all().collect();
    let start = oslo
        .iter()
        .position(|(name, _)| name == ours[0].series())
        .expect("oslo.log names grizzly");
    assert!(
        oslo.len() >= start + ours.len(),
        "oslo.log knows fewer series: {oslo:?}"
    );
    for (release, (name, id)) in ours.iter().zip(&oslo[start..]) {
        assert_eq!(release.series(), name, "series in oslo.log's order");
        if id.contains('.') {
            assert_eq!(release.number(), Some(id.as_str()), "{name}");
        }
    }
    let heat = answer["heat"].as_str().expect("a version");
    let release = heat
        .split('.')
        .next()
        .and_then(|major| HeatRelease::of_heat_version(&format!("{major}.0.0")))
        .unwrap_or_else(|| panic!("Heat {heat} is a release the table lacks"));
    assert_eq!(release, HeatRelease::LATEST, "Heat {heat}");
}

/// For every registered type: a resource with its required properties validates; the
/// `Snapshot` deletion policy validates exactly when the data says `snapshot`; `get_attr` of an
/// undeclared attribute validates exactly when it says `dynamic_attributes`; every declared
/// attribute validates.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_every_type_accepts_snapshot_and_attributes_exactly_as_the_data_says() {
    let mut heat = Oracle::start();
    let mut wrong = Vec::new();
    let types = resource_types::all();
    for (name, t) in types.iter() {
        let properties: serde_json::Map<String, Value> = t
            .properties
            .iter()
            .filter(|(_, s)| s.required)
            .map(|(key, s)| (key.clone(), s.example_value()))
            .collect();
        let template = |extra: Value, outputs: Value| {
            let mut resource = json!({"type": name, "properties": properties});
            if let (Some(resource), Value::Object(extra)) = (resource.as_object_mut(), extra) {
                resource.extend(extra);
            }
            json!({
                "heat_template_version": "2018-08-31",
                "resources": {"r": resource},
                "outputs": outputs,
            })
        };
        let plain = heat.validate(&template(json!({}), json!({})));
        if plain["valid"] != true {
            wrong.push(format!("{name}: with its required properties: {plain}"));
            continue;
        }
        let snapshot = heat.validate(&template(json!({"deletion_policy": "Snapshot"}), json!({})));
        if snapshot["valid"] != t.snapshot {
            wrong.push(format!(
                "{name}: snapshot is {} but Heat: {snapshot}",
                t.snapshot
            ));
        }
        let undeclared = heat.validate(&template(
            json!({}),
            json!({"o": {"value": {"get_attr": ["r", "not_an_attribute_of_any_type"]}}}),
        ));
        if undeclared["valid"] != t.dynamic_attributes {
            wrong.push(format!(
                "{name}: dynamic_attributes is {} but Heat: {undeclared}",
                t.dynamic_attributes
            ));
        }
        let outputs: serde_json::Map<String, Value> = t
            .attributes
            .keys()
            .map(|a| (a.clone(), json!({"value": {"get_attr": ["r", a]}})))
            .collect();
        let declared = heat.validate(&template(json!({}), Value::Object(outputs)));
        if declared["valid"] != true {
            wrong.push(format!("{name}: its declared attributes: {declared}"));
        }
    }
    assert!(types.len() > 100, "{} types", types.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `scripts/heat_oracle.py serve`: one JSON request per line, one answer per line.
struct Oracle {
    child: std::process::Child,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Oracle {
    fn start() -> Self {
        let mut child = Command::new(python())
            .arg(workspace().join("scripts/heat_oracle.py"))
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start scripts/heat_oracle.py serve");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Self { child, stdout }
    }

    fn validate(&mut self, template: &Value) -> Value {
        let request = json!({"cmd": "validate", "template": template.to_string()});
        let stdin = self.child.stdin.as_mut().expect("piped");
        writeln!(stdin, "{request}").expect("write to the oracle");
        stdin.flush().expect("write to the oracle");
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .expect("read from the oracle");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("oracle answer {line:?}: {e}"))
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// Each older release's data (`resource_types::RELEASE_PATCHES`) against what
/// `scripts/gen-resource-types.py` writes on that release's Heat, where
/// `scripts/setup-heat-release.sh SERIES` has built it (target/heat-releases/SERIES, or
/// `HOTFIX_HEAT_RELEASES`); a release whose Heat is not built is skipped, and named.
#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_each_release_data_is_what_its_heat_writes() {
    let root = std::env::var_os("HOTFIX_HEAT_RELEASES")
        .map_or_else(|| workspace().join("target/heat-releases"), PathBuf::from);
    let mut stale = Vec::new();
    let mut skipped = Vec::new();
    for (series, _) in resource_types::RELEASE_PATCHES {
        let venv = root.join(series);
        if !venv.join(".hotfix-stamp").exists() {
            skipped.push(*series);
            continue;
        }
        let output = Command::new(venv.join("bin/python"))
            .arg(workspace().join("scripts/gen-resource-types.py"))
            .arg("-")
            .output()
            .expect("run scripts/gen-resource-types.py");
        assert!(
            output.status.success(),
            "scripts/gen-resource-types.py on {series}'s Heat failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let fresh: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        if Some(fresh) != resource_types::release_json(series) {
            stale.push(*series);
        }
    }
    if !skipped.is_empty() {
        eprintln!(
            "heat_each_release_data_is_what_its_heat_writes: skipped {} (no Heat built: \
             scripts/setup-heat-release.sh SERIES builds one)",
            skipped.join(", ")
        );
    }
    assert!(
        stale.is_empty(),
        "the embedded data of {} differs from what their Heat writes (regenerate with \
         python3 scripts/gen-heat-releases.py {}; see docs/resource-types.md)",
        stale.join(", "),
        stale.join(" ")
    );
}
