//! Python's `json.loads`, keeping the order of keys (a `dict` keeps insertion order), with its
//! error texts for the usual mistakes (`Expecting value: line 1 column 1 (char 0)`).

use crate::Fail;
use crate::value::{Dict, Value};

/// How deeply arrays and objects may nest: Python's decoder recurses once per level and
/// stops at its recursion limit. Measured with Heat's oracle (a `json` parameter's default):
/// 987 levels decode, 988 raise `RecursionError`. Heat deeper in its call stack (an engine
/// serving a request) stops earlier, never later, so an error past this depth is certain.
pub(crate) const MAX_DEPTH: usize = 987;

/// Parses JSON text as `json.loads` does (`NaN`, `Infinity` and `-Infinity` accepted). The
/// error is a `ValueError` with Python's text, or the `RecursionError` of a document nested
/// deeper than [`MAX_DEPTH`].
pub(crate) fn loads(text: &str) -> Result<Value, Fail> {
    let chars: Vec<char> = text.chars().collect();
    let mut p = Parser {
        chars: &chars,
        i: 0,
    };
    p.ws();
    let value = p.value().map_err(Invalid::into_fail)?;
    p.ws();
    if p.i < chars.len() {
        return Err(Fail::value_error(p.error("Extra data", p.i)));
    }
    Ok(value)
}

/// Why a document does not decode.
enum Invalid {
    /// A `ValueError` (`JSONDecodeError`): Python's text.
    Syntax(String),
    /// Nested deeper than [`MAX_DEPTH`]: in an array (`true`) or an object.
    TooDeep { array: bool },
}

impl Invalid {
    fn into_fail(self) -> Fail {
        match self {
            Invalid::Syntax(message) => Fail::value_error(message),
            Invalid::TooDeep { array } => Fail::new(
                "RecursionError",
                format!(
                    "maximum recursion depth exceeded while decoding a JSON {} from a unicode \
                     string",
                    if array { "array" } else { "object" }
                ),
            ),
        }
    }
}

impl From<String> for Invalid {
    fn from(message: String) -> Invalid {
        Invalid::Syntax(message)
    }
}

/// An array or object being read: its items so far (and, for an object, the key whose value
/// is read next).
enum Open {
    List(Vec<Value>),
    Map(Dict, String),
}

