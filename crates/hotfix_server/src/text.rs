//! Positions as the Language Server Protocol counts them: a line and a character offset in the
//! negotiated encoding (UTF-16 code units by default, bytes for UTF-8), and the edits of
//! incremental synchronisation.

use lsp_types::{Position, Range};

/// How the client counts characters within a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
}

/// The start of every line of a text, as byte offsets. A line ends after `\n`, after `\r\n`,
/// and after a `\r` that no `\n` follows, as the protocol says.
#[derive(Clone, Debug)]
pub(crate) struct Lines {
    starts: Vec<usize>,
    /// What counts the characters of a line without walking it from its start, for the text
    /// the table was built from (none once an edit has changed the text): positions of many
    /// findings on one long line cost what the findings do, not the line's length each.
    counts: Option<hotfix_yaml::LineIndex>,
}

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            let breaks = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if breaks {
                starts.push(i + 1);
            }
        }
        Lines {
            starts,
            counts: Some(hotfix_yaml::LineIndex::new(text)),
        }
    }

    /// Brings the table up to date after the bytes `start..end` of the text were replaced by
    /// `inserted` bytes (`text` is the text after). A line break is a `\n`, or a `\r` that no
    /// `\n` follows: the breaks before `start - 1` and from the old `end` on are unchanged (the
    /// latter move by the difference in length); those in between are found again.
    fn replaced(&mut self, text: &str, start: usize, end: usize, inserted: usize) {
        self.counts = None;
        let bytes = text.as_bytes();
        // Line starts (after a break at p, a start at p + 1) that stay: those up to `start - 1`
        // (their breaks end before the byte at `start - 1`), and those past the old `end`.
        let keep_before = self.starts.partition_point(|&s| s < start).max(1);
        let keep_after = self.starts.partition_point(|&s| s <= end).max(keep_before);
        for s in &mut self.starts[keep_after..] {
            *s = *s - end + start + inserted;
        }
        let mut found = Vec::new();
        for p in start.saturating_sub(1)..start + inserted {
            let breaks =
                bytes[p] == b'\n' || (bytes[p] == b'\r' && bytes.get(p + 1) != Some(&b'\n'));
            if breaks && p + 1 > self.starts[keep_before - 1] {
                found.push(p + 1);
            }
        }
        self.starts.splice(keep_before..keep_after, found);
    }

    /// The byte range of a line, without its line break.
    fn line(&self, text: &str, line: usize) -> (usize, usize) {
        let start = self.starts[line];
        let mut end = self.starts.get(line + 1).copied().unwrap_or(text.len());
        let bytes = text.as_bytes();
        while end > start && matches!(bytes[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        (start, end)
    }

    /// The position of a byte offset (clamped to the text, moved back to a character boundary).
    pub(crate) fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let (start, end) = self.line(text, line);
        let to = offset.min(end).max(start);
        let character = match (encoding, &self.counts) {
            (Encoding::Utf8, _) => to - start,
            (Encoding::Utf16, Some(counts)) => counts.utf16_between(text, start, to),
            (Encoding::Utf16, None) => text[start..to].chars().map(char::len_utf16).sum(),
        };
        Position::new(as_u32(line), as_u32(character))
    }

    /// The byte offset of a position; a line past the end is the end of the text, a character
    /// past the end of its line is the end of the line (as the protocol says), and one inside a
    /// character is that character's start.
    pub(crate) fn offset(&self, text: &str, position: Position, encoding: Encoding) -> usize {
        self.offset_after(text, position, encoding, None).0
    }

    /// [`Lines::offset`], counting from `cursor` (a place of the same line, at or before the
    /// position) rather than from the line's start when it can; and the cursor of the offset
    /// found. Changes that follow one another along a line (typing, or a `didChange` of
    /// thousands of changes) then cost what they cover, not the length of the line each.
    fn offset_after(
        &self,
        text: &str,
        position: Position,
        encoding: Encoding,
        cursor: Option<Cursor>,
    ) -> (usize, Option<Cursor>) {
        let line = position.line as usize;
        if line >= self.starts.len() {
            return (text.len(), None);
        }
        let (start, end) = self.line(text, line);
        let wanted = position.character as usize;
        let (from, mut units) = match cursor {
            Some(c) if c.line == line && c.units <= wanted && c.byte <= end => (c.byte, c.units),
            _ => (start, 0),
        };
        for (i, c) in text[from..end].char_indices() {
            if units >= wanted {
                return (from + i, Some(Cursor::new(line, units, from + i)));
            }
            let width = match encoding {
                Encoding::Utf8 => c.len_utf8(),
                Encoding::Utf16 => c.len_utf16(),
            };
            if units + width > wanted {
                return (from + i, Some(Cursor::new(line, units, from + i)));
            }
            units += width;
        }
        (end, Some(Cursor::new(line, units, end)))
    }

    pub(crate) fn range(&self, text: &str, start: usize, end: usize, encoding: Encoding) -> Range {
        Range::new(
            self.position(text, start, encoding),
            self.position(text, end, encoding),
        )
    }

    /// The number of lines.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The byte offset where a line starts.
    pub(crate) fn start(&self, line: usize) -> usize {
        self.starts[line.min(self.starts.len() - 1)]
    }
}

