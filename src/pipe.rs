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

/// Standard error, locked, tolerant of a closed pipe.
pub(crate) fn stderr() -> Tolerant<io::StderrLock<'static>> {
    Tolerant::new(io::stderr().lock())
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
    fn other_write_errors_still_fail() {
        let mut out = Tolerant::new(Full);
        assert!(writeln!(out, "one").is_err());
    }
}
