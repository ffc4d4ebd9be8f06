//! Edits of the `select` family, in the file's own style: an argument list rebuilt from the
//! texts of existing nodes (flow or block, as the list was written), a node replaced by the
//! text of one of its parts (re-indented), and a check that the edited text parses to the
//! value the rewrite means.

use hotfix_diagnostics::{Edit, Span};
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarStyle, ScalarValue, SourceFormat, Style};

/// One item of a rebuilt list: an existing node's text, or new text and the value it loads as
/// (printed as JSON).
#[derive(Clone, Debug)]
pub(super) enum Piece {
    Node(NodeId),
    Text { text: String, json: String },
}

impl Piece {
    /// An integer, written in decimal.
    pub(super) fn int(n: i64) -> Piece {
        Piece::Text {
            text: n.to_string(),
            json: n.to_string(),
        }
    }

    /// The empty string, quoted as `quoted` (`''` or `""`).
    pub(super) fn empty(quoted: &str) -> Piece {
        Piece::Text {
            text: quoted.to_owned(),
            json: "\"\"".to_owned(),
        }
    }

    /// What `json.dumps` prints for the item's value (to check the edited text against).
    fn json(&self, doc: &Document) -> Option<String> {
        match self {
            Piece::Node(id) => doc.node_to_python_json(*id).ok(),
            Piece::Text { json, .. } => Some(json.clone()),
        }
    }
}

/// A planned edit of one call: the edits, where the rewritten node starts and ends in the
/// edited text, what it must load as, and the comments the edit cannot keep.
#[derive(Clone, Debug)]
pub(super) struct Rewrite {
    pub(super) edits: Vec<Edit>,
    start: usize,
    end: usize,
    expected: String,
    /// Comments inside the replaced text that are not in the new text.
    pub(super) dropped_comments: usize,
}

impl Rewrite {
    /// Whether the edited text parses and holds, exactly where the rewritten node is, a node
    /// whose value is the expected one.
    pub(super) fn verified(&self, doc: &Document) -> bool {
        let mut text = doc.source().to_owned();
        let mut edits: Vec<&Edit> = self.edits.iter().collect();
        edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
        for edit in edits {
            if text.get(edit.span.range()).is_none() {
                return false;
            }
            text.replace_range(edit.span.range(), &edit.content);
        }
        let Ok(new) = hotfix_yaml::parse_unlimited(&text) else {
            return false;
        };
        // A JSON template must stay JSON (Heat would otherwise read it with its YAML loader).
        if new.format() != doc.format() {
            return false;
        }
        let want = Span::new(self.start, self.end);
        let mut stack = vec![new.root()];
        while let Some(id) = stack.pop() {
            if span_of(&new, id) == want
                && new
                    .node_to_python_json(id)
                    .is_ok_and(|json| json == self.expected)
            {
                return true;
            }
            stack.extend(children(&new, id));
        }
        false
    }
}

/// A node's span, with the `- ` of an indentless block sequence (`key:\n- a`) included: the
/// parser starts such a sequence at its first item.
pub(super) fn span_of(doc: &Document, id: NodeId) -> Span {
    let node = doc.node(id);
    let NodeKind::Sequence {
        items,
        style: Style::Block,
    } = &node.kind
    else {
        return node.span;
    };
    let Some(&first) = items.first() else {
        return node.span;
    };
    if node.span.start < span_of(doc, first).start {
        return node.span;
    }
    let before = between(doc.source(), 0, node.span.start).trim_end_matches(' ');
    match before.strip_suffix('-') {
        Some(rest) => Span::new(rest.len(), node.span.end),
        None => node.span,
    }
}

/// A node's text (see [`span_of`]).
pub(super) fn text_of(doc: &Document, id: NodeId) -> &str {
    let span = span_of(doc, id);
    between(doc.source(), span.start, span.end)
}

/// The line break the file uses after `at` (`\r\n` or `\n`).
pub(super) fn newline(source: &str, at: usize) -> &'static str {
    let rest = source.get(at..).unwrap_or_default();
    match rest.find('\n') {
        Some(i) if i > 0 && rest.as_bytes().get(i - 1) == Some(&b'\r') => "\r\n",
        None if source.contains("\r\n") => "\r\n",
        _ => "\n",
    }
}

/// The 0-based column, in characters, of a byte offset.
pub(super) fn column(source: &str, at: usize) -> usize {
    let before = source.get(..at).unwrap_or_default();
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    before.get(line_start..).map_or(0, |s| s.chars().count())
}

/// The column reached after writing `text` from column `col`.
fn column_after(col: usize, text: &str) -> usize {
    match text.rfind('\n') {
        Some(i) => text.get(i + 1..).map_or(0, |s| s.chars().count()),
        None => col + text.chars().count(),
    }
}

