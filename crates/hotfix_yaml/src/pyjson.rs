//! The value view printed exactly as the template reaches Heat: what PyYAML loaded, encoded as
//! `openstack stack create` sends it. python-heatclient encodes its request with
//! oslo.serialization's `jsonutils.dumps`, which is `json.dumps` with `to_primitive` for what
//! JSON lacks: `!!binary` bytes decoded as UTF-8, a `!!set` as the list of its members, a date
//! of PyYAML's pure-Python loader as text ([`crate::timestamp`]). A mapping key of one of those
//! types ends the request (`keys must be str, int, float, bool or None`), as do bytes that are
//! not UTF-8 ([`Document::settle_wire`] refuses both when the document loads).
//!
//! `json.dumps` defaults: `", "` and `": "` separators, `ensure_ascii=True` (every character
//! outside space..`~` escaped, lower-case hex, surrogate pairs above U+FFFF), `allow_nan=True`
//! (`NaN`, `Infinity`), floats by `float.__repr__`, and non-string keys converted (`true`,
//! `null`, `1`, `1.5`).

use std::fmt::Write;

use crate::document::{Document, NodeId, NodeKind};
use crate::error::{LoadError, LoadErrorKind};
use crate::scalar::ScalarValue;

impl Document {
    /// The whole document as `json.dumps(yaml.load(text, Loader=heat_yaml_loader))` prints it.
    ///
    /// # Errors
    /// None for a document that [`crate::parse`] returned (it refuses what the encoder cannot
    /// send); the `Result` stays for the documents built otherwise.
    pub fn to_python_json(&self) -> Result<String, LoadError> {
        self.node_to_python_json(self.root())
    }

    /// One node (and what it contains) as `json.dumps` prints it.
    ///
    /// # Errors
    /// As [`Document::to_python_json`].
    pub fn node_to_python_json(&self, id: NodeId) -> Result<String, LoadError> {
        let mut out = String::with_capacity(self.source.len());
        self.write_json(id, &mut out)?;
        Ok(out)
    }

