//! Helpers of the `cfn` rules: positions in the text, comments between tokens, re-indentation,
//! and what a node is known to resolve to.

use hotfix_diagnostics::{Edit, Span};
use hotfix_hot::{Call, CallStatus, Function, PSEUDO_PARAMETERS, Semantic, Template};
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarStyle, SourceFormat, Style};

use crate::upgrade::shared::rename_key;

/// What the help adds when a call's text cannot be edited in place.
pub(super) const NOT_IN_PLACE: &str = "hotfix does not rewrite a call written in an unusual \
     way (through a merge key `<<`, with a repeated key, with an anchor or tag the rewrite would \
     move, as a block scalar with an indentation indicator such as `|2`, or with a mapping \
     argument written without its braces, like `[P, k: v]` or `- k:`): rewrite it by hand";

/// How deep the value classifiers follow nested calls.
const MAX_DEPTH: usize = 32;

/// The line break the file uses.
pub(super) fn newline(src: &str) -> &'static str {
    if src.contains("\r\n") { "\r\n" } else { "\n" }
}

/// Where the line holding `pos` starts.
pub(super) fn line_start(src: &str, pos: usize) -> usize {
    src.get(..pos)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// The column of `pos`, in characters (what YAML indentation counts).
pub(super) fn column(src: &str, pos: usize) -> usize {
    src.get(line_start(src, pos)..pos)
        .map_or(0, |s| s.chars().count())
}

/// Whether only spaces precede `pos` on its line.
pub(super) fn first_on_line(src: &str, pos: usize) -> bool {
    src.get(line_start(src, pos)..pos)
        .is_some_and(|s| s.bytes().all(|b| b == b' '))
}

/// The first position at or after `pos` that is not a space, tab, line break or comment.
pub(super) fn skip_trivia(src: &str, mut pos: usize) -> usize {
    let bytes = src.as_bytes();
    while let Some(&b) = bytes.get(pos) {
        match b {
            b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
            b'#' => {
                pos = src
                    .get(pos..)
                    .and_then(|rest| rest.find('\n'))
                    .map_or(src.len(), |i| pos + i);
            }
            _ => break,
        }
    }
    pos
}

/// The first position at or after `pos` that is not a space or tab.
pub(super) fn skip_spaces(src: &str, mut pos: usize) -> usize {
    let bytes = src.as_bytes();
    while matches!(bytes.get(pos), Some(b' ' | b'\t')) {
        pos += 1;
    }
    pos
}

/// The position just after the `:` that follows a block mapping key ending at `key_end`.
pub(super) fn after_colon(src: &str, key_end: usize) -> Option<usize> {
    let at = skip_spaces(src, key_end);
    (src.as_bytes().get(at) == Some(&b':')).then_some(at + 1)
}

/// The comment in a stretch of text that holds only spaces, line breaks and comments: from its
/// `#` to the end of its line. `None` when there is none; the first when there are several,
/// which is why callers give up on gaps holding more than one.
pub(super) fn gap_comment(src: &str, span: Span) -> Option<&str> {
    let gap = src.get(span.range())?;
    let start = gap.find('#')?;
    let rest = gap.get(start..)?;
    let end = rest.find('\n').unwrap_or(rest.len());
    Some(rest.get(..end)?.trim_end())
}

/// How many comments a stretch of trivia holds.
pub(super) fn gap_comments(src: &str, span: Span) -> usize {
    src.get(span.range())
        .map_or(0, |gap| gap.matches('#').count())
}

/// Where a node's own text starts, without its anchor and tag. A block sequence's span starts
/// at its first item, so its text starts at the `-` before it (`None` when that `-` is not on
/// the item's line); a block mapping's at its first key, anchor or tag included.
pub(super) fn content_start(doc: &Document, id: NodeId) -> Option<usize> {
    let node = doc.node(id);
    match &node.kind {
        NodeKind::Sequence {
            items,
            style: Style::Block,
        } => {
            let item = full_start(doc, *items.first()?)?;
            let before = doc.source().get(..item)?.trim_end_matches([' ', '\t']);
            before.ends_with('-').then(|| before.len() - 1)
        }
        NodeKind::Mapping {
            entries,
            style: Style::Block,
        } => Some(node.span.start.min(full_start(doc, entries.first()?.key)?)),
        _ => Some(node.span.start),
    }
}

/// Where a node's text starts, its anchor and tag included.
pub(super) fn full_start(doc: &Document, id: NodeId) -> Option<usize> {
    let node = doc.node(id);
    let mut start = content_start(doc, id)?;
    if let Some(anchor) = node.anchor {
        start = start.min(anchor.start);
    }
    if let Some(span) = node.tag.as_ref().and_then(|t| t.span) {
        start = start.min(span.start);
    }
    Some(start)
}

/// Whether the node carries an anchor or a tag.
pub(super) fn has_props(doc: &Document, id: NodeId) -> bool {
    let node = doc.node(id);
    node.anchor.is_some() || node.tag.is_some()
}

/// A node's text with its anchor and tag; `None` when that text cannot stand elsewhere on its
/// own (see [`self_contained`]).
pub(super) fn full_text(doc: &Document, id: NodeId) -> Option<&str> {
    if !self_contained(doc, id) {
        return None;
    }
    doc.source()
        .get(full_start(doc, id)?..doc.node(id).span.end)
}

/// Whether a node's text means the same node when moved elsewhere: not a flow pair without its
/// braces (`[P, k: v]`, whose item is the mapping `{k: v}`), and not a block collection that
/// ends in an empty value (`- k:`), whose span stops before the `:` that makes it a mapping.
fn self_contained(doc: &Document, id: NodeId) -> bool {
    let node = doc.node(id);
    let text = doc.source().get(node.span.range()).unwrap_or_default();
    let last = match &node.kind {
        NodeKind::Mapping {
            style: Style::Flow, ..
        } => return text.starts_with('{'),
        NodeKind::Sequence {
            style: Style::Flow, ..
        } => return text.starts_with('['),
        NodeKind::Mapping { entries, .. } => entries.last().map(|e| e.value),
        NodeKind::Sequence { items, .. } => items.last().copied(),
        NodeKind::Scalar(_) | NodeKind::Alias { .. } => return true,
    };
    last.is_none_or(|last| !doc.node(last).span.is_empty() && self_contained(doc, last))
}

/// Whether the node (not through aliases) is a block mapping or block sequence.
pub(super) fn is_block_collection(doc: &Document, id: NodeId) -> bool {
    matches!(
        doc.node(id).kind,
        NodeKind::Mapping {
            style: Style::Block,
            ..
        } | NodeKind::Sequence {
            style: Style::Block,
            ..
        }
    )
}

/// Moves every line of `text` but the first (when `skip_first`) by `delta` columns. Empty lines
/// stay empty; a line never loses more spaces than it has. Every line of a block keeps its
/// indentation relative to the others, so block scalars keep their content.
pub(super) fn shift_lines(text: &str, delta: isize, skip_first: bool) -> String {
    if delta == 0 {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        if (i == 0 && skip_first) || body.is_empty() {
            out.push_str(line);
            continue;
        }
        let spaces = line.bytes().take_while(|&b| b == b' ').count();
        let kept = spaces.saturating_add_signed(delta);
        out.extend(std::iter::repeat_n(' ', kept));
        out.push_str(line.get(spaces..).unwrap_or_default());
    }
    out
}

/// `a - b` for columns.
pub(super) fn signed_delta(a: usize, b: usize) -> isize {
    let a = isize::try_from(a).unwrap_or(isize::MAX);
    let b = isize::try_from(b).unwrap_or(isize::MAX);
    a - b
}

/// Every node of a subtree, not through aliases.
pub(super) fn subtree(doc: &Document, root: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        out.push(id);
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
    out
}

/// Whether an alias in `later` names an anchor defined in `earlier`: moving `later`'s text in
/// front of `earlier`'s would then use the anchor before it is defined.
pub(super) fn refers_to(doc: &Document, later: NodeId, earlier: NodeId) -> bool {
    let defined = subtree(doc, earlier);
    subtree(doc, later)
        .into_iter()
        .any(|id| match doc.node(id).kind {
            NodeKind::Alias { target } => defined.contains(&target),
            _ => false,
        })
}

/// The block scalar a node's text ends with, if any: its last line is then content, and the
/// text that follows it must start with a line break for the content to stay the same.
pub(super) fn trailing_block_scalar(doc: &Document, id: NodeId) -> Option<NodeId> {
    let mut id = id;
    for _ in 0..hotfix_yaml::MAX_DEPTH {
        match &doc.node(id).kind {
            NodeKind::Scalar(s) => {
                return matches!(s.style, ScalarStyle::Literal | ScalarStyle::Folded).then_some(id);
            }
            NodeKind::Sequence {
                items,
                style: Style::Block,
            } => id = *items.last()?,
            NodeKind::Mapping {
                entries,
                style: Style::Block,
            } => id = entries.last()?.value,
            _ => return None,
        }
    }
    None
}

/// Whether a block scalar keeps its trailing blank lines (`|+`, `>+`), which lie outside its
/// span: its text cannot move.
pub(super) fn keeps_trailing_lines(doc: &Document, id: NodeId) -> bool {
    let text = doc.text(id);
    let header = text.split('\n').next().unwrap_or_default();
    let header = header.split('#').next().unwrap_or_default();
    header.contains('+')
}

/// Whether a block scalar's header gives its indentation (`|2`): the number counts from the
/// indentation of the collection holding it, so it cannot move to another collection.
pub(super) fn has_indentation_indicator(doc: &Document, id: NodeId) -> bool {
    match doc.scalar(id).map(|s| s.style) {
        Some(ScalarStyle::Literal | ScalarStyle::Folded) => {
            let header = doc.text(id).split('\n').next().unwrap_or_default();
            let header = header.split('#').next().unwrap_or_default();
            header.bytes().any(|b| b.is_ascii_digit())
        }
        _ => false,
    }
}

/// Whether the call is written as one `key: args` entry of its own mapping (not through a
/// merge key, not with a repeated key), so that its text can be edited in place.
pub(super) fn plain_call(doc: &Document, call: &Call) -> bool {
    matches!(doc.raw_entries(call.map), Some([entry]) if entry.key == call.key && entry.value == call.args)
}

/// A new key spelled like the function key it joins: quoted as it is quoted, and always in
/// double quotes in a JSON file.
pub(super) fn key_like(doc: &Document, key: NodeId, name: &str) -> String {
    if doc.format() == SourceFormat::Json {
        return format!("\"{name}\"");
    }
    match doc.scalar(key).map(|s| s.style) {
        Some(ScalarStyle::DoubleQuoted) => format!("\"{name}\""),
        Some(ScalarStyle::SingleQuoted) => format!("'{name}'"),
        _ => name.to_owned(),
    }
}

/// Renames a function key, keeping its quotes; a quoted key written with escapes is rewritten
/// whole.
pub(super) fn rename(doc: &Document, key: NodeId, name: &str) -> Option<Edit> {
    if let Some(edit) = rename_key(doc, key, name) {
        return Some(edit);
    }
    match doc.scalar(key)?.style {
        ScalarStyle::DoubleQuoted | ScalarStyle::SingleQuoted => {
            Some(Edit::replace(doc.node(key).span, key_like(doc, key, name)))
        }
        _ => None,
    }
}

/// Replaces a string scalar's value, keeping its quotes.
pub(super) fn replace_str(doc: &Document, id: NodeId, value: &str) -> Option<Edit> {
    let node = doc.node(id);
    let scalar = doc.scalar(id)?;
    if matches!(node.kind, NodeKind::Alias { .. }) {
        return Some(Edit::replace(node.span, value));
    }
    match scalar.style {
        ScalarStyle::Plain => Some(Edit::replace(node.span, value)),
        ScalarStyle::DoubleQuoted | ScalarStyle::SingleQuoted => {
            let inner = Span::new(node.span.start + 1, node.span.end.checked_sub(1)?);
            if doc.source().get(inner.range()) == Some(scalar.text.as_str()) {
                Some(Edit::replace(inner, value))
            } else {
                let quote = if scalar.style == ScalarStyle::DoubleQuoted {
                    '"'
                } else {
                    '\''
                };
                Some(Edit::replace(node.span, format!("{quote}{value}{quote}")))
            }
        }
        ScalarStyle::Literal | ScalarStyle::Folded => None,
    }
}

/// The call a node is, if any.
pub(super) fn call_at<'s>(semantic: &'s Semantic, doc: &Document, id: NodeId) -> Option<&'s Call> {
    semantic.call_at(doc.resolve(id))
}