/// A node's text moved from column `from` to column `to`: every line after the first is
/// shifted by the difference. `None` when a line is not indented enough to shift left.
pub(super) fn reindent(text: &str, from: usize, to: usize) -> Option<String> {
    if from == to || !text.contains('\n') {
        return Some(text.to_owned());
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if n == 0 || line.trim().is_empty() {
            out.push_str(line);
        } else if to > from {
            out.extend(std::iter::repeat_n(' ', to - from));
            out.push_str(line);
        } else {
            let cut = from - to;
            let indent = line.bytes().take_while(|&b| b == b' ').count();
            out.push_str(line.get(cut.min(indent)..)?);
            if indent < cut {
                return None;
            }
        }
    }
    Some(out)
}

/// Whether any node of the subtree (the root's own anchor aside) is an alias, has an anchor,
/// or has a tag: text that cannot be taken apart and copied safely.
pub(super) fn has_yaml_references(doc: &Document, root: NodeId) -> bool {
    let top = doc.node(root);
    if top.tag.is_some() {
        return true;
    }
    let mut stack: Vec<NodeId> = children(doc, root);
    while let Some(id) = stack.pop() {
        let node = doc.node(id);
        if node.anchor.is_some() || node.tag.is_some() {
            return true;
        }
        if matches!(node.kind, NodeKind::Alias { .. }) {
            return true;
        }
        stack.extend(children(doc, id));
    }
    false
}

fn children(doc: &Document, id: NodeId) -> Vec<NodeId> {
    match &doc.node(id).kind {
        NodeKind::Sequence { items, .. } => items.to_vec(),
        NodeKind::Mapping { entries, .. } => {
            entries.iter().flat_map(|e| [e.key, e.value]).collect()
        }
        NodeKind::Scalar(_) | NodeKind::Alias { .. } => Vec::new(),
    }
}

/// Comments inside `span` that are not inside any of the `kept` spans.
fn comments_outside(doc: &Document, span: Span, kept: &[Span]) -> Vec<Span> {
    doc.comments()
        .iter()
        .map(|c| c.span)
        .filter(|c| span.start <= c.start && c.end <= span.end)
        .filter(|c| !kept.iter().any(|k| k.start <= c.start && c.end <= k.end))
        .collect()
}

/// The text between two offsets (empty when out of range).
fn between(source: &str, from: usize, to: usize) -> &str {
    source.get(from..to).unwrap_or_default()
}

/// A quoted empty string in the style of the call's own scalars: `""` in JSON, otherwise the
/// quotes the call's scalars use (`''` when they use none).
pub(super) fn empty_string(doc: &Document, call: NodeId) -> &'static str {
    if doc.format() == SourceFormat::Json {
        return "\"\"";
    }
    let mut stack = vec![call];
    while let Some(id) = stack.pop() {
        if let NodeKind::Scalar(s) = &doc.node(id).kind {
            match s.style {
                ScalarStyle::DoubleQuoted => return "\"\"",
                ScalarStyle::SingleQuoted => return "''",
                _ => {}
            }
        }
        let mut kids = children(doc, id);
        kids.reverse();
        stack.extend(kids);
    }
    "''"
}

