//! Reading inputs with a bound: a template can be no larger than Heat's limit, so hotfix never
//! reads more than a few times that (a `/dev/zero`, a 1 GB JSON file in the tree, a FIFO that
//! never ends are not read whole).

use std::io::{self, Read as _};
use std::path::Path;

/// How many bytes hotfix reads of one input at most: Heat's limit counts characters, and a
/// character has at most 4 bytes in UTF-8, so a template within the limit always fits.
pub(crate) const BOUND: usize = 4 * hotfix_yaml::MAX_TEMPLATE_SIZE;

/// An input, read up to [`BOUND`].
#[derive(Debug)]
pub(crate) enum Input {
    Whole(Vec<u8>),
    /// Longer than [`BOUND`]: its first bytes (for telling what it is) and, counted as the
    /// rest streamed by without being kept, its length in characters as Heat would count them.
    TooLarge {
        head: Vec<u8>,
        chars: usize,
        /// False when the input was too long to be counted to its end (`chars` is then a lower
        /// bound).
        exact: bool,
    },
}

/// Reads a file (a regular file, a FIFO, `/dev/stdin`, …) up to the bound.
pub(crate) fn file(path: &Path) -> io::Result<Input> {
    let file = std::fs::File::open(path)?;
    // A regular file's size says how much to set aside: one allocation, not a growing series
    // of them (which, over thousands of files and threads, fragments the allocator's memory).
    let size = file
        .metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)
        .and_then(|m| usize::try_from(m.len()).ok())
        .unwrap_or(0);
    stream(file, size)
}

/// Reads a file as [`file`] does, but its first `prefix` bytes first: when `skip` finds in them
/// a reason not to read on, that reason (the rest is never read).
pub(crate) fn file_unless<T>(
    path: &Path,
    prefix: usize,
    skip: impl FnOnce(&[u8]) -> Option<T>,
) -> io::Result<Result<Input, T>> {
    let mut file = std::fs::File::open(path)?;
    let size = file
        .metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)
        .and_then(|m| usize::try_from(m.len()).ok())
        .unwrap_or(0);
    let mut head = Vec::with_capacity(size.min(prefix));
    (&mut file).take(prefix as u64).read_to_end(&mut head)?;
    if let Some(reason) = skip(&head) {
        return Ok(Err(reason));
    }
    stream(io::Cursor::new(head).chain(file), size).map(Ok)
}

/// Reads standard input up to the bound.
pub(crate) fn stdin() -> io::Result<Input> {
    stream(io::stdin().lock(), 0)
}

/// Reads `reader` up to the bound; `size` is what it is expected to hold (0 when unknown).
fn stream(mut reader: impl io::Read, size: usize) -> io::Result<Input> {
    // One more byte than expected, to see the end without growing.
    let mut head = Vec::with_capacity(size.min(BOUND) + 1);
    (&mut reader)
        .take(BOUND as u64 + 1)
        .read_to_end(&mut head)?;
    if head.len() <= BOUND {
        return Ok(Input::Whole(head));
    }
    // Count what follows in characters (UTF-8 lead bytes), keeping nothing of it, and stop
    // counting far past the limit: the message only needs to say by how much it is over.
    let mut chars = count_chars(&head);
    let mut buffer = vec![0; 64 * 1024];
    let mut read = head.len();
    let mut exact = false;
    while read < 64 * BOUND {
        let n = reader.read(&mut buffer)?;
        if n == 0 {
            exact = true;
            break;
        }
        chars += count_chars(&buffer[..n]);
        read += n;
    }
    head.truncate(64 * 1024);
    Ok(Input::TooLarge { head, chars, exact })
}

/// Characters in UTF-8 bytes: every byte that is not a continuation byte.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_input_within_the_bound_whole() {
        let Input::Whole(bytes) = stream(&b"heat_template_version: pike\n"[..], 28).expect("read")
        else {
            panic!("whole");
        };
        assert_eq!(bytes.len(), 28);
    }

    #[test]
    fn an_endless_input_is_not_read_whole() {
        let Input::TooLarge { head, chars, exact } = stream(io::repeat(b'a'), 0).expect("read")
        else {
            panic!("too large");
        };
        assert_eq!(head.len(), 64 * 1024);
        assert!(chars > hotfix_yaml::MAX_TEMPLATE_SIZE);
        assert!(!exact);
    }

    #[test]
    fn a_file_is_read_past_its_first_bytes_only_when_they_say_to() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f");
        let text = "x".repeat(100);
        std::fs::write(&path, &text).expect("write");
        let mut seen = 0;
        let skipped = file_unless(&path, 10, |head| {
            seen = head.len();
            Some("no")
        })
        .expect("read");
        assert!(matches!(skipped, Err("no")));
        assert_eq!(seen, 10);
        let Ok(Input::Whole(bytes)) = file_unless(&path, 10, |_| None::<()>).expect("read") else {
            panic!("whole");
        };
        assert_eq!(bytes, text.as_bytes());
    }

    #[test]
    fn counts_characters_as_heat_does() {
        let text = "é".repeat(BOUND / 2 + 10);
        let Input::TooLarge { chars, exact, .. } = stream(text.as_bytes(), 0).expect("read") else {
            panic!("too large");
        };
        assert_eq!(chars, BOUND / 2 + 10);
        assert!(exact);
    }
}
