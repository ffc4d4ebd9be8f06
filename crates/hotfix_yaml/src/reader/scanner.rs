//! libyaml 0.2.5's scanner (`scanner.c`), token by token, on byte offsets; and, as a mode of
//! the same code, PyYAML 6.0.3's pure-Python scanner (`scanner.py`), which Heat reads a text
//! with when libyaml refuses it.
//!
//! Each function below is named after the C function it follows and keeps its order of checks,
//! so that the two can be read side by side. Differences of representation only: marks are
//! byte offsets with libyaml's line and column (characters); a scalar's value is borrowed from
//! the text while it is one contiguous slice of it, and copied only once it needs cooking
//! (folding, escapes, a block scalar's indentation).

use std::borrow::Cow;
use std::collections::VecDeque;

use super::swar;
use crate::document::ScalarStyle;

/// A position: byte offset, and libyaml's line and column (in characters; a CR LF is one line
/// break).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

/// Which stage of libyaml refused the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The reader: a character YAML does not allow (`control characters are not allowed`).
    Reader,
    Scanner,
    Parser,
}

/// A refusal as libyaml (or PyYAML's pure-Python loader) reports it: the context (`while
/// scanning a simple key`) and where it started, the problem (`could not find expected ':'`)
/// and where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub kind: ErrorKind,
    pub context: Option<&'static str>,
    /// Where the context started; `None` without a context, and for the pure loader's
    /// `while scanning for the next token`, which has no mark.
    pub context_mark: Option<Mark>,
    /// The problem: libyaml's fixed text, or the pure loader's, which quotes what it found
    /// (`found character '\t' that cannot start any token`).
    pub problem: Cow<'static, str>,
    pub problem_mark: Mark,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.context {
            Some(context) => write!(f, "{context}: {}", self.problem),
            None => f.write_str(&self.problem),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind<'a> {
    StreamStart,
    StreamEnd,
    VersionDirective(u32, u32),
    TagDirective(Cow<'a, str>, Cow<'a, str>),
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(&'a str),
    Anchor(&'a str),
    /// Handle and suffix, as libyaml's tag token holds them.
    Tag(Cow<'a, str>, Cow<'a, str>),
    Scalar(Cow<'a, str>, ScalarStyle),
}

/// A directive other than `%YAML` and `%TAG`, which the pure scanner skips (libyaml refuses
/// it): a `%TAG` token with an empty handle, which no `%TAG` has (a variant of its own makes
/// every token's drop dearer on the common path).
pub(crate) const OTHER_DIRECTIVE: TokenKind<'static> =
    TokenKind::TagDirective(Cow::Borrowed(""), Cow::Borrowed(""));

#[derive(Clone, Debug)]
pub(crate) struct Token<'a> {
    pub(crate) kind: TokenKind<'a>,
    pub(crate) start: Mark,
    pub(crate) end: Mark,
}

#[derive(Clone, Copy, Debug, Default)]
struct SimpleKey {
    possible: bool,
    required: bool,
    token_number: usize,
    mark: Mark,
}

/// A scalar's value being built: a slice of the text while it is one, a copy once it is not.
#[derive(Debug, Default)]
enum Buf {
    #[default]
    Empty,
    Slice(usize, usize),
    Owned(String),
}

impl Buf {
    #[inline]
    fn push_slice(&mut self, src: &str, start: usize, end: usize) {
        match self {
            Buf::Slice(_, e) if *e == start => *e = end,
            Buf::Empty if start != end => *self = Buf::Slice(start, end),
            _ => self.push_slice_cold(src, start, end),
        }
    }

    #[cold]
    fn push_slice_cold(&mut self, src: &str, start: usize, end: usize) {
        if start != end {
            self.owned(src).push_str(&src[start..end]);
        }
    }

    fn push_str(&mut self, src: &str, text: &str) {
        if text.is_empty() {
            return;
        }
        self.owned(src).push_str(text);
    }

    fn push_char(&mut self, src: &str, c: char) {
        self.owned(src).push(c);
    }

    fn owned(&mut self, src: &str) -> &mut String {
        match self {
            Buf::Empty => *self = Buf::Owned(String::new()),
            Buf::Slice(s, e) => {
                let mut owned = String::with_capacity((*e - *s) * 2 + 16);
                owned.push_str(&src[*s..*e]);
                *self = Buf::Owned(owned);
            }
            Buf::Owned(_) => {}
        }
        match self {
            Buf::Owned(owned) => owned,
            _ => unreachable!("made owned above"),
        }
    }

    fn into_cow(self, src: &str) -> Cow<'_, str> {
        match self {
            Buf::Empty => Cow::Borrowed(""),
            Buf::Slice(s, e) => Cow::Borrowed(&src[s..e]),
            Buf::Owned(owned) => Cow::Owned(owned),
        }
    }
}

/// What a line break reads as in a scalar (`READ_LINE`): CR LF, CR, LF and NEL as `\n`, LS and
/// PS as themselves.
const LF: &str = "\n";
const LS: &str = "\u{2028}";
const PS: &str = "\u{2029}";

/// Bytes that end the fast run of a plain scalar's characters: blanks, breaks, `:`, every byte
/// of a multi-byte character, and (in a flow collection) the flow indicators.
const fn plain_stops(flow: bool) -> [bool; 256] {
    let mut table = [false; 256];
    table[b' ' as usize] = true;
    table[b'\t' as usize] = true;
    table[b'\r' as usize] = true;
    table[b'\n' as usize] = true;
    table[b':' as usize] = true;
    // Any other byte of a multi-byte character too: a run is ASCII, its columns its bytes.
    let mut b = 0x80;
    while b < 256 {
        table[b] = true;
        b += 1;
    }
    if flow {
        table[b',' as usize] = true;
        table[b'[' as usize] = true;
        table[b']' as usize] = true;
        table[b'{' as usize] = true;
        table[b'}' as usize] = true;
    }
    table
}

static PLAIN_BLOCK_STOPS: [bool; 256] = plain_stops(false);

/// A word test that flags every byte of [`PLAIN_BLOCK_STOPS`] (and the other control bytes).
#[inline]
fn plain_block_hits(x: u64) -> u64 {
    swar::below(x, 0x21) | swar::eq(x, b':') | (x & swar::HIGHS)
}

/// A word test that flags every byte of [`PLAIN_FLOW_STOPS`] and [`PLAIN_FLOW_STOPS_PURE`]:
/// those of a block scalar, `,`, `?`, and `[]{}` (`[` and `{`, `]` and `}` differ in one bit).
#[inline]
fn plain_flow_hits(x: u64) -> u64 {
    let folded = x | (swar::ONES * 0x20);
    plain_block_hits(x)
        | swar::eq(x, b',')
        | swar::eq(x, b'?')
        | swar::eq(folded, b'{')
        | swar::eq(folded, b'}')
}
static PLAIN_FLOW_STOPS: [bool; 256] = plain_stops(true);
/// The pure scanner's: `?` ends a plain scalar in a flow collection too.
static PLAIN_FLOW_STOPS_PURE: [bool; 256] = {
    let mut table = plain_stops(true);
    table[b'?' as usize] = true;
    table
};

/// Bytes that end [`Scanner::quoted_short`]'s run: the controls (tabs and line breaks among
/// them), DEL, every byte of a multi-byte character, and the quote (and in double quotes the
/// backslash).
const fn quoted_stops(single: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b < 0x20 || b >= 0x7F;
        b += 1;
    }
    if single {
        table[b'\'' as usize] = true;
    } else {
        table[b'"' as usize] = true;
        table[b'\\' as usize] = true;
    }
    table
}
static QUOTED_SINGLE_STOPS: [bool; 256] = quoted_stops(true);
static QUOTED_DOUBLE_STOPS: [bool; 256] = quoted_stops(false);

/// A word test flagging the bytes of both tables but the quotes and the backslash.
#[inline]
fn quoted_hits(x: u64) -> u64 {
    swar::below(x, 0x20) | ((x.wrapping_add(swar::ONES) | x) & swar::HIGHS)
}

/// Pure mode, a simple key on the line of `now`: more than 1,024 characters before it,
/// counting the byte-order marks, which take no column.
fn stale_with_boms(src: &[u8], key: Mark, now: Mark) -> bool {
    let between = src.get(key.offset..now.offset).unwrap_or_default();
    let boms = between.windows(3).filter(|w| *w == b"\xEF\xBB\xBF").count();
    key.column + 1024 < now.column + boms
}

/// Characters counted in a byte slice (lead bytes only).
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b.cast_signed() >= -0x40).count()
}

#[allow(
    clippy::struct_excessive_bools,
    reason = "libyaml's own flags, one for one"
)]
pub(crate) struct Scanner<'a> {
    src: &'a str,
    b: &'a [u8],
    mark: Mark,
    pub(crate) tokens: VecDeque<Token<'a>>,
    tokens_parsed: usize,
    token_available: bool,
    stream_start_produced: bool,
    indent: isize,
    indents: Vec<isize>,
    simple_key_allowed: bool,
    simple_keys: Vec<SimpleKey>,
    flow_level: usize,
    error: Option<Box<ReadError>>,
    /// Comments skipped between tokens: the `#` to the end of its line.
    pub(crate) comments: Vec<(usize, usize)>,
    /// Reused by every scalar: the line breaks after the first of a run.
    trailing_breaks: String,
    /// PyYAML's pure-Python rules (`scanner.py`) instead of libyaml's.
    pub(crate) pure: bool,
    /// Scalars (by their token's start offset) holding a lone surrogate escape, which PyYAML
    /// reads into its Python string and a Rust string cannot hold: each lone surrogate is the
    /// character [`crate::surrogate_char`] gives it, and the tree marks the scalar.
    pub(crate) lone_surrogates: Vec<usize>,
    /// Byte-order marks skipped so far in pure mode, where they take no column but count in a
    /// simple key's 1,024 characters.
    boms: usize,
}

/// Refusals are rare: boxed, a result stays two words.
pub(crate) type Scan<T> = Result<T, Box<ReadError>>;

impl<'a> Scanner<'a> {
    pub(crate) fn new(src: &'a str, pure: bool) -> Self {
        // PyYAML hands libyaml the text without the byte-order mark at its start: offsets
        // continue to count it, columns do not. The pure scanner skips it as its first token
        // search (`scan_to_next_token`), the stream's start before it.
        let start = if src.starts_with('\u{feff}') && !pure {
            3
        } else {
            0
        };
        Self {
            src,
            b: src.as_bytes(),
            mark: Mark {
                offset: start,
                line: 0,
                column: 0,
            },
            tokens: VecDeque::with_capacity(16),
            tokens_parsed: 0,
            token_available: false,
            stream_start_produced: false,
            indent: -1,
            indents: Vec::new(),
            simple_key_allowed: false,
            simple_keys: Vec::new(),
            flow_level: 0,
            error: None,
            comments: Vec::new(),
            trailing_breaks: String::new(),
            pure,
            lone_surrogates: Vec::new(),
            boms: 0,
        }
    }

    // ---- characters ---------------------------------------------------------------------

    #[inline]
    fn at(&self, k: usize) -> u8 {
        self.b.get(self.mark.offset + k).copied().unwrap_or(0)
    }

