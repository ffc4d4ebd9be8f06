//! `hotfix server` end to end: the real binary, spoken to over its standard streams with the
//! Language Server Protocol's framing, as an editor does.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Messages read while waiting for another one.
    held: Vec<Value>,
}

impl Client {
    fn start(cwd: &Path) -> Client {
        Client::start_with(cwd, &[])
    }

    /// `hotfix server` with these options.
    fn start_with(cwd: &Path, options: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .arg("server")
            .args(options)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("hotfix server starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                reader.read_exact(&mut body).expect("a whole message");
                let value: Value = serde_json::from_slice(&body).expect("JSON");
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
            held: Vec::new(),
        }
    }

    fn send(&mut self, message: &Value) {
        let body = serde_json::to_string(message).expect("JSON");
        self.send_raw(&body);
    }

    /// A message body as given, which need not be valid JSON-RPC.
    fn send_raw(&mut self, body: &str) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The answer to a request, error or not.
    fn answer(&mut self, id: i64) -> Value {
        self.wait_for(|m| m["id"] == json!(id) && m.get("method").is_none())
    }

    /// The next `window/logMessage`'s text.
    fn log(&mut self) -> String {
        let message = self.wait_for(|m| m["method"] == "window/logMessage");
        message["params"]["message"]
            .as_str()
            .expect("a message")
            .to_owned()
    }

    fn notify(&mut self, method: &str, params: &Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: &Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.wait_for(|m| m["id"] == json!(id) && m.get("method").is_none());
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The first message (held or new) that `wanted` accepts.
    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.held.iter().position(&wanted) {
            return self.held.remove(i);
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self
                .messages
                .recv_timeout(left)
                .expect("the server answers in time");
            if wanted(&message) {
                return message;
            }
            self.held.push(message);
        }
    }

    /// Opens the document `uri` with `text`, at version 1.
    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
        );
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let message = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        message["params"]["diagnostics"]
            .as_array()
            .expect("a list")
            .clone()
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Applies a list of LSP text edits (UTF-16 positions; the fixtures are ASCII) to `text`.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |position: &Value| {
        let line = usize::try_from(position["line"].as_u64().expect("line")).expect("small");
        let character =
            usize::try_from(position["character"].as_u64().expect("character")).expect("small");
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + character
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().expect("text").to_owned(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (start, end, new) in edits {
        out.replace_range(start..end, &new);
    }
    out
}

const TEMPLATE: &str = "\
heat_template_version: 2016-10-14
parameters:
  flavor:
    type: string
    default: m1.small
resources:
  server:
    type: OS::Nova::Server
    properties:
      flavor: {get_param: flavr}
      image: cirros
  volume:
    type: OS::Cinder::Volume
    propertes: {size: 1}
outputs:
  id:
    value: {get_resource: server}
";

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one session, step by step, as an editor drives it"
)]
fn an_editor_session_from_initialize_to_exit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("stack.yaml");
    std::fs::write(&path, TEMPLATE).expect("write");
    let uri = uri(&path);
    let mut client = Client::start(dir.path());

    let init = client.request(
        "initialize",
        &json!({"processId": null, "rootUri": null, "capabilities": {
            "general": {"positionEncodings": ["utf-16"]}}}),
    );
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 2);
    client.notify("initialized", &json!({}));

    // Opened: the findings, each with its code and a link to its page.
    client.open(&uri, TEMPLATE);
    let diagnostics = client.diagnostics(&uri);
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().expect("code"))
        .collect();
    assert!(codes.contains(&"H301"), "{diagnostics:?}");
    assert!(codes.contains(&"H603"), "{diagnostics:?}");
    let h301 = diagnostics
        .iter()
        .find(|d| d["code"] == "H301")
        .expect("H301");
    assert_eq!(h301["range"]["start"], json!({"line": 9, "character": 26}));
    assert!(
        h301["codeDescription"]["href"]
            .as_str()
            .expect("href")
            .ends_with("rules/H301-undefined-parameter.md")
    );

    // A code action: the Unsafe rename of `propertes`, labelled so, then applied.
    let h603 = diagnostics
        .iter()
        .find(|d| d["code"] == "H603")
        .expect("H603")
        .clone();
    let actions = client.request(
        "textDocument/codeAction",
        &json!({"textDocument": {"uri": uri}, "range": h603["range"],
               "context": {"diagnostics": [h603]}}),
    );
    let actions = actions.as_array().expect("actions");
    let fix = actions
        .iter()
        .find(|a| a["title"].as_str().is_some_and(|t| t.contains("propertes")))
        .expect("a fix for H603");
    assert!(
        fix["title"]
            .as_str()
            .expect("title")
            .starts_with("Unsafe fix:")
    );
    assert_eq!(fix["isPreferred"], false);
    assert!(
        actions
            .iter()
            .any(|a| a["title"] == "Suppress H603 on this line"),
        "{actions:?}"
    );
    let edits = fix["edit"]["changes"][&uri]
        .as_array()
        .expect("edits")
        .clone();
    let fixed = apply(TEMPLATE, &edits);
    assert!(fixed.contains("    properties: {size: 1}\n"), "{fixed}");

    // Edited into a valid template (incremental changes): the findings are cleared.
    let start = TEMPLATE
        .lines()
        .position(|l| l.contains("flavr"))
        .expect("line");
    client.notify(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": start, "character": 26},
                       "end": {"line": start, "character": 31}}, "text": "flavor"},
            {"range": {"start": {"line": 13, "character": 4},
                       "end": {"line": 13, "character": 13}}, "text": "properties"}]}),
    );
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(diagnostics, Vec::<Value>::new());
    let text = TEMPLATE
        .replace("get_param: flavr", "get_param: flavor")
        .replace("propertes", "properties");

    // Go to definition: from `get_resource: server` to the resource.
    let line = text
        .lines()
        .position(|l| l.contains("get_resource"))
        .expect("line");
    let definition = client.request(
        "textDocument/definition",
        &json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 29}}),
    );
    assert_eq!(
        definition["range"]["start"],
        json!({"line": 6, "character": 2})
    );

    // Rename the parameter: its key and the `get_param`.
    let renamed = client.request(
        "textDocument/rename",
        &json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 4},
               "newName": "size"}),
    );
    let edits = renamed["changes"][&uri].as_array().expect("edits").clone();
    assert_eq!(edits.len(), 2, "{edits:?}");
    let after = apply(&text, &edits);
    assert!(
        after.contains("\n  size:\n") && after.contains("{get_param: size}"),
        "{after}"
    );

    // Hover on the parameter's use, and on the resource type.
    let hover = client.request(
        "textDocument/hover",
        &json!({"textDocument": {"uri": uri}, "position": {"line": start, "character": 30}}),
    );
    let shown = hover["contents"]["value"].as_str().expect("markdown");
    assert!(
        shown.contains("type: string") && shown.contains("m1.small"),
        "{shown}"
    );
    let hover = client.request(
        "textDocument/hover",
        &json!({"textDocument": {"uri": uri}, "position": {"line": 7, "character": 14}}),
    );
    let shown = hover["contents"]["value"].as_str().expect("markdown");
    assert!(
        shown.contains("OS::Nova::Server") && shown.contains("`flavor`"),
        "{shown}"
    );

    // Completion: parameter names after `get_param: `.
    client.notify(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": start, "character": 26},
                       "end": {"line": start, "character": 32}}, "text": ""}]}),
    );
    let completion = client.request(
        "textDocument/completion",
        &json!({"textDocument": {"uri": uri}, "position": {"line": start, "character": 26}}),
    );
    let labels: Vec<&str> = completion
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["label"].as_str().expect("label"))
        .collect();
    assert_eq!(labels, ["flavor"]);

    // The outline.
    let symbols = client.request(
        "textDocument/documentSymbol",
        &json!({"textDocument": {"uri": uri}}),
    );
    let sections: Vec<&str> = symbols
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| s["name"].as_str().expect("name"))
        .collect();
    assert_eq!(sections, ["parameters", "resources", "outputs"]);

    // Shut down and exit: the process ends, with success.
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(status) = client.child.try_wait().expect("wait") {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_half_typed_or_broken_document_never_stops_the_server() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.yaml");
    let uri = uri(&path);
    let mut client = Client::start(dir.path());
    client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {
        "general": {"positionEncodings": ["utf-8", "utf-16"]}}}),
    );
    client.notify("initialized", &json!({}));
    let broken = "heat_template_version: 2016-10-14\nresources:\n  a: {type: [\n";
    client.open(&uri, broken);
    // The YAML error, at once.
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    // Requests on it answer (nothing) instead of failing.
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
    ] {
        client.request(
            method,
            &json!({"textDocument": {"uri": uri}, "position": {"line": 9, "character": 99}}),
        );
    }
    // A change range past the end, and text that is not YAML at all.
    client.notify(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 40, "character": 0},
                       "end": {"line": 50, "character": 3}}, "text": "\u{0}\u{1}:\t]]"}]}),
    );
    client.diagnostics(&uri);
    // Completion and hover right after characters of several bytes (the fuzzer's find).
    let text = "heat_template_version: 2016-10-14\nparameters:\n  p: {type: string}\n\
                resources:\n  a:\n    type: OS::Heat::None\n    properties:\n      x: é{get_param: \n\
                # hotfix: ignore[é]\n";
    client.notify(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": uri, "version": 3},
                "contentChanges": [{"text": text}]}),
    );
    for (line, character) in [(7, 9), (7, 30), (8, 19), (8, 20)] {
        for method in ["textDocument/completion", "textDocument/hover"] {
            client.request(
                method,
                &json!({"textDocument": {"uri": uri},
                        "position": {"line": line, "character": character}}),
            );
        }
    }
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    let status = client.child.wait().expect("wait");
    assert!(status.success());
}

