//! Output streams that a closed pipe does not break.
//!
//! `hotfix lint | head -1` closes standard output early; `2>&1 | head` closes standard error
//! too. Neither is a failure of the run: what was asked for was written, and the exit code must
//! be the one the run would have had. [`Tolerant`] turns a broken pipe into a quiet end of that
//! stream (later writes are dropped), so every printer runs to completion and the run's own
//! verdict decides the exit code.

use std::io::{self, Write};

/// A writer that drops everything once its reader has gone away.
#[derive(Debug)]
pub(crate) struct Tolerant<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> Tolerant<W> {
    pub(crate) fn new(inner: W) -> Tolerant<W> {
        Tolerant {
            inner,
            closed: false,
        }
    }
}

impl<W: Write> Write for Tolerant<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.inner.flush() {
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

/// Standard error, locked, tolerant of a closed pipe, and safe for a terminal: everything on it
/// is for people (warnings, errors, summaries), so every character a terminal could act on is
/// escaped whatever wrote it (see [`Escaped`]).
pub(crate) fn stderr() -> Tolerant<Escaped<io::StderrLock<'static>>> {
    Tolerant::new(Escaped::new(io::stderr().lock()))
}

/// `text` for standard output when it may be raw bytes for a program (a diff for `patch`):
/// escaped as [`Escaped`] escapes when standard output is a terminal, kept byte for byte else.
pub(crate) fn for_stdout(text: &str) -> std::borrow::Cow<'_, str> {
    if io::IsTerminal::is_terminal(&io::stdout()) {
        hotfix_diagnostics::escape(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// A writer of text for a terminal: every character a terminal could act on (controls but line
/// feeds and tabs, bidi controls; see [`hotfix_diagnostics::is_unsafe`]) is written escaped
/// (`\x1b`, `\u{202e}`), and so is every byte that is not UTF-8 (`\xff`). A character split
/// between two writes is kept until its end arrives.
#[derive(Debug)]
pub(crate) struct Escaped<W: Write> {
    inner: W,
    /// The start of a character whose end has not been written yet.
    pending: Vec<u8>,
}

impl<W: Write> Escaped<W> {
    pub(crate) fn new(inner: W) -> Escaped<W> {
        Escaped {
            inner,
            pending: Vec::new(),
        }
    }
}

impl<W: Write> Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let mut out = String::with_capacity(self.pending.len());
        let mut rest: &[u8] = &self.pending;
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    out.push_str(&hotfix_diagnostics::escape(text));
                    rest = &[];
                }
                Err(err) => {
                    let (valid, after) = rest.split_at(err.valid_up_to());
                    let valid = std::str::from_utf8(valid).unwrap_or_default();
                    out.push_str(&hotfix_diagnostics::escape(valid));
                    let Some(bad) = err.error_len() else {
                        // A character cut short: the next write may end it.
                        rest = after;
                        break;
                    };
                    for byte in &after[..bad] {
                        let _ = std::fmt::Write::write_fmt(&mut out, format_args!("\\x{byte:02x}"));
                    }
                    rest = &after[bad..];
                }
            }
        }
        let kept = rest.len();
        let consumed = self.pending.len() - kept;
        self.pending.drain(..consumed);
        self.inner.write_all(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for Escaped<W> {
    fn drop(&mut self) {
        // A character never ended: its bytes, escaped.
        let mut out = String::new();
        for byte in &self.pending {
            let _ = std::fmt::Write::write_fmt(&mut out, format_args!("\\x{byte:02x}"));
        }
        let _ = self.inner.write_all(out.as_bytes());
        let _ = self.inner.flush();
    }
}

/// The width to wrap help and code frames at: the terminal's (standard output's, else standard
/// error's, so that `hotfix lint --help | less` still fits the screen), else `COLUMNS`, else 100.
pub(crate) fn term_width() -> usize {
    let terminal = terminal_size::terminal_size_of(io::stdout())
        .or_else(|| terminal_size::terminal_size_of(io::stderr()));
    if let Some((terminal_size::Width(width), _)) = terminal {
        return usize::from(width);
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&c| c > 0)
        .unwrap_or(100)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_swallows_what_follows() {
        let mut out = Tolerant::new(Closed);
        writeln!(out, "one").expect("no error after the pipe closed");
        out.flush().expect("flush is quiet too");
        assert!(out.closed);
    }

    #[test]
    fn text_for_a_terminal_has_its_controls_escaped() {
        let mut bytes = Vec::new();
        {
            let mut out = Escaped::new(&mut bytes);
            write!(out, "a\u{1b}]2;x\u{7}\tb\n\u{202e}").expect("write");
            // U+0085 (C2 85) split between two writes, then a byte that is not UTF-8.
            out.write_all(&[b'c', 0xc2]).expect("write");
            out.write_all(&[0x85, 0xff, b'd']).expect("write");
            // A character cut short at the end.
            out.write_all(&[0xe2, 0x80]).expect("write");
        }
        assert_eq!(
            String::from_utf8(bytes).expect("UTF-8"),
            "a\\x1b]2;x\\x07\tb\n\\u{202e}c\\u{85}\\xffd\\xe2\\x80"
        );
    }

    #[test]
    fn other_write_errors_still_fail() {
        let mut out = Tolerant::new(Full);
        assert!(writeln!(out, "one").is_err());
    }
}
