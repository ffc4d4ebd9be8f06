//! What the resource rules share: finding calls, Python truthiness, and names for versions.

use hotfix_diagnostics::{Edit, Span};
use hotfix_hot::{Call, Named, Version};
use hotfix_yaml::{Document, Int, NodeId, NodeKind, ScalarStyle, ScalarValue};

use crate::rule::Context;

/// The first version whose resources accept `external_id` and `condition`.
pub(super) const NEWTON: Version = Version::V2016_10_14;

/// The call `node` makes (through aliases), if Heat's parser calls it, whatever its status.
pub(super) fn call_at<'c>(cx: &Context<'c>, node: NodeId) -> Option<&'c Call> {
    cx.semantic.call_at(cx.doc.resolve(node))
}

/// Whether Python finds the loaded value false (`None`, `''`, `0`, `False`, `[]`, `{}`).
pub(super) fn is_falsy(doc: &Document, id: NodeId) -> bool {
    match &doc.node(doc.resolve(id)).kind {
        NodeKind::Scalar(s) => match &s.value {
            ScalarValue::Null => true,
            ScalarValue::Bool(b) => !*b,
            ScalarValue::Int(n) => *n == Int::Small(0),
            ScalarValue::Float(f) => *f == 0.0,
            ScalarValue::Str | ScalarValue::Binary => s.text.is_empty(),
            ScalarValue::Merge | ScalarValue::ValueKey => false,
        },
        NodeKind::Sequence { items, .. } => items.is_empty(),
        NodeKind::Mapping { .. } => doc.entries(id).is_empty(),
        NodeKind::Alias { .. } => false,
    }
}

/// The resources whose definition is a mapping (the others are `resource-not-mapping`'s).
pub(super) fn mapping_resources<'t>(cx: &'t Context<'_>) -> impl Iterator<Item = &'t Named> {
    cx.template
        .resources
        .iter()
        .filter(|r| cx.template.is_mapping(r.value))
}

/// The span to point at for a node: the node itself, or `fallback` when the node is empty
/// (an implicit null such as `type:` has no text).
pub(super) fn span_or(cx: &Context<'_>, node: NodeId, fallback: NodeId) -> Span {
    let span = cx.span(node);
    if span.is_empty() {
        cx.span(fallback)
    } else {
        span
    }
}

/// `heat_template_version 2016-10-14 (newton)`.
pub(super) fn version_label(version: Version) -> String {
    match version.name() {
        Some(name) => format!("{} ({name})", version.date()),
        None => version.date().to_owned(),
    }
}

/// An edit that replaces the string scalar `node` with `text` written the same way (plain,
/// single- or double-quoted). `None` for aliases, tagged and block scalars, where a textual
/// replacement could change more than this one value. `text` must be safe as a plain scalar.
pub(super) fn replace_scalar(cx: &Context<'_>, node: NodeId, text: &str) -> Option<Edit> {
    let n = cx.doc.node(node);
    if n.tag.is_some() {
        return None;
    }
    let NodeKind::Scalar(scalar) = &n.kind else {
        return None;
    };
    let content = match scalar.style {
        ScalarStyle::Plain => text.to_owned(),
        ScalarStyle::SingleQuoted => format!("'{text}'"),
        ScalarStyle::DoubleQuoted => format!("\"{text}\""),
        ScalarStyle::Literal | ScalarStyle::Folded => return None,
    };
    Some(Edit::replace(n.span, content))
}

/// What a loaded value is, in words: "a string", "a list", "null".
pub(super) fn kind_name(doc: &Document, id: NodeId) -> &'static str {
    match &doc.node(doc.resolve(id)).kind {
        NodeKind::Mapping { .. } => "a mapping",
        NodeKind::Sequence { .. } => "a list",
        NodeKind::Alias { .. } => "an alias",
        NodeKind::Scalar(s) => match s.value {
            ScalarValue::Null => "null",
            ScalarValue::Bool(_) => "a boolean",
            ScalarValue::Int(_) => "an integer",
            ScalarValue::Float(_) => "a float",
            ScalarValue::Binary => "binary data",
            ScalarValue::Str | ScalarValue::Merge | ScalarValue::ValueKey => "a string",
        },
    }
}

/// User text for a one-line message: control characters (a newline from a block scalar)
/// escaped.
pub(super) fn esc(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}
