//! What the `repeat` rules share: the parts of each call, and what Heat makes of them.
//!
//! Heat's `Repeat._parse_args` (`heat/engine/hot/functions.py`) reads `for_each` and
//! `template` from the (already parsed) arguments; `RepeatWithNestedLoop` (2017-09-01 on) also
//! reads `permutations`. A value that is a function call is a `Function` object there, so
//! every check on a literal value is skipped for calls.

use foldhash::{HashSet, HashSetExt as _};
use hotfix_diagnostics::Edit;
use hotfix_hot::{Call, Function, Version};
use hotfix_yaml::{Document, Entry, NodeId, NodeKind, ScalarValue, Style};

use crate::rule::Context;
use crate::rules::util::call_at;

/// One active `repeat` call and its arguments.
#[derive(Debug)]
pub(super) struct Repeat<'a> {
    pub(super) call: &'a Call,
    /// The arguments when they are a literal mapping (what Heat requires).
    pub(super) args: Option<NodeId>,
    pub(super) for_each: Option<Entry>,
    pub(super) template: Option<Entry>,
    pub(super) permutations: Option<Entry>,
}

impl Repeat<'_> {
    /// The `for_each` value when it is a literal mapping (not a call): its entries as Python
    /// sees them.
    pub(super) fn for_each_entries(&self, cx: &Context<'_>) -> Option<Vec<Entry>> {
        let doc = cx.doc;
        let value = self.for_each?.value;
        if call_at(cx, value).is_some() || !is_mapping(doc, value) {
            return None;
        }
        Some(doc.entries(value).into())
    }

    /// Whether the loops are zipped rather than nested: `permutations: false` (a YAML boolean)
    /// in a version that reads the key.
    pub(super) fn zipped(&self, doc: &Document, version: Version) -> bool {
        version.has_repeat_permutations()
            && self.permutations.is_some_and(|p| {
                doc.scalar(p.value)
                    .is_some_and(|s| s.value == ScalarValue::Bool(false))
            })
    }
}

/// Every active `repeat` call with its arguments split out.
pub(super) fn repeats<'a>(cx: &Context<'a>) -> Vec<Repeat<'a>> {
    let doc = cx.doc;
    cx.semantic
        .calls_to(Function::Repeat)
        .map(|call| {
            let args = (is_mapping(doc, call.args) && call_at(cx, call.args).is_none())
                .then_some(call.args);
            let entry = |name: &str| -> Option<Entry> {
                let args = args?;
                let value = doc.get(args, name)?;
                let key = doc.get_key(args, name)?;
                Some(Entry { key, value })
            };
            Repeat {
                call,
                args,
                for_each: entry("for_each"),
                template: entry("template"),
                permutations: entry("permutations"),
            }
        })
        .collect()
}

pub(super) fn is_mapping(doc: &Document, id: NodeId) -> bool {
    matches!(doc.node(doc.resolve(id)).kind, NodeKind::Mapping { .. })
}

/// The number of items a literal `for_each` value gives (`None` → 0), when it is known: a
/// list (unless an item may vanish: a wallaby two-argument `if`), a map (its keys) or null.
pub(super) fn literal_len(cx: &Context<'_>, version: Version, value: NodeId) -> Option<usize> {
    let doc = cx.doc;
    if call_at(cx, value).is_some() {
        return None;
    }
    let resolved = doc.resolve(value);
    match &doc.node(resolved).kind {
        NodeKind::Sequence { items, .. } => {
            let may_vanish = version.has_nullable_if()
                && items.iter().any(|&item| {
                    call_at(cx, item).is_some_and(|c| c.status.function() == Function::If)
                });
            (!may_vanish).then_some(items.len())
        }
        NodeKind::Mapping { .. } => Some(doc.entries(resolved).len()),
        NodeKind::Scalar(s) if s.value == ScalarValue::Null => Some(0),
        _ => None,
    }
}

/// Visits every node reachable from `root` once (through aliases), calling `visit` with each
/// resolved node; `visit` returns whether to descend into it.
pub(super) fn walk(doc: &Document, root: NodeId, mut visit: impl FnMut(NodeId) -> bool) {
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let id = doc.resolve(id);
        if !seen.insert(id) || !visit(id) {
            continue;
        }
        match &doc.node(id).kind {
            NodeKind::Sequence { items, .. } => stack.extend(items.iter().rev()),
            NodeKind::Mapping { entries, .. } => {
                for entry in entries.iter().rev() {
                    stack.push(entry.value);
                    stack.push(entry.key);
                }
            }
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
        }
    }
}

/// A short description of a node for messages: `a str`, `an int`, `a list`, `a map`.
pub(super) fn a_type(doc: &Document, id: NodeId) -> &'static str {
    match &doc.node(doc.resolve(id)).kind {
        NodeKind::Mapping { .. } => "a map",
        NodeKind::Sequence { .. } => "a list",
        NodeKind::Alias { .. } => "an alias",
        NodeKind::Scalar(s) => match s.value {
            ScalarValue::Null => "null",
            ScalarValue::Bool(_) => "a boolean",
            ScalarValue::Int(_) => "an int",
            ScalarValue::Float(_) => "a float",
            ScalarValue::Binary => "binary data",
            ScalarValue::Str | ScalarValue::Merge | ScalarValue::ValueKey => "a str",
        },
    }
}

/// An edit that deletes a whole `key: value` entry of a block mapping, with its line(s), when
/// that is certain to leave the rest intact: the key starts its line, nothing but a comment
/// follows the value, neither carries an anchor, and the mapping keeps another entry.
pub(super) fn delete_entry_lines(doc: &Document, mapping: NodeId, entry: Entry) -> Option<Edit> {
    let mapping = doc.resolve(mapping);
    let NodeKind::Mapping { entries, style } = &doc.node(mapping).kind else {
        return None;
    };
    if *style != Style::Block || entries.len() < 2 || !entries.contains(&entry) {
        return None;
    }
    let (key, value) = (doc.node(entry.key), doc.node(entry.value));
    if key.anchor.is_some() || value.anchor.is_some() || key.tag.is_some() {
        return None;
    }
    let source = doc.source();
    let before = source.get(..key.span.start)?;
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    if !before.get(line_start..)?.bytes().all(|b| b == b' ') {
        return None;
    }
    let after = source.get(value.span.end..)?;
    let line_len = after.find(['\n', '\r']).unwrap_or(after.len());
    let rest = after.get(..line_len)?.trim_start_matches([' ', '\t']);
    if !(rest.is_empty() || rest.starts_with('#')) {
        return None;
    }
    let mut end = value.span.end + line_len;
    if source.get(end..)?.starts_with("\r\n") {
        end += 2;
    } else if end < source.len() {
        end += 1;
    }
    Some(Edit::delete(hotfix_diagnostics::Span::new(line_start, end)))
}

/// The quoted form of a plain scalar, for a fix that keeps its text as a string.
pub(super) fn quoted(doc: &Document, text: &str) -> String {
    if doc.format() == hotfix_yaml::SourceFormat::Json {
        format!("\"{text}\"")
    } else {
        format!("'{text}'")
    }
}

/// The span of a node without the trailing line breaks a block scalar (`>-`, `|`) takes in.
pub(super) fn span(cx: &Context<'_>, id: NodeId) -> hotfix_diagnostics::Span {
    let span = cx.span(id);
    let text = cx.text(id);
    let trimmed = text.trim_end_matches(['\n', '\r', ' ', '\t']).len();
    if trimmed == 0 {
        return span;
    }
    hotfix_diagnostics::Span::new(span.start, span.start + trimmed)
}
