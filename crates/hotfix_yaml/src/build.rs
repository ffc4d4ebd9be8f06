//! YAML text → node tree, from hotfix's own reader (`reader/`), which gives libyaml's events
//! exactly: the tree keeps the spans, the composer's checks (one document, anchors, aliases)
//! are PyYAML's, and the constructor's are in `value.rs` (issue 29).
//!
//! Where the reader refuses the text, Heat loads it again with PyYAML's pure-Python loader:
//! the reader reads it again with those rules ([`Parser::pure`]), and when they refuse it too,
//! theirs is the refusal Heat reports.

use std::collections::HashMap;

use crate::document::{
    Children, Document, Entry, Node, NodeId, NodeKind, Scalar, ScalarStyle, SourceFormat, Span,
    Style, Tag, Text,
};
use crate::error::{LoadError, LoadErrorKind};
use crate::reader::{ErrorKind, Event, EventKind, Parser, Property, ReadError};
use crate::scalar::{ScalarValue, construct_nonspecific, construct_plain, construct_tagged};

/// Deep enough for any template, shallow enough that nothing downstream recurses far (flow and
/// block nesting counted apart).
const NESTING_LIMIT: usize = 200;

/// The node list's first capacity: two nodes a line (the corpus has 1.9: a `key: value` line
/// is two), or one every ten bytes where lines are long (flow collections); growing the list
/// past its capacity copies every node written so far. Capacity never written to costs no
/// memory once the list is large enough to be mapped on its own.
const NODES_PER_LINE_HINT: usize = 2;
const BYTES_PER_NODE_HINT: usize = 10;

/// Loads YAML text into a [`Document`] with the reader and PyYAML's constructor (the checks
/// of [`crate::value`]), failing where Heat's loader fails: libyaml's rules first and, where
/// they fail with a `yaml.YAMLError` (a scanner, parser, composer or constructor error), PyYAML's
/// pure-Python rules, as `template_format.simple_parse` does. A byte-order mark at the start of
/// a later line, say, is skipped by libyaml's rules and is a plain scalar's first character to
/// the pure ones: `&a x\n\u{feff}&a:` is a duplicate anchor to libyaml and loads with the pure
/// loader.
pub(crate) fn load(source: &str) -> Result<Document, LoadError> {
    let failure = match build(source, Parser::new(source)) {
        Ok(mut doc) => match crate::value::check(&mut doc) {
            Ok(()) => {
                doc.settle_wire()?;
                return Ok(doc);
            }
            Err(err) => err,
        },
        Err(Failure::Load(err)) => err,
        Err(Failure::Read(_)) => return load_pure(source),
    };
    if failure.retried() {
        load_pure(source)
    } else {
        Err(failure)
    }
}

/// [`load`] with libyaml's rules only and without the command line's encoding: for the tests of
/// what PyYAML builds before the value is sent (a `!!binary` key, which the encoding refuses).
#[cfg(test)]
pub(crate) fn load_unsent(source: &str) -> Result<Document, LoadError> {
    let mut doc = build(source, Parser::new(source))
        .map_err(|(Failure::Read(err) | Failure::Load(err))| err)?;
    crate::value::check(&mut doc)?;
    Ok(doc)
}

fn load_pure(source: &str) -> Result<Document, LoadError> {
    let mut doc = parse_pure(source)?;
    crate::value::check(&mut doc)?;
    doc.settle_wire()?;
    Ok(doc)
}

