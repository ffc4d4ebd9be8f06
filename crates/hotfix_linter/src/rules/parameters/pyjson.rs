//! Whether Python's `json.loads` (the C scanner, `strict=True`) accepts a string, and if not,
//! its exact error text (`Expecting value: line 1 column 1 (char 0)`).
//!
//! Heat parses a `json` parameter's string value with `jsonutils.loads`, which is
//! `json.loads`: it accepts `NaN`, `Infinity` and `-Infinity`, rejects control characters in
//! strings, and reports the first error with a line, column and character offset.

/// How deep arrays and objects may nest before the answer is declared unknown.
const MAX_DEPTH: usize = 200;

/// `Ok(())` when `json.loads(text)` succeeds, `Err(message)` with Python's message when it
/// fails, `None` when nesting is too deep to tell.
pub(in crate::rules) fn loads(text: &str) -> Option<Result<(), String>> {
    let chars: Vec<char> = text.chars().collect();
    if chars.first() == Some(&'\u{feff}') {
        return Some(Err(error(
            &chars,
            "Unexpected UTF-8 BOM (decode using utf-8-sig)",
            0,
        )));
    }
    let mut scanner = Scanner {
        s: &chars,
        depth: 0,
    };
    let start = scanner.skip_ws(0);
    let end = match scanner.value(start) {
        Ok(end) => end,
        Err(Failure::At(message, pos)) => return Some(Err(error(&chars, message, pos))),
        Err(Failure::TooDeep) => return None,
    };
    let end = scanner.skip_ws(end);
    if end != chars.len() {
        return Some(Err(error(&chars, "Extra data", end)));
    }
    Some(Ok(()))
}

