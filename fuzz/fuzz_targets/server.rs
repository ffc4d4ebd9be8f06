//! Any document and any sequence of editor messages through `hotfix server`, in memory: the
//! bytes give the opened text, then operations (an incremental change with text taken from the
//! input, or a request at a position: hover, definition, references, rename, completion, code
//! actions, symbols), then shutdown and exit. Nothing may panic, every request must be
//! answered, and the server must stop when told to.

#![no_main]

use std::path::Path;

use hotfix_linter::{Selector, Settings};
use libfuzzer_sys::fuzz_target;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

struct Everything;

impl hotfix_server::Project for Everything {
    fn settings(&self, _: &Path) -> Result<Option<Settings>, String> {
        Ok(Some(Settings {
            select: vec![Selector::All],
            ..Settings::default()
        }))
    }

    fn kind(&self, _: &Path, text: &str) -> hotfix_server::FileKind {
        // Both kinds, by the text's first byte.
        if text.starts_with('r') {
            hotfix_server::FileKind::Environment
        } else {
            hotfix_server::FileKind::Template
        }
    }
}

const URI: &str = "file:///fuzz/t.yaml";
const REQUESTS: [&str; 7] = [
    "textDocument/hover",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/rename",
    "textDocument/completion",
    "textDocument/codeAction",
    "textDocument/documentSymbol",
];

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0xff).unwrap_or(data.len());
    let text = String::from_utf8_lossy(&data[..split]).into_owned();
    let mut ops = data.get(split + 1..).unwrap_or_default().chunks(4);
    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || {
        hotfix_server::run(&server, &Everything).expect("the server runs");
    });
    let mut id = 0;
    let mut request = |client: &Connection, method: &str, params: Value| {
        id += 1;
        let sent = RequestId::from(id);
        client
            .sender
            .send(Message::Request(Request::new(sent.clone(), method.to_owned(), params)))
            .expect("send");
        loop {
            match client.receiver.recv().expect("an answer") {
                Message::Response(response) if response.id == sent => return response,
                _ => {}
            }
        }
    };
    let notify = |client: &Connection, method: &str, params: Value| {
        client
            .sender
            .send(Message::Notification(Notification::new(method.to_owned(), params)))
            .expect("send");
    };
    let encodings = if data.first().is_some_and(|b| b & 1 == 1) { json!(["utf-8"]) } else { json!([]) };
    request(&client, "initialize", json!({"capabilities": {"general": {"positionEncodings": encodings}}}));
    notify(&client, "initialized", json!({}));
    notify(&client, "textDocument/didOpen", json!({"textDocument":
        {"uri": URI, "languageId": "yaml", "version": 1, "text": text}}));
    let mut version = 1;
    while let Some(op) = ops.next() {
        let [kind, line, character, extra] = [0, 1, 2, 3].map(|i| op.get(i).copied().unwrap_or(0));
        let position = json!({"line": line % 40, "character": character % 80});
        if kind % 8 == 7 {
            // A change: replace a range by the next chunk's bytes.
            let end = json!({"line": (line % 40) + (extra % 3), "character": extra % 80});
            let new = ops.next().map(|c| String::from_utf8_lossy(c).into_owned()).unwrap_or_default();
            version += 1;
            notify(&client, "textDocument/didChange", json!({
                "textDocument": {"uri": URI, "version": version},
                "contentChanges": [{"range": {"start": position, "end": end}, "text": new}]}));
            continue;
        }
        let method = REQUESTS[usize::from(kind % 7)];
        let doc = json!({"uri": URI});
        let params = match method {
            "textDocument/documentSymbol" => json!({"textDocument": doc}),
            "textDocument/codeAction" => json!({"textDocument": doc,
                "range": {"start": position, "end": position}, "context": {"diagnostics": []}}),
            "textDocument/references" => json!({"textDocument": doc, "position": position,
                "context": {"includeDeclaration": extra & 1 == 1}}),
            "textDocument/rename" => json!({"textDocument": doc, "position": position,
                "newName": if extra & 1 == 1 { "renamed" } else { "bad name" }}),
            _ => json!({"textDocument": doc, "position": position}),
        };
        request(&client, method, params);
    }
    request(&client, "shutdown", Value::Null);
    notify(&client, "exit", Value::Null);
    drop(client);
    thread.join().expect("the server stops without a panic");
});