#[test]
fn a_malformed_message_is_answered_or_dropped_and_the_session_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let uri = uri(&dir.path().join("t.yaml"));
    let mut client = Client::start(dir.path());
    // `initialize` with parameters that are not its own gets an error, and may be sent again.
    client.send(&json!({"jsonrpc": "2.0", "id": 100, "method": "initialize",
                        "params": {"capabilities": 7}}));
    let answer = client.answer(100);
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {}}),
    );
    client.notify("initialized", &json!({}));
    // A notification with wrong parameters is dropped, with a log message.
    client.notify("textDocument/didOpen", &json!({}));
    assert!(client.log().contains("textDocument/didOpen was dropped"));
    client.open(&uri, TEMPLATE);
    assert!(!client.diagnostics(&uri).is_empty());
    client.notify(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": -1, "character": 0},
                       "end": {"line": 0, "character": -5}}, "text": "x"}]}),
    );
    assert!(client.log().contains("textDocument/didChange was dropped"));
    // A request with wrong parameters gets an error (InvalidParams).
    client.send(
        &json!({"jsonrpc": "2.0", "id": 101, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}}}),
    );
    assert_eq!(client.answer(101)["error"]["code"], -32602);
    // A lone surrogate is not JSON text: a notification is dropped, a request answered.
    client.send_raw(
        r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x.yaml","languageId":"yaml","version":1,"text":"\ud800"}}}"#,
    );
    assert!(client.log().contains("not valid JSON-RPC"));
    client.send_raw(
        r#"{"jsonrpc":"2.0","id":102,"method":"textDocument/hover","params":{"x":"\udc00"}}"#,
    );
    assert!(client.answer(102).get("error").is_some());
    // Through all that the document stayed as it was, and the server answers.
    let symbols = client.request(
        "textDocument/documentSymbol",
        &json!({"textDocument": {"uri": uri}}),
    );
    assert!(
        symbols.as_array().is_some_and(|s| !s.is_empty()),
        "{symbols}"
    );
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    assert!(client.child.wait().expect("wait").success());
}

#[test]
fn a_message_larger_than_the_bound_is_read_past_and_dropped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut client = Client::start(dir.path());
    client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {}}),
    );
    client.notify("initialized", &json!({}));
    let length = 20 << 20;
    write!(client.stdin, "Content-Length: {length}\r\n\r\n").expect("write");
    let junk = vec![b'x'; 1 << 20];
    for _ in 0..20 {
        client.stdin.write_all(&junk).expect("write");
    }
    assert!(
        client
            .log()
            .contains(&format!("a message of {length} bytes was dropped"))
    );
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    assert!(client.child.wait().expect("wait").success());
}

