//! What the tests that compare hotfix with Heat have in common: Heat's engine, and where the
//! shared folder is.
//!
//! These tests are `#[ignore]`d (a plain `cargo test` runs everything else) and named by what
//! they need, so that `scripts/test.sh` can tell them apart:
//!
//! - `heat_…`: Heat's engine and the repository's own files only (fixtures under `testdata/`,
//!   `scripts/heat_oracle.py`). They run wherever Python does: `scripts/test.sh` installs Heat
//!   (pinned by `scripts/heat-requirements.txt`) into `.venv-heat` first.
//! - `shared_…`: also the team's shared folder, `../shared` beside the repository (or
//!   `HOTFIX_SHARED`): the template corpus, the SARIF schema in `reference/`, the shared oracle
//!   scripts. Without it `scripts/test.sh` skips them and says which; with
//!   `HOTFIX_REQUIRE_SHARED=1` (as `.ci/run` sets) its absence is a failure.
//!
//! The prefix starts the test function's name; an ignored test named otherwise fails
//! `scripts/test.sh`, and so does a `heat_` test whose name contains `shared_` (the script skips
//! by that text). Neither kind skips itself when what it needs is missing: it fails, saying
//! what to install or where to put the folder.

#![allow(dead_code, reason = "each test file uses part of this module")]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use hotfix_hot::Template;
use hotfix_yaml::{Document, NodeId, NodeKind, Style};
use serde_json::{Value, json};

pub(crate) fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shared folder (`HOTFIX_SHARED`, or `../shared` beside the repository), which must hold
/// the corpus and the Heat oracle: a `shared_` test fails loudly without it.
pub(crate) fn shared() -> PathBuf {
    let path = std::env::var_os("HOTFIX_SHARED")
        .map_or_else(|| workspace().join("../shared"), PathBuf::from);
    assert!(
        path.join("corpus").is_dir() && path.join("oracles/heat/resolve.py").is_file(),
        "this test needs the corpus and the Heat oracle in {} (set HOTFIX_SHARED)",
        path.display()
    );
    path
}

/// The Python that has Heat: `HOTFIX_PYTHON`, or `.venv-heat` in the repository.
pub(crate) use hotfix_testkit::python;

/// The YAML and JSON files under `dir` (not in hidden folders, not Jinja2 sources), in `out`.
pub(crate) fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') {
                files(&path, out);
            }
        } else if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            && !name.contains(".j2")
        {
            out.push(path);
        }
    }
}

/// Heat's engine behind a JSON-lines session, started once, answering one line per request.
pub(crate) struct Heat {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    script: PathBuf,
}

impl Heat {
    /// The repository's own driver, `scripts/heat_oracle.py` (`resolve`, `validate`, `diff`).
    pub(crate) fn start() -> Heat {
        Heat::serve(&workspace().join("scripts/heat_oracle.py"))
    }

    /// The shared oracle, `../shared/oracles/heat/resolve.py`, which answers more (strict
    /// validation, real plugins without a cloud): for `shared_` tests only. Served by
    /// `scripts/shared_oracle.py`, which builds Heat's request context once instead of once
    /// per request.
    pub(crate) fn start_shared() -> Heat {
        Heat::spawn(
            &workspace().join("scripts/shared_oracle.py"),
            shared().join("oracles/heat/resolve.py").as_os_str(),
        )
    }

    /// `../shared/oracles/heat/stack.py`, asked many times in one process
    /// (`scripts/stack_batch.py`): a request is the argument list of one run, the answer what
    /// that run prints. A process that ran `--no-cloud` answers only `--no-cloud` requests.
    pub(crate) fn start_stack() -> Heat {
        Heat::spawn(
            &workspace().join("scripts/stack_batch.py"),
            shared().join("oracles/heat/stack.py").as_os_str(),
        )
    }

    /// The repository's own driver on an older release's Heat, built by
    /// `scripts/setup-heat-release.sh SERIES` (in `target/heat-releases/SERIES`, or
    /// `HOTFIX_HEAT_RELEASES`); `scripts/test.sh` builds those the tests name.
    pub(crate) fn start_release(series: &str) -> Heat {
        let root = std::env::var_os("HOTFIX_HEAT_RELEASES")
            .map_or_else(|| workspace().join("target/heat-releases"), PathBuf::from);
        let venv = root.join(series);
        assert!(
            venv.join(".hotfix-stamp").exists(),
            "this test needs the Heat of {series} in {} (run scripts/setup-heat-release.sh \
             {series})",
            venv.display()
        );
        Heat::spawn_with(
            &venv.join("bin/python"),
            &workspace().join("scripts/heat_oracle.py"),
            std::ffi::OsStr::new("serve"),
        )
    }

