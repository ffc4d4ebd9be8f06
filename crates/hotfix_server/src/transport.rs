//! The protocol's framing (`Content-Length: N`, a blank line, N bytes of JSON), read with a
//! bound: a client is not trusted to say how much it sends.
//!
//! `lsp-server` allocates the length a header announces before reading a byte of it (a
//! 40-byte header asking for 3 GB commits 3 GB; `usize::MAX` panics), and ends the session on
//! a message that is not JSON-RPC. Here a header line is read up to [`MAX_HEADER_LINE`] bytes,
//! a message up to [`MAX_MESSAGE`] (memory grows only as its bytes arrive); a larger one is read
//! past and dropped, and so is one that is not a JSON-RPC message, with a `window/logMessage`
//! that says why (a request among them gets an error answer when its `id` can be read).
//! Only broken framing (a header that is not one, no `Content-Length`) ends the session: what
//! follows can no longer be told apart.

use std::io::{self, BufRead, Read as _, Write};
use std::thread;

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};
use lsp_server::{Connection, ErrorCode, Message, Notification, RequestId, Response};
use lsp_types::notification::Notification as _;

/// The largest message read: a document at hotfix's read bound (2 MiB), each byte escaped as
/// JSON escapes a control character (6 bytes), with room to spare.
pub const MAX_MESSAGE: usize = 16 << 20;
/// The longest header line read.
pub const MAX_HEADER_LINE: usize = 1024;
/// The most header lines of one message.
const MAX_HEADER_LINES: usize = 32;

/// What one read of the stream gave.
#[derive(Debug)]
pub enum Frame {
    /// A message.
    Message(Message),
    /// A message that was read and dropped, with why, and the request's id when it was one.
    Dropped { why: String, id: Option<RequestId> },
}

/// Reads the next message of `input`. `Ok(None)`: the stream ended (between messages, or in
/// the middle of one). `Err`: the framing is broken.
///
/// # Errors
/// When reading fails, or a header is not one.
pub fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length = None;
    let mut lines = 0;
    loop {
        let mut line = Vec::new();
        input
            .by_ref()
            .take(MAX_HEADER_LINE as u64)
            .read_until(b'\n', &mut line)?;
        if line.is_empty() {
            return Ok(None);
        }
        let Some(line) = line.strip_suffix(b"\r\n") else {
            return Err(invalid(&if line.len() == MAX_HEADER_LINE {
                format!("a header line longer than {MAX_HEADER_LINE} bytes")
            } else {
                format!(
                    "a header line that does not end with CRLF: {:?}",
                    lossy(&line)
                )
            }));
        };
        if line.is_empty() {
            break;
        }
        lines += 1;
        if lines > MAX_HEADER_LINES {
            return Err(invalid(&format!(
                "more than {MAX_HEADER_LINES} header lines"
            )));
        }
        let Some((name, value)) = std::str::from_utf8(line)
            .ok()
            .and_then(|l| l.split_once(':'))
        else {
            return Err(invalid(&format!("a malformed header: {:?}", lossy(line))));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return Err(invalid(&format!(
                    "a Content-Length that is not a number: {value:?}"
                )));
            }
            // A number too large for any type is too large for the bound: u64::MAX stands for it.
            length = Some(value.parse::<u64>().unwrap_or(u64::MAX));
        }
    }
    let Some(length) = length else {
        return Err(invalid("a message without a Content-Length header"));
    };
    if length > MAX_MESSAGE as u64 {
        // Read past it, keeping nothing: the next message starts after it.
        let skipped = io::copy(&mut input.by_ref().take(length), &mut io::sink())?;
        if skipped < length {
            return Ok(None);
        }
        return Ok(Some(Frame::Dropped {
            why: format!(
                "a message of {length} bytes was dropped: hotfix reads messages of at most \
                 {MAX_MESSAGE} bytes"
            ),
            id: None,
        }));
    }
    let mut body = Vec::new();
    input.by_ref().take(length).read_to_end(&mut body)?;
    if (body.len() as u64) < length {
        return Ok(None);
    }
    Ok(Some(decode(&body)))
}

/// A message from its JSON text, or why it is dropped.
fn decode(body: &[u8]) -> Frame {
    match serde_json::from_slice::<Message>(body) {
        Ok(message) => Frame::Message(message),
        Err(err) => {
            /// What can be read of a message that is not one (lone surrogates and all, in
            /// values that are skipped).
            #[derive(serde::Deserialize)]
            struct Envelope {
                id: Option<RequestId>,
                method: Option<String>,
            }
            let envelope = serde_json::from_slice::<Envelope>(body).ok();
            let method = envelope.as_ref().and_then(|e| e.method.clone());
            let id = envelope.and_then(|e| e.id).filter(|_| method.is_some());
            Frame::Dropped {
                why: format!(
                    "a message{} that is not valid JSON-RPC was dropped: {err}",
                    method.map(|m| format!(" ({m})")).unwrap_or_default()
                ),
                id,
            }
        }
    }
}

fn invalid(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("broken framing: {why}"))
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned()
}

/// The threads that read and write a connection's streams.
#[derive(Debug)]
pub struct IoThreads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for both threads; the reader's error (broken framing) first.
    ///
    /// # Errors
    /// When the framing was broken, or a stream failed.
    pub fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the reader thread panicked")));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")));
        reader.and(writer)
    }
}