/// The declared `type` of a parameter whose key is the string `name`.
pub(super) fn parameter_type<'d>(template: &Template<'d>, name: &str) -> Option<&'d str> {
    let doc = template.doc;
    let parameter = template
        .parameters
        .iter()
        .find(|p| doc.str_value(p.key) == Some(name))?;
    doc.str_value(doc.get(parameter.value, "type")?)
}

/// Whether a resource's key is the string `name`.
pub(super) fn is_resource(template: &Template<'_>, name: &str) -> bool {
    template
        .resources
        .iter()
        .any(|r| template.doc.str_value(r.key) == Some(name))
}

/// Whether a parameter (declared, or one of Heat's `OS::` pseudo parameters) is `name`.
pub(super) fn is_parameter(template: &Template<'_>, name: &str) -> bool {
    PSEUDO_PARAMETERS.contains(&name)
        || template
            .parameters
            .iter()
            .any(|p| template.doc.str_value(p.key) == Some(name))
}

/// The parameter a `get_param` call (or a `Ref` that is not a resource) reads.
fn parameter_read(template: &Template<'_>, call: &Call, function: Function) -> Option<String> {
    let doc = template.doc;
    let name = match function {
        Function::GetParam => doc.str_value(call.args).or_else(|| {
            doc.items(call.args)?
                .first()
                .and_then(|&i| doc.str_value(i))
        }),
        Function::Ref => doc
            .str_value(call.args)
            .filter(|name| !is_resource(template, name)),
        _ => None,
    }?;
    Some(name.to_owned())
}

