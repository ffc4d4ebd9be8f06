//! Helpers of the `functions` family: which nodes are calls, what a literal argument is in
//! Python's eyes, and how Python prints it in Heat's error texts.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use hotfix_hot::{Call, CallStatus, DataMap, Function, Owner, Semantic, Template, Version};
use hotfix_yaml::{Document, Int, NodeId, NodeKind, ScalarValue};

/// The calls of a template by their mapping node, so that an argument can be told apart from
/// a literal: a call may resolve to anything, a literal is what it is.
#[derive(Debug)]
pub(super) struct View<'a> {
    pub(super) doc: &'a Document,
    pub(super) version: Version,
    calls: HashMap<NodeId, &'a Call>,
}

impl<'a> View<'a> {
    pub(super) fn new(doc: &'a Document, version: Version, semantic: &'a Semantic) -> View<'a> {
        let calls = semantic.calls.iter().map(|c| (c.map, c)).collect();
        View {
            doc,
            version,
            calls,
        }
    }

    /// What the node (through aliases) is as an argument.
    pub(super) fn arg(&self, id: NodeId) -> Arg<'a> {
        let id = self.doc.resolve(id);
        if let Some(call) = self.calls.get(&id) {
            return Arg::Call(call.status.function());
        }
        let doc = self.doc;
        match &doc.node(id).kind {
            NodeKind::Mapping { .. } => Arg::Map(id),
            NodeKind::Sequence { items, .. } => Arg::List(items),
            NodeKind::Alias { .. } => Arg::Other,
            NodeKind::Scalar(s) => match &s.value {
                ScalarValue::Null => Arg::Null,
                ScalarValue::Bool(b) => Arg::Bool(*b),
                ScalarValue::Int(n) => Arg::Int(n),
                ScalarValue::Float(f) => Arg::Float(*f),
                ScalarValue::Str | ScalarValue::ValueKey | ScalarValue::Merge => {
                    Arg::Str(s.text.as_str())
                }
                ScalarValue::Binary => Arg::Other,
            },
        }
    }

    /// Whether the node and everything in it is a literal (no call anywhere).
    pub(super) fn is_literal(&self, id: NodeId) -> bool {
        match self.arg(id) {
            Arg::Call(_) | Arg::Other => false,
            Arg::List(items) => items.iter().all(|&i| self.is_literal(i)),
            Arg::Map(map) => self
                .doc
                .entries(map)
                .iter()
                .all(|e| self.is_literal(e.value)),
            _ => true,
        }
    }

    /// Python's `repr()` of a literal node, cut to 200 characters as Heat cuts it; `None` when
    /// a call inside makes the value unknown.
    pub(super) fn repr(&self, id: NodeId) -> Option<String> {
        if !self.is_literal(id) {
            return None;
        }
        let mut out = String::new();
        self.write_repr(id, &mut out);
        Some(out.chars().take(200).collect())
    }

    fn write_repr(&self, id: NodeId, out: &mut String) {
        match self.arg(id) {
            Arg::Null => out.push_str("None"),
            Arg::Bool(true) => out.push_str("True"),
            Arg::Bool(false) => out.push_str("False"),
            Arg::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Arg::Float(f) => out.push_str(&float_repr(f)),
            Arg::Str(s) => out.push_str(&str_repr(s)),
            Arg::List(items) => {
                out.push('[');
                for (i, &item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_repr(item, out);
                }
                out.push(']');
            }
            Arg::Map(map) => {
                out.push('{');
                for (i, entry) in self.doc.entries(map).into_iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_repr(entry.key, out);
                    out.push_str(": ");
                    self.write_repr(entry.value, out);
                }
                out.push('}');
            }
            Arg::Call(_) | Arg::Other => out.push('…'),
        }
    }

    /// Python's `json.dumps()` of a literal node; `None` when a call inside makes it unknown.
    pub(super) fn json(&self, id: NodeId) -> Option<String> {
        if !self.is_literal(id) {
            return None;
        }
        self.doc.node_to_python_json(id).ok()
    }

    /// The string value of a literal string node.
    pub(super) fn str(&self, id: NodeId) -> Option<&'a str> {
        match self.arg(id) {
            Arg::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// An argument as Python sees it once loaded: a call (whose result is unknown), or a literal.
#[derive(Clone, Copy, Debug)]
pub(super) enum Arg<'a> {
    Call(Function),
    Null,
    Bool(bool),
    Int(&'a Int),
    Float(f64),
    Str(&'a str),
    List(&'a [NodeId]),
    Map(NodeId),
    /// `!!binary` and the like: nothing to say about it here.
    Other,
}

impl Arg<'_> {
    /// Python truthiness (`None` for a call or an unknown value).
    pub(super) fn truthy(self, doc: &Document) -> Option<bool> {
        match self {
            Arg::Call(_) | Arg::Other => None,
            Arg::Null => Some(false),
            Arg::Bool(b) => Some(b),
            Arg::Int(n) => Some(*n != Int::Small(0)),
            Arg::Float(f) => Some(f != 0.0),
            Arg::Str(s) => Some(!s.is_empty()),
            Arg::List(items) => Some(!items.is_empty()),
            Arg::Map(map) => Some(!doc.entries(map).is_empty()),
        }
    }

    /// Python's type name (`NoneType`, `int`, …); `None` for a call or an unknown value.
    pub(super) fn py_type(self) -> Option<&'static str> {
        match self {
            Arg::Call(_) | Arg::Other => None,
            Arg::Null => Some("NoneType"),
            Arg::Bool(_) => Some("bool"),
            Arg::Int(_) => Some("int"),
            Arg::Float(_) => Some("float"),
            Arg::Str(_) => Some("str"),
            Arg::List(_) => Some("list"),
            Arg::Map(_) => Some("dict"),
        }
    }

    /// A short description for messages: "a `get_param` call", "null", "a list of 3 items".
    pub(super) fn describe(self) -> String {
        match self {
            Arg::Call(f) => format!("a `{}` call", f.name()),
            Arg::Null => "null".to_owned(),
            Arg::Bool(_) => "a boolean".to_owned(),
            Arg::Int(_) => "an integer".to_owned(),
            Arg::Float(_) => "a number".to_owned(),
            Arg::Str("") => "an empty string".to_owned(),
            Arg::Str(_) => "a string".to_owned(),
            Arg::List(items) => match items.len() {
                0 => "an empty list".to_owned(),
                1 => "a list of 1 item".to_owned(),
                n => format!("a list of {n} items"),
            },
            Arg::Map(_) => "a mapping".to_owned(),
            Arg::Other => "a value Heat cannot use".to_owned(),
        }
    }

    pub(super) fn is_call(self) -> bool {
        matches!(self, Arg::Call(_))
    }

    /// A literal Python `str`.
    pub(super) fn is_str(self) -> bool {
        matches!(self, Arg::Str(_))
    }

    /// A literal (not a call, not unknown).
    pub(super) fn is_known(self) -> bool {
        !matches!(self, Arg::Call(_) | Arg::Other)
    }

    /// A literal that `isinstance(x, collections.abc.Sequence)` accepts (`str` included).
    pub(super) fn is_sequence(self) -> bool {
        matches!(self, Arg::Str(_) | Arg::List(_))
    }

    /// `int(x)` in Python.
    pub(super) fn to_int(self) -> PyInt {
        match self {
            Arg::Call(_) | Arg::Other => PyInt::Unknown,
            Arg::Null | Arg::List(_) | Arg::Map(_) => PyInt::TypeError,
            Arg::Bool(b) => PyInt::Value(Some(i64::from(b))),
            Arg::Int(Int::Small(n)) => PyInt::Value(Some(*n)),
            Arg::Int(Int::Big(_)) => PyInt::Value(None),
            Arg::Float(f) if f.is_nan() => PyInt::ValueError,
            Arg::Float(f) if f.is_infinite() => PyInt::Unknown,
            #[allow(
                clippy::cast_possible_truncation,
                reason = "Python's int() truncates too"
            )]
            Arg::Float(f) => PyInt::Value((f.trunc().abs() < 9.0e18).then_some(f.trunc() as i64)),
            Arg::Str(s) => parse_python_int(s),
        }
    }
}

