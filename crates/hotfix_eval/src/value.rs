//! Python values as Heat's engine holds them after loading and resolving: `None`, `bool`,
//! `int`, `float`, `str`, `bytes`, `list`, `dict` (insertion-ordered), with Python's equality,
//! `str()`, `repr()` and `json.dumps` exactly where Heat's functions use them. The one model
//! of a Python value in hotfix: the evaluator computes with it and the linter's rules load
//! literals into it.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{Hash as _, Hasher as _};

use hotfix_hot::python;
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
    /// `bytes` (a `!!binary` scalar), kept opaque: taken as not empty, equal to nothing. The
    /// evaluator refuses to compute with it (`NotEvaluated`).
    Bytes,
    List(Vec<Value>),
    /// A `dict`: entries in insertion order, keys unique by Python equality.
    Map(Vec<(Value, Value)>),
    /// Wallaby's 2-argument `if` with a false condition: the enclosing item is dropped.
    Ellipsis,
}

/// A Python number (an `int` within `i128`, a `float`), as Heat's numeric checks compute with
/// it: the evaluator's constraints and the linter's rules share it.
#[derive(Clone, Copy, Debug)]
pub enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    #[allow(
        clippy::cast_precision_loss,
        reason = "Python converts the int to a float for a float operation"
    )]
    fn as_f64(self) -> f64 {
        match self {
            Num::Int(n) => n as f64,
            Num::Float(f) => f,
        }
    }

    /// Python's order, exact between an `int` and a `float` (no rounding of the `int`);
    /// `None` with a NaN.
    pub fn cmp_num(self, other: Num) -> Option<std::cmp::Ordering> {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Some(a.cmp(&b)),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b),
            (Num::Int(n), Num::Float(f)) => int_cmp_float(n, f),
            (Num::Float(f), Num::Int(n)) => int_cmp_float(n, f).map(std::cmp::Ordering::reverse),
        }
    }

    /// Python's `%` (the result has the sign of the divisor); `None` for a division by zero.
    pub fn modulo(self, step: Num) -> Option<Num> {
        match (self, step) {
            (Num::Int(_), Num::Int(0)) => None,
            // Every int is a multiple of -1 (and `i128::MIN % -1` overflows in Rust).
            (Num::Int(_), Num::Int(-1)) => Some(Num::Int(0)),
            (Num::Int(a), Num::Int(b)) => {
                let r = a % b;
                Some(Num::Int(if r != 0 && (r < 0) != (b < 0) {
                    r + b
                } else {
                    r
                }))
            }
            (a, b) => {
                let (a, b) = (a.as_f64(), b.as_f64());
                if b == 0.0 {
                    return None;
                }
                let mut r = a % b;
                if r != 0.0 && (r < 0.0) != (b < 0.0) {
                    r += b;
                } else if r == 0.0 {
                    r = 0.0_f64.copysign(b);
                }
                Some(Num::Float(r))
            }
        }
    }
}

/// `n` compared with `f`, exactly.
fn int_cmp_float(n: i128, f: f64) -> Option<std::cmp::Ordering> {
    // 2¹²⁷, exactly.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if f.is_nan() {
        return None;
    }
    let whole = f.trunc();
    if whole >= LIMIT {
        return Some(std::cmp::Ordering::Less);
    }
    if whole < -LIMIT {
        return Some(std::cmp::Ordering::Greater);
    }
    #[allow(
        clippy::cast_possible_truncation,
        reason = "an integral float within i128's range converts exactly"
    )]
    let whole_int = whole as i128;
    Some(n.cmp(&whole_int).then_with(|| {
        // Equal whole parts: the fraction decides.
        0.0_f64
            .partial_cmp(&f.fract())
            .unwrap_or(std::cmp::Ordering::Equal)
    }))
}

/// How much of a document [`Value::construct`] builds.
struct Limit {
    /// Nodes left (aliases expanded).
    nodes: usize,
    /// The deepest nesting built.
    depth: usize,
    /// What an integer too long to write becomes (`None`: nothing is built).
    huge: Option<Value>,
}