/// Heat's second try (`template_format.simple_parse`, `environment_format.parse`): where
/// libyaml refuses the text, PyYAML's pure-Python `SafeLoader` reads it, and when that refuses
/// too, its refusal is the one Heat reports. That loader keeps no timestamp as a string: it
/// makes a Python date, and fails on one Python cannot make (`2001-02-30`); a date it makes
/// takes the text the command line sends (`2002-1-2` is `2002-01-02`).
fn parse_pure(source: &str) -> Result<Document, LoadError> {
    let mut doc = build(source, Parser::pure(source))
        .map_err(|(Failure::Read(err) | Failure::Load(err))| err)?;
    let mut refused = Vec::new();
    let mut dates = Vec::new();
    for (id, node) in doc.ids() {
        let NodeKind::Scalar(scalar) = &node.kind else {
            continue;
        };
        let tag = node.tag.as_ref().map(|t| t.name.as_str());
        let explicit = tag == Some("tag:yaml.org,2002:timestamp");
        // Resolved from the text: plain without a tag, or tagged `!`.
        let implicit = (tag.is_none() && scalar.style == ScalarStyle::Plain) || tag == Some("!");
        let text: &str = &scalar.text;
        if !(explicit || (implicit && text.starts_with(|c: char| c.is_ascii_digit()))) {
            continue;
        }
        if crate::timestamp::pure_timestamp_fails(text, explicit) {
            refused.push((
                id,
                LoadError::new(
                    LoadErrorKind::Construct,
                    format!(
                        "'{text}' is not a timestamp PyYAML can construct (Heat reads this file \
                         with PyYAML's own loader, which makes dates, since libyaml refuses it)"
                    ),
                    Some(node.span),
                )
                .not_yaml_error(),
            ));
        } else if let Some((wire, kind)) = crate::timestamp::pure_timestamp_wire(text, explicit) {
            dates.push((id, wire, kind));
        }
    }
    doc.refused.extend(refused);
    for (id, wire, kind) in dates {
        if let NodeKind::Scalar(scalar) = &mut doc.nodes[id.index()].kind {
            scalar.text = wire.into();
        }
        doc.dates.push((id, kind));
    }
    Ok(doc)
}

enum Failure {
    /// A refusal of libyaml's: Heat tries PyYAML's pure loader next.
    Read(LoadError),
    /// A refusal after the text was read (composer, constructor, limits).
    Load(LoadError),
}

impl From<LoadError> for Failure {
    fn from(err: LoadError) -> Self {
        Self::Load(err)
    }
}

/// A refusal of the reader's, as hotfix reports it. Only the pure rules' refusal reaches the
/// user: where libyaml's rules refuse a text, Heat reads it again with PyYAML's pure-Python
/// loader and reports that loader's refusal (`mapping values are not allowed here`, `expected
/// <block end>, but found '?'`), which the reader's pure mode words as `scanner.py` and
/// `parser.py` do.
fn read_error(source: &str, err: &ReadError) -> LoadError {
    let at = err.problem_mark.offset;
    let message = if err.kind == ErrorKind::Reader {
        // `reader.py` names the character.
        let c = source
            .get(at..)
            .and_then(|s| s.chars().next())
            .unwrap_or('\0');
        format!(
            "invalid YAML: unacceptable character #x{:04x}: special characters are not allowed",
            u32::from(c)
        )
    } else {
        format!("invalid YAML: {err}")
    };
    LoadError::new(LoadErrorKind::Syntax, message, Some(Span::new(at, at)))
}

fn build<'s>(source: &'s str, mut parser: Parser<'s>) -> Result<Document, Failure> {
    let mut builder = Builder::new(source);
    builder.pure = parser.is_pure();
    while let Some(event) = parser.next_event() {
        let event = event.map_err(|err| Failure::Read(read_error(source, &err)))?;
        builder.event(event)?;
    }
    if !parser.lone_surrogates().is_empty() {
        // The scalars that hold them, by where their text starts (their opening quote).
        let starts: std::collections::HashSet<usize> =
            parser.lone_surrogates().iter().copied().collect();
        let doc = &mut builder.doc;
        doc.surrogates = doc
            .ids()
            .filter(|(_, node)| {
                matches!(&node.kind, NodeKind::Scalar(s) if s.style == ScalarStyle::DoubleQuoted)
                    && starts.contains(&node.span.start)
            })
            .map(|(id, _)| id)
            .collect();
    }
    if let Some(err) = reached_cycle(&builder.doc, builder.cycles) {
        return Err(Failure::Load(err));
    }
    crate::comments::scan(&mut builder.doc);
    Ok(builder.doc)
}

