//! libyaml 0.2.5's parser (`parser.c`): tokens to events, state by state; and, in pure mode,
//! PyYAML 6.0.3's pure-Python parser (`parser.py`), which differs in its texts, in a few
//! marks, and in a flow sequence's single pair (`[?, :]`).

use std::borrow::Cow;

use super::scanner::{ErrorKind, Mark, ReadError, Scan, Scanner, Token, TokenKind};
use crate::document::ScalarStyle;

/// An anchor or a tag as written: its text and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property<'a> {
    /// The anchor's name; the tag resolved through the `%TAG` handles (`tag:yaml.org,2002:str`).
    pub text: Cow<'a, str>,
    pub start: usize,
    pub end: usize,
}

/// What an event is, with libyaml's data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind<'a> {
    StreamStart,
    StreamEnd,
    DocumentStart {
        implicit: bool,
    },
    DocumentEnd {
        implicit: bool,
    },
    Alias {
        anchor: &'a str,
    },
    Scalar {
        anchor: Option<Box<Property<'a>>>,
        tag: Option<Box<Property<'a>>>,
        value: Cow<'a, str>,
        style: ScalarStyle,
        /// libyaml's `plain_implicit`: plain without a tag, or tagged `!`.
        plain_implicit: bool,
        /// libyaml's `quoted_implicit`: not plain, without a tag.
        quoted_implicit: bool,
    },
    SequenceStart {
        anchor: Option<Box<Property<'a>>>,
        tag: Option<Box<Property<'a>>>,
        implicit: bool,
        flow: bool,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<Box<Property<'a>>>,
        tag: Option<Box<Property<'a>>>,
        implicit: bool,
        flow: bool,
    },
    MappingEnd,
}

/// An event and libyaml's marks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event<'a> {
    pub kind: EventKind<'a>,
    pub start: Mark,
    pub end: Mark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

/// Events from YAML text, as libyaml's `yaml_parser_parse` gives them; after an error, none.
#[derive(Debug)]
pub struct Parser<'a> {
    scanner: Scanner<'a>,
    state: State,
    states: Vec<State>,
    marks: Vec<Mark>,
    tag_directives: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    failed: bool,
    checked: bool,
    /// PyYAML's pure-Python rules (the scanner's flag, copied).
    pure: bool,
}

impl std::fmt::Debug for Scanner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scanner").finish_non_exhaustive()
    }
}

type Parse<T> = Scan<T>;