/// The outcome of Python's `int(x)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PyInt {
    /// The value (`None`: too large for `i64`).
    Value(Option<i64>),
    ValueError,
    TypeError,
    Unknown,
}

/// `int(text)` for a `str`: surrounding whitespace, a sign, digits with single underscores
/// between them.
fn parse_python_int(text: &str) -> PyInt {
    let text = text.trim();
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
        || !digits.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return PyInt::ValueError;
    }
    let clean: String = digits.chars().filter(char::is_ascii_digit).collect();
    let value = clean.parse::<i64>().ok();
    PyInt::Value(value.map(|v| if negative { -v } else { v }))
}

pub(super) use crate::rules::util::py_str_repr as str_repr;

use hotfix_yaml::python_float_str as float_repr;

/// Python's `str()` of a scalar (what `%s` prints), for the texts that format with `%s`.
pub(super) fn py_str(view: &View<'_>, id: NodeId) -> Option<String> {
    match view.arg(id) {
        Arg::Str(s) => Some(s.to_owned()),
        _ => view.repr(id),
    }
}

/// Each call once: an alias makes Heat (and the model) see the same mapping twice.
pub(super) fn unique_calls(
    semantic: &Semantic,
    keep: impl Fn(&Call) -> bool,
) -> impl Iterator<Item = &Call> {
    let mut seen = HashSet::new();
    semantic
        .calls
        .iter()
        .filter(move |c| keep(c) && seen.insert((c.map, c.context)))
}

