//! hotfix finds at least what Heat's own validation finds.
//!
//! The fixtures under `testdata/` and the templates of `../shared/corpus` that Heat accepts
//! are mutated in the ways Heat rejects (an unknown `get_resource`/`get_attr`/`depends_on`
//! target, an unknown section or resource key, a removed function, a default out of range, an
//! output without a value, a dependency cycle, an unknown grouped parameter, an unknown
//! parameter type, an invalid function in conditions, …). Each mutant goes to Heat's engine
//! (`scripts/heat_oracle.py`, `validate` with generic types); for every mutant Heat rejects,
//! hotfix must report an error that the original did not have. Ignored by a plain `cargo test`;
//! `scripts/test.sh` runs the `heat_` test everywhere and the `shared_` one beside `../shared`
//! (see `common`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hotfix_diagnostics::{Diagnostic, Severity};
use hotfix_linter::{Settings, lint};
use hotfix_yaml::{Document, NodeId, NodeKind};
use serde_json::json;

mod common;

use common::{Heat, insert_entry, shared, workspace};

/// `None` when Heat accepts the template, else its error text.
fn validate(heat: &mut Heat, template: &str) -> Option<String> {
    let response =
        heat.request(&json!({"cmd": "validate", "template": template, "types": "generic"}));
    if response["valid"] == json!(true) {
        return None;
    }
    Some(
        response["error"]
            .as_str()
            .or_else(|| response["request_error"].as_str())
            .unwrap_or("(no message)")
            .to_owned(),
    )
}

