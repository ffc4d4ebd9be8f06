//! What the tests that use `../shared` have in common: where it is, and Heat's engine.

#![allow(dead_code, reason = "each test file uses part of this module")]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use hotfix_hot::Template;
use serde_json::{Value, json};

pub(crate) fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shared folder (`HOTFIX_SHARED`, or `../shared` beside the repository), which must hold
/// the corpus and the Heat oracle: a test that needs it fails loudly without it.
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

/// Heat's engine (`resolve.py serve`), started once, answering one JSON line per request.
pub(crate) struct Heat {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Heat {
    pub(crate) fn start() -> Heat {
        let python = std::env::var_os("HOTFIX_PYTHON")
            .map_or_else(|| workspace().join(".venv-heat/bin/python"), PathBuf::from);
        assert!(
            python.exists(),
            "this test needs Heat's Python environment at {} (run scripts/setup-oracle.sh)",
            python.display()
        );
        let mut child = Command::new(python)
            .arg(shared().join("oracles/heat/resolve.py"))
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start resolve.py serve");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Heat {
            child,
            stdin,
            stdout,
        }
    }

    /// One request, one answer.
    pub(crate) fn request(&mut self, request: &Value) -> Value {
        writeln!(self.stdin, "{request}").expect("write to Heat");
        self.stdin.flush().expect("flush");
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("read from Heat");
        serde_json::from_str(&line).expect("a JSON answer")
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
