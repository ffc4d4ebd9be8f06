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
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        Self {
            starts,
            ascii: text.is_ascii(),
        }
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
        let prefix = &text[start..offset];
        LineCol {
            line,
            byte_col,
            char_col: prefix.chars().count() + 1,
            utf16_col: prefix.chars().map(char::len_utf16).sum::<usize>() + 1,
        }
    }
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
    fn clamps_offsets_past_the_end_and_inside_characters() {
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 1).byte_col, 1);
        assert_eq!(index.position(text, 99).byte_col, 3);
    }
}
