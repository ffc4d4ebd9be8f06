//! Python's `json.loads` (the C scanner, `strict=True`), which Heat applies to a `json`
//! parameter's string (`jsonutils.loads`) and to `str_split`'s and `yaql`'s inputs: what it
//! accepts (`NaN`, `Infinity`, `-Infinity` besides JSON), what it refuses and its error texts
//! (`Expecting value: line 1 column 1 (char 0)`), with positions counted in characters.
//!
//! One reader for every caller: the value is built by a [`Build`] the caller gives (the
//! evaluator's Python values, the linter's lengths, or nothing at all). Arrays and objects are
//! read without recursion, so only the caller's depth bounds the nesting.

use crate::document::Span;

/// How a caller builds the values [`loads`] reads.
pub trait Build {
    type Value;
    /// `null`.
    fn null(&mut self) -> Self::Value;
    /// `true` or `false`.
    fn boolean(&mut self, value: bool) -> Self::Value;
    /// A number: its text, and whether Python makes it a `float` (a fraction or an exponent,
    /// `NaN`, `Infinity`, `-Infinity`) rather than an `int`.
    fn number(&mut self, text: &str, float: bool) -> Self::Value;
    /// A string, as code points: escaped surrogate pairs joined, a lone surrogate kept (Python
    /// keeps it in its `str`).
    fn string(&mut self, code_points: &[u32]) -> Self::Value;
    /// An array's items, in order.
    fn list(&mut self, items: Vec<Self::Value>) -> Self::Value;
    /// An object's entries, in the text's order (a repeated key is repeated here: a `dict`
    /// keeps its first place and its last value).
    fn object(&mut self, entries: Vec<(Vec<u32>, Self::Value)>) -> Self::Value;
}

/// What [`read`] meets, in the text's order, each with its byte span: the [`Build`] calls, and
/// besides them the opening of each array and object (before its items) and each key (before
/// its value), for a caller that numbers what it builds in the order of the text (a
/// [`crate::Document`]'s nodes).
pub trait Events {
    type Value;
    type Key;
    /// An array (`array`) or object opens at byte `at`; its items follow, then [`Events::list`]
    /// or [`Events::object`] closes it.
    fn open(&mut self, at: usize, array: bool);
    fn null(&mut self, span: Span) -> Self::Value;
    fn boolean(&mut self, value: bool, span: Span) -> Self::Value;
    /// A number's text (as [`Build::number`]).
    fn number(&mut self, text: &str, float: bool, span: Span) -> Self::Value;
    /// A string value, from its opening quote to after its closing one.
    fn string(&mut self, code_points: &[u32], span: Span) -> Self::Value;
    /// An object's key, before its value is read.
    fn key(&mut self, code_points: Vec<u32>, span: Span) -> Self::Key;
    fn list(&mut self, items: Vec<Self::Value>, span: Span) -> Self::Value;
    fn object(&mut self, entries: Vec<(Self::Key, Self::Value)>, span: Span) -> Self::Value;
}

/// A [`Build`] seen as [`Events`]: spans and openings dropped.
struct Plain<'b, B>(&'b mut B);

impl<B: Build> Events for Plain<'_, B> {
    type Value = B::Value;
    type Key = Vec<u32>;
    fn open(&mut self, _: usize, _: bool) {}
    fn null(&mut self, _: Span) -> B::Value {
        self.0.null()
    }
    fn boolean(&mut self, value: bool, _: Span) -> B::Value {
        self.0.boolean(value)
    }
    fn number(&mut self, text: &str, float: bool, _: Span) -> B::Value {
        self.0.number(text, float)
    }
    fn string(&mut self, code_points: &[u32], _: Span) -> B::Value {
        self.0.string(code_points)
    }
    fn key(&mut self, code_points: Vec<u32>, _: Span) -> Vec<u32> {
        code_points
    }
    fn list(&mut self, items: Vec<B::Value>, _: Span) -> B::Value {
        self.0.list(items)
    }
    fn object(&mut self, entries: Vec<(Vec<u32>, B::Value)>, _: Span) -> B::Value {
        self.0.object(entries)
    }
}

