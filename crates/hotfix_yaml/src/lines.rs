//! Line and column for byte offsets, in bytes, characters and UTF-16 code units.

/// A position: 1-based line, 1-based columns counted three ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column counted in bytes.
    pub byte_col: usize,
    /// 1-based column counted in Unicode scalar values (what editors call characters).
    pub char_col: usize,
    /// 1-based column counted in UTF-16 code units (what SARIF and LSP count).
    pub utf16_col: usize,
}

/// Where every line starts. Line breaks are `\n`, `\r\n` and a lone `\r`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<usize>,
    ascii: bool,
    /// For a text that is not ASCII, the characters and UTF-16 units before each multiple of
    /// [`BLOCK`] bytes: a column is then counted from the block it is in, not from its line's
    /// start (a one-line JSON template is one line of any length, and may have thousands of
    /// findings).
    blocks: Vec<(usize, usize)>,
}

/// The bytes between two entries of [`LineIndex::blocks`].
const BLOCK: usize = 1024;

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        // A line starts after `\n`, and after a `\r` not followed by one.
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n') {
                starts.push(i + 1);
            }
        }
        let ascii = text.is_ascii();
        let mut blocks = Vec::new();
        if !ascii {
            blocks.reserve(bytes.len() / BLOCK + 1);
            let mut counts = (0, 0);
            for block in bytes.chunks(BLOCK) {
                blocks.push(counts);
                counts = count(block, counts);
            }
            blocks.push(counts);
        }
        Self {
            starts,
            ascii,
            blocks,
        }
    }

    /// The characters and UTF-16 units of `text` (the text this index was built from) before
    /// the byte `offset`, a character boundary.
    fn counts(&self, text: &str, offset: usize) -> (usize, usize) {
        if self.ascii {
            return (offset, offset);
        }
        let block = offset / BLOCK;
        let before = self.blocks.get(block).copied().unwrap_or((0, 0));
        let from = (block * BLOCK).min(offset);
        count(&text.as_bytes()[from..offset], before)
    }

    /// The characters of `text` (the text this index was built from) from the byte `from` to
    /// the byte `to`, both character boundaries.
    pub fn chars_between(&self, text: &str, from: usize, to: usize) -> usize {
        self.counts(text, to).0 - self.counts(text, from).0
    }

    /// The UTF-16 code units of `text` (the text this index was built from) from the byte
    /// `from` to the byte `to`, both character boundaries.
    pub fn utf16_between(&self, text: &str, from: usize, to: usize) -> usize {
        self.counts(text, to).1 - self.counts(text, from).1
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The byte offset at which a 1-based line starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.starts.get(line.checked_sub(1)?).copied()
    }

    /// The position of `offset` in `text` (the text this index was built from). An offset
    /// past the end, or inside a character, is clamped to the nearest valid position before it.
    pub fn position(&self, text: &str, offset: usize) -> LineCol {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line - 1];
        let byte_col = offset - start + 1;
        if self.ascii {
            return LineCol {
                line,
                byte_col,
                char_col: byte_col,
                utf16_col: byte_col,
            };
        }
        let (chars_to_start, units_to_start) = self.counts(text, start);
        let (chars, units) = self.counts(text, offset);
        LineCol {
            line,
            byte_col,
            char_col: chars - chars_to_start + 1,
            utf16_col: units - units_to_start + 1,
        }
    }
}

/// `counts` (characters, UTF-16 units) after the UTF-8 `bytes` (which may begin or end inside
/// a character): a character starts at each byte that is not a continuation byte, and one of 4
/// bytes (from `0xF0`) takes two UTF-16 units.
fn count(bytes: &[u8], counts: (usize, usize)) -> (usize, usize) {
    let (mut chars, mut units) = counts;
    for &b in bytes {
        let starts = usize::from(b & 0xC0 != 0x80);
        chars += starts;
        units += starts + usize::from(b >= 0xF0);
    }
    (chars, units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_columns_in_bytes_chars_and_utf16() {
        let text = "a: 1\r\nb: \"é𝄞x\"\rc: 3";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 3);
        let x = text.find('x').unwrap();
        let pos = index.position(text, x);
        assert_eq!(pos.line, 2);
        // `b: "` is 4 bytes, `é` 2 bytes (1 UTF-16 unit), `𝄞` 4 bytes (2 UTF-16 units).
        assert_eq!(pos.byte_col, 11);
        assert_eq!(pos.char_col, 7);
        assert_eq!(pos.utf16_col, 8);
        let c = text.find('c').unwrap();
        assert_eq!(index.position(text, c).line, 3);
        assert_eq!(index.position(text, c).byte_col, 1);
    }

    #[test]
    fn columns_of_a_long_line_are_counted_as_from_its_start() {
        // Lines across many blocks, characters of 1 to 4 bytes straddling the blocks' edges.
        let line = "aé𝄞€".repeat(700);
        let text = format!("x\n{line}\r\n{line}é");
        let index = LineIndex::new(&text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let start = index.starts[index.starts.partition_point(|&s| s <= offset) - 1];
            let prefix = &text[start..offset];
            let at = index.position(&text, offset);
            assert_eq!(at.char_col, prefix.chars().count() + 1, "{offset}");
            assert_eq!(
                at.utf16_col,
                prefix.chars().map(char::len_utf16).sum::<usize>() + 1,
                "{offset}"
            );
            assert_eq!(
                index.chars_between(&text, start, offset),
                prefix.chars().count()
            );
            assert_eq!(
                index.utf16_between(&text, start, offset),
                prefix.chars().map(char::len_utf16).sum::<usize>()
            );
        }
    }

    #[test]
    fn clamps_offsets_past_the_end_and_inside_characters() {
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 1).byte_col, 1);
        assert_eq!(index.position(text, 99).byte_col, 3);
    }
}
