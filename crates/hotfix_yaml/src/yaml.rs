//! YAML text → node tree, from `granit-parser` events.

use std::collections::HashMap;

use granit_parser::{ErrorKind, Event, Options, Parser, ScanError, StructureStyle};

use crate::document::{
    Document, Entry, Node, NodeId, NodeKind, Scalar, ScalarStyle, SourceFormat, Span, Style, Tag,
    Text,
};
use crate::error::{LoadError, LoadErrorKind};
use crate::scalar::{ScalarValue, construct_plain, construct_tagged};

/// Parses YAML text into a [`Document`], failing where PyYAML's `SafeLoader` fails.
///
/// libyaml (which Heat's `CSafeLoader` uses) accepts continuation lines of a multi-line quoted
/// scalar that are not indented past the enclosing block; YAML 1.2 and `granit-parser` reject
/// them. Such lines' leading white space is folded away, so the text is re-parsed with those
/// lines padded, and every span is mapped back to the original text.
pub(crate) fn parse(source: &str) -> Result<Document, LoadError> {
    let mut padding = Padding::default();
    loop {
        let padded = padding.apply(source);
        let text = padded.as_deref().unwrap_or(source);
        match parse_once(source, text, &padding) {
            Ok(doc) => return Ok(doc),
            Err(Failure::Load(err)) => return Err(err),
            Err(Failure::UnderIndentedQuote { offset, err }) => {
                let original = padding.to_original(offset);
                let line_start = source[..original].rfind(['\n', '\r']).map_or(0, |i| i + 1);
                if padding.inserts.len() >= MAX_PADDED_LINES || !padding.insert(source, line_start)
                {
                    return Err(padding.map_error(err));
                }
            }
        }
    }
}

/// Deep enough for any template, shallow enough that nothing downstream recurses far.
const NESTING_LIMIT: usize = 200;

/// Source bytes per node of a typical template, for the node list's first capacity.
const NODE_BYTES_HINT: usize = 20;

/// How many under-indented quoted-scalar lines are repaired before giving up.
const MAX_PADDED_LINES: usize = 64;

/// Spaces inserted at line starts of the original text.
#[derive(Debug, Default)]
struct Padding {
    /// `(original line start, spaces inserted there)`, sorted.
    inserts: Vec<(usize, usize)>,
}

impl Padding {
    fn apply(&self, source: &str) -> Option<String> {
        if self.inserts.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(source.len() + self.inserts.len() * 64);
        let mut last = 0;
        for &(at, count) in &self.inserts {
            out.push_str(&source[last..at]);
            out.extend(std::iter::repeat_n(' ', count));
            last = at;
        }
        out.push_str(&source[last..]);
        Some(out)
    }

    /// Adds padding at a line start; `false` when that line was padded already.
    fn insert(&mut self, source: &str, line_start: usize) -> bool {
        if self.inserts.iter().any(|&(at, _)| at == line_start) {
            return false;
        }
        // Deeper than any indentation in the file, so deeper than the enclosing block.
        let deepest = source
            .lines()
            .map(|l| l.len() - l.trim_start_matches(' ').len())
            .max()
            .unwrap_or(0);
        self.inserts.push((line_start, deepest + 1));
        self.inserts.sort_unstable();
        true
    }

    /// Maps an offset in the padded text to the original text.
    fn to_original(&self, offset: usize) -> usize {
        let mut shift = 0;
        for &(at, count) in &self.inserts {
            if offset < at + shift {
                break;
            }
            if offset < at + shift + count {
                return at;
            }
            shift += count;
        }
        offset - shift
    }

    fn span(&self, span: Span) -> Span {
        if self.inserts.is_empty() {
            return span;
        }
        Span::new(self.to_original(span.start), self.to_original(span.end))
    }

    fn map_error(&self, mut err: LoadError) -> LoadError {
        err.span = err.span.map(|s| self.span(s));
        err
    }
}

