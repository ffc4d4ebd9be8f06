//! Why a text could not be loaded.

use crate::document::Span;

/// What kind of problem stopped loading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// Over Heat's `max_template_size`.
    TooLarge,
    /// A NUL byte: not text.
    Binary,
    /// Not valid UTF-8.
    NotUtf8,
    /// Neither JSON nor valid YAML (PyYAML's scanner, parser or composer would fail).
    Syntax,
    /// Valid YAML that PyYAML cannot turn into values (an unknown tag, `!!int abc`, an
    /// unhashable key, a merge of a non-mapping, a recursive alias).
    Construct,
    /// More than one YAML document in the stream.
    MultipleDocuments,
    /// Nothing but comments and white space (or a lone `null`).
    Empty,
    /// The top level is a list or a scalar.
    NotMapping,
    /// Aliases would expand to more nodes than any template needs (an "alias bomb").
    AliasBomb,
    /// Collections nested deeper than [`crate::MAX_DEPTH`].
    TooDeep,
}

/// A loading failure with a message a user can act on and, where known, where it happened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LoadError {
    pub kind: LoadErrorKind,
    pub message: String,
    pub span: Option<Span>,
    /// Not a `yaml.YAMLError` in Heat's loader (a `ValueError` of `int()`, a `KeyError` of the
    /// boolean table, a recursive value, hotfix's own limits): where libyaml's rules fail so,
    /// Heat does not read the text again with PyYAML's pure-Python loader.
    pub(crate) final_: bool,
}

impl LoadError {
    /// `path:line:col: message` (the line and the column in characters, 1-based), or
    /// `path: message` without a place. `bytes` are the file's: binary and non-UTF-8 input has
    /// no text to count lines in, but the bytes up to the error do.
    #[must_use]
    pub fn located(&self, path: &str, bytes: &[u8]) -> String {
        let Some(span) = self.span else {
            return format!("{path}: {}", self.message);
        };
        let prefix = String::from_utf8_lossy(&bytes[..span.start.min(bytes.len())]);
        let line = prefix.matches('\n').count() + 1;
        let col = prefix.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{path}:{line}:{col}: {}", self.message)
    }

    pub fn new(kind: LoadErrorKind, message: String, span: Option<Span>) -> Self {
        let final_ = matches!(kind, LoadErrorKind::AliasBomb | LoadErrorKind::TooDeep);
        Self {
            kind,
            message,
            span,
            final_,
        }
    }

    /// The same refusal, marked as one Heat's `simple_parse` does not answer with its second
    /// loader (not a `yaml.YAMLError`).
    #[must_use]
    pub(crate) fn not_yaml_error(mut self) -> Self {
        self.final_ = true;
        self
    }

    /// Whether Heat reads the text again with PyYAML's pure-Python loader after this refusal
    /// of libyaml's rules (`simple_parse` catches `yaml.YAMLError`).
    pub(crate) fn retried(&self) -> bool {
        !self.final_
    }
}