/// Whether the parameter's value (and anything a `get_param` path selects from it) is always a
/// string: `string` parameters and the pseudo parameters.
fn string_parameter(template: &Template<'_>, name: &str) -> bool {
    PSEUDO_PARAMETERS.contains(&name) || parameter_type(template, name) == Some("string")
}

/// Whether the node always resolves to a string (or fails the same way wherever it is): a
/// literal string, or a function that only returns strings. `false` means "not known".
pub(super) fn returns_str(template: &Template<'_>, semantic: &Semantic, id: NodeId) -> bool {
    returns_str_at(template, semantic, id, 0)
}

fn returns_str_at(template: &Template<'_>, semantic: &Semantic, id: NodeId, depth: usize) -> bool {
    let doc = template.doc;
    if doc.str_value(id).is_some() {
        return true;
    }
    if depth > MAX_DEPTH {
        return false;
    }
    let Some(call) = call_at(semantic, doc, id) else {
        return false;
    };
    let CallStatus::Active(function) = call.status else {
        return false;
    };
    match function {
        Function::ListJoin
        | Function::FnJoin
        | Function::StrReplace
        | Function::FnReplace
        | Function::StrReplaceStrict
        | Function::StrReplaceVstrict
        | Function::GetFile
        | Function::GetResource
        | Function::Digest
        | Function::MakeUrl => true,
        Function::FnBase64 => returns_str_at(template, semantic, call.args, depth + 1),
        Function::Ref => match doc.str_value(call.args) {
            Some(name) if is_resource(template, name) => true,
            _ => parameter_read(template, call, function)
                .is_some_and(|name| string_parameter(template, &name)),
        },
        Function::GetParam => parameter_read(template, call, function)
            .is_some_and(|name| string_parameter(template, &name)),
        Function::ResourceFacade | Function::FnResourceFacade => matches!(
            doc.str_value(call.args),
            Some("deletion_policy" | "DeletionPolicy")
        ),
        _ => false,
    }
}

