//! The values a template computes with, and their conversions (JavaScript's, as the K2HR3
//! engine runs on JavaScript).

use std::fmt;
use std::fmt::Write as _;

/// A value: a variable's content or the result of a formula.
///
/// Numbers are JavaScript numbers (64-bit floating point), as in the engine: `7 / 2` is `3.5`.
/// Objects keep their keys in the order they were given (the order of the variables file),
/// which is the order `foreach` visits them.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`, and what an unset variable reads as.
    Null,
    /// What a missing element reads as (JavaScript's `undefined`): it prints nothing, and most
    /// operators refuse it.
    Undefined,
    Bool(bool),
    Num(f64),
    Str(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The name of the value's type, as messages say it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Undefined => "undefined",
            Value::Bool(_) => "boolean",
            Value::Num(_) => "number",
            Value::Str(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Whether a condition with this value holds, as the engine decides: `false`, `null`, `''`
    /// do not, nor a number whose integer part (JavaScript's `parseInt` of its text) is 0 (so
    /// `0.1` does not; `Infinity` does, `NaN` does not), nor an array whose text is such a
    /// number (`[0]`); everything else (every object too) does.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null | Value::Undefined => false,
            Value::Bool(b) => *b,
            // `Infinity`, whose text is no integer, holds as in JavaScript.
            Value::Num(n) => {
                let i = parse_int(&number_to_string(*n));
                if i.is_nan() {
                    *n != 0.0 && !n.is_nan()
                } else {
                    i != 0.0
                }
            }
            Value::Str(s) => !s.is_empty(),
            Value::Array(_) => self.array_truth().unwrap_or(true),
            Value::Object(_) => true,
        }
    }

    /// How the engine sees an array as a condition or next to a boolean: by its text, `[]`
    /// true, `[0]` false, `[1]` true; `None` when its text is no number.
    pub(crate) fn array_truth(&self) -> Option<bool> {
        let text = self.to_text();
        string_to_number(&text)?;
        Some(text.is_empty() || parse_int(&text) != 0.0)
    }

    /// The value as text, as `{{= }}` prints it (JavaScript's `String(value)`): `null` prints
    /// nothing, numbers as JavaScript writes them, arrays their elements joined by commas,
    /// objects `[object Object]`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_text(&mut out);
        out
    }

    fn write_text(&self, out: &mut String) {
        match self {
            Value::Null | Value::Undefined => {}
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Num(n) => out.push_str(&number_to_string(*n)),
            Value::Str(s) => out.push_str(s),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_text(out);
                }
            }
            Value::Object(_) => out.push_str("[object Object]"),
        }
    }

    /// The value as compact JSON (for messages).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        write_json(self, &mut out);
        out
    }

    /// The element `key` of an array, an object or a string (JavaScript's `value[key]` with the
    /// key as text): `None` when there is none.
    pub fn element(&self, key: &Value) -> Option<Value> {
        let key = match key {
            Value::Str(s) => s.clone(),
            other => other.to_text(),
        };
        match self {
            Value::Array(items) => array_index(&key).and_then(|i| items.get(i)).cloned(),
            Value::Object(entries) => entries
                .iter()
                .rev()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.clone()),
            Value::Str(s) => {
                let i = array_index(&key)?;
                let unit = *s.encode_utf16().collect::<Vec<u16>>().get(i)?;
                Some(Value::Str(String::from_utf16_lossy(&[unit])))
            }
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// An array index written as JavaScript writes it (`0`, `12`, no sign, no leading zero).
fn array_index(key: &str) -> Option<usize> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse().ok()
}

/// The shortest digits of `abs` (Rust's, `digits` at `exponent`), with JavaScript's choice
/// where two of that length are equally close to the value: the even last digit
/// (`1916019183000419.25` prints as `…419.2`, where Rust writes `…419.3`).
fn even_on_tie(abs: f64, digits: String, exponent: i32) -> String {
    let Some(last) = digits.bytes().last().map(|b| b - b'0') else {
        return digits;
    };
    if last % 2 == 0 {
        return digits;
    }
    // The value's exact expansion (a tie has one digit more than `digits`, then zeros).
    let exact = format!("{abs:.100e}");
    let exact: String = exact
        .split_once('e')
        .map_or("", |(m, _)| m)
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let head = &digits[..digits.len() - 1];
    let k = digits.len();
    if !exact.starts_with(head)
        || exact.len() <= k + 1
        || !exact[k + 1..].bytes().all(|b| b == b'0')
    {
        return digits;
    }
    let (low, high) = match (exact.as_bytes()[k - 1] - b'0', exact.as_bytes()[k]) {
        // Halfway between `last - 1` and `last`, or between `last` and `last + 1`.
        (d, b'5') if d + 1 == last => (d, last),
        (d, b'5') if d == last && last < 9 => (last, last + 1),
        _ => return digits,
    };
    let even = if low % 2 == 0 { low } else { high };
    let other = format!("{head}{even}");
    let back: Option<f64> = format!("{}.{}0e{exponent}", &other[..1], &other[1..])
        .parse()
        .ok();
    if back == Some(abs) { other } else { digits }
}