#[allow(
    clippy::unnecessary_box_returns,
    reason = "refusals travel boxed, so that results stay two words"
)]
#[cold]
fn parser_error(
    context: Option<(&'static str, Mark)>,
    problem: impl Into<Cow<'static, str>>,
    mark: Mark,
) -> Box<ReadError> {
    Box::new(ReadError {
        kind: ErrorKind::Parser,
        context: context.map(|c| c.0),
        context_mark: context.map(|c| c.1),
        problem: problem.into(),
        problem_mark: mark,
    })
}

/// The pure parser's name for a token in its messages (`tokens.py`'s `id`).
fn token_id(kind: &TokenKind<'_>) -> &'static str {
    match kind {
        TokenKind::StreamStart => "<stream start>",
        TokenKind::StreamEnd => "<stream end>",
        TokenKind::VersionDirective(..) | TokenKind::TagDirective(..) => "<directive>",
        TokenKind::DocumentStart => "<document start>",
        TokenKind::DocumentEnd => "<document end>",
        TokenKind::BlockSequenceStart => "<block sequence start>",
        TokenKind::BlockMappingStart => "<block mapping start>",
        TokenKind::BlockEnd => "<block end>",
        TokenKind::FlowSequenceStart => "[",
        TokenKind::FlowSequenceEnd => "]",
        TokenKind::FlowMappingStart => "{",
        TokenKind::FlowMappingEnd => "}",
        TokenKind::BlockEntry => "-",
        TokenKind::FlowEntry => ",",
        TokenKind::Key => "?",
        TokenKind::Value => ":",
        TokenKind::Alias(_) => "<alias>",
        TokenKind::Anchor(_) => "<anchor>",
        TokenKind::Tag(..) => "<tag>",
        TokenKind::Scalar(..) => "<scalar>",
    }
}

/// A problem of the pure parser's: libyaml's text, or the pure parser's `{pure}` followed by
/// the token found, as Python's `repr()` of its name.
#[cold]
#[inline(never)]
fn problem(
    pure: bool,
    libyaml: &'static str,
    text: &str,
    token: &TokenKind<'_>,
) -> Cow<'static, str> {
    if pure {
        Cow::Owned(format!("{text} '{}'", token_id(token)))
    } else {
        Cow::Borrowed(libyaml)
    }
}

impl<'a> Parser<'a> {
    /// A parser with libyaml's rules (Heat's `CSafeLoader`).
    pub fn new(source: &'a str) -> Self {
        Self::with_rules(source, false)
    }

    /// A parser with PyYAML's pure-Python rules (`scanner.py`, `parser.py`): Heat's second
    /// try, its `SafeLoader`, when libyaml refuses the text.
    pub fn pure(source: &'a str) -> Self {
        Self::with_rules(source, true)
    }

    fn with_rules(source: &'a str, pure: bool) -> Self {
        Self {
            scanner: Scanner::new(source, pure),
            state: State::StreamStart,
            states: Vec::with_capacity(16),
            marks: Vec::with_capacity(16),
            tag_directives: Vec::new(),
            failed: false,
            checked: false,
            pure,
        }
    }

    /// The comments skipped so far: the `#` to the end of its line, as byte ranges.
    pub fn comments(&self) -> &[(usize, usize)] {
        &self.scanner.comments
    }

    #[inline]
    fn peek(&mut self) -> Parse<&Token<'a>> {
        self.scanner.peek()
    }

    fn take(&mut self) -> Token<'a> {
        match self.scanner.next_token() {
            Some(token) => token,
            None => unreachable!("a token was peeked"),
        }
    }

    /// [`Self::take`] of an indicator, for its end.
    fn take_end(&mut self) -> Mark {
        match self.scanner.skip_token_end() {
            Some(end) => end,
            None => unreachable!("a token was peeked"),
        }
    }

    fn pop_state(&mut self) -> State {
        self.states.pop().unwrap_or(State::End)
    }

    fn pop_mark(&mut self) -> Mark {
        self.marks.pop().unwrap_or_default()
    }

    #[allow(
        clippy::inline_always,
        reason = "measured: outlined once next_event has two callers, it costs 1.3 instructions a byte"
    )]
    #[inline(always)]
    fn state_machine(&mut self) -> Parse<Event<'a>> {
        match self.state {
            State::StreamStart => self.parse_stream_start(),
            State::ImplicitDocumentStart => self.parse_document_start(true),
            State::DocumentStart => self.parse_document_start(false),
            State::DocumentContent => self.parse_document_content(),
            State::DocumentEnd => self.parse_document_end(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => self.parse_block_sequence_entry(true),
            State::BlockSequenceEntry => self.parse_block_sequence_entry(false),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => self.parse_block_mapping_key(true),
            State::BlockMappingKey => self.parse_block_mapping_key(false),
            State::BlockMappingValue => self.parse_block_mapping_value(),
            State::FlowSequenceFirstEntry => self.parse_flow_sequence_entry(true),
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.parse_flow_sequence_entry_mapping_key(),
            State::FlowSequenceEntryMappingValue => self.parse_flow_sequence_entry_mapping_value(),
            State::FlowSequenceEntryMappingEnd => self.parse_flow_sequence_entry_mapping_end(),
            State::FlowMappingFirstKey => self.parse_flow_mapping_key(true),
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => self.parse_flow_mapping_value(false),
            State::FlowMappingEmptyValue => self.parse_flow_mapping_value(true),
            State::End => unreachable!("no event is asked for after the stream's end"),
        }
    }

    fn event(kind: EventKind<'a>, start: Mark, end: Mark) -> Event<'a> {
        Event { kind, start, end }
    }

    fn parse_stream_start(&mut self) -> Parse<Event<'a>> {
        let token = self.peek()?;
        let mark = token.start;
        if !matches!(token.kind, TokenKind::StreamStart) {
            return Err(parser_error(
                None,
                "did not find expected <stream-start>",
                mark,
            ));
        }
        self.state = State::ImplicitDocumentStart;
        self.scanner.skip_token();
        Ok(Self::event(EventKind::StreamStart, mark, mark))
    }

    fn parse_document_start(&mut self, implicit: bool) -> Parse<Event<'a>> {
        if !implicit {
            while matches!(self.peek()?.kind, TokenKind::DocumentEnd) {
                self.scanner.skip_token();
            }
        }
        let token = self.peek()?;
        let is = |k: &TokenKind<'_>| {
            matches!(
                k,
                TokenKind::VersionDirective(..)
                    | TokenKind::TagDirective(..)
                    | TokenKind::DocumentStart
                    | TokenKind::StreamEnd
            )
        };
        if implicit && !is(&token.kind) {
            let mark = token.start;
            self.process_directives()?;
            self.states.push(State::DocumentEnd);
            self.state = State::BlockNode;
            return Ok(Self::event(
                EventKind::DocumentStart { implicit: true },
                mark,
                mark,
            ));
        }
        if !matches!(token.kind, TokenKind::StreamEnd) {
            let start = token.start;
            self.process_directives()?;
            let pure = self.pure;
            let token = self.peek()?;
            if !matches!(token.kind, TokenKind::DocumentStart) {
                return Err(parser_error(
                    None,
                    problem(
                        pure,
                        "did not find expected <document start>",
                        "expected '<document start>', but found",
                        &token.kind,
                    ),
                    token.start,
                ));
            }
            let end = token.end;
            self.states.push(State::DocumentEnd);
            self.state = State::DocumentContent;
            self.scanner.skip_token();
            return Ok(Self::event(
                EventKind::DocumentStart { implicit: false },
                start,
                end,
            ));
        }
        let (start, end) = (token.start, token.end);
        self.state = State::End;
        self.scanner.skip_token();
        Ok(Self::event(EventKind::StreamEnd, start, end))
    }

    fn parse_document_content(&mut self) -> Parse<Event<'a>> {
        let token = self.peek()?;
        if matches!(
            token.kind,
            TokenKind::VersionDirective(..)
                | TokenKind::TagDirective(..)
                | TokenKind::DocumentStart
                | TokenKind::DocumentEnd
                | TokenKind::StreamEnd
        ) {
            let mark = token.start;
            self.state = self.pop_state();
            return Ok(empty_scalar(mark));
        }
        self.parse_node(true, false)
    }

    fn parse_document_end(&mut self) -> Parse<Event<'a>> {
        let token = self.peek()?;
        let start = token.start;
        let mut end = start;
        let mut implicit = true;
        if matches!(token.kind, TokenKind::DocumentEnd) {
            end = token.end;
            self.scanner.skip_token();
            implicit = false;
        }
        self.tag_directives.clear();
        self.state = State::DocumentStart;
        Ok(Self::event(EventKind::DocumentEnd { implicit }, start, end))
    }

    #[inline]
    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Parse<Event<'a>> {
        let token = self.peek()?;
        if let TokenKind::Alias(name) = token.kind {
            let (start, end) = (token.start, token.end);
            self.state = self.pop_state();
            self.scanner.skip_token();
            return Ok(Self::event(EventKind::Alias { anchor: name }, start, end));
        }
        // The common case, a scalar without anchor or tag: as below, in short.
        if matches!(token.kind, TokenKind::Scalar(..)) {
            let (start, end) = (token.start, token.end);
            self.state = self.pop_state();
            let Some((value, style)) = self.scanner.take_scalar() else {
                unreachable!("peeked a scalar");
            };
            let plain_implicit = style == ScalarStyle::Plain;
            return Ok(Self::event(
                EventKind::Scalar {
                    anchor: None,
                    tag: None,
                    value,
                    style,
                    plain_implicit,
                    quoted_implicit: !plain_implicit,
                },
                start,
                end,
            ));
        }
        self.parse_node_rest(block, indentless_sequence)
    }

    /// [`Self::parse_node`] for a node that is not a lone scalar or an alias: anchors, tags,
    /// collections, the empty node and the refusal (apart, so that the common path stays
    /// small).
    #[allow(
        clippy::too_many_lines,
        reason = "libyaml's function, kept whole to be read beside it"
    )]
    #[inline(never)]
    fn parse_node_rest(&mut self, block: bool, indentless_sequence: bool) -> Parse<Event<'a>> {
        let pure = self.pure;
        let token = self.peek()?;
        let mut start = token.start;
        let mut end = token.start;
        let mut tag_mark = token.start;
        let mut anchor: Option<Box<Property<'a>>> = None;
        let mut tag_parts: Option<(Cow<'a, str>, Cow<'a, str>, usize, usize)> = None;
        let anchor_of = |token: Token<'a>| match token.kind {
            TokenKind::Anchor(name) => Some(Box::new(Property {
                text: Cow::Borrowed(name),
                start: token.start.offset,
                end: token.end.offset,
            })),
            _ => None,
        };
        let tag_of = |token: Token<'a>| match token.kind {
            TokenKind::Tag(handle, suffix) => {
                Some((handle, suffix, token.start.offset, token.end.offset))
            }
            _ => None,
        };
        if matches!(token.kind, TokenKind::Anchor(_)) {
            start = token.start;
            end = token.end;
            let token = self.take();
            anchor = anchor_of(token);
            let token = self.peek()?;
            if matches!(token.kind, TokenKind::Tag(..)) {
                tag_mark = token.start;
                end = token.end;
                let token = self.take();
                tag_parts = tag_of(token);
            }
        } else if matches!(token.kind, TokenKind::Tag(..)) {
            start = token.start;
            tag_mark = token.start;
            end = token.end;
            let token = self.take();
            tag_parts = tag_of(token);
            let token = self.peek()?;
            if matches!(token.kind, TokenKind::Anchor(_)) {
                end = token.end;
                let token = self.take();
                anchor = anchor_of(token);
            }
        }
        let mut tag: Option<Box<Property<'a>>> = None;
        if let Some((handle, suffix, tag_start, tag_end)) = tag_parts {
            let text = if handle.is_empty() {
                suffix
            } else {
                let Some((_, prefix)) = self.tag_directives.iter().find(|(h, _)| *h == handle)
                else {
                    let problem: Cow<'static, str> = if pure {
                        format!("found undefined tag handle '{handle}'").into()
                    } else {
                        "found undefined tag handle".into()
                    };
                    return Err(parser_error(
                        Some(("while parsing a node", start)),
                        problem,
                        tag_mark,
                    ));
                };
                if prefix == "!" {
                    // `!name`: the text as written, a slice when it is one.
                    match suffix {
                        Cow::Borrowed(s) if tag_start + 1 + s.len() == tag_end => {
                            Cow::Borrowed(&self.scanner_source()[tag_start..tag_end])
                        }
                        s => Cow::Owned(format!("!{s}")),
                    }
                } else {
                    Cow::Owned(format!("{prefix}{suffix}"))
                }
            };
            tag = Some(Box::new(Property {
                text,
                start: tag_start,
                end: tag_end,
            }));
        }
        // libyaml: no tag (or an empty one); the pure parser: no tag, or `!`.
        let implicit = tag
            .as_ref()
            .is_none_or(|t| t.text.is_empty() || (pure && t.text == "!"));
        let token = self.peek()?;
        if indentless_sequence && matches!(token.kind, TokenKind::BlockEntry) {
            end = token.end;
            self.state = State::IndentlessSequenceEntry;
            return Ok(Self::event(
                EventKind::SequenceStart {
                    anchor,
                    tag,
                    implicit,
                    flow: false,
                },
                start,
                end,
            ));
        }
        match token.kind {
            TokenKind::Scalar(..) => {
                end = token.end;
                self.state = self.pop_state();
                let token = self.take();
                let TokenKind::Scalar(value, style) = token.kind else {
                    unreachable!("peeked a scalar");
                };
                let tag_text = tag.as_ref().map(|t| &*t.text);
                let plain_implicit =
                    (style == ScalarStyle::Plain && tag.is_none()) || tag_text == Some("!");
                let quoted_implicit = !plain_implicit && tag.is_none();
                Ok(Self::event(
                    EventKind::Scalar {
                        anchor,
                        tag,
                        value,
                        style,
                        plain_implicit,
                        quoted_implicit,
                    },
                    start,
                    end,
                ))
            }
            TokenKind::FlowSequenceStart => {
                end = token.end;
                self.state = State::FlowSequenceFirstEntry;
                Ok(Self::event(
                    EventKind::SequenceStart {
                        anchor,
                        tag,
                        implicit,
                        flow: true,
                    },
                    start,
                    end,
                ))
            }
            TokenKind::FlowMappingStart => {
                end = token.end;
                self.state = State::FlowMappingFirstKey;
                Ok(Self::event(
                    EventKind::MappingStart {
                        anchor,
                        tag,
                        implicit,
                        flow: true,
                    },
                    start,
                    end,
                ))
            }
            TokenKind::BlockSequenceStart if block => {
                end = token.end;
                self.state = State::BlockSequenceFirstEntry;
                Ok(Self::event(
                    EventKind::SequenceStart {
                        anchor,
                        tag,
                        implicit,
                        flow: false,
                    },
                    start,
                    end,
                ))
            }
            TokenKind::BlockMappingStart if block => {
                end = token.end;
                self.state = State::BlockMappingFirstKey;
                Ok(Self::event(
                    EventKind::MappingStart {
                        anchor,
                        tag,
                        implicit,
                        flow: false,
                    },
                    start,
                    end,
                ))
            }
            _ if anchor.is_some() || tag.is_some() => {
                self.state = self.pop_state();
                Ok(Self::event(
                    EventKind::Scalar {
                        anchor,
                        tag,
                        value: Cow::Borrowed(""),
                        style: ScalarStyle::Plain,
                        plain_implicit: implicit,
                        quoted_implicit: false,
                    },
                    start,
                    end,
                ))
            }
            _ => Err(parser_error(
                Some((
                    if block {
                        "while parsing a block node"
                    } else {
                        "while parsing a flow node"
                    },
                    start,
                )),
                problem(
                    pure,
                    "did not find expected node content",
                    "expected the node content, but found",
                    &token.kind,
                ),
                token.start,
            )),
        }
    }

    /// Whether the parser follows PyYAML's pure-Python rules ([`Parser::pure`]).
    pub(crate) fn is_pure(&self) -> bool {
        self.pure
    }

    /// The start offsets of the scalars read so far that hold a lone surrogate escape (pure
    /// mode only), in the order they were read.
    pub(crate) fn lone_surrogates(&self) -> &[usize] {
        &self.scanner.lone_surrogates
    }

    fn scanner_source(&self) -> &'a str {
        self.scanner.source()
    }

    fn parse_block_sequence_entry(&mut self, first: bool) -> Parse<Event<'a>> {
        let pure = self.pure;
        if first {
            let mark = self.peek()?.start;
            self.marks.push(mark);
            self.scanner.skip_token();
        }
        let token = self.peek()?;
        if matches!(token.kind, TokenKind::BlockEntry) {
            let mark = token.end;
            self.scanner.skip_token();
            let token = self.peek()?;
            if !matches!(token.kind, TokenKind::BlockEntry | TokenKind::BlockEnd) {
                self.states.push(State::BlockSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = State::BlockSequenceEntry;
            return Ok(empty_scalar(mark));
        }
        if matches!(token.kind, TokenKind::BlockEnd) {
            let (start, end) = (token.start, token.end);
            self.state = self.pop_state();
            self.pop_mark();
            self.scanner.skip_token();
            return Ok(Self::event(EventKind::SequenceEnd, start, end));
        }
        let at = token.start;
        let problem = problem(
            pure,
            "did not find expected '-' indicator",
            "expected <block end>, but found",
            &token.kind,
        );
        let context = self.pop_mark();
        Err(parser_error(
            Some(("while parsing a block collection", context)),
            problem,
            at,
        ))
    }

    fn parse_indentless_sequence_entry(&mut self) -> Parse<Event<'a>> {
        let token = self.peek()?;
        if matches!(token.kind, TokenKind::BlockEntry) {
            let mark = token.end;
            self.scanner.skip_token();
            let token = self.peek()?;
            if !matches!(
                token.kind,
                TokenKind::BlockEntry | TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
            ) {
                self.states.push(State::IndentlessSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = State::IndentlessSequenceEntry;
            return Ok(empty_scalar(mark));
        }
        let mark = token.start;
        self.state = self.pop_state();
        Ok(Self::event(EventKind::SequenceEnd, mark, mark))
    }

    fn parse_block_mapping_key(&mut self, first: bool) -> Parse<Event<'a>> {
        let pure = self.pure;
        if first {
            let mark = self.peek()?.start;
            self.marks.push(mark);
            self.scanner.skip_token();
        }
        let token = self.peek()?;
        if matches!(token.kind, TokenKind::Key) {
            let mark = token.end;
            self.scanner.skip_token();
            let token = self.peek()?;
            if !matches!(
                token.kind,
                TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
            ) {
                self.states.push(State::BlockMappingValue);
                return self.parse_node(true, true);
            }
            self.state = State::BlockMappingValue;
            return Ok(empty_scalar(mark));
        }
        if matches!(token.kind, TokenKind::BlockEnd) {
            let (start, end) = (token.start, token.end);
            self.state = self.pop_state();
            self.pop_mark();
            self.scanner.skip_token();
            return Ok(Self::event(EventKind::MappingEnd, start, end));
        }
        let at = token.start;
        let problem = problem(
            pure,
            "did not find expected key",
            "expected <block end>, but found",
            &token.kind,
        );
        let context = self.pop_mark();
        Err(parser_error(
            Some(("while parsing a block mapping", context)),
            problem,
            at,
        ))
    }

    fn parse_block_mapping_value(&mut self) -> Parse<Event<'a>> {
        let token = self.peek()?;
        if matches!(token.kind, TokenKind::Value) {
            let mark = token.end;
            self.scanner.skip_token();
            let token = self.peek()?;
            if !matches!(
                token.kind,
                TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
            ) {
                self.states.push(State::BlockMappingKey);
                return self.parse_node(true, true);
            }
            self.state = State::BlockMappingKey;
            return Ok(empty_scalar(mark));
        }
        let mark = token.start;
        self.state = State::BlockMappingKey;
        Ok(empty_scalar(mark))
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> Parse<Event<'a>> {
        let pure = self.pure;
        if first {
            let mark = self.peek()?.start;
            self.marks.push(mark);
            self.scanner.skip_token();
        }
        let mut token = self.peek()?;
        if !matches!(token.kind, TokenKind::FlowSequenceEnd) {
            if !first {
                if matches!(token.kind, TokenKind::FlowEntry) {
                    self.scanner.skip_token();
                    token = self.peek()?;
                } else {
                    let at = token.start;
                    let problem = problem(
                        pure,
                        "did not find expected ',' or ']'",
                        "expected ',' or ']', but got",
                        &token.kind,
                    );
                    let context = self.pop_mark();
                    return Err(parser_error(
                        Some(("while parsing a flow sequence", context)),
                        problem,
                        at,
                    ));
                }
            }
            if matches!(token.kind, TokenKind::Key) {
                let (start, end) = (token.start, token.end);
                self.state = State::FlowSequenceEntryMappingKey;
                // The pure parser takes the `?` in the next state.
                if !pure {
                    self.scanner.skip_token();
                }
                return Ok(Self::event(
                    EventKind::MappingStart {
                        anchor: None,
                        tag: None,
                        implicit: true,
                        flow: true,
                    },
                    start,
                    end,
                ));
            }
            if !matches!(token.kind, TokenKind::FlowSequenceEnd) {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        let (start, end) = (token.start, token.end);
        self.state = self.pop_state();
        self.pop_mark();
        self.scanner.skip_token();
        Ok(Self::event(EventKind::SequenceEnd, start, end))
    }

    fn parse_flow_sequence_entry_mapping_key(&mut self) -> Parse<Event<'a>> {
        if self.pure {
            // `parse_flow_sequence_entry_mapping_key`: the `?`, then a node or an empty key
            // at its end (the token after it is left for the value).
            let mark = self.take_end();
            let token = self.peek()?;
            if !matches!(
                token.kind,
                TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
            ) {
                self.states.push(State::FlowSequenceEntryMappingValue);
                return self.parse_node(false, false);
            }
            self.state = State::FlowSequenceEntryMappingValue;
            return Ok(empty_scalar(mark));
        }
        let token = self.peek()?;
        if !matches!(
            token.kind,
            TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
        ) {
            self.states.push(State::FlowSequenceEntryMappingValue);
            return self.parse_node(false, false);
        }
        // libyaml 0.2.5 takes the token here, whichever it is (`[?, :]` reads as one pair).
        let mark = token.end;
        self.scanner.skip_token();
        self.state = State::FlowSequenceEntryMappingValue;
        Ok(empty_scalar(mark))
    }

    fn parse_flow_sequence_entry_mapping_value(&mut self) -> Parse<Event<'a>> {
        let mut token = self.peek()?;
        // The pure parser marks an empty value at the `:`'s end, libyaml at the next token.
        let mut value_end = None;
        if matches!(token.kind, TokenKind::Value) {
            let end = self.take_end();
            value_end = Some(end).filter(|_| self.pure);
            token = self.peek()?;
            if !matches!(
                token.kind,
                TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
            ) {
                self.states.push(State::FlowSequenceEntryMappingEnd);
                return self.parse_node(false, false);
            }
        }
        let mark = value_end.unwrap_or(token.start);
        self.state = State::FlowSequenceEntryMappingEnd;
        Ok(empty_scalar(mark))
    }

    fn parse_flow_sequence_entry_mapping_end(&mut self) -> Parse<Event<'a>> {
        let mark = self.peek()?.start;
        self.state = State::FlowSequenceEntry;
        Ok(Self::event(EventKind::MappingEnd, mark, mark))
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> Parse<Event<'a>> {
        let pure = self.pure;
        if first {
            let mark = self.peek()?.start;
            self.marks.push(mark);
            self.scanner.skip_token();
        }
        let mut token = self.peek()?;
        if !matches!(token.kind, TokenKind::FlowMappingEnd) {
            if !first {
                if matches!(token.kind, TokenKind::FlowEntry) {
                    self.scanner.skip_token();
                    token = self.peek()?;
                } else {
                    let at = token.start;
                    let problem = problem(
                        pure,
                        "did not find expected ',' or '}'",
                        "expected ',' or '}', but got",
                        &token.kind,
                    );
                    let context = self.pop_mark();
                    return Err(parser_error(
                        Some(("while parsing a flow mapping", context)),
                        problem,
                        at,
                    ));
                }
            }
            if matches!(token.kind, TokenKind::Key) {
                let key_end = self.take_end();
                let token = self.peek()?;
                if !matches!(
                    token.kind,
                    TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowMappingEnd
                ) {
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                // The pure parser marks an empty key at the `?`'s end.
                let mark = if pure { key_end } else { token.start };
                self.state = State::FlowMappingValue;
                return Ok(empty_scalar(mark));
            }
            if !matches!(token.kind, TokenKind::FlowMappingEnd) {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        let (start, end) = (token.start, token.end);
        self.state = self.pop_state();
        self.pop_mark();
        self.scanner.skip_token();
        Ok(Self::event(EventKind::MappingEnd, start, end))
    }

    fn parse_flow_mapping_value(&mut self, empty: bool) -> Parse<Event<'a>> {
        let mut token = self.peek()?;
        if empty {
            let mark = token.start;
            self.state = State::FlowMappingKey;
            return Ok(empty_scalar(mark));
        }
        let mut value_end = None;
        if matches!(token.kind, TokenKind::Value) {
            let end = self.take_end();
            value_end = Some(end).filter(|_| self.pure);
            token = self.peek()?;
            if !matches!(token.kind, TokenKind::FlowEntry | TokenKind::FlowMappingEnd) {
                self.states.push(State::FlowMappingKey);
                return self.parse_node(false, false);
            }
        }
        let mark = value_end.unwrap_or(token.start);
        self.state = State::FlowMappingKey;
        Ok(empty_scalar(mark))
    }

    /// `yaml_parser_process_directives`: the `%YAML` and `%TAG` directives before a document,
    /// then the default handles.
    fn process_directives(&mut self) -> Parse<()> {
        let pure = self.pure;
        let mut version_seen = false;
        loop {
            let token = self.peek()?;
            match &token.kind {
                TokenKind::VersionDirective(major, minor) => {
                    let mark = token.start;
                    if version_seen {
                        return Err(parser_error(
                            None,
                            if pure {
                                "found duplicate YAML directive"
                            } else {
                                "found duplicate %YAML directive"
                            },
                            mark,
                        ));
                    }
                    // The pure parser wants a major version of 1 only.
                    if pure && *major != 1 {
                        return Err(parser_error(
                            None,
                            "found incompatible YAML document (version 1.* is required)",
                            mark,
                        ));
                    }
                    if !pure && (*major != 1 || (*minor != 1 && *minor != 2)) {
                        return Err(parser_error(None, "found incompatible YAML document", mark));
                    }
                    version_seen = true;
                }
                TokenKind::TagDirective(..) => {
                    let token = self.take();
                    if let TokenKind::TagDirective(handle, prefix) = token.kind {
                        if handle.is_empty() {
                            // A directive the pure scanner skips (`OTHER_DIRECTIVE`).
                            continue;
                        }
                        if self.tag_directives.iter().any(|(h, _)| *h == handle) {
                            let problem: Cow<'static, str> = if pure {
                                format!("duplicate tag handle '{handle}'").into()
                            } else {
                                "found duplicate %TAG directive".into()
                            };
                            return Err(parser_error(None, problem, token.start));
                        }
                        self.tag_directives.push((handle, prefix));
                    }
                    continue;
                }
                _ => break,
            }
            self.scanner.skip_token();
        }
        for (handle, prefix) in [("!", "!"), ("!!", "tag:yaml.org,2002:")] {
            if !self.tag_directives.iter().any(|(h, _)| h == handle) {
                self.tag_directives
                    .push((Cow::Borrowed(handle), Cow::Borrowed(prefix)));
            }
        }
        Ok(())
    }
}