struct Parser<'c> {
    chars: &'c [char],
    i: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str, at: usize) -> String {
        let before = &self.chars[..at.min(self.chars.len())];
        let line = before.iter().filter(|&&c| c == '\n').count() + 1;
        let column = match before.iter().rposition(|&c| c == '\n') {
            Some(nl) => at - nl,
            None => at + 1,
        };
        format!("{what}: line {line} column {column} (char {at})")
    }

    fn ws(&mut self) {
        while self.i < self.chars.len() && matches!(self.chars[self.i], ' ' | '\t' | '\n' | '\r') {
            self.i += 1;
        }
    }

    fn starts(&self, word: &str) -> bool {
        let w: Vec<char> = word.chars().collect();
        self.chars.get(self.i..self.i + w.len()) == Some(&w[..])
    }

    /// A value, with the arrays and objects it holds: without recursion (the open containers
    /// are a list), so that only [`MAX_DEPTH`] bounds the nesting, as in Python.
    fn value(&mut self) -> Result<Value, Invalid> {
        let mut open: Vec<Open> = Vec::new();
        loop {
            let Some(mut done) = self.start(&mut open)? else {
                continue;
            };
            // Hand the value to the containers it closes.
            loop {
                let Some(container) = open.last_mut() else {
                    return Ok(done);
                };
                let closing = match container {
                    Open::List(items) => {
                        items.push(done);
                        ']'
                    }
                    Open::Map(entries, key) => {
                        entries.insert(Value::Str(std::mem::take(key)), done);
                        '}'
                    }
                };
                self.ws();
                match self.chars.get(self.i) {
                    Some(',') => {
                        self.i += 1;
                        self.ws();
                        if let Some(Open::Map(_, key)) = open.last_mut() {
                            *key = self.key()?;
                        }
                        break;
                    }
                    Some(&c) if c == closing => {
                        self.i += 1;
                        done = match open.pop() {
                            Some(Open::List(items)) => Value::List(items),
                            Some(Open::Map(entries, _)) => entries.into_value(),
                            None => return Ok(Value::None),
                        };
                    }
                    _ => return Err(self.error("Expecting ',' delimiter", self.i).into()),
                }
            }
        }
    }

    /// Reads what starts at the current character: a whole value (`Some`), or the opening of a
    /// non-empty array or object, pushed onto `open` (`None`; its first key read).
    fn start(&mut self, open: &mut Vec<Open>) -> Result<Option<Value>, Invalid> {
        let Some(&c) = self.chars.get(self.i) else {
            return Err(self.error("Expecting value", self.i).into());
        };
        match c {
            '{' | '[' if open.len() >= MAX_DEPTH => Err(Invalid::TooDeep { array: c == '[' }),
            '[' => {
                self.i += 1;
                self.ws();
                if self.chars.get(self.i) == Some(&']') {
                    self.i += 1;
                    return Ok(Some(Value::List(Vec::new())));
                }
                open.push(Open::List(Vec::new()));
                Ok(None)
            }
            '{' => {
                self.i += 1;
                self.ws();
                if self.chars.get(self.i) == Some(&'}') {
                    self.i += 1;
                    return Ok(Some(Value::Map(Vec::new())));
                }
                let key = self.key()?;
                open.push(Open::Map(Dict::default(), key));
                Ok(None)
            }
            '"' => Ok(Some(self.string().map(Value::Str)?)),
            _ => {
                for (word, value) in [
                    ("null", Value::None),
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                    ("NaN", Value::Float(f64::NAN)),
                    ("Infinity", Value::Float(f64::INFINITY)),
                    ("-Infinity", Value::Float(f64::NEG_INFINITY)),
                ] {
                    if self.starts(word) {
                        self.i += word.chars().count();
                        return Ok(Some(value));
                    }
                }
                Ok(Some(self.number()?))
            }
        }
    }

    /// An object's key and the `:` after it (the value is read next).
    fn key(&mut self) -> Result<String, Invalid> {
        self.ws();
        if self.chars.get(self.i) != Some(&'"') {
            return Err(self
                .error("Expecting property name enclosed in double quotes", self.i)
                .into());
        }
        let key = self.string()?;
        self.ws();
        if self.chars.get(self.i) != Some(&':') {
            return Err(self.error("Expecting ':' delimiter", self.i).into());
        }
        self.i += 1;
        self.ws();
        Ok(key)
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        let mut j = self.i;
        let at = |j: usize| self.chars.get(j).copied();
        if at(j) == Some('-') {
            j += 1;
        }
        match at(j) {
            Some('0') => j += 1,
            Some('1'..='9') => {
                while at(j).is_some_and(|c| c.is_ascii_digit()) {
                    j += 1;
                }
            }
            _ => return Err(self.error("Expecting value", start)),
        }
        let mut float = false;
        if at(j) == Some('.') && at(j + 1).is_some_and(|c| c.is_ascii_digit()) {
            float = true;
            j += 1;
            while at(j).is_some_and(|c| c.is_ascii_digit()) {
                j += 1;
            }
        }
        if matches!(at(j), Some('e' | 'E')) {
            let mut k = j + 1;
            if matches!(at(k), Some('+' | '-')) {
                k += 1;
            }
            if at(k).is_some_and(|c| c.is_ascii_digit()) {
                float = true;
                j = k;
                while at(j).is_some_and(|c| c.is_ascii_digit()) {
                    j += 1;
                }
            }
        }
        let text: String = self.chars[start..j].iter().collect();
        self.i = j;
        if float {
            return Ok(Value::Float(text.parse().unwrap_or(f64::NAN)));
        }
        Ok(text
            .parse::<i64>()
            .map_or_else(|_| Value::BigInt(text.clone()), Value::Int))
    }

    fn string(&mut self) -> Result<String, String> {
        let start = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(&c) = self.chars.get(self.i) else {
                return Err(self.error("Unterminated string starting at", start));
            };
            self.i += 1;
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let Some(&e) = self.chars.get(self.i) else {
                        return Err(self.error("Unterminated string starting at", start));
                    };
                    self.i += 1;
                    match e {
                        '"' => out.push('"'),
                        '\\' => out.push('\\'),
                        '/' => out.push('/'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        'u' => {
                            let code = self.hex4()?;
                            if (0xD800..0xDC00).contains(&code) && self.starts("\\u") {
                                let save = self.i;
                                self.i += 2;
                                let low = self.hex4()?;
                                if (0xDC00..0xE000).contains(&low) {
                                    let c = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                                    out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                                    continue;
                                }
                                self.i = save;
                            }
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err(self.error("Invalid \\escape", self.i - 2)),
                    }
                }
                c if (c as u32) < 0x20 => {
                    return Err(self.error("Invalid control character at", self.i - 1));
                }
                c => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits: String = self
            .chars
            .get(self.i..self.i + 4)
            .unwrap_or_default()
            .iter()
            .collect();
        if digits.len() != 4 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(self.error("Invalid \\uXXXX escape", self.i - 1));
        }
        self.i += 4;
        Ok(u32::from_str_radix(&digits, 16).unwrap_or(0))
    }
}

#[cfg(test)]
mod depth_tests {
    use super::*;

    fn nested(depth: usize, open: &str, close: &str) -> String {
        format!("{}1{}", open.repeat(depth), close.repeat(depth))
    }

    #[test]
    fn decodes_as_deep_as_heat_and_fails_past_it_as_heat_does() {
        // 987 levels decode in Heat's oracle, 988 raise (a json parameter's default).
        assert!(loads(&nested(MAX_DEPTH, "[", "]")).is_ok());
        assert!(loads(&nested(MAX_DEPTH, "{\"a\":", "}")).is_ok());
        let err = loads(&nested(MAX_DEPTH + 1, "[", "]")).expect_err("too deep");
        assert_eq!(err.class, "RecursionError");
        assert_eq!(
            err.message,
            "maximum recursion depth exceeded while decoding a JSON array from a unicode string"
        );
        let err = loads(&nested(MAX_DEPTH + 1, "{\"a\":", "}")).expect_err("too deep");
        assert_eq!(
            err.message,
            "maximum recursion depth exceeded while decoding a JSON object from a unicode string"
        );
        // Far deeper: the same error, and no overflow of hotfix's own stack.
        let err = loads(&nested(1_000_000, "[", "]")).expect_err("too deep");
        assert_eq!(err.class, "RecursionError");
        let err = loads("[1,]").expect_err("invalid");
        assert_eq!(err.class, "ValueError");
    }
}