    #[inline]
    fn check(&self, c: u8) -> bool {
        self.at(0) == c
    }

    #[inline]
    fn is_z(&self) -> bool {
        self.mark.offset >= self.b.len()
    }

    /// The offset `k` bytes ahead is a line break.
    #[inline]
    fn is_break_at(&self, k: usize) -> bool {
        match self.at(k) {
            b'\r' | b'\n' => true,
            0xC2 => self.at(k + 1) == 0x85,
            0xE2 => self.at(k + 1) == 0x80 && matches!(self.at(k + 2), 0xA8 | 0xA9),
            _ => false,
        }
    }

    #[inline]
    fn is_break(&self) -> bool {
        self.is_break_at(0)
    }

    #[inline]
    fn is_blank_at(&self, k: usize) -> bool {
        matches!(self.at(k), b' ' | b'\t')
    }

    #[inline]
    fn is_blank(&self) -> bool {
        self.is_blank_at(0)
    }

    #[inline]
    fn is_breakz_at(&self, k: usize) -> bool {
        self.mark.offset + k >= self.b.len() || self.is_break_at(k)
    }

    #[inline]
    fn is_breakz(&self) -> bool {
        self.is_breakz_at(0)
    }

    #[inline]
    fn is_blankz_at(&self, k: usize) -> bool {
        self.is_blank_at(k) || self.is_breakz_at(k)
    }

    #[inline]
    fn is_blankz(&self) -> bool {
        self.is_blankz_at(0)
    }

    /// The byte width of the character `k` bytes ahead (a lead byte).
    #[inline]
    fn width_at(&self, k: usize) -> usize {
        let c = self.at(k);
        if c < 0x80 {
            1
        } else if c & 0xE0 == 0xC0 {
            2
        } else if c & 0xF0 == 0xE0 {
            3
        } else {
            4
        }
    }

    /// How many spaces from here.
    #[inline]
    fn spaces(&self) -> usize {
        swar::blanks(self.b, self.mark.offset, false)
    }

    #[inline]
    fn skip(&mut self) {
        let width = self.width_at(0);
        if width == 3 && self.pure {
            self.skip_wide();
            return;
        }
        self.mark.offset += width;
        self.mark.column += 1;
    }

    /// [`Self::skip`] of a multi-byte character: a byte-order mark takes no column in pure mode
    /// (`reader.py`'s `forward`).
    #[cold]
    #[inline(never)]
    fn skip_wide(&mut self) {
        if self.pure && self.is_bom_at(0) {
            self.mark.offset += 3;
            self.boms += 1;
            return;
        }
        self.mark.offset += self.width_at(0);
        self.mark.column += 1;
    }

    #[inline]
    fn is_bom_at(&self, k: usize) -> bool {
        self.at(k) == 0xEF && self.at(k + 1) == 0xBB && self.at(k + 2) == 0xBF
    }

    /// Columns taken by a run of whole characters: one each, but none for a byte-order mark
    /// in pure mode.
    fn columns_in(&self, bytes: &[u8]) -> usize {
        let chars = chars_in(bytes);
        if self.pure {
            chars - bytes.windows(3).filter(|w| *w == b"\xEF\xBB\xBF").count()
        } else {
            chars
        }
    }

    /// The character `k` bytes ahead as Python's `repr()` writes it (`'\x00'` at the end of
    /// the text, where the pure reader has its terminating NUL).
    fn repr_at(&self, k: usize) -> String {
        let c = self
            .src
            .get(self.mark.offset + k..)
            .and_then(|rest| rest.chars().next())
            .unwrap_or('\0');
        python_char_repr(c)
    }

    #[inline]
    fn skip_line(&mut self) {
        if self.check(b'\r') && self.at(1) == b'\n' {
            self.mark.offset += 2;
        } else if self.is_break() {
            self.mark.offset += self.width_at(0);
        } else {
            return;
        }
        self.mark.column = 0;
        self.mark.line += 1;
    }

