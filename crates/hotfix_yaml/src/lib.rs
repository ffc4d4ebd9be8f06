//! Loading Heat templates exactly as Heat loads them, with a byte span on everything.
//!
//! Heat reads a template with `heat.common.template_format.parse`: a size check, then
//! `json.loads`, and if that fails PyYAML's YAML 1.1 loader (with timestamps kept as the
//! original string; where libyaml refuses the text, PyYAML's pure-Python loader). This crate
//! reproduces that pipeline and keeps what PyYAML throws away: the byte range of every node,
//! every mapping key, every comment, and repeated keys. Values are those the template reaches
//! Heat with when `openstack stack create` sends it as JSON (`!!binary` as UTF-8 text, a
//! `!!set` as a list, a pure-loader date as `2002-01-02`); what that encoding cannot send is
//! refused when the document loads.
//!
//! ```
//! let doc = hotfix_yaml::parse("heat_template_version: 2016-10-14\non: 012\n").unwrap();
//! assert_eq!(doc.to_python_json().unwrap(), r#"{"heat_template_version": "2016-10-14", "true": 10}"#);
//! ```
//!
//! The tree ([`Document`]) keeps every entry as written; the *value view*
//! ([`Document::entries`], [`Document::get`], [`Document::to_python_json`]) follows PyYAML:
//! merge keys are expanded, and of repeated keys the last value wins while the key keeps the
//! position of its first occurrence.

mod build;
mod comments;
mod document;
mod error;
mod json;
pub mod json_loads;
mod lines;
mod pyjson;
pub mod reader;
mod scalar;
mod timestamp;
mod unprintable;
mod value;

pub use document::{
    Child, Children, Comment, Document, Entry, Node, NodeId, NodeKind, Scalar, ScalarStyle,
    SourceFormat, Span, Style, Tag, Text,
};
pub use error::{LoadError, LoadErrorKind};
pub use lines::{LineCol, LineIndex};
pub use pyjson::{python_float_repr, python_float_str, python_str_repr, write_json_string};
pub use scalar::{Int, ScalarValue, resolve_plain};
pub use value::{Entries, EntriesIter, KeyRepr};

/// The character that stands for the lone surrogate `code` (U+D800..U+DFFF) in a scalar
/// [`Document::holds_lone_surrogates`] marks: U+10F000 + (`code` − U+D800), in the last plane's
/// private use area. PyYAML's pure loader keeps a lone surrogate escape (`"\ud83d"`) in its
/// Python string, which a Rust string cannot hold; Heat's `json.dumps` writes it `\ud83d`, as
/// [`Document::to_python_json`] does.
#[must_use]
pub fn surrogate_char(code: u32) -> char {
    char::from_u32(0x10_F000 + (code.saturating_sub(0xD800) & 0x7FF)).unwrap_or('\u{fffd}')
}

/// The lone surrogate a character of a marked scalar stands for ([`surrogate_char`]).
#[must_use]
pub fn surrogate_of(c: char) -> Option<u32> {
    let c = u32::from(c);
    (0x10_F000..0x10_F800)
        .contains(&c)
        .then(|| 0xD800 + (c - 0x10_F000))
}

/// Heat's default `max_template_size`, in characters (Heat's message says bytes).
pub const MAX_TEMPLATE_SIZE: usize = 524_288;

/// How deep collections may nest, counting through aliases. PyYAML recurses once per level
/// and stops near Python's recursion limit of 1,000; no real template comes close.
pub const MAX_DEPTH: usize = 500;

/// Parses a template the way Heat's `template_format.parse` does, without the version check.
///
/// The source must already be text: callers reject binary and non-UTF-8 files with
/// [`check_bytes`]. The size limit is Heat's (`max_template_size`, counted in characters).
///
/// # Errors
/// Returns a [`LoadError`] for text Heat would refuse to load: too large, invalid JSON and
/// YAML, a value PyYAML cannot construct, an empty document, a top level that is not a mapping,
/// and for inputs whose expansion would exhaust memory (alias bombs, absurd nesting).
pub fn parse(source: &str) -> Result<Document, LoadError> {
    check_size(source)?;
    parse_unlimited(source)
}

/// Like [`parse`], but without Heat's template size limit.
///
/// # Errors
/// As [`parse`], except for the size limit.
pub fn parse_unlimited(source: &str) -> Result<Document, LoadError> {
    let doc = match json::parse(source) {
        Some(mut doc) => {
            value::check(&mut doc)?;
            doc
        }
        None => build::load(source)?,
    };
    doc.check_top_level()?;
    Ok(doc)
}