/// Rewrites `{key: [a, b]}` (`map`, a single-key mapping whose value `list` is a sequence)
/// as `{name: [pieces…]}`: the key renamed by `rename`, the list's text replaced by the
/// pieces in the list's own style (flow: its spacing; block: its indentation and line
/// breaks). Comments inside the list that are not part of a copied piece are kept as comment
/// lines above the items in block style, and dropped (counted) in flow style.
pub(super) fn rebuild_call(
    doc: &Document,
    map: NodeId,
    rename: Edit,
    name: &str,
    list: NodeId,
    pieces: &[Piece],
) -> Option<Rewrite> {
    let source = doc.source();
    let NodeKind::Sequence { items, style } = &doc.node(list).kind else {
        return None;
    };
    let kept: Vec<Span> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Node(id) => Some(span_of(doc, *id)),
            Piece::Text { .. } => None,
        })
        .collect();
    let span = span_of(doc, list);
    let (text, dropped) = match style {
        Style::Flow => {
            let (first, final_item) = (items.first()?, items.last()?);
            let open = span.start + 1;
            let close = span.end.checked_sub(1)?;
            let prefix = between(source, open, doc.node(*first).span.start);
            let suffix = between(source, doc.node(*final_item).span.end, close);
            let middle = match items.get(1) {
                Some(second) => between(
                    source,
                    doc.node(*first).span.end,
                    doc.node(*second).span.start,
                ),
                None => ", ",
            };
            let plain = |s: &str| !s.contains('#');
            let (prefix, middle, suffix) = if plain(prefix) && plain(middle) && plain(suffix) {
                (prefix, middle, suffix)
            } else {
                ("", ", ", "")
            };
            let mut out = String::from("[");
            out.push_str(prefix);
            let col = column(source, span.start);
            for (n, piece) in pieces.iter().enumerate() {
                if n > 0 {
                    out.push_str(middle);
                }
                out.push_str(&piece_text(doc, piece, column_after(col, &out))?);
            }
            out.push_str(suffix);
            out.push(']');
            let mut kept_text: Vec<Span> = kept.clone();
            if !prefix.is_empty() {
                kept_text.push(Span::new(open, open + prefix.len()));
            }
            if !suffix.is_empty() {
                kept_text.push(Span::new(close - suffix.len(), close));
            }
            let dropped = comments_outside(doc, span, &kept_text).len();
            (out, dropped)
        }
        Style::Block => {
            let col = column(source, span.start);
            let nl = newline(source, span.start);
            let indent = " ".repeat(col);
            let mut out = String::new();
            for comment in comments_outside(doc, span, &kept) {
                out.push_str(between(source, comment.start, comment.end));
                out.push_str(nl);
                out.push_str(&indent);
            }
            for (n, piece) in pieces.iter().enumerate() {
                if n > 0 {
                    out.push_str(nl);
                    out.push_str(&indent);
                }
                out.push_str("- ");
                out.push_str(&piece_text(doc, piece, col + 2)?);
            }
            (out, 0)
        }
    };
    let rename_delta = signed(rename.content.len()) - signed(rename.span.len());
    let list_delta = signed(text.len()) - signed(span.len());
    let map_span = doc.node(map).span;
    let mut expected = format!("{{\"{name}\": [");
    for (n, piece) in pieces.iter().enumerate() {
        if n > 0 {
            expected.push_str(", ");
        }
        expected.push_str(&piece.json(doc)?);
    }
    expected.push_str("]}");
    Some(Rewrite {
        edits: vec![rename, Edit::replace(span, text)],
        start: map_span.start,
        end: map_span.end.checked_add_signed(rename_delta + list_delta)?,
        expected,
        dropped_comments: dropped,
    })
}

/// Replaces the node `map` by `replacement` (the text of `element`, re-indented to where the
/// node starts, or a new scalar). In block style, comments inside the node that the
/// replacement does not carry stay, as comment lines above it; in flow style they are dropped
/// (counted).
pub(super) fn replace_node(doc: &Document, map: NodeId, element: &Piece) -> Option<Rewrite> {
    let source = doc.source();
    let node = doc.node(map);
    let span = node.span;
    let col = column(source, span.start);
    let kept: Vec<Span> = match element {
        Piece::Node(id) => vec![span_of(doc, *id)],
        Piece::Text { .. } => Vec::new(),
    };
    let lost = comments_outside(doc, span, &kept);
    let block = matches!(
        node.kind,
        NodeKind::Mapping {
            style: Style::Block,
            ..
        }
    );
    let mut out = String::new();
    let mut dropped = 0;
    if block {
        let nl = newline(source, span.start);
        for comment in &lost {
            out.push_str(between(source, comment.start, comment.end));
            out.push_str(nl);
            out.push_str(&" ".repeat(col));
        }
    } else {
        dropped = lost.len();
    }
    let start = span.start + out.len();
    out.push_str(&piece_text(doc, element, col)?);
    let delta = signed(out.len()) - signed(span.len());
    Some(Rewrite {
        edits: vec![Edit::replace(span, out)],
        start,
        end: span.end.checked_add_signed(delta)?,
        expected: element.json(doc)?,
        dropped_comments: dropped,
    })
}

/// A piece's text placed at column `to`.
fn piece_text(doc: &Document, piece: &Piece, to: usize) -> Option<String> {
    match piece {
        Piece::Node(id) => {
            let span = span_of(doc, *id);
            let from = column(doc.source(), span.start);
            reindent(text_of(doc, *id), from, to)
        }
        Piece::Text { text, .. } => Some(text.clone()),
    }
}

fn signed(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

/// A literal index as Heat's `Fn::Select` sees it after YAML loading.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Index {
    /// A YAML int that fits in `i64`.
    Int(i64),
    /// A YAML int outside `i64` (out of range of every list).
    BigInt,
    /// A string Python's `int()` accepts (a conservative subset: ASCII white space, sign,
    /// digits with single underscores between them), and its value.
    NumStr(i64),
    /// Any other string.
    Str(String),
    Float(f64),
    Bool(bool),
    Null,
    /// A mapping or a sequence: a function call or a literal collection.
    Collection,
}