    fn write_json(&self, id: NodeId, out: &mut String) -> Result<(), LoadError> {
        let id = self.resolve(id);
        let node = self.node(id);
        match &node.kind {
            NodeKind::Scalar(scalar) => match &scalar.value {
                ScalarValue::Null => out.push_str("null"),
                ScalarValue::Bool(true) => out.push_str("true"),
                ScalarValue::Bool(false) => out.push_str("false"),
                ScalarValue::Int(n) => {
                    let _ = write!(out, "{n}");
                }
                ScalarValue::Float(f) => out.push_str(&python_float_repr(*f)),
                // A `!!binary` scalar's text is its bytes decoded as UTF-8 by then
                // ([`Document::settle_wire`]).
                ScalarValue::Str
                | ScalarValue::ValueKey
                | ScalarValue::Merge
                | ScalarValue::Binary => {
                    if self.holds_lone_surrogates(id) {
                        write_json_string_with_surrogates(&scalar.text, out);
                    } else {
                        write_json_string(&scalar.text, out);
                    }
                }
            },
            NodeKind::Sequence { items, .. } => {
                let pairs = self.has_tag(id, "omap") || self.has_tag(id, "pairs");
                out.push('[');
                for (i, &item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    if pairs {
                        // `!!omap` / `!!pairs`: a list of (key, value) tuples.
                        for entry in self.raw_entries(item).unwrap_or_default() {
                            out.push('[');
                            self.write_json(entry.key, out)?;
                            out.push_str(", ");
                            self.write_json(entry.value, out)?;
                            out.push(']');
                        }
                    } else {
                        self.write_json(item, out)?;
                    }
                }
                out.push(']');
            }
            NodeKind::Mapping { .. } => {
                if self.has_tag(id, "set") {
                    // `to_primitive` lists a set's members (document order here: Python's own
                    // order of a set of strings changes from one run to the next).
                    out.push('[');
                    for (i, entry) in self.entries(id).into_iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.write_json(entry.key, out)?;
                    }
                    out.push(']');
                    return Ok(());
                }
                out.push('{');
                for (i, entry) in self.entries(id).into_iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_json_key(entry.key, out)?;
                    out.push_str(": ");
                    self.write_json(entry.value, out)?;
                }
                out.push('}');
            }
            // `resolve` above never returns an alias.
            NodeKind::Alias { .. } => {}
        }
        Ok(())
    }

    /// Makes the document what the command line sends ([`crate::pyjson`]): each `!!binary`
    /// scalar's text becomes its bytes decoded as UTF-8, and the value is refused where the
    /// encoder fails: bytes that are not UTF-8, or a mapping key that is bytes or a date. Only
    /// what the loaded value holds counts (a repeated key's earlier value is gone by then).
    ///
    /// # Errors
    /// The encoder's refusal, at the node it fails on.
    pub(crate) fn settle_wire(&mut self) -> Result<(), LoadError> {
        let mut undecodable = Vec::new();
        let mut decoded = Vec::new();
        let mut too_long = false;
        for (id, node) in self.ids() {
            too_long |= self.too_long_int(id);
            if let NodeKind::Scalar(scalar) = &node.kind
                && scalar.value == ScalarValue::Binary
                && let Ok(bytes) = crate::scalar::decode_base64(&scalar.text)
            {
                match String::from_utf8(bytes) {
                    Ok(text) => decoded.push((id, text)),
                    Err(err) => undecodable.push((id, err.utf8_error())),
                }
            }
        }
        if decoded.is_empty() && undecodable.is_empty() && self.dates.is_empty() && !too_long {
            return Ok(());
        }
        for (id, text) in decoded {
            if let NodeKind::Scalar(scalar) = &mut self.nodes[id.index()].kind {
                scalar.text = text.into();
            }
        }
        let Some(root) = self.root else {
            return Ok(());
        };
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            let id = self.resolve(id);
            if std::mem::replace(&mut seen[id.index()], true) {
                continue;
            }
            let node = self.node(id);
            match &node.kind {
                NodeKind::Scalar(_) => {
                    if self.too_long_int(id) {
                        return Err(too_long_int_error(node.span));
                    }
                    if let Some((_, err)) = undecodable.iter().find(|(at, _)| *at == id) {
                        return Err(LoadError::new(
                            LoadErrorKind::Construct,
                            format!(
                                "'utf-8' codec can't decode this !!binary value ({err}): \
                                 `openstack stack create` sends a template as JSON, and these \
                                 bytes are not text"
                            ),
                            Some(node.span),
                        )
                        .not_yaml_error());
                    }
                }
                NodeKind::Sequence { items, .. } => {
                    if self.has_tag(id, "omap") || self.has_tag(id, "pairs") {
                        for &item in items {
                            for entry in self.raw_entries(item).unwrap_or_default() {
                                stack.extend([entry.key, entry.value]);
                            }
                        }
                    } else {
                        stack.extend(items.iter().copied());
                    }
                }
                NodeKind::Mapping { .. } if self.has_tag(id, "set") => {
                    stack.extend(self.entries(id).into_iter().map(|e| e.key));
                }
                NodeKind::Mapping { .. } => {
                    for entry in self.entries(id) {
                        self.check_wire_key(entry.key)?;
                        stack.push(entry.value);
                    }
                }
                NodeKind::Alias { .. } => {}
            }
        }
        Ok(())
    }

    /// Whether the node is an integer of more decimal digits than Python writes
    /// (`sys.get_int_max_str_digits()`): one given in another base, which `int()` reads
    /// whatever its length, and which `json.dumps` then cannot write.
    fn too_long_int(&self, id: NodeId) -> bool {
        match self.scalar(id).map(|s| &s.value) {
            Some(ScalarValue::Int(crate::Int::Big(digits))) => {
                digits.trim_start_matches('-').len() > crate::scalar::INT_MAX_STR_DIGITS
            }
            Some(ScalarValue::Int(crate::Int::Huge)) => true,
            _ => false,
        }
    }

    /// `json.dumps` takes a str, int, float, bool or None as a key, and nothing else.
    fn check_wire_key(&self, key: NodeId) -> Result<(), LoadError> {
        let key = self.resolve(key);
        if self.too_long_int(key) {
            return Err(too_long_int_error(self.node(key).span));
        }
        let what = match self.scalar(key) {
            Some(scalar) if scalar.value == ScalarValue::Binary => "bytes",
            Some(_) => match self.dates.iter().find(|(at, _)| *at == key) {
                Some((_, kind)) => kind,
                None => return Ok(()),
            },
            None => return Ok(()),
        };
        Err(LoadError::new(
            LoadErrorKind::Construct,
            format!(
                "keys must be str, int, float, bool or None, not {what}: `openstack stack \
                 create` sends a template as JSON, and this key cannot be one of its keys"
            ),
            Some(self.node(key).span),
        )
        .not_yaml_error())
    }

    fn write_json_key(&self, id: NodeId, out: &mut String) -> Result<(), LoadError> {
        let Some(scalar) = self.scalar(id) else {
            return self.write_json(id, out);
        };
        match &scalar.value {
            ScalarValue::Null => out.push_str("\"null\""),
            ScalarValue::Bool(b) => out.push_str(if *b { "\"true\"" } else { "\"false\"" }),
            ScalarValue::Int(n) => {
                let _ = write!(out, "\"{n}\"");
            }
            ScalarValue::Float(f) => {
                let _ = write!(out, "\"{}\"", python_float_repr(*f));
            }
            _ => return self.write_json(id, out),
        }
        Ok(())
    }
}