enum Failure {
    Load(LoadError),
    UnderIndentedQuote { offset: usize, err: LoadError },
}

fn parse_once(source: &str, text: &str, padding: &Padding) -> Result<Document, Failure> {
    let mut options = Options::default();
    options.emit_anchor_events = true;
    // Comments are found from the finished tree (`comments.rs`): the parser's comment events
    // cost more than the rest of the tree building.
    options.emit_comments = false;
    options.flow_nesting_limit = NESTING_LIMIT;
    options.block_nesting_limit = NESTING_LIMIT;
    let parser = Parser::new_from_str_with_options(text, options);
    let mut builder = Builder::new(source);
    for next in parser {
        let (event, span) = next.map_err(|err| {
            let load = scan_error(text, &err);
            let offset = load.span.map_or(0, |s| s.start);
            if matches!(err.kind(), ErrorKind::InvalidQuotedScalarIndent) {
                Failure::UnderIndentedQuote { offset, err: load }
            } else {
                Failure::Load(padding.map_error(load))
            }
        })?;
        let tag_span = span
            .tag_span()
            .and_then(|t| t.byte_range())
            .map(|r| padding.span(Span::new(r.start, r.end)));
        let span = padding.span(
            span.byte_range()
                .map_or(Span::default(), |r| Span::new(r.start, r.end)),
        );
        builder
            .event(event, span, tag_span)
            .map_err(Failure::Load)?;
    }
    let mut doc = builder.doc;
    crate::comments::scan(&mut doc);
    Ok(doc)
}

fn scan_error(source: &str, err: &ScanError) -> LoadError {
    let offset = err
        .marker()
        .byte_offset()
        .unwrap_or_else(|| char_to_byte(source, err.marker().index()));
    let offset = offset.min(source.len());
    if matches!(err.kind(), ErrorKind::RecursionLimitExceeded) {
        return LoadError::new(
            LoadErrorKind::TooDeep,
            format!("collections nest deeper than {NESTING_LIMIT} levels; no template needs that"),
            Some(Span::new(offset, offset)),
        );
    }
    let info = err.info();
    let first_line = info.lines().next().unwrap_or("syntax error");
    LoadError::new(
        LoadErrorKind::Syntax,
        format!("invalid YAML: {first_line}"),
        Some(Span::new(offset, offset)),
    )
}

fn char_to_byte(source: &str, chars: usize) -> usize {
    source
        .char_indices()
        .nth(chars)
        .map_or(source.len(), |(i, _)| i)
}

/// An open collection. Children are collected on shared stacks (`Builder::items`,
/// `Builder::entries`) from `start` on, and moved into the node, sized exactly, when it closes.
#[derive(Debug)]
enum Frame {
    Sequence {
        id: NodeId,
        start: usize,
    },
    Mapping {
        id: NodeId,
        start: usize,
        key: Option<NodeId>,
    },
}

struct Builder<'s> {
    source: &'s str,
    doc: Document,
    frames: Vec<Frame>,
    items: Vec<NodeId>,
    entries: Vec<Entry>,
    /// The parser's anchor ids → the node that defines them.
    anchors: HashMap<usize, NodeId>,
    /// Anchor names seen in this document, for PyYAML's "found duplicate anchor".
    anchor_names: HashMap<String, Span>,
    /// The last node pushed, which an `Anchor` event that follows describes.
    last_node: Option<NodeId>,
    /// Where the last event's text ended.
    prev_end: usize,
    /// How many documents have started, and where the first one did.
    documents: usize,
    document_start: Span,
}

impl<'s> Builder<'s> {
    fn new(source: &'s str) -> Self {
        let mut doc = Document::new(source, SourceFormat::Yaml);
        // Templates hold about one node per 20 bytes (the corpus's median file): reserving that
        // spares most of the copies of a growing node list.
        doc.nodes.reserve(source.len() / NODE_BYTES_HINT);
        Self {
            source,
            doc,
            frames: Vec::new(),
            items: Vec::new(),
            entries: Vec::new(),
            anchors: HashMap::new(),
            anchor_names: HashMap::new(),
            last_node: None,
            prev_end: 0,
            documents: 0,
            document_start: Span::default(),
        }
    }