/// Each data mapping once, except the whole definition of a condition (a mapping there that
/// is not a call is `invalid-condition-definition`'s).
pub(super) fn unique_data_maps<'s>(
    template: &Template<'_>,
    semantic: &'s Semantic,
) -> impl Iterator<Item = &'s DataMap> {
    let mut seen = HashSet::new();
    let roots: HashSet<NodeId> = template
        .conditions
        .iter()
        .map(|c| template.doc.resolve(c.value))
        .collect();
    semantic.data_maps.iter().filter(move |d| {
        let root = matches!(d.owner, Owner::Condition(_)) && roots.contains(&d.map);
        !root && seen.insert((d.map, d.context))
    })
}

/// Whether a call has this status.
pub(super) fn is_active(call: &Call) -> bool {
    matches!(call.status, CallStatus::Active(_))
}

/// A version for messages: `2016-10-14 (newton)`.
pub(super) fn version_label(version: Version) -> String {
    format!("{version} ({})", version.release())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_strings_to_int_as_python_does() {
        assert_eq!(parse_python_int(" 12 "), PyInt::Value(Some(12)));
        assert_eq!(parse_python_int("-1_000"), PyInt::Value(Some(-1000)));
        assert_eq!(parse_python_int("+5"), PyInt::Value(Some(5)));
        assert_eq!(parse_python_int("1.0"), PyInt::ValueError);
        assert_eq!(parse_python_int("_1"), PyInt::ValueError);
        assert_eq!(parse_python_int("1__0"), PyInt::ValueError);
        assert_eq!(parse_python_int(""), PyInt::ValueError);
        assert_eq!(parse_python_int("99999999999999999999"), PyInt::Value(None));
    }

    #[test]
    fn prints_strings_as_python_repr_does() {
        assert_eq!(str_repr("a"), "'a'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("a\nb"), "'a\\nb'");
        assert_eq!(float_repr(1.5), "1.5");
        assert_eq!(float_repr(f64::NAN), "nan");
    }
}
