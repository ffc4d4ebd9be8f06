//! What the condition rules share: finding calls, and values as Python prints them (Heat's
//! messages interpolate them with `%s`).

use hotfix_hot::{Call, Version};
use hotfix_yaml::{NodeId, NodeKind, ScalarValue};

use crate::rule::Context;

pub(super) use crate::rules::util::{esc, kind_name, span_or};

/// The first version with conditions.
pub(super) const NEWTON: Version = Version::V2016_10_14;

/// How many characters of a value a message shows.
const MAX_SHOWN: usize = 80;

/// How deep nested collections are printed.
const MAX_DEPTH: usize = 16;

/// The call `node` makes (through aliases), if Heat's parser calls it, whatever its status.
pub(super) fn call_at<'c>(cx: &Context<'c>, node: NodeId) -> Option<&'c Call> {
    cx.semantic.call_at(cx.doc.resolve(node))
}

/// Python's `str()` of the loaded value: a string as it is, anything else as its `repr()`.
/// Calls (which Heat would have resolved) print as `…`; long values are cut.
pub(super) fn py_str(cx: &Context<'_>, id: NodeId) -> String {
    if let Some(s) = cx.doc.scalar(id)
        && matches!(s.value, ScalarValue::Str)
    {
        return cut(&s.text);
    }
    let mut out = String::new();
    py_repr(cx, id, &mut out, 0);
    cut(&out)
}

fn cut(text: &str) -> String {
    let mut text = esc(text).into_owned();
    if let Some((at, _)) = text.char_indices().nth(MAX_SHOWN) {
        text.truncate(at);
        text.push('…');
    }
    text
}

/// Python's `repr()` of the loaded value.
fn py_repr(cx: &Context<'_>, id: NodeId, out: &mut String, depth: usize) {
    let doc = cx.doc;
    if out.len() > MAX_SHOWN * 4 || depth > MAX_DEPTH {
        out.push('…');
        return;
    }
    if call_at(cx, id).is_some() {
        out.push('…');
        return;
    }
    match &doc.node(doc.resolve(id)).kind {
        NodeKind::Scalar(s) => match &s.value {
            ScalarValue::Null => out.push_str("None"),
            ScalarValue::Bool(true) => out.push_str("True"),
            ScalarValue::Bool(false) => out.push_str("False"),
            ScalarValue::Int(n) => out.push_str(&n.to_string()),
            ScalarValue::Float(f) => out.push_str(&hotfix_yaml::python_float_repr(*f)),
            ScalarValue::Binary => out.push_str("b'…'"),
            ScalarValue::Str | ScalarValue::Merge | ScalarValue::ValueKey => {
                str_repr(&s.text, out);
            }
        },
        NodeKind::Sequence { items, .. } => {
            out.push('[');
            for (i, &item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                py_repr(cx, item, out, depth + 1);
            }
            out.push(']');
        }
        NodeKind::Mapping { .. } => {
            out.push('{');
            for (i, entry) in doc.entries(id).iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                py_repr(cx, entry.key, out, depth + 1);
                out.push_str(": ");
                py_repr(cx, entry.value, out, depth + 1);
            }
            out.push('}');
        }
        NodeKind::Alias { .. } => out.push('…'),
    }
}

/// Python's `repr()` of a `str`, appended to `out`.
fn str_repr(text: &str, out: &mut String) {
    out.push_str(&crate::rules::util::py_str_repr(text));
}