    fn event(
        &mut self,
        event: Event<'_>,
        span: Span,
        tag_span: Option<Span>,
    ) -> Result<(), LoadError> {
        let prev_end = self.prev_end;
        self.prev_end = prev_end.max(span.end);
        let tag_of = |tag: Option<std::borrow::Cow<'_, granit_parser::Tag>>| {
            tag.map(|t| {
                Box::new(Tag {
                    name: format!("{}{}", t.handle(), t.suffix()),
                    span: tag_span,
                })
            })
        };
        match event {
            Event::DocumentStart(..) => self.document_start(span)?,
            Event::Anchor(anchor_id, name) => self.anchor(anchor_id, &name, span)?,
            Event::Alias(anchor_id) => self.alias(anchor_id, span)?,
            Event::UnresolvedAlias(name) => {
                return Err(LoadError::new(
                    LoadErrorKind::Syntax,
                    format!("found undefined alias '{name}'"),
                    Some(span),
                ));
            }
            Event::Scalar(text, style, _anchor, tag) => {
                self.scalar(text, scalar_style(style), tag_of(tag), span, prev_end)?;
            }
            Event::SequenceStart(style, _anchor, tag) => {
                let tag = tag_of(tag);
                check_collection_tag(tag.as_deref(), true, span)?;
                let kind = NodeKind::Sequence {
                    items: Vec::new(),
                    style: structure_style(style),
                };
                let id = self.open(kind, tag, span);
                self.frames.push(Frame::Sequence {
                    id,
                    start: self.items.len(),
                });
            }
            Event::MappingStart(style, _anchor, tag) => {
                let tag = tag_of(tag);
                check_collection_tag(tag.as_deref(), false, span)?;
                let kind = NodeKind::Mapping {
                    entries: Vec::new(),
                    style: structure_style(style),
                };
                let id = self.open(kind, tag, span);
                self.frames.push(Frame::Mapping {
                    id,
                    start: self.entries.len(),
                    key: None,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => self.close(span),
            // Stream and document ends need no node; `Event` is non-exhaustive, and nothing
            // else it may grow carries data a template needs.
            _ => {}
        }
        Ok(())
    }

    /// PyYAML loads exactly one document.
    fn document_start(&mut self, span: Span) -> Result<(), LoadError> {
        self.documents += 1;
        if self.documents > 1 {
            let first_line = self
                .doc
                .lines()
                .position(self.source, self.document_start.start)
                .line;
            return Err(LoadError::new(
                LoadErrorKind::MultipleDocuments,
                format!(
                    "expected a single document in the stream, but found another document (the first starts on line {first_line})"
                ),
                Some(span),
            ));
        }
        self.document_start = span;
        Ok(())
    }

    /// `&name` on the node just pushed.
    fn anchor(&mut self, anchor_id: usize, name: &str, span: Span) -> Result<(), LoadError> {
        let Some(node) = self.last_node else {
            return Ok(());
        };
        if let Some(first) = self.anchor_names.get(name) {
            let first_line = self.doc.lines().position(self.source, first.start).line;
            return Err(LoadError::new(
                LoadErrorKind::Syntax,
                format!(
                    "found duplicate anchor '{name}' (first occurrence on line {first_line}); PyYAML refuses to redefine an anchor"
                ),
                Some(span),
            ));
        }
        self.anchor_names.insert(name.to_owned(), span);
        self.anchors.insert(anchor_id, node);
        self.doc.node_mut(node).anchor = Some(span);
        Ok(())
    }

    fn alias(&mut self, anchor_id: usize, span: Span) -> Result<(), LoadError> {
        let Some(&target) = self.anchors.get(&anchor_id) else {
            return Err(LoadError::new(
                LoadErrorKind::Syntax,
                format!("found undefined alias '{}'", alias_name(self.source, span)),
                Some(span),
            ));
        };
        if self.is_open(target) {
            return Err(LoadError::new(
                LoadErrorKind::Construct,
                format!(
                    "the alias '{}' refers to a node that contains it; Heat cannot use a recursive structure",
                    alias_name(self.source, span)
                ),
                Some(span),
            ));
        }
        let id = self.doc.push(Node {
            span,
            kind: NodeKind::Alias { target },
            anchor: None,
            tag: None,
        });
        self.add(id);
        Ok(())
    }

    fn scalar(
        &mut self,
        text: std::borrow::Cow<'_, str>,
        style: ScalarStyle,
        tag: Option<Box<Tag>>,
        span: Span,
        prev_end: usize,
    ) -> Result<(), LoadError> {
        let span = if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
            block_scalar_span(self.source, prev_end, span)
        } else {
            span
        };
        let value = match tag.as_ref().map(|t| t.name.as_str()) {
            None if style == ScalarStyle::Plain => construct_plain(&text),
            None => Ok(ScalarValue::Str),
            // libyaml resolves a scalar with the non-specific tag `!` as if it were plain,
            // even when quoted: `! '12'` loads as the integer 12.
            Some("!") => construct_plain(&text),
            Some(tag) => construct_tagged(tag, &text),
        }
        .map_err(|message| LoadError::new(LoadErrorKind::Construct, message, Some(span)))?;
        let id = self.doc.push(Node {
            span,
            kind: NodeKind::Scalar(Scalar {
                text: match text {
                    std::borrow::Cow::Borrowed(b) => Text::from(b),
                    std::borrow::Cow::Owned(o) => Text::from(o),
                },
                style,
                value,
            }),
            anchor: None,
            tag,
        });
        self.add(id);
        Ok(())
    }

    /// Pushes a collection node; its children arrive until the matching end event.
    fn open(&mut self, kind: NodeKind, tag: Option<Box<Tag>>, span: Span) -> NodeId {
        let id = self.doc.push(Node {
            span,
            kind,
            anchor: None,
            tag,
        });
        self.add(id);
        id
    }

    fn is_open(&self, id: NodeId) -> bool {
        self.frames.iter().any(|frame| match frame {
            Frame::Sequence { id: open, .. } | Frame::Mapping { id: open, .. } => *open == id,
        })
    }

    /// Places a finished (or just opened) node in its parent.
    fn add(&mut self, id: NodeId) {
        self.last_node = Some(id);
        match self.frames.last_mut() {
            None => self.doc.root = Some(id),
            Some(Frame::Sequence { .. }) => self.items.push(id),
            Some(Frame::Mapping { key, .. }) => match key.take() {
                None => *key = Some(id),
                Some(k) => self.entries.push(Entry { key: k, value: id }),
            },
        }
    }

    fn close(&mut self, end: Span) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let (id, last_child) = match frame {
            Frame::Sequence { id, start } => {
                let items: Vec<NodeId> = self.items.drain(start..).collect();
                let last = items.last().copied();
                if let NodeKind::Sequence { items: slot, .. } = &mut self.doc.node_mut(id).kind {
                    *slot = items;
                }
                (id, last)
            }
            Frame::Mapping { id, start, .. } => {
                let entries: Vec<Entry> = self.entries.drain(start..).collect();
                let last = entries.last().map(|e| e.value);
                if let NodeKind::Mapping { entries: slot, .. } = &mut self.doc.node_mut(id).kind {
                    *slot = entries;
                }
                (id, last)
            }
        };
        let flow = matches!(
            self.doc.node(id).kind,
            NodeKind::Sequence {
                style: Style::Flow,
                ..
            } | NodeKind::Mapping {
                style: Style::Flow,
                ..
            }
        );
        let mut start = self.doc.node(id).span.start;
        // An indentless block sequence (`key:\n- a`) starts, for the parser, at its first
        // item; the node starts at that item's `-`.
        if !flow && matches!(self.doc.node(id).kind, NodeKind::Sequence { .. }) {
            let bytes = self.source.as_bytes();
            let mut at = start;
            while at > 0 && matches!(bytes[at - 1], b' ' | b'\t') {
                at -= 1;
            }
            if at > 0 && bytes[at - 1] == b'-' {
                start = at - 1;
            }
        }
        let end = if flow {
            end.end
        } else {
            // A block collection ends where its last child does; the parser's end event
            // sits at the next token, after trailing comments and blank lines.
            last_child.map_or(start, |child| self.doc.node(child).span.end)
        };
        self.doc.node_mut(id).span = Span::new(start, end.max(start));
        self.last_node = Some(id);
    }
}