/// Why [`Value::str_to_num`] gives no number.
#[derive(Clone, Debug, PartialEq)]
pub enum NotNumber {
    /// What Python raises: its class (`ValueError`, `TypeError`) and text.
    Raised {
        class: &'static str,
        message: String,
    },
    /// What Python makes of it is not modelled (Unicode digits, bytes): why.
    Unknown(String),
}

/// What one item of a value weighs in [`Value::weight`] besides its text: about the memory a
/// `Value` takes.
pub(crate) const ITEM_WEIGHT: usize = 32;

impl Value {
    /// An `int` of any size up to `i128`: [`Value::Int`] within `i64`, else [`Value::BigInt`].
    pub fn int(n: i128) -> Value {
        i64::try_from(n).map_or_else(|_| Value::BigInt(n.to_string()), Value::Int)
    }

    /// The value of an `int` (a `bool` included, as in Python) within `i128`.
    pub fn as_i128(&self) -> Option<i128> {
        match self {
            Value::Bool(b) => Some(i128::from(*b)),
            Value::Int(n) => Some(i128::from(*n)),
            Value::BigInt(digits) => digits.parse().ok(),
            _ => None,
        }
    }

    /// Whether `bytes` are in the value, at any depth.
    pub(crate) fn holds_bytes(&self) -> bool {
        match self {
            Value::Bytes => true,
            Value::List(items) => items.iter().any(Value::holds_bytes),
            Value::Map(entries) => entries
                .iter()
                .any(|(k, v)| k.holds_bytes() || v.holds_bytes()),
            _ => false,
        }
    }

    /// The value as a number, if it is one (`bool` included, as in Python; an `int` within
    /// `i128`).
    pub fn as_num(&self) -> Option<Num> {
        match self {
            Value::Float(f) => Some(Num::Float(*f)),
            other => other.as_i128().map(Num::Int),
        }
    }

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

    /// The value PyYAML (Heat's loader) constructs for `id`. An integer too long to write in
    /// decimal becomes `None`: it is never in a document that loads (`json.dumps` cannot write
    /// it).
    pub fn from_node(doc: &Document, id: NodeId) -> Value {
        let mut limit = Limit {
            nodes: usize::MAX,
            depth: usize::MAX,
            huge: Some(Value::None),
        };
        Value::construct(doc, id, &mut limit, 0).unwrap_or(Value::None)
    }

    /// The value PyYAML constructs for `id`, when it takes at most `nodes` nodes (aliases
    /// expanded), nests at most 100 deep and holds no integer too long to write; `None`
    /// otherwise (too large to model).
    pub fn load_within(doc: &Document, id: NodeId, nodes: usize) -> Option<Value> {
        let mut limit = Limit {
            nodes,
            depth: 100,
            huge: None,
        };
        Value::construct(doc, id, &mut limit, 0)
    }

    /// The `str` PyYAML constructs for `id`, when it constructs one: what
    /// `Value::from_node(doc, id).as_str()` gives, without building the value.
    pub(crate) fn node_str(doc: &Document, id: NodeId) -> Option<&str> {
        match &doc.node(doc.resolve(id)).kind {
            // The scalars `construct` turns into `Value::Str`.
            NodeKind::Scalar(s)
                if matches!(
                    s.value,
                    ScalarValue::Str | ScalarValue::ValueKey | ScalarValue::Merge
                ) =>
            {
                Some(s.text.as_str())
            }
            _ => None,
        }
    }