/// A header that announces more than any message may hold: the server neither allocates it nor
/// waits for it once the client is gone, within 2 GB of address space; broken framing ends the
/// session and says why.
#[cfg(unix)]
#[test]
fn a_client_that_lies_about_lengths_cannot_exhaust_the_server() {
    for (header, broken) in [
        ("Content-Length: 3000000000\r\n\r\n", false),
        ("Content-Length: 1000000000000\r\n\r\n", false),
        ("Content-Length: 18446744073709551615\r\n\r\n", false),
        ("Content-Length: 99999999999999999999999999\r\n\r\n", false),
        ("Content-Length: -1\r\n\r\n", true),
        ("Content-Type: x\r\n\r\n{}", true),
        ("no header at all", true),
    ] {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 2097152 && exec \"$0\" server")
            .arg(env!("CARGO_BIN_EXE_hotfix"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("hotfix server starts");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(header.as_bytes()).expect("write");
        drop(stdin);
        let deadline = Instant::now() + WAIT;
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{header:?}: the server did not end");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut stderr)
            .expect("read");
        // The client left before `initialize`: a failed session (2), never a crash.
        assert_eq!(status.code(), Some(2), "{header:?}: {stderr}");
        assert_eq!(
            stderr.contains("broken framing"),
            broken,
            "{header:?}: {stderr}"
        );
    }
}

#[test]
fn a_changed_configuration_applies_and_a_template_can_be_upgraded() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("hotfix.toml"), "ignore = [\"H301\"]\n").expect("write");
    let path = dir.path().join("old.yaml");
    let text = "heat_template_version: 2013-05-23\nresources:\n  a:\n    type: OS::Heat::None\n    \
                properties:\n      x: {get_param: nowhere}\n      y: {\"Fn::Join\": [\"-\", [a, b]]}\n";
    let uri = uri(&path);
    let mut client = Client::start(dir.path());
    let init = client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {"workspace": {
            "didChangeWatchedFiles": {"dynamicRegistration": true}}}}),
    );
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    client.notify("initialized", &json!({}));
    // The server asks to hear of changes to hotfix.toml.
    let registration = client.wait_for(|m| m["method"] == "client/registerCapability");
    assert_eq!(
        registration["params"]["registrations"][0]["registerOptions"]["watchers"][0]["globPattern"],
        "**/hotfix.toml"
    );
    client.send(&json!({"jsonrpc": "2.0", "id": registration["id"], "result": null}));
    client.open(&uri, text);
    let codes = |diagnostics: &[Value]| -> Vec<String> {
        diagnostics
            .iter()
            .map(|d| d["code"].as_str().expect("code").to_owned())
            .collect()
    };
    assert!(!codes(&client.diagnostics(&uri)).contains(&"H301".to_owned()));
    // The configuration changes: the open template is linted again with it.
    std::fs::write(dir.path().join("hotfix.toml"), "ignore = []\n").expect("write");
    client.notify(
        "workspace/didChangeWatchedFiles",
        &json!({"changes": [{"uri": format!("file://{}/hotfix.toml", dir.path().display()),
                             "type": 2}]}),
    );
    assert!(codes(&client.diagnostics(&uri)).contains(&"H301".to_owned()));
    // "Upgrade this template": the next version and the latest, as whole-text edits.
    let actions = client.request(
        "textDocument/codeAction",
        &json!({"textDocument": {"uri": uri},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "context": {"diagnostics": [], "only": ["source.upgrade.hotfix"]}}),
    );
    let titles: Vec<&str> = actions
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a["title"].as_str().expect("title"))
        .collect();
    assert_eq!(
        titles,
        [
            "Upgrade this template to 2014-10-16",
            "Upgrade this template to wallaby (2021-04-16)"
        ]
    );
    let latest = &actions[1]["edit"]["changes"][&uri][0]["newText"];
    let upgraded = latest.as_str().expect("text");
    assert!(
        upgraded.starts_with("heat_template_version: 2021-04-16\n"),
        "{upgraded}"
    );
    assert!(upgraded.contains("list_join"), "{upgraded}");
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    assert!(client.child.wait().expect("wait").success());
}

#[test]
fn the_servers_options_apply_over_the_configuration_as_lints_do() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("hotfix.toml"),
        "heat-release = \"queens\"\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("other.toml"), "ignore = [\"H618\"]\n").expect("write");
    let path = dir.path().join("stack.yaml");
    let text = "heat_template_version: 2016-10-14\nresources:\n  a:\n    type: OS::Heat::Delay\n    \
                properties:\n      min_wait: {get_param: nowhere}\n";
    let uri = uri(&path);
    let findings = |options: &[&str]| -> Vec<String> {
        let mut client = Client::start_with(dir.path(), options);
        client.request(
            "initialize",
            &json!({"processId": null, "capabilities": {}}),
        );
        client.notify("initialized", &json!({}));
        client.open(&uri, text);
        let mut codes: Vec<String> = client
            .diagnostics(&uri)
            .iter()
            .map(|d| d["code"].as_str().expect("code").to_owned())
            .collect();
        codes.sort();
        client.request("shutdown", &Value::Null);
        client.notify("exit", &Value::Null);
        assert!(client.child.wait().expect("wait").success());
        codes
    };
    // OS::Heat::Delay arrived in rocky: H618 under the configuration's queens.
    assert_eq!(findings(&[]), ["H301", "H618"]);
    assert_eq!(findings(&["--heat-release", "2026.2"]), ["H301"]);
    assert_eq!(findings(&["--ignore", "H301"]), ["H618"]);
    assert_eq!(findings(&["--select", "H618"]), ["H618"]);
    // other.toml instead: no release (the newest), H618 ignored anyway.
    assert_eq!(findings(&["--config", "other.toml"]), ["H301"]);
    // A selector that names no rule stops the start, with lint's message.
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(["server", "--ignore", "H999"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("H999"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn an_environment_file_gets_the_environment_rules() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("env.yaml");
    let text = "parameter_defaults:\n  flavor: m1.small\nresource_registy:\n  My::T: t.yaml\n";
    let uri = uri(&path);
    let mut client = Client::start(dir.path());
    client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {}}),
    );
    client.notify("initialized", &json!({}));
    client.open(&uri, text);
    let diagnostics = client.diagnostics(&uri);
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().expect("code"))
        .collect();
    assert_eq!(codes, ["E002"], "{diagnostics:?}");
    // Go to definition from a registry entry to its template.
    let fixed = "resource_registry:\n  My::T: nested/t.yaml\n";
    std::fs::create_dir(dir.path().join("nested")).expect("mkdir");
    std::fs::write(
        dir.path().join("nested/t.yaml"),
        "heat_template_version: 2016-10-14\n",
    )
    .expect("write");
    client.notify(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"text": fixed}]}),
    );
    let target = client.request(
        "textDocument/definition",
        &json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 12}}),
    );
    assert_eq!(
        target["uri"].as_str().expect("a location"),
        format!("file://{}/nested/t.yaml", dir.path().display())
    );
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    assert!(client.child.wait().expect("wait").success());
}

