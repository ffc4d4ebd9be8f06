//! The blueprint rules against Cloudify's own parser (`dsl_parser` of cloudify-common 7.0.5,
//! through `../shared/oracles/cloudify/cfy_check.py` and `scripts/cfy_oracle.py`, which stubs
//! the imports that cannot be fetched offline).
//!
//! Every blueprint of the corpus that Cloudify accepts once its imports are stubbed (parse and
//! deployment plan) is mutated the ways Cloudify rejects: an unknown input, an unknown node
//! template, `SELF`/`SOURCE`/`TARGET` where they name nothing, a path function given one
//! argument, `concat`/`merge` under an older DSL version, a runtime function inside `get_input`.
//! Each mutant must be rejected by Cloudify with the expected message, and hotfix must report a
//! new error with the expected code. Counts per kind are printed.

mod blueprints;
mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hotfix_blueprint::{Blueprint, Call, ImportKind, Scope};
use hotfix_diagnostics::Severity;
use hotfix_linter::{Settings, lint};
use hotfix_yaml::NodeId;
use serde_json::{Value, json};

/// One way to break a blueprint.
struct Mutant {
    kind: &'static str,
    path: PathBuf,
    text: String,
    /// What hotfix must report.
    code: &'static str,
    /// A piece of Cloudify's message.
    error: &'static str,
    /// `parse`, or `plan` (what only preparing the deployment finds).
    cmd: &'static str,
}

#[test]
#[ignore = "needs ../shared and .venv-cfy (scripts/setup-cfy-oracle.sh)"]
#[allow(
    clippy::too_many_lines,
    reason = "one pass: accept, mutate, confirm, count"
)]
fn shared_blueprint_mutants_cloudify_rejects_are_reported_with_the_expected_code() {
    let corpus = common::shared().join("corpus/cloudify-blueprint-examples");
    let python = common::workspace().join(".venv-cfy/bin/python");
    assert!(
        python.exists(),
        "this test needs Cloudify's parser in {} (run scripts/setup-cfy-oracle.sh)",
        python.display()
    );
    let mut paths = Vec::new();
    common::files(&corpus, &mut paths);
    paths.sort();
    let mut blueprints = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(doc) = hotfix_yaml::parse(&text) else {
            continue;
        };
        if Blueprint::new(&doc).is_some() {
            blueprints.push((path, text));
        }
    }
    assert!(
        blueprints.len() > 100,
        "the corpus has {} blueprints",
        blueprints.len()
    );

    let mut oracle = Oracle::start(&python);
    let accepted: Vec<&(PathBuf, String)> = blueprints
        .iter()
        .filter(|(path, text)| oracle.ask("plan", path, text)["valid"] == json!(true))
        .collect();
    let mut mutants = Vec::new();
    for (path, text) in &accepted {
        mutants.extend(mutate(path, text));
    }

    // kind -> [mutants, rejected by Cloudify as expected, reported by hotfix, hotfix abstains]
    let mut tally: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut versioned = 0;
    for mutant in &mut mutants {
        if mutant.kind == "version-gated" {
            // Older versions lack keys the blueprint uses (`display_label` came in 1_3): drop
            // what Cloudify names, as a blueprint written for that version would not have it.
            versioned += 1;
            if versioned > 20 {
                continue;
            }
            for _ in 0..15 {
                let answer = oracle.ask(mutant.cmd, &mutant.path, &mutant.text);
                let error = answer["error"].as_str().unwrap_or_default();
                let Some(stripped) = strip_unsupported(&mutant.text, error) else {
                    break;
                };
                mutant.text = stripped;
            }
        }
        let answer = oracle.ask(mutant.cmd, &mutant.path, &mutant.text);
        let counts = tally.entry(mutant.kind).or_default();
        counts[0] += 1;
        let error = answer["error"].as_str().unwrap_or_default();
        if answer["valid"] == json!(true) || !error.contains(mutant.error) {
            // Rejected for another reason first (or not at all): not a case for this kind.
            continue;
        }
        counts[1] += 1;
        let original = std::fs::read_to_string(&mutant.path).expect("read");
        let before = errors(&mutant.path, &original, mutant.code);
        let after = errors(&mutant.path, &mutant.text, mutant.code);
        if after > before {
            counts[2] += 1;
        } else if matches!(mutant.code, "C001" | "C002") && !names_known(&mutant.text) {
            // An import hotfix cannot read (a URL, an uploaded blueprint) may declare the name:
            // hotfix says nothing by design; the stub dropped that import.
            counts[3] += 1;
        } else {
            failures.push(format!(
                "{} ({}): Cloudify: {error}; hotfix reports no new {}",
                mutant.path.display(),
                mutant.kind,
                mutant.code
            ));
        }
    }
    println!(
        "blueprints: {}, accepted by Cloudify with stubbed imports: {}",
        blueprints.len(),
        accepted.len()
    );
    println!(
        "kind: mutants, rejected by Cloudify with the expected message, new hotfix error, hotfix \
         abstains (an import it cannot read may declare the name)"
    );
    for (kind, [made, rejected, reported, abstains]) in &tally {
        println!("  {kind}: {made}, {rejected}, {reported}, {abstains}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for kind in [
        "unknown-input",
        "unknown-node",
        "keyword-misuse",
        "bad-arity",
        "version-gated",
        "nested-runtime",
        "unknown-section",
    ] {
        let rejected = tally.get(kind).map_or(0, |c| c[1]);
        assert!(
            rejected > 0,
            "no mutant of kind {kind} was rejected by Cloudify"
        );
    }
}

