//! JSON text → node tree, accepting exactly what Python's `json.loads` accepts.
//!
//! Heat tries `json.loads` before YAML, so a JSON template is read with JSON's rules
//! (`1e3` is the float 1000.0, not the string YAML 1.1 would make of it). Python's decoder also
//! accepts `NaN`, `Infinity` and `-Infinity`, rejects control characters inside strings, and
//! keeps the last of repeated keys. The text is read by [`crate::json_loads`], the one reader
//! of `json.loads` every part of hotfix uses; this module numbers its nodes in the text's order.

use crate::document::{
    Document, Entry, Node, NodeId, NodeKind, Scalar, ScalarStyle, SourceFormat, Span, Style,
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
                items: Vec::new(),
                style: Style::Flow,
            }
        } else {
            NodeKind::Mapping {
                entries: Vec::new(),
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
            items,
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
mod old {
    use super::*;
    /// Nesting beyond this is treated as "not JSON" (YAML then reports it).
    const MAX_JSON_DEPTH: usize = 200;

    /// The document, or `None` when `json.loads` would raise (Heat then tries YAML).
    pub(super) fn parse(source: &str) -> Option<Document> {
        let mut parser = JsonParser {
            src: source.as_bytes(),
            text: source,
            pos: 0,
            // The document takes its copy of the text once the text has loaded: most templates
            // are YAML, and this parser gives up on them.
            doc: Document::new("", SourceFormat::Json),
            lone: false,
        };
        parser.skip_ws();
        // Fast exit for the common case: a YAML template starts with a key or a comment.
        if !matches!(
            parser.peek()?,
            b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' | b'N' | b'I'
        ) {
            return None;
        }
        let root = parser.value(0)?;
        parser.skip_ws();
        if parser.pos != parser.src.len() {
            return None;
        }
        parser.doc.root = Some(root);
        source.clone_into(&mut parser.doc.source);
        Some(parser.doc)
    }

    struct JsonParser<'s> {
        src: &'s [u8],
        text: &'s str,
        pos: usize,
        doc: Document,
        /// The string just read holds a lone surrogate escape (its scalar is marked).
        lone: bool,
    }

    impl JsonParser<'_> {
        fn peek(&self) -> Option<u8> {
            self.src.get(self.pos).copied()
        }

        fn skip_ws(&mut self) {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                self.pos += 1;
            }
        }

        fn eat(&mut self, byte: u8) -> bool {
            if self.peek() == Some(byte) {
                self.pos += 1;
                true
            } else {
                false
            }
        }

        fn eat_word(&mut self, word: &str) -> bool {
            if self.src[self.pos..].starts_with(word.as_bytes()) {
                self.pos += word.len();
                true
            } else {
                false
            }
        }

        fn scalar(
            &mut self,
            start: usize,
            text: String,
            style: ScalarStyle,
            value: ScalarValue,
        ) -> NodeId {
            let id = self.doc.push(Node {
                span: Span::new(start, self.pos),
                kind: NodeKind::Scalar(Scalar {
                    text: text.into(),
                    style,
                    value,
                }),
                anchor: None,
                tag: None,
            });
            if std::mem::take(&mut self.lone) {
                self.doc.surrogates.push(id);
            }
            id
        }

        fn value(&mut self, depth: usize) -> Option<NodeId> {
            if depth > MAX_JSON_DEPTH {
                return None;
            }
            let start = self.pos;
            match self.peek()? {
                b'{' => self.object(depth),
                b'[' => self.array(depth),
                b'"' => {
                    let text = self.string()?;
                    Some(self.scalar(start, text, ScalarStyle::DoubleQuoted, ScalarValue::Str))
                }
                b'n' if self.eat_word("null") => {
                    Some(self.scalar(start, "null".into(), ScalarStyle::Plain, ScalarValue::Null))
                }
                b't' if self.eat_word("true") => Some(self.scalar(
                    start,
                    "true".into(),
                    ScalarStyle::Plain,
                    ScalarValue::Bool(true),
                )),
                b'f' if self.eat_word("false") => Some(self.scalar(
                    start,
                    "false".into(),
                    ScalarStyle::Plain,
                    ScalarValue::Bool(false),
                )),
                b'N' if self.eat_word("NaN") => Some(self.scalar(
                    start,
                    "NaN".into(),
                    ScalarStyle::Plain,
                    ScalarValue::Float(f64::NAN),
                )),
                b'I' if self.eat_word("Infinity") => Some(self.scalar(
                    start,
                    "Infinity".into(),
                    ScalarStyle::Plain,
                    ScalarValue::Float(f64::INFINITY),
                )),
                b'-' if self.eat_word("-Infinity") => Some(self.scalar(
                    start,
                    "-Infinity".into(),
                    ScalarStyle::Plain,
                    ScalarValue::Float(f64::NEG_INFINITY),
                )),
                b'-' | b'0'..=b'9' => self.number(),
                _ => None,
            }
        }

        fn object(&mut self, depth: usize) -> Option<NodeId> {
            let start = self.pos;
            self.pos += 1;
            let id = self.doc.push(Node {
                span: Span::new(start, start),
                kind: NodeKind::Mapping {
                    entries: Vec::new(),
                    style: Style::Flow,
                },
                anchor: None,
                tag: None,
            });
            let mut entries = Vec::new();
            self.skip_ws();
            if !self.eat(b'}') {
                loop {
                    self.skip_ws();
                    if self.peek()? != b'"' {
                        return None;
                    }
                    let key_start = self.pos;
                    let key_text = self.string()?;
                    let key = self.scalar(
                        key_start,
                        key_text,
                        ScalarStyle::DoubleQuoted,
                        ScalarValue::Str,
                    );
                    self.skip_ws();
                    if !self.eat(b':') {
                        return None;
                    }
                    self.skip_ws();
                    let value = self.value(depth + 1)?;
                    entries.push(Entry { key, value });
                    self.skip_ws();
                    if self.eat(b'}') {
                        break;
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            let node = self.doc.node_mut(id);
            node.span = Span::new(start, self.pos);
            node.kind = NodeKind::Mapping {
                entries,
                style: Style::Flow,
            };
            Some(id)
        }

        fn array(&mut self, depth: usize) -> Option<NodeId> {
            let start = self.pos;
            self.pos += 1;
            let id = self.doc.push(Node {
                span: Span::new(start, start),
                kind: NodeKind::Sequence {
                    items: Vec::new(),
                    style: Style::Flow,
                },
                anchor: None,
                tag: None,
            });
            let mut items = Vec::new();
            self.skip_ws();
            if !self.eat(b']') {
                loop {
                    self.skip_ws();
                    items.push(self.value(depth + 1)?);
                    self.skip_ws();
                    if self.eat(b']') {
                        break;
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            let node = self.doc.node_mut(id);
            node.span = Span::new(start, self.pos);
            node.kind = NodeKind::Sequence {
                items,
                style: Style::Flow,
            };
            Some(id)
        }

        /// A string literal; the cursor is on the opening quote.
        fn string(&mut self) -> Option<String> {
            self.pos += 1;
            let mut out = String::new();
            loop {
                let run_start = self.pos;
                while let Some(b) = self.peek() {
                    if b == b'"' || b == b'\\' || b < 0x20 {
                        break;
                    }
                    self.pos += 1;
                }
                out.push_str(self.text.get(run_start..self.pos)?);
                match self.peek()? {
                    b'"' => {
                        self.pos += 1;
                        return Some(out);
                    }
                    b'\\' => {
                        self.pos += 1;
                        let escape = self.peek()?;
                        self.pos += 1;
                        match escape {
                            b'"' => out.push('"'),
                            b'\\' => out.push('\\'),
                            b'/' => out.push('/'),
                            b'b' => out.push('\u{8}'),
                            b'f' => out.push('\u{c}'),
                            b'n' => out.push('\n'),
                            b'r' => out.push('\r'),
                            b't' => out.push('\t'),
                            b'u' => out.push(self.unicode_escape()?),
                            _ => return None,
                        }
                    }
                    // A raw control character: `json.loads` (strict) rejects it.
                    _ => return None,
                }
            }
        }

        fn hex4(&mut self) -> Option<u32> {
            let digits = self.text.get(self.pos..self.pos + 4)?;
            if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            self.pos += 4;
            u32::from_str_radix(digits, 16).ok()
        }

        /// `\uXXXX`, combining a surrogate pair. A lone surrogate (which `json.loads` keeps in its
        /// string) is the stand-in [`crate::surrogate_char`] gives it, and the scalar is marked.
        fn unicode_escape(&mut self) -> Option<char> {
            let high = self.hex4()?;
            if (0xD800..0xDC00).contains(&high) && self.src[self.pos..].starts_with(b"\\u") {
                let before = self.pos;
                self.pos += 2;
                match self.hex4() {
                    Some(low) if (0xDC00..0xE000).contains(&low) => {
                        return char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
                    }
                    // Not a low surrogate: the next escape is read on its own.
                    _ => self.pos = before,
                }
            }
            if (0xD800..0xE000).contains(&high) {
                self.lone = true;
                return Some(crate::surrogate_char(high));
            }
            char::from_u32(high)
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`: an `int` unless it has a fraction or
        /// an exponent.
        fn number(&mut self) -> Option<NodeId> {
            let start = self.pos;
            self.eat(b'-');
            let digits = |p: &mut Self| {
                let s = p.pos;
                while matches!(p.peek(), Some(b'0'..=b'9')) {
                    p.pos += 1;
                }
                p.pos - s
            };
            if self.eat(b'0') {
                // A leading zero stands alone.
            } else if digits(self) == 0 {
                return None;
            }
            let mut float = false;
            if self.peek() == Some(b'.') && matches!(self.src.get(self.pos + 1), Some(b'0'..=b'9'))
            {
                self.pos += 1;
                digits(self);
                float = true;
            }
            if matches!(self.peek(), Some(b'e' | b'E')) {
                let save = self.pos;
                self.pos += 1;
                if matches!(self.peek(), Some(b'-' | b'+')) {
                    self.pos += 1;
                }
                if digits(self) == 0 {
                    self.pos = save;
                } else {
                    float = true;
                }
            }
            let text = &self.text[start..self.pos];
            if !float && crate::scalar::within_digit_limit(text.trim_start_matches('-')).is_err() {
                // `json.loads` raises; Heat then reads the text as YAML, whose `int()` raises too.
                return None;
            }
            let value = if float {
                ScalarValue::Float(text.parse().ok()?)
            } else {
                // Python's int(): `-0` is 0; beyond i64 the digits are kept as written.
                ScalarValue::Int(
                    text.parse::<i64>()
                        .map_or_else(|_| Int::Big(text.to_owned()), Int::Small),
                )
            };
            let text = text.to_owned();
            Some(self.scalar(start, text, ScalarStyle::Plain, value))
        }
    }
}

#[cfg(test)]
mod differential {
    use proptest::prelude::*;

    fn snapshot(doc: &super::Document) -> String {
        format!(
            "{:?}\n{:?}\n{:?}\n{:?}",
            doc.nodes, doc.root, doc.surrogates, doc.source
        )
    }

    fn same(text: &str) {
        let old = super::old::parse(text).map(|d| snapshot(&d));
        let new = super::parse(text).map(|d| snapshot(&d));
        assert_eq!(old, new, "{text:?}");
    }

    const TOKENS: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "\n",
        "\t",
        "\"a\"",
        "\"\\u00e9\"",
        "\"\\ud800\"",
        "\"\\udc00\\ud800\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ud800\\u0041\"",
        "\"é\"",
        "1",
        "-0",
        "0",
        "01",
        "1.5e3",
        "1.",
        "1e",
        "-",
        "NaN",
        "-Infinity",
        "Infinity",
        "true",
        "false",
        "null",
        "nul",
        "\"",
        "\\",
        "\\u",
        "\\ud800",
        "\u{7}",
        "x",
        "é",
        "\u{feff}",
        "\"\\n\"",
        "\"\\q\"",
        "\"a\tb\"",
        "2E-2",
        "123456789012345678901234567890",
    ];

    fn value() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(TOKENS).prop_map(str::to_owned);
        leaf.prop_recursive(6, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec(
                    (
                        prop::sample::select(&["\"k\"", "\"\\ud800\"", "\"é\"", "k"][..]),
                        inner
                    ),
                    0..5
                )
                .prop_map(|v| {
                    let entries: Vec<String> =
                        v.into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
                    format!("{{{}}}", entries.join(", "))
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn token_soup_reads_as_before(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..24)) {
            same(&tokens.concat());
        }

        #[test]
        fn structures_read_as_before(text in value(), cut in 0usize..200) {
            same(&text);

            // And every prefix: the unterminated texts.
            let cut = text.char_indices().map(|(i, _)| i).nth(cut).unwrap_or(text.len());
            same(&text[..cut]);
        }
    }

    #[test]
    fn every_json_file_reads_as_before() {
        let (mut seen, mut json) = (0, 0);
        for root in ["../../testdata", "../../../shared/corpus"] {
            for entry in ignore::WalkBuilder::new(root).build().flatten() {
                let path = entry.path();
                if !path.is_file() {
                    continue;
                }
                if let Ok(text) = std::fs::read_to_string(path) {
                    same(&text);
                    seen += 1;
                    json += usize::from(super::parse(&text).is_some());
                }
            }
        }
        assert!(seen > 100 && json > 50, "{seen} files, {json} JSON");
        eprintln!("{seen} files, {json} JSON");
    }

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
        // The old reader took 201 when the innermost was empty: the one text read otherwise.
        assert!(super::old::parse(&format!("{}{}", "[".repeat(201), "]".repeat(201))).is_some());
    }
}
