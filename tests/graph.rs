//! `hotfix graph`: a small tree of templates and environments drawn as DOT and as JSON, and
//! how it fails on paths and files it cannot read.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hotfix_testkit::{Hotfix, hotfix_binary};

mod common;

/// The fixture tree's folder: the tests run there, so that paths in the output are short and
/// the same on every machine.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/graph")
}

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!())
    .without_stdin()
    .in_folder(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/cli/graph"));

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
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
fn graph_draws_a_tree_as_dot() {
    let output = HOTFIX.run(&["graph", "stack"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let dot = stdout(&output);
    check_dot(&dot);
    snapshot("graph_stack_dot", &dot);
}

#[test]
fn graph_draws_a_tree_as_json_whose_edges_join_its_nodes() {
    let output = HOTFIX.run(&["graph", "stack", "--format", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let nodes = json["nodes"].as_array().expect("nodes");
    let ids: BTreeSet<&str> = nodes
        .iter()
        .map(|n| n["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids.len(), nodes.len(), "node ids are unique");
    for edge in json["edges"].as_array().expect("edges") {
        for end in ["from", "to"] {
            let id = edge[end].as_str().expect("an end");
            assert!(ids.contains(id), "{end} {id} is a node");
        }
        let span = edge["span"].as_str().expect("span");
        assert!(is_line_col(span), "{span}");
    }
    snapshot("graph_stack_json", &text);
}

#[test]
fn graph_with_environments_merges_them_in_order_and_the_last_mapping_wins() {
    let nested = |envs: &[&str]| -> Vec<String> {
        let mut args = vec!["graph", "stack/top.yaml", "--format", "json"];
        for env in envs {
            args.extend(["-e", env]);
        }
        let output = HOTFIX.run(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
        json["edges"]
            .as_array()
            .expect("edges")
            .iter()
            .filter(|e| e["kind"] == "nested_by_registry")
            .map(|e| {
                format!(
                    "{} -> {} by {}:{}",
                    e["from"].as_str().unwrap_or_default(),
                    e["to"].as_str().unwrap_or_default(),
                    e["environment"]["path"].as_str().unwrap_or_default(),
                    e["environment"]["span"].as_str().unwrap_or_default(),
                )
            })
            .collect()
    };
    assert_eq!(
        nested(&["stack/env/prod.yaml", "stack/env/dev.yaml"]),
        [
            "stack/top.yaml#server -> stack/server-dev.yaml by stack/env/dev.yaml:2:15",
            "stack/top.yaml#volumes -> stack/volume.yaml by stack/env/prod.yaml:4:15",
        ]
    );
    assert_eq!(
        nested(&["stack/env/dev.yaml", "stack/env/prod.yaml"]),
        [
            "stack/top.yaml#server -> stack/server.yaml by stack/env/prod.yaml:3:15",
            "stack/top.yaml#volumes -> stack/volume.yaml by stack/env/prod.yaml:4:15",
        ]
    );
    assert_eq!(nested(&[]), Vec::<String>::new(), "no environment applies");
}

#[test]
fn graph_output_is_the_same_every_time_and_can_go_to_a_file() {
    let first = stdout(&HOTFIX.run(&["graph", "stack", "--format", "json"]));
    let second = stdout(&HOTFIX.run(&["graph", "./stack/", "--format", "json"]));
    assert_eq!(first, second);
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("stack.dot");
    let output = HOTFIX.run(&["graph", "stack", "-o", file.to_str().expect("UTF-8 path")]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).is_empty());
    let written = std::fs::read_to_string(&file).expect("written");
    assert_eq!(written, stdout(&HOTFIX.run(&["graph", "stack"])));
}

#[test]
fn graph_fails_with_exit_2_on_what_it_cannot_read() {
    let output = HOTFIX.run(&["graph", "nowhere"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "hotfix: error: nowhere: no such file or folder\n"
    );
    assert!(stdout(&output).is_empty());

    let output = HOTFIX.run(&["graph", "stack", "-e", "stack/env/none.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "hotfix: error: stack/env/none.yaml: no such file\n"
    );

    // A template Heat cannot load: said where, in Heat's words (its position, line 4 column 1,
    // and its message), and drawn as such.
    let output = HOTFIX.run(&["graph", "broken", "--format", "json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "hotfix: error: broken/bad.yaml:4:1: invalid YAML: while parsing a flow mapping: \
         expected ',' or '}', but got '<stream end>'\n"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(json["nodes"][0]["kind"], "unloadable");

    let output = HOTFIX.run(&["graph", "stack/notes.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "hotfix: error: stack/notes.yaml: neither a template (no heat_template_version) nor an \
         environment file\n"
    );

    let output = HOTFIX.run(&["graph", "stack", "-o", "stack/top.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "hotfix: error: --output stack/top.yaml is one of the files hotfix reads; write it \
         elsewhere\n"
    );
    assert!(
        std::fs::read_to_string(fixtures().join("stack/top.yaml"))
            .expect("still there")
            .starts_with("# The top template")
    );

    let output = HOTFIX.run(&["graph", "stack", "-e", "stack/top.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "hotfix: error: stack/top.yaml: not an environment file\n"
    );
}

#[test]
fn graph_help_explains_nodes_edges_and_environments() {
    let output = HOTFIX.run(&["graph", "--help"]);
    assert!(output.status.success());
    let help = stdout(&output);
    for needle in [
        "nested_by_registry",
        "depends_on",
        "get_file",
        "--environment <ENV>",
        "--format <FORMAT>",
        "dot -Tsvg",
        "Exit codes",
    ] {
        assert!(help.contains(needle), "{needle} in:\n{help}");
    }
}

fn is_line_col(text: &str) -> bool {
    text.split_once(':').is_some_and(|(line, col)| {
        line.parse::<usize>().is_ok_and(|l| l > 0) && col.parse::<usize>().is_ok_and(|c| c > 0)
    })
}

/// Checks DOT text: with Graphviz installed, `dot` must draw it; in any case, each line must be
/// a statement of the DOT grammar hotfix writes (quoted IDs closed, attribute lists closed,
/// braces balanced).
fn check_dot(dot: &str) {
    if let Ok(mut child) = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
    {
        use std::io::Write as _;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(dot.as_bytes())
            .expect("write to dot");
        let output = child.wait_with_output().expect("dot");
        assert!(
            output.status.success() && output.stderr.is_empty(),
            "dot: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let mut depth = 0usize;
    for line in dot.lines() {
        let tokens = dot_tokens(line).unwrap_or_else(|| panic!("unclosed string: {line}"));
        match tokens.as_slice() {
            [first, second, brace] if brace == "{" => {
                assert!(
                    (first == "digraph" && depth == 0)
                        || (first == "subgraph" && second.starts_with("cluster_")),
                    "{line}"
                );
                depth += 1;
            }
            [brace] if brace == "}" => depth = depth.checked_sub(1).expect("balanced braces"),
            [id, rest @ ..] => {
                let attributes = match rest {
                    [arrow, to, attributes @ ..] if arrow == "->" => {
                        assert!(to.starts_with('"'), "{line}");
                        attributes
                    }
                    attributes => attributes,
                };
                let quoted_or_keyword = id.starts_with('"')
                    || id.starts_with("label=")
                    || ["graph", "node", "edge"].contains(&id.as_str());
                assert!(quoted_or_keyword, "{line}");
                let joined = attributes.concat();
                assert!(joined.ends_with(';'), "{line}");
            }
            [] => panic!("empty line in DOT output"),
        }
    }
    assert_eq!(depth, 0, "balanced braces");
}

/// The tokens of a line of DOT: quoted strings (with `\"` and `\\` inside) whole, `[…]` lists
/// whole, other runs of characters split at spaces. `None` when a string is not closed.
fn dot_tokens(line: &str) -> Option<Vec<String>> {
    let mut tokens = Vec::new();
    let mut chars = line.chars().peekable();
    let mut current = String::new();
    let mut bracket = 0;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                current.push(c);
                loop {
                    let next = chars.next()?;
                    current.push(next);
                    match next {
                        '\\' => current.push(chars.next()?),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '[' => {
                bracket += 1;
                current.push(c);
            }
            ']' => {
                bracket -= 1;
                current.push(c);
            }
            ' ' if bracket == 0 => {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            }
            _ => current.push(c),
        }
    }
    if bracket != 0 {
        return None;
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    Some(tokens)
}

#[test]
#[ignore = "needs Heat (.venv-heat) and ../shared/oracles/heat/stack.py"]
fn shared_graph_maps_a_type_to_the_template_heat_uses_when_environments_are_merged() {
    // `b.yaml` holds a resource of a type Heat does not have (`a.yaml` has the same interface
    // and none): Heat accepts the stack iff `t` is mapped to `a.yaml`, and when it refuses it
    // names the file (`resources.t<file:///…/b.yaml>: …`).
    let python = hotfix_testkit::python();
    let stack = common::shared().join("oracles/heat/stack.py");
    // `parent.yaml` nests `top.yaml`: a per-resource entry for `t` does not reach it, unless
    // `top.yaml` is named as the top template (with the folder, which holds `parent.yaml`, also
    // drawn: `true`).
    let stacks: [(&str, &[&str], bool); 7] = [
        ("top.yaml", &["top-a.yaml", "top-b.yaml"], false),
        ("top.yaml", &["top-b.yaml", "top-a.yaml"], false),
        ("top.yaml", &["own-a.yaml", "top-b.yaml"], false),
        ("top.yaml", &["top-b.yaml", "own-a.yaml"], false),
        ("top.yaml", &["top-b.yaml"], false),
        ("parent.yaml", &["top-b.yaml", "own-a.yaml"], false),
        ("top.yaml", &["top-b.yaml", "own-a.yaml"], true),
    ];
    for (template, environments, with_folder) in stacks {
        let given = format!("merge/{template}");
        let mut args = vec!["graph", given.as_str(), "--format", "json"];
        if with_folder {
            args.push("merge");
        }
        let paths: Vec<String> = environments.iter().map(|e| format!("merge/{e}")).collect();
        for path in &paths {
            args.extend(["-e", path.as_str()]);
        }
        let output = HOTFIX.run(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
        let mapped: Vec<&str> = json["edges"]
            .as_array()
            .expect("edges")
            .iter()
            .filter(|e| e["kind"] == "nested_by_registry" && e["from"] == "merge/top.yaml#t")
            .filter_map(|e| e["to"].as_str())
            .collect();
        let mut heat = Command::new(&python);
        heat.current_dir(fixtures().join("merge"))
            .arg(&stack)
            .arg(template)
            .args(["--strict", "--no-cloud"]);
        for environment in environments {
            heat.args(["-e", environment]);
        }
        let verdict: serde_json::Value =
            serde_json::from_slice(&heat.output().expect("run stack.py").stdout).expect("JSON");
        let accepted = verdict["valid"] == true;
        let names_b = verdict["error"]
            .as_str()
            .is_some_and(|e| e.contains("/merge/b.yaml>"));
        assert_eq!(accepted, !names_b, "{verdict}");
        assert_eq!(
            mapped == ["merge/a.yaml"],
            accepted,
            "{template} {environments:?}: hotfix maps t to {mapped:?}; Heat: {verdict}"
        );
        assert_eq!(mapped.len(), 1, "{environments:?}");
    }
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_graph_of_the_corpus_marks_missing_exactly_what_lint_reports() {
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .args(args)
            .current_dir(common::corpus())
            .output()
            .expect("run hotfix");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let json: serde_json::Value =
        serde_json::from_str(&run(&["graph", ".", "--format", "json", "--no-config"]))
            .expect("JSON");
    let count = |list: &str| -> std::collections::BTreeMap<String, usize> {
        let mut counts = std::collections::BTreeMap::new();
        for item in json[list].as_array().expect("a list") {
            *counts
                .entry(item["kind"].as_str().expect("kind").to_owned())
                .or_default() += 1;
        }
        counts
    };
    let pinned = |pairs: &[(&str, usize)]| -> std::collections::BTreeMap<String, usize> {
        pairs.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect()
    };
    // 241 environments: tripleo-heat-templates-2015's `storage-environment.yaml` holds only
    // `parameters` and is one by its name.
    assert_eq!(
        count("nodes"),
        pinned(&[
            ("environment", 241),
            ("file", 43),
            ("generated", 39),
            ("missing", 26),
            ("outside", 85),
            ("resource", 2454),
            ("template", 641),
            ("url", 1),
        ])
    );
    // Without -e the environments closest to each template decide: the 237 registry-mapped
    // edges that went from tripleo-heat-templates-2015's templates to the newer tree's files
    // (its environments map the same type names) are gone; each tree's own are all kept.
    assert_eq!(
        count("edges"),
        pinned(&[
            ("depends_on", 184),
            ("get_file", 163),
            ("implicit", 1731),
            ("nested", 388),
            ("nested_by_registry", 341),
            ("registry", 811),
        ])
    );
    // The links to missing files are the ones lint reports, at the same places.
    let mut missing: Vec<String> = json["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .filter(|e| e["resolution"] == "missing")
        .map(|e| {
            format!(
                "{}:{}:",
                e["path"].as_str().unwrap_or_default(),
                e["span"].as_str().unwrap_or_default()
            )
        })
        .collect();
    missing.sort();
    let lint = run(&[
        "lint",
        ".",
        "--select",
        "X001,X002,E007",
        "--no-config",
        "--format",
        "concise",
        "--exit-zero",
        "--quiet",
    ]);
    let mut reported: Vec<String> = lint
        .lines()
        .filter_map(|line| line.split(' ').next().map(str::to_owned))
        .collect();
    reported.sort();
    assert_eq!(missing.len(), 32);
    assert_eq!(missing, reported);
}

#[test]
fn graph_files_only_draws_files_and_the_links_between_them() {
    let output = HOTFIX.run(&["graph", "stack", "--files-only", "--format", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let nodes = json["nodes"].as_array().expect("nodes");
    assert!(nodes.iter().all(|n| n["kind"] != "resource"), "{nodes:?}");
    let ids: BTreeSet<&str> = nodes.iter().filter_map(|n| n["id"].as_str()).collect();
    let mut pairs = BTreeSet::new();
    for edge in json["edges"].as_array().expect("edges") {
        let (from, to) = (edge["from"].as_str().unwrap(), edge["to"].as_str().unwrap());
        assert!(ids.contains(from) && ids.contains(to), "{edge}");
        assert_ne!(from, to, "{edge}");
        assert!(
            pairs.insert((
                from,
                to,
                edge["kind"].to_string(),
                edge["environment"].to_string()
            )),
            "one edge of a kind between two files: {edge}"
        );
    }
    // A resource's nested template is linked from its template.
    assert!(
        pairs
            .iter()
            .any(|(f, t, _, _)| *f == "stack/top.yaml" && *t == "stack/nested/member.template"),
        "{pairs:?}"
    );
    let dot = stdout(&HOTFIX.run(&["graph", "stack", "--files-only"]));
    check_dot(&dot);
    assert!(!dot.contains('#'), "no resource ids:\n{dot}");
}

#[test]
fn graph_depth_keeps_the_files_within_that_many_links_of_the_roots() {
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["graph", "stack", "--format", "json"];
        all.extend_from_slice(args);
        let output = HOTFIX.run(&all);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str(&stdout(&output)).expect("JSON")
    };
    let files = |graph: &serde_json::Value| -> BTreeSet<String> {
        graph["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .filter(|n| n["kind"] != "resource")
            .map(|n| n["id"].as_str().expect("id").to_owned())
            .collect()
    };
    let roots = json(&["--depth", "0"]);
    assert_eq!(
        files(&roots),
        [
            "stack/env/dev.yaml",
            "stack/env/prod.yaml",
            "stack/top.yaml"
        ]
        .map(String::from)
        .into()
    );
    // The roots keep their resources, and the edges between them.
    let nodes = roots["nodes"].as_array().expect("nodes");
    assert!(nodes.iter().any(|n| n["kind"] == "resource"), "{nodes:?}");
    let one = json(&["--depth", "1"]);
    assert!(files(&one).contains("stack/nested/member.template"));
    assert!(files(&one).contains("stack/server.yaml"));
    assert!(!files(&one).contains("scripts/boot.sh"), "two links away");
    let all = json(&[]);
    assert_eq!(files(&json(&["--depth", "99"])), files(&all));
    assert!(files(&all).contains("scripts/boot.sh"));
    for graph in [&roots, &one] {
        let ids: BTreeSet<&str> = graph["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n["id"].as_str())
            .collect();
        for edge in graph["edges"].as_array().expect("edges") {
            assert!(ids.contains(edge["from"].as_str().unwrap()), "{edge}");
            assert!(ids.contains(edge["to"].as_str().unwrap()), "{edge}");
        }
    }
}
