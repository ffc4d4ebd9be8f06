//! Python's `json.loads`, keeping the order of keys (a `dict` keeps insertion order), with its
//! error texts for the usual mistakes (`Expecting value: line 1 column 1 (char 0)`).

use crate::value::{Value, insert};

/// Parses JSON text as `json.loads` does (`NaN`, `Infinity` and `-Infinity` accepted).
pub(crate) fn loads(text: &str) -> Result<Value, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut p = Parser {
        chars: &chars,
        i: 0,
    };
    p.ws();
    let value = p.value()?;
    p.ws();
    if p.i < chars.len() {
        return Err(p.error("Extra data", p.i));
    }
    Ok(value)
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

    fn value(&mut self) -> Result<Value, String> {
        let Some(&c) = self.chars.get(self.i) else {
            return Err(self.error("Expecting value", self.i));
        };
        match c {
            '{' => self.object(),
            '[' => self.array(),
            '"' => self.string().map(Value::Str),
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
                        return Ok(value);
                    }
                }
                self.number()
            }
        }
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

    fn array(&mut self) -> Result<Value, String> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.chars.get(self.i) == Some(&']') {
            self.i += 1;
            return Ok(Value::List(items));
        }
        loop {
            self.ws();
            items.push(self.value()?);
            self.ws();
            match self.chars.get(self.i) {
                Some(',') => self.i += 1,
                Some(']') => {
                    self.i += 1;
                    return Ok(Value::List(items));
                }
                _ => return Err(self.error("Expecting ',' delimiter", self.i)),
            }
        }
    }

    fn object(&mut self) -> Result<Value, String> {
        self.i += 1;
        let mut entries = Vec::new();
        self.ws();
        if self.chars.get(self.i) == Some(&'}') {
            self.i += 1;
            return Ok(Value::Map(entries));
        }
        loop {
            self.ws();
            if self.chars.get(self.i) != Some(&'"') {
                return Err(self.error("Expecting property name enclosed in double quotes", self.i));
            }
            let key = self.string()?;
            self.ws();
            if self.chars.get(self.i) != Some(&':') {
                return Err(self.error("Expecting ':' delimiter", self.i));
            }
            self.i += 1;
            self.ws();
            let value = self.value()?;
            insert(&mut entries, Value::Str(key), value);
            self.ws();
            match self.chars.get(self.i) {
                Some(',') => self.i += 1,
                Some('}') => {
                    self.i += 1;
                    return Ok(Value::Map(entries));
                }
                _ => return Err(self.error("Expecting ',' delimiter", self.i)),
            }
        }
    }
}
