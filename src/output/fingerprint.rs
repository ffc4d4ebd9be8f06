//! GitHub's `primaryLocationLineHash`, computed exactly as the `upload-sarif` action computes
//! it (github/codeql-action, `src/fingerprints.ts`), so that the fingerprints hotfix writes are
//! the ones GitHub would compute itself and alerts keep their identity across runs.
//!
//! The hash of a line is a rolling hash (base 37, wrapping 64-bit arithmetic) of the first 100
//! characters from the start of the line, counted in UTF-16 code units, skipping spaces and
//! tabs; `\r\n` and a lone `\r` count as `\n`. After the last character comes an end marker
//! (65535) and then zeros. Its text is the hash in lower-case hexadecimal without leading
//! zeros, then `:N` where N counts how many lines so far in the file had the same hash. Because
//! the hash looks past the end of the line, a line's fingerprint changes when it or the next
//! ~100 non-blank characters change, but not when lines are inserted or removed above it.

use std::collections::HashMap;

const BLOCK_SIZE: usize = 100;
const MOD: u64 = 37;
const TAB: u16 = b'\t' as u16;
const SPACE: u16 = b' ' as u16;
const LF: u16 = b'\n' as u16;
const CR: u16 = b'\r' as u16;
const EOF: u16 = 0xFFFF;

/// The fingerprint of every line of `text`: element `i` is line `i + 1`'s. A text ending with
/// a line break has one more line (the empty one after it), as in GitHub's computation.
pub(crate) fn line_hashes(text: &str) -> Vec<String> {
    let mut hasher = Hasher::new();
    for unit in text.encode_utf16() {
        hasher.process(unit);
    }
    hasher.process(EOF);
    for _ in 0..BLOCK_SIZE {
        if hasher.line_numbers[hasher.index].is_some() {
            hasher.output();
        }
        hasher.update(0);
    }
    hasher.hashes
}

struct Hasher {
    /// The last `BLOCK_SIZE` code units hashed.
    window: [u64; BLOCK_SIZE],
    /// For each slot of the window, the line that starts with that code unit.
    line_numbers: [Option<usize>; BLOCK_SIZE],
    hash: u64,
    first_mod: u64,
    index: usize,
    line_number: usize,
    line_start: bool,
    prev_cr: bool,
    counts: HashMap<u64, usize>,
    hashes: Vec<String>,
}

impl Hasher {
    fn new() -> Hasher {
        let mut first_mod = 1u64;
        for _ in 0..BLOCK_SIZE {
            first_mod = first_mod.wrapping_mul(MOD);
        }
        Hasher {
            window: [0; BLOCK_SIZE],
            line_numbers: [None; BLOCK_SIZE],
            hash: 0,
            first_mod,
            index: 0,
            line_number: 0,
            line_start: true,
            prev_cr: false,
            counts: HashMap::new(),
            hashes: Vec::new(),
        }
    }

    /// Reports the hash of the line whose first code unit is leaving the window.
    fn output(&mut self) {
        let count = self.counts.entry(self.hash).or_insert(0);
        *count += 1;
        // Lines leave the window in order, so the line number is always `hashes.len() + 1`.
        debug_assert_eq!(self.line_numbers[self.index], Some(self.hashes.len() + 1));
        self.hashes.push(format!("{:x}:{count}", self.hash));
        self.line_numbers[self.index] = None;
    }

    fn update(&mut self, current: u16) {
        let begin = self.window[self.index];
        let current = u64::from(current);
        self.window[self.index] = current;
        self.hash = MOD
            .wrapping_mul(self.hash)
            .wrapping_add(current)
            .wrapping_sub(self.first_mod.wrapping_mul(begin));
        self.index = (self.index + 1) % BLOCK_SIZE;
    }