    /// `READ_LINE`: consumes a line break and says what it reads as.
    fn read_line(&mut self) -> &'static str {
        let text = match (self.at(0), self.at(2)) {
            (0xE2, 0xA8) => LS,
            (0xE2, 0xA9) => PS,
            _ => LF,
        };
        self.skip_line();
        text
    }

    fn is_document_indicator(&self) -> bool {
        self.mark.column == 0
            && ((self.at(0) == b'-' && self.at(1) == b'-' && self.at(2) == b'-')
                || (self.at(0) == b'.' && self.at(1) == b'.' && self.at(2) == b'.'))
            && self.is_blankz_at(3)
    }

    #[allow(
        clippy::unnecessary_box_returns,
        reason = "refusals travel boxed, so that results stay two words"
    )]
    fn error(
        &mut self,
        context: Option<&'static str>,
        context_mark: Mark,
        problem: impl Into<Cow<'static, str>>,
    ) -> Box<ReadError> {
        let mark = self.mark;
        self.error_at(context, context.map(|_| context_mark), problem, mark)
    }

    #[allow(
        clippy::unnecessary_box_returns,
        reason = "refusals travel boxed, so that results stay two words"
    )]
    #[cold]
    fn error_at(
        &mut self,
        context: Option<&'static str>,
        context_mark: Option<Mark>,
        problem: impl Into<Cow<'static, str>>,
        problem_mark: Mark,
    ) -> Box<ReadError> {
        let err = Box::new(ReadError {
            kind: ErrorKind::Scanner,
            context,
            context_mark,
            problem: problem.into(),
            problem_mark,
        });
        self.error = Some(err.clone());
        err
    }

    // ---- the token queue ----------------------------------------------------------------

    /// `PEEK_TOKEN`: the next token, scanned as far as libyaml scans before it hands it out.
    #[inline]
    pub(crate) fn peek(&mut self) -> Scan<&Token<'a>> {
        if !self.token_available {
            // Since `fetch_more_tokens` last returned, tokens were only taken: the simple keys
            // are as it left them, made stale at this very mark (so that its stale check
            // would change nothing). It would fetch more only for a key at the new head.
            if self.tokens.is_empty() || self.error.is_some() || self.key_at_head() {
                self.fetch_more_tokens()?;
            } else {
                self.token_available = true;
            }
        }
        match self.tokens.front() {
            Some(token) => Ok(token),
            None => unreachable!("fetch_more_tokens leaves a token"),
        }
    }

    /// `SKIP_TOKEN`: takes the token [`Self::peek`] returned.
    #[inline]
    pub(crate) fn next_token(&mut self) -> Option<Token<'a>> {
        self.token_available = false;
        self.tokens_parsed += 1;
        self.tokens.pop_front()
    }

    /// [`Self::next_token`] of a scalar the parser has peeked: its value and style, moved out
    /// of the token where it lies (the rest of the token is not moved).
    #[inline]
    pub(crate) fn take_scalar(&mut self) -> Option<(Cow<'a, str>, ScalarStyle)> {
        let token = self.tokens.front_mut()?;
        let TokenKind::Scalar(value, style) = &mut token.kind else {
            return None;
        };
        let scalar = (std::mem::replace(value, Cow::Borrowed("")), *style);
        // What is left owns nothing.
        self.skip_token();
        Some(scalar)
    }

    /// [`Self::next_token`] of a token that holds nothing to free ([`Self::skip_token`]): its
    /// end.
    #[inline]
    pub(crate) fn skip_token_end(&mut self) -> Option<Mark> {
        let end = self.tokens.front()?.end;
        self.skip_token();
        Some(end)
    }

    /// [`Self::next_token`] for a token the parser has seen all it needs of, and that holds
    /// nothing to free (an indicator, an alias, a version directive, a scalar whose value
    /// [`Self::take_scalar`] took: never a tag or `%TAG`): it is forgotten where it lies rather
    /// than moved out to be dropped.
    #[inline]
    pub(crate) fn skip_token(&mut self) {
        self.token_available = false;
        self.tokens_parsed += 1;
        if let Some(token) = self.tokens.pop_front() {
            debug_assert!(
                !matches!(
                    token.kind,
                    TokenKind::Scalar(Cow::Owned(_), _)
                        | TokenKind::Tag(..)
                        | TokenKind::TagDirective(..)
                ),
                "skip_token of a token that owns text: {:?}",
                token.kind
            );
            std::mem::forget(token);
        }
    }

    pub(crate) fn source(&self) -> &'a str {
        self.src
    }

    #[inline(never)]
    fn fetch_more_tokens(&mut self) -> Scan<()> {
        if let Some(err) = &self.error {
            return Err(err.clone());
        }
        while self.tokens.is_empty() {
            self.fetch_next_token()?;
        }
        while self.head_awaits_key()? {
            if self.at_value_indicator() {
                self.fetch_value()?;
            } else {
                self.fetch_next_token()?;
            }
        }
        self.token_available = true;
        Ok(())
    }

    /// The scanner stands right on a `:` that [`Self::fetch_next_token`] would read as a value
    /// indicator, having done nothing before it: no stream start to produce, nothing to skip
    /// (a `:` is neither blank, break, `#` nor a byte-order mark), the simple keys already
    /// made stale here by [`Self::head_awaits_key`], no indentation to unroll, and none of the
    /// checks before `fetch_value`'s matches a `:`. The common case after a simple key
    /// (`key: value`), read without the general dispatch.
    #[inline]
    fn at_value_indicator(&self) -> bool {
        self.stream_start_produced
            && self.check(b':')
            && (self.flow_level > 0
                || (self.is_blankz_at(1) && self.indent <= self.mark.column.cast_signed()))
    }

    /// A simple key still possible is the queue's head.
    #[inline]
    fn key_at_head(&self) -> bool {
        let head = self.tokens_parsed;
        self.simple_keys
            .iter()
            .any(|key| key.possible && key.token_number == head)
    }

    /// libyaml's test for more tokens once the queue holds one: the stale simple keys dropped
    /// (`yaml_parser_stale_simple_keys`), then whether a key still possible is the queue's
    /// head, which the `:` after it would turn into a key. One pass over the keys for both.
    #[inline]
    fn head_awaits_key(&mut self) -> Scan<bool> {
        if self.boms > 0 {
            self.stale_simple_keys_boms()?;
            return Ok(self.key_at_head());
        }
        let mark = self.mark;
        let head = self.tokens_parsed;
        let mut awaits = false;
        let mut required = None;
        for key in &mut self.simple_keys {
            if !key.possible {
                continue;
            }
            // Same line: libyaml's index difference is the column difference.
            if key.mark.line < mark.line || key.mark.column + 1024 < mark.column {
                if key.required {
                    required = Some(key.mark);
                    break;
                }
                key.possible = false;
            } else if key.token_number == head {
                awaits = true;
            }
        }
        match required {
            None => Ok(awaits),
            Some(at) => Err(self.error(
                Some("while scanning a simple key"),
                at,
                "could not find expected ':'",
            )),
        }
    }

    /// Puts a token `at` places into the queue (at its front, mostly: the simple key's).
    #[inline]
    fn insert(&mut self, at: usize, token: Token<'a>) {
        if at == 0 {
            self.tokens.push_front(token);
        } else {
            self.tokens.insert(at, token);
        }
    }

    #[inline]
    fn push(&mut self, kind: TokenKind<'a>, start: Mark, end: Mark) {
        self.tokens.push_back(Token { kind, start, end });
    }

    fn fetch_next_token(&mut self) -> Scan<()> {
        if !self.stream_start_produced {
            self.fetch_stream_start();
            return Ok(());
        }
        self.scan_to_next_token();
        self.stale_simple_keys()?;
        self.unroll_indent(self.mark.column.cast_signed());
        if self.is_z() {
            return self.fetch_stream_end();
        }
        let c = self.at(0);
        // A letter or a digit starts no indicator, directive or document marker, and is not
        // blank: only a plain scalar, as the checks below find last.
        if c.is_ascii_alphanumeric() {
            return self.fetch_plain_scalar();
        }
        if self.mark.column == 0 && c == b'%' {
            return self.fetch_directive();
        }
        if self.mark.column == 0
            && self.at(0) == b'-'
            && self.at(1) == b'-'
            && self.at(2) == b'-'
            && self.is_blankz_at(3)
        {
            return self.fetch_document_indicator(TokenKind::DocumentStart);
        }
        if self.mark.column == 0
            && self.at(0) == b'.'
            && self.at(1) == b'.'
            && self.at(2) == b'.'
            && self.is_blankz_at(3)
        {
            return self.fetch_document_indicator(TokenKind::DocumentEnd);
        }
        match c {
            b'[' => return self.fetch_flow_collection_start(TokenKind::FlowSequenceStart),
            b'{' => return self.fetch_flow_collection_start(TokenKind::FlowMappingStart),
            b']' => return self.fetch_flow_collection_end(TokenKind::FlowSequenceEnd),
            b'}' => return self.fetch_flow_collection_end(TokenKind::FlowMappingEnd),
            b',' => return self.fetch_flow_entry(),
            _ => {}
        }
        if c == b'-' && self.is_blankz_at(1) {
            return self.fetch_block_entry();
        }
        if c == b'?' && (self.flow_level > 0 || self.is_blankz_at(1)) {
            return self.fetch_key();
        }
        if c == b':' && (self.flow_level > 0 || self.is_blankz_at(1)) {
            return self.fetch_value();
        }
        match c {
            b'*' => return self.fetch_anchor(true),
            b'&' => return self.fetch_anchor(false),
            b'!' => return self.fetch_tag(),
            b'|' if self.flow_level == 0 => return self.fetch_block_scalar(true),
            b'>' if self.flow_level == 0 => return self.fetch_block_scalar(false),
            b'\'' => return self.fetch_flow_scalar(true),
            b'"' => return self.fetch_flow_scalar(false),
            _ => {}
        }
        let indicator = self.is_blankz()
            || matches!(
                c,
                b'-' | b'?'
                    | b':'
                    | b','
                    | b'['
                    | b']'
                    | b'{'
                    | b'}'
                    | b'#'
                    | b'&'
                    | b'*'
                    | b'!'
                    | b'|'
                    | b'>'
                    | b'\''
                    | b'"'
                    | b'%'
                    | b'@'
                    | b'`'
            );
        if !indicator
            || (c == b'-' && !self.is_blank_at(1))
            || (self.flow_level == 0 && (c == b'?' || c == b':') && !self.is_blankz_at(1))
        {
            return self.fetch_plain_scalar();
        }
        Err(self.cannot_start_token())
    }

    /// No token starts with the character here.
    #[allow(
        clippy::unnecessary_box_returns,
        reason = "refusals travel boxed, so that results stay two words"
    )]
    #[cold]
    fn cannot_start_token(&mut self) -> Box<ReadError> {
        let mark = self.mark;
        if self.pure {
            let problem = format!(
                "found character {} that cannot start any token",
                self.repr_at(0)
            );
            return self.error_at(
                Some("while scanning for the next token"),
                None,
                problem,
                mark,
            );
        }
        self.error(
            Some("while scanning for the next token"),
            mark,
            "found character that cannot start any token",
        )
    }

    #[inline]
    fn stale_simple_keys(&mut self) -> Scan<()> {
        if self.boms > 0 {
            return self.stale_simple_keys_boms();
        }
        let mark = self.mark;
        let mut required = None;
        for key in &mut self.simple_keys {
            // Same line: libyaml's index difference is the column difference.
            if key.possible && (key.mark.line < mark.line || key.mark.column + 1024 < mark.column) {
                if key.required {
                    required = Some(key.mark);
                    break;
                }
                key.possible = false;
            }
        }
        match required {
            None => Ok(()),
            Some(at) => Err(self.error(
                Some("while scanning a simple key"),
                at,
                "could not find expected ':'",
            )),
        }
    }

    /// [`Self::stale_simple_keys`] in pure mode once a byte-order mark took no column: a key
    /// on this line is stale past 1,024 characters counting those marks.
    #[cold]
    #[inline(never)]
    fn stale_simple_keys_boms(&mut self) -> Scan<()> {
        let mark = self.mark;
        let mut required = None;
        for key in &mut self.simple_keys {
            if key.possible
                && (key.mark.line < mark.line
                    || key.mark.column + 1024 < mark.column
                    || stale_with_boms(self.b, key.mark, mark))
            {
                if key.required {
                    required = Some(key.mark);
                    break;
                }
                key.possible = false;
            }
        }
        match required {
            None => Ok(()),
            Some(at) => Err(self.error(
                Some("while scanning a simple key"),
                at,
                "could not find expected ':'",
            )),
        }
    }

    #[inline]
    fn save_simple_key(&mut self) -> Scan<()> {
        let required = self.flow_level == 0 && self.indent == self.mark.column.cast_signed();
        if self.simple_key_allowed {
            let key = SimpleKey {
                possible: true,
                required,
                token_number: self.tokens_parsed + self.tokens.len(),
                mark: self.mark,
            };
            self.remove_simple_key()?;
            if let Some(top) = self.simple_keys.last_mut() {
                *top = key;
            }
        }
        Ok(())
    }

    #[inline]
    fn remove_simple_key(&mut self) -> Scan<()> {
        let Some(&key) = self.simple_keys.last() else {
            return Ok(());
        };
        if key.possible && key.required {
            return Err(self.error(
                Some("while scanning a simple key"),
                key.mark,
                "could not find expected ':'",
            ));
        }
        if let Some(top) = self.simple_keys.last_mut() {
            top.possible = false;
        }
        Ok(())
    }

    fn increase_flow_level(&mut self) {
        self.simple_keys.push(SimpleKey::default());
        self.flow_level += 1;
    }

    fn decrease_flow_level(&mut self) {
        if self.flow_level > 0 {
            self.flow_level -= 1;
            self.simple_keys.pop();
        }
    }

    /// `number`: where in the queue the token goes (`None`: at its end).
    #[inline]
    fn roll_indent(
        &mut self,
        column: isize,
        number: Option<usize>,
        kind: TokenKind<'a>,
        mark: Mark,
    ) {
        if self.flow_level > 0 {
            return;
        }
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            let token = Token {
                kind,
                start: mark,
                end: mark,
            };
            match number {
                None => self.tokens.push_back(token),
                Some(n) => self.insert(n - self.tokens_parsed, token),
            }
        }
    }

    #[inline]
    fn unroll_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            let mark = self.mark;
            self.push(TokenKind::BlockEnd, mark, mark);
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    fn fetch_stream_start(&mut self) {
        self.indent = -1;
        self.simple_keys.push(SimpleKey::default());
        self.simple_key_allowed = true;
        self.stream_start_produced = true;
        let mark = self.mark;
        self.push(TokenKind::StreamStart, mark, mark);
    }

    fn fetch_stream_end(&mut self) -> Scan<()> {
        // libyaml puts the stream's end on a new line; the pure scanner where the text ends.
        if self.mark.column != 0 && !self.pure {
            self.mark.column = 0;
            self.mark.line += 1;
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        if self.pure {
            // `possible_simple_keys = {}`: no key waits for more tokens (libyaml's new line
            // makes every one stale).
            for key in &mut self.simple_keys {
                key.possible = false;
            }
        }
        let mark = self.mark;
        self.push(TokenKind::StreamEnd, mark, mark);
        Ok(())
    }

    fn fetch_directive(&mut self) -> Scan<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let token = if self.pure {
            self.scan_directive_pure()?
        } else {
            self.scan_directive()?
        };
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, kind: TokenKind<'a>) -> Scan<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip();
        self.skip();
        self.skip();
        let end = self.mark;
        self.push(kind, start, end);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, kind: TokenKind<'a>) -> Scan<()> {
        self.save_simple_key()?;
        self.increase_flow_level();
        self.simple_key_allowed = true;
        let start = self.mark;
        self.skip();
        let end = self.mark;
        self.push(kind, start, end);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: TokenKind<'a>) -> Scan<()> {
        self.remove_simple_key()?;
        self.decrease_flow_level();
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip();
        let end = self.mark;
        self.push(kind, start, end);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Scan<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.mark;
        self.skip();
        let end = self.mark;
        self.push(TokenKind::FlowEntry, start, end);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                let mark = self.mark;
                return Err(self.error(
                    None,
                    mark,
                    if self.pure {
                        "sequence entries are not allowed here"
                    } else {
                        "block sequence entries are not allowed in this context"
                    },
                ));
            }
            let mark = self.mark;
            self.roll_indent(
                mark.column.cast_signed(),
                None,
                TokenKind::BlockSequenceStart,
                mark,
            );
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.mark;
        self.skip();
        let end = self.mark;
        self.push(TokenKind::BlockEntry, start, end);
        Ok(())
    }

    fn fetch_key(&mut self) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                let mark = self.mark;
                return Err(self.error(
                    None,
                    mark,
                    if self.pure {
                        "mapping keys are not allowed here"
                    } else {
                        "mapping keys are not allowed in this context"
                    },
                ));
            }
            let mark = self.mark;
            self.roll_indent(
                mark.column.cast_signed(),
                None,
                TokenKind::BlockMappingStart,
                mark,
            );
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = self.flow_level == 0;
        let start = self.mark;
        self.skip();
        let end = self.mark;
        self.push(TokenKind::Key, start, end);
        Ok(())
    }

    fn fetch_value(&mut self) -> Scan<()> {
        let key = self.simple_keys.last().copied().unwrap_or_default();
        if key.possible {
            self.insert(
                key.token_number - self.tokens_parsed,
                Token {
                    kind: TokenKind::Key,
                    start: key.mark,
                    end: key.mark,
                },
            );
            self.roll_indent(
                key.mark.column.cast_signed(),
                Some(key.token_number),
                TokenKind::BlockMappingStart,
                key.mark,
            );
            if let Some(top) = self.simple_keys.last_mut() {
                top.possible = false;
            }
            self.simple_key_allowed = false;
        } else {
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    let mark = self.mark;
                    return Err(self.error(
                        None,
                        mark,
                        if self.pure {
                            "mapping values are not allowed here"
                        } else {
                            "mapping values are not allowed in this context"
                        },
                    ));
                }
                let mark = self.mark;
                self.roll_indent(
                    mark.column.cast_signed(),
                    None,
                    TokenKind::BlockMappingStart,
                    mark,
                );
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        let start = self.mark;
        self.skip();
        let end = self.mark;
        self.push(TokenKind::Value, start, end);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Scan<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_anchor(alias)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Scan<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = if self.pure {
            self.scan_tag_pure()?
        } else {
            self.scan_tag()?
        };
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, literal: bool) -> Scan<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let token = self.scan_block_scalar(literal)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, single: bool) -> Scan<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        if self.quoted_short(single) {
            return Ok(());
        }
        let token = self.scan_flow_scalar(single)?;
        self.tokens.push_back(token);
        Ok(())
    }

    /// A quoted scalar in its common shape, read in short: on one line, of ASCII characters
    /// from the space to `~` without escapes (`\` in double quotes, a doubled quote in single
    /// ones), then its closing quote. [`Self::scan_flow_scalar`] reads such a scalar the same
    /// way (no document indicator or end of text in it, its spaces kept as written, so that
    /// its value is the slice between the quotes) with the same marks; this queues the token
    /// and says `true`. `false`, the scanner untouched, for any other shape.
    #[inline]
    fn quoted_short(&mut self, single: bool) -> bool {
        let start = self.mark;
        let from = start.offset + 1;
        let b = self.b;
        let (stops, quote) = if single {
            (&QUOTED_SINGLE_STOPS, b'\'')
        } else {
            (&QUOTED_DOUBLE_STOPS, b'"')
        };
        let close = from
            + swar::run_until(b, from, stops, |x| {
                quoted_hits(x)
                    | if single {
                        swar::eq(x, b'\'')
                    } else {
                        swar::eq(x, b'"') | swar::eq(x, b'\\')
                    }
            });
        if b.get(close) != Some(&quote) || (single && b.get(close + 1) == Some(&b'\'')) {
            return false;
        }
        let end = Mark {
            offset: close + 1,
            line: start.line,
            column: start.column + (close + 1 - start.offset),
        };
        let style = if single {
            ScalarStyle::SingleQuoted
        } else {
            ScalarStyle::DoubleQuoted
        };
        self.tokens.push_back(Token {
            kind: TokenKind::Scalar(Cow::Borrowed(&self.src[from..close]), style),
            start,
            end,
        });
        self.mark = end;
        true
    }

    fn fetch_plain_scalar(&mut self) -> Scan<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        if self.at(0) < 0x80
            && if self.flow_level == 0 {
                self.plain_short()
            } else {
                self.plain_short_flow()
            }
        {
            return Ok(());
        }
        let token = self.scan_plain_scalar()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn scan_to_next_token(&mut self) {
        if self.pure {
            return self.scan_to_next_token_pure();
        }
        loop {
            if self.mark.column == 0 && self.b[self.mark.offset..].starts_with(b"\xEF\xBB\xBF") {
                self.skip();
            }
            let tabs = self.flow_level > 0 || !self.simple_key_allowed;
            let blanks = swar::blanks(self.b, self.mark.offset, tabs);
            self.mark.offset += blanks;
            self.mark.column += blanks;
            if self.check(b'#') {
                let start = self.mark.offset;
                self.skip_to_line_end();
                self.comments.push((start, self.mark.offset));
            }
            if self.is_break() {
                self.skip_line();
                if self.flow_level == 0 {
                    self.simple_key_allowed = true;
                }
            } else {
                break;
            }
        }
    }

    /// `scan_to_next_token` of `scanner.py`: a byte-order mark only as the text's first
    /// character, spaces but never a tab, comments, line breaks.
    fn scan_to_next_token_pure(&mut self) {
        if self.mark.offset == 0 && self.is_bom_at(0) {
            self.skip();
        }
        loop {
            let n = self.spaces();
            self.mark.offset += n;
            self.mark.column += n;
            if self.check(b'#') {
                let start = self.mark.offset;
                self.skip_to_line_end();
                self.comments.push((start, self.mark.offset));
            }
            if self.is_break() {
                self.skip_line();
                if self.flow_level == 0 {
                    self.simple_key_allowed = true;
                }
            } else {
                break;
            }
        }
    }

    /// Skips to the next line break or the end (a comment's text, a block scalar's line).
    fn skip_to_line_end(&mut self) {
        let b = self.b;
        let mut i = self.mark.offset;
        let mut ascii = true;
        let end = loop {
            // The next byte below 0x0E (CR, LF) or from 0x80 (NEL, LS, PS start there).
            i = swar::find(
                b,
                i,
                |x| swar::below(x, 0x0E) | (x & swar::HIGHS),
                |c| !(0x0E..0x80).contains(&c),
            );
            match b.get(i) {
                None | Some(b'\n' | b'\r') => break i,
                Some(0xC2) if b.get(i + 1) == Some(&0x85) => break i,
                Some(0xE2)
                    if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)) =>
                {
                    break i;
                }
                Some(&c) => {
                    ascii &= c < 0x80;
                    i += 1;
                }
            }
        };
        let line = &b[self.mark.offset..end];
        self.mark.column += if ascii {
            line.len()
        } else {
            self.columns_in(line)
        };
        self.mark.offset = end;
    }

    fn scan_directive(&mut self) -> Scan<Token<'a>> {
        const CONTEXT: Option<&str> = Some("while scanning a directive");
        let start = self.mark;
        self.skip();
        let name = self.scan_directive_name(start)?;
        let kind = match name {
            "YAML" => {
                let (major, minor) = self.scan_version_directive_value(start)?;
                TokenKind::VersionDirective(major, minor)
            }
            "TAG" => {
                let (handle, prefix) = self.scan_tag_directive_value(start)?;
                TokenKind::TagDirective(handle, prefix)
            }
            _ => return Err(self.error(CONTEXT, start, "found unknown directive name")),
        };
        let end = self.mark;
        while self.is_blank() {
            self.skip();
        }
        if self.check(b'#') {
            let at = self.mark.offset;
            self.skip_to_line_end();
            self.comments.push((at, self.mark.offset));
        }
        if !self.is_breakz() {
            return Err(self.error(
                CONTEXT,
                start,
                "did not find expected comment or line break",
            ));
        }
        if self.is_break() {
            self.skip_line();
        }
        Ok(Token { kind, start, end })
    }

    fn scan_alpha(&mut self) -> (usize, usize) {
        let from = self.mark.offset;
        while self.at(0).is_ascii_alphanumeric() || matches!(self.at(0), b'_' | b'-') {
            self.skip();
        }
        (from, self.mark.offset)
    }

    fn scan_directive_name(&mut self, start: Mark) -> Scan<&'a str> {
        const CONTEXT: Option<&str> = Some("while scanning a directive");
        let (from, to) = self.scan_alpha();
        if from == to {
            return Err(self.error(CONTEXT, start, "could not find expected directive name"));
        }
        if !self.is_blankz() {
            return Err(self.error(
                CONTEXT,
                start,
                "found unexpected non-alphabetical character",
            ));
        }
        Ok(&self.src[from..to])
    }

    fn scan_version_directive_value(&mut self, start: Mark) -> Scan<(u32, u32)> {
        while self.is_blank() {
            self.skip();
        }
        let major = self.scan_version_directive_number(start)?;
        if !self.check(b'.') {
            return Err(self.error(
                Some("while scanning a %YAML directive"),
                start,
                "did not find expected digit or '.' character",
            ));
        }
        self.skip();
        let minor = self.scan_version_directive_number(start)?;
        Ok((major, minor))
    }

    fn scan_version_directive_number(&mut self, start: Mark) -> Scan<u32> {
        const CONTEXT: Option<&str> = Some("while scanning a %YAML directive");
        let mut value = 0u32;
        let mut length = 0;
        while self.at(0).is_ascii_digit() {
            length += 1;
            if length > 9 {
                return Err(self.error(CONTEXT, start, "found extremely long version number"));
            }
            value = value * 10 + u32::from(self.at(0) - b'0');
            self.skip();
        }
        if length == 0 {
            return Err(self.error(CONTEXT, start, "did not find expected version number"));
        }
        Ok(value)
    }

    fn scan_tag_directive_value(&mut self, start: Mark) -> Scan<(Cow<'a, str>, Cow<'a, str>)> {
        const CONTEXT: Option<&str> = Some("while scanning a %TAG directive");
        while self.is_blank() {
            self.skip();
        }
        let handle = self.scan_tag_handle(true, start)?;
        if !self.is_blank() {
            return Err(self.error(CONTEXT, start, "did not find expected whitespace"));
        }
        while self.is_blank() {
            self.skip();
        }
        let prefix = self.scan_tag_uri(true, true, None, start)?;
        if !self.is_blankz() {
            return Err(self.error(
                CONTEXT,
                start,
                "did not find expected whitespace or line break",
            ));
        }
        Ok((Cow::Borrowed(&self.src[handle.0..handle.1]), prefix))
    }

    fn scan_anchor(&mut self, alias: bool) -> Scan<Token<'a>> {
        let start = self.mark;
        self.skip();
        let (from, to) = self.scan_alpha();
        let end = self.mark;
        let c = self.at(0);
        if from == to
            || !(self.is_blankz()
                || matches!(c, b'?' | b':' | b',' | b']' | b'}' | b'%' | b'@' | b'`'))
        {
            let problem: Cow<'static, str> = if self.pure {
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    self.repr_at(0)
                )
                .into()
            } else {
                "did not find expected alphabetic or numeric character".into()
            };
            return Err(self.error(
                Some(if alias {
                    "while scanning an alias"
                } else {
                    "while scanning an anchor"
                }),
                start,
                problem,
            ));
        }
        let name = &self.src[from..to];
        let kind = if alias {
            TokenKind::Alias(name)
        } else {
            TokenKind::Anchor(name)
        };
        Ok(Token { kind, start, end })
    }

    fn scan_tag(&mut self) -> Scan<Token<'a>> {
        const CONTEXT: Option<&str> = Some("while scanning a tag");
        let start = self.mark;
        let (handle, suffix);
        if self.at(1) == b'<' {
            self.skip();
            self.skip();
            suffix = self.scan_tag_uri(true, false, None, start)?;
            if !self.check(b'>') {
                return Err(self.error(CONTEXT, start, "did not find the expected '>'"));
            }
            self.skip();
            handle = Cow::Borrowed("");
        } else {
            let (from, to) = self.scan_tag_handle(false, start)?;
            let text = &self.src[from..to];
            if text.len() > 1 && text.ends_with('!') {
                suffix = self.scan_tag_uri(false, false, None, start)?;
                handle = Cow::Borrowed(text);
            } else {
                let uri = self.scan_tag_uri(false, false, Some((from, to)), start)?;
                if uri.is_empty() {
                    handle = Cow::Borrowed("");
                    suffix = Cow::Borrowed("!");
                } else {
                    handle = Cow::Borrowed("!");
                    suffix = uri;
                }
            }
        }
        if !self.is_blankz() && (self.flow_level == 0 || !self.check(b',')) {
            return Err(self.error(
                CONTEXT,
                start,
                "did not find expected whitespace or line break",
            ));
        }
        let end = self.mark;
        Ok(Token {
            kind: TokenKind::Tag(handle, suffix),
            start,
            end,
        })
    }

    // ---- the pure scanner's directives and tags (`scanner.py`) ------------------------

    /// `scan_directive`: `%YAML` and `%TAG` as libyaml reads them but with the pure scanner's
    /// checks and texts; any other directive is skipped to the end of its line.
    fn scan_directive_pure(&mut self) -> Scan<Token<'a>> {
        const CONTEXT: Option<&str> = Some("while scanning a directive");
        let start = self.mark;
        self.skip();
        let (from, to) = self.scan_alpha();
        if from == to || !(self.check(b' ') || self.is_breakz()) {
            let problem = format!(
                "expected alphabetic or numeric character, but found {}",
                self.repr_at(0)
            );
            return Err(self.error(CONTEXT, start, problem));
        }
        let kind = match &self.src[from..to] {
            "YAML" => {
                self.skip_spaces();
                let major = self.scan_version_number_pure(start)?;
                if !self.check(b'.') {
                    let problem = format!("expected a digit or '.', but found {}", self.repr_at(0));
                    return Err(self.error(CONTEXT, start, problem));
                }
                self.skip();
                let minor = self.scan_version_number_pure(start)?;
                if !(self.check(b' ') || self.is_breakz()) {
                    let problem = format!("expected a digit or ' ', but found {}", self.repr_at(0));
                    return Err(self.error(CONTEXT, start, problem));
                }
                TokenKind::VersionDirective(major, minor)
            }
            "TAG" => {
                self.skip_spaces();
                let (hs, he) = self.scan_tag_handle_pure(true, start)?;
                if !self.check(b' ') {
                    let problem = format!("expected ' ', but found {}", self.repr_at(0));
                    return Err(self.error(CONTEXT, start, problem));
                }
                self.skip_spaces();
                let prefix = self.scan_tag_uri_pure(true, start)?;
                if !(self.check(b' ') || self.is_breakz()) {
                    let problem = format!("expected ' ', but found {}", self.repr_at(0));
                    return Err(self.error(CONTEXT, start, problem));
                }
                TokenKind::TagDirective(Cow::Borrowed(&self.src[hs..he]), prefix)
            }
            _ => {
                let end = self.mark;
                self.skip_to_line_end();
                self.directive_ignored_line_pure(start)?;
                return Ok(Token {
                    kind: OTHER_DIRECTIVE,
                    start,
                    end,
                });
            }
        };
        let end = self.mark;
        self.directive_ignored_line_pure(start)?;
        Ok(Token { kind, start, end })
    }

    /// `scan_directive_ignored_line`: spaces, a comment, the line break.
    fn directive_ignored_line_pure(&mut self, start: Mark) -> Scan<()> {
        self.skip_spaces();
        if self.check(b'#') {
            let at = self.mark.offset;
            self.skip_to_line_end();
            self.comments.push((at, self.mark.offset));
        }
        if !self.is_breakz() {
            let problem = format!(
                "expected a comment or a line break, but found {}",
                self.repr_at(0)
            );
            return Err(self.error(Some("while scanning a directive"), start, problem));
        }
        self.skip_line();
        Ok(())
    }

    fn skip_spaces(&mut self) {
        let n = self.spaces();
        self.mark.offset += n;
        self.mark.column += n;
    }

    /// `scan_yaml_directive_number`: digits, as many as written (a number past `u32` reads as
    /// `u32::MAX`, which no check accepts as 1).
    fn scan_version_number_pure(&mut self, start: Mark) -> Scan<u32> {
        if !self.at(0).is_ascii_digit() {
            let problem = format!("expected a digit, but found {}", self.repr_at(0));
            return Err(self.error(Some("while scanning a directive"), start, problem));
        }
        let mut value = 0u32;
        while self.at(0).is_ascii_digit() {
            value = value
                .saturating_mul(10)
                .saturating_add(u32::from(self.at(0) - b'0'));
            self.skip();
        }
        Ok(value)
    }

    /// `scan_tag`: `!<uri>`, `!` alone, `!handle!suffix` when a `!` follows before the next
    /// space or line break, else `!suffix`; then a space or the line's end (not a tab, not a
    /// `,`).
    fn scan_tag_pure(&mut self) -> Scan<Token<'a>> {
        let start = self.mark;
        let (handle, suffix): (Cow<'a, str>, Cow<'a, str>);
        if self.at(1) == b'<' {
            self.skip();
            self.skip();
            suffix = self.scan_tag_uri_pure(false, start)?;
            if !self.check(b'>') {
                let problem = format!("expected '>', but found {}", self.repr_at(0));
                return Err(self.error(Some("while parsing a tag"), start, problem));
            }
            self.skip();
            handle = Cow::Borrowed("");
        } else if self.is_blankz_at(1) {
            self.skip();
            handle = Cow::Borrowed("");
            suffix = Cow::Borrowed("!");
        } else {
            let rest = &self.b[self.mark.offset + 1..];
            let mut use_handle = false;
            for (k, &c) in rest.iter().enumerate() {
                if c == b' ' || self.is_break_at(1 + k) {
                    break;
                }
                if c == b'!' {
                    use_handle = true;
                    break;
                }
            }
            if use_handle {
                let (from, to) = self.scan_tag_handle_pure(false, start)?;
                handle = Cow::Borrowed(&self.src[from..to]);
            } else {
                self.skip();
                handle = Cow::Borrowed("!");
            }
            suffix = self.scan_tag_uri_pure(false, start)?;
        }
        if !(self.check(b' ') || self.is_breakz()) {
            let problem = format!("expected ' ', but found {}", self.repr_at(0));
            return Err(self.error(Some("while scanning a tag"), start, problem));
        }
        let end = self.mark;
        Ok(Token {
            kind: TokenKind::Tag(handle, suffix),
            start,
            end,
        })
    }

    /// `scan_tag_handle`: `!`, then (unless a space follows) letters, digits, `-`, `_` and a
    /// closing `!`; its byte range.
    fn scan_tag_handle_pure(&mut self, directive: bool, start: Mark) -> Scan<(usize, usize)> {
        let context = Some(if directive {
            "while scanning a directive"
        } else {
            "while scanning a tag"
        });
        if !self.check(b'!') {
            let problem = format!("expected '!', but found {}", self.repr_at(0));
            return Err(self.error(context, start, problem));
        }
        let from = self.mark.offset;
        self.skip();
        if !self.check(b' ') {
            self.scan_alpha();
            if !self.check(b'!') {
                let problem = format!("expected '!', but found {}", self.repr_at(0));
                return Err(self.error(context, start, problem));
            }
            self.skip();
        }
        Ok((from, self.mark.offset))
    }

    /// `scan_tag_uri`: letters, digits and `-;/?:@&=+$,_.!~*'()[]%` (`,[]` in a tag too),
    /// with `%` escapes decoded.
    fn scan_tag_uri_pure(&mut self, directive: bool, start: Mark) -> Scan<Cow<'a, str>> {
        let mut buf = Buf::Empty;
        let mut any = false;
        loop {
            let c = self.at(0);
            let ok = c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    b'-' | b';'
                        | b'/'
                        | b'?'
                        | b':'
                        | b'@'
                        | b'&'
                        | b'='
                        | b'+'
                        | b'$'
                        | b','
                        | b'_'
                        | b'.'
                        | b'!'
                        | b'~'
                        | b'*'
                        | b'\''
                        | b'('
                        | b')'
                        | b'['
                        | b']'
                        | b'%'
                );
            if !ok {
                break;
            }
            any = true;
            if c == b'%' {
                let text = self.scan_uri_escapes_pure(directive, start)?;
                buf.push_str(self.src, &text);
            } else {
                let at = self.mark.offset;
                self.skip();
                buf.push_slice(self.src, at, self.mark.offset);
            }
        }
        if !any {
            let problem = format!("expected URI, but found {}", self.repr_at(0));
            let context = if directive {
                "while parsing a directive"
            } else {
                "while parsing a tag"
            };
            return Err(self.error(Some(context), start, problem));
        }
        Ok(buf.into_cow(self.src))
    }

    /// `scan_uri_escapes`: a run of `%XX`, decoded as UTF-8 at once (Python's own refusal when
    /// it is not, at the run's first `%`).
    fn scan_uri_escapes_pure(&mut self, directive: bool, start: Mark) -> Scan<String> {
        let context = Some(if directive {
            "while scanning a directive"
        } else {
            "while scanning a tag"
        });
        let mark = self.mark;
        let mut bytes = Vec::new();
        while self.check(b'%') {
            self.skip();
            for k in 0..2 {
                if !self.at(k).is_ascii_hexdigit() {
                    let problem = format!(
                        "expected URI escape sequence of 2 hexadecimal numbers, but found {}",
                        self.repr_at(k)
                    );
                    return Err(self.error(context, start, problem));
                }
            }
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0);
            bytes.push(u8::try_from(hex(self.at(0)) * 16 + hex(self.at(1))).unwrap_or(0));
            self.skip();
            self.skip();
        }
        match String::from_utf8(bytes) {
            Ok(text) => Ok(text),
            Err(err) => {
                let bytes = err.as_bytes();
                let err = err.utf8_error();
                let at = err.valid_up_to();
                let byte = bytes[at];
                // Python's range: the maximal invalid subpart, or the rest at the end.
                let len = err.error_len().unwrap_or(bytes.len() - at);
                let reason = match err.error_len() {
                    None => "unexpected end of data",
                    Some(_) if (0xC2..=0xF4).contains(&byte) => "invalid continuation byte",
                    Some(_) => "invalid start byte",
                };
                let problem = if len > 1 {
                    format!(
                        "'utf-8' codec can't decode bytes in position {at}-{}: {reason}",
                        at + len - 1
                    )
                } else {
                    format!(
                        "'utf-8' codec can't decode byte 0x{byte:02x} in position {at}: {reason}"
                    )
                };
                Err(self.error_at(context, Some(start), problem, mark))
            }
        }
    }

    /// The handle's byte range: `!`, `!!`, `!name!`, or (a tag) `!name`.
    fn scan_tag_handle(&mut self, directive: bool, start: Mark) -> Scan<(usize, usize)> {
        if !self.check(b'!') {
            return Err(self.error(
                Some(if directive {
                    "while scanning a tag directive"
                } else {
                    "while scanning a tag"
                }),
                start,
                "did not find expected '!'",
            ));
        }
        let from = self.mark.offset;
        self.skip();
        self.scan_alpha();
        if self.check(b'!') {
            self.skip();
        } else if directive && self.mark.offset - from != 1 {
            return Err(self.error(
                Some("while parsing a tag directive"),
                start,
                "did not find expected '!'",
            ));
        }
        Ok((from, self.mark.offset))
    }

    /// `head`: a handle without its closing `!` whose text after the `!` starts the URI.
    fn scan_tag_uri(
        &mut self,
        uri_char: bool,
        directive: bool,
        head: Option<(usize, usize)>,
        start: Mark,
    ) -> Scan<Cow<'a, str>> {
        let context = Some(if directive {
            "while parsing a %TAG directive"
        } else {
            "while parsing a tag"
        });
        let mut length = head.map_or(0, |(s, e)| e - s);
        let mut buf = Buf::Empty;
        if let Some((s, e)) = head {
            buf.push_slice(self.src, s + 1, e);
        }
        let mut bytes: Vec<u8> = Vec::new();
        loop {
            let c = self.at(0);
            let ok = c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    b'_' | b'-'
                        | b';'
                        | b'/'
                        | b'?'
                        | b':'
                        | b'@'
                        | b'&'
                        | b'='
                        | b'+'
                        | b'$'
                        | b'.'
                        | b'%'
                        | b'!'
                        | b'~'
                        | b'*'
                        | b'\''
                        | b'('
                        | b')'
                )
                || (uri_char && matches!(c, b',' | b'[' | b']'));
            if !ok {
                break;
            }
            if c == b'%' {
                bytes.clear();
                self.scan_uri_escapes(context, start, &mut bytes)?;
                match std::str::from_utf8(&bytes) {
                    Ok(text) => buf.push_str(self.src, text),
                    Err(_) => {
                        return Err(self.error(
                            context,
                            start,
                            "found an incorrect trailing UTF-8 octet",
                        ));
                    }
                }
            } else {
                let at = self.mark.offset;
                self.skip();
                buf.push_slice(self.src, at, self.mark.offset);
            }
            length += 1;
        }
        if length == 0 {
            return Err(self.error(context, start, "did not find expected tag URI"));
        }
        Ok(buf.into_cow(self.src))
    }

    fn scan_uri_escapes(
        &mut self,
        context: Option<&'static str>,
        start: Mark,
        out: &mut Vec<u8>,
    ) -> Scan<()> {
        let mut width = 0;
        loop {
            let hex = |c: u8| (c as char).to_digit(16);
            let (Some(hi), Some(lo)) = (hex(self.at(1)), hex(self.at(2))) else {
                return Err(self.error(context, start, "did not find URI escaped octet"));
            };
            if !self.check(b'%') {
                return Err(self.error(context, start, "did not find URI escaped octet"));
            }
            let octet = u8::try_from(hi * 16 + lo).unwrap_or(0);
            if width == 0 {
                width = if octet & 0x80 == 0 {
                    1
                } else if octet & 0xE0 == 0xC0 {
                    2
                } else if octet & 0xF0 == 0xE0 {
                    3
                } else if octet & 0xF8 == 0xF0 {
                    4
                } else {
                    return Err(self.error(
                        context,
                        start,
                        "found an incorrect leading UTF-8 octet",
                    ));
                };
            } else if octet & 0xC0 != 0x80 {
                return Err(self.error(context, start, "found an incorrect trailing UTF-8 octet"));
            }
            out.push(octet);
            self.skip();
            self.skip();
            self.skip();
            width -= 1;
            if width == 0 {
                return Ok(());
            }
        }
    }

    #[allow(
        clippy::too_many_lines,
        reason = "libyaml's function, kept whole to be read beside it"
    )]
    fn scan_block_scalar(&mut self, literal: bool) -> Scan<Token<'a>> {
        const CONTEXT: Option<&str> = Some("while scanning a block scalar");
        let start = self.mark;
        self.skip();
        let mut chomping = 0i8;
        let mut increment = 0isize;
        let zero: &'static str = if self.pure {
            "expected indentation indicator in the range 1-9, but found 0"
        } else {
            "found an indentation indicator equal to 0"
        };
        if self.check(b'+') || self.check(b'-') {
            chomping = if self.check(b'+') { 1 } else { -1 };
            self.skip();
            if self.at(0).is_ascii_digit() {
                if self.check(b'0') {
                    return Err(self.error(CONTEXT, start, zero));
                }
                increment = isize::from(self.at(0) - b'0');
                self.skip();
            }
        } else if self.at(0).is_ascii_digit() {
            if self.check(b'0') {
                return Err(self.error(CONTEXT, start, zero));
            }
            increment = isize::from(self.at(0) - b'0');
            self.skip();
            if self.check(b'+') || self.check(b'-') {
                chomping = if self.check(b'+') { 1 } else { -1 };
                self.skip();
            }
        }
        // The pure scanner wants a space or the line's end right after the indicators, and
        // skips spaces only.
        if self.pure && !(self.check(b' ') || self.is_breakz()) {
            let problem = format!(
                "expected chomping or indentation indicators, but found {}",
                self.repr_at(0)
            );
            return Err(self.error(CONTEXT, start, problem));
        }
        while self.check(b' ') || (!self.pure && self.is_blank()) {
            self.skip();
        }
        if self.check(b'#') {
            let at = self.mark.offset;
            self.skip_to_line_end();
            self.comments.push((at, self.mark.offset));
        }
        if !self.is_breakz() {
            if self.pure {
                let problem = format!(
                    "expected a comment or a line break, but found {}",
                    self.repr_at(0)
                );
                return Err(self.error(CONTEXT, start, problem));
            }
            return Err(self.error(
                CONTEXT,
                start,
                "did not find expected comment or line break",
            ));
        }
        if self.is_break() {
            self.skip_line();
        }
        let mut end = self.mark;
        let mut indent: isize = 0;
        if increment > 0 {
            indent = if self.indent >= 0 {
                self.indent + increment
            } else {
                increment
            };
        }
        let mut value = Buf::Empty;
        let mut leading_break: &'static str = "";
        let mut trailing = std::mem::take(&mut self.trailing_breaks);
        trailing.clear();
        let mut leading_blank = false;
        let result = (|| {
            self.scan_block_scalar_breaks(&mut indent, &mut trailing, start, &mut end)?;
            while self.mark.column.cast_signed() == indent && !self.is_z() {
                let trailing_blank = self.is_blank();
                if !literal && leading_break == LF && !leading_blank && !trailing_blank {
                    if trailing.is_empty() {
                        value.push_char(self.src, ' ');
                    }
                } else {
                    value.push_str(self.src, leading_break);
                }
                leading_break = "";
                value.push_str(self.src, &trailing);
                trailing.clear();
                leading_blank = self.is_blank();
                let from = self.mark.offset;
                self.skip_to_line_end();
                value.push_slice(self.src, from, self.mark.offset);
                if self.is_break() {
                    leading_break = self.read_line();
                }
                self.scan_block_scalar_breaks(&mut indent, &mut trailing, start, &mut end)?;
            }
            Ok(())
        })();
        if let Err(err) = result {
            self.trailing_breaks = trailing;
            return Err(err);
        }
        if chomping != -1 {
            value.push_str(self.src, leading_break);
        }
        if chomping == 1 {
            value.push_str(self.src, &trailing);
        }
        self.trailing_breaks = trailing;
        let style = if literal {
            ScalarStyle::Literal
        } else {
            ScalarStyle::Folded
        };
        Ok(Token {
            kind: TokenKind::Scalar(value.into_cow(self.src), style),
            start,
            end,
        })
    }

    fn scan_block_scalar_breaks(
        &mut self,
        indent: &mut isize,
        breaks: &mut String,
        start: Mark,
        end: &mut Mark,
    ) -> Scan<()> {
        let mut max_indent = 0isize;
        *end = self.mark;
        loop {
            if self.check(b' ') {
                let mut n = self.spaces();
                if *indent > 0 {
                    let room = (*indent - self.mark.column.cast_signed()).max(0);
                    n = n.min(room.cast_unsigned());
                }
                self.mark.offset += n;
                self.mark.column += n;
            }
            max_indent = max_indent.max(self.mark.column.cast_signed());
            if !self.pure
                && (*indent == 0 || self.mark.column.cast_signed() < *indent)
                && self.check(b'\t')
            {
                return Err(self.error(
                    Some("while scanning a block scalar"),
                    start,
                    "found a tab character where an indentation space is expected",
                ));
            }
            if !self.is_break() {
                break;
            }
            breaks.push_str(self.read_line());
            *end = self.mark;
        }
        if *indent == 0 {
            *indent = max_indent.max(self.indent + 1).max(1);
        }
        Ok(())
    }

    #[allow(
        clippy::too_many_lines,
        reason = "libyaml's function, kept whole to be read beside it"
    )]
    fn scan_flow_scalar(&mut self, single: bool) -> Scan<Token<'a>> {
        const CONTEXT: Option<&str> = Some("while scanning a quoted scalar");
        let escape_context = Some(if self.pure {
            "while scanning a double-quoted scalar"
        } else {
            "while parsing a quoted scalar"
        });
        let start = self.mark;
        self.skip();
        let mut value = Buf::Empty;
        let mut trailing = std::mem::take(&mut self.trailing_breaks);
        trailing.clear();
        let result = (|| {
            loop {
                if self.is_document_indicator() {
                    return Err(self.error(
                        CONTEXT,
                        start,
                        if self.pure {
                            "found unexpected document separator"
                        } else {
                            "found unexpected document indicator"
                        },
                    ));
                }
                if self.is_z() {
                    return Err(self.error(CONTEXT, start, "found unexpected end of stream"));
                }
                let mut leading_blanks = false;
                while !self.is_blankz() {
                    let c = self.at(0);
                    if single && c == b'\'' && self.at(1) == b'\'' {
                        // The second quote is the value: a slice of the text.
                        let at = self.mark.offset + 1;
                        value.push_slice(self.src, at, at + 1);
                        self.skip();
                        self.skip();
                    } else if c == if single { b'\'' } else { b'"' } {
                        break;
                    } else if !single && c == b'\\' && self.is_break_at(1) {
                        self.skip();
                        self.skip_line();
                        leading_blanks = true;
                        break;
                    } else if !single && c == b'\\' {
                        let mut code_length = 0;
                        let cooked = match self.at(1) {
                            b'0' => "\0",
                            b'a' => "\x07",
                            b'b' => "\x08",
                            b't' | b'\t' => "\t",
                            b'n' => "\n",
                            b'v' => "\x0B",
                            b'f' => "\x0C",
                            b'r' => "\r",
                            b'e' => "\x1B",
                            b' ' => " ",
                            b'"' => "\"",
                            b'/' => "/",
                            b'\\' => "\\",
                            b'N' => "\u{85}",
                            b'_' => "\u{a0}",
                            b'L' => LS,
                            b'P' => PS,
                            b'x' => {
                                code_length = 2;
                                ""
                            }
                            b'u' => {
                                code_length = 4;
                                ""
                            }
                            b'U' => {
                                code_length = 8;
                                ""
                            }
                            _ if self.pure => {
                                self.skip();
                                let problem =
                                    format!("found unknown escape character {}", self.repr_at(0));
                                return Err(self.error(escape_context, start, problem));
                            }
                            _ => {
                                return Err(self.error(
                                    escape_context,
                                    start,
                                    "found unknown escape character",
                                ));
                            }
                        };
                        value.push_str(self.src, cooked);
                        self.skip();
                        self.skip();
                        if code_length > 0 {
                            let mut code = 0u32;
                            for k in 0..code_length {
                                let Some(digit) = (self.at(k) as char).to_digit(16) else {
                                    if self.pure {
                                        let problem = format!(
                                            "expected escape sequence of {code_length} hexadecimal numbers, but found {}",
                                            self.repr_at(k)
                                        );
                                        return Err(self.error(escape_context, start, problem));
                                    }
                                    return Err(self.error(
                                        escape_context,
                                        start,
                                        "did not find expected hexdecimal number",
                                    ));
                                };
                                code = (code << 4) + digit;
                            }
                            let (ch, more) = match char::from_u32(code) {
                                Some(ch) => (ch, 0),
                                None if self.pure => self.pure_code(code, code_length, start)?,
                                None => {
                                    return Err(self.error(
                                        escape_context,
                                        start,
                                        "found invalid Unicode character escape code",
                                    ));
                                }
                            };
                            value.push_char(self.src, ch);
                            for _ in 0..code_length + more {
                                self.skip();
                            }
                        }
                    } else {
                        let at = self.mark.offset;
                        self.skip();
                        value.push_slice(self.src, at, self.mark.offset);
                    }
                }
                if self.check(if single { b'\'' } else { b'"' }) {
                    break;
                }
                let mut leading_break: &'static str = "";
                let (mut ws_start, mut ws_end) = (self.mark.offset, self.mark.offset);
                while self.is_blank() || self.is_break() {
                    if self.is_blank() {
                        if leading_blanks {
                            self.skip();
                        } else {
                            if ws_end != self.mark.offset {
                                ws_start = self.mark.offset;
                            }
                            self.skip();
                            ws_end = self.mark.offset;
                        }
                    } else if leading_blanks {
                        trailing.push_str(self.read_line());
                    } else {
                        ws_start = ws_end;
                        leading_break = self.read_line();
                        leading_blanks = true;
                    }
                }
                if leading_blanks {
                    if leading_break == LF {
                        if trailing.is_empty() {
                            value.push_char(self.src, ' ');
                        } else {
                            value.push_str(self.src, &trailing);
                            trailing.clear();
                        }
                    } else {
                        value.push_str(self.src, leading_break);
                        value.push_str(self.src, &trailing);
                        trailing.clear();
                    }
                } else {
                    value.push_slice(self.src, ws_start, ws_end);
                }
            }
            Ok(())
        })();
        self.trailing_breaks = trailing;
        result?;
        self.skip();
        let end = self.mark;
        let style = if single {
            ScalarStyle::SingleQuoted
        } else {
            ScalarStyle::DoubleQuoted
        };
        Ok(Token {
            kind: TokenKind::Scalar(value.into_cow(self.src), style),
            start,
            end,
        })
    }

    /// An escape code that is no character, in pure mode (at the escape's digits): Python's
    /// `chr` makes a surrogate of `\ud800`..`\udfff` and refuses a code past U+10FFFF. A high
    /// surrogate escaped right before a low one reads as the character they encode (what
    /// `json.dumps` writes of both); a lone one cannot be held in a Rust string.
    fn pure_code(&mut self, code: u32, code_length: usize, start: Mark) -> Scan<(char, usize)> {
        const CONTEXT: Option<&str> = Some("while scanning a double-quoted scalar");
        if code > 0x10_FFFF {
            return Err(self.error(CONTEXT, start, "chr() arg not in range(0x110000)"));
        }
        if (0xD800..0xDC00).contains(&code) {
            let next = self.mark.offset + code_length;
            let low = |len: usize, tag: u8| {
                let rest = self.b.get(next..next + 2 + len)?;
                if rest[0] != b'\\' || rest[1] != tag {
                    return None;
                }
                let digits = std::str::from_utf8(&rest[2..]).ok()?;
                u32::from_str_radix(digits, 16)
                    .ok()
                    .filter(|c| (0xDC00..0xE000).contains(c))
            };
            let pair = low(4, b'u')
                .map(|c| (c, 4))
                .or_else(|| low(8, b'U').map(|c| (c, 8)));
            if let Some((low, len)) = pair {
                let combined = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                if let Some(ch) = char::from_u32(combined) {
                    // The second escape's backslash, letter and digits, for the caller to skip.
                    return Ok((ch, 2 + len));
                }
            }
        }
        // PyYAML keeps the lone surrogate in its string: a stand-in character here, and the
        // scalar is marked (libyaml's rules refuse it before this: `found invalid Unicode
        // character escape code`).
        if self.lone_surrogates.last() != Some(&start.offset) {
            self.lone_surrogates.push(start.offset);
        }
        Ok((crate::surrogate_char(code), 0))
    }

    /// A plain scalar in a block in its common shapes, read in short: words of ASCII
    /// characters and single runs of spaces on one line (its first character ASCII, whatever it
    /// is), ending at a `:` that ends the scalar (a simple key's), at spaces before a `#` or
    /// such a `:`, at the text's end, or at its line's end when the next line (spaces, then
    /// anything but a blank or a line break) is indented less than the scalar may continue at.
    /// The general loop of [`Self::scan_plain_scalar`] reads such a scalar the same way and
    /// stops at the same place, with the same marks, value (a slice of the text, as spaces
    /// between words are kept as written) and simple-key state; it queues the token and says `true`. `false`, the scanner untouched,
    /// for any other shape (tabs, other characters, line breaks that the scalar may continue
    /// past, a `:` in a flow collection).
    fn plain_short(&mut self) -> bool {
        let start = self.mark;
        let from = start.offset;
        let b = self.b;
        let indent = self.indent + 1;
        // Columns on the scalar's line, which is ASCII from its start to `pos`.
        let column = |pos: usize| start.column + (pos - from);
        let blankz = |pos: usize| match b.get(pos) {
            None | Some(b' ' | b'\t' | b'\r' | b'\n') => true,
            Some(0xC2) => b.get(pos + 1) == Some(&0x85),
            Some(0xE2) => {
                b.get(pos + 1) == Some(&0x80) && matches!(b.get(pos + 2), Some(0xA8 | 0xA9))
            }
            Some(_) => false,
        };
        // The scalar: `from..end`.
        let token = |end: usize| Token {
            kind: TokenKind::Scalar(Cow::Borrowed(&self.src[from..end]), ScalarStyle::Plain),
            start,
            end: Mark {
                offset: end,
                line: start.line,
                column: column(end),
            },
        };
        let on_line = |pos: usize| Mark {
            offset: pos,
            line: start.line,
            column: column(pos),
        };
        let mut pos = from + 1;
        loop {
            pos += swar::run_until(b, pos, &PLAIN_BLOCK_STOPS, plain_block_hits);
            let end = pos;
            match b.get(pos) {
                None => {
                    let t = token(end);
                    self.mark = on_line(end);
                    self.tokens.push_back(t);
                    return true;
                }
                Some(b':') if blankz(pos + 1) => {
                    let t = token(end);
                    self.mark = on_line(end);
                    self.tokens.push_back(t);
                    return true;
                }
                // A `:` inside: the loop takes it with the run after it.
                Some(b':') => pos += 1,
                Some(b' ') => {
                    let after = pos + swar::blanks(b, pos, false);
                    let ends = match b.get(after) {
                        None | Some(b'#') => true,
                        Some(b'\t' | b'\r' | b'\n' | 0x80..=0xFF) => return false,
                        Some(b':') if blankz(after + 1) => true,
                        Some(_) => column(after).cast_signed() < indent,
                    };
                    if ends {
                        let t = token(end);
                        self.mark = on_line(after);
                        self.tokens.push_back(t);
                        return true;
                    }
                    // The spaces and the next character belong to the scalar.
                    pos = after + 1;
                }
                Some(b'\n' | b'\r') => {
                    let next = if b[pos] == b'\r' && b.get(pos + 1) == Some(&b'\n') {
                        pos + 2
                    } else {
                        pos + 1
                    };
                    let spaces = swar::blanks(b, next, false);
                    let ends = match b.get(next + spaces) {
                        None => true,
                        Some(b'\t' | b'\r' | b'\n' | 0xC2 | 0xE2) => false,
                        Some(_) => spaces.cast_signed() < indent,
                    };
                    if !ends {
                        return false;
                    }
                    let t = token(end);
                    self.mark = Mark {
                        offset: next + spaces,
                        line: start.line + 1,
                        column: spaces,
                    };
                    self.simple_key_allowed = true;
                    self.tokens.push_back(t);
                    return true;
                }
                Some(_) => return false,
            }
        }
    }

    /// [`Self::plain_short`] in a flow collection: words of ASCII characters and runs of
    /// spaces on one line (its first character ASCII), ending at a `:` before a blank or the
    /// end (a simple key's), at a flow indicator (`,[]{}`, and in pure mode `?`), at spaces
    /// before a `#`, such a `:` or a flow indicator, or at the text's end. The general loop
    /// of [`Self::scan_plain_scalar`] stops at the same place with the same marks and value
    /// (no indentation counts in a flow collection); this queues the token and says `true`.
    /// `false`, the scanner untouched, for any other shape (tabs, line breaks, other
    /// characters, a `:` before a flow indicator or `?`, which libyaml refuses and the pure
    /// scanner reads otherwise).
    fn plain_short_flow(&mut self) -> bool {
        let start = self.mark;
        let from = start.offset;
        let b = self.b;
        let pure = self.pure;
        let stops = if pure {
            &PLAIN_FLOW_STOPS_PURE
        } else {
            &PLAIN_FLOW_STOPS
        };
        // Columns on the scalar's line, which is ASCII from its start to `pos`.
        let column = |pos: usize| start.column + (pos - from);
        let blankz = |pos: usize| match b.get(pos) {
            None | Some(b' ' | b'\t' | b'\r' | b'\n') => true,
            Some(0xC2) => b.get(pos + 1) == Some(&0x85),
            Some(0xE2) => {
                b.get(pos + 1) == Some(&0x80) && matches!(b.get(pos + 2), Some(0xA8 | 0xA9))
            }
            Some(_) => false,
        };
        let flow_indicator =
            |c: u8| matches!(c, b',' | b'[' | b']' | b'{' | b'}') || (pure && c == b'?');
        // What follows a `:` that the general loop reads otherwise (an error, or the pure
        // scanner's own rule).
        let odd_colon = |pos: usize| {
            matches!(
                b.get(pos + 1),
                Some(b',' | b'?' | b'[' | b']' | b'{' | b'}')
            )
        };
        let mut pos = from + 1;
        // Where the scalar ends and where the scanner stops (after spaces that end it).
        let (end, after) = loop {
            pos += swar::run_until(b, pos, stops, plain_flow_hits);
            match b.get(pos) {
                None => break (pos, pos),
                Some(b':') if blankz(pos + 1) => break (pos, pos),
                Some(b':') if odd_colon(pos) => return false,
                // A `:` inside: the loop takes it with the run after it.
                Some(b':') => pos += 1,
                Some(&c) if flow_indicator(c) => break (pos, pos),
                Some(b' ') => {
                    let after = pos + swar::blanks(b, pos, false);
                    match b.get(after) {
                        None | Some(b'#') => break (pos, after),
                        Some(b'\t' | b'\r' | b'\n' | 0x80..=0xFF) => return false,
                        Some(b':') if blankz(after + 1) => break (pos, after),
                        Some(b':') if odd_colon(after) => return false,
                        Some(&c) if flow_indicator(c) => break (pos, after),
                        // The spaces and the next character belong to the scalar.
                        Some(_) => pos = after + 1,
                    }
                }
                Some(_) => return false,
            }
        };
        self.tokens.push_back(Token {
            kind: TokenKind::Scalar(Cow::Borrowed(&self.src[from..end]), ScalarStyle::Plain),
            start,
            end: Mark {
                offset: end,
                line: start.line,
                column: column(end),
            },
        });
        self.mark = Mark {
            offset: after,
            line: start.line,
            column: column(after),
        };
        true
    }

    #[allow(
        clippy::too_many_lines,
        reason = "libyaml's function, kept whole to be read beside it"
    )]
    fn scan_plain_scalar(&mut self) -> Scan<Token<'a>> {
        let start = self.mark;
        let mut end = self.mark;
        let mut value = Buf::Empty;
        let mut trailing = std::mem::take(&mut self.trailing_breaks);
        trailing.clear();
        let mut leading_break: &'static str = "";
        // The blanks after the content so far, a slice of the text.
        let (mut ws_start, mut ws_end) = (0usize, 0usize);
        let mut leading_blanks = false;
        let indent = self.indent + 1;
        let stops = match (self.flow_level > 0, self.pure) {
            (false, _) => &PLAIN_BLOCK_STOPS,
            (true, false) => &PLAIN_FLOW_STOPS,
            (true, true) => &PLAIN_FLOW_STOPS_PURE,
        };
        let pure = self.pure;
        let flow = self.flow_level > 0;
        // A tab is white space to libyaml only (in pure mode this never matches a tab).
        let tab = if pure { b' ' } else { b'\t' };
        let result = (|| {
            loop {
                if self.is_document_indicator() || self.check(b'#') {
                    break;
                }
                while !self.is_blankz() {
                    let c = self.at(0);
                    if self.flow_level > 0
                        && c == b':'
                        && matches!(self.at(1), b',' | b'?' | b'[' | b']' | b'{' | b'}')
                    {
                        if !pure {
                            return Err(self.error(
                                Some("while scanning a plain scalar"),
                                start,
                                "found unexpected ':'",
                            ));
                        }
                        // `scan_plain`: in a flow collection a `:` before `,[]{}` ends the
                        // scalar (before `?` it does not; the `?` does).
                        if self.at(1) != b'?' {
                            break;
                        }
                    }
                    if (c == b':' && self.is_blankz_at(1))
                        || (self.flow_level > 0
                            && (matches!(c, b',' | b'[' | b']' | b'{' | b'}')
                                || (pure && c == b'?')))
                    {
                        break;
                    }
                    if leading_blanks || ws_start != ws_end {
                        if leading_blanks {
                            if leading_break == LF {
                                if trailing.is_empty() {
                                    value.push_char(self.src, ' ');
                                } else {
                                    value.push_str(self.src, &trailing);
                                    trailing.clear();
                                }
                            } else {
                                value.push_str(self.src, leading_break);
                                value.push_str(self.src, &trailing);
                                trailing.clear();
                            }
                            leading_break = "";
                            leading_blanks = false;
                        } else {
                            value.push_slice(self.src, ws_start, ws_end);
                        }
                        ws_start = ws_end;
                    }
                    // This character, and the run of ordinary ones after it.
                    let from = self.mark.offset;
                    self.skip();
                    let run = swar::run_until(self.b, self.mark.offset, stops, |x| {
                        if flow {
                            plain_flow_hits(x)
                        } else {
                            plain_block_hits(x)
                        }
                    });
                    self.mark.column += run;
                    self.mark.offset += run;
                    value.push_slice(self.src, from, self.mark.offset);
                    end = self.mark;
                }
                // The pure scanner takes no tab as white space: the scalar ends before it.
                let blank = |s: &Self| matches!(s.at(0), b' ') || s.at(0) == tab;
                if !(blank(self) || self.is_break()) {
                    break;
                }
                while blank(self) || self.is_break() {
                    if self.check(b' ') {
                        // A run of spaces at once (no check concerns a space).
                        let n = self.spaces();
                        if !leading_blanks {
                            if ws_start == ws_end {
                                ws_start = self.mark.offset;
                            }
                            ws_end = self.mark.offset + n;
                        }
                        self.mark.offset += n;
                        self.mark.column += n;
                    } else if self.is_blank() {
                        if leading_blanks
                            && self.mark.column.cast_signed() < indent
                            && self.check(b'\t')
                        {
                            return Err(self.error(
                                Some("while scanning a plain scalar"),
                                start,
                                "found a tab character that violates indentation",
                            ));
                        }
                        if leading_blanks {
                            self.skip();
                        } else {
                            if ws_start == ws_end {
                                ws_start = self.mark.offset;
                            }
                            self.skip();
                            ws_end = self.mark.offset;
                        }
                    } else if leading_blanks {
                        trailing.push_str(self.read_line());
                    } else {
                        ws_start = ws_end;
                        leading_break = self.read_line();
                        leading_blanks = true;
                    }
                }
                if self.flow_level == 0 && self.mark.column.cast_signed() < indent {
                    break;
                }
            }
            Ok(())
        })();
        self.trailing_breaks = trailing;
        result?;
        if leading_blanks {
            self.simple_key_allowed = true;
        }
        Ok(Token {
            kind: TokenKind::Scalar(value.into_cow(self.src), ScalarStyle::Plain),
            start,
            end,
        })
    }
}

