//! The values a template computes with, and their conversions.

use std::fmt;
use std::fmt::Write as _;

/// A value: a variable's content or the result of a formula.
///
/// Numbers are 64-bit signed integers (the language has no other numbers). Objects keep their
/// keys in the order they were given (the order of the variables file), which is the order
/// `foreach` visits them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The name of the value's type, as messages say it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "number",
            Value::Str(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Whether a condition with this value holds: `false`, `null`, `0` and `''` do not,
    /// everything else (every array and object too) does.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::Str(s) => !s.is_empty(),
            Value::Array(_) | Value::Object(_) => true,
        }
    }

    /// The value as a number: numbers as they are, `true` 1, `false` and `null` 0, a string
    /// that is a number literal (decimal with an optional sign, `0x`, `0o`, `0b`, surrounding
    /// spaces allowed) its number; `None` otherwise.
    pub fn to_int(&self) -> Option<i64> {
        match self {
            Value::Null | Value::Bool(false) => Some(0),
            Value::Bool(true) => Some(1),
            Value::Int(n) => Some(*n),
            Value::Str(s) => parse_numeric_string(s),
            Value::Array(_) | Value::Object(_) => None,
        }
    }

    /// The value as text, as `{{= }}` prints it: strings as they are, numbers in decimal,
    /// `true`, `false`, `null`, arrays and objects as compact JSON.
    pub fn to_text(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            other => {
                let mut out = String::new();
                write_json(other, &mut out);
                out
            }
        }
    }

    /// The element at `index` of an array, or of the key `index` of an object; `None` when
    /// there is none.
    pub fn element(&self, index: &Value) -> Option<&Value> {
        match self {
            Value::Array(items) => {
                let i = index.to_int()?;
                usize::try_from(i).ok().and_then(|i| items.get(i))
            }
            Value::Object(entries) => {
                let key = match index {
                    Value::Str(s) => s.clone(),
                    Value::Int(n) => n.to_string(),
                    _ => return None,
                };
                entries
                    .iter()
                    .rev()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v)
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

/// A string's number, when the whole string (spaces around it aside) is one.
fn parse_numeric_string(s: &str) -> Option<i64> {
    let t = s.trim();
    let (negative, digits) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let magnitude = crate::syntax::parse_number_literal(digits).ok()?;
    if negative {
        magnitude.checked_neg()
    } else {
        Some(magnitude)
    }
}

/// Compact JSON, keys in their order.
fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(n) => out.push_str(&n.to_string()),
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

/// Values read from JSON (a variables file), object keys in document order. A number that is
/// not an integer in the 64-bit signed range is refused: the language has no other numbers.
impl<'de> serde::Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value whose numbers are integers between -2^63 and 2^63-1")
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

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        i64::try_from(v).map(Value::Int).map_err(|_| {
            E::custom(format_args!(
                "the number {v} is larger than 2^63-1, the largest number a K2HR3 template holds"
            ))
        })
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        Err(E::custom(format_args!(
            "the number {v} is not an integer: K2HR3 templates compute with integers only"
        )))
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
