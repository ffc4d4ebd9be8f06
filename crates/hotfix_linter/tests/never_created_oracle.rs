//! Resources that are never created, whatever the stack's inputs (`condition: false`, a
//! condition defined as `{equals: [a, b]}` of two literals, …): Heat leaves them out of the
//! stack without looking at their type, properties, attributes or references, so a mistake
//! there fails nothing and a finding there would be a false alarm.
//!
//! `testdata/never_created/template.yaml` holds one such resource per rule, each with one
//! mistake and the rule's code in a comment after its name. The template as written: hotfix
//! reports nothing and Heat (`../shared/oracles/heat/stack.py --strict --no-cloud`, the checks of
//! a stack create) accepts it. With one resource's `condition` taken out (the line below its
//! name): hotfix reports that code in that resource, and Heat refuses the template.
//!
//! Conditions that nothing uses are alike: Heat resolves a condition only when a resource, an
//! output or an `if` asks for it. `testdata/unused_conditions/template.yaml` holds mistakes in
//! such conditions: hotfix reports them as warnings and Heat accepts the template; once a
//! resource uses the condition, hotfix reports an error and Heat refuses it.

mod common;

use std::path::Path;
use std::process::Command;

use hotfix_linter::{Settings, lint};

const FIXTURE: &str = "testdata/never_created/template.yaml";

/// Heat's verdict on the template at `path`: its error, or `None` when it accepts it.
fn heat(path: &Path) -> Option<String> {
    let output = Command::new(common::python())
        .arg(common::shared().join("oracles/heat/stack.py"))
        .arg(path)
        .args(["--strict", "--no-cloud"])
        .output()
        .expect("run stack.py");
    let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "stack.py gave no JSON for {}: {err}\n{}",
            path.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    match verdict["valid"].as_bool() {
        Some(true) => None,
        Some(false) => Some(verdict["error"].as_str().unwrap_or_default().to_owned()),
        None => panic!("stack.py gave no verdict for {}: {verdict}", path.display()),
    }
}

/// The codes hotfix reports in the template, with the line (1-based) of each.
fn findings(text: &str) -> Vec<(&'static str, usize)> {
    lint("template.yaml", text.as_bytes(), &Settings::default())
        .iter()
        .map(|d| (d.code, text[..d.span.start].matches('\n').count() + 1))
        .collect()
}

#[test]
#[ignore = "needs Heat (.venv-heat) and ../shared/oracles/heat/stack.py"]
fn shared_mistakes_in_resources_never_created_are_not_reported_and_heat_accepts_them() {
    let text = std::fs::read_to_string(common::workspace().join(FIXTURE)).expect("fixture");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("never_created");
    std::fs::create_dir_all(&dir).expect("temporary folder");

    assert_eq!(findings(&text), [], "the template as written");
    let path = dir.join("template.yaml");
    std::fs::write(&path, &text).expect("write");
    assert_eq!(heat(&path), None, "Heat accepts the template as written");

    let lines: Vec<&str> = text.lines().collect();
    let mut checked = 0;
    for (at, line) in lines.iter().enumerate() {
        let Some((name, code)) = line.split_once(": # ") else {
            continue;
        };
        assert!(
            lines[at + 1].trim_start().starts_with("condition:"),
            "{name}: its condition is the line below its name"
        );
        let enabled: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at + 1)
            .map(|(_, line)| *line)
            .collect();
        let enabled = enabled.join("\n") + "\n";
        // The resource's lines, once its condition is taken out.
        let end = lines[at + 1..]
            .iter()
            .position(|l| l.is_empty())
            .map_or(lines.len(), |n| at + 1 + n);
        let reported: Vec<_> = findings(&enabled)
            .into_iter()
            .filter(|&(_, line)| line > at && line < end)
            .collect();
        assert_eq!(
            reported,
            [(code, reported.first().map_or(0, |&(_, line)| line))],
            "{name}: with its condition taken out, hotfix reports {code} in it"
        );
        std::fs::write(&path, &enabled).expect("write");
        // The template as written is accepted: a refusal is for this resource's mistake.
        assert!(
            heat(&path).is_some(),
            "{name}: with its condition taken out, Heat refuses the template"
        );
        checked += 1;
    }
    assert!(
        checked >= 8,
        "every resource of the fixture checked ({checked})"
    );
    eprintln!("never-created resources: {checked} mistakes unreported and accepted by Heat");
}

const UNUSED_CONDITIONS: &str = "testdata/unused_conditions/template.yaml";

/// The codes and severities hotfix reports in the template.
fn severities(text: &str) -> Vec<(&'static str, &'static str)> {
    let mut found: Vec<_> = lint("template.yaml", text.as_bytes(), &Settings::default())
        .iter()
        .map(|d| (d.code, d.severity.as_str()))
        .collect();
    found.sort_unstable();
    found
}

#[test]
#[ignore = "needs Heat (.venv-heat) and ../shared/oracles/heat/stack.py"]
fn shared_mistakes_in_conditions_nothing_uses_are_warnings_and_heat_accepts_them() {
    let text =
        std::fs::read_to_string(common::workspace().join(UNUSED_CONDITIONS)).expect("fixture");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("unused_conditions");
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join("template.yaml");

    // As written: an undefined parameter and an undefined condition name, in conditions that
    // nothing uses (`both` names `by_region`, and nothing names `both`): warnings, and Heat
    // accepts the template.
    assert_eq!(
        severities(&text),
        [("H301", "warning"), ("H305", "warning")],
        "the template as written"
    );
    std::fs::write(&path, &text).expect("write");
    assert_eq!(heat(&path), None, "Heat accepts the template as written");

    // Once a resource uses a condition, its mistake (reached through `both` for `by_region`)
    // is an error, and Heat refuses the template.
    for (condition, code) in [("both", "H301"), ("not_staging", "H305")] {
        let used = text.replace("condition: is_prod", &format!("condition: {condition}"));
        let found = severities(&used);
        assert!(
            found.contains(&(code, "error")),
            "{condition} used: hotfix reports {code} as an error: {found:?}"
        );
        std::fs::write(&path, &used).expect("write");
        assert!(
            heat(&path).is_some(),
            "{condition} used: Heat refuses the template"
        );
    }
}
