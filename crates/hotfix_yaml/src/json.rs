//! JSON text → node tree, accepting exactly what Python's `json.loads` accepts.
//!
//! Heat tries `json.loads` before YAML, so a JSON template is read with JSON's rules
//! (`1e3` is the float 1000.0, not the string YAML 1.1 would make of it). Python's decoder also
//! accepts `NaN`, `Infinity` and `-Infinity`, rejects control characters inside strings, and
//! keeps the last of repeated keys. The text is read by [`crate::json_loads`], the one reader
//! of `json.loads` every part of hotfix uses; this module numbers its nodes in the text's order.

use crate::document::{
    Children, Document, Entry, Node, NodeId, NodeKind, Scalar, ScalarStyle, SourceFormat, Span,
    Style,
};
use crate::json_loads::Events;
use crate::scalar::{Int, ScalarValue};

/// How many arrays and objects may nest: deeper is treated as "not JSON" (YAML then reports
/// it). Python reads deeper; the checks that walk a document do not go further.
const MAX_JSON_DEPTH: usize = 200;

/// The document, or `None` when `json.loads` would raise (Heat then tries YAML).
pub(crate) fn parse(source: &str) -> Option<Document> {
    // Fast exit for the common case: a YAML template starts with a key or a comment.
    let first = source
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    if !matches!(
        first,
        b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' | b'N' | b'I'
    ) {
        return None;
    }
    // The document takes its copy of the text once the text has loaded: most templates are
    // YAML, and this reader gives up on them.
    let mut nodes = Nodes {
        doc: Document::new("", SourceFormat::Json),
        open: Vec::new(),
    };
    let root = crate::json_loads::read(source, MAX_JSON_DEPTH, &mut nodes).ok()?;
    nodes.doc.root = Some(root);
    source.clone_into(&mut nodes.doc.source);
    Some(nodes.doc)
}

/// The nodes of a document, in the order of the text: an array or object before its items, a
/// key before its value.
struct Nodes {
    doc: Document,
    /// The arrays and objects open, innermost last.
    open: Vec<NodeId>,
}

impl Nodes {
    fn scalar(
        &mut self,
        span: Span,
        text: String,
        style: ScalarStyle,
        value: ScalarValue,
    ) -> NodeId {
        self.doc.push(Node {
            span,
            kind: NodeKind::Scalar(Scalar {
                text: text.into(),
                style,
                value,
            }),
            anchor: None,
            tag: None,
        })
    }

    /// A string or key: a lone surrogate (which `json.loads` keeps in its string) is the
    /// stand-in [`crate::surrogate_char`] gives it, and the scalar is marked.
    fn text(&mut self, code_points: &[u32], span: Span) -> NodeId {
        let mut lone = false;
        let text: String = code_points
            .iter()
            .map(|&c| {
                if (0xD800..0xE000).contains(&c) {
                    lone = true;
                    crate::surrogate_char(c)
                } else {
                    char::from_u32(c).unwrap_or('\u{fffd}')
                }
            })
            .collect();
        let id = self.scalar(span, text, ScalarStyle::DoubleQuoted, ScalarValue::Str);
        if lone {
            self.doc.surrogates.push(id);
        }
        id
    }

    /// Closes the innermost array or object opened.
    fn close(&mut self, kind: NodeKind, span: Span) -> NodeId {
        let id = self
            .open
            .pop()
            .expect("json_loads opens an array or object before closing it");
        let node = self.doc.node_mut(id);
        node.span = span;
        node.kind = kind;
        id
    }
}

impl Events for Nodes {
    type Value = NodeId;
    type Key = NodeId;

    fn open(&mut self, at: usize, array: bool) {
        let kind = if array {
            NodeKind::Sequence {
                items: Children::new(),
                style: Style::Flow,
            }
        } else {
            NodeKind::Mapping {
                entries: Children::new(),
                style: Style::Flow,
            }
        };
        let id = self.doc.push(Node {
            span: Span::new(at, at),
            kind,
            anchor: None,
            tag: None,
        });
        self.open.push(id);
    }

    fn null(&mut self, span: Span) -> NodeId {
        self.scalar(span, "null".into(), ScalarStyle::Plain, ScalarValue::Null)
    }

    fn boolean(&mut self, value: bool, span: Span) -> NodeId {
        let text = if value { "true" } else { "false" };
        self.scalar(
            span,
            text.into(),
            ScalarStyle::Plain,
            ScalarValue::Bool(value),
        )
    }

    /// An `int` unless it has a fraction or an exponent (or is `NaN`, `Infinity`,
    /// `-Infinity`).
    fn number(&mut self, text: &str, float: bool, span: Span) -> NodeId {
        let value = if float {
            // Rust reads every float text `json.loads` does (`NaN`, `Infinity` included).
            ScalarValue::Float(text.parse().unwrap_or(f64::NAN))
        } else {
            // Python's int(): `-0` is 0; beyond i64 the digits are kept as written.
            ScalarValue::Int(
                text.parse::<i64>()
                    .map_or_else(|_| Int::Big(text.to_owned()), Int::Small),
            )
        };
        self.scalar(span, text.to_owned(), ScalarStyle::Plain, value)
    }

    fn string(&mut self, code_points: &[u32], span: Span) -> NodeId {
        self.text(code_points, span)
    }

    fn key(&mut self, code_points: Vec<u32>, span: Span) -> NodeId {
        self.text(&code_points, span)
    }

    fn list(&mut self, items: Vec<NodeId>, span: Span) -> NodeId {
        let kind = NodeKind::Sequence {
            items: items.into(),
            style: Style::Flow,
        };
        self.close(kind, span)
    }

    fn object(&mut self, entries: Vec<(NodeId, NodeId)>, span: Span) -> NodeId {
        let entries = entries
            .into_iter()
            .map(|(key, value)| Entry { key, value })
            .collect();
        let kind = NodeKind::Mapping {
            entries,
            style: Style::Flow,
        };
        self.close(kind, span)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nests_at_most_200_arrays_and_objects() {
        for (depth, inner, json) in [
            (200, "", true),
            (200, "1", true),
            (201, "", false),
            (201, "1", false),
        ] {
            let text = format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(super::parse(&text).is_some(), json, "{depth} {inner:?}");
        }
    }

    #[test]
    fn numbers_nodes_in_the_order_of_the_text() {
        let doc = super::parse(r#" {"a": [1, "\ud800"], "b": {}} "#).expect("JSON");
        let spans: Vec<(usize, usize)> = doc
            .nodes
            .iter()
            .map(|node| (node.span.start, node.span.end))
            .collect();
        // The object, "a", the array, 1, the string, "b", the empty object.
        assert_eq!(
            spans,
            [
                (1, 30),
                (2, 5),
                (7, 20),
                (8, 9),
                (11, 19),
                (22, 25),
                (27, 29)
            ]
        );
        assert_eq!(doc.surrogates, [super::NodeId(4)]);
    }
}