/// [`parse_unlimited`]: the name the tree built on hotfix's own reader had while a second
/// parser was the default (issue 29); kept for the tests and benches that still say it.
///
/// # Errors
/// As [`parse_unlimited`].
#[doc(hidden)]
pub fn parse_with_reader(source: &str) -> Result<Document, LoadError> {
    parse_unlimited(source)
}

/// Loads an environment file as Heat's `environment_format.parse` does: the template loader,
/// then an empty or null document is an empty environment (`None`), and any other top level
/// than a mapping fails with Heat's text.
///
/// # Errors
/// Invalid JSON or YAML, a value PyYAML cannot construct, an alias bomb, a top level that is
/// not a mapping.
pub fn parse_environment(source: &str) -> Result<Option<Document>, LoadError> {
    let doc = match json::parse(source) {
        Some(mut doc) => {
            value::check(&mut doc)?;
            doc
        }
        None => build::load(source)?,
    };
    match doc.check_top_level() {
        Ok(()) => Ok(Some(doc)),
        Err(err) if err.kind == LoadErrorKind::Empty => Ok(None),
        Err(err) => Err(LoadError::new(
            LoadErrorKind::NotMapping,
            "The environment is not a valid YAML mapping data type.".to_owned(),
            err.span,
        )),
    }
}

/// Fails when a template is over Heat's size limit, with Heat's own message.
///
/// # Errors
/// [`LoadErrorKind::TooLarge`] when `source` has more than [`MAX_TEMPLATE_SIZE`] characters.
pub fn check_size(source: &str) -> Result<(), LoadError> {
    // Counting characters is only needed when the byte length could exceed the limit.
    if source.len() <= MAX_TEMPLATE_SIZE {
        return Ok(());
    }
    let chars = source.chars().count();
    if chars > MAX_TEMPLATE_SIZE {
        return Err(too_large(chars, true));
    }
    Ok(())
}

/// Heat's error for a template of `chars` characters, over its size limit; `exact: false` when
/// `chars` is only a lower bound (an input too large to be counted to its end).
pub fn too_large(chars: usize, exact: bool) -> LoadError {
    let size = if exact {
        chars.to_string()
    } else {
        format!("more than {chars}")
    };
    LoadError::new(
        LoadErrorKind::TooLarge,
        format!(
            "Request limit exceeded: Template size ({size} bytes) exceeds maximum allowed size ({MAX_TEMPLATE_SIZE} bytes)."
        ),
        None,
    )
}

/// Turns raw file bytes into text, refusing binary files and invalid UTF-8 with one clear
/// message each.
///
/// # Errors
/// [`LoadErrorKind::Binary`] when the bytes contain a NUL byte, and
/// [`LoadErrorKind::NotUtf8`] when they are not valid UTF-8.
pub fn check_bytes(bytes: &[u8]) -> Result<&str, LoadError> {
    // Heat's client decodes the file as UTF-8 first (a NUL byte is valid UTF-8, refused by the
    // YAML reader after that); a file with NUL bytes that is no UTF-16 text is called binary.
    let utf16 = bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]);
    let decoded = std::str::from_utf8(bytes);
    if let (Err(err), true) = (&decoded, utf16) {
        return Err(not_utf8(bytes, err, utf16));
    }
    if let Some(at) = memchr_nul(bytes) {
        return Err(LoadError::new(
            LoadErrorKind::Binary,
            format!("this is a binary file (NUL byte at offset {at}), not a template"),
            Some(Span::new(at, at + 1)),
        ));
    }
    decoded.map_err(|err| not_utf8(bytes, &err, utf16))
}

/// The error for bytes that are not UTF-8, with the text of Python's decoder that Heat's client
/// prints (`'utf-8' codec can't decode byte 0xe9 in position 50: invalid continuation byte`).
fn not_utf8(bytes: &[u8], err: &std::str::Utf8Error, utf16: bool) -> LoadError {
    let at = err.valid_up_to();
    let byte = bytes[at];
    let reason = if err.error_len().is_none() {
        "unexpected end of data"
    } else if (0xC2..=0xF4).contains(&byte) {
        "invalid continuation byte"
    } else {
        "invalid start byte"
    };
    let encoding = if utf16 {
        " (it is UTF-16: save it as UTF-8)"
    } else {
        ""
    };
    LoadError::new(
        LoadErrorKind::NotUtf8,
        format!(
            "the file is not valid UTF-8{encoding}; Heat's client refuses it: `'utf-8' codec \
             can't decode byte 0x{byte:02x} in position {at}: {reason}`"
        ),
        Some(Span::new(
            at,
            (at + err.error_len().map_or(1, usize::from)).min(bytes.len()),
        )),
    )
}

fn memchr_nul(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(0, bytes)
}
