//! Text from a repository, made safe for a terminal.
//!
//! A template is untrusted input: an `ESC` in a `description` can clear the screen or retitle
//! the terminal, a bidi override can make a line read as something it is not (the "Trojan
//! Source" trick). Whatever hotfix prints for a terminal shows such characters escaped, as
//! Rust writes them (`\x1b`, `\u{202e}`), so that they are seen and never acted upon.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether a terminal could act on `c` rather than show it: the C0 controls but for the line
/// feed and the tab, DEL, the C1 controls, and the bidi and direction marks (U+061C, U+200E,
/// U+200F, U+202A–U+202E, U+2066–U+2069).
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi(c)
}

/// The bidi embeddings, overrides and isolates, and the direction marks.
fn is_bidi(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// `text` with every [`is_unsafe`] character escaped; line feeds and tabs are kept.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_if(text, is_unsafe)
}

/// `text` as one line: [`escape`], and line feeds escaped too (`\n`), for the formats that give
/// a finding one line.
pub fn escape_line(text: &str) -> Cow<'_, str> {
    escape_if(text, |c| c == '\n' || is_unsafe(c))
}

/// The most characters of one line of a message, a label or a help that are shown: a message
/// that quotes a long value of the file (a parameter name of 60 KB) shows its start and its end.
/// hotfix's own texts stay whole (the longest, H615's list of protocols, is 2,077).
pub const MESSAGE_LINE: usize = 2_500;

/// [`escape`], then each line longer than [`MESSAGE_LINE`] characters cut in its middle
/// (`…[N chars cut]…`): a message, a label or a help for a terminal.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    shorten(escape(text))
}

/// [`escape_line`], then cut as [`for_terminal`] cuts.
pub fn for_terminal_line(text: &str) -> Cow<'_, str> {
    shorten(escape_line(text))
}

fn shorten(text: Cow<'_, str>) -> Cow<'_, str> {
    if text.len() <= MESSAGE_LINE || text.split('\n').all(|l| l.chars().count() <= MESSAGE_LINE) {
        return text;
    }
    let mut out = String::with_capacity(2 * MESSAGE_LINE);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let chars = line.chars().count();
        if chars <= MESSAGE_LINE {
            out.push_str(line);
            continue;
        }
        let keep = MESSAGE_LINE / 2;
        let head = line
            .char_indices()
            .nth(keep)
            .map_or(line.len(), |(at, _)| at);
        let tail = line
            .char_indices()
            .nth(chars - keep)
            .map_or(line.len(), |(at, _)| at);
        let _ = write!(
            out,
            "{}…[{} chars cut]…{}",
            &line[..head],
            chars - 2 * keep,
            &line[tail..]
        );
    }
    Cow::Owned(out)
}

/// How one character is shown when escaped: `\x1b` for an ASCII control, `\u{202e}` else.
pub fn escaped_char(c: char, out: &mut String) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if c.is_ascii() => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

fn escape_if(text: &str, unsafe_char: impl Fn(char) -> bool) -> Cow<'_, str> {
    let Some(first) = text.find(&unsafe_char) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if unsafe_char(c) {
            escaped_char(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi_but_keeps_line_feeds_and_tabs() {
        assert_eq!(
            escape("a\u{1b}]2;x\u{7}b\u{7f}\u{85}\u{202e}c\td\ne\r"),
            "a\\x1b]2;x\\x07b\\x7f\\u{85}\\u{202e}c\td\ne\\r"
        );
        assert!(matches!(escape("plain é 𝄞"), Cow::Borrowed(_)));
        assert_eq!(escape_line("a\nb\u{2066}"), "a\\nb\\u{2066}");
    }

    #[test]
    fn a_long_line_of_a_message_keeps_its_start_and_end() {
        let long = format!("`{}\u{1b}` is not declared\nhelp", "x".repeat(6_000));
        let shown = for_terminal(&long);
        assert!(
            shown.starts_with(&format!("`{}…[3522 chars cut]…", "x".repeat(1_249))),
            "{shown}"
        );
        assert!(shown.ends_with("x\\x1b` is not declared\nhelp"), "{shown}");
        assert!(matches!(for_terminal("short\nlines"), Cow::Borrowed(_)));
    }

    #[test]
    fn every_unsafe_class_is_unsafe() {
        for c in (0..0x20u32)
            .chain(0x7f..0xa0)
            .chain([0x61c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069])
            .filter_map(char::from_u32)
        {
            if c != '\n' && c != '\t' {
                assert!(is_unsafe(c), "{c:?}");
                assert!(!escape(&c.to_string()).chars().any(is_unsafe), "{c:?}");
            }
        }
        for c in ['a', ' ', 'é', '\u{200d}', '\u{a0}'] {
            assert!(!is_unsafe(c), "{c:?}");
        }
    }
}