/// Why a text does not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadsError {
    /// A `ValueError`: Python's text, `msg: line L column C (char P)` for a `JSONDecodeError`
    /// (or `int()`'s own, without a place, for an integer of more digits than Python reads).
    Syntax(String),
    /// An array (`array: true`) or object opened deeper than the depth the caller allows.
    TooDeep { array: bool },
}

/// Reads `text` as `json.loads(text)` does, building its value with `build`; an array or
/// object nested deeper than `max_depth` ends the reading ([`LoadsError::TooDeep`]).
///
/// # Errors
/// Python's error for a text it refuses, or the depth reached.
pub fn loads<B: Build>(
    text: &str,
    max_depth: usize,
    build: &mut B,
) -> Result<B::Value, LoadsError> {
    read(text, max_depth, &mut Plain(build))
}

/// [`loads`], telling `events` what it meets with its place in the text.
///
/// # Errors
/// Python's error for a text it refuses, or the depth reached.
pub fn read<E: Events>(
    text: &str,
    max_depth: usize,
    events: &mut E,
) -> Result<E::Value, LoadsError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        i: 0,
        max_depth,
    };
    if text.starts_with('\u{feff}') {
        return Err(reader.syntax("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0));
    }
    reader.ws();
    let value = reader.value(events)?;
    reader.ws();
    if reader.i < reader.bytes.len() {
        return Err(reader.syntax("Extra data", reader.i));
    }
    Ok(value)
}

/// A [`Build`] that keeps nothing: whether a text decodes, and Python's error when not.
#[derive(Debug)]
pub struct Check;

impl Build for Check {
    type Value = ();
    fn null(&mut self) {}
    fn boolean(&mut self, _: bool) {}
    fn number(&mut self, _: &str, _: bool) {}
    fn string(&mut self, _: &[u32]) {}
    fn list(&mut self, _: Vec<()>) {}
    fn object(&mut self, _: Vec<(Vec<u32>, ())>) {}
}

/// A string's code points as Rust text: a lone surrogate (which Rust's `str` cannot hold)
/// becomes U+FFFD.
pub fn code_points_to_string(code_points: &[u32]) -> String {
    code_points
        .iter()
        .map(|&c| char::from_u32(c).unwrap_or('\u{FFFD}'))
        .collect()
}

/// An array or object being read: where it opened, its items so far (and, for an object, the
/// key whose value is read next).
enum Open<V, K> {
    List(usize, Vec<V>),
    Map(usize, Vec<(K, V)>, Option<K>),
}

/// The reader walks the text's bytes; Python counts characters, which only an error's place
/// needs ([`Reader::syntax`]). Every byte the grammar looks at is ASCII, so a byte index at
/// one of them is the start of a character.
struct Reader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    /// A byte offset, at the start of a character.
    i: usize,
    max_depth: usize,
}

