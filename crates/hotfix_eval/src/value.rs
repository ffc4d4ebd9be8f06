//! Python values as Heat's engine holds them after loading and resolving: `None`, `bool`,
//! `int`, `float`, `str`, `list`, `dict` (insertion-ordered), with Python's equality, `str()`,
//! `repr()` and `json.dumps` exactly where Heat's functions use them.

use std::fmt::Write as _;

use hotfix_yaml::{
    Document, Int, NodeId, NodeKind, ScalarValue, python_float_repr, python_float_str,
    write_json_string,
};

/// A Python value.
#[derive(Clone, Debug)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    /// An `int` outside `i64`: its decimal digits.
    BigInt(String),
    Float(f64),
    Str(String),
    List(Vec<Value>),
    /// A `dict`: entries in insertion order, keys unique by Python equality.
    Map(Vec<(Value, Value)>),
    /// Wallaby's 2-argument `if` with a false condition: the enclosing item is dropped.
    Ellipsis,
}

/// What one item of a value weighs in [`Value::weight`] besides its text: about the memory a
/// `Value` takes.
pub(crate) const ITEM_WEIGHT: usize = 32;

impl Value {
    /// About how many bytes of memory the value takes: [`ITEM_WEIGHT`] per item (the value,
    /// each item of a list, each key and value of a map) plus the bytes of its strings.
    /// Counting stops once past `cap` (the answer is then only more than `cap`), so that
    /// weighing costs no more than the budget it is weighed against.
    pub(crate) fn weight(&self, cap: usize) -> usize {
        let mut total = 0usize;
        let mut pending = vec![self];
        while let Some(v) = pending.pop() {
            total = total.saturating_add(ITEM_WEIGHT);
            match v {
                Value::Str(s) | Value::BigInt(s) => total = total.saturating_add(s.len()),
                Value::List(items) => pending.extend(items),
                Value::Map(entries) => {
                    for (k, v) in entries {
                        pending.push(k);
                        pending.push(v);
                    }
                }
                _ => {}
            }
            if total > cap {
                break;
            }
        }
        total
    }

    /// The value PyYAML (Heat's loader) constructs for `id`.
    pub fn from_node(doc: &Document, id: NodeId) -> Value {
        let id = doc.resolve(id);
        match &doc.node(id).kind {
            NodeKind::Scalar(s) => match &s.value {
                ScalarValue::Null => Value::None,
                ScalarValue::Bool(b) => Value::Bool(*b),
                ScalarValue::Int(Int::Small(n)) => Value::Int(*n),
                ScalarValue::Int(Int::Big(d)) => Value::BigInt(d.clone()),
                ScalarValue::Float(f) => Value::Float(*f),
                _ => Value::Str(s.text.to_string()),
            },
            NodeKind::Sequence { items, .. } => {
                Value::List(items.iter().map(|&i| Value::from_node(doc, i)).collect())
            }
            NodeKind::Mapping { .. } => Value::Map(
                doc.entries(id)
                    .iter()
                    .map(|e| (Value::from_node(doc, e.key), Value::from_node(doc, e.value)))
                    .collect(),
            ),
            NodeKind::Alias { .. } => Value::None,
        }
    }

    /// The value of a JSON document (an `--attrs` file, a JSON parameter).
    pub fn from_json(json: &serde_json::Value) -> Value {
        match json {
            serde_json::Value::Null => Value::None,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Value::Int(i)
                } else if n.is_u64() {
                    Value::BigInt(n.to_string())
                } else {
                    Value::Float(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            serde_json::Value::String(s) => Value::Str(s.clone()),
            serde_json::Value::Array(items) => {
                Value::List(items.iter().map(Value::from_json).collect())
            }
            serde_json::Value::Object(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| (Value::Str(k.clone()), Value::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// The value as the oracle prints it: `json.loads(json.dumps(value))` (keys become strings).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::None | Value::Ellipsis => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(n) => serde_json::Value::from(*n),
            Value::BigInt(d) => serde_json::from_str(d).unwrap_or(serde_json::Value::Null),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Value::Str(s) => serde_json::Value::String(s.clone()),
            Value::List(items) => {
                serde_json::Value::Array(items.iter().map(Value::to_json).collect())
            }
            Value::Map(entries) => {
                let mut map = serde_json::Map::new();
                for (k, v) in entries {
                    map.insert(k.json_key(), v.to_json());
                }
                serde_json::Value::Object(map)
            }
        }
    }

    /// `json.loads(json.dumps(value))`, order kept: keys become strings, tuples lists.
    #[must_use]
    pub fn json_roundtrip(&self) -> Value {
        match self {
            Value::Ellipsis => Value::None,
            Value::List(items) => Value::List(items.iter().map(Value::json_roundtrip).collect()),
            Value::Map(entries) => {
                let mut out = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    insert(&mut out, Value::Str(k.json_key()), v.json_roundtrip());
                }
                Value::Map(out)
            }
            other => other.clone(),
        }
    }

    /// A mapping key as `json.dumps` writes it (`True` → `true`).
    pub fn json_name(&self) -> String {
        self.json_key()
    }

    /// A key as `json.dumps` writes it.
    fn json_key(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            Value::None => "null".to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Float(f) => python_float_repr(*f),
            other => other.py_str(),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }

    /// Python truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Value::None | Value::Ellipsis => false,
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::BigInt(_) => true,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.is_empty(),
            Value::Map(m) => !m.is_empty(),
        }
    }