    fn serve(script: &Path) -> Heat {
        Heat::spawn(script, std::ffi::OsStr::new("serve"))
    }

    fn spawn(script: &Path, argument: &std::ffi::OsStr) -> Heat {
        Heat::spawn_with(&python(), script, argument)
    }

    fn spawn_with(python: &Path, script: &Path, argument: &std::ffi::OsStr) -> Heat {
        let mut child = Command::new(python)
            .arg(script)
            .arg(argument)
            // The scripts re-run themselves with this seed (Heat's texts list names from sets).
            .env("PYTHONHASHSEED", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {}: {err}", script.display()));
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Heat {
            child,
            stdin,
            stdout,
            script: script.to_path_buf(),
        }
    }

    /// One request, one answer.
    pub(crate) fn request(&mut self, request: &Value) -> Value {
        let ended = |script: &Path| {
            format!(
                "{} ended (its error is above; is Heat installed? run scripts/setup-oracle.sh)",
                script.display()
            )
        };
        writeln!(self.stdin, "{request}")
            .and_then(|()| self.stdin.flush())
            .unwrap_or_else(|_| panic!("{}", ended(&self.script)));
        let mut line = String::new();
        let read = self.stdout.read_line(&mut line).expect("read from Heat");
        assert!(read > 0, "{}", ended(&self.script));
        serde_json::from_str(&line)
            .unwrap_or_else(|err| panic!("not a JSON answer ({err}): {line}"))
    }
}

impl Drop for Heat {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Values for the parameters that have no default, generated from their type.
pub(crate) fn params(source: &str) -> Value {
    let mut out = serde_json::Map::new();
    let Ok(doc) = hotfix_yaml::parse(source) else {
        return Value::Object(out);
    };
    let template = Template::new(&doc);
    for p in &template.parameters {
        if doc.get(p.value, "default").is_some() {
            continue;
        }
        let ty = doc
            .get(p.value, "type")
            .and_then(|t| doc.str_value(t))
            .unwrap_or("string");
        let value = match ty {
            "number" => json!(1),
            "json" => json!({"key": "value"}),
            "comma_delimited_list" => json!("a,b,c"),
            "boolean" => json!(true),
            _ => json!("value"),
        };
        out.insert(p.name.clone(), value);
    }
    Value::Object(out)
}

/// Inserts `entry` (`key: value`) into a mapping, in the mapping's own style: a new line at
/// the indentation of its keys (block), or after `{` (flow). `None` for an empty block map.
pub(crate) fn insert_entry(doc: &Document, text: &str, map: NodeId, entry: &str) -> Option<String> {
    let map = doc.resolve(map);
    let NodeKind::Mapping { entries, style } = &doc.node(map).kind else {
        return None;
    };
    let mut out = text.to_owned();
    match style {
        Style::Flow => {
            let open = doc.node(map).span.start + 1;
            let sep = if entries.is_empty() { "" } else { ", " };
            out.insert_str(open, &format!("{entry}{sep}"));
        }
        Style::Block => {
            let first = doc.node(entries.first()?.key).span.start;
            let line_start = text[..first].rfind('\n').map_or(0, |i| i + 1);
            let indent = &text[line_start..first];
            if !indent.chars().all(|c| c == ' ') {
                return None;
            }
            out.insert_str(line_start, &format!("{indent}{entry}\n"));
        }
    }
    Some(out)
}

/// The release of the first `heat-release = "NAME"` in the source (quotes may be escaped).
pub(crate) fn heat_release_named_in(source: &str) -> Option<hotfix_hot::heat_release::HeatRelease> {
    let (_, after) = source.split_once("heat-release = ")?;
    let name: String = after
        .trim_start_matches(['"', '\\'])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
        .collect();
    Some(hotfix_hot::heat_release::HeatRelease::parse(&name).unwrap_or_else(|err| panic!("{err}")))
}
