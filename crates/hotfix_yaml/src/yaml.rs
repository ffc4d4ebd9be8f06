//! YAML text → node tree, from `granit-parser` events.

use std::collections::HashMap;

use granit_parser::{ErrorKind, Event, Options, Parser, ScanError, StructureStyle};

use crate::document::{
    Document, Entry, Node, NodeId, NodeKind, Scalar, ScalarStyle, SourceFormat, Span, Style, Tag,
    Text,
};
use crate::error::{LoadError, LoadErrorKind};
use crate::scalar::{ScalarValue, construct_plain, construct_tagged};

/// Parses YAML text into a [`Document`], failing where PyYAML's `SafeLoader` fails, and whose
/// rules gave the answer: [`Loader::Pure`] when libyaml's rules
/// refused the text with a refusal the pure loader may not share, and the pure loader's were
/// tried.
pub(crate) fn parse_reporting(source: &str) -> (Result<Document, LoadError>, Loader) {
    let mut repairs = Repairs::breaks(source);
    // Heat's `simple_parse` loads with PyYAML's pure-Python `SafeLoader` where libyaml refuses
    // the text: libyaml's refusals that the pure loader may not share are tried again with its
    // rules (`Loader::Pure`), and the first refusal stays when it refuses too.
    let mut loader = Loader::LibYaml;
    let mut first_refusal = None;
    loop {
        let repaired = repairs.apply(source);
        let text = repaired.as_deref().unwrap_or(source);
        match parse_once(source, text, &repairs, loader) {
            Ok(doc) => return (Ok(doc), loader),
            Err(Failure::LibYamlOnly(err)) if loader == Loader::LibYaml => {
                loader = Loader::Pure;
                first_refusal = Some(err);
            }
            Err(Failure::Load(err) | Failure::LibYamlOnly(err)) => {
                return (Err(first_refusal.unwrap_or(err)), loader);
            }
            Err(Failure::Repair { repair, err }) => {
                if repairs.count() >= MAX_REPAIRS || !repairs.add(source, text, repair) {
                    return (
                        Err(first_refusal.unwrap_or_else(|| repairs.map_error(err))),
                        loader,
                    );
                }
            }
        }
    }
}

/// Deep enough for any template, shallow enough that nothing downstream recurses far.
const NESTING_LIMIT: usize = 200;

/// Source bytes per node of a typical template, for the node list's first capacity.
const NODE_BYTES_HINT: usize = 20;

/// How many repairs are made before giving up.
const MAX_REPAIRS: usize = 64;

/// What libyaml reads otherwise than the parser, at an offset of the text the parser read.
#[derive(Debug, Clone, Copy)]
enum Repair {
    /// A continuation line of a quoted scalar that is not indented past the enclosing block
    /// (libyaml folds its leading white space away; YAML 1.2 refuses it): pad the line.
    UnderIndentedQuote(usize),
    /// A plain `-` followed by a flow indicator (`[-, a]`, `{b: -}`): libyaml reads a plain
    /// scalar `-`, the parser refuses. The `-` is replaced by a placeholder for the parse and
    /// its scalar given back its text.
    Dash(usize),
    /// A tab that the parser refuses as indentation, where libyaml takes it for white space
    /// (a quoted scalar's continuation line, a flow collection): read as a space. Where libyaml
    /// refuses the tab too, the checks after the parse (on the original text) say so.
    Tab(usize),
    /// `?` or `:` directly followed by text in a flow collection (`[?x]`): libyaml reads a key
    /// or value indicator, the parser a plain scalar. A space is put after it. (An offset of
    /// the original text.)
    FlowIndicator(usize),
    /// `{a:{}}`: the parser refuses a `:` right before a flow collection; libyaml refuses it
    /// too, but PyYAML's own loader (Heat's second try) reads a value indicator there. A space
    /// is put after the `:` (the check for libyaml's refusal then sends the text to the pure
    /// loader's rules).
    SpaceAfterColon(usize),
    /// `|#`: libyaml takes a comment right after a block scalar's header, the parser wants
    /// white space first. A space is put before the `#`.
    SpaceBeforeComment(usize),
    /// An anchor or alias name that libyaml ends before a `:`, `?`, `,`, `]` or `}`
    /// (`&a:b`): a space is put there. (An offset of the original text.)
    NameEnd(usize),
}

/// The placeholder of a plain `-` before a flow indicator, one byte like it.
const DASH_PLACEHOLDER: &str = "x";

/// One change to the text before parsing: at an offset of the original text, `removed` bytes
/// replaced by `inserted`.
#[derive(Debug, Clone)]
struct Edit {
    at: usize,
    removed: usize,
    inserted: String,
}

/// Changes made to the text before parsing, mapped back for every span: spaces inserted
/// (under-indented quoted lines, after indicators), the `-` of [`Repair::Dash`] replaced by
/// [`DASH_PLACEHOLDER`], tabs by spaces, and libyaml's line breaks that YAML 1.2 does not
/// know (NEL, LS, PS) by ones it does.
#[derive(Debug, Default)]
struct Repairs {
    /// Sorted by offset; at most one edit starts at an offset.
    edits: Vec<Edit>,
    /// Original offsets of the `-` replaced by the placeholder, sorted.
    dashes: Vec<usize>,
    /// How many edits were repairs (not line breaks).
    made: usize,
}

impl Repairs {
    /// The line breaks of YAML 1.1 that YAML 1.2 reads as text: NEL as CR LF (as long, and read
    /// as `\n` like it), LS and PS as LF (their own value in a block scalar is restored from
    /// libyaml's reading; see `libyaml.rs`).
    fn breaks(source: &str) -> Self {
        let mut repairs = Self::default();
        let bytes = source.as_bytes();
        for at in memchr::memchr2_iter(0xC2, 0xE2, bytes) {
            match crate::libyaml::break_len(bytes, at) {
                2 => repairs.edits.push(Edit {
                    at,
                    removed: 2,
                    inserted: "\r\n".to_owned(),
                }),
                3 => repairs.edits.push(Edit {
                    at,
                    removed: 3,
                    inserted: "\n".to_owned(),
                }),
                _ => {}
            }
        }
        repairs
    }