fn empty_scalar<'a>(mark: Mark) -> Event<'a> {
    Event {
        kind: EventKind::Scalar {
            anchor: None,
            tag: None,
            value: Cow::Borrowed(""),
            style: ScalarStyle::Plain,
            plain_implicit: true,
            quoted_implicit: false,
        },
        start: mark,
        end: mark,
    }
}

impl<'a> Parser<'a> {
    /// [`Iterator::next`] with the refusal boxed, as the parser holds it: the tree builder
    /// takes events this way, without moving a refusal's room with every event.
    #[inline]
    pub(crate) fn next_event(&mut self) -> Option<Parse<Event<'a>>> {
        // The stream's end is taken in one place only, which leaves `State::End`.
        if self.failed || self.state == State::End {
            return None;
        }
        if !self.checked {
            self.checked = true;
            if let Err(err) = super::check_printable(self.scanner.source(), self.pure) {
                self.failed = true;
                return Some(Err(Box::new(err)));
            }
        }
        let event = self.state_machine();
        if event.is_err() {
            self.failed = true;
        }
        Some(event)
    }
}

impl<'a> Iterator for Parser<'a> {
    type Item = Result<Event<'a>, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        // `next_event`, with the event moved once (straight into the item).
        if self.failed || self.state == State::End {
            return None;
        }
        if !self.checked {
            self.checked = true;
            if let Err(err) = super::check_printable(self.scanner.source(), self.pure) {
                self.failed = true;
                return Some(Err(err));
            }
        }
        match self.state_machine() {
            Ok(event) => Some(Ok(event)),
            Err(err) => {
                self.failed = true;
                Some(Err(*err))
            }
        }
    }
}
