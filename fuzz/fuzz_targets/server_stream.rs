//! Any bytes as `hotfix server`'s standard input, framing and all, read by its own reader
//! (`hotfix_server::transport`): headers, lengths that lie, bodies that are not JSON-RPC,
//! parameters of the wrong shape. Half the inputs start with a valid `initialize`, so that
//! what follows reaches the session. Nothing may panic, a frame is never larger than the bound,
//! and the server must stop once the input ends.

#![no_main]

use std::io::Cursor;
use std::path::Path;

use hotfix_linter::{Selector, Settings};
use hotfix_server::transport::{Frame, MAX_MESSAGE, connect, read_frame};
use libfuzzer_sys::fuzz_target;

struct Everything;

impl hotfix_server::Project for Everything {
    fn settings(&self, _: &Path) -> Result<Option<Settings>, String> {
        Ok(Some(Settings {
            select: vec![Selector::All],
            ..Settings::default()
        }))
    }

    fn kind(&self, _: &Path, _: &str) -> hotfix_server::FileKind {
        hotfix_server::FileKind::Template
    }
}

fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fuzz_target!(|data: &[u8]| {
    // The reader alone: every frame within the bound, and the stream read to its end or to
    // broken framing.
    let mut reader = Cursor::new(data);
    while let Ok(Some(frame)) = read_frame(&mut reader) {
        if let Frame::Message(message) = frame {
            let json = serde_json::to_string(&message).expect("a message encodes");
            assert!(json.len() <= 2 * MAX_MESSAGE);
        }
    }
    // The whole server on those bytes.
    let mut input = Vec::new();
    if data.first().is_some_and(|b| b & 1 == 1) {
        input.extend(framed(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#,
        ));
        input.extend(framed(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#));
    }
    input.extend_from_slice(data);
    let (connection, threads) = connect(Cursor::new(input), std::io::sink());
    let _ = hotfix_server::run(&connection, &Everything);
    drop(connection);
    let _ = threads.join();
});