    fn count(&self) -> usize {
        self.made
    }

    fn apply(&self, source: &str) -> Option<String> {
        if self.edits.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(source.len() + self.edits.len() * 64);
        let mut last = 0;
        for edit in &self.edits {
            out.push_str(&source[last..edit.at]);
            out.push_str(&edit.inserted);
            last = edit.at + edit.removed;
        }
        out.push_str(&source[last..]);
        Some(out)
    }

    /// Adds a repair at an offset of the parsed `text`; `false` when it was made already (the
    /// parser still refuses) or does not apply.
    fn add(&mut self, source: &str, text: &str, repair: Repair) -> bool {
        let (at, removed, inserted) = match repair {
            Repair::UnderIndentedQuote(offset) => {
                let original = self.to_original(offset);
                let line_start = line_start(source.as_bytes(), original);
                // Deeper than any indentation in the file, so deeper than the enclosing block.
                (line_start, 0, " ".repeat(deepest_indentation(source) + 1))
            }
            Repair::Dash(offset) | Repair::Tab(offset) => {
                // The parser may point past the tab of the line's indentation.
                let offset = match repair {
                    Repair::Tab(_) => {
                        let line = text[..offset.min(text.len())]
                            .rfind(['\n', '\r'])
                            .map_or(0, |i| i + 1);
                        text.as_bytes()[line..]
                            .iter()
                            .take_while(|&&b| matches!(b, b' ' | b'\t'))
                            .position(|&b| b == b'\t')
                            .map_or(offset, |i| line + i)
                    }
                    _ => offset,
                };
                let original = self.to_original(offset);
                let (byte, replacement) = match repair {
                    Repair::Dash(_) => (b'-', DASH_PLACEHOLDER),
                    _ => (b'\t', " "),
                };
                if text.as_bytes().get(offset) != Some(&byte)
                    || source.as_bytes().get(original) != Some(&byte)
                {
                    return false;
                }
                // Only a tab of a line's leading white space, which no value keeps.
                if byte == b'\t' {
                    let line = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
                    if !text.as_bytes()[line..offset]
                        .iter()
                        .all(|&b| matches!(b, b' ' | b'\t'))
                    {
                        return false;
                    }
                }
                if byte == b'-' {
                    self.dashes.push(original);
                    self.dashes.sort_unstable();
                }
                (original, 1, replacement.to_owned())
            }
            Repair::SpaceAfterColon(offset) => {
                let bytes = text.as_bytes();
                let colon = if bytes.get(offset) == Some(&b':') {
                    offset
                } else if offset > 0 && bytes.get(offset - 1) == Some(&b':') {
                    offset - 1
                } else {
                    return false;
                };
                (self.to_original(colon) + 1, 0, " ".to_owned())
            }
            Repair::SpaceBeforeComment(offset) => {
                let bytes = text.as_bytes();
                if bytes.get(offset) != Some(&b'#') {
                    return false;
                }
                // Only after a block scalar's header: `|` or `>`, then `+`, `-` or a digit.
                let mut i = offset;
                while i > 0 && matches!(bytes[i - 1], b'+' | b'-' | b'0'..=b'9') {
                    i -= 1;
                }
                let header = i > 0 && matches!(bytes[i - 1], b'|' | b'>') && offset - i <= 2;
                // libyaml starts a comment at `#` wherever it looks for a token: also right
                // after a flow collection or a quoted scalar.
                let token_end = offset > 0
                    && matches!(
                        bytes[offset - 1],
                        b']' | b'}' | b'[' | b'{' | b',' | b'\'' | b'"'
                    );
                if !header && !token_end {
                    return false;
                }
                (self.to_original(offset), 0, " ".to_owned())
            }
            Repair::FlowIndicator(original) | Repair::NameEnd(original) => {
                let at = if matches!(repair, Repair::FlowIndicator(_)) {
                    original + 1
                } else {
                    original
                };
                (at, 0, " ".to_owned())
            }
        };
        if self.edits.iter().any(|e| e.at == at) {
            return false;
        }
        let place = self.edits.partition_point(|e| e.at < at);
        self.edits.insert(
            place,
            Edit {
                at,
                removed,
                inserted,
            },
        );
        self.made += 1;
        true
    }

    /// Whether the plain scalar at this original offset is a `-` that the parse read as the
    /// placeholder.
    fn is_dash(&self, original: usize) -> bool {
        self.dashes.binary_search(&original).is_ok()
    }

    /// Maps an offset in the parsed text to the original text.
    fn to_original(&self, offset: usize) -> usize {
        // `parsed - original` so far.
        let mut shift: isize = 0;
        for edit in &self.edits {
            let start = edit.at.saturating_add_signed(shift);
            if offset < start {
                break;
            }
            if offset < start + edit.inserted.len() {
                return edit.at + (offset - start).min(edit.removed.saturating_sub(1));
            }
            shift += isize::try_from(edit.inserted.len()).unwrap_or(0)
                - isize::try_from(edit.removed).unwrap_or(0);
        }
        offset.saturating_add_signed(-shift)
    }

    fn span(&self, span: Span) -> Span {
        if self.edits.is_empty() {
            return span;
        }
        Span::new(self.to_original(span.start), self.to_original(span.end))
    }

    fn map_error(&self, mut err: LoadError) -> LoadError {
        err.span = err.span.map(|s| self.span(s));
        err
    }
}

/// Whose rules a parse follows where libyaml and PyYAML's pure-Python loader differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loader {
    /// libyaml's (`CSafeLoader`), tried first.
    LibYaml,
    /// PyYAML's own scanner (`SafeLoader`), which Heat tries where libyaml refuses: a block
    /// scalar's indentation may be followed by a tab, and no tab separates tokens.
    Pure,
}