#[test]
fn a_finding_about_a_nested_template_points_into_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("nested")).expect("mkdir");
    let nested = dir.path().join("nested/server.yaml");
    std::fs::write(
        &nested,
        "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\n",
    )
    .expect("write");
    let parent = dir.path().join("app.yaml");
    let text = "heat_template_version: rocky\nresources:\n  server:\n    type: nested/server.yaml\n    properties: {flavour: m1.small}\n";
    let uri = uri(&parent);
    let mut client = Client::start(dir.path());
    client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {}}),
    );
    client.notify("initialized", &json!({}));
    client.open(&uri, text);
    let diagnostics = client.diagnostics(&uri);
    let x003: Vec<&Value> = diagnostics.iter().filter(|d| d["code"] == "X003").collect();
    assert_eq!(x003.len(), 1, "{diagnostics:?}");
    assert_eq!(
        x003[0]["relatedInformation"],
        json!([{
            "location": {
                "uri": format!("file://{}/nested/server.yaml", dir.path().display()),
                "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 10}},
            },
            "message": "parameters of `nested/server.yaml` declared here",
        }])
    );
    // The nested template open in the editor is read from its unsaved text.
    let nested_uri = format!("file://{}", nested.display());
    client.open(
        &nested_uri,
        "heat_template_version: rocky\nparameters:\n  flavour: {type: string}\n",
    );
    client.diagnostics(&nested_uri);
    client.notify(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"text": format!("{text}\n")}]}),
    );
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().all(|d| d["code"] != "X003"),
        "{diagnostics:?}"
    );
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    assert!(client.child.wait().expect("wait").success());
}

#[test]
fn registry_mapped_types_are_checked_with_the_trees_environments() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    std::fs::create_dir(dir.path().join("nested")).expect("mkdir");
    std::fs::write(
        dir.path().join("nested/server.yaml"),
        "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("nested/other.yaml"),
        "heat_template_version: rocky\nparameters:\n  flavour: {type: string}\n",
    )
    .expect("write");
    let env = dir.path().join("env.yaml");
    std::fs::write(
        &env,
        "resource_registry:\n  My::Server: nested/server.yaml\n",
    )
    .expect("write");
    let parent = dir.path().join("app.yaml");
    let text = "heat_template_version: rocky\nresources:\n  server:\n    type: My::Server\n    properties: {flavour: m1.small}\n";
    let env_uri = uri(&env);
    let uri = uri(&parent);
    let mut client = Client::start(dir.path());
    client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {}}),
    );
    client.notify("initialized", &json!({}));
    client.open(&uri, text);
    let diagnostics = client.diagnostics(&uri);
    let x003: Vec<&Value> = diagnostics.iter().filter(|d| d["code"] == "X003").collect();
    assert_eq!(x003.len(), 1, "{diagnostics:?}");
    // The environment named by its path (the editor's paths are absolute).
    let maps = format!("`My::Server` as `{}` maps it", env.display());
    assert!(
        x003[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains(&maps)),
        "{x003:?}"
    );
    // The environment maps the type elsewhere and is saved: the open template is linted again
    // with what it now says.
    let mapped = "resource_registry:\n  My::Server: nested/other.yaml\n";
    client.open(&env_uri, &std::fs::read_to_string(&env).expect("read"));
    client.diagnostics(&env_uri);
    client.edit_and_save(&env, mapped);
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().all(|d| d["code"] != "X003"),
        "{diagnostics:?}"
    );
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    assert!(client.child.wait().expect("wait").success());
}

/// A finding as both front ends give it: code, line and column (1-based, in characters) and
/// message (with its help, as the editor shows it).
type Finding = (String, u64, u64, String);

/// What `hotfix lint --format json PATHS…` (absolute, as the editor names files) reports, run
/// in `cwd`, by file.
fn lint_findings_by_file(
    cwd: &Path,
    paths: &[&Path],
) -> std::collections::BTreeMap<String, Vec<Finding>> {
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(["lint", "--format", "json"])
        .args(paths)
        .current_dir(cwd)
        .output()
        .expect("run hotfix lint");
    let findings: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!("{err}: {}", String::from_utf8_lossy(&output.stderr));
    });
    let mut by_file = std::collections::BTreeMap::<String, Vec<Finding>>::new();
    for f in findings.as_array().expect("a list") {
        let mut message = f["message"].as_str().unwrap_or_default().to_owned();
        if let Some(help) = f["help"].as_str() {
            message = format!("{message}\nhelp: {help}");
        }
        by_file
            .entry(f["path"].as_str().unwrap_or_default().to_owned())
            .or_default()
            .push((
                f["code"].as_str().unwrap_or_default().to_owned(),
                f["start"]["line"].as_u64().unwrap_or_default(),
                f["start"]["column"].as_u64().unwrap_or_default(),
                message,
            ));
    }
    for found in by_file.values_mut() {
        found.sort();
    }
    by_file
}

/// What `hotfix lint --format json FILE` (FILE absolute, as the editor names it) reports for
/// it, run in `cwd`.
fn lint_findings(cwd: &Path, file: &Path) -> Vec<Finding> {
    let mut by_file = lint_findings_by_file(cwd, &[file]);
    by_file
        .remove(file.to_str().expect("a UTF-8 path"))
        .unwrap_or_default()
}