    fn construct(doc: &Document, id: NodeId, limit: &mut Limit, depth: usize) -> Option<Value> {
        limit.nodes = limit.nodes.checked_sub(1)?;
        if depth > limit.depth {
            return None;
        }
        let id = doc.resolve(id);
        Some(match &doc.node(id).kind {
            NodeKind::Scalar(s) => match &s.value {
                ScalarValue::Null => Value::None,
                ScalarValue::Int(Int::Huge) => limit.huge.clone()?,
                ScalarValue::Bool(b) => Value::Bool(*b),
                ScalarValue::Int(Int::Small(n)) => Value::Int(*n),
                ScalarValue::Int(Int::Big(d)) => Value::BigInt(d.clone()),
                ScalarValue::Float(f) => Value::Float(*f),
                ScalarValue::Binary => Value::Bytes,
                // `=` is the string "=" as a key; neither it nor `<<` loads as a value.
                ScalarValue::Str | ScalarValue::ValueKey | ScalarValue::Merge => {
                    Value::Str(s.text.as_str().to_owned())
                }
            },
            NodeKind::Sequence { items, .. } => Value::List(
                items
                    .iter()
                    .map(|&i| Value::construct(doc, i, limit, depth + 1))
                    .collect::<Option<_>>()?,
            ),
            NodeKind::Mapping { .. } => Value::Map(
                doc.entries(id)
                    .iter()
                    .map(|e| {
                        Some((
                            Value::construct(doc, e.key, limit, depth + 1)?,
                            Value::construct(doc, e.value, limit, depth + 1)?,
                        ))
                    })
                    .collect::<Option<_>>()?,
            ),
            // `resolve` never returns an alias.
            NodeKind::Alias { .. } => Value::None,
        })
    }

    /// Heat's `Schema.str_to_num`: a number as it is (a `bool` stays one), a string's `int()`,
    /// else its `float()` ([`hotfix_hot::python::str_to_num`]); anything else raises `int()`'s
    /// `TypeError`.
    pub fn str_to_num(&self) -> Result<Value, NotNumber> {
        match self {
            Value::Int(_) | Value::BigInt(_) | Value::Float(_) | Value::Bool(_) => Ok(self.clone()),
            Value::Str(s) => match python::str_to_num(s) {
                Ok(python::Number::Int(python::Int::Small(n))) => Ok(Value::int(n)),
                Ok(python::Number::Int(python::Int::Big(digits))) => Ok(Value::BigInt(digits)),
                Ok(python::Number::Float(f)) => Ok(Value::Float(f)),
                Err(python::NotConverted::ValueError) => Err(NotNumber::Raised {
                    class: "ValueError",
                    message: python::float_error(s),
                }),
                Err(python::NotConverted::Unknown) => Err(NotNumber::Unknown(format!(
                    "int() of {} (Unicode digits) is not modelled",
                    str_repr(s)
                ))),
            },
            // `int()` takes bytes; what it makes of them is not modelled.
            Value::Bytes => Err(NotNumber::Unknown(
                "a !!binary value (Python bytes) is not evaluated".to_owned(),
            )),
            other => Err(NotNumber::Raised {
                class: "TypeError",
                message: format!(
                    "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                    other.type_name()
                ),
            }),
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
            // `json.dumps` cannot write `bytes`; the evaluator never returns them.
            Value::None | Value::Ellipsis | Value::Bytes => serde_json::Value::Null,
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
                let mut out = Dict::with_capacity(entries.len());
                for (k, v) in entries {
                    out.insert(Value::Str(k.json_key()), v.json_roundtrip());
                }
                out.into_value()
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
            Value::BigInt(_) | Value::Bytes => true,
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
            (Value::Int(n), Value::Float(f)) | (Value::Float(f), Value::Int(n)) => {
                int_equals_float(*n, *f)
            }
            (Value::Bool(b), Value::Float(f)) | (Value::Float(f), Value::Bool(b)) => {
                int_equals_float(i64::from(*b), *f)
            }
            (Value::BigInt(d), Value::Float(f)) | (Value::Float(f), Value::BigInt(d)) => {
                matches!(integral(*f), Some(Integral::Big(e)) if e == *d)
            }
            (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.py_eq(y))
            }
            (Value::Map(a), Value::Map(b)) => a.len() == b.len() && maps_equal(a, b),
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
            Value::Bytes => out.push_str("b'…'"),
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

    /// Python's type name: `NoneType`, `bool`, `int`, `float`, `str`, `bytes`, `list`, `dict`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "NoneType",
            Value::Ellipsis => "ellipsis",
            Value::Bool(_) => "bool",
            Value::Int(_) | Value::BigInt(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Bytes => "bytes",
            Value::List(_) => "list",
            Value::Map(_) => "dict",
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
            Value::Bytes => "<class 'bytes'>",
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
            // `json.dumps` fails on `bytes`; shown in messages as an opaque string.
            Value::Bytes => out.push_str("\"…\""),
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

/// `dict.get` with a `str` key, as [`get`] finds it without building the key: in Python
/// only a `str` equals a `str` ([`Value::py_eq`]), so other keys are passed over.
pub(crate) fn get_str<'v>(entries: &'v [(Value, Value)], key: &str) -> Option<&'v Value> {
    entries
        .iter()
        .find(|(k, _)| matches!(k, Value::Str(s) if s == key))
        .map(|(_, v)| v)
}

/// Whether two `dict`s of as many entries hold equal keys with equal values: by looking each
/// key of `a` up in `b`, through an index of `b` when it is not small.
fn maps_equal(a: &[(Value, Value)], b: &[(Value, Value)]) -> bool {
    if b.len() <= SMALL_MAP {
        return a.iter().all(|(k, v)| get(b, k).is_some_and(|w| v.py_eq(w)));
    }
    let index = KeyIndex::of(b);
    a.iter().all(|(k, v)| {
        index
            .find(b, key_hash(k), k)
            .is_some_and(|i| v.py_eq(&b[i].1))
    })
}

/// Up to how many entries a `dict` is searched key by key rather than through an index.
const SMALL_MAP: usize = 16;

/// A `dict` being built, or looked up many times: its entries in insertion order, each key
/// found by its hash ([`key_hash`]), so that `n` insertions cost `O(n)` expected, not the
/// `O(n²)` of comparing each key with every key before it.
#[derive(Default)]
pub(crate) struct Dict {
    entries: Vec<(Value, Value)>,
    index: KeyIndex,
}

impl Dict {
    pub(crate) fn with_capacity(n: usize) -> Dict {
        Dict {
            entries: Vec::with_capacity(n),
            index: KeyIndex::with_capacity(n),
        }
    }