/// `json.dumps`'s error for an integer of more decimal digits than Python writes.
fn too_long_int_error(span: crate::Span) -> LoadError {
    LoadError::new(
        LoadErrorKind::Construct,
        format!(
            "Exceeds the limit ({} digits) for integer string conversion; use \
             sys.set_int_max_str_digits() to increase the limit: `openstack stack create` sends \
             a template as JSON, and cannot write this integer",
            crate::scalar::INT_MAX_STR_DIGITS
        ),
        Some(span),
    )
    .not_yaml_error()
}

/// `json.dumps` of a `str` with `ensure_ascii=True`, appended to `out`.
pub fn write_json_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// [`write_json_string`] of a scalar's text that holds lone surrogates: each stand-in
/// ([`crate::surrogate_char`]) is written as the surrogate it stands for, `\ud83d`.
fn write_json_string_with_surrogates(text: &str, out: &mut String) {
    let mut plain = String::with_capacity(text.len());
    let mut written = String::with_capacity(text.len() + 2);
    written.push('"');
    for c in text.chars() {
        if let Some(code) = crate::surrogate_of(c) {
            let mut part = String::new();
            write_json_string(&plain, &mut part);
            written.push_str(&part[1..part.len() - 1]);
            plain.clear();
            let _ = write!(written, "\\u{code:04x}");
        } else {
            plain.push(c);
        }
    }
    let mut part = String::new();
    write_json_string(&plain, &mut part);
    written.push_str(&part[1..]);
    out.push_str(&written);
}

/// Whether Python's `str.isprintable()` refuses the character, so that `repr()` escapes it
/// (the table of the Python Heat runs: [`crate::unprintable`]).
fn unprintable(c: char) -> bool {
    let n = u32::from(c);
    if (0x20..0x7f).contains(&n) {
        return false;
    }
    crate::unprintable::UNPRINTABLE
        .binary_search_by(|&(first, last)| {
            if last < n {
                std::cmp::Ordering::Less
            } else if first > n {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Python's `repr()` of a `str`: single quotes unless the text has a `'` and no `"`;
/// backslash escapes for the quote, `\\`, `\n`, `\r`, `\t`, and `\xhh`, `\uhhhh` or
/// `\Uhhhhhhhh` for every other character Python calls not printable.
pub fn python_str_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if unprintable(c) => {
                let _ = match u32::from(c) {
                    n if n < 0x100 => write!(out, "\\x{n:02x}"),
                    n if n < 0x1_0000 => write!(out, "\\u{n:04x}"),
                    n => write!(out, "\\U{n:08x}"),
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python's `repr()` (and `str()`) of a `float`: `nan`, `inf`, `-inf`, else the digits of
/// [`python_float_repr`].
pub fn python_float_str(value: f64) -> String {
    if value.is_nan() {
        "nan".to_owned()
    } else if value.is_infinite() {
        if value > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        python_float_repr(value)
    }
}

/// A `float` as `json.dumps` writes it: `repr(float)` (the shortest digits that round-trip, in
/// fixed notation when the decimal exponent is in `-4..16`, otherwise `d.ddde+XX`), with the
/// non-finite values as `NaN`, `Infinity` and `-Infinity` ([`python_float_str`] has Python's
/// own `nan`, `inf`).
pub fn python_float_repr(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    // Rust's `{:e}` prints the shortest round-trip digits: `-1.2345e-7`, `1e16`.
    let sci = format!("{value:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if (-4..16).contains(&exponent) {
        let point = exponent + 1; // digits before the decimal point
        if point <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
            out.push_str(&digits);
        } else {
            let point = point.unsigned_abs() as usize;
            if digits.len() <= point {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', point - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..point]);
                out.push('.');
                out.push_str(&digits[point..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exponent.unsigned_abs());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_floats_as_python_repr() {
        let cases = [
            (1000.0, "1000.0"),
            (0.5, "0.5"),
            (-0.0, "-0.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1.5e300, "1.5e+300"),
            (3.14159e-10, "3.14159e-10"),
            (123_456.789, "123456.789"),
            (1e-7, "1e-07"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (f64::NAN, "NaN"),
            (0.1 + 0.2, "0.30000000000000004"),
        ];
        for (value, expected) in cases {
            assert_eq!(python_float_repr(value), expected, "{value}");
        }
        assert_eq!(python_float_str(f64::NAN), "nan");
        assert_eq!(python_float_str(f64::NEG_INFINITY), "-inf");
        assert_eq!(python_float_str(1e16), "1e+16");
    }

    #[test]
    fn escapes_strings_as_json_dumps_with_ensure_ascii() {
        let mut out = String::new();
        write_json_string("a\"b\\c\n\u{1}é𝄞\u{7f}", &mut out);
        assert_eq!(out, r#""a\"b\\c\n\u0001\u00e9\ud834\udd1e\u007f""#);
    }
}