    fn process(&mut self, mut current: u16) {
        // Spaces and tabs are skipped, and so is the `\n` of a `\r\n`.
        if current == SPACE || current == TAB || (self.prev_cr && current == LF) {
            self.prev_cr = false;
            return;
        }
        if current == CR {
            current = LF;
            self.prev_cr = true;
        } else {
            self.prev_cr = false;
        }
        if self.line_numbers[self.index].is_some() {
            self.output();
        }
        if self.line_start {
            self.line_start = false;
            self.line_number += 1;
            self.line_numbers[self.index] = Some(self.line_number);
        }
        if current == LF {
            self.line_start = true;
        }
        self.update(current);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectors of codeql-action's own `src/fingerprints.test.ts`.
    #[test]
    fn matches_the_vectors_of_codeql_action() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["c129715d7a2bc9a3:1"]),
            (
                " a\nb\n  \t\tc\n d",
                &[
                    "271789c17abda88f:1",
                    "54703d4cd895b18:1",
                    "180aee12dab6264:1",
                    "a23a3dc5e078b07b:1",
                ],
            ),
            (
                " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
                &[
                    "8b7cf3e952e7aeb2:1",
                    "b1ae1287ec4718d9:1",
                    "bff680108adb0fcc:1",
                    "c6805c5e1288b612:1",
                    "b86d3392aea1be30:1",
                    "e6ceba753e1a442:1",
                ],
            ),
            (
                " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n",
                NORMALISED,
            ),
            (
                " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r",
                NORMALISED,
            ),
            (
                " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
                NORMALISED,
            ),
            (
                " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n",
                NORMALISED,
            ),
            (
                "x = 2\nx = 1\nprint(x)\nx = 3\nprint(x)\nx = 4\nprint(x)\n",
                &[
                    "e54938cc54b302f1:1",
                    "bb609acbe9138d60:1",
                    "1131fd5871777f34:1",
                    "5c482a0f8b35ea28:1",
                    "54517377da7028d2:1",
                    "2c644846cb18d53e:1",
                    "f1b89f20de0d133:1",
                    "c129715d7a2bc9a3:1",
                ],
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(line_hashes(input), *expected, "{input:?}");
        }
    }

    const NORMALISED: &[&str] = &[
        "e9496ae3ebfced30:1",
        "fb7c023a8b9ccb3f:1",
        "ce8ba1a563dcdaca:1",
        "e20e36e16fcb0cc8:1",
        "b3edc88f2938467e:1",
        "c8e28b0b4002a3a0:1",
        "c129715d7a2bc9a3:1",
    ];

    /// Identical windows get the `:N` occurrence suffix.
    #[test]
    fn counts_repeated_hashes() {
        assert_eq!(
            line_hashes(&"Lorem ipsum dolor sit amet.\n".repeat(10)),
            [
                "a7f2ff13bc495cf2:1",
                "a7f2ff13bc495cf2:2",
                "a7f2ff13bc495cf2:3",
                "a7f2ff13bc495cf2:4",
                "a7f2ff13bc495cf2:5",
                "a7f2ff13bc495cf2:6",
                "a7f2ff1481e87703:1",
                "a9cf91f7bbf1862b:1",
                "55ec222b86bcae53:1",
                "cc97dc7b1d7d8f7b:1",
                "c129715d7a2bc9a3:1",
            ]
        );
    }

    /// The end-to-end vectors of codeql-action's `src/testdata/fingerprinting.expected.sarif`:
    /// `testFile1.js` line 1 and `testFile2.js` line 2.
    #[test]
    fn matches_the_end_to_end_vectors_of_codeql_action() {
        let file1 = "var a = 0;\nvar b = 0;\nvar c = 0;\nvar d = 0;\n";
        assert_eq!(line_hashes(file1)[0], "5e4d5a9cf1294ad9:1");
        let file2 = "var foo = 0;\nvar bar = 0;\nvar baz = 0;\nvar qux = 0;\n";
        assert_eq!(line_hashes(file2)[1], "f7592a95a9381ac0:1");
    }

    #[test]
    fn gives_every_line_a_hash() {
        for text in ["a", "a\n", "a\r\nb\rc\n\n", "é𝄞\u{2028}x", "\u{feff}x: 1\n"] {
            let lines = hotfix_yaml::LineIndex::new(text);
            assert_eq!(line_hashes(text).len(), lines.line_count(), "{text:?}");
        }
    }
}
