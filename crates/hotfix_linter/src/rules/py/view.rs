//! The nodes of a template as Python sees them once loaded, told apart from the calls Heat
//! parses: a call may resolve to anything, a literal is what it is.

use hotfix_hot::{Function, Semantic};
use hotfix_yaml::{Document, Int, NodeId, NodeKind, ScalarValue};

use super::{StrInt, Value, str_int};

/// A template's nodes with its calls (found once, by [`Semantic`]).
#[derive(Clone, Copy, Debug)]
pub(in crate::rules) struct View<'a> {
    pub(in crate::rules) doc: &'a Document,
    semantic: &'a Semantic,
}

impl<'a> View<'a> {
    pub(in crate::rules) fn new(doc: &'a Document, semantic: &'a Semantic) -> View<'a> {
        View { doc, semantic }
    }

    /// What the node (through aliases) is: a call, whatever its status, or a literal.
    pub(in crate::rules) fn arg(&self, id: NodeId) -> Arg<'a> {
        let id = self.doc.resolve(id);
        match self.semantic.call_at(id) {
            Some(call) => Arg::Call(call.status.function()),
            None => Arg::of(self.doc, id),
        }
    }

    /// Whether the node and everything in it is a literal (no call anywhere).
    pub(in crate::rules) fn is_literal(&self, id: NodeId) -> bool {
        match self.arg(id) {
            Arg::Call(_) | Arg::Bytes(_) => false,
            Arg::List(items) => items.iter().all(|&i| self.is_literal(i)),
            Arg::Map(map) => self
                .doc
                .entries(map)
                .iter()
                .all(|e| self.is_literal(e.value)),
            _ => true,
        }
    }

    /// Python's `repr()` of the node's value, at most `chars` characters of it; `None` when a
    /// call inside makes the value unknown.
    pub(in crate::rules) fn literal_repr(&self, id: NodeId, chars: usize) -> Option<String> {
        if !self.is_literal(id) {
            return None;
        }
        let text = self.repr_within(id, usize::MAX, chars);
        Some(text.chars().take(chars).collect())
    }

    /// Python's `repr()` of the node's value with a call (whose value is unknown here) as `…`,
    /// as are the values nested deeper than `depth` and those after the first `chars`
    /// characters: the text may be longer than `chars`, but not by a whole value.
    pub(in crate::rules) fn repr_within(&self, id: NodeId, depth: usize, chars: usize) -> String {
        let mut out = String::new();
        let limits = Limits {
            depth,
            bytes: chars.saturating_mul(4),
        };
        self.write_repr(id, &mut out, 0, limits);
        out
    }

    fn write_repr(&self, id: NodeId, out: &mut String, depth: usize, limits: Limits) {
        // Past `bytes`, the text has more than `chars` characters.
        if out.len() > limits.bytes || depth > limits.depth {
            out.push('…');
            return;
        }
        match self.arg(id) {
            Arg::Call(_) => out.push('…'),
            Arg::List(items) => {
                out.push('[');
                for (i, &item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_repr(item, out, depth + 1, limits);
                }
                out.push(']');
            }
            Arg::Map(map) => {
                out.push('{');
                for (i, entry) in self.doc.entries(map).iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_repr(entry.key, out, depth + 1, limits);
                    out.push_str(": ");
                    self.write_repr(entry.value, out, depth + 1, limits);
                }
                out.push('}');
            }
            leaf => {
                if let Some(value) = leaf.to_py() {
                    out.push_str(&value.py_repr());
                }
            }
        }
    }

    /// Python's `str()` of a literal node (what `%s` prints): a string as it is, anything
    /// else as its [`View::literal_repr`].
    pub(in crate::rules) fn literal_str(&self, id: NodeId, chars: usize) -> Option<String> {
        match self.arg(id) {
            Arg::Str(s) => Some(s.to_owned()),
            _ => self.literal_repr(id, chars),
        }
    }

    /// Python's `json.dumps()` of a literal node; `None` when a call inside makes it unknown.
    pub(in crate::rules) fn json(&self, id: NodeId) -> Option<String> {
        if !self.is_literal(id) {
            return None;
        }
        self.doc.node_to_python_json(id).ok()
    }

    /// The string value of a literal string node.
    pub(in crate::rules) fn str(&self, id: NodeId) -> Option<&'a str> {
        match self.arg(id) {
            Arg::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// How much of a value [`View::repr_within`] prints.
#[derive(Clone, Copy, Debug)]
struct Limits {
    depth: usize,
    bytes: usize,
}

/// A node as Python sees it once loaded: a call (whose result is unknown), or a literal.
#[derive(Clone, Copy, Debug)]
pub(in crate::rules) enum Arg<'a> {
    Call(Function),
    Null,
    Bool(bool),
    Int(&'a Int),
    Float(f64),
    Str(&'a str),
    /// `!!binary`, with its (base64) text: a value python-heatclient cannot send to Heat.
    Bytes(&'a str),
    List(&'a [NodeId]),
    Map(NodeId),
}

impl<'a> Arg<'a> {
    /// What a node (through aliases) loads as, a call's mapping being a `dict` like any other.
    pub(in crate::rules) fn of(doc: &'a Document, id: NodeId) -> Arg<'a> {
        let id = doc.resolve(id);
        match &doc.node(id).kind {
            NodeKind::Mapping { .. } => Arg::Map(id),
            // `resolve` never returns an alias.
            NodeKind::Alias { .. } => Arg::Null,
            NodeKind::Sequence { items, .. } => Arg::List(items),
            NodeKind::Scalar(s) => match &s.value {
                ScalarValue::Null => Arg::Null,
                ScalarValue::Bool(b) => Arg::Bool(*b),
                ScalarValue::Int(n) => Arg::Int(n),
                ScalarValue::Float(f) => Arg::Float(*f),
                // `=` is the string "=" as a key; neither it nor `<<` loads as a value.
                ScalarValue::Str | ScalarValue::ValueKey | ScalarValue::Merge => {
                    Arg::Str(s.text.as_str())
                }
                ScalarValue::Binary => Arg::Bytes(s.text.as_str()),
            },
        }
    }

    /// The value of a scalar (`None` for a call or a collection).
    pub(super) fn to_py(self) -> Option<Value> {
        Some(match self {
            // A too long integer is never in a document that loads, where it is used.
            Arg::Call(_) | Arg::List(_) | Arg::Map(_) | Arg::Int(Int::Huge) => return None,
            Arg::Null => Value::None,
            Arg::Bool(b) => Value::Bool(b),
            Arg::Int(Int::Small(n)) => Value::Int(*n),
            Arg::Int(Int::Big(digits)) => Value::BigInt(digits.clone()),
            Arg::Float(f) => Value::Float(f),
            Arg::Str(s) => Value::Str(s.to_owned()),
            Arg::Bytes(_) => Value::Bytes,
        })
    }

    /// Python truthiness (`None` for a call).
    pub(in crate::rules) fn truthy(self, doc: &Document) -> Option<bool> {
        match self {
            Arg::Call(_) => None,
            Arg::Null => Some(false),
            Arg::Bool(b) => Some(b),
            Arg::Int(n) => Some(*n != Int::Small(0)),
            Arg::Float(f) => Some(f != 0.0),
            Arg::Str(s) | Arg::Bytes(s) => Some(!s.is_empty()),
            Arg::List(items) => Some(!items.is_empty()),
            Arg::Map(map) => Some(!doc.entries(map).is_empty()),
        }
    }

    /// Python's type name (`NoneType`, `int`, `bytes`, …); `None` for a call.
    pub(in crate::rules) fn py_type(self) -> Option<&'static str> {
        match self {
            Arg::Call(_) => None,
            Arg::List(_) => Some("list"),
            Arg::Map(_) => Some("dict"),
            Arg::Str(_) => Some("str"),
            leaf => leaf.to_py().map(|value| value.type_name()),
        }
    }

    /// A short description for messages: "a `get_param` call", "null", "a list of 3 items".
    pub(in crate::rules) fn describe(self) -> String {
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
            Arg::Bytes(_) => "a value Heat cannot use".to_owned(),
        }
    }

    pub(in crate::rules) fn is_call(self) -> bool {
        matches!(self, Arg::Call(_))
    }

    /// A literal Python `str`.
    pub(in crate::rules) fn is_str(self) -> bool {
        matches!(self, Arg::Str(_))
    }

    /// A literal Heat can be sent (not a call, not `bytes`).
    pub(in crate::rules) fn is_known(self) -> bool {
        !matches!(self, Arg::Call(_) | Arg::Bytes(_))
    }

    /// A literal that `isinstance(x, collections.abc.Sequence)` accepts (`str` included).
    pub(in crate::rules) fn is_sequence(self) -> bool {
        matches!(self, Arg::Str(_) | Arg::List(_))
    }

    /// `int(x)` in Python.
    pub(in crate::rules) fn to_int(self) -> PyInt {
        match self {
            Arg::Call(_) | Arg::Bytes(_) | Arg::Int(Int::Huge) => PyInt::Unknown,
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
            Arg::Str(s) => match str_int(s) {
                StrInt::Value(n) => PyInt::Value(n.and_then(|n| i64::try_from(n).ok())),
                StrInt::ValueError => PyInt::ValueError,
                StrInt::Unknown => PyInt::Unknown,
            },
        }
    }
}

/// The outcome of Python's `int(x)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::rules) enum PyInt {
    /// The value (`None`: too large for `i64`).
    Value(Option<i64>),
    ValueError,
    TypeError,
    Unknown,
}

#[cfg(test)]
mod tests {
    use hotfix_hot::{Semantic, Template};

    use super::*;

    /// `check` with the view of a template and the node of output `out`'s value.
    fn with_output(value: &str, check: impl FnOnce(&View<'_>, NodeId)) {
        let text = format!(
            "heat_template_version: 2018-08-31\nparameters: {{p: {{type: string}}}}\noutputs:\n  out: {{value: {value}}}\n"
        );
        let doc = hotfix_yaml::parse(&text).expect("a template");
        let template = Template::new(&doc);
        let semantic = Semantic::new(&template);
        let output = template.outputs.first().expect("an output");
        let node = doc.get(output.value, "value").expect("a value");
        check(&View::new(&doc, &semantic), node);
    }

    #[test]
    fn prints_a_call_as_unknown_and_stops_at_the_limits() {
        with_output(
            "[1, {get_param: p}, .nan, 'it''s', !!binary aGk=]",
            |view, node| {
                assert_eq!(
                    view.repr_within(node, 16, 80),
                    "[1, …, nan, \"it's\", b'…']"
                );
                assert_eq!(view.literal_repr(node, 200), None);
            },
        );
        with_output("[[[[1]]], 2]", |view, node| {
            assert_eq!(view.repr_within(node, 2, 80), "[[[…]], 2]");
            assert_eq!(view.literal_repr(node, 5).as_deref(), Some("[[[[1"));
        });
    }

    #[test]
    fn tells_calls_from_literals_as_python_types() {
        with_output(
            "{a: {get_param: p}, b: !!binary '', c: '012', d: 1_000}",
            |view, node| {
                let doc = view.doc;
                let value = |key: &str| view.arg(doc.get(node, key).expect("an entry"));
                assert!(value("a").is_call());
                assert_eq!(Arg::of(doc, node).py_type(), Some("dict"));
                assert_eq!(value("b").py_type(), Some("bytes"));
                assert_eq!(value("b").truthy(doc), Some(false));
                assert!(!value("b").is_known());
                assert_eq!(value("c").to_int(), PyInt::Value(Some(12)));
                assert_eq!(value("d").to_int(), PyInt::Value(Some(1000)));
                assert_eq!(view.str(doc.get(node, "c").expect("c")), Some("012"));
            },
        );
    }
}
