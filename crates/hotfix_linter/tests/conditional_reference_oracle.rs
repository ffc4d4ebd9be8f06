//! H303 (reference-to-conditional-resource) against Heat's engine.
//!
//! For every fixture of `testdata/rules/H303`, each `get_resource`/`get_attr` that names a
//! resource with a `condition` is resolved by Heat (`scripts/heat_oracle.py`, `resolve` with
//! `params`) under every combination of the parameters the conditions read: a boolean
//! parameter is `true` and `false`, another parameter takes each string it is compared with
//! (`equals`, `contains`) and one value compared with nothing. To see one reference alone, the
//! other such references of the same resources or outputs are pointed at an added
//! unconditional resource (a reference an alias shares fails when it fails in any of them).
//! hotfix must report H303 on the reference exactly when some combination fails with Heat's
//! `The specified reference "…" … is incorrect.` Ignored by a plain `cargo test`; run by
//! `scripts/test.sh` (a `heat_` test: see `common`).

use std::path::{Path, PathBuf};

use hotfix_hot::{Owner, RefKind, Semantic, Template, owner_definition};
use hotfix_linter::{Selector, Settings, lint};
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};
use serde_json::{Value, json};

mod common;

use common::Heat;

/// The unconditional resource the other references are pointed at.
const ALWAYS: &str = "__always";
/// A string parameter's value that no condition compares with.
const OTHER: &str = "__other";
/// More combinations than this means the fixture is too large to enumerate.
const MAX_COMBINATIONS: usize = 4096;

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/rules/H303");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testdata/rules/H303")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    files
}

/// A reference to a resource with a condition: its node, and the resources and outputs that
/// use it (more than one when an alias shares it).
struct Candidate {
    owners: Vec<(Owner, String)>,
    target: String,
    node: NodeId,
}

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_hotfix_reports_a_conditional_reference_exactly_when_heat_can_fail_on_it() {
    let mut heat = Heat::start();
    let settings = Settings {
        select: vec![Selector::parse("H303").expect("a rule code")],
        ..Settings::default()
    };
    let (mut references, mut failing, mut reported, mut requests) = (0, 0, 0, 0);
    let mut mismatches = Vec::new();
    for path in fixtures() {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        let source = std::fs::read_to_string(&path).expect("a UTF-8 fixture");
        let doc = hotfix_yaml::parse(&source).expect("a fixture that loads");
        let template = Template::new(&doc);
        let semantic = Semantic::new(&template);
        let candidates = candidates(&doc, &template, &semantic);
        let combinations = combinations(&doc, &template);
        let findings = lint(name, source.as_bytes(), &settings);
        for candidate in &candidates {
            let text = isolate(&doc, &source, &candidates, candidate);
            let mut fails = Vec::new();
            for params in &combinations {
                requests += 1;
                let answer = heat.request(&json!({
                    "cmd": "resolve", "template": text, "params": params,
                }));
                assert!(
                    answer.get("request_error").is_none(),
                    "{name}: Heat could not resolve the variant: {answer}"
                );
                if reference_error(&answer, candidate) {
                    fails.push(params.clone());
                }
            }
            let span = doc.node(candidate.node).span;
            let report = findings.iter().any(|d| d.span == span);
            references += 1;
            failing += usize::from(!fails.is_empty());
            reported += usize::from(report);
            if report == fails.is_empty() {
                let line = doc.lines().position(&source, span.start).line + 1;
                mismatches.push(format!(
                    "{name}:{line}: `{}` in `{}`: hotfix {}, Heat fails with {} of {} combinations {:?}",
                    candidate.target,
                    candidate
                        .owners
                        .iter()
                        .map(|(_, n)| n.as_str())
                        .collect::<Vec<_>>()
                        .join("`, `"),
                    if report { "reports H303" } else { "is silent" },
                    fails.len(),
                    combinations.len(),
                    fails.first(),
                ));
            }
        }
    }
    eprintln!(
        "H303 oracle: {references} references to conditional resources, {failing} fail in Heat \
         for some parameters, {reported} reported by hotfix; {requests} resolutions"
    );
    assert!(
        mismatches.is_empty(),
        "hotfix and Heat disagree:\n{}",
        mismatches.join("\n")
    );
    assert!(references > 0 && failing > 0 && failing < references);
}

/// Every reference to a resource that has a `condition`, once per node.
fn candidates(doc: &Document, template: &Template<'_>, semantic: &Semantic) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for reference in &semantic.references {
        if !matches!(reference.kind, RefKind::Resource | RefKind::Attribute) {
            continue;
        }
        let Some(target) = template.resource(&reference.name) else {
            continue;
        };
        if !template.is_mapping(target.value) || doc.get(target.value, "condition").is_none() {
            continue;
        }
        let owner = (
            reference.owner,
            owner_definition(template, reference.owner).name.clone(),
        );
        match out.iter_mut().find(|c| c.node == reference.node) {
            Some(seen) if seen.owners.contains(&owner) => {}
            Some(seen) => seen.owners.push(owner),
            None => out.push(Candidate {
                owners: vec![owner],
                target: reference.name.clone(),
                node: reference.node,
            }),
        }
    }
    out
}