/// The refusal of the first alias to a node that contains it (`cycles`: the null that stands in
/// for each) that the loaded value reaches: PyYAML built the recursive value, which Heat cannot
/// use. `None` when every one sits in a value that a repeated key drops.
fn reached_cycle(doc: &Document, cycles: Vec<(NodeId, LoadError)>) -> Option<LoadError> {
    if cycles.is_empty() {
        return None;
    }
    let mut seen = vec![false; doc.nodes.len()];
    let mut stack: Vec<NodeId> = doc.root.into_iter().collect();
    while let Some(id) = stack.pop() {
        let id = doc.resolve(id);
        if std::mem::replace(&mut seen[id.index()], true) {
            continue;
        }
        match &doc.node(id).kind {
            NodeKind::Mapping { .. } => {
                // A `!!set` keeps its keys only: a cycle through a value is gone.
                let set = doc.has_tag(id, "set");
                for entry in doc.entries(id) {
                    stack.push(entry.key);
                    if !set {
                        stack.push(entry.value);
                    }
                }
            }
            NodeKind::Sequence { items, .. } => stack.extend(items),
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
        }
    }
    cycles
        .into_iter()
        .find(|(id, _)| seen[id.index()])
        .map(|(_, err)| err)
}

/// Where a node is written, for an alias to a node that contains it.
enum Position {
    Key,
    Merge,
    Value,
}

/// An open collection; children are collected on shared stacks from `start` on.
struct Frame {
    id: NodeId,
    start: usize,
    key: Option<NodeId>,
    mapping: bool,
    flow: bool,
}

struct Builder<'s> {
    source: &'s str,
    doc: Document,
    frames: Vec<Frame>,
    items: Vec<NodeId>,
    entries: Vec<Entry>,
    /// Anchor names of this document → the node that defines them and where.
    anchors: HashMap<&'s str, (NodeId, Span)>,
    /// Open flow and block collections.
    flow: usize,
    block: usize,
    documents: usize,
    document_start: usize,
    /// Aliases to a node that contains them: the null standing in for each, and its refusal.
    cycles: Vec<(NodeId, LoadError)>,
    /// The events are those of PyYAML's pure-Python parser (Heat's second try).
    pure: bool,
}

impl<'s> Builder<'s> {
    fn new(source: &'s str) -> Self {
        let mut doc = Document::new(source, SourceFormat::Yaml);
        let lines = memchr::memchr_iter(b'\n', source.as_bytes()).count() + 1;
        doc.nodes = Document::node_list(
            (lines * NODES_PER_LINE_HINT).max(source.len() / BYTES_PER_NODE_HINT) + 8,
        );
        Self {
            source,
            doc,
            // Room for a typical template's open collections and their children at once:
            // growing these from nothing costs more than the rest of their use.
            frames: Vec::with_capacity(32),
            items: Vec::with_capacity(256),
            entries: Vec::with_capacity(256),
            anchors: HashMap::new(),
            flow: 0,
            block: 0,
            documents: 0,
            document_start: 0,
            cycles: Vec::new(),
            pure: false,
        }
    }