impl Reader<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    /// `JSONDecodeError`'s text for `what` at byte `at` (a character's start), placed in
    /// characters as Python places it.
    fn syntax(&self, what: &str, at: usize) -> LoadsError {
        let before = &self.text[..at.min(self.text.len())];
        let char_at = before.chars().count();
        let line = memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1;
        let column = match before.rfind('\n') {
            Some(newline) => before[newline..].chars().count(),
            None => char_at + 1,
        };
        LoadsError::Syntax(format!(
            "{what}: line {line} column {column} (char {char_at})"
        ))
    }

    fn ws(&mut self) {
        while matches!(self.at(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn starts(&self, word: &str) -> bool {
        self.bytes[self.i..].starts_with(word.as_bytes())
    }

    /// `scan_once`: a value with the arrays and objects it holds, the containers still open
    /// kept in a list.
    fn value<E: Events>(&mut self, events: &mut E) -> Result<E::Value, LoadsError> {
        let mut open: Vec<Open<E::Value, E::Key>> = Vec::new();
        loop {
            let Some(mut done) = self.start(&mut open, events)? else {
                continue;
            };
            // Hand the value to the containers it closes.
            loop {
                let Some(container) = open.last_mut() else {
                    return Ok(done);
                };
                let closing = match container {
                    Open::List(_, items) => {
                        items.push(done);
                        b']'
                    }
                    Open::Map(_, entries, key) => {
                        let key = key
                            .take()
                            .expect("an object's key is read before its value");
                        entries.push((key, done));
                        b'}'
                    }
                };
                self.ws();
                match self.at(self.i) {
                    Some(b',') => {
                        self.i += 1;
                        self.ws();
                        if let Some(Open::Map(_, _, key)) = open.last_mut() {
                            *key = Some(self.key(events)?);
                        }
                        break;
                    }
                    Some(c) if c == closing => {
                        self.i += 1;
                        let end = self.i;
                        done = match open.pop() {
                            Some(Open::List(start, items)) => {
                                events.list(items, Span::new(start, end))
                            }
                            Some(Open::Map(start, entries, _)) => {
                                events.object(entries, Span::new(start, end))
                            }
                            None => unreachable!("a container was open"),
                        };
                    }
                    _ => return Err(self.syntax("Expecting ',' delimiter", self.i)),
                }
            }
        }
    }

    /// Reads what starts at the current character: a whole value (`Some`), or the opening of a
    /// non-empty array or object, pushed onto `open` (`None`; an object's first key read).
    fn start<E: Events>(
        &mut self,
        open: &mut Vec<Open<E::Value, E::Key>>,
        events: &mut E,
    ) -> Result<Option<E::Value>, LoadsError> {
        let Some(c) = self.at(self.i) else {
            return Err(self.syntax("Expecting value", self.i));
        };
        let start = self.i;
        match c {
            b'{' | b'[' if open.len() >= self.max_depth => {
                Err(LoadsError::TooDeep { array: c == b'[' })
            }
            b'[' => {
                events.open(start, true);
                self.i += 1;
                self.ws();
                if self.at(self.i) == Some(b']') {
                    self.i += 1;
                    return Ok(Some(events.list(Vec::new(), Span::new(start, self.i))));
                }
                open.push(Open::List(start, Vec::new()));
                Ok(None)
            }
            b'{' => {
                events.open(start, false);
                self.i += 1;
                self.ws();
                if self.at(self.i) == Some(b'}') {
                    self.i += 1;
                    return Ok(Some(events.object(Vec::new(), Span::new(start, self.i))));
                }
                let key = self.key(events)?;
                open.push(Open::Map(start, Vec::new(), Some(key)));
                Ok(None)
            }
            b'"' => {
                let string = self.string()?;
                Ok(Some(events.string(&string, Span::new(start, self.i))))
            }
            _ => {
                for (word, value) in [("null", None), ("true", Some(true)), ("false", Some(false))]
                {
                    if self.starts(word) {
                        self.i += word.len();
                        let span = Span::new(start, self.i);
                        return Ok(Some(match value {
                            None => events.null(span),
                            Some(b) => events.boolean(b, span),
                        }));
                    }
                }
                for word in ["NaN", "Infinity", "-Infinity"] {
                    if self.starts(word) {
                        self.i += word.len();
                        return Ok(Some(events.number(word, true, Span::new(start, self.i))));
                    }
                }
                let (end, float) = self
                    .number()
                    .ok_or_else(|| self.syntax("Expecting value", self.i))?;
                let text = &self.text[self.i..end];
                if !float {
                    // `int()` of the digits: Python's limit on their number.
                    crate::scalar::within_digit_limit(text.trim_start_matches('-'))
                        .map_err(LoadsError::Syntax)?;
                }
                self.i = end;
                Ok(Some(events.number(text, float, Span::new(start, end))))
            }
        }
    }

    /// An object's key and the `:` after it (the value is read next).
    fn key<E: Events>(&mut self, events: &mut E) -> Result<E::Key, LoadsError> {
        self.ws();
        if self.at(self.i) != Some(b'"') {
            return Err(self.syntax("Expecting property name enclosed in double quotes", self.i));
        }
        let start = self.i;
        let key = self.string()?;
        let key = events.key(key, Span::new(start, self.i));
        self.ws();
        if self.at(self.i) != Some(b':') {
            return Err(self.syntax("Expecting ':' delimiter", self.i));
        }
        self.i += 1;
        self.ws();
        Ok(key)
    }

    /// `_match_number_unicode` at the current character: the end of the number and whether it
    /// is a float; `None` where no number starts.
    fn number(&self) -> Option<(usize, bool)> {
        let digit = |i: usize| self.at(i).is_some_and(|c| c.is_ascii_digit());
        let mut j = self.i;
        if self.at(j) == Some(b'-') {
            j += 1;
        }
        match self.at(j) {
            Some(b'0') => j += 1,
            Some(b'1'..=b'9') => {
                while digit(j) {
                    j += 1;
                }
            }
            _ => return None,
        }
        let mut float = false;
        if self.at(j) == Some(b'.') && digit(j + 1) {
            float = true;
            j += 1;
            while digit(j) {
                j += 1;
            }
        }
        if matches!(self.at(j), Some(b'e' | b'E')) {
            let mut k = j + 1;
            if matches!(self.at(k), Some(b'+' | b'-')) {
                k += 1;
            }
            if digit(k) {
                float = true;
                j = k;
                while digit(j) {
                    j += 1;
                }
            }
        }
        Some((j, float))
    }

    /// `scanstring_unicode` at the opening quote: the string's code points.
    fn string(&mut self) -> Result<Vec<u32>, LoadsError> {
        let quote = self.i;
        let unterminated = |reader: &Self| reader.syntax("Unterminated string starting at", quote);
        self.i += 1;
        let mut out = Vec::new();
        loop {
            // A run of characters taken as they are.
            let run = self.i;
            while let Some(b) = self.at(self.i) {
                if b == b'"' || b == b'\\' || b <= 0x1f {
                    break;
                }
                self.i += 1;
            }
            out.extend(self.text[run..self.i].chars().map(u32::from));
            let Some(c) = self.at(self.i) else {
                return Err(unterminated(self));
            };
            self.i += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' => {
                    let Some(escaped) = self.at(self.i) else {
                        return Err(unterminated(self));
                    };
                    let unit = match escaped {
                        b'"' | b'\\' | b'/' => u32::from(escaped),
                        b'b' => 8,
                        b'f' => 12,
                        b'n' => 10,
                        b'r' => 13,
                        b't' => 9,
                        b'u' => {
                            self.i += 1;
                            self.escape()?
                        }
                        _ => return Err(self.syntax("Invalid \\escape", self.i - 1)),
                    };
                    if escaped != b'u' {
                        self.i += 1;
                    }
                    out.push(unit);
                }
                _ => return Err(self.syntax("Invalid control character at", self.i - 1)),
            }
        }
    }

    /// A `\uXXXX` escape after its `u` (at `self.i - 1`), and the `\uXXXX` of a low surrogate
    /// right after a high one: the C scanner's rules, which want a character after the four
    /// digits (else `Invalid \uXXXX escape`) and look for the low half only where six more
    /// characters and one after them remain.
    fn escape(&mut self) -> Result<u32, LoadsError> {
        let u = self.i - 1;
        let code = self
            .hex4(self.i)
            .filter(|_| self.i + 4 < self.bytes.len())
            .ok_or_else(|| self.syntax("Invalid \\uXXXX escape", u))?;
        self.i += 4;
        if (0xd800..0xdc00).contains(&code)
            && self.text[self.i..].chars().nth(6).is_some()
            && self.at(self.i) == Some(b'\\')
            && self.at(self.i + 1) == Some(b'u')
        {
            let low = self
                .hex4(self.i + 2)
                .ok_or_else(|| self.syntax("Invalid \\uXXXX escape", self.i + 1))?;
            if (0xdc00..0xe000).contains(&low) {
                self.i += 6;
                return Ok(0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00));
            }
        }
        Ok(code)
    }

    /// Four hexadecimal digits at byte `at`.
    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.bytes.get(at..at + 4)?;
        digits
            .iter()
            .try_fold(0, |code, &c| Some(code * 16 + char::from(c).to_digit(16)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code points of the first string of a small value, to check what was read.
    struct Show;

    impl Build for Show {
        type Value = String;
        fn null(&mut self) -> String {
            "None".into()
        }
        fn boolean(&mut self, value: bool) -> String {
            if value { "True" } else { "False" }.into()
        }
        fn number(&mut self, text: &str, float: bool) -> String {
            format!("{}{text}", if float { "f" } else { "i" })
        }
        fn string(&mut self, code_points: &[u32]) -> String {
            let units: Vec<String> = code_points.iter().map(|c| format!("{c:x}")).collect();
            format!("s[{}]", units.join(" "))
        }
        fn list(&mut self, items: Vec<String>) -> String {
            format!("[{}]", items.join(", "))
        }
        fn object(&mut self, entries: Vec<(Vec<u32>, String)>) -> String {
            let entries: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| format!("{}: {v}", self.string(&k)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }

    fn err(text: &str) -> String {
        match loads(text, 200, &mut Check) {
            Err(LoadsError::Syntax(message)) => message,
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn gives_pythons_messages() {
        // Each answer is CPython 3's `json.loads` (Heat's interpreter).
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
            // The four digits need a character after them.
            (
                "\"\\u1234",
                "Invalid \\uXXXX escape: line 1 column 3 (char 2)",
            ),
            (
                "\"\\ud800\\u12\"",
                "Invalid \\uXXXX escape: line 1 column 9 (char 8)",
            ),
            (
                "\"\\ud800\\uzzzz\"",
                "Invalid \\uXXXX escape: line 1 column 9 (char 8)",
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
        let limit = "Exceeds the limit (4300 digits) for integer string conversion: value has \
                     4301 digits; use sys.set_int_max_str_digits() to increase the limit";
        let long = "1".repeat(4301);
        // Raised as the number is read, before a later mistake; the sign is not a digit; a
        // float has no limit.
        assert_eq!(err(&format!("[{long}, ]")), limit);
        assert_eq!(err(&format!("-{long}")), limit);
        assert!(
            loads(
                &format!("[{long}.5, {long}e1, {}]", &long[1..]),
                200,
                &mut Check
            )
            .is_ok()
        );
        for (text, message) in cases {
            assert_eq!(err(text), message, "{text:?}");
        }
    }

    #[test]
    fn reads_values_as_python_does() {
        let show = |text: &str| loads(text, 200, &mut Show).expect(text);
        assert_eq!(
            show(" {\"a\": [1, 2.5, -0, 1E+5, 1e5], \"a\": null} "),
            "{s[61]: [i1, f2.5, i-0, f1E+5, f1e5], s[61]: None}"
        );
        assert_eq!(
            show("[NaN, -Infinity, true, false]"),
            "[fNaN, f-Infinity, True, False]"
        );
        // A surrogate pair joins; a lone surrogate stays; a high one before a non-low escape
        // stays alone.
        assert_eq!(show("\"\\ud83d\\ude00x\""), "s[1f600 78]");
        assert_eq!(show("\"\\udc00\\ud800\""), "s[dc00 d800]");
        assert_eq!(show("\"\\ud800\\u0041\""), "s[d800 41]");
        assert_eq!(show("[[], {}]"), "[[], {}]");
        assert_eq!(code_points_to_string(&[0x41, 0xd800]), "A\u{FFFD}");
    }

    #[test]
    fn stops_past_the_callers_depth_without_recursion() {
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        assert!(loads(&nested(200), 200, &mut Check).is_ok());
        assert_eq!(
            loads(&nested(201), 200, &mut Check),
            Err(LoadsError::TooDeep { array: true })
        );
        assert_eq!(
            loads("{\"a\": {\"b\": 1}}", 1, &mut Check),
            Err(LoadsError::TooDeep { array: false })
        );
        // Far deeper than any stack: the same answer, no overflow.
        assert_eq!(
            loads(&nested(1_000_000), 987, &mut Check),
            Err(LoadsError::TooDeep { array: true })
        );
    }
}