/// Every combination of the values of the parameters that conditions compare or test.
fn combinations(doc: &Document, template: &Template<'_>) -> Vec<Value> {
    let mut domains: Vec<(String, Vec<Value>)> = Vec::new();
    for parameter in &template.parameters {
        let kind = doc
            .get(parameter.value, "type")
            .and_then(|t| doc.str_value(t));
        let values = if kind == Some("boolean") {
            if !reads(doc, &parameter.name) {
                continue;
            }
            vec![json!(true), json!(false)]
        } else {
            let mut strings = compared_strings(doc, &parameter.name);
            if strings.is_empty() {
                continue;
            }
            strings.sort();
            strings.dedup();
            strings.push(OTHER.to_owned());
            strings.into_iter().map(Value::String).collect()
        };
        domains.push((parameter.name.clone(), values));
    }
    let mut out = vec![serde_json::Map::new()];
    for (name, values) in &domains {
        out = out
            .into_iter()
            .flat_map(|params| {
                values.iter().map(move |value| {
                    let mut params = params.clone();
                    params.insert(name.clone(), value.clone());
                    params
                })
            })
            .collect();
        assert!(out.len() <= MAX_COMBINATIONS, "too many combinations");
    }
    out.into_iter().map(Value::Object).collect()
}

/// Whether some `{get_param: name}` appears in the document.
fn reads(doc: &Document, name: &str) -> bool {
    all_nodes(doc)
        .into_iter()
        .any(|node| get_param_of(doc, node) == Some(name))
}

/// The strings `{get_param: name}` is compared with: the other side of an `equals`, the items
/// of the list of a `contains`.
fn compared_strings(doc: &Document, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for node in all_nodes(doc) {
        let Some((function, args)) = single_entry(doc, node) else {
            continue;
        };
        let Some(items) = doc.items(doc.resolve(args)) else {
            continue;
        };
        let &[a, b] = items else {
            continue;
        };
        match function {
            "equals" => {
                for (side, other) in [(a, b), (b, a)] {
                    if get_param_of(doc, side) == Some(name) {
                        out.extend(string(doc, other));
                    }
                }
            }
            "contains" if get_param_of(doc, a) == Some(name) => {
                for &item in doc.items(doc.resolve(b)).unwrap_or_default() {
                    out.extend(string(doc, item));
                }
            }
            _ => {}
        }
    }
    out
}

/// Every node of the document, aliases not followed.
fn all_nodes(doc: &Document) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![doc.root()];
    while let Some(node) = stack.pop() {
        out.push(node);
        match &doc.node(node).kind {
            NodeKind::Mapping { .. } => {
                for entry in doc.raw_entries(node).unwrap_or_default() {
                    stack.push(entry.key);
                    stack.push(entry.value);
                }
            }
            NodeKind::Sequence { items, .. } => stack.extend(items.iter().copied()),
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
        }
    }
    out
}

/// The key and value of a one-entry mapping.
fn single_entry(doc: &Document, node: NodeId) -> Option<(&str, NodeId)> {
    let node = doc.resolve(node);
    if !matches!(doc.node(node).kind, NodeKind::Mapping { .. }) {
        return None;
    }
    let entries = doc.entries(node);
    let [entry] = entries.as_slice() else {
        return None;
    };
    Some((doc.str_value(entry.key)?, entry.value))
}

/// The parameter of `{get_param: name}`.
fn get_param_of(doc: &Document, node: NodeId) -> Option<&str> {
    match single_entry(doc, node)? {
        ("get_param", args) => doc.str_value(doc.resolve(args)),
        _ => None,
    }
}

fn string(doc: &Document, node: NodeId) -> Option<String> {
    let node = doc.resolve(node);
    if !matches!(doc.scalar(node)?.value, ScalarValue::Str) {
        return None;
    }
    doc.str_value(node).map(str::to_owned)
}

/// The template as JSON with every other candidate of the same owners pointed at [`ALWAYS`],
/// an unconditional resource added for them.
fn isolate(doc: &Document, source: &str, all: &[Candidate], keep: &Candidate) -> String {
    let mut edits: Vec<_> = all
        .iter()
        .filter(|c| c.node != keep.node && c.owners.iter().any(|o| keep.owners.contains(o)))
        .map(|c| doc.node(c.node).span)
        .collect();
    edits.sort_by_key(|s| std::cmp::Reverse(s.start));
    let mut text = source.to_owned();
    for span in edits {
        let quoted = text[span.start..].starts_with(['"', '\'']);
        let name = if quoted {
            format!("\"{ALWAYS}\"")
        } else {
            ALWAYS.to_owned()
        };
        text.replace_range(span.start..span.end, &name);
    }
    let variant = hotfix_yaml::parse(&text).expect("the variant loads");
    let mut value: Value =
        serde_json::from_str(&variant.to_python_json().expect("JSON")).expect("valid JSON");
    let resources = value
        .get_mut("resources")
        .and_then(Value::as_object_mut)
        .expect("a resources mapping");
    resources.insert(ALWAYS.to_owned(), json!({"type": "OS::Heat::None"}));
    value.to_string()
}

/// Whether Heat's answer has the missing-reference error in one of the candidate's owners.
fn reference_error(answer: &Value, candidate: &Candidate) -> bool {
    let needle = format!("The specified reference \"{}\"", candidate.target);
    candidate.owners.iter().any(|(owner, name)| {
        let section = match owner {
            Owner::Resource(_) => "resources",
            Owner::Output(_) => "outputs",
            Owner::Condition(_) => return false,
        };
        answer
            .get(section)
            .and_then(|s| s.get(name))
            .is_some_and(|v| mentions(v, &needle))
    })
}

fn mentions(value: &Value, needle: &str) -> bool {
    match value {
        Value::String(s) => s.contains(needle),
        Value::Array(items) => items.iter().any(|v| mentions(v, needle)),
        Value::Object(map) => map.values().any(|v| mentions(v, needle)),
        _ => false,
    }
}