    /// The entries of a `dict` (or any pairs: a repeated key is inserted again).
    pub(crate) fn of(entries: Vec<(Value, Value)>) -> Dict {
        let mut dict = Dict::with_capacity(entries.len());
        for (k, v) in entries {
            dict.insert(k, v);
        }
        dict
    }

    /// `dict[key] = value`: an equal key keeps its first key object and its place, with the
    /// new value; a new key is appended.
    pub(crate) fn insert(&mut self, key: Value, value: Value) {
        let hash = key_hash(&key);
        if let Some(i) = self.index.find(&self.entries, hash, &key) {
            self.entries[i].1 = value;
        } else {
            self.index.add(hash);
            self.entries.push((key, value));
        }
    }

    /// `dict.get(key)`.
    pub(crate) fn get(&self, key: &Value) -> Option<&Value> {
        let i = self.index.find(&self.entries, key_hash(key), key)?;
        Some(&self.entries[i].1)
    }

    pub(crate) fn contains_key(&self, key: &Value) -> bool {
        self.get(key).is_some()
    }

    pub(crate) fn entries(&self) -> &[(Value, Value)] {
        &self.entries
    }

    pub(crate) fn into_value(self) -> Value {
        Value::Map(self.entries)
    }
}

/// Where the keys of a list of entries are, by hash: the first entry of each hash, and for
/// each entry the next one of the same hash.
#[derive(Default)]
struct KeyIndex {
    heads: HashMap<u64, usize>,
    next: Vec<usize>,
}

/// No next entry in a [`KeyIndex`] chain.
const END: usize = usize::MAX;

impl KeyIndex {
    fn with_capacity(n: usize) -> KeyIndex {
        KeyIndex {
            heads: HashMap::with_capacity(n),
            next: Vec::with_capacity(n),
        }
    }