/// What Cloudify says of each blueprint rule's fixtures: the `invalid` ones of an error rule are
/// rejected with the rule's message (by the parser, or when the deployment plan is prepared),
/// the `valid` ones of every rule are accepted by the parser (and by the plan where the rule is
/// about the plan).
#[test]
#[ignore = "needs ../shared and .venv-cfy (scripts/setup-cfy-oracle.sh)"]
fn shared_blueprint_rule_fixtures_agree_with_cloudify() {
    // code -> (command, a piece of Cloudify's message for the invalid fixtures; none: Cloudify
    // accepts them, the rule is a warning about something else)
    let rules: [(&str, &str, Option<&str>); 11] = [
        ("C001", "parse", Some("unknown input")),
        ("C002", "parse", Some("does not exist")),
        ("C003", "parse", Some("can only be used")),
        (
            "C004",
            "parse",
            Some("Illegal arguments passed to get_attribute"),
        ),
        ("C005", "parse", Some("requires using dsl version")),
        ("C006", "plan", Some("found an unresolved argument")),
        ("C007", "plan", None),
        ("C008", "plan", Some("doesn't exist")),
        (
            "C009",
            "parse",
            Some("get_sys function unable to determine"),
        ),
        (
            "C010",
            "parse",
            Some("Unable to evaluate get_property function: Node template property"),
        ),
        ("C013", "parse", Some("is not in schema")),
    ];
    let python = common::workspace().join(".venv-cfy/bin/python");
    let mut oracle = Oracle::start(&python);
    let mut failures = Vec::new();
    let mut checked = 0;
    for (code, cmd, message) in rules {
        let dir = common::workspace().join("testdata/rules").join(code);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("fixtures")
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for file in files {
            let name = file
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&file).expect("read");
            // A URL import is stubbed away: the fixture that shows hotfix keeping quiet about it
            // is not a question for the stub.
            // So is a type derived from an imported one (`valid_imported_type`).
            // So is a data type (the stub drops `data_types`): `valid_nested_data_type` was
            // checked with cfy_check.py itself, which accepts it and gives `port` its default.
            if text.contains("https://") || name.contains("imported") || name.contains("data_type")
            {
                continue;
            }
            checked += 1;
            if name.starts_with("invalid") {
                let answer = oracle.ask(cmd, &file, &text);
                let error = answer["error"].as_str().unwrap_or_default();
                let agrees = match message {
                    Some(piece) => answer["valid"] == json!(false) && error.contains(piece),
                    None => answer["valid"] == json!(true),
                };
                if !agrees {
                    failures.push(format!("{code}/{name}: Cloudify ({cmd}): {answer}"));
                }
            } else {
                // The plan of a valid fixture may fail on the dummy values given to inputs
                // without a default; the parser must accept every one.
                let answer = oracle.ask("parse", &file, &text);
                if answer["valid"] != json!(true) {
                    failures.push(format!("{code}/{name}: Cloudify (parse): {answer}"));
                }
                if matches!(code, "C006" | "C008") && !name.contains("no_default") {
                    let answer = oracle.ask("plan", &file, &text);
                    let error = answer["error"].as_str().unwrap_or_default();
                    if message.is_some_and(|piece| error.contains(piece)) {
                        failures.push(format!("{code}/{name}: Cloudify (plan): {answer}"));
                    }
                }
            }
        }
    }
    println!("blueprint rule fixtures checked against Cloudify: {checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `hotfix_blueprint::SECTIONS` is the list of the top-level keys Cloudify's parser takes
/// (`Blueprint.schema` of `dsl_parser.elements.blueprint`, in its order), read from the parser
/// in .venv-cfy: the list `unknown-blueprint-section` (C013) checks against.
#[test]
#[ignore = "needs .venv-cfy (scripts/setup-cfy-oracle.sh)"]
fn shared_blueprint_sections_are_the_parser_s() {
    let python = common::workspace().join(".venv-cfy/bin/python");
    let out = Command::new(&python)
        .args([
            "-c",
            "import json; from dsl_parser.elements.blueprint import Blueprint; \
             print(json.dumps(list(Blueprint.schema)))",
        ])
        .output()
        .expect("run .venv-cfy's python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let parser: Vec<String> = serde_json::from_slice(&out.stdout).expect("a JSON list");
    assert_eq!(parser, hotfix_blueprint::SECTIONS);
}

/// Whether all of a blueprint's imports are Cloudify's types, plugins or local files.
fn names_known(text: &str) -> bool {
    let doc = hotfix_yaml::parse(text).expect("a mutant parses");
    let blueprint = Blueprint::new(&doc).expect("a blueprint");
    blueprint.imports.iter().all(|i| {
        matches!(
            i.kind,
            ImportKind::CloudifyTypes | ImportKind::Plugin | ImportKind::Local
        )
    })
}

/// The text without the entry Cloudify's `X not supported in version …` names by its path
/// (`inputs.name.display_label`), when it is a block mapping entry on lines of its own.
fn strip_unsupported(text: &str, error: &str) -> Option<String> {
    if !error.contains("not supported in version") {
        return None;
    }
    let path = error.split("path: ").nth(1)?.lines().next()?.trim();
    let doc = hotfix_yaml::parse(text).ok()?;
    let mut node = doc.root();
    let mut key = None;
    for part in path.split('.') {
        if let (Some(items), Ok(index)) = (doc.items(node), part.parse::<usize>()) {
            node = *items.get(index)?;
            key = None;
        } else {
            key = Some(doc.get_key(node, part)?);
            node = doc.get(node, part)?;
        }
    }
    let key = key?;
    let start = text[..doc.node(key).span.start]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    if !text[start..doc.node(key).span.start].trim().is_empty() {
        return None;
    }
    let end = doc.node(node).span.end;
    let end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    Some(format!("{}{}", &text[..start], &text[end..]))
}

/// The number of errors with `code` hotfix reports for a blueprint's text (local imports read
/// as `hotfix lint` reads them).
fn errors(path: &Path, text: &str, code: &str) -> usize {
    let settings = Settings {
        blueprint_imports: blueprints::blueprint_imports(path, text),
        ..Settings::default()
    };
    lint(&path.display().to_string(), text.as_bytes(), &settings)
        .iter()
        .filter(|d| d.code == code && d.severity == Severity::Error)
        .count()
}

/// The mutants of one blueprint: at most one of each kind.
#[allow(clippy::too_many_lines, reason = "one block per kind of mutant")]
fn mutate(path: &Path, text: &str) -> Vec<Mutant> {
    let doc = hotfix_yaml::parse(text).expect("parsed before");
    let bp = Blueprint::new(&doc).expect("a blueprint");
    let mut out = Vec::new();
    let replace = |node: NodeId, with: &str| {
        let span = doc.node(node).span;
        format!("{}{with}{}", &text[..span.start], &text[span.end..])
    };
    let mut mutant = |kind, text, code, error, cmd| {
        out.push(Mutant {
            kind,
            path: path.to_path_buf(),
            text,
            code,
            error,
            cmd,
        });
    };
    let checked = |c: &&Call| c.scope != Scope::InputDefault;
    let flow = |id: NodeId| doc.text(id).starts_with(['[', '{']);
    // A path call ([node, name, …]) none of whose arguments is a function, in flow style.
    let path_call = |c: &&Call, names: &[&str]| {
        names.contains(&c.function.name)
            && flow(c.args)
            && doc.items(c.args).is_some_and(|items| {
                items.len() >= 2
                    && items
                        .iter()
                        .all(|&i| doc.scalar(i).is_some() && doc.text(i).chars().all(plain))
            })
    };

    if let Some(call) = bp
        .calls
        .iter()
        .filter(checked)
        .find(|c| c.function.name == "get_input" && doc.str_value(c.args).is_some())
    {
        mutant(
            "unknown-input",
            replace(call.args, "nonexistent_input_zz"),
            "C001",
            "unknown input 'nonexistent_input_zz'",
            "parse",
        );
    }
    let named = |c: &&Call| {
        doc.items(c.args)
            .and_then(|items| doc.str_value(items[0]))
            .is_some_and(|n| !["SELF", "SOURCE", "TARGET"].contains(&n))
    };
    let attr = ["get_attribute", "get_property"];
    if let Some(call) = bp
        .calls
        .iter()
        .filter(checked)
        .find(|c| path_call(c, &attr) && named(c))
    {
        let first = doc.items(call.args).expect("a list")[0];
        mutant(
            "unknown-node",
            replace(first, "nonexistent_node_zz"),
            "C002",
            "nonexistent_node_zz",
            "parse",
        );
    }
    // SELF, SOURCE or TARGET where the call's scope does not allow it.
    if let Some((call, keyword, error)) = bp.calls.iter().filter(checked).find_map(|c| {
        if !path_call(&c, &attr) {
            return None;
        }
        let getattr = c.function.name == "get_attribute";
        let (keyword, error) = match (c.scope, getattr) {
            (Scope::Outputs | Scope::Relationship { .. }, true) => {
                ("SELF", "SELF cannot be used with get_attribute")
            }
            (Scope::Outputs | Scope::NodeTemplate { .. }, false) => {
                ("TARGET", "TARGET can only be used within a relationship")
            }
            (Scope::NodeTemplate { .. }, true) => {
                ("SOURCE", "SOURCE cannot be used with get_attribute")
            }
            (Scope::Relationship { .. }, false) => (
                "SELF",
                "SELF can only be used in a context of node template",
            ),
            _ => return None,
        };
        Some((c, keyword, error))
    }) {
        let first = doc.items(call.args).expect("a list")[0];
        mutant(
            "keyword-misuse",
            replace(first, keyword),
            "C003",
            error,
            "parse",
        );
    }
    if let Some(call) = bp
        .calls
        .iter()
        .filter(checked)
        .find(|c| path_call(c, &attr))
    {
        let first = doc.items(call.args).expect("a list")[0];
        mutant(
            "bad-arity",
            replace(call.args, &format!("[{}]", doc.text(first))),
            "C004",
            "Illegal arguments passed to get_",
            "parse",
        );
    }
    let version = bp.version_node;
    if let Some(call) = bp
        .calls
        .iter()
        .filter(checked)
        .find(|c| c.function.name == "merge")
    {
        let _ = call;
        mutant(
            "version-gated",
            replace(version, "cloudify_dsl_1_2"),
            "C005",
            "Using merge requires using dsl version 1_3",
            "parse",
        );
    } else if bp
        .calls
        .iter()
        .filter(checked)
        .any(|c| c.function.name == "concat")
    {
        mutant(
            "version-gated",
            replace(version, "cloudify_dsl_1_0"),
            "C005",
            "Using concat requires using dsl version 1_1",
            "parse",
        );
    }
    if let Some(call) = bp.calls.iter().filter(checked).find(|c| {
        c.function.name == "get_input"
            && matches!(
                c.scope,
                Scope::NodeTemplate { .. } | Scope::Relationship { .. } | Scope::Outputs
            )
            && doc.str_value(c.args).is_some_and(|n| n.chars().all(plain))
    }) {
        let name = doc.str_value(call.args).expect("a string");
        mutant(
            "nested-runtime",
            replace(call.args, &format!("[{name}, {{get_secret: nested_zz}}]")),
            "C006",
            "found an unresolved argument",
            "plan",
        );
    }
    // A section misspelt: `node_templates` as `node_template`.
    if let Some(key) = doc.get_key(doc.root(), "node_templates") {
        mutant(
            "unknown-section",
            replace(key, "node_template"),
            "C013",
            "'node_template' is not in schema",
            "parse",
        );
    }
    out
}

/// A character a plain flow scalar may hold without quotes.
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// `scripts/cfy_oracle.py serve`-like: one JSON line per request.
struct Oracle {
    child: std::process::Child,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Oracle {
    fn start(python: &Path) -> Oracle {
        let mut child = Command::new(python)
            .arg(common::workspace().join("scripts/cfy_oracle.py"))
            .env("HOTFIX_SHARED", common::shared())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start scripts/cfy_oracle.py");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Oracle { child, stdout }
    }

    fn ask(&mut self, cmd: &str, path: &Path, text: &str) -> Value {
        let request = json!({"cmd": cmd, "blueprint": text, "path": path});
        let stdin = self.child.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{request}").expect("write a request");
        stdin.flush().expect("flush");
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("read an answer");
        serde_json::from_str(&line).unwrap_or_else(|err| panic!("{err}: {line}"))
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// C012 against Cloudify's run-time resolution of `get_attribute` (`scripts/cfy_oracle.py
/// runtime`: the deployment plan's node instances, each `get_attribute` of an operation, a
/// relationship's operation, an output or a capability evaluated with `dsl_parser`'s own
/// `evaluate_functions` in the context Cloudify's operation endpoint gives). On the rule's
/// fixtures hotfix reports exactly the calls Cloudify cannot resolve; on the corpus every call
/// hotfix reports is one Cloudify cannot resolve (hotfix abstains where the count is not a
/// literal, where groups or the relationship's connection type decide).
#[test]
#[ignore = "needs ../shared and .venv-cfy (scripts/setup-cfy-oracle.sh)"]
fn shared_ambiguous_node_instances_are_those_cloudify_cannot_resolve_at_run_time() {
    let python = common::workspace().join(".venv-cfy/bin/python");
    let mut oracle = Oracle::start(&python);
    let mut failures = Vec::new();
    let mut abstains = Vec::new();

    let (fixtures, fixture_calls) = fixtures_as_cloudify(&mut oracle, &mut failures);
    assert!(fixture_calls > 0, "the invalid fixtures report nothing");

    let corpus = common::shared().join("corpus/cloudify-blueprint-examples");
    let mut paths = Vec::new();
    common::files(&corpus, &mut paths);
    paths.sort();
    let (mut planned, mut mutants, mut reported, mut confirmed, mut unresolved, mut found) =
        (0, 0, 0, 0, 0, 0);
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if !hotfix_yaml::parse(&text).is_ok_and(|doc| Blueprint::new(&doc).is_some()) {
            continue;
        }
        let ours = reported_ambiguous(&path, &text);
        let answer = oracle.ask("runtime", &path, &text);
        let Some(mut cloudify) = ambiguous(&answer) else {
            if !ours.is_empty() {
                println!(
                    "not confirmed (the stubbed blueprint does not plan): {} {ours:?}",
                    path.display()
                );
            }
            continue;
        };
        planned += 1;
        let mut tally = [0; 4];
        confirm(
            &path,
            ours,
            &mut cloudify,
            &mut tally,
            &mut failures,
            &mut abstains,
        );
        // The corpus writes no instance count above one: make each node a get_attribute names
        // a node of two instances, one at a time.
        for mutant in two_instances(&text) {
            let ours = reported_ambiguous(&path, &mutant);
            let answer = oracle.ask("runtime", &path, &mutant);
            let Some(mut cloudify) = ambiguous(&answer) else {
                continue;
            };
            mutants += 1;
            confirm(
                &path,
                ours,
                &mut cloudify,
                &mut tally,
                &mut failures,
                &mut abstains,
            );
        }
        unresolved += tally[0];
        reported += tally[1];
        confirmed += tally[2];
        found += tally[3];
    }
    println!(
        "C012: fixtures {fixtures} ({fixture_calls} calls, all as Cloudify); corpus blueprints planned \
         with stubbed imports: {planned}, and {mutants} mutants of them with a named node of two \
         instances: calls Cloudify cannot resolve: {unresolved}, reported by hotfix: \
         {reported}, of them confirmed: {confirmed}; of Cloudify's calls (each operation, \
         output or capability once) hotfix finds {found}"
    );
    for call in &abstains {
        println!(
            "hotfix abstains (a relationship to the node, a group, a count not written): {call}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(confirmed > 0, "no corpus mutant confirms a finding");
}

/// Compares the C012 findings on each fixture with the calls Cloudify cannot resolve; returns
/// the number of fixtures and of findings.
fn fixtures_as_cloudify(oracle: &mut Oracle, failures: &mut Vec<String>) -> (usize, usize) {
    let dir = common::workspace().join("testdata/rules/C012");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .collect();
    fixtures.sort();
    let (mut compared, mut fixture_calls) = (0, 0);
    for file in &fixtures {
        // Folders hold what fixtures import; the stub drops an imported file's groups, so the
        // fixture whose import scales its node (`valid_imported_groups`) is not a question for it.
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        if file.is_dir() || name.contains("imported") {
            continue;
        }
        compared += 1;
        let text = std::fs::read_to_string(file).expect("read");
        let answer = oracle.ask("runtime", file, &text);
        let Some(mut cloudify) = ambiguous(&answer) else {
            failures.push(format!("{}: Cloudify: {answer}", file.display()));
            continue;
        };
        cloudify.sort();
        cloudify.dedup();
        let mut ours: Vec<[String; 3]> = reported_ambiguous(file, &text)
            .into_iter()
            .map(|mut candidates| candidates.remove(0))
            .collect();
        fixture_calls += ours.len();
        ours.sort();
        ours.dedup();
        if ours != cloudify {
            failures.push(format!(
                "{}: Cloudify cannot resolve {cloudify:?}, hotfix reports {ours:?}",
                file.display()
            ));
        }
    }
    (compared, fixture_calls)
}

/// Checks that each of hotfix's findings is a call Cloudify cannot resolve; counts Cloudify's
/// calls, hotfix's findings, the confirmed ones and Cloudify's calls hotfix finds; notes those it
/// does not.
fn confirm(
    path: &Path,
    ours: Vec<Vec<[String; 3]>>,
    cloudify: &mut Vec<[String; 3]>,
    tally: &mut [usize; 4],
    failures: &mut Vec<String>,
    abstains: &mut Vec<String>,
) {
    cloudify.sort();
    cloudify.dedup();
    tally[0] += cloudify.len();
    tally[1] += ours.len();
    for call in cloudify.iter() {
        if ours.iter().any(|candidates| candidates.contains(call)) {
            tally[3] += 1;
        } else {
            abstains.push(format!("{} {call:?}", path.display()));
        }
    }
    for candidates in ours {
        if candidates.iter().any(|c| cloudify.contains(c)) {
            tally[2] += 1;
        } else {
            failures.push(format!(
                "{}: hotfix reports {candidates:?}, which Cloudify resolves",
                path.display()
            ));
        }
    }
}

/// For each node template a `get_attribute` names (in flow or block style), the blueprint with
/// that node deployed twice: its `default_instances` (or `instances.deploy`) replaced by 2, or,
/// when it has neither, `capabilities` (`instances` before `cloudify_dsl_1_3`) added after its `type`.
fn two_instances(text: &str) -> Vec<String> {
    let doc = hotfix_yaml::parse(text).expect("parsed before");
    let bp = Blueprint::new(&doc).expect("a blueprint");
    let mut named: Vec<&str> = bp
        .calls
        .iter()
        .filter(|c| c.function.name == "get_attribute")
        .filter_map(|c| doc.items(c.args).and_then(|i| doc.str_value(i[0])))
        .collect();
    named.sort_unstable();
    named.dedup();
    let old = bp.version.is_some_and(|v| v < (1, 3));
    let mut out = Vec::new();
    for name in named {
        let Some(node) = bp.node_template(name).map(|i| &bp.node_templates[i]) else {
            continue;
        };
        let def = node.definition;
        let count = doc
            .get(def, "capabilities")
            .and_then(|c| doc.get(c, "scalable"))
            .and_then(|s| doc.get(s, "properties"))
            .and_then(|p| doc.get(p, "default_instances"))
            .or_else(|| doc.get(def, "instances").and_then(|i| doc.get(i, "deploy")));
        if let Some(count) = count {
            let span = doc.node(count).span;
            out.push(format!("{}2{}", &text[..span.start], &text[span.end..]));
            continue;
        }
        if doc.get(def, "capabilities").is_some() || doc.get(def, "instances").is_some() {
            continue;
        }
        let Some(key) = doc.get_key(def, "type") else {
            continue;
        };
        let start = doc.node(key).span.start;
        let line = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let indent = &text[line..start];
        if !indent.chars().all(|c| c == ' ') {
            continue;
        }
        let end = doc.node(doc.get(def, "type").expect("a type")).span.end;
        let Some(eol) = text[end..].find('\n').map(|i| end + i + 1) else {
            continue;
        };
        let added = if old {
            format!("{indent}instances: {{deploy: 2}}\n")
        } else {
            format!(
                "{indent}capabilities: {{scalable: {{properties: {{default_instances: 2}}}}}}\n"
            )
        };
        out.push(format!("{}{added}{}", &text[..eol], &text[eol..]));
    }
    out
}

/// `[where, owner, node]` of each call Cloudify cannot resolve, from a `runtime` answer.
fn ambiguous(answer: &Value) -> Option<Vec<[String; 3]>> {
    if answer["valid"] != json!(true) {
        return None;
    }
    let list = answer["ambiguous"].as_array()?;
    Some(
        list.iter()
            .map(|entry| {
                let part = |i: usize| entry[i].as_str().unwrap_or_default().to_owned();
                [part(0), part(1), part(2)]
            })
            .collect(),
    )
}

/// For each C012 finding hotfix reports, `[where, owner, node]` in the oracle's terms: one for
/// each call at the finding's place (several when an alias repeats a call elsewhere).
fn reported_ambiguous(path: &Path, text: &str) -> Vec<Vec<[String; 3]>> {
    let settings = Settings {
        blueprint_imports: blueprints::blueprint_imports(path, text),
        ..Settings::default()
    };
    let findings = lint(&path.display().to_string(), text.as_bytes(), &settings);
    let doc = hotfix_yaml::parse(text).expect("a blueprint parses");
    let bp = Blueprint::new(&doc).expect("a blueprint");
    // The entries of a section whose value holds the call (through aliases too).
    let entries_holding = |section: &str, call: NodeId| -> Vec<String> {
        let items = doc.get(doc.root(), section).expect("the section");
        doc.entries(items)
            .into_iter()
            .filter(|e| holds(&doc, e.value, call))
            .filter_map(|e| doc.str_value(e.key).map(str::to_owned))
            .collect()
    };
    findings
        .iter()
        .filter(|d| d.code == "C012")
        .map(|d| {
            let candidates: Vec<[String; 3]> = bp
                .calls
                .iter()
                .filter(|c| {
                    doc.items(c.args)
                        .is_some_and(|i| doc.node(i[0]).span == d.span)
                })
                .flat_map(|call| {
                    let first = doc.items(call.args).expect("a list")[0];
                    let node = doc.str_value(first).expect("a name").to_owned();
                    let (place, owners) = match call.scope {
                        Scope::NodeTemplate { node } => {
                            ("operation", vec![bp.node_templates[node].name.clone()])
                        }
                        Scope::Relationship { node, .. } => {
                            ("relationship", vec![bp.node_templates[node].name.clone()])
                        }
                        Scope::Outputs => ("output", entries_holding("outputs", call.node)),
                        Scope::Capabilities => {
                            ("capability", entries_holding("capabilities", call.node))
                        }
                        _ => ("", Vec::new()),
                    };
                    owners
                        .into_iter()
                        .map(move |owner| [place.to_owned(), owner, node.clone()])
                })
                .collect();
            assert!(
                !candidates.is_empty(),
                "a C012 finding on a call's node name"
            );
            candidates
        })
        .collect()
}

/// Whether a value holds a node, aliases followed.
fn holds(doc: &hotfix_yaml::Document, value: NodeId, target: NodeId) -> bool {
    let mut pending = vec![value];
    let mut seen = 0;
    while let Some(id) = pending.pop() {
        seen += 1;
        if seen > 100_000 {
            return false;
        }
        let id = doc.resolve(id);
        if id == target {
            return true;
        }
        if let Some(items) = doc.items(id) {
            pending.extend(items.iter().copied());
        } else if doc.raw_entries(id).is_some() {
            pending.extend(doc.entries(id).into_iter().map(|e| e.value));
        }
    }
    false
}