    fn event(&mut self, event: Event<'s>) -> Result<(), Failure> {
        let (start, end) = (event.start.offset, event.end.offset);
        let mapping = matches!(event.kind, EventKind::MappingStart { .. });
        match event.kind {
            EventKind::DocumentStart { .. } => self.document(Span::new(start, end))?,
            EventKind::Alias { anchor } => self.alias(anchor, Span::new(start, end))?,
            EventKind::Scalar {
                anchor,
                tag,
                value,
                style,
                ..
            } => {
                let at = self.content_start(start, anchor.as_deref(), tag.as_deref(), end);
                let mut span = match style {
                    ScalarStyle::Literal | ScalarStyle::Folded => {
                        block_scalar_end(self.source, at, end)
                    }
                    _ => Span::new(at, end),
                };
                let mut value = value;
                // An empty node: the tree's sits on the `:` of its entry, with the text `~`.
                if span.is_empty() && style == ScalarStyle::Plain && tag.is_none() {
                    if anchor.is_none() {
                        span = empty_span(self.source.as_bytes(), at);
                    }
                    value = std::borrow::Cow::Borrowed("~");
                }
                let tag = tag.map(|t| Box::new(tag_of(&t)));
                let id = self.scalar(&value, style, tag, span);
                self.anchor(anchor.as_deref(), id)?;
                self.add(id);
            }
            EventKind::SequenceStart {
                anchor, tag, flow, ..
            }
            | EventKind::MappingStart {
                anchor, tag, flow, ..
            } => {
                let bytes = self.source.as_bytes();
                // The collection's first character: `[`/`{` just before the event's end (a
                // single pair in a flow sequence, `[a: b]`, has no bracket: its key, at the
                // end), a block sequence's `-` (at the end, or just before it when
                // indentless), a block mapping's first key (at the end).
                let at = if (flow && end > start)
                    || (!flow && !mapping && bytes.get(end) != Some(&b'-'))
                {
                    end.saturating_sub(1)
                } else {
                    end
                };
                let span = Span::new(at, end.max(at));
                // The tag is checked where PyYAML's constructor would look at it (`value.rs`): a
                // collection that is only merged is never constructed.
                let tag = tag.map(|t| Box::new(tag_of(&t)));
                let depth = if flow {
                    &mut self.flow
                } else {
                    &mut self.block
                };
                *depth += 1;
                if *depth > NESTING_LIMIT {
                    return Err(Failure::Load(LoadError::new(
                        LoadErrorKind::TooDeep,
                        format!(
                            "collections nest deeper than {NESTING_LIMIT} levels; no template needs that"
                        ),
                        Some(Span::new(at, at)),
                    )));
                }
                let style = if flow { Style::Flow } else { Style::Block };
                let kind = if mapping {
                    NodeKind::Mapping {
                        entries: Children::new(),
                        style,
                    }
                } else {
                    NodeKind::Sequence {
                        items: Children::new(),
                        style,
                    }
                };
                let id = self.doc.push(Node {
                    span,
                    kind,
                    anchor: None,
                    tag,
                });
                self.anchor(anchor.as_deref(), id)?;
                self.add(id);
                self.frames.push(Frame {
                    id,
                    start: if mapping {
                        self.entries.len()
                    } else {
                        self.items.len()
                    },
                    key: None,
                    mapping,
                    flow,
                });
            }
            EventKind::SequenceEnd | EventKind::MappingEnd => self.close(end),
            EventKind::StreamStart | EventKind::StreamEnd | EventKind::DocumentEnd { .. } => {}
        }
        Ok(())
    }

    /// Where a node's own text starts: the event's start, or past its anchor and tag, the
    /// white space, line breaks and comments after them.
    fn content_start(
        &self,
        start: usize,
        anchor: Option<&Property<'_>>,
        tag: Option<&Property<'_>>,
        end: usize,
    ) -> usize {
        let props = anchor.map(|a| a.end).max(tag.map(|t| t.end));
        let Some(mut at) = props else {
            return start;
        };
        let bytes = self.source.as_bytes();
        while at < end {
            let len = break_len(bytes, at);
            match bytes[at] {
                _ if len > 0 => at += len,
                b' ' | b'\t' => at += 1,
                b'#' => {
                    while at < end && break_len(bytes, at) == 0 {
                        at += 1;
                    }
                }
                _ => break,
            }
        }
        at.min(end)
    }

    /// PyYAML loads exactly one document.
    fn document(&mut self, span: Span) -> Result<(), LoadError> {
        self.documents += 1;
        if self.documents > 1 {
            let first_line = self
                .doc
                .lines()
                .position(self.source, self.document_start)
                .line;
            return Err(LoadError::new(
                LoadErrorKind::MultipleDocuments,
                format!(
                    "expected a single document in the stream, but found another document (the first starts on line {first_line})"
                ),
                Some(span),
            ));
        }
        self.document_start = span.start;
        Ok(())
    }

    /// `&name` on a node.
    #[inline]
    fn anchor(&mut self, anchor: Option<&Property<'s>>, node: NodeId) -> Result<(), LoadError> {
        match anchor {
            None => Ok(()),
            Some(anchor) => self.define_anchor(anchor, node),
        }
    }

    fn define_anchor(&mut self, anchor: &Property<'s>, node: NodeId) -> Result<(), LoadError> {
        let span = Span::new(anchor.start, anchor.end);
        // The name as written (a slice of the text).
        let name = self
            .source
            .get(anchor.start + 1..anchor.end)
            .unwrap_or_default();
        if let Some((_, first)) = self.anchors.get(name) {
            let first_line = self.doc.lines().position(self.source, first.start).line;
            return Err(LoadError::new(
                LoadErrorKind::Syntax,
                format!(
                    "found duplicate anchor '{name}' (first occurrence on line {first_line}); PyYAML refuses to redefine an anchor"
                ),
                Some(span),
            ));
        }
        self.anchors.insert(name, (node, span));
        self.doc.node_mut(node).anchor = Some(span);
        Ok(())
    }

