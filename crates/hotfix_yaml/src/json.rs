//! JSON text → node tree, accepting exactly what Python's `json.loads` accepts.
//!
//! Heat tries `json.loads` before YAML, so a JSON template is read with JSON's rules
//! (`1e3` is the float 1000.0, not the string YAML 1.1 would make of it). Python's decoder also
//! accepts `NaN`, `Infinity` and `-Infinity`, rejects control characters inside strings, and
//! keeps the last of repeated keys.

use crate::document::{
    Document, Entry, Node, NodeId, NodeKind, Scalar, ScalarStyle, SourceFormat, Span, Style,
};
use crate::scalar::{Int, ScalarValue};

/// Nesting beyond this is treated as "not JSON" (YAML then reports it).
const MAX_JSON_DEPTH: usize = 200;

/// The document, or `None` when `json.loads` would raise (Heat then tries YAML).
pub(crate) fn parse(source: &str) -> Option<Document> {
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
        if self.peek() == Some(b'.') && matches!(self.src.get(self.pos + 1), Some(b'0'..=b'9')) {
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