/// A number as JavaScript's `String(n)` writes it: integers without a fraction, the shortest
/// digits that read back as the same number, an exponent from 1e21 up and below 1e-6.
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_owned();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if n == 0.0 {
        return "0".to_owned();
    }
    // Rust's `{:e}` gives the shortest digits that round-trip, and the exponent.
    let formatted = format!("{:e}", n.abs());
    let (mantissa, exponent) = formatted.split_once('e').unwrap_or((&formatted, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits = even_on_tie(n.abs(), digits, exponent);
    let k = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    let point = exponent + 1;
    let mut out = String::new();
    if n < 0.0 {
        out.push('-');
    }
    if k <= point && point <= 21 {
        out.push_str(&digits);
        for _ in 0..point - k {
            out.push('0');
        }
    } else if 0 < point && point <= 21 {
        let (int, frac) = digits.split_at(usize::try_from(point).unwrap_or(0));
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if -6 < point && point <= 0 {
        out.push_str("0.");
        for _ in 0..-point {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push(if point - 1 < 0 { '-' } else { '+' });
        let _ = write!(out, "{}", (point - 1).abs());
    }
    out
}

/// A string's number as JavaScript's `Number(text)` reads it: spaces around it ignored, empty
/// text `0`, decimal with a sign, a fraction and an exponent, `0x`/`0o`/`0b` integers,
/// `Infinity`; `None` where JavaScript gives `NaN`.
pub fn string_to_number(text: &str) -> Option<f64> {
    let t = text.trim_matches(is_js_space);
    if t.is_empty() {
        return Some(0.0);
    }
    let lower = t.to_ascii_lowercase();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = lower.strip_prefix(prefix) {
            if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
                return None;
            }
            return Some(digits_value(digits, radix));
        }
    }
    let (sign, unsigned) = match t.as_bytes()[0] {
        b'-' => (-1.0, &t[1..]),
        b'+' => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    if unsigned == "Infinity" {
        return Some(sign * f64::INFINITY);
    }
    if !is_decimal_literal(unsigned) {
        return None;
    }
    unsigned.parse::<f64>().ok().map(|v| sign * v)
}

/// JavaScript's `parseInt(text)`: the integer at the start of the text (spaces before it, a
/// sign, `0x` for hexadecimal), `NaN` when there is none.
pub(crate) fn parse_int(text: &str) -> f64 {
    let t = text.trim_start_matches(is_js_space);
    let (sign, t) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, &t[1..]),
        Some(b'+') => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    let (digits, radix) = match t.get(..2) {
        Some("0x" | "0X") => (&t[2..], 16),
        _ => (t, 10),
    };
    let len = digits.chars().take_while(|c| c.is_digit(radix)).count();
    if len == 0 {
        return f64::NAN;
    }
    sign * digits_value(&digits[..len], radix)
}

/// The value of digits in a radix, as a JavaScript number (rounded as JavaScript rounds).
pub(crate) fn digits_value(digits: &str, radix: u32) -> f64 {
    if let Ok(v) = u64::from_str_radix(digits, radix) {
        #[allow(clippy::cast_precision_loss, reason = "JavaScript numbers are doubles")]
        return v as f64;
    }
    if radix == 10 {
        return digits.parse().unwrap_or(f64::INFINITY);
    }
    // Past 2^64: a big-number string in decimal, then the nearest double.
    let mut decimal: Vec<u32> = vec![0];
    for c in digits.chars() {
        let mut carry = c.to_digit(radix).unwrap_or(0);
        for d in decimal.iter_mut().rev() {
            let v = *d * radix + carry;
            *d = v % 10;
            carry = v / 10;
        }
        while carry > 0 {
            decimal.insert(0, carry % 10);
            carry /= 10;
        }
    }
    let text: String = decimal
        .iter()
        .map(|d| char::from_digit(*d, 10).unwrap_or('0'))
        .collect();
    text.parse().unwrap_or(f64::INFINITY)
}

/// `1`, `1.`, `.5`, `1.5e-3`: JavaScript's `StrUnsignedDecimalLiteral`.
fn is_decimal_literal(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp_digits == 0 {
            return false;
        }
        i += exp_digits;
    }
    i == b.len()
}

/// JavaScript's white space and line terminators (what `Number(text)` trims).
fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// Compact JSON, keys in their order (JavaScript's `JSON.stringify`).
fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Undefined => out.push_str("undefined"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Num(n) if n.is_finite() => out.push_str(&number_to_string(*n)),
        Value::Null | Value::Num(_) => out.push_str("null"),
        Value::Str(s) => write_json_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(entries) => {
            out.push('{');
            for (i, (key, item)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(key, out);
                out.push(':');
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

fn write_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Values read from JSON (a variables file), object keys in document order; numbers are
/// doubles, as JavaScript's `JSON.parse` reads them.
impl<'de> serde::Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    #[allow(clippy::cast_precision_loss, reason = "JavaScript numbers are doubles")]
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Num(v as f64))
    }

    #[allow(clippy::cast_precision_loss, reason = "JavaScript numbers are doubles")]
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Num(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Num(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries: Vec<(String, Value)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            // A repeated key keeps its first place and its last value, as JSON.parse does.
            if let Some(slot) = entries.iter_mut().find(|(k, _)| *k == key) {
                slot.1 = value;
            } else {
                entries.push((key, value));
            }
        }
        Ok(Value::Object(entries))
    }
}