/// A place in a line whose count of units from the line's start is known.
#[derive(Clone, Copy, Debug)]
struct Cursor {
    line: usize,
    /// Units (of the encoding) from the line's start.
    units: usize,
    /// Its byte offset in the text.
    byte: usize,
}

impl Cursor {
    fn new(line: usize, units: usize, byte: usize) -> Cursor {
        Cursor { line, units, byte }
    }

    /// The cursor after the bytes from `start` on were replaced, if it still holds: the text
    /// before `start` is unchanged, and so is its line when that line starts before `start`
    /// (a line starting at `start` may join the line before: a `\n` typed after a `\r`).
    fn after_edit(self, lines: &Lines, start: usize) -> Option<Cursor> {
        (self.byte <= start && lines.starts.get(self.line).is_some_and(|&s| s < start))
            .then_some(self)
    }
}

fn as_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Applies one change of incremental synchronisation: `range` replaced by `new`, or the whole
/// text when there is no range.
#[cfg(test)]
pub(crate) fn apply_change(text: &mut String, range: Option<Range>, new: &str, encoding: Encoding) {
    apply_changes(text, [(range, new)], encoding);
}

/// Applies the changes of one `didChange`, in order. The line table is built once and kept up
/// to date edit by edit (only the lines an edit touches are looked at again), not built anew
/// for every change: a message of 20,000 changes costs about what 20,000 small edits do.
pub(crate) fn apply_changes<'n>(
    text: &mut String,
    changes: impl IntoIterator<Item = (Option<Range>, &'n str)>,
    encoding: Encoding,
) {
    let mut lines: Option<Lines> = None;
    // Where the last change started: the next one usually starts there or just after.
    let mut cursor: Option<Cursor> = None;
    for (range, new) in changes {
        let Some(range) = range else {
            new.clone_into(text);
            lines = None;
            cursor = None;
            continue;
        };
        let table = lines.get_or_insert_with(|| Lines::new(text));
        let (start, at_start) = table.offset_after(text, range.start, encoding, cursor);
        let (end, _) = table.offset_after(text, range.end, encoding, at_start);
        let end = end.max(start);
        text.replace_range(start..end, new);
        table.replaced(text, start, end, new.len());
        cursor = at_start.and_then(|c| c.after_edit(table, start));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_table_kept_up_to_date_equals_one_built_anew() {
        // Edits at every place of a text with every kind of line break, including those that
        // join or split a `\r\n` pair.
        let base = "a\r\nb\rc\nd\r\n\r\ne";
        let inserts = ["", "\n", "\r", "x", "\r\n", "y\rz\n"];
        for start in 0..=base.len() {
            for end in start..=base.len() {
                for new in inserts {
                    let mut text = base.to_owned();
                    let mut lines = Lines::new(&text);
                    text.replace_range(start..end, new);
                    lines.replaced(&text, start, end, new.len());
                    assert_eq!(
                        lines.starts,
                        Lines::new(&text).starts,
                        "{base:?} {start}..{end} <- {new:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn many_changes_in_one_message_cost_little() {
        // 20,000 edits of the last line of a 20,000-line file, sent in one message.
        let mut text = "key: value\n".repeat(20_000);
        let changes: Vec<(Option<Range>, &str)> = (0..20_000u32)
            .map(|_| {
                let at = Position::new(20_000, 0);
                (Some(Range::new(at, at)), "#")
            })
            .collect();
        let started = std::time::Instant::now();
        apply_changes(&mut text, changes, Encoding::Utf16);
        assert_eq!(text.len(), 11 * 20_000 + 20_000);
        assert!(text.ends_with(&"#".repeat(20_000)));
        // Rebuilding the line table for every change (billions of bytes looked at) took
        // seconds; kept up to date, this takes milliseconds (the bound leaves room for a slow,
        // loaded machine and an unoptimised build).
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn changes_along_a_line_apply_as_each_alone_would() {
        // Typing along a line with characters of 1 to 4 bytes (2 UTF-16 units for 𝄞), then
        // edits that split and join lines (`\r` then `\n`), delete backwards and jump back:
        // counted from the last change or from the line's start, the same text.
        let base = "a: é𝄞xyz\r\nb: 𝄞é long line\rc\n";
        for encoding in [Encoding::Utf16, Encoding::Utf8] {
            let mut changes: Vec<(Range, String)> = Vec::new();
            let at = |line, character| Position::new(line, character);
            for i in 0..8 {
                changes.push((Range::new(at(1, 3 + i), at(1, 3 + i)), "é".to_owned()));
            }
            changes.push((Range::new(at(1, 5), at(1, 5)), "\r".to_owned()));
            changes.push((Range::new(at(2, 0), at(2, 0)), "\n".to_owned()));
            changes.push((Range::new(at(2, 2), at(2, 4)), "𝄞".to_owned()));
            changes.push((Range::new(at(2, 4), at(2, 5)), String::new()));
            changes.push((Range::new(at(0, 9), at(0, 9)), "q".to_owned()));
            changes.push((Range::new(at(0, 1), at(0, 3)), "\n\n".to_owned()));
            changes.push((Range::new(at(2, 0), at(3, 1)), "z".to_owned()));
            changes.push((Range::new(at(9, 0), at(9, 0)), "end".to_owned()));
            let mut batched = base.to_owned();
            apply_changes(
                &mut batched,
                changes.iter().map(|(r, t)| (Some(*r), t.as_str())),
                encoding,
            );
            let mut alone = base.to_owned();
            for (range, new) in &changes {
                apply_change(&mut alone, Some(*range), new, encoding);
            }
            assert_eq!(batched, alone, "{encoding:?}");
        }
    }

    #[test]
    fn positions_count_utf16_units_or_bytes() {
        let text = "a: é𝄞x\r\nb: 1\rc\n";
        let lines = Lines::new(text);
        assert_eq!(lines.len(), 4);
        let x = text.find('x').unwrap();
        assert_eq!(
            lines.position(text, x, Encoding::Utf16),
            Position::new(0, 6)
        );
        assert_eq!(lines.position(text, x, Encoding::Utf8), Position::new(0, 9));
        assert_eq!(lines.offset(text, Position::new(0, 6), Encoding::Utf16), x);
        assert_eq!(lines.offset(text, Position::new(0, 9), Encoding::Utf8), x);
        // Inside the surrogate pair: the character's start.
        let clef = text.find('𝄞').unwrap();
        assert_eq!(
            lines.offset(text, Position::new(0, 5), Encoding::Utf16),
            clef
        );
        // Past the end of the line: the end of the line, before `\r\n`.
        assert_eq!(
            lines.offset(text, Position::new(0, 99), Encoding::Utf16),
            x + 1
        );
        // A lone `\r` ends a line.
        let c = text.find('c').unwrap();
        assert_eq!(
            lines.position(text, c, Encoding::Utf16),
            Position::new(2, 0)
        );
        assert_eq!(
            lines.offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
    }

    #[test]
    fn incremental_changes_edit_the_text() {
        let mut text = "a: 1\nb: é\n".to_owned();
        let range = Range::new(Position::new(1, 3), Position::new(1, 4));
        apply_change(&mut text, Some(range), "x", Encoding::Utf16);
        assert_eq!(text, "a: 1\nb: x\n");
        apply_change(
            &mut text,
            Some(Range::new(Position::new(2, 0), Position::new(2, 0))),
            "c: 2\n",
            Encoding::Utf16,
        );
        assert_eq!(text, "a: 1\nb: x\nc: 2\n");
        apply_change(&mut text, None, "whole", Encoding::Utf16);
        assert_eq!(text, "whole");
    }
}