/// The parser's span of a block scalar covers its content lines with their line breaks. The
/// node's span runs from the `|` or `>` indicator to the last content character: the
/// indicator is the first `|`/`>` after the previous token, past white space, `:`/`-`/`?`,
/// tags, anchors and comments.
fn block_scalar_span(source: &str, prev_end: usize, content: Span) -> Span {
    let bytes = source.as_bytes();
    let mut i = prev_end.min(content.start);
    let mut start = content.start;
    while i < content.start {
        match bytes[i] {
            b'|' | b'>' => {
                start = i;
                break;
            }
            b'#' => {
                while i < content.start && !matches!(bytes[i], b'\n' | b'\r') {
                    i += 1;
                }
            }
            b'!' | b'&' => {
                while i < content.start && !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    // The parser's span may also take the line break and the indentation of the next line:
    // trailing blanks that follow a line break, and line breaks, are not the scalar's.
    let mut end = content.end.max(start);
    loop {
        let blanks = bytes[start..end]
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        if end - blanks > start && matches!(bytes[end - blanks - 1], b'\n' | b'\r') {
            end -= blanks + 1;
        } else {
            break;
        }
    }
    Span::new(start, end)
}

fn alias_name(source: &str, span: Span) -> &str {
    source
        .get(span.range())
        .map_or("", |s| s.trim_start_matches('*'))
}

fn scalar_style(style: granit_parser::ScalarStyle) -> ScalarStyle {
    match style {
        granit_parser::ScalarStyle::SingleQuoted => ScalarStyle::SingleQuoted,
        granit_parser::ScalarStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
        granit_parser::ScalarStyle::Literal => ScalarStyle::Literal,
        granit_parser::ScalarStyle::Folded => ScalarStyle::Folded,
        granit_parser::ScalarStyle::Plain => ScalarStyle::Plain,
    }
}

fn structure_style(style: StructureStyle) -> Style {
    match style {
        StructureStyle::Flow => Style::Flow,
        StructureStyle::Block => Style::Block,
    }
}

/// Tags PyYAML's `SafeConstructor` accepts on a collection.
fn check_collection_tag(tag: Option<&Tag>, sequence: bool, span: Span) -> Result<(), LoadError> {
    let Some(tag) = tag.map(|t| t.name.as_str()) else {
        return Ok(());
    };
    let ok = match (tag.strip_prefix("tag:yaml.org,2002:"), sequence) {
        _ if tag == "!" => true,
        (Some("seq" | "omap" | "pairs"), true) | (Some("map" | "set"), false) => true,
        (Some("seq" | "omap" | "pairs"), false) => {
            return Err(LoadError::new(
                LoadErrorKind::Construct,
                format!("expected a sequence for the tag '{tag}', but found a mapping"),
                Some(span),
            ));
        }
        (Some("map" | "set"), true) => {
            return Err(LoadError::new(
                LoadErrorKind::Construct,
                format!("expected a mapping for the tag '{tag}', but found a sequence"),
                Some(span),
            ));
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(LoadError::new(
            LoadErrorKind::Construct,
            format!("could not determine a constructor for the tag '{tag}'"),
            Some(span),
        ))
    }
}