/// Whether the node never resolves to `None` (null): literal non-null values, string
/// functions, and parameters of any type but `json`.
pub(super) fn never_null(template: &Template<'_>, semantic: &Semantic, id: NodeId) -> bool {
    let doc = template.doc;
    if returns_str(template, semantic, id) {
        return true;
    }
    if let Some(call) = call_at(semantic, doc, id) {
        return match call.status {
            CallStatus::Active(function @ (Function::GetParam | Function::Ref)) => {
                parameter_read(template, call, function).is_some_and(|name| {
                    PSEUDO_PARAMETERS.contains(&name.as_str())
                        || matches!(
                            parameter_type(template, &name),
                            Some("string" | "number" | "comma_delimited_list" | "boolean")
                        )
                })
            }
            _ => false,
        };
    }
    match &doc.node(doc.resolve(id)).kind {
        NodeKind::Scalar(s) => !matches!(s.value, hotfix_yaml::ScalarValue::Null),
        NodeKind::Sequence { .. } | NodeKind::Mapping { .. } => true,
        NodeKind::Alias { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_every_line_but_empty_ones() {
        let text = "a: 1\n    b: |\n      x\n\n      y\r\n";
        assert_eq!(
            shift_lines(text, -2, true),
            "a: 1\n  b: |\n    x\n\n    y\r\n"
        );
        assert_eq!(shift_lines("a\n b\n", 2, false), "  a\n   b\n");
        assert_eq!(shift_lines("a\n b\n", -4, true), "a\nb\n");
    }

    #[test]
    fn a_block_sequence_starts_at_its_dash() {
        let doc = hotfix_yaml::parse("k:\n  - - a\n    - b\n  - c\n").expect("parses");
        let root = doc.root();
        let value = doc.get(root, "k").expect("k");
        let start = full_start(&doc, value).expect("a start");
        assert_eq!(
            doc.source().get(start..doc.node(value).span.end),
            Some("- - a\n    - b\n  - c")
        );
    }

    #[test]
    fn finds_comments_and_trivia() {
        let src = "a:   # note\n  - x";
        assert_eq!(skip_trivia(src, 2), src.len() - 3);
        assert_eq!(gap_comment(src, Span::new(2, 14)), Some("# note"));
        assert_eq!(gap_comments(src, Span::new(2, 14)), 1);
        assert_eq!(column(src, src.len() - 3), 2);
        assert_eq!(after_colon("key :x", 3), Some(5));
    }
}