/// `len(json.loads(text))` for a document whose top level is an array, an object (repeated
/// keys count once, as in a `dict`) or a string; `None` for anything else or invalid JSON.
pub(super) fn top_level_len(text: &str) -> Option<usize> {
    if !matches!(loads(text), Some(Ok(()))) {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut scanner = Scanner {
        s: &chars,
        depth: 0,
    };
    let start = scanner.skip_ws(0);
    match scanner.at(start)? {
        '"' => Some(scanner.decode(start + 1)?.0.len()),
        '[' => {
            let mut i = scanner.skip_ws(start + 1);
            if scanner.at(i) == Some(']') {
                return Some(0);
            }
            let mut count = 0;
            loop {
                i = scanner.value(i).ok()?;
                count += 1;
                i = scanner.skip_ws(i);
                match scanner.at(i)? {
                    ',' => i = scanner.skip_ws(i + 1),
                    _ => return Some(count),
                }
            }
        }
        '{' => {
            let mut keys: Vec<Vec<u32>> = Vec::new();
            let mut i = scanner.skip_ws(start + 1);
            if scanner.at(i) == Some('}') {
                return Some(0);
            }
            loop {
                let (key, end) = scanner.decode(i + 1)?;
                if !keys.contains(&key) {
                    keys.push(key);
                }
                i = scanner.skip_ws(end);
                i = scanner.skip_ws(i + 1); // the `:`
                i = scanner.value(i).ok()?;
                i = scanner.skip_ws(i);
                match scanner.at(i)? {
                    ',' => i = scanner.skip_ws(i + 1),
                    _ => return Some(keys.len()),
                }
            }
        }
        _ => None,
    }
}

/// `JSONDecodeError`'s text: `msg: line L column C (char P)`.
fn error(s: &[char], message: &str, pos: usize) -> String {
    let before = s.get(..pos).unwrap_or(s);
    let line = before.iter().filter(|&&c| c == '\n').count() + 1;
    let column = match before.iter().rposition(|&c| c == '\n') {
        Some(newline) => pos - newline,
        None => pos + 1,
    };
    format!("{message}: line {line} column {column} (char {pos})")
}

enum Failure {
    At(&'static str, usize),
    TooDeep,
}

struct Scanner<'s> {
    s: &'s [char],
    depth: usize,
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

impl Scanner<'_> {
    fn at(&self, i: usize) -> Option<char> {
        self.s.get(i).copied()
    }

    fn skip_ws(&self, mut i: usize) -> usize {
        while self.at(i).is_some_and(is_ws) {
            i += 1;
        }
        i
    }

    fn literal(&self, i: usize, word: &str) -> bool {
        word.chars()
            .enumerate()
            .all(|(k, c)| self.at(i + k) == Some(c))
    }

    /// `scan_once`: the value at `i`, returning the index after it.
    fn value(&mut self, i: usize) -> Result<usize, Failure> {
        let expecting = Failure::At("Expecting value", i);
        match self.at(i) {
            None => Err(expecting),
            Some('"') => self.string(i + 1),
            Some('{') => self.nested(i, true),
            Some('[') => self.nested(i, false),
            Some('n') if self.literal(i, "null") => Ok(i + 4),
            Some('t') if self.literal(i, "true") => Ok(i + 4),
            Some('f') if self.literal(i, "false") => Ok(i + 5),
            Some('N') if self.literal(i, "NaN") => Ok(i + 3),
            Some('I') if self.literal(i, "Infinity") => Ok(i + 8),
            Some('-') if self.literal(i + 1, "Infinity") => Ok(i + 9),
            Some(_) => self.number(i).ok_or(expecting),
        }
    }

    fn nested(&mut self, i: usize, object: bool) -> Result<usize, Failure> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Failure::TooDeep);
        }
        let result = if object {
            self.object(i + 1)
        } else {
            self.array(i + 1)
        };
        self.depth -= 1;
        result
    }

    /// `_match_number_unicode`.
    fn number(&self, start: usize) -> Option<usize> {
        let digit = |i: usize| self.at(i).is_some_and(|c| c.is_ascii_digit());
        let mut i = start;
        if self.at(i) == Some('-') {
            i += 1;
        }
        match self.at(i) {
            Some('1'..='9') => {
                i += 1;
                while digit(i) {
                    i += 1;
                }
            }
            Some('0') => i += 1,
            _ => return None,
        }
        if self.at(i) == Some('.') && digit(i + 1) {
            i += 2;
            while digit(i) {
                i += 1;
            }
        }
        if matches!(self.at(i), Some('e' | 'E')) {
            let e_start = i;
            i += 1;
            if matches!(self.at(i), Some('-' | '+')) {
                i += 1;
            }
            let digits_start = i;
            while digit(i) {
                i += 1;
            }
            if i == digits_start {
                i = e_start;
            }
        }
        Some(i)
    }

    /// `scanstring_unicode`, after the opening quote at `begin - 1`.
    fn string(&self, begin: usize) -> Result<usize, Failure> {
        let quote = begin - 1;
        let mut i = begin;
        loop {
            match self.at(i) {
                None => return Err(Failure::At("Unterminated string starting at", quote)),
                Some('"') => return Ok(i + 1),
                Some('\\') => {
                    i += 1;
                    match self.at(i) {
                        None => return Err(Failure::At("Unterminated string starting at", quote)),
                        Some('"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't') => i += 1,
                        Some('u') => {
                            let u = i;
                            if u + 5 >= self.s.len() {
                                return Err(Failure::At("Invalid \\uXXXX escape", u));
                            }
                            let hex: String = self
                                .s
                                .get(u + 1..u + 5)
                                .unwrap_or_default()
                                .iter()
                                .collect();
                            let Ok(code) = u32::from_str_radix(&hex, 16) else {
                                return Err(Failure::At("Invalid \\uXXXX escape", u));
                            };
                            if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                                return Err(Failure::At("Invalid \\uXXXX escape", u));
                            }
                            i = u + 5;
                            // A high surrogate followed by `\u`: the low half must be hex too.
                            if (0xd800..0xdc00).contains(&code)
                                && i + 6 < self.s.len()
                                && self.at(i) == Some('\\')
                                && self.at(i + 1) == Some('u')
                            {
                                let low: String = self
                                    .s
                                    .get(i + 2..i + 6)
                                    .unwrap_or_default()
                                    .iter()
                                    .collect();
                                if !low.chars().all(|c| c.is_ascii_hexdigit()) {
                                    return Err(Failure::At("Invalid \\uXXXX escape", i + 1));
                                }
                                i += 6;
                            }
                        }
                        Some(_) => return Err(Failure::At("Invalid \\escape", i - 1)),
                    }
                }
                Some(c) if u32::from(c) <= 0x1f => {
                    return Err(Failure::At("Invalid control character at", i));
                }
                Some(_) => i += 1,
            }
        }
    }

    /// The code points of a valid string starting after its quote (surrogate pairs joined,
    /// as Python does), and the index after its closing quote.
    fn decode(&self, begin: usize) -> Option<(Vec<u32>, usize)> {
        let mut out: Vec<u32> = Vec::new();
        let mut i = begin;
        loop {
            match self.at(i)? {
                '"' => return Some((out, i + 1)),
                '\\' => {
                    let c = self.at(i + 1)?;
                    i += 2;
                    let unit = match c {
                        'u' => {
                            let hex: String = self.s.get(i..i + 4)?.iter().collect();
                            i += 4;
                            u32::from_str_radix(&hex, 16).ok()?
                        }
                        'b' => 8,
                        'f' => 12,
                        'n' => 10,
                        'r' => 13,
                        't' => 9,
                        other => u32::from(other),
                    };
                    // A low surrogate right after a high one makes one character.
                    let joins = (0xdc00..0xe000).contains(&unit)
                        && out.last().is_some_and(|h| (0xd800..0xdc00).contains(h));
                    if joins {
                        if let Some(high) = out.pop() {
                            out.push(0x10000 + ((high - 0xd800) << 10) + (unit - 0xdc00));
                        }
                    } else {
                        out.push(unit);
                    }
                }
                c => {
                    out.push(u32::from(c));
                    i += 1;
                }
            }
        }
    }

    /// `_parse_object_unicode`, after `{`.
    fn object(&mut self, start: usize) -> Result<usize, Failure> {
        let mut i = self.skip_ws(start);
        if self.at(i) == Some('}') {
            return Ok(i + 1);
        }
        loop {
            if self.at(i) != Some('"') {
                return Err(Failure::At(
                    "Expecting property name enclosed in double quotes",
                    i,
                ));
            }
            i = self.string(i + 1)?;
            i = self.skip_ws(i);
            if self.at(i) != Some(':') {
                return Err(Failure::At("Expecting ':' delimiter", i));
            }
            i = self.skip_ws(i + 1);
            i = self.value(i)?;
            i = self.skip_ws(i);
            match self.at(i) {
                Some('}') => return Ok(i + 1),
                Some(',') => i = self.skip_ws(i + 1),
                _ => return Err(Failure::At("Expecting ',' delimiter", i)),
            }
        }
    }

    /// `_parse_array_unicode`, after `[`.
    fn array(&mut self, start: usize) -> Result<usize, Failure> {
        let mut i = self.skip_ws(start);
        if self.at(i) == Some(']') {
            return Ok(i + 1);
        }
        loop {
            i = self.value(i)?;
            i = self.skip_ws(i);
            match self.at(i) {
                Some(']') => return Ok(i + 1),
                Some(',') => i = self.skip_ws(i + 1),
                _ => return Err(Failure::At("Expecting ',' delimiter", i)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::loads;

    fn err(text: &str) -> String {
        match loads(text) {
            Some(Err(message)) => message,
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn gives_pythons_messages() {
        let cases = [
            ("", "Expecting value: line 1 column 1 (char 0)"),
            (" ", "Expecting value: line 1 column 2 (char 1)"),
            (
                "{a",
                "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
            ),
            (
                "{\"a\"",
                "Expecting ':' delimiter: line 1 column 5 (char 4)",
            ),
            (
                "{\"a\" 1}",
                "Expecting ':' delimiter: line 1 column 6 (char 5)",
            ),
            ("{\"a\": }", "Expecting value: line 1 column 7 (char 6)"),
            (
                "{\"a\": 1",
                "Expecting ',' delimiter: line 1 column 8 (char 7)",
            ),
            (
                "{\"a\": 1,}",
                "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)",
            ),
            ("[1,", "Expecting value: line 1 column 4 (char 3)"),
            ("[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"),
            ("[", "Expecting value: line 1 column 2 (char 1)"),
            (
                "\"abc",
                "Unterminated string starting at: line 1 column 1 (char 0)",
            ),
            (
                "\"a\nb\"",
                "Invalid control character at: line 1 column 3 (char 2)",
            ),
            ("\"\\q\"", "Invalid \\escape: line 1 column 2 (char 1)"),
            (
                "\"\\u12\"",
                "Invalid \\uXXXX escape: line 1 column 3 (char 2)",
            ),
            ("01", "Extra data: line 1 column 2 (char 1)"),
            ("-", "Expecting value: line 1 column 1 (char 0)"),
            ("nan", "Expecting value: line 1 column 1 (char 0)"),
            ("{\"a\":1}\n\nx", "Extra data: line 3 column 1 (char 9)"),
            (
                "\u{feff}{}",
                "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)",
            ),
            ("1.e5", "Extra data: line 1 column 2 (char 1)"),
            (
                "[1, {\"a\": [}]",
                "Expecting value: line 1 column 12 (char 11)",
            ),
            (
                "\"é\tx\"",
                "Invalid control character at: line 1 column 3 (char 2)",
            ),
            ("\u{a0}{}", "Expecting value: line 1 column 1 (char 0)"),
            ("Infinityx", "Extra data: line 1 column 9 (char 8)"),
            (
                "\"\\",
                "Unterminated string starting at: line 1 column 1 (char 0)",
            ),
            (
                "{\"a\":1,\n \"b\" 2}",
                "Expecting ':' delimiter: line 2 column 6 (char 13)",
            ),
            ("[-]", "Expecting value: line 1 column 2 (char 1)"),
            ("1e", "Extra data: line 1 column 2 (char 1)"),
        ];
        for (text, message) in cases {
            assert_eq!(err(text), message, "{text:?}");
        }
        assert_eq!(super::top_level_len("[1, [2, 3], {}]"), Some(3));
        assert_eq!(
            super::top_level_len(" {\"a\": 1, \"a\": 2, \"b\": []} "),
            Some(2)
        );
        assert_eq!(super::top_level_len("\"\\ud83d\\ude00x\""), Some(2));
        assert_eq!(super::top_level_len("5"), None);
        for ok in [
            "-Infinity",
            "NaN",
            "1e5",
            "1E+5",
            "-0",
            "  {}  ",
            "{\"a\":1, \"a\":2}",
            "{\"\\ud800\": 1}",
        ] {
            assert_eq!(loads(ok), Some(Ok(())), "{ok:?}");
        }
    }
}