/// The diagnostics of the editor for a document whose text is `text`, as [`lint_findings`]
/// gives `hotfix lint`'s (the editor's UTF-16 positions counted back in characters).
fn editor_findings(text: &str, diagnostics: &[Value]) -> Vec<Finding> {
    let mut found: Vec<Finding> = diagnostics
        .iter()
        .map(|d| {
            let start = &d["range"]["start"];
            let line = start["line"].as_u64().unwrap_or_default();
            let units = start["character"].as_u64().unwrap_or_default();
            let row = text
                .split('\n')
                .nth(usize::try_from(line).expect("small"))
                .unwrap_or_default();
            let mut counted = 0;
            let column = row
                .chars()
                .take_while(|c| {
                    counted += c.len_utf16() as u64;
                    counted <= units
                })
                .count() as u64;
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                line + 1,
                column + 1,
                d["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    found.sort();
    found
}

impl Client {
    /// The server started in `cwd` and initialized, with the client's `capabilities`.
    fn initialized(cwd: &Path, capabilities: &Value) -> Client {
        let mut client = Client::start(cwd);
        client.request(
            "initialize",
            &json!({"processId": null, "capabilities": capabilities}),
        );
        client.notify("initialized", &json!({}));
        client
    }

    /// The server started in `cwd`, initialized for a client that watches files, with the
    /// server's registration of its watchers answered; and that registration.
    fn watching(cwd: &Path) -> (Client, Value) {
        let mut client = Client::initialized(
            cwd,
            &json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}),
        );
        let registration = client.wait_for(|m| m["method"] == "client/registerCapability");
        client.send(&json!({"jsonrpc": "2.0", "id": registration["id"], "result": null}));
        (client, registration)
    }

    /// `file` changed on disk, as the editor's file watcher reports it.
    fn file_changed(&mut self, file: &Path) {
        self.notify(
            "workspace/didChangeWatchedFiles",
            &json!({"changes": [{"uri": uri(file), "type": 2}]}),
        );
    }

    /// The open `file` given `text` as the editor's second version, then saved (written to
    /// disk first, as an editor saves).
    fn edit_and_save(&mut self, file: &Path, text: &str) {
        std::fs::write(file, text).expect("write");
        let uri = uri(file);
        self.notify(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": uri, "version": 2},
                    "contentChanges": [{"text": text}]}),
        );
        self.notify(
            "textDocument/didSave",
            &json!({"textDocument": {"uri": uri}}),
        );
    }

    /// Ends the session as an editor does; the server must exit cleanly.
    fn stop(mut self) {
        self.request("shutdown", &Value::Null);
        self.notify("exit", &Value::Null);
        assert!(self.child.wait().expect("wait").success());
    }

    /// The editor's findings for `file` (opened with its text on disk, or given it as a change
    /// when open), which must be `hotfix lint`'s (`linted`); returned.
    fn lints_as(&mut self, file: &Path, linted: &[Finding]) -> Vec<Finding> {
        let text = std::fs::read_to_string(file).expect("read");
        let uri = uri(file);
        self.open(&uri, &text);
        let found = editor_findings(&text, &self.diagnostics(&uri));
        assert_eq!(found, linted, "{}", file.display());
        found
    }

    /// The next diagnostics of the open `file` (its text on disk), which must be `hotfix
    /// lint`'s, run in `root`; returned.
    fn next_as_lint(&mut self, root: &Path, file: &Path) -> Vec<Finding> {
        let text = std::fs::read_to_string(file).expect("read");
        let found = editor_findings(&text, &self.diagnostics(&uri(file)));
        assert_eq!(found, lint_findings(root, file), "{}", file.display());
        found
    }
}

/// Codes and lines of findings, to say what a test expects.
fn codes_lines(found: &[Finding]) -> Vec<(&str, u64)> {
    found
        .iter()
        .map(|(code, line, ..)| (code.as_str(), *line))
        .collect()
}

#[test]
fn the_editor_reads_a_template_through_the_install_prefixes_of_paths_as_lint_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("mkdir");
    std::fs::create_dir_all(root.join("nested")).expect("mkdir");
    std::fs::write(
        root.join("hotfix.toml"),
        "[paths]\n\"/usr/share/my-templates\" = \".\"\n",
    )
    .expect("write");
    std::fs::write(
        root.join("env.yaml"),
        "resource_registry:\n  My::Server: /usr/share/my-templates/nested/server.yaml\n",
    )
    .expect("write");
    std::fs::write(
        root.join("nested/server.yaml"),
        "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\n",
    )
    .expect("write");
    let top = root.join("top.yaml");
    let text = "heat_template_version: rocky\nresources:\n  server:\n    type: My::Server\n    properties: {flavour: m1.small}\n";
    std::fs::write(&top, text).expect("write");
    let linted = lint_findings(root, &top);
    // The mapped template is read under the prefix, and its parameters checked.
    assert!(linted.iter().any(|(code, ..)| code == "X003"), "{linted:?}");
    let mut client = Client::initialized(root, &json!({}));
    client.lints_as(&top, &linted);
    client.stop();
}

#[test]
fn the_editor_reads_a_blueprint_fragment_with_its_importer_s_inputs_as_lint_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("mkdir");
    std::fs::create_dir_all(root.join("includes")).expect("mkdir");
    std::fs::write(
        root.join("blueprint.yaml"),
        "tosca_definitions_version: cloudify_dsl_1_3\nimports:\n  - includes/vm.yaml\ninputs:\n  size:\n    default: 1\n",
    )
    .expect("write");
    // The fragment uses an input its importer declares, and one nobody does.
    let fragment = root.join("includes/vm.yaml");
    let text = "tosca_definitions_version: cloudify_dsl_1_3\nnode_templates:\n  vm:\n    type: cloudify.nodes.Root\n    properties:\n      size: {get_input: size}\n      other: {get_input: nope}\n";
    std::fs::write(&fragment, text).expect("write");
    let linted = lint_findings(root, &fragment);
    assert_eq!(codes_lines(&linted), [("C001", 7)], "{linted:?}");
    let mut client = Client::initialized(root, &json!({}));
    client.lints_as(&fragment, &linted);
    client.stop();
}

#[test]
fn the_editor_checks_an_environment_of_a_stacks_entry_against_its_template_as_lint_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("mkdir");
    std::fs::write(
        root.join("hotfix.toml"),
        "[[stacks]]\ntemplate = \"top.yaml\"\nenvironments = [\"env.yaml\"]\n",
    )
    .expect("write");
    std::fs::write(
        root.join("top.yaml"),
        "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\nresources: {}\n",
    )
    .expect("write");
    // A parameter the template of its stack does not declare.
    let env = root.join("env.yaml");
    let text = "parameter_defaults:\n  other: 1\nparameters:\n  flavour: m1.small\n";
    std::fs::write(&env, text).expect("write");
    let linted = lint_findings(root, &env);
    assert_eq!(codes_lines(&linted), [("E008", 4)], "{linted:?}");
    let mut client = Client::initialized(root, &json!({}));
    client.lints_as(&env, &linted);
    client.stop();
}