/// Python's `repr()` of a one-character string, as the pure scanner's messages quote what they
/// found: `'\t'`, `'\x00'`, `"'"`, `'é'`. Python escapes a character its `str.isprintable`
/// refuses: the C0 and C1 controls, separators other than the space, format characters,
/// private use and surrogates (unassigned code points, which Python escapes too, are not
/// told apart here).
pub(crate) fn python_char_repr(c: char) -> String {
    let v = u32::from(c);
    let escaped = match c {
        '\\' => return "'\\\\'".to_owned(),
        '\'' => return "\"'\"".to_owned(),
        '\t' => return "'\\t'".to_owned(),
        '\n' => return "'\\n'".to_owned(),
        '\r' => return "'\\r'".to_owned(),
        _ => {
            v < 0x20
                || (0x7F..=0xA0).contains(&v)
                || v == 0xAD
                || matches!(
                    v,
                    0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890 | 0x891 | 0x8E2
                )
                || v == 0x1680
                || v == 0x180E
                || (0x2000..=0x200F).contains(&v)
                || (0x2028..=0x202F).contains(&v)
                || (0x205F..=0x206F).contains(&v)
                || v == 0x3000
                || (0xD800..=0xF8FF).contains(&v)
                || v == 0xFEFF
                || (0xFFF9..=0xFFFB).contains(&v)
                || (0xFFFE..=0xFFFF).contains(&v)
                || v >= 0xF_0000
                || matches!(v, 0x110BD | 0x110CD | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A)
                || v == 0xE0001
                || (0xE0020..=0xE007F).contains(&v)
        }
    };
    if !escaped {
        return format!("'{c}'");
    }
    if v < 0x100 {
        format!("'\\x{v:02x}'")
    } else if v < 0x10000 {
        format!("'\\u{v:04x}'")
    } else {
        format!("'\\U{v:08x}'")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Scanner::plain_short_flow`] reads what [`Scanner::scan_plain_scalar`] reads in a flow
    /// collection, to the same token, mark and simple-key state, or leaves the scanner
    /// untouched.
    #[test]
    fn a_plain_scalars_short_path_in_a_flow_reads_as_the_general_one() {
        let cases: &[(&str, bool)] = &[
            ("abc", true),
            ("abc, d]", true),
            ("abc]", true),
            ("a}", true),
            ("a{b", true),
            ("a[b", true),
            ("abc: d}", true),
            ("abc:\n", true),
            ("a:b, c", true),
            ("a:b:c d e ,f", true),
            ("get_param  : x}", true),
            ("a b c  d]", true),
            ("a b # c", true),
            ("a b  ", true),
            ("a-b?c, d", true),
            ("a ?b]", true),
            ("a? b]", true),
            ("a#b, c", true),
            ("-a, b", true),
            ("a\x01b]", true),
            ("a:, b", false),
            ("a:]", false),
            ("a:?", false),
            ("a :}", false),
            ("a\tb]", false),
            ("a \tb]", false),
            ("a\nb]", false),
            ("a \r\n b]", false),
            ("caf\u{e9}]", false),
            ("a \u{e9}]", false),
            ("a\u{85}b", false),
        ];
        for &(text, short) in cases {
            for pure in [false, true] {
                let mut fast = Scanner::new(text, pure);
                let mut slow = Scanner::new(text, pure);
                fast.increase_flow_level();
                slow.increase_flow_level();
                let general = slow.scan_plain_scalar();
                // In pure mode `?` ends a scalar: the shape is short in both modes all the same.
                assert_eq!(fast.plain_short_flow(), short, "{text:?} pure {pure}");
                if !short {
                    assert_eq!(fast.mark, Mark::default(), "{text:?}");
                    assert!(fast.tokens.is_empty(), "{text:?}");
                    continue;
                }
                let general = general.unwrap_or_else(|err| panic!("{text:?}: {err}"));
                let token = fast.tokens.pop_back().expect("a token");
                assert_eq!(token.kind, general.kind, "{text:?} pure {pure}");
                assert_eq!(
                    (token.start, token.end),
                    (general.start, general.end),
                    "{text:?} pure {pure}"
                );
                assert_eq!(fast.mark, slow.mark, "{text:?} pure {pure}");
                assert_eq!(fast.simple_key_allowed, slow.simple_key_allowed, "{text:?}");
            }
        }
    }

    /// [`Scanner::quoted_short`] reads what [`Scanner::scan_flow_scalar`] reads, to the same
    /// token and mark, or leaves the scanner untouched.
    #[test]
    fn a_quoted_scalars_short_path_reads_as_the_general_one() {
        let cases: &[(&str, bool)] = &[
            ("\"abc\"", true),
            ("'abc'", true),
            ("\"\"", true),
            ("''", true),
            ("\"a b  c ~!#:[]{},?*&|>%@`\" tail", true),
            ("'a \\ b \"c\"' tail", true),
            ("\"a 'b' c\"", true),
            ("'0123456789abcdefghijklmnop qrstuvwxyz'", true),
            ("\"0123456789abcdefghijklmnop qrstuvwxyz\"\n", true),
            ("'it''s'", false),
            ("'a'' '", false),
            ("\"a\\\"b\"", false),
            ("\"a\\nb\"", false),
            ("\"a\tb\"", false),
            ("'a\tb'", false),
            ("\"a\nb\"", false),
            ("'a\r\nb'", false),
            ("\"caf\u{e9}\"", false),
            ("'\u{feff}'", false),
            ("\"abc", false),
            ("'abc", false),
            ("\"abcdefghijklmnopqrstuvwxyz", false),
        ];
        for &(text, short) in cases {
            let single = text.starts_with('\'');
            for pure in [false, true] {
                let mut fast = Scanner::new(text, pure);
                let mut slow = Scanner::new(text, pure);
                let general = slow.scan_flow_scalar(single);
                assert_eq!(fast.quoted_short(single), short, "{text:?}");
                if !short {
                    assert_eq!(fast.mark, Mark::default(), "{text:?}");
                    assert!(fast.tokens.is_empty(), "{text:?}");
                    continue;
                }
                let general = general.unwrap_or_else(|err| panic!("{text:?}: {err}"));
                let token = fast.tokens.pop_back().expect("a token");
                assert!(fast.tokens.is_empty());
                assert_eq!(token.kind, general.kind, "{text:?}");
                assert_eq!(
                    (token.start, token.end),
                    (general.start, general.end),
                    "{text:?}"
                );
                assert_eq!(fast.mark, slow.mark, "{text:?}");
                assert!(matches!(token.kind, TokenKind::Scalar(Cow::Borrowed(_), _)));
            }
        }
    }
}