    /// The index of `entries` whose key is keys of a `dict` (unique by Python equality).
    fn of(entries: &[(Value, Value)]) -> KeyIndex {
        let mut index = KeyIndex::with_capacity(entries.len());
        for (k, _) in entries {
            index.add(key_hash(k));
        }
        index
    }

    /// Where in `entries` a key equal to `key` (of hash `hash`) is.
    fn find(&self, entries: &[(Value, Value)], hash: u64, key: &Value) -> Option<usize> {
        let mut i = *self.heads.get(&hash)?;
        while i != END {
            if entries[i].0.py_eq(key) {
                return Some(i);
            }
            i = self.next[i];
        }
        None
    }

    /// Indexes the next entry, of key hash `hash`: first of its chain (the keys are unique,
    /// so the order of a chain does not matter).
    fn add(&mut self, hash: u64) {
        let i = self.next.len();
        let head = self.heads.insert(hash, i);
        self.next.push(head.unwrap_or(END));
    }
}

/// A hash of a key that equal keys share (`py_eq` implies equal hashes), as Python's `hash`:
/// `1`, `1.0` and `True` hash alike. Lists and maps, unhashable in Python, hash by their
/// length alone (without walking them).
fn key_hash(key: &Value) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match key {
        Value::None => 0u8.hash(&mut h),
        Value::Ellipsis => 1u8.hash(&mut h),
        Value::Bool(b) => (2u8, i64::from(*b)).hash(&mut h),
        Value::Int(n) => (2u8, n).hash(&mut h),
        Value::BigInt(d) => (3u8, d).hash(&mut h),
        Value::Float(f) => match integral(*f) {
            Some(Integral::Small(n)) => (2u8, n).hash(&mut h),
            Some(Integral::Big(d)) => (3u8, d).hash(&mut h),
            None => (4u8, f.to_bits()).hash(&mut h),
        },
        Value::Str(s) => (5u8, s).hash(&mut h),
        Value::Bytes => 8u8.hash(&mut h),
        Value::List(items) => (6u8, items.len()).hash(&mut h),
        Value::Map(entries) => (7u8, entries.len()).hash(&mut h),
    }
    h.finish()
}

/// The `int` a float equals, when it is integral.
enum Integral {
    Small(i64),
    /// Outside `i64`: its decimal digits, as [`Value::BigInt`] holds them.
    Big(String),
}

/// The `int` equal to `f`, if any (`2.0` → `2`; not `2.5`, an infinity or NaN).
fn integral(f: f64) -> Option<Integral> {
    // 2⁶³, exactly.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if (-LIMIT..LIMIT).contains(&f) {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "an integral float within i64's range converts exactly"
        )]
        return Some(Integral::Small(f as i64));
    }
    // Rust writes a float's exact decimal value.
    Some(Integral::Big(format!("{f:.0}")))
}

/// Python's `n == f` for an `int` and a `float`: exact, as Python compares them (not through
/// a rounding of `n` to a float).
fn int_equals_float(n: i64, f: f64) -> bool {
    matches!(integral(f), Some(Integral::Small(m)) if m == n)
}

pub(crate) use hotfix_yaml::python_str_repr as str_repr;