fn templates(corpus: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![corpus.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a folder") {
            let path = entry.expect("an entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            if path.is_dir() {
                if !name.starts_with('.') {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml")
                && !name.contains(".j2")
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A mutation: its name, the hotfix code that should catch it, and the mutated text.
struct Mutant {
    kind: &'static str,
    expected: &'static [&'static str],
    text: String,
}

fn errors(path: &str, text: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = lint(path, text.as_bytes(), &Settings::default())
        .into_iter()
        .filter(|d: &Diagnostic| d.severity == Severity::Error)
        .map(|d| (d.code.to_owned(), d.message))
        .collect();
    found.sort();
    found
}

/// What mutating the templates under some folders showed.
#[derive(Default)]
struct Outcome {
    /// Templates Heat accepts, which were mutated.
    originals: usize,
    /// Per mutation: mutants, rejected by Heat, with a new hotfix error, with the expected code.
    stats: BTreeMap<&'static str, [usize; 4]>,
    missed: Vec<String>,
}

impl Outcome {
    fn rejected(&self) -> usize {
        self.stats.values().map(|s| s[1]).sum()
    }

    /// The table of mutations, what Heat and hotfix made of them.
    fn table(&self, name: &str) -> String {
        let total: [usize; 4] = self.stats.values().fold([0; 4], |acc, s| {
            [acc[0] + s[0], acc[1] + s[1], acc[2] + s[2], acc[3] + s[3]]
        });
        let row = |kind: &str, s: &[usize; 4]| {
            format!(
                "  {kind:<32} {:>8} {:>14} {:>14} {:>14}\n",
                s[0], s[1], s[2], s[3]
            )
        };
        let mut out = format!(
            "heat oracle: {} {name} templates Heat accepts, mutated:\n  {:<32} {:>8} {:>14} {:>14} {:>14}\n",
            self.originals,
            "mutation",
            "mutants",
            "Heat rejects",
            "hotfix new error",
            "expected code"
        );
        for (kind, s) in &self.stats {
            out.push_str(&row(kind, s));
        }
        out.push_str(&row("total", &total));
        out
    }

    /// Fails on every mutant Heat rejects without a new hotfix error.
    fn assert_none_missed(&self) {
        assert!(
            self.missed.is_empty(),
            "{} mutants Heat rejects without a new hotfix error:\n{}",
            self.missed.len(),
            self.missed
                .iter()
                .take(40)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Mutates every HOT template under `root` that Heat accepts, and asks Heat and hotfix about
/// each mutant.
fn mutate(heat: &mut Heat, root: &Path, outcome: &mut Outcome) {
    for path in templates(root) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // A suppression comment hides, as asked, the error a mutant gives its line.
        if !text.lines().any(|l| l.starts_with("heat_template_version"))
            || text.contains("hotfix: ignore")
        {
            continue;
        }
        let Ok(doc) = hotfix_yaml::parse(&text) else {
            continue;
        };
        if validate(heat, &text).is_some() {
            continue;
        }
        outcome.originals += 1;
        let display = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let before = errors(&display, &text);
        for mutant in mutants(&doc, &text) {
            let entry = outcome.stats.entry(mutant.kind).or_default();
            entry[0] += 1;
            let Some(heat_error) = validate(heat, &mutant.text) else {
                continue;
            };
            entry[1] += 1;
            let after = errors(&display, &mutant.text);
            let new: Vec<_> = after.iter().filter(|e| !before.contains(e)).collect();
            if new.is_empty() {
                outcome
                    .missed
                    .push(format!("{display} [{}]: Heat: {heat_error}", mutant.kind));
                continue;
            }
            entry[2] += 1;
            if new
                .iter()
                .any(|(code, _)| mutant.expected.contains(&code.as_str()))
            {
                entry[3] += 1;
            }
        }
    }
}

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_hotfix_reports_a_new_error_for_every_fixture_mutant_heat_rejects() {
    let mut heat = Heat::start();
    let mut outcome = Outcome::default();
    for dir in ["testdata/rules", "testdata/upgrades"] {
        mutate(&mut heat, &workspace().join(dir), &mut outcome);
    }
    eprint!("{}", outcome.table("fixture"));
    outcome.assert_none_missed();
    assert!(
        outcome.originals > 100,
        "too few fixtures accepted by Heat: {}",
        outcome.originals
    );
    assert!(
        outcome.rejected() > 300,
        "too few mutants rejected by Heat: {}",
        outcome.rejected()
    );
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's engine; run by scripts/test.sh beside ../shared"]
fn shared_hotfix_reports_a_new_error_for_every_corpus_mutant_heat_rejects() {
    let mut heat = Heat::start();
    let mut outcome = Outcome::default();
    mutate(&mut heat, &shared().join("corpus"), &mut outcome);
    eprint!("{}", outcome.table("corpus"));
    outcome.assert_none_missed();
    assert!(
        outcome.originals > 300,
        "too few corpus templates accepted by Heat: {}",
        outcome.originals
    );
    assert!(
        outcome.rejected() > 1000,
        "too few mutants rejected by Heat: {}",
        outcome.rejected()
    );
}

/// Text edits on a template, using the tree's spans to keep the YAML valid.
#[allow(
    clippy::too_many_lines,
    reason = "one flat list of mutations reads best in one place"
)]
fn mutants(doc: &Document, text: &str) -> Vec<Mutant> {
    let mut out = Vec::new();
    let root = doc.root();
    let version = doc
        .get(root, "heat_template_version")
        .and_then(|v| doc.str_value(v))
        .and_then(hotfix_hot::Version::parse);
    let Some(version) = version else { return out };
    let section = |name: &str| doc.get(root, name).filter(|&n| is_map(doc, n));
    let resources: Vec<(String, NodeId)> = section("resources")
        .map(|r| {
            doc.entries(r)
                .into_iter()
                .filter(|e| is_map(doc, e.value))
                .filter_map(|e| Some((doc.str_value(e.key)?.to_owned(), e.value)))
                .collect()
        })
        .unwrap_or_default();
    let replace = |span: hotfix_yaml::Span, with: &str| {
        let mut t = text.to_owned();
        t.replace_range(span.range(), with);
        t
    };
    let append = |extra: &str| {
        let sep = if text.ends_with('\n') { "" } else { "\n" };
        format!("{text}{sep}{extra}\n")
    };
    // Function calls in resource properties and outputs: the first of each kind.
    let template = hotfix_hot::Template::new(doc);
    let semantic = hotfix_hot::Semantic::new(&template);
    let first_ref =
        |kind: hotfix_hot::RefKind| semantic.references(kind).find(|r| r.field != "depends_on");
    if let Some(r) = first_ref(hotfix_hot::RefKind::Resource) {
        let quoted = doc
            .scalar(r.node)
            .is_some_and(|s| s.style != hotfix_yaml::ScalarStyle::Plain);
        let name = if quoted {
            "\"hotfix_missing\""
        } else {
            "hotfix_missing"
        };
        out.push(Mutant {
            kind: "get_resource unknown",
            expected: &["H302"],
            text: replace(doc.node(r.node).span, name),
        });
    }
    if let Some(r) = first_ref(hotfix_hot::RefKind::Attribute) {
        let quoted = doc
            .scalar(r.node)
            .is_some_and(|s| s.style != hotfix_yaml::ScalarStyle::Plain);
        let name = if quoted {
            "\"hotfix_missing\""
        } else {
            "hotfix_missing"
        };
        out.push(Mutant {
            kind: "get_attr unknown",
            expected: &["H302"],
            text: replace(doc.node(r.node).span, name),
        });
    }
    if let Some((name, first)) = resources.first() {
        if doc.get(*first, "depends_on").is_none() {
            if let Some(t) = insert_entry(doc, text, *first, "depends_on: hotfix_missing") {
                out.push(Mutant {
                    kind: "depends_on unknown",
                    expected: &["H302"],
                    text: t,
                });
            }
            if let Some(t) = insert_entry(doc, text, *first, &format!("depends_on: {name}")) {
                out.push(Mutant {
                    kind: "dependency cycle (self)",
                    expected: &["H304"],
                    text: t,
                });
            }
        }
        if let Some(t) = insert_entry(doc, text, *first, "propertes: {}") {
            out.push(Mutant {
                kind: "unknown resource key",
                expected: &["H603"],
                text: t,
            });
        }
        if version >= hotfix_hot::Version::V2016_10_14
            && doc.get(*first, "condition").is_none()
            && let Some(t) = insert_entry(doc, text, *first, "condition: hotfix_missing")
        {
            out.push(Mutant {
                kind: "unknown condition",
                expected: &["H305"],
                text: t,
            });
        }
        if let Some(params) = section("parameters")
            && doc.get(params, name).is_none()
            && let Some(t) = insert_entry(doc, text, params, &format!("{name}: {{type: string}}"))
        {
            out.push(Mutant {
                kind: "parameter/resource clash",
                expected: &["H307"],
                text: t,
            });
        }
    }
    if resources.len() >= 2 {
        let (a, a_node) = &resources[0];
        let (b, b_node) = &resources[1];
        if doc.get(*a_node, "depends_on").is_none() && doc.get(*b_node, "depends_on").is_none() {
            let once = insert_entry(doc, text, *a_node, &format!("depends_on: {b}"));
            // Insert into the later resource first so the earlier span stays valid.
            if let Some(t) = insert_entry(doc, text, *b_node, &format!("depends_on: {a}"))
                .and_then(|t| hotfix_yaml::parse(&t).ok().map(|d| (t, d)))
                .and_then(|(t, d)| {
                    let r = d.get(d.get(d.root(), "resources")?, a)?;
                    insert_entry(&d, &t, r, &format!("depends_on: {b}"))
                })
            {
                let _ = once;
                out.push(Mutant {
                    kind: "dependency cycle (two)",
                    expected: &["H304"],
                    text: t,
                });
            }
        }
    }
    if let Some(resources_node) = section("resources")
        && let Some(t) = insert_entry(doc, text, resources_node, "hotfix_bad: 42")
    {
        out.push(Mutant {
            kind: "resource not a mapping",
            expected: &["H601"],
            text: t,
        });
    }
    if doc.get(root, "hotfix_section").is_none() {
        out.push(Mutant {
            kind: "unknown section",
            expected: &["H104"],
            text: append("hotfix_section: {}"),
        });
    }
    if version >= hotfix_hot::Version::V2014_10_16
        && let Some(call) = semantic
            .calls_to(hotfix_hot::Function::GetParam)
            .find(|c| c.field != "definition")
    {
        out.push(Mutant {
            kind: "removed function",
            expected: &["H201"],
            text: replace(doc.node(call.key).span, "Fn::Join"),
        });
    }
    if let Some(outputs) = section("outputs") {
        if let Some(t) = insert_entry(doc, text, outputs, "hotfix_output: {description: no value}")
        {
            out.push(Mutant {
                kind: "output without value",
                expected: &["H702"],
                text: t,
            });
        }
        if let Some(t) = insert_entry(doc, text, outputs, "hotfix_output: 5") {
            out.push(Mutant {
                kind: "output not a mapping",
                expected: &["H701"],
                text: t,
            });
        }
    }
    if let Some(params) = section("parameters") {
        for entry in doc.entries(params) {
            let Some(def) = Some(entry.value).filter(|&v| is_map(doc, v)) else {
                continue;
            };
            let (Some(ty), Some(default)) = (doc.get(def, "type"), doc.get(def, "default")) else {
                continue;
            };
            if doc.get(def, "constraints").is_some() {
                continue;
            }
            let constraint = match (doc.str_value(ty), doc.scalar(default).map(|s| &s.value)) {
                (Some("number"), Some(hotfix_yaml::ScalarValue::Int(n))) => {
                    format!("constraints: [{{range: {{min: {n}1}}}}]")
                }
                (Some("string"), Some(hotfix_yaml::ScalarValue::Str))
                    if !doc.str_value(default).unwrap_or_default().is_empty() =>
                {
                    "constraints: [{length: {max: 0}}]".to_owned()
                }
                _ => continue,
            };
            if let Some(t) = insert_entry(doc, text, def, &constraint) {
                out.push(Mutant {
                    kind: "default violates constraint",
                    expected: &["H406"],
                    text: t,
                });
                break;
            }
        }
        if let Some(first) = doc.entries(params).first().filter(|e| is_map(doc, e.value))
            && let Some(ty) = doc.get(first.value, "type")
        {
            out.push(Mutant {
                kind: "unknown parameter type",
                expected: &["H401"],
                text: replace(doc.node(ty).span, "integer"),
            });
        }
    }
    if doc.get(root, "parameter_groups").is_none() {
        out.push(Mutant {
            kind: "unknown grouped parameter",
            expected: &["H503"],
            text: append("parameter_groups:\n- label: hotfix\n  parameters: [hotfix_missing]"),
        });
    }
    if version >= hotfix_hot::Version::V2016_10_14 && doc.get(root, "conditions").is_none() {
        out.push(Mutant {
            kind: "invalid function in conditions",
            expected: &["H206"],
            text: append("conditions:\n  hotfix_c: {equals: [{get_resource: x}, a]}"),
        });
    }
    out
}

fn is_map(doc: &Document, id: NodeId) -> bool {
    matches!(doc.node(doc.resolve(id)).kind, NodeKind::Mapping { .. })
}