/// Every file below `dir`, sorted (version control folders left out).
fn files_below(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("list") {
            let path = entry.expect("list").path();
            if path.is_dir() {
                if path.file_name().is_none_or(|n| n != ".git") {
                    folders.push(path);
                }
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Opens each of `files` in a server whose workspace folder is `root` and asserts its
/// diagnostics are what `hotfix lint ROOT` reports for it (`linted`, by path); returns how many
/// findings were compared.
fn assert_editor_equals_lint(
    root: &Path,
    files: &[std::path::PathBuf],
    linted: &std::collections::BTreeMap<String, Vec<Finding>>,
) -> usize {
    let mut client = Client::initialized(root, &json!({"workspace": {"workspaceFolders": true}}));
    // Without a project marker, the workspace folder is what a lint of it spans.
    client.send(
        &json!({"jsonrpc": "2.0", "method": "workspace/didChangeWorkspaceFolders",
        "params": {"event": {"added": [{"uri": uri(root), "name": "root"}], "removed": []}}}),
    );
    let mut compared = 0;
    for file in files {
        let none = Vec::new();
        let expected = linted
            .get(file.to_str().expect("a UTF-8 path"))
            .unwrap_or(&none);
        compared += client.lints_as(file, expected).len();
    }
    client.stop();
    compared
}

#[test]
fn every_file_of_a_project_gets_in_the_editor_what_lint_reports() {
    // `[paths]`, `[[stacks]]`, `heat-release`, the tree's environments, nested templates by
    // path and through both registries, `get_file`, a Cloudify blueprint with a fragment; a
    // text file with a template's first line that does not load (skipped by both).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/server/parity");
    let linted = lint_findings_by_file(&root, &[&root]);
    let codes: std::collections::BTreeSet<&str> = linted
        .values()
        .flatten()
        .map(|(code, ..)| code.as_str())
        .collect();
    // Each feature decides a finding (lint's own tests pin what each means).
    for code in [
        "C001", "E007", "E008", "H618", "X002", "X003", "X005", "X006",
    ] {
        assert!(codes.contains(code), "{code}: {linted:?}");
    }
    let files = files_below(&root);
    assert_eq!(files.len(), 12);
    assert_eq!(assert_editor_equals_lint(&root, &files, &linted), 11);
}

#[test]
fn a_tripleo_service_chain_gets_in_the_editor_the_nested_outputs_lint_reports() {
    // TripleO's shape: the resource registry maps each service type to its template under the
    // install prefix (`[paths]` maps it into the tree), and a role's services template reads
    // outputs its service templates lack.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    for (path, text) in [
        (
            "hotfix.toml",
            "[paths]\n\"/usr/share/openstack-tripleo-heat-templates\" = \".\"\n",
        ),
        (
            "overcloud-resource-registry-puppet.yaml",
            "resource_registry:\n  OS::TripleO::Services::Ntp: \
             /usr/share/openstack-tripleo-heat-templates/puppet/services/ntp.yaml\n  \
             OS::TripleO::Services::Kernel: puppet/services/kernel.yaml\n",
        ),
        (
            "puppet/services/ntp.yaml",
            "heat_template_version: queens\nparameters:\n  ServiceNetMap: {type: json, default: {}}\n\
             outputs:\n  role_data:\n    value: {service_name: ntp}\n",
        ),
        (
            "puppet/services/kernel.yaml",
            "heat_template_version: queens\nparameters:\n  ServiceNetMap: {type: json, default: {}}\n\
             outputs:\n  data:\n    value: {service_name: kernel}\n",
        ),
        (
            "puppet/services.yaml",
            "heat_template_version: queens\nresources:\n  Ntp:\n    type: OS::TripleO::Services::Ntp\n  \
             Kernel:\n    type: OS::TripleO::Services::Kernel\n  Holder:\n    \
             type: OS::Heat::Value\n    properties:\n      value:\n        \
             - {get_attr: [Ntp, role_data]}\n        - {get_attr: [Kernel, role_data]}\n        \
             - {get_attr: [Kernel, config_settings]}\n        - {get_attr: [Ntp, upgrade_tasks]}\n",
        ),
    ] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    let linted = lint_findings_by_file(root, &[root]);
    let codes: Vec<&str> = linted.values().flatten().map(|f| f.0.as_str()).collect();
    assert_eq!(codes, ["X006", "X006", "X006"], "{linted:?}");
    let files = files_below(root);
    assert_eq!(assert_editor_equals_lint(root, &files, &linted), 3);
}

#[test]
fn a_workspace_folder_named_through_dot_dot_spans_what_lint_spans() {
    // No project marker: the folder opened is what a lint of it spans, however it is named.
    // `../missing.yaml` lies inside it, and is reported; read from `a/` alone, it would not be.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("a")).expect("mkdir");
    std::fs::create_dir_all(root.join("x")).expect("mkdir");
    std::fs::write(
        root.join("a/t.yaml"),
        "heat_template_version: rocky\nresources:\n  n: {type: ../missing.yaml}\n",
    )
    .expect("write");
    let named = root.join("x/..");
    let linted = lint_findings_by_file(&named, &[&named]);
    let files = files_below(&named);
    assert_eq!(files, [named.join("a/t.yaml")]);
    let codes: Vec<&str> = linted.values().flatten().map(|f| f.0.as_str()).collect();
    assert_eq!(codes, ["X001"], "{linted:?}");
    assert_eq!(assert_editor_equals_lint(&named, &files, &linted), 1);
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_corpus_templates_get_in_the_editor_what_lint_reports() {
    let shared = std::env::var_os("HOTFIX_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        std::path::PathBuf::from,
    );
    // As named (`…/../shared/corpus`): the editor reads `..` in a workspace folder as `hotfix
    // lint` does.
    let corpus = shared.join("corpus");
    assert!(
        corpus.is_dir(),
        "../shared/corpus (or HOTFIX_SHARED/corpus)"
    );
    let mut compared = 0;
    for repository in [
        "cloudify-blueprint-examples",
        "tripleo-heat-templates",
        "tacker",
    ] {
        let root = corpus.join(repository);
        let linted = lint_findings_by_file(&root, &[&root]);
        // Every 40th YAML file, and the first ten with findings.
        let yaml: Vec<_> = files_below(&root)
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "yaml" || e == "yml"))
            .collect();
        let mut sample: Vec<_> = yaml.iter().step_by(40).cloned().collect();
        sample.extend(linted.keys().take(10).map(std::path::PathBuf::from));
        sample.sort();
        sample.dedup();
        compared += assert_editor_equals_lint(&root, &sample, &linted);
    }
    assert!(compared > 40, "{compared}");
}

#[test]
fn a_changed_configuration_or_environment_is_seen_on_the_next_diagnostics() {
    // Two copies of a nested template, one taking `flavor`, the other `flavour`; `[paths]`
    // says which one an install prefix stands for.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("mkdir");
    for (folder, parameter) in [("a", "flavor"), ("b", "flavour")] {
        std::fs::create_dir_all(root.join(folder).join("nested")).expect("mkdir");
        std::fs::write(
            root.join(folder).join("nested/server.yaml"),
            format!("heat_template_version: rocky\nparameters:\n  {parameter}: {{type: string}}\n"),
        )
        .expect("write");
    }
    let config = root.join("hotfix.toml");
    std::fs::write(&config, "[paths]\n\"/usr/share/t\" = \"a\"\n").expect("write");
    let env = root.join("env.yaml");
    std::fs::write(
        &env,
        "resource_registry:\n  My::Server: /usr/share/t/nested/server.yaml\n",
    )
    .expect("write");
    let top = root.join("top.yaml");
    std::fs::write(
        &top,
        "heat_template_version: rocky\nresources:\n  server:\n    type: My::Server\n    properties: {flavour: m1.small}\n",
    )
    .expect("write");
    let (mut client, _) = Client::watching(root);
    let x003 = |found: &[Finding]| found.iter().filter(|f| f.0 == "X003").count();
    let first = client.lints_as(&top, &lint_findings(root, &top));
    assert_eq!(x003(&first), 1, "{first:?}");
    // `[paths]` now maps the prefix to the other copy: the project is resolved again.
    std::fs::write(&config, "[paths]\n\"/usr/share/t\" = \"b\"\n").expect("write");
    client.file_changed(&config);
    let mapped = client.next_as_lint(root, &top);
    assert_eq!(x003(&mapped), 0, "{mapped:?}");
    // The environment, changed on disk (not in the editor), maps the type to the first copy.
    std::fs::write(
        &env,
        "resource_registry:\n  My::Server: a/nested/server.yaml\n",
    )
    .expect("write");
    client.file_changed(&env);
    let remapped = client.next_as_lint(root, &top);
    assert_eq!(x003(&remapped), 1, "{remapped:?}");
    // The configuration, saved in the editor, ignores the rule.
    std::fs::write(&config, "ignore = [\"X003\"]\n").expect("write");
    client.notify(
        "textDocument/didSave",
        &json!({"textDocument": {"uri": uri(&config)}}),
    );
    let ignored = client.next_as_lint(root, &top);
    assert_eq!(x003(&ignored), 0, "{ignored:?}");
    client.stop();
}

#[test]
fn saving_an_environment_of_a_stack_entry_lints_its_template_again_whatever_it_holds() {
    // `env.yaml` is an environment because `[[stacks]]` says so: saved with a misspelt
    // section, its text no longer looks like an environment's, and the template it goes with
    // is linted again all the same (it kept the nested template's X003 before).
    let dir = hotfix_testkit::repository();
    let root = dir.path();
    let (env, top) = (root.join("env.yaml"), root.join("top.yaml"));
    for (path, text) in [
        (
            root.join("a.yaml"),
            "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\n",
        ),
        (
            root.join("hotfix.toml"),
            "[[stacks]]\ntemplate = \"top.yaml\"\nenvironments = [\"env.yaml\"]\n",
        ),
        (env.clone(), "resource_registry:\n  My::Server: a.yaml\n"),
        (
            top.clone(),
            "heat_template_version: rocky\nresources:\n  server:\n    type: My::Server\n    properties: {flavour: m1.small}\n",
        ),
    ] {
        hotfix_testkit::write(&path, text);
    }
    let (mut client, _) = Client::watching(root);
    let x003 = |found: &[Finding]| found.iter().filter(|f| f.0 == "X003").count();
    let first = client.lints_as(&top, &lint_findings(root, &top));
    assert_eq!(x003(&first), 1, "{first:?}");
    let env_uri = uri(&env);
    client.open(&env_uri, &std::fs::read_to_string(&env).expect("read"));
    client.diagnostics(&env_uri);
    let misspelt = "resource_registy:\n  My::Server: a.yaml\n";
    client.edit_and_save(&env, misspelt);
    let again = client.next_as_lint(root, &top);
    assert_eq!(x003(&again), 0, "{again:?}");
    client.stop();
}

#[test]
fn an_environment_of_any_name_is_watched_and_its_change_seen_on_the_next_diagnostics() {
    // The tree's environments are found by content: `registry.env` is one.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("mkdir");
    for (name, parameter) in [("a.yaml", "flavor"), ("b.yaml", "flavour")] {
        std::fs::write(
            root.join(name),
            format!("heat_template_version: rocky\nparameters:\n  {parameter}: {{type: string}}\n"),
        )
        .expect("write");
    }
    let env = root.join("registry.env");
    std::fs::write(&env, "resource_registry:\n  My::Server: a.yaml\n").expect("write");
    let top = root.join("top.yaml");
    std::fs::write(
        &top,
        "heat_template_version: rocky\nresources:\n  server:\n    type: My::Server\n    properties: {flavour: m1.small}\n",
    )
    .expect("write");
    let (mut client, registration) = Client::watching(root);
    let watchers = &registration["params"]["registrations"][0]["registerOptions"]["watchers"];
    let globs: Vec<globset::GlobMatcher> = watchers
        .as_array()
        .expect("watchers")
        .iter()
        .map(|w| {
            globset::Glob::new(w["globPattern"].as_str().expect("a glob"))
                .expect("a glob")
                .compile_matcher()
        })
        .collect();
    for file in ["registry.env", "envs/overcloud", "hotfix.toml", "t.yaml"] {
        assert!(globs.iter().any(|g| g.is_match(file)), "{file}: {watchers}");
    }
    let x003 = |found: &[Finding]| found.iter().filter(|f| f.0 == "X003").count();
    let first = client.lints_as(&top, &lint_findings(root, &top));
    assert_eq!(x003(&first), 1, "{first:?}");
    // A file that is no environment changes: the diagnostics stay.
    let readme = root.join("README");
    std::fs::write(&readme, "notes\n").expect("write");
    client.file_changed(&readme);
    let same = client.next_as_lint(root, &top);
    assert_eq!(x003(&same), 1, "{same:?}");
    // The environment, changed on disk, maps the type to the template that takes `flavour`.
    std::fs::write(&env, "resource_registry:\n  My::Server: b.yaml\n").expect("write");
    client.file_changed(&env);
    let remapped = client.next_as_lint(root, &top);
    assert_eq!(x003(&remapped), 0, "{remapped:?}");
    // And back, then gone: the type is mapped nowhere.
    std::fs::write(&env, "resource_registry:\n  My::Server: a.yaml\n").expect("write");
    client.file_changed(&env);
    assert_eq!(x003(&client.next_as_lint(root, &top)), 1);
    std::fs::remove_file(&env).expect("remove");
    client.file_changed(&env);
    let gone = client.next_as_lint(root, &top);
    assert_eq!(x003(&gone), 0, "{gone:?}");
    client.stop();
}

#[test]
fn the_editor_reads_a_template_with_the_environment_closest_to_it() {
    // Two examples, each with its own registry mapping `My::LB` to its own `lb.yaml`: a
    // template of one is not checked against the other's.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    for (example, parameter) in [("one", "port"), ("two", "members")] {
        let folder = dir.path().join(example);
        std::fs::create_dir(&folder).expect("mkdir");
        std::fs::write(
            folder.join("registry.yaml"),
            "resource_registry:\n  My::LB: ./lb.yaml\n",
        )
        .expect("write");
        std::fs::write(
            folder.join("lb.yaml"),
            format!("heat_template_version: rocky\nparameters:\n  {parameter}: {{type: string}}\n"),
        )
        .expect("write");
    }
    let app = dir.path().join("one/app.yaml");
    let uri = uri(&app);
    let mut client = Client::start(dir.path());
    client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {}}),
    );
    client.notify("initialized", &json!({}));
    client.open(
        &uri,
        "heat_template_version: rocky\nresources:\n  lb:\n    type: My::LB\n    properties: {port: '80', prot: tcp}\n",
    );
    let diagnostics = client.diagnostics(&uri);
    let x003: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d["code"] == "X003")
        .filter_map(|d| d["message"].as_str()?.lines().next())
        .collect();
    let registry = dir.path().join("one/registry.yaml");
    assert_eq!(
        x003,
        [format!(
            "`prot` is not a parameter of `lb.yaml` (`My::LB` as `{}` maps it)",
            registry.display()
        )],
        "{diagnostics:?}"
    );
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    assert!(client.child.wait().expect("wait").success());
}