/// A connection over any pair of streams, read through [`read_frame`]: dropped messages are
/// logged to the client (and a request among them answered with an error) by the reader
/// itself, and never reach the server.
pub fn connect(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> (Connection, IoThreads) {
    let (to_client, outgoing): (Sender<Message>, Receiver<Message>) = unbounded();
    let (incoming, from_client) = bounded::<Message>(0);
    let writer = thread::spawn(move || {
        let mut output = output;
        for message in outgoing {
            message.write(&mut output)?;
        }
        Ok(())
    });
    let answers = to_client.clone();
    let reader = thread::spawn(move || {
        let mut input = input;
        while let Some(frame) = read_frame(&mut input)? {
            match frame {
                Frame::Message(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if incoming.send(message).is_err() || exit {
                        break;
                    }
                }
                Frame::Dropped { why, id } => {
                    let log = Notification::new(
                        lsp_types::notification::LogMessage::METHOD.to_owned(),
                        lsp_types::LogMessageParams {
                            typ: lsp_types::MessageType::ERROR,
                            message: format!("hotfix: {why}"),
                        },
                    );
                    let _ = answers.send(Message::Notification(log));
                    if let Some(id) = id {
                        let error = Response::new_err(id, ErrorCode::InvalidRequest as i32, why);
                        let _ = answers.send(Message::Response(error));
                    }
                }
            }
        }
        Ok(())
    });
    (
        Connection {
            sender: to_client,
            receiver: from_client,
        },
        IoThreads { reader, writer },
    )
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::path::Path;

    use super::*;

    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn frames(bytes: &[u8]) -> (Vec<Frame>, io::Result<()>) {
        let mut input = Cursor::new(bytes);
        let mut frames = Vec::new();
        loop {
            match read_frame(&mut input) {
                Ok(Some(frame)) => frames.push(frame),
                Ok(None) => return (frames, Ok(())),
                Err(err) => return (frames, Err(err)),
            }
        }
    }

    #[test]
    fn a_message_past_the_bound_is_read_past_and_the_next_one_read() {
        let length = MAX_MESSAGE + 1;
        let mut bytes = format!("Content-Length: {length}\r\n\r\n").into_bytes();
        bytes.resize(bytes.len() + length, b'x');
        bytes.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        let (frames, end) = frames(&bytes);
        end.expect("no broken framing");
        assert!(
            matches!(&frames[..], [Frame::Dropped { id: None, .. }, Frame::Message(Message::Notification(n))] if n.method == "exit"),
            "{frames:?}"
        );
    }

    #[test]
    fn a_length_that_lies_ends_the_stream_without_allocating_it() {
        for length in [
            "3000000000",
            "18446744073709551615",
            "99999999999999999999999",
        ] {
            let bytes = format!("Content-Length: {length}\r\n\r\n{{}}");
            let (frames, end) = frames(bytes.as_bytes());
            assert!(frames.is_empty() && end.is_ok(), "{length}");
        }
    }

    #[test]
    fn broken_framing_is_an_error() {
        let long = format!("X-{}: y\r\n\r\n", "a".repeat(MAX_HEADER_LINE));
        for bytes in [
            "Content-Length: -1\r\n\r\n",
            "Content-Length 3\r\n\r\n{} ",
            "Content-Length: 2\n\n{}",
            "Content-Type: x\r\n\r\n{}",
            &long,
        ] {
            let (frames, end) = frames(bytes.as_bytes());
            let err = end.expect_err(bytes);
            assert!(frames.is_empty(), "{bytes}");
            assert!(err.to_string().starts_with("broken framing"), "{err}");
        }
    }

    #[test]
    fn a_body_that_is_not_json_rpc_is_dropped_and_a_request_keeps_its_id() {
        let mut bytes = framed(r#"{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"\ud800"}}"#);
        bytes.extend(framed(
            r#"{"jsonrpc":"2.0","method":"y","params":"\udc00"}"#,
        ));
        bytes.extend(framed("not json"));
        let (frames, end) = frames(&bytes);
        end.expect("no broken framing");
        let ids: Vec<Option<RequestId>> = frames
            .into_iter()
            .map(|f| match f {
                Frame::Dropped { id, .. } => id,
                Frame::Message(m) => panic!("{m:?}"),
            })
            .collect();
        assert_eq!(ids, [Some(RequestId::from(7)), None, None]);
    }

    struct Nothing;

    impl crate::Project for Nothing {
        fn settings(&self, _: &Path) -> Result<Option<hotfix_linter::Settings>, String> {
            Ok(Some(hotfix_linter::Settings::default()))
        }

        fn kind(&self, _: &Path, _: &str) -> crate::FileKind {
            crate::FileKind::Template
        }
    }

    /// A session's bytes, mutated (bytes changed, digits put in, bytes removed) with a fixed
    /// seed: the reader never panics nor loops, and the server ends with its input.
    #[test]
    fn any_bytes_end_the_session_without_a_panic() {
        let session: Vec<u8> = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///t.yaml","languageId":"yaml","version":1,"text":"heat_template_version: 2016-10-14\nresources: {}\n"}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///t.yaml"},"position":{"line":0,"character":3}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0","method":"exit"}"#,
        ]
        .iter()
        .flat_map(|body| framed(body))
        .collect();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            usize::try_from(state % 1_000_003).unwrap_or(0)
        };
        for _ in 0..300 {
            let mut bytes = session.clone();
            for _ in 0..=next() % 4 {
                let at = next() % bytes.len();
                match next() % 3 {
                    0 => bytes[at] = u8::try_from(next() % 256).unwrap_or(0),
                    1 => bytes.insert(at, b"0123456789-"[next() % 11]),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            let _ = frames(&bytes);
            let (connection, threads) = connect(Cursor::new(bytes), io::sink());
            let _ = crate::run(&connection, &Nothing);
            drop(connection);
            let _ = threads.join();
        }
    }
}