impl Index {
    pub(super) fn of(doc: &Document, id: NodeId) -> Index {
        let Some(scalar) = doc.scalar(id) else {
            return Index::Collection;
        };
        match &scalar.value {
            ScalarValue::Null => Index::Null,
            ScalarValue::Bool(b) => Index::Bool(*b),
            ScalarValue::Int(hotfix_yaml::Int::Small(n)) => Index::Int(*n),
            ScalarValue::Int(hotfix_yaml::Int::Big(_) | hotfix_yaml::Int::Huge) => Index::BigInt,
            ScalarValue::Float(f) => Index::Float(*f),
            ScalarValue::Str | ScalarValue::ValueKey | ScalarValue::Merge | ScalarValue::Binary => {
                match python_int(&scalar.text) {
                    Some(n) => Index::NumStr(n),
                    None => Index::Str(scalar.text.as_str().to_owned()),
                }
            }
        }
    }

    /// The integer `int()` makes of it, when that works (`None` for strings it rejects,
    /// `null`, infinities, NaN and collections).
    pub(super) fn as_int(&self) -> Option<IntIndex> {
        match self {
            Index::Int(n) | Index::NumStr(n) => Some(IntIndex::Small(*n)),
            Index::BigInt => Some(IntIndex::Huge),
            Index::Bool(b) => Some(IntIndex::Small(i64::from(*b))),
            #[allow(
                clippy::cast_possible_truncation,
                reason = "checked to be finite and in range first; Python's int() truncates too"
            )]
            Index::Float(f) if f.is_finite() => {
                if f.abs() < 9.0e18 {
                    Some(IntIndex::Small(f.trunc() as i64))
                } else {
                    Some(IntIndex::Huge)
                }
            }
            _ => None,
        }
    }
}

/// An integer index: small, or beyond any list's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum IntIndex {
    Small(i64),
    Huge,
}

impl IntIndex {
    /// The position Python's `list[index]` reads in a list of `len` items (negative indexes
    /// count from the end), or `None` for `IndexError`.
    pub(super) fn position(self, len: usize) -> Option<usize> {
        let IntIndex::Small(n) = self else {
            return None;
        };
        let len = i64::try_from(len).ok()?;
        let at = if n < 0 { len + n } else { n };
        if (0..len).contains(&at) {
            usize::try_from(at).ok()
        } else {
            None
        }
    }
}

/// Python's `int(text)` for a conservative subset of what it accepts.
pub(super) fn python_int(text: &str) -> Option<i64> {
    let t = text.trim_matches([' ', '\t', '\n', '\r', '\u{b}', '\u{c}']);
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..)?),
        Some(b'+') => (false, t.get(1..)?),
        _ => (false, t),
    };
    let bytes = digits.as_bytes();
    if bytes.is_empty() || !bytes.first()?.is_ascii_digit() || !bytes.last()?.is_ascii_digit() {
        return None;
    }
    if bytes.windows(2).any(|w| w == b"__") {
        return None;
    }
    if !bytes.iter().all(|b| b.is_ascii_digit() || *b == b'_') {
        return None;
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    let n: i64 = clean.parse().ok()?;
    Some(if negative { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_int_accepts_what_python_accepts() {
        for (text, value) in [
            ("1", 1),
            (" 2 ", 2),
            ("-3", -3),
            ("+4", 4),
            ("1_0", 10),
            ("007", 7),
        ] {
            assert_eq!(python_int(text), Some(value), "{text:?}");
        }
        for text in [
            "", "a", "1.0", "1__0", "_1", "1_", "0x10", "--1", "1e3", "-",
        ] {
            assert_eq!(python_int(text), None, "{text:?}");
        }
    }

    #[test]
    fn positions_follow_python_indexing() {
        assert_eq!(IntIndex::Small(0).position(2), Some(0));
        assert_eq!(IntIndex::Small(-1).position(2), Some(1));
        assert_eq!(IntIndex::Small(-3).position(2), None);
        assert_eq!(IntIndex::Small(2).position(2), None);
        assert_eq!(IntIndex::Huge.position(2), None);
    }

    #[test]
    fn reindents_following_lines() {
        assert_eq!(
            reindent("a:\n    b: 1\n", 4, 2).as_deref(),
            Some("a:\n  b: 1\n")
        );
        assert_eq!(
            reindent("a:\n  b: 1", 2, 4).as_deref(),
            Some("a:\n    b: 1")
        );
        assert_eq!(reindent("a:\n b", 4, 2), None);
    }
}