enum Failure {
    Load(LoadError),
    /// A refusal of libyaml's that PyYAML's pure-Python loader may not make.
    LibYamlOnly(LoadError),
    Repair {
        repair: Repair,
        err: LoadError,
    },
}

fn parse_once(
    source: &str,
    text: &str,
    repairs: &Repairs,
    loader: Loader,
) -> Result<Document, Failure> {
    let mut options = Options::default();
    options.emit_anchor_events = true;
    // Comments are found from the finished tree (`comments.rs`): the parser's comment events
    // cost more than the rest of the tree building.
    options.emit_comments = false;
    options.flow_nesting_limit = NESTING_LIMIT;
    options.block_nesting_limit = NESTING_LIMIT;
    let parser = Parser::new_from_str_with_options(text, options);
    let mut builder = Builder::new(source, repairs, loader);
    for next in parser {
        let (event, span) = next.map_err(|err| {
            let load = scan_error(text, &err);
            let offset = load.span.map_or(0, |s| s.start);
            match err.kind() {
                ErrorKind::InvalidQuotedScalarIndent => Failure::Repair {
                    repair: Repair::UnderIndentedQuote(offset),
                    err: load,
                },
                ErrorKind::PlainScalarStartsWithDashFlowIndicator => Failure::Repair {
                    repair: Repair::Dash(offset),
                    err: load,
                },
                ErrorKind::TabInIndentation
                | ErrorKind::TabNotAllowed
                | ErrorKind::TabInBlockIndentation
                | ErrorKind::TabAtBlockScalarStart
                | ErrorKind::TabInPlainScalar => Failure::Repair {
                    repair: Repair::Tab(offset),
                    err: load,
                },
                ErrorKind::FlowMappingValueAdjacentCollection => Failure::Repair {
                    repair: Repair::SpaceAfterColon(offset),
                    err: load,
                },
                ErrorKind::CommentNotSeparated => Failure::Repair {
                    repair: Repair::SpaceBeforeComment(offset),
                    err: load,
                },
                _ => Failure::Load(repairs.map_error(load)),
            }
        })?;
        let tag_span = span
            .tag_span()
            .and_then(|t| t.byte_range())
            .map(|r| repairs.span(Span::new(r.start, r.end)));
        let span = repairs.span(
            span.byte_range()
                .map_or(Span::default(), |r| Span::new(r.start, r.end)),
        );
        builder.event(event, span, tag_span)?;
    }
    builder.check_keys().map_err(Failure::Load)?;
    crate::comments::scan(&mut builder.doc);
    builder.check_tabs().map_err(Failure::Load)?;
    Ok(builder.doc)
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

/// A block sequence's first `-`: where the parser's event starts, or (an indentless sequence,
/// whose event starts at its first item) the last `-` before that, past white space, line
/// breaks, comments and the item's anchor and tag, after the previous event's end `from`.
fn sequence_dash(bytes: &[u8], from: usize, start: usize, under_mapping: bool) -> Option<usize> {
    let is_dash = |i: usize| {
        bytes.get(i) == Some(&b'-')
            && bytes
                .get(i + 1)
                .is_none_or(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    };
    if is_dash(start) {
        // The event starts at a `-`: this sequence's, or (an indentless sequence whose first
        // item is a compact sequence, `key:\n- - a`) the item's, with this one's before it.
        let mut i = start;
        while i > from && matches!(bytes[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        if under_mapping && i > from + 1 && is_dash(i - 1) {
            return Some(i - 1);
        }
        return Some(start);
    }
    let mut i = start.min(bytes.len());
    while i > from {
        // A comment on this line, before `i`: back to its `#`.
        let line = line_start(bytes, i);
        if let Some(hash) = (line..i)
            .find(|&h| bytes[h] == b'#' && (h == line || matches!(bytes[h - 1], b' ' | b'\t')))
        {
            i = hash;
        }
        while i > line && matches!(bytes[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        if i == line {
            // Back to the end of the line before.
            if line == 0 {
                return None;
            }
            i = line - 1;
            while i > 0 && matches!(bytes[i - 1], b'\r' | b'\n') && bytes[i] == b'\n' {
                i -= 1;
            }
            continue;
        }
        if is_dash(i - 1) {
            return (i - 1 > from).then_some(i - 1);
        }
        // An anchor or tag of the first item: back to its start.
        let token = bytes[line..i]
            .iter()
            .rev()
            .take_while(|&&b| !matches!(b, b' ' | b'\t'))
            .count();
        if token == 0 || !matches!(bytes[i - token], b'&' | b'!') {
            return None;
        }
        i -= token;
    }
    None
}

/// Whether the key starting at `start` follows a `?` indicator (past white space and line
/// breaks).
fn explicit_key(bytes: &[u8], start: usize) -> bool {
    let mut i = start;
    loop {
        if i > 0 && matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
            i -= 1;
        } else if i >= 2 && crate::libyaml::break_len(bytes, i - 2) == 2 {
            i -= 2;
        } else if i >= 3 && crate::libyaml::break_len(bytes, i - 3) == 3 {
            i -= 3;
        } else if let Some(hash) = comment_before(bytes, i).filter(|_| i < start) {
            // A comment that ends a line before the key (`? # note`): back to its `#`.
            i = hash;
        } else {
            break;
        }
    }
    i > 0
        && bytes[i - 1] == b'?'
        && (i == 1
            || (i == 4 && bytes.starts_with("\u{feff}".as_bytes()))
            || matches!(
                bytes[i - 2],
                b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'[' | b','
            ))
}

/// `%TAG !handle! prefix` (`after` is where the directive's name ends): the handle `!`, `!!`
/// or `!name!`, then white space and a prefix of URI characters.
fn check_tag_directive(bytes: &[u8], after: usize) -> Result<(), LoadError> {
    let refusal = |problem: &str, at: usize| {
        LoadError::new(
            LoadErrorKind::Syntax,
            format!("invalid YAML: while scanning a directive: {problem}"),
            Some(Span::new(at, at + 1)),
        )
    };
    // `%TAG !handle! prefix`: `!`, `!!` or `!name!`, then white space.
    let rest = &bytes[after..];
    let skip = rest
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t'))
        .count();
    let handle = &rest[skip..];
    let name = handle
        .get(1..)
        .unwrap_or_default()
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        .count();
    let len = match handle.get(1 + name) {
        _ if handle.first() != Some(&b'!') => 0,
        Some(b'!') => name + 2,
        _ if name == 0 => 1,
        _ => 0,
    };
    let ends = matches!(handle.get(len), Some(b' ' | b'\t'));
    if len == 0 || !ends {
        return Err(refusal(
            "did not find expected '!' of a %TAG handle",
            after + skip,
        ));
    }
    // The prefix: URI characters (`yaml_parser_scan_tag_uri`).
    let prefix = &handle[len..];
    let gap = prefix
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t'))
        .count();
    let uri = prefix[gap..]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b";/?:@&=+$,.!~*'()[]%-_".contains(&b))
        .count();
    let end = gap + uri;
    let ends = end >= prefix.len()
        || matches!(prefix[end], b' ' | b'\t')
        || crate::libyaml::break_len(prefix, end) > 0;
    if uri == 0 || !ends {
        return Err(refusal("did not find expected tag URI", after + skip + len));
    }
    Ok(())
}

/// libyaml refuses `---` or `...` at the start of a line inside a quoted scalar
/// (`found unexpected document indicator`).
fn check_document_indicator(bytes: &[u8], span: Span) -> Result<(), Failure> {
    let mut at = span.start;
    while let Some(line) = next_line(bytes, at).filter(|&l| l < span.end) {
        let marker = bytes.get(line..line + 3);
        let after = bytes.get(line + 3).copied();
        let ends = after.is_none_or(|b| matches!(b, b' ' | b'\t'))
            || crate::libyaml::break_len(bytes, line + 3) > 0;
        if matches!(marker, Some(b"---" | b"...")) && ends {
            return Err(Failure::Load(LoadError::new(
                LoadErrorKind::Syntax,
                "invalid YAML: while scanning a quoted scalar: found unexpected document indicator"
                    .to_owned(),
                Some(Span::new(line, line + 3)),
            )));
        }
        at = line;
    }
    Ok(())
}

/// PyYAML's pure-Python loader (Heat's second try, with no timestamp override) constructs a
/// timestamp as a date, and fails on one it cannot construct.
fn check_pure_timestamp(
    text: &str,
    style: ScalarStyle,
    tag: Option<&Tag>,
    span: Span,
) -> Result<(), Failure> {
    let tag_name = tag.map(|t| t.name.as_str());
    let explicit = tag_name == Some("tag:yaml.org,2002:timestamp");
    let implicit = tag_name.is_none()
        && style == ScalarStyle::Plain
        && text.as_bytes().first().is_some_and(u8::is_ascii_digit);
    if (explicit || implicit) && crate::libyaml::pure_timestamp_fails(text, explicit) {
        return Err(Failure::Load(LoadError::new(
            LoadErrorKind::Construct,
            format!(
                "'{text}' is not a timestamp PyYAML can construct (Heat reads this file with \
                 PyYAML's own loader, which makes dates, since libyaml refuses it)"
            ),
            Some(span),
        )));
    }
    Ok(())
}

/// The most spaces any line of the text starts with.
fn deepest_indentation(source: &str) -> usize {
    let bytes = source.as_bytes();
    let mut deepest = 0;
    let mut line = Some(0);
    while let Some(at) = line {
        deepest = deepest.max(bytes[at..].iter().take_while(|&&b| b == b' ').count());
        line = next_line(bytes, at);
    }
    deepest
}

/// Where the line holding `at` starts, by libyaml's line breaks (CR, LF, NEL, LS, PS).
fn line_start(bytes: &[u8], at: usize) -> usize {
    let mut start = at.min(bytes.len());
    while start > 0 {
        let ends_break = crate::libyaml::break_len(bytes, start - 1) > 0
            || (start >= 2 && crate::libyaml::break_len(bytes, start - 2) == 2)
            || (start >= 3 && crate::libyaml::break_len(bytes, start - 3) == 3);
        if ends_break {
            break;
        }
        start -= 1;
    }
    start
}

/// The `#` of a comment that runs on its line up to `end` (a line's end), if one does.
fn comment_before(bytes: &[u8], end: usize) -> Option<usize> {
    let at_line_end = end >= bytes.len() || crate::libyaml::break_len(bytes, end) > 0;
    if !at_line_end {
        return None;
    }
    let line = line_start(bytes, end);
    (line..end).find(|&h| bytes[h] == b'#' && (h == line || matches!(bytes[h - 1], b' ' | b'\t')))
}

/// libyaml's column of an offset: characters since the line break before it.
fn column(source: &str, at: usize) -> usize {
    let start = line_start(source.as_bytes(), at);
    // libyaml's reader drops the byte-order mark at the start of the stream.
    let start = if start == 0 && source.starts_with('\u{feff}') {
        3.min(at)
    } else {
        start
    };
    source[start..at].chars().count()
}

/// The offset of the line after the one holding `at`, by libyaml's line breaks.
fn next_line(bytes: &[u8], mut at: usize) -> Option<usize> {
    while at < bytes.len() {
        let len = crate::libyaml::break_len(bytes, at);
        if len > 0 {
            return Some(at + len);
        }
        at += 1;
    }
    None
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
        /// A block sequence's first `-`, where found.
        dash: Option<usize>,
    },
    Mapping {
        id: NodeId,
        start: usize,
        key: Option<NodeId>,
    },
}

struct Builder<'s> {
    source: &'s str,
    repairs: &'s Repairs,
    loader: Loader,
    /// Ranges where the pure loader keeps a tab: quoted scalars, block scalars' lines.
    tabs_allowed: Vec<(usize, usize)>,
    /// Open flow collections.
    flow: usize,
    /// Ranges of the text inside a scalar or a flow collection, where libyaml's rule for tabs
    /// between tokens does not apply (`Builder::check_tabs`).
    covered: Vec<(usize, usize)>,
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
    fn new(source: &'s str, repairs: &'s Repairs, loader: Loader) -> Self {
        let mut doc = Document::new(source, SourceFormat::Yaml);
        // Templates hold about one node per 20 bytes (the corpus's median file): reserving that
        // spares most of the copies of a growing node list.
        doc.nodes.reserve(source.len() / NODE_BYTES_HINT);
        Self {
            source,
            repairs,
            loader,
            flow: 0,
            covered: Vec::new(),
            tabs_allowed: Vec::new(),
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
    ) -> Result<(), Failure> {
        let prev_end = self.prev_end;
        self.prev_end = prev_end.max(span.end);
        if matches!(
            event,
            Event::Anchor(..) | Event::Alias(..) | Event::UnresolvedAlias(..)
        ) {
            self.check_name(span)?;
        }
        if matches!(event, Event::DocumentStart(..)) && self.documents == 0 {
            self.check_directives(span.start)?;
            self.check_document_end_first(span.start)?;
        }
        // PyYAML's own scanner wants white space after a tag (`scan_tag`).
        if let Some(tag) = tag_span.filter(|_| self.loader == Loader::Pure) {
            let bytes = self.source.as_bytes();
            if tag.end < bytes.len()
                && !matches!(bytes[tag.end], b' ' | b'\t')
                && crate::libyaml::break_len(bytes, tag.end) == 0
            {
                return Err(Failure::Load(LoadError::new(
                    LoadErrorKind::Syntax,
                    "invalid YAML: while scanning a tag: expected ' ', but found another character"
                        .to_owned(),
                    Some(Span::new(tag.end, tag.end + 1)),
                )));
            }
        }
        if let Event::Scalar(text, style, _anchor, tag) = event {
            let tag = tag.map(|t| {
                Box::new(Tag {
                    name: format!("{}{}", t.handle(), t.suffix()),
                    span: tag_span,
                })
            });
            return self.scalar(text, scalar_style(style), tag, span, prev_end);
        }
        self.structure(event, span, tag_span, prev_end)
            .map_err(Failure::Load)
    }

    /// `yaml_parser_scan_anchor`: an anchor or alias name is made of ASCII letters, digits,
    /// `-` and `_`, and ends at white space or one of `?:,]}%@` and a backquote.
    fn check_name(&self, span: Span) -> Result<(), Failure> {
        let Some(text) = self.source.get(span.range()) else {
            return Ok(());
        };
        let Some(name) = text.strip_prefix(['&', '*']) else {
            return Ok(());
        };
        let Some(bad) = name
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
        else {
            // What may follow the name.
            let bytes = self.source.as_bytes();
            let next = bytes.get(span.end).copied();
            let ends = match next {
                None
                | Some(b' ' | b'\t' | b'?' | b':' | b',' | b']' | b'}' | b'%' | b'@' | b'`') => {
                    true
                }
                Some(_) => crate::libyaml::break_len(bytes, span.end) > 0,
            };
            if ends || name.is_empty() {
                return Ok(());
            }
            return Err(Failure::Load(LoadError::new(
                LoadErrorKind::Syntax,
                format!(
                    "invalid YAML: while scanning an {}: did not find expected alphabetic or numeric character",
                    if text.starts_with('&') {
                        "anchor"
                    } else {
                        "alias"
                    }
                ),
                Some(Span::new(span.end, span.end + 1)),
            )));
        };
        let at = span.start + 1 + bad;
        let refusal = LoadError::new(
            LoadErrorKind::Syntax,
            format!(
                "invalid YAML: while scanning an {}: did not find expected alphabetic or numeric character",
                if text.starts_with('&') {
                    "anchor"
                } else {
                    "alias"
                }
            ),
            Some(Span::new(at, at + 1)),
        );
        if bad > 0 && matches!(name.as_bytes()[bad], b':' | b'?' | b',' | b']' | b'}') {
            return Err(Failure::Repair {
                repair: Repair::NameEnd(at),
                err: refusal,
            });
        }
        Err(Failure::Load(refusal))
    }

    /// The directives before the document's `---`: a name of letters, digits, `-` and `_`;
    /// `%YAML 1.x`. libyaml refuses a directive it does not know and a version other than 1.1
    /// and 1.2, where PyYAML's own loader ignores the first and warns of the second.
    fn check_directives(&mut self, end: usize) -> Result<(), Failure> {
        let bytes = self.source.as_bytes();
        // libyaml's reader drops the byte-order mark at the start of the stream.
        let mut line = if self.source.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        while line < end {
            if bytes.get(line) == Some(&b'%') {
                let name_len = bytes[line + 1..]
                    .iter()
                    .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                    .count();
                let after = line + 1 + name_len;
                let refusal = |problem: &str, at: usize| {
                    LoadError::new(
                        LoadErrorKind::Syntax,
                        format!("invalid YAML: while scanning a directive: {problem}"),
                        Some(Span::new(at, at + 1)),
                    )
                };
                // PyYAML's own scanner wants a space after the name, libyaml any blank.
                let ends = after >= bytes.len()
                    || bytes[after] == b' '
                    || (bytes[after] == b'\t' && self.loader == Loader::LibYaml)
                    || crate::libyaml::break_len(bytes, after) > 0;
                if name_len == 0 || !ends {
                    return Err(Failure::Load(refusal(
                        "did not find expected alphabetic or numeric character",
                        after,
                    )));
                }
                match &self.source[line + 1..after] {
                    "YAML" => {
                        let rest = self.source[after..].trim_start_matches([' ', '\t']);
                        let major: String = rest.chars().take_while(char::is_ascii_digit).collect();
                        let minor: String = rest[major.len()..]
                            .strip_prefix('.')
                            .unwrap_or("")
                            .chars()
                            .take_while(char::is_ascii_digit)
                            .collect();
                        if major.parse::<u32>().ok() != Some(1) {
                            return Err(Failure::Load(refusal(
                                "found incompatible YAML document (version 1.* is required)",
                                line,
                            )));
                        }
                        if self.loader == Loader::LibYaml && !matches!(minor.as_str(), "1" | "2") {
                            return Err(Failure::LibYamlOnly(refusal(
                                "found incompatible YAML document",
                                line,
                            )));
                        }
                    }
                    "TAG" => check_tag_directive(bytes, after).map_err(Failure::Load)?,
                    _ if self.loader == Loader::LibYaml => {
                        return Err(Failure::LibYamlOnly(refusal(
                            "found unknown directive name",
                            line,
                        )));
                    }
                    // PyYAML's own scanner skips an unknown directive to the end of its line.
                    _ => {
                        let end = next_line(bytes, line).unwrap_or(bytes.len());
                        self.tabs_allowed.push((line, end));
                    }
                }
            }
            match next_line(bytes, line) {
                Some(next) => line = next,
                None => break,
            }
        }
        Ok(())
    }

    /// libyaml reads no document after a `...` that no document precedes: the stream's first
    /// document must start with content or `---`.
    fn check_document_end_first(&self, start: usize) -> Result<(), Failure> {
        let bytes = self.source.as_bytes();
        let mut line = 0;
        while line < start.min(bytes.len()) {
            let marker = bytes.get(line..line + 3) == Some(b"...");
            let ends = bytes
                .get(line + 3)
                .is_none_or(|b| matches!(b, b' ' | b'\t'))
                || crate::libyaml::break_len(bytes, line + 3) > 0;
            if marker && ends {
                return Err(Failure::Load(LoadError::new(
                    LoadErrorKind::Syntax,
                    "invalid YAML: while parsing a block node: did not find expected node content \
                     (a `...` before the first document)"
                        .to_owned(),
                    Some(Span::new(line, line + 3)),
                )));
            }
            match next_line(bytes, line) {
                Some(next) => line = next,
                None => break,
            }
        }
        Ok(())
    }

    /// Every event but a scalar.
    fn structure(
        &mut self,
        event: Event<'_>,
        span: Span,
        tag_span: Option<Span>,
        prev_end: usize,
    ) -> Result<(), LoadError> {
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
            Event::SequenceStart(style, _anchor, tag) => {
                let tag = tag_of(tag);
                check_collection_tag(tag.as_deref(), true, span)?;
                let kind = NodeKind::Sequence {
                    items: Vec::new(),
                    style: structure_style(style),
                };
                self.flow += usize::from(style == StructureStyle::Flow);
                let id = self.open(kind, tag, span);
                let dash = if style == StructureStyle::Block {
                    let under_mapping = matches!(self.frames.last(), Some(Frame::Mapping { .. }));
                    sequence_dash(self.source.as_bytes(), prev_end, span.start, under_mapping)
                } else {
                    None
                };
                self.frames.push(Frame::Sequence {
                    id,
                    start: self.items.len(),
                    dash,
                });
            }
            Event::MappingStart(style, _anchor, tag) => {
                let tag = tag_of(tag);
                check_collection_tag(tag.as_deref(), false, span)?;
                let kind = NodeKind::Mapping {
                    entries: Vec::new(),
                    style: structure_style(style),
                };
                self.flow += usize::from(style == StructureStyle::Flow);
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
    ) -> Result<(), Failure> {
        let mut text = text;
        let span = match style {
            ScalarStyle::Literal | ScalarStyle::Folded => {
                let (node_span, read) = self.block_scalar(span, prev_end)?;
                if let Some(value) = read.filter(|value| *value != *text) {
                    text = std::borrow::Cow::Owned(value);
                }
                node_span
            }
            ScalarStyle::Plain => {
                if self.repairs.is_dash(span.start) && text == DASH_PLACEHOLDER {
                    text = std::borrow::Cow::Borrowed("-");
                }
                self.plain_scalar(span)?;
                span
            }
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                check_document_indicator(self.source.as_bytes(), span)?;
                self.covered.push((span.start, span.end));
                self.tabs_allowed.push((span.start, span.end));
                span
            }
        };
        if self.loader == Loader::Pure {
            check_pure_timestamp(&text, style, tag.as_deref(), span)?;
        }
        // libyaml gives an empty node with the tag `!` no implicit resolution: a string.
        if span.is_empty() && tag.as_ref().is_some_and(|t| t.name == "!") {
            text = std::borrow::Cow::Borrowed("");
        }
        let value = match tag.as_ref().map(|t| t.name.as_str()) {
            Some("!") if span.is_empty() => Ok(ScalarValue::Str),
            None if style == ScalarStyle::Plain => construct_plain(&text),
            None => Ok(ScalarValue::Str),
            // libyaml resolves a scalar with the non-specific tag `!` as if it were plain,
            // even when quoted: `! '12'` loads as the integer 12.
            Some("!") => construct_plain(&text),
            Some(tag) => construct_tagged(tag, &text),
        }
        .map_err(|message| {
            Failure::Load(LoadError::new(
                LoadErrorKind::Construct,
                message,
                Some(span),
            ))
        })?;
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

    /// PyYAML's own scanner skips no tab between tokens (`scan_to_next_token`) and ends a plain
    /// scalar at one: a tab outside quoted and block scalars and comments is refused.
    fn check_tabs_pure(&mut self) -> Result<(), LoadError> {
        let bytes = self.source.as_bytes();
        let mut allowed = std::mem::take(&mut self.tabs_allowed);
        allowed.extend(
            self.doc
                .comments()
                .iter()
                .map(|c| (c.span.start, c.span.end)),
        );
        allowed.sort_unstable();
        for at in memchr::memchr_iter(b'\t', bytes) {
            let i = allowed.partition_point(|&(start, _)| start <= at);
            let inside = allowed[..i].iter().rev().take(64).any(|&(_, end)| at < end);
            if !inside {
                return Err(LoadError::new(
                    LoadErrorKind::Syntax,
                    "invalid YAML: found character '\\t' that cannot start any token".to_owned(),
                    Some(Span::new(at, at + 1)),
                ));
            }
        }
        Ok(())
    }

    /// `yaml_parser_scan_plain_scalar`: on a continuation line of a plain scalar, a tab before
    /// the column of the enclosing block collection plus one is refused.
    fn check_plain_tabs(&self, span: Span) -> Result<(), Failure> {
        let bytes = self.source.as_bytes();
        let Some(text) = bytes.get(span.range()) else {
            return Ok(());
        };
        if memchr::memchr(b'\t', text).is_none() {
            return Ok(());
        }
        let indent = self.block_indent() + 1;
        let mut at = span.start;
        while let Some(line) = next_line(bytes, at).filter(|&l| l < span.end) {
            // Every line start inside the scalar, blank lines too (they are folded).
            let spaces = bytes[line..].iter().take_while(|&&b| b == b' ').count();
            let i = line + spaces;
            let column = isize::try_from(spaces).unwrap_or(isize::MAX);
            if bytes.get(i) == Some(&b'\t') && column < indent {
                return Err(Failure::Load(LoadError::new(
                    LoadErrorKind::Syntax,
                    "invalid YAML: while scanning a plain scalar: found a tab character that \
                     violates indentation"
                        .to_owned(),
                    Some(Span::new(i, i + 1)),
                )));
            }
            at = line;
        }
        Ok(())
    }

    /// libyaml reads a mapping key without `?` as a simple key: on one line with its `:`, at
    /// most 1,024 characters long; and a block mapping's entry always has a key (`: x` alone
    /// is refused). YAML 1.2 reads more.
    fn check_keys(&self) -> Result<(), LoadError> {
        let bytes = self.source.as_bytes();
        for (_, node) in self.doc.ids() {
            let NodeKind::Mapping { entries, style } = &node.kind else {
                continue;
            };
            for entry in entries {
                let key = self.doc.node(entry.key);
                let mut start = key.span.start;
                for prop in [key.anchor, key.tag.as_ref().and_then(|t| t.span)]
                    .into_iter()
                    .flatten()
                {
                    if prop.start < start
                        && !bytes[prop.start..start]
                            .iter()
                            .any(|&b| matches!(b, b'\n' | b'\r'))
                    {
                        start = prop.start;
                    }
                }
                if explicit_key(bytes, start) {
                    continue;
                }
                let empty = key.span.is_empty()
                    && matches!(&key.kind, NodeKind::Scalar(s) if s.style == ScalarStyle::Plain);
                if empty && bytes.get(start) == Some(&b':') {
                    return Err(LoadError::new(
                        LoadErrorKind::Syntax,
                        if *style == Style::Block {
                            "invalid YAML: while parsing a block mapping: did not find expected key"
                        } else {
                            "invalid YAML: while parsing a flow node: did not find expected node content"
                        }
                        .to_owned(),
                        Some(Span::new(start, start + 1)),
                    ));
                }
                // The `:` after the key, past white space and line breaks.
                let mut colon = key.span.end.max(start);
                while colon < bytes.len()
                    && (matches!(bytes[colon], b' ' | b'\t')
                        || crate::libyaml::break_len(bytes, colon) > 0)
                {
                    colon += 1;
                }
                if bytes.get(colon) != Some(&b':') {
                    // A key without a value in a flow collection (`{a, b}`).
                    continue;
                }
                let text = &self.source[start..colon];
                let multi_line = (start..colon).any(|i| crate::libyaml::break_len(bytes, i) > 0);
                if multi_line || text.chars().count() > 1024 {
                    return Err(LoadError::new(
                        LoadErrorKind::Syntax,
                        "invalid YAML: while scanning a simple key: could not find expected ':' \
                         (a key without '?' is on one line with its ':', and at most 1024 \
                         characters long)"
                            .to_owned(),
                        Some(Span::new(start, start)),
                    ));
                }
            }
        }
        Ok(())
    }

    /// A block scalar read again with libyaml's rules (or the pure loader's): its node span
    /// and libyaml's value.
    fn block_scalar(
        &mut self,
        span: Span,
        prev_end: usize,
    ) -> Result<(Span, Option<String>), Failure> {
        let node_span = block_scalar_span(self.source, prev_end, span);
        if !matches!(
            self.source.as_bytes().get(node_span.start),
            Some(b'|' | b'>')
        ) {
            return Ok((node_span, None));
        }
        let read = crate::libyaml::block_scalar(
            self.source,
            node_span.start,
            self.block_indent(),
            self.loader == Loader::Pure,
        )
        .map_err(|refusal| {
            let err = LoadError::new(
                LoadErrorKind::Syntax,
                format!("invalid YAML: {}", refusal.message),
                Some(Span::new(refusal.offset, refusal.offset)),
            );
            if refusal.libyaml_only {
                Failure::LibYamlOnly(err)
            } else {
                Failure::Load(err)
            }
        })?;
        // To the start of the line where libyaml stopped: that line's indentation was
        // checked by the scan, the rest of it is checked as any line.
        let end = if read.end >= self.source.len() {
            read.end
        } else {
            line_start(self.source.as_bytes(), read.end).max(node_span.start)
        };
        self.covered.push((node_span.start, end));
        self.tabs_allowed.push((read.content, read.end));
        Ok((node_span, Some(read.value)))
    }

    /// A plain scalar's checks: what libyaml reads otherwise in a flow collection, tabs.
    fn plain_scalar(&mut self, span: Span) -> Result<(), Failure> {
        let bytes = self.source.as_bytes();
        // `yaml_parser_scan_plain_scalar` refuses "x:" before one of `,?[]{}` in a flow
        // collection (PyYAML's own scanner ends the scalar there, as the parser does).
        // The scanner goes on past blanks on the same line (`{b :}` is refused too).
        let colon = span.end
            + bytes
                .get(span.end..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&b| matches!(b, b' ' | b'\t'))
                .count();
        if self.flow > 0
            && self.loader == Loader::LibYaml
            && span.end > span.start
            && bytes.get(colon) == Some(&b':')
            && matches!(
                bytes.get(colon + 1),
                Some(b',' | b'?' | b'[' | b']' | b'{' | b'}')
            )
        {
            return Err(Failure::LibYamlOnly(LoadError::new(
                LoadErrorKind::Syntax,
                "invalid YAML: while scanning a plain scalar: found unexpected ':'".to_owned(),
                Some(Span::new(colon, colon + 1)),
            )));
        }
        // libyaml reads `?` and `:` in a flow collection as indicators, always.
        if self.flow > 0
            && span.end > span.start
            && matches!(bytes.get(span.start), Some(b'?' | b':'))
        {
            return Err(Failure::Repair {
                repair: Repair::FlowIndicator(span.start),
                err: LoadError::new(
                    LoadErrorKind::Syntax,
                    "invalid YAML: did not find expected node content".to_owned(),
                    Some(Span::new(span.start, span.start)),
                ),
            });
        }
        // PyYAML's own scanner ends a plain scalar at `?` in a flow collection, where it then
        // reads a key indicator that cannot follow a scalar.
        if self.flow > 0
            && self.loader == Loader::Pure
            && span.end > span.start + 1
            && bytes[span.start + 1..span.end].contains(&b'?')
        {
            return Err(Failure::Load(LoadError::new(
                LoadErrorKind::Syntax,
                "invalid YAML: while parsing a flow collection: found '?' inside a plain scalar"
                    .to_owned(),
                Some(span),
            )));
        }
        if span.is_empty() {
            // An empty node: no scalar was scanned.
            return Ok(());
        }
        // The scanner goes on through the white space and line breaks after the scalar,
        // looking for a continuation: those lines are the scalar's for tabs.
        let mut end = span.end;
        while end < bytes.len() {
            let len = crate::libyaml::break_len(bytes, end);
            if len > 0 {
                end += len;
            } else if matches!(bytes[end], b' ' | b'\t') {
                end += 1;
            } else {
                break;
            }
        }
        // Only a run with a line break is the scalar's (blanks before a token on the same
        // line are not looked at).
        if !(span.end..end).any(|i| crate::libyaml::break_len(bytes, i) > 0) {
            end = span.end;
        }
        let extended = Span::new(span.start, end);
        self.check_plain_tabs(extended)?;
        self.covered.push((span.start, end));
        Ok(())
    }

    /// libyaml's `parser->indent` where a scalar starts: the column of the innermost block
    /// collection, -1 at the top level.
    fn block_indent(&self) -> isize {
        let Some(frame) = self.frames.iter().rev().find(|frame| {
            let (Frame::Sequence { id, .. } | Frame::Mapping { id, .. }) = frame;
            !matches!(
                self.doc.node(*id).kind,
                NodeKind::Sequence {
                    style: Style::Flow,
                    ..
                } | NodeKind::Mapping {
                    style: Style::Flow,
                    ..
                }
            )
        }) else {
            return -1;
        };
        if let Frame::Sequence {
            dash: Some(dash), ..
        } = frame
        {
            return isize::try_from(column(self.source, *dash)).unwrap_or(isize::MAX);
        }
        let (Frame::Sequence { id, .. } | Frame::Mapping { id, .. }) = frame;
        let start = self.doc.node(*id).span.start;
        let mut at = start;
        // A block sequence may start, for the parser, at its first item: the `-` before it.
        if matches!(self.doc.node(*id).kind, NodeKind::Sequence { .. }) {
            let bytes = self.source.as_bytes();
            while at > 0 && matches!(bytes[at - 1], b' ' | b'\t') {
                at -= 1;
            }
            if at > 0 && bytes[at - 1] == b'-' {
                at -= 1;
            } else {
                at = start;
            }
        }
        isize::try_from(column(self.source, at)).unwrap_or(isize::MAX)
    }

    /// libyaml refuses a tab where it looks for a token and a simple key may start (see
    /// `libyaml::tab_at_token_start`): checked on every line outside scalars and flow
    /// collections.
    fn check_tabs(&mut self) -> Result<(), LoadError> {
        let bytes = self.source.as_bytes();
        if memchr::memchr(b'\t', bytes).is_none() {
            return Ok(());
        }
        if self.loader == Loader::Pure {
            return self.check_tabs_pure();
        }
        // The covered ranges, merged: disjoint and in order.
        self.covered.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(self.covered.len());
        for &(start, end) in &self.covered {
            match merged.last_mut() {
                Some(last) if start < last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        let mut covered = merged.iter().peekable();
        let mut line = 0;
        loop {
            while covered.peek().is_some_and(|&&(_, end)| end <= line) {
                covered.next();
            }
            // Where on this line the tokens start: its start, or where a range that covers
            // the line's start ends on this line (a plain scalar took its white space).
            let from = match covered.peek() {
                Some(&&(start, end)) if start < line && line < end => {
                    // Only after white space that a plain scalar took with a line break: there
                    // a simple key may start again.
                    let same_line = (line..end).all(|i| crate::libyaml::break_len(bytes, i) == 0);
                    let after_blank = end > 0 && matches!(bytes[end - 1], b' ' | b'\t');
                    (same_line && after_blank).then_some(end)
                }
                _ => Some(line),
            };
            let tab = from.and_then(|from| crate::libyaml::tab_at_token_start(bytes, line, from));
            if let Some(at) = tab {
                return Err(LoadError::new(
                    LoadErrorKind::Syntax,
                    "invalid YAML: found character '\\t' that cannot start any token".to_owned(),
                    Some(Span::new(at, at + 1)),
                ));
            }
            let Some(next) = next_line(bytes, line) else {
                return Ok(());
            };
            line = next;
        }
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
            Frame::Sequence { id, start, .. } => {
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
        self.flow -= usize::from(flow);
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
        if flow {
            self.covered.push((start, end.max(start)));
        }
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
