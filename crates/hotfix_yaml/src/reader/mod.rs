//! hotfix's own YAML reader: libyaml 0.2.5's scanner and parser (the C code under PyYAML's
//! `CSafeLoader`, which Heat loads templates with), rewritten in safe Rust on byte offsets.
//!
//! [`Parser`] gives the events libyaml gives, with its marks, values, styles, tags and
//! anchors, and refuses what libyaml refuses with libyaml's problem text at libyaml's mark.
//! Scalars are borrowed from the text until a value needs cooking; comments are collected as
//! the scanner skips them. `tests/reader.rs` compares every event with libyaml's own on the
//! corpus and on generated documents.
//!
//! Not yet used by [`crate::parse`] (issue 29): the tree is still built from `granit-parser`.

mod parser;
mod scanner;

pub use parser::{Event, EventKind, Parser, Property};
pub use scanner::{ErrorKind, Mark, ReadError};

/// libyaml's reader refuses a character outside YAML's printable set (`#x9 | #xA | #xD |
/// [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`): the offset and
/// the character of the first.
pub fn unprintable(source: &str) -> Option<(usize, char)> {
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let bad = match b {
            b'\t' | b'\n' | b'\r' | 0x20..=0x7E => false,
            0..=0x1F | 0x7F => true,
            // U+0080..U+009F but NEL.
            0xC2 => matches!(bytes.get(i + 1), Some(0x80..=0x84 | 0x86..=0x9F)),
            // U+FFFE, U+FFFF.
            0xEF => {
                bytes.get(i + 1) == Some(&0xBF) && matches!(bytes.get(i + 2), Some(0xBE | 0xBF))
            }
            _ => false,
        };
        if bad {
            let c = source[i..].chars().next().unwrap_or('\0');
            return Some((i, c));
        }
        i += 1;
    }
    None
}

/// The reader's refusal of the first character [`unprintable`] finds.
pub fn check_printable(source: &str) -> Result<(), ReadError> {
    let Some((at, _)) = unprintable(source) else {
        return Ok(());
    };
    let mark = Mark {
        offset: at,
        line: 0,
        column: 0,
    };
    Err(ReadError {
        kind: ErrorKind::Reader,
        context: None,
        context_mark: mark,
        problem: "control characters are not allowed",
        problem_mark: mark,
    })
}