    fn alias(&mut self, name: &str, span: Span) -> Result<(), LoadError> {
        let Some(&(target, _)) = self.anchors.get(name) else {
            return Err(LoadError::new(
                LoadErrorKind::Syntax,
                format!("found undefined alias '{name}'"),
                Some(span),
            ));
        };
        if self.frames.iter().any(|frame| frame.id == target) {
            let err = LoadError::new(
                LoadErrorKind::Construct,
                format!(
                    "the alias '{name}' refers to a node that contains it; Heat cannot use a recursive structure"
                ),
                Some(span),
            )
            .not_yaml_error();
            // PyYAML builds the recursive value; only where the loaded value reaches it does
            // Heat fail (a repeated key may drop it: `a: &x [*x]` then `a: 1`). As a key it
            // always fails. As a merge, PyYAML's flatten_mapping has deleted the merge entry
            // before it follows it, so the result may hold no cycle (`&x [<<: *x]` loads as
            // `[{}]`): an empty mapping stands in for it, and construction follows the target
            // (value.rs). Elsewhere a null stands in for it, refused at the end if the value
            // view reaches it (the tree keeps no cycle).
            match self.position() {
                Position::Key => return Err(err),
                Position::Merge => {
                    let id = self.doc.push(Node {
                        span,
                        kind: NodeKind::Mapping {
                            entries: Children::new(),
                            style: Style::Flow,
                        },
                        anchor: None,
                        tag: None,
                    });
                    self.add(id);
                    self.doc.merge_aliases.push((id, target));
                    return Ok(());
                }
                Position::Value => {}
            }
            let id = self.doc.push(Node {
                span,
                kind: NodeKind::Scalar(Scalar {
                    text: Text::from(""),
                    style: ScalarStyle::Plain,
                    value: ScalarValue::Null,
                }),
                anchor: None,
                tag: None,
            });
            self.add(id);
            self.cycles.push((id, err));
            return Ok(());
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

    /// Where the next node goes: a mapping's key, the value of a merge key (or an item of a
    /// sequence that is one), or anywhere else.
    fn position(&self) -> Position {
        let is_merge = |key: NodeId| self.doc.is_merge_key(key);
        let n = self.frames.len();
        match self.frames.last() {
            Some(frame) if frame.mapping => match frame.key {
                None => Position::Key,
                Some(key) if is_merge(key) => Position::Merge,
                Some(_) => Position::Value,
            },
            Some(frame)
                if n >= 2
                    && self.frames[n - 2].mapping
                    && self
                        .entries
                        .last()
                        .is_some_and(|entry| entry.value == frame.id && is_merge(entry.key)) =>
            {
                Position::Merge
            }
            _ => Position::Value,
        }
    }

    fn scalar(
        &mut self,
        text: &str,
        style: ScalarStyle,
        tag: Option<Box<Tag>>,
        span: Span,
    ) -> NodeId {
        let value = match tag.as_ref().map(|t| t.name.as_str()) {
            // An empty node tagged `!`: libyaml's event marks it quoted-implicit (the empty
            // string), PyYAML's pure parser plain-implicit (resolved: None).
            Some("!") if span.is_empty() && self.pure => Ok(ScalarValue::Null),
            Some("!") if span.is_empty() => Ok(ScalarValue::Str),
            None if style == ScalarStyle::Plain => construct_plain(text),
            None => Ok(ScalarValue::Str),
            // libyaml resolves a scalar with the non-specific tag `!` as if it were plain,
            // even when quoted: `! '12'` loads as the integer 12.
            Some("!") => construct_nonspecific(text),
            Some(tag) => construct_tagged(tag, text),
        };
        // PyYAML constructs a scalar only when the value reaches it (not inside a merge key, not
        // beside the `=` entry of a mapping tagged as a scalar): its refusal waits for that.
        let (value, refusal) = match value {
            Ok(value) => (value, None),
            Err(message) => {
                let python = crate::scalar::not_yaml_error(&message);
                let err = LoadError::new(LoadErrorKind::Construct, message, Some(span));
                (
                    ScalarValue::Str,
                    Some(if python { err.not_yaml_error() } else { err }),
                )
            }
        };
        let id = self.doc.push(Node {
            span,
            kind: NodeKind::Scalar(Scalar {
                text: Text::from(text),
                style,
                value,
            }),
            anchor: None,
            tag,
        });
        if let Some(err) = refusal {
            self.doc.refused.push((id, err));
        }
        id
    }

    /// Places a new node in its parent.
    fn add(&mut self, id: NodeId) {
        match self.frames.last_mut() {
            None => self.doc.root = Some(id),
            Some(Frame { mapping: false, .. }) => self.items.push(id),
            Some(Frame { key, .. }) => match key.take() {
                None => *key = Some(id),
                Some(k) => self.entries.push(Entry { key: k, value: id }),
            },
        }
    }

    fn close(&mut self, end: usize) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let last_child = if frame.mapping {
            // A copy of the slice, then the stack cut back: cheaper than collecting a drain.
            let entries = Children::from_slice(&self.entries[frame.start..]);
            self.entries.truncate(frame.start);
            let last = entries.last().map(|e| e.value);
            if let NodeKind::Mapping { entries: slot, .. } = &mut self.doc.node_mut(frame.id).kind {
                *slot = entries;
            }
            last
        } else {
            let items = Children::from_slice(&self.items[frame.start..]);
            self.items.truncate(frame.start);
            let last = items.last().copied();
            if let NodeKind::Sequence { items: slot, .. } = &mut self.doc.node_mut(frame.id).kind {
                *slot = items;
            }
            last
        };
        let depth = if frame.flow {
            &mut self.flow
        } else {
            &mut self.block
        };
        *depth -= 1;
        let start = self.doc.node(frame.id).span.start;
        // A block collection ends where its last child does; a flow one at its bracket.
        let end = if frame.flow {
            end
        } else {
            last_child.map_or(start, |child| self.doc.node(child).span.end)
        };
        self.doc.node_mut(frame.id).span = Span::new(start, end.max(start));
    }
}

/// Where the tree places an empty node that libyaml marks at `at`: on the `:` before it (an
/// empty value: libyaml marks it after the `:`, or at the next token in a flow mapping), or on
/// the `:` after it (an empty key after `?`); else at `at`.
fn empty_span(bytes: &[u8], at: usize) -> Span {
    let mut back = at;
    while back > 0 && matches!(bytes[back - 1], b' ' | b'\t') {
        back -= 1;
    }
    if back > 0 && bytes[back - 1] == b':' {
        return Span::new(back - 1, back - 1);
    }
    if back > 0 && bytes[back - 1] == b'?' {
        let mut next = at;
        while next < bytes.len() {
            let len = break_len(bytes, next);
            match bytes[next] {
                _ if len > 0 => next += len,
                b' ' | b'\t' => next += 1,
                b'#' => {
                    while next < bytes.len() && break_len(bytes, next) == 0 {
                        next += 1;
                    }
                }
                b':' => return Span::new(next, next),
                _ => break,
            }
        }
    }
    Span::new(at, at)
}

fn tag_of(tag: &Property<'_>) -> Tag {
    Tag {
        name: tag.text.clone().into_owned(),
        span: Some(Span::new(tag.start, tag.end)),
    }
}

/// libyaml's block scalar ends after the line breaks and the indentation that follow its
/// content; the node ends at its last content character.
fn block_scalar_end(source: &str, start: usize, end: usize) -> Span {
    let bytes = source.as_bytes();
    let mut end = end.max(start);
    loop {
        let blanks = bytes[start..end]
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let before = end - blanks;
        let len = if before > start {
            break_before(bytes, start, before)
        } else {
            0
        };
        if len == 0 {
            break;
        }
        end = before - len;
    }
    Span::new(start, end)
}

/// The length of the line break that ends just before `at` (after `start`), 0 if none.
fn break_before(bytes: &[u8], start: usize, at: usize) -> usize {
    for len in [2, 1, 3] {
        if at >= start + len && break_len(bytes, at - len) == len {
            return len;
        }
    }
    0
}

/// The length of the line break at `at` (CR LF, CR, LF, NEL, LS, PS), 0 when there is none.
fn break_len(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at..).unwrap_or_default() {
        [b'\r', b'\n', ..] | [0xC2, 0x85, ..] => 2,
        [b'\r' | b'\n', ..] => 1,
        [0xE2, 0x80, 0xA8 | 0xA9, ..] => 3,
        _ => 0,
    }
}