#[test]
fn hover_on_a_property_shows_its_constraints_as_hotfix_type_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.yaml");
    let text = "heat_template_version: 2016-10-14\nresources:\n  server:\n    type: OS::Nova::Server\n    properties:\n      flavor: m1.small\n      flavor_update_policy: RESIZE\n";
    let uri = uri(&path);
    let mut client = Client::start(dir.path());
    client.request(
        "initialize",
        &json!({"processId": null, "capabilities": {}}),
    );
    client.notify("initialized", &json!({}));
    client.open(&uri, text);
    let mut hover = |line: u32| {
        let hover = client.request(
            "textDocument/hover",
            &json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 8}}),
        );
        hover["contents"]["value"]
            .as_str()
            .expect("markdown")
            .to_owned()
    };
    // The same words as `hotfix type OS::Nova::Server`, not the data's JSON.
    let flavor = hover(5);
    assert!(flavor.contains("custom constraint nova.flavor"), "{flavor}");
    let policy = hover(6);
    assert!(
        policy.contains(r#"allowed values "RESIZE", "REPLACE""#),
        "{policy}"
    );
    for shown in [&flavor, &policy] {
        assert!(!shown.contains('{'), "{shown}");
    }
    let listed = std::process::Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(["type", "OS::Nova::Server"])
        .output()
        .expect("hotfix type");
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed.contains(r#"allowed values "RESIZE", "REPLACE""#)
            && listed.contains("custom constraint nova.flavor"),
        "{listed}"
    );
    client.request("shutdown", &Value::Null);
    client.notify("exit", &Value::Null);
    assert!(client.child.wait().expect("wait").success());
}