/// A `get_attr` placeholder (`<attr:r.a>`): the Heat oracle's `AttrPlaceholder`, a `str`.
pub(crate) fn is_attr_placeholder(s: &str) -> bool {
    s.strip_prefix("<attr:")
        .and_then(|rest| rest.strip_suffix('>'))
        .is_some_and(|path| !path.contains(['<', '>']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_to_num_is_heats_schema_str_to_num() {
        let num = |v: Value| v.str_to_num().map(|n| n.py_repr());
        assert_eq!(num(Value::Bool(true)), Ok("True".to_owned()));
        assert_eq!(num(Value::Str(" 1_0 ".into())), Ok("10".to_owned()));
        assert_eq!(num(Value::Str("1e3".into())), Ok("1000.0".to_owned()));
        assert_eq!(
            num(Value::Str("99999999999999999999".into())),
            Ok("99999999999999999999".to_owned())
        );
        assert_eq!(
            num(Value::Str("x".into())),
            Err(NotNumber::Raised {
                class: "ValueError",
                message: "could not convert string to float: 'x'".to_owned()
            })
        );
        assert!(matches!(
            num(Value::List(vec![])),
            Err(NotNumber::Raised {
                class: "TypeError",
                ..
            })
        ));
        // `int(b'12')` is 12 in Python: bytes are not refused, only not modelled.
        assert!(matches!(num(Value::Bytes), Err(NotNumber::Unknown(_))));
    }

    #[test]
    fn a_bounded_load_refuses_what_is_too_large_to_model() {
        let doc = hotfix_yaml::parse_unlimited("a: [1, 2, {b: c}]\nbig: 1.5\n").unwrap();
        let root = doc.root();
        let whole = Value::from_node(&doc, root);
        assert_eq!(whole.py_str(), "{'a': [1, 2, {'b': 'c'}], 'big': 1.5}");
        assert_eq!(
            Value::load_within(&doc, root, 10).map(|v| v.py_str()),
            whole.py_str().into()
        );
        assert!(Value::load_within(&doc, root, 9).is_none());
    }

    fn keys(dict: &Dict) -> Vec<String> {
        dict.entries().iter().map(|(k, _)| k.py_repr()).collect()
    }

    #[test]
    fn one_true_and_one_point_zero_are_one_key_that_keeps_its_first_object_and_place() {
        // Python: d = {}; d[1] = 'a'; d['x'] = 'b'; d[1.0] = 'c'; d[True] = 'd'
        // gives {1: 'd', 'x': 'b'}.
        let mut dict = Dict::default();
        dict.insert(Value::Int(1), Value::Str("a".into()));
        dict.insert(Value::Str("x".into()), Value::Str("b".into()));
        dict.insert(Value::Float(1.0), Value::Str("c".into()));
        dict.insert(Value::Bool(true), Value::Str("d".into()));
        assert_eq!(dict.into_value().py_repr(), "{1: 'd', 'x': 'b'}");
    }

    #[test]
    fn keys_equal_as_python_compares_them_share_a_slot() {
        let mut dict = Dict::default();
        for (key, value) in [
            (Value::Bool(false), 0),
            (Value::Float(-0.0), 1),
            (Value::Int(0), 2),
            (Value::Float(2.5), 3),
            (Value::Float(2.5), 4),
            (Value::Float(1e20), 5),
            (Value::BigInt("100000000000000000000".into()), 6),
            (Value::Str("1".into()), 7),
            (Value::None, 8),
            (Value::None, 9),
            (Value::Float(f64::NAN), 10),
            (Value::Float(f64::NAN), 11),
        ] {
            dict.insert(key, Value::Int(value));
        }
        assert_eq!(
            dict.into_value().py_repr(),
            "{False: 2, 2.5: 4, 1e+20: 6, '1': 7, None: 9, nan: 10, nan: 11}"
        );
    }

    #[test]
    fn a_str_lookup_finds_what_a_lookup_by_a_str_value_finds() {
        // Python: {1: 'a', True: 'b', None: 'c', 1.0: 'd', '1': 'e', 'x': 'f'}.get('1') is 'e':
        // no other kind of key equals a str.
        let entries = vec![
            (Value::Int(1), Value::Str("a".into())),
            (Value::Bool(true), Value::Str("b".into())),
            (Value::None, Value::Str("c".into())),
            (Value::Float(1.0), Value::Str("d".into())),
            (Value::BigInt("1".into()), Value::Str("g".into())),
            (
                Value::List(vec![Value::Str("1".into())]),
                Value::Str("h".into()),
            ),
            (Value::Bytes, Value::Str("i".into())),
            (Value::Str("1".into()), Value::Str("e".into())),
            (Value::Str("x".into()), Value::Str("f".into())),
        ];
        for key in ["1", "x", "True", "None", "1.0", "missing", ""] {
            let by_value = get(&entries, &Value::Str(key.to_owned())).map(Value::py_repr);
            assert_eq!(
                get_str(&entries, key).map(Value::py_repr),
                by_value,
                "{key}"
            );
        }
        assert_eq!(
            get_str(&entries, "1").map(Value::py_repr),
            Some("'e'".into())
        );
    }

    #[test]
    fn a_node_str_is_the_str_the_node_loads_as() {
        let doc = hotfix_yaml::parse_unlimited(
            "a: x\nb: 1\nc: true\nd: '1'\ne: &s y\nf: *s\ng: [x]\nh: ~\n=: v\n",
        )
        .unwrap();
        for entry in &doc.entries(doc.root()) {
            for id in [entry.key, entry.value] {
                let value = Value::from_node(&doc, id);
                assert_eq!(
                    Value::node_str(&doc, id),
                    value.as_str(),
                    "{}",
                    doc.text(id)
                );
            }
        }
    }

    #[test]
    fn an_int_equals_a_float_only_when_python_says_so() {
        // 2**53 + 1 == 2.0**53 is False in Python (no rounding of the int to a float).
        let big = Value::Int((1 << 53) + 1);
        assert!(!big.py_eq(&Value::Float(9_007_199_254_740_992.0)));
        assert!(Value::Int(1 << 53).py_eq(&Value::Float(9_007_199_254_740_992.0)));
        assert!(Value::Bool(true).py_eq(&Value::Float(1.0)));
        assert!(!Value::Int(2).py_eq(&Value::Float(2.5)));
        assert!(!Value::Int(i64::MAX).py_eq(&Value::Float(9_223_372_036_854_775_808.0)));
        assert!(
            Value::BigInt("9223372036854775808".into())
                .py_eq(&Value::Float(9_223_372_036_854_775_808.0))
        );
        assert!(!Value::Float(f64::INFINITY).py_eq(&Value::Int(i64::MAX)));
    }

    #[test]
    fn lookups_find_equal_keys_and_the_order_is_insertion_order() {
        let n = 5_000;
        let mut dict = Dict::with_capacity(n);
        for i in (0..n).rev() {
            dict.insert(
                Value::Str(format!("k{i}")),
                Value::Int(i64::try_from(i).unwrap()),
            );
        }
        // Again, with new values: no new keys, same order.
        for i in 0..n {
            dict.insert(Value::Str(format!("k{i}")), Value::Int(-1));
        }
        assert_eq!(dict.entries().len(), n);
        assert_eq!(keys(&dict)[..2], ["'k4999'", "'k4998'"]);
        assert!(
            dict.get(&Value::Str("k17".into()))
                .is_some_and(|v| v.py_eq(&Value::Int(-1)))
        );
        assert!(!dict.contains_key(&Value::Str("k5000".into())));
    }

    #[test]
    fn large_maps_compare_as_python_dicts_whatever_their_order() {
        let entries: Vec<(Value, Value)> = (0..100)
            .map(|i| (Value::Int(i), Value::Str(i.to_string())))
            .collect();
        let mut reversed = entries.clone();
        reversed.reverse();
        let a = Value::Map(entries.clone());
        assert!(a.py_eq(&Value::Map(reversed.clone())));
        // Keys as floats are the same keys.
        let floats: Vec<(Value, Value)> = reversed
            .iter()
            .map(|(k, v)| {
                let Value::Int(n) = k else { unreachable!() };
                #[allow(clippy::cast_precision_loss, reason = "small integers")]
                (Value::Float(*n as f64), v.clone())
            })
            .collect();
        assert!(a.py_eq(&Value::Map(floats)));
        reversed[3].1 = Value::Str("other".into());
        assert!(!a.py_eq(&Value::Map(reversed)));
    }
}
