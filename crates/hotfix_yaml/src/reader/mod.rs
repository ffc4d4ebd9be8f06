//! hotfix's own YAML reader: libyaml 0.2.5's scanner and parser (the C code under PyYAML's
//! `CSafeLoader`, which Heat loads templates with), rewritten in safe Rust on byte offsets.
//!
//! [`Parser`] gives the events libyaml gives, with its marks, values, styles, tags and
//! anchors, and refuses what libyaml refuses with libyaml's problem text at libyaml's mark.
//! Scalars are borrowed from the text until a value needs cooking; comments are collected as
//! the scanner skips them. `tests/reader.rs` compares every event with libyaml's own on the
//! corpus and on generated documents.
//!
//! [`Parser::pure`] reads with PyYAML 6.0.3's pure-Python rules instead (`scanner.py`,
//! `parser.py`), which Heat's `simple_parse` tries when libyaml refuses a text: a mode of the
//! same code, which differs where those rules differ (tabs are never white space between
//! tokens, `?` ends a plain scalar in a flow collection, a block scalar's header takes no
//! comment without a space, tags end at a space only, unknown directives are skipped, a
//! byte-order mark is skipped only at the start, surrogate escapes, the texts of refusals).
//!
//! [`crate::parse`] builds its tree on this reader (`build.rs`), with libyaml's rules first and
//! the pure rules where those refuse, as Heat loads a template.

mod parser;
mod scanner;
mod swar;

pub use parser::{Event, EventKind, Parser, Property};
pub use scanner::{ErrorKind, Mark, ReadError};

/// libyaml's reader refuses a character outside YAML's printable set (`#x9 | #xA | #xD |
/// [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`): the offset and
/// the character of the first.
pub fn unprintable(source: &str) -> Option<(usize, char)> {
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Eight bytes at a time while all are in 0x20..=0x7E; else straight to the first that
        // is not (a tab or a line break, mostly).
        if let Some(x) = swar::word(bytes, i) {
            let odd = swar::below(x, 0x20) | ((x.wrapping_add(swar::ONES) | x) & swar::HIGHS);
            if odd == 0 {
                i += 8;
                continue;
            }
            i += swar::first(odd);
        }
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

/// The reader's refusal of the first character [`unprintable`] finds (`pure`: with the text
/// of PyYAML's pure-Python reader, which refuses the same characters).
pub fn check_printable(source: &str, pure: bool) -> Result<(), ReadError> {
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
        context_mark: None,
        problem: std::borrow::Cow::Borrowed(if pure {
            "special characters are not allowed"
        } else {
            "control characters are not allowed"
        }),
        problem_mark: mark,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader's rule, one character at a time.
    fn naive(source: &str) -> Option<(usize, char)> {
        source.char_indices().find(|&(_, c)| {
            let v = u32::from(c);
            !(matches!(v, 0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF)
                || (0xE000..=0xFFFD).contains(&v)
                || (0x10000..=0x10_FFFF).contains(&v))
        })
    }

    #[test]
    fn unprintable_finds_what_the_reader_refuses_at_any_alignment() {
        let probes = [
            '\0', '\x07', '\t', '\n', '\r', '\x1f', ' ', '~', '\x7f', '\u{80}', '\u{85}', '\u{9f}',
            '\u{a0}', 'é', '\u{2028}', '\u{feff}', '\u{fffd}', '\u{fffe}', '\u{ffff}', '🙂',
        ];
        for probe in probes {
            for before in 0..17 {
                for after in [0, 1, 9] {
                    let text = format!("{}{probe}{}", "a".repeat(before), "b".repeat(after));
                    assert_eq!(unprintable(&text), naive(&text), "{text:?}");
                }
            }
        }
        assert_eq!(unprintable("key: value\n  - \u{7f}"), Some((15, '\u{7f}')));
    }
}