#[test]
fn completion_under_properties_offers_the_property_names_of_the_resource_s_type_as_one_types() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.yaml");
    let uri = uri(&path);
    let mut client = Client::initialized(dir.path(), &json!({}));
    client.open(&uri, "heat_template_version: 2016-10-14\n");
    client.diagnostics(&uri);
    let head = "heat_template_version: 2016-10-14\nresources:\n  server:\n    type: OS::Nova::Server\n    properties:\n";
    let volume = "  volume:\n    type: OS::Cinder::Volume\n";
    // The text as the user types the line after `properties:` (line 5, or 6 after `image`),
    // with and without a resource after it.
    let cases = [
        (format!("{head}      "), 5, 6),
        (format!("{head}      fl"), 5, 8),
        (format!("{head}      f\n{volume}"), 5, 7),
        (format!("{head}      image: cirros\n      \n{volume}"), 6, 6),
        (
            format!("{head}      image: cirros\n      fl\n{volume}"),
            6,
            8,
        ),
        (format!("{head}      image: cirros\n      fl"), 6, 8),
        (format!("{head}      \"fl"), 5, 9),
    ];
    for (version, (text, line, character)) in (2..).zip(&cases) {
        client.notify(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": text}]}),
        );
        let completion = client.request(
            "textDocument/completion",
            &json!({"textDocument": {"uri": uri},
                    "position": {"line": line, "character": character}}),
        );
        let labels: Vec<&str> = completion
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|i| i["label"].as_str().expect("label"))
                    .collect()
            })
            .unwrap_or_default();
        assert!(
            labels.contains(&"flavor") && labels.contains(&"networks"),
            "{text:?}: {labels:?}"
        );
        assert!(!labels.contains(&"get_param"), "{text:?}: {labels:?}");
        // A property already given is not offered again.
        assert_eq!(
            labels.contains(&"image"),
            *line == 5,
            "{text:?}: {labels:?}"
        );
    }
    client.stop();
}