    /// A Python `collections.abc.Sequence` (str included).
    pub fn is_sequence(&self) -> bool {
        matches!(self, Value::Str(_) | Value::List(_))
    }

    /// `len()` of a str (in characters), list or dict.
    pub fn py_len(&self) -> Option<usize> {
        match self {
            Value::Str(s) => Some(s.chars().count()),
            Value::List(l) => Some(l.len()),
            Value::Map(m) => Some(m.len()),
            _ => None,
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            #[allow(
                clippy::cast_precision_loss,
                reason = "compared as Python compares int and float"
            )]
            Value::Int(n) => Some(*n as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// Python `==`.
    pub fn py_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::None, Value::None) | (Value::Ellipsis, Value::Ellipsis) => true,
            (Value::Str(a), Value::Str(b)) | (Value::BigInt(a), Value::BigInt(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Int(a), Value::Bool(b)) | (Value::Bool(b), Value::Int(a)) => {
                *a == i64::from(*b)
            }
            (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.py_eq(y))
            }
            (Value::Map(a), Value::Map(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| get(b, k).is_some_and(|w| v.py_eq(w)))
            }
            _ => match (self.number(), other.number()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }

    /// Python `x in self` for a list, dict (keys) or str (substring).
    pub fn py_contains(&self, x: &Value) -> Option<bool> {
        match self {
            Value::List(items) => Some(items.iter().any(|i| i.py_eq(x))),
            Value::Map(entries) => Some(entries.iter().any(|(k, _)| k.py_eq(x))),
            Value::Str(s) => x.as_str().map(|x| s.contains(x)),
            _ => None,
        }
    }

    /// Python `str()`.
    pub fn py_str(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            other => other.py_repr(),
        }
    }

    /// Python `repr()`.
    pub fn py_repr(&self) -> String {
        let mut out = String::new();
        self.write_repr(&mut out);
        out
    }

    fn write_repr(&self, out: &mut String) {
        match self {
            Value::None => out.push_str("None"),
            Value::Ellipsis => out.push_str("Ellipsis"),
            Value::Bool(true) => out.push_str("True"),
            Value::Bool(false) => out.push_str("False"),
            Value::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Value::BigInt(d) => out.push_str(d),
            Value::Float(f) => out.push_str(&python_float_str(*f)),
            Value::Str(s) => out.push_str(&str_repr(s)),
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write_repr(out);
                }
                out.push(']');
            }
            Value::Map(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.write_repr(out);
                    out.push_str(": ");
                    v.write_repr(out);
                }
                out.push('}');
            }
        }
    }

    /// Python's `type(x)` as printed in messages: `<class 'list'>`.
    pub fn py_type(&self) -> &'static str {
        match self {
            Value::None => "<class 'NoneType'>",
            Value::Ellipsis => "<class 'ellipsis'>",
            Value::Bool(_) => "<class 'bool'>",
            Value::Int(_) | Value::BigInt(_) => "<class 'int'>",
            Value::Float(_) => "<class 'float'>",
            // The oracle's attribute placeholder is a `str` subclass of its own.
            Value::Str(s) if is_attr_placeholder(s) => "<class '__main__.AttrPlaceholder'>",
            Value::Str(_) => "<class 'str'>",
            Value::List(_) => "<class 'list'>",
            Value::Map(_) => "<class 'dict'>",
        }
    }

    /// `json.dumps(value, sort_keys=sort)` with Python's default separators.
    pub fn json_dumps(&self, sort: bool) -> String {
        let mut out = String::new();
        self.write_json(sort, &mut out);
        out
    }

    fn write_json(&self, sort: bool, out: &mut String) {
        match self {
            Value::None | Value::Ellipsis => out.push_str("null"),
            Value::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            Value::Float(f) => out.push_str(&python_float_repr(*f)),
            Value::Int(_) | Value::BigInt(_) => out.push_str(&self.py_repr()),
            Value::Str(s) => write_json_string(s, out),
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write_json(sort, out);
                }
                out.push(']');
            }
            Value::Map(entries) => {
                let mut keyed: Vec<(String, &Value)> =
                    entries.iter().map(|(k, v)| (k.json_key(), v)).collect();
                if sort {
                    keyed.sort_by(|a, b| a.0.cmp(&b.0));
                }
                out.push('{');
                for (i, (k, v)) in keyed.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_json_string(k, out);
                    out.push_str(": ");
                    v.write_json(sort, out);
                }
                out.push('}');
            }
        }
    }
}

/// `dict.get`: the value under a key equal to `key`.
pub(crate) fn get<'v>(entries: &'v [(Value, Value)], key: &Value) -> Option<&'v Value> {
    entries.iter().find(|(k, _)| k.py_eq(key)).map(|(_, v)| v)
}

/// `dict[key] = value`: replaces the value of an equal key in place, else appends.
pub(crate) fn insert(entries: &mut Vec<(Value, Value)>, key: Value, value: Value) {
    if let Some(slot) = entries.iter_mut().find(|(k, _)| k.py_eq(&key)) {
        slot.1 = value;
    } else {
        entries.push((key, value));
    }
}

pub(crate) use hotfix_yaml::python_str_repr as str_repr;

/// A `get_attr` placeholder (`<attr:r.a>`): the Heat oracle's `AttrPlaceholder`, a `str`.
pub(crate) fn is_attr_placeholder(s: &str) -> bool {
    s.strip_prefix("<attr:")
        .and_then(|rest| rest.strip_suffix('>'))
        .is_some_and(|path| !path.contains(['<', '>']))
}
