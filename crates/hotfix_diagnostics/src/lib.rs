//! Diagnostics, edits and fixes, and how they are shown.
//!
//! This is the only crate that knows `miette`: rules build [`Diagnostic`]s; the binary asks
//! this crate to render them as graphical code frames ([`render_human`]) or one line each
//! ([`render_concise`]).

mod escape;
mod json;
mod render;
mod view;

use std::sync::Arc;

pub use escape::{
    MESSAGE_LINE, escape, escape_line, escaped_char, for_terminal, for_terminal_line, is_unsafe,
};
pub use hotfix_yaml::Span;
pub use json::json_finding;
pub use render::{
    Location, RenderOptions, location, render_concise, render_human, render_human_indexed,
};

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// A secondary span with a short explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A secondary span in another file than the finding's: the nested template whose parameters
/// a parent's property must match, the environment that maps a type. The file's text travels
/// with the label (shared, not copied), so that every output can place the span without
/// reading the file again; findings with such a label are rare, and reading the other file when
/// one is reported costs nothing the run notices.
#[derive(Clone, PartialEq, Eq)]
pub struct FileLabel {
    /// The other file's path as the run names it (relative to the working folder, or
    /// absolute), with `/` separators.
    pub path: Arc<str>,
    /// The other file's text.
    pub source: Arc<str>,
    /// The bytes of `source` the label is about.
    pub span: Span,
    pub message: String,
}

impl std::fmt::Debug for FileLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The text is the file's: its length says enough.
        f.debug_struct("FileLabel")
            .field("path", &self.path)
            .field("source_len", &self.source.len())
            .field("span", &self.span)
            .field("message", &self.message)
            .finish()
    }
}

/// Whether applying a fix keeps the template's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// Shown as a suggestion only.
    DisplayOnly,
    /// May change what Heat computes; applied only when the user opts in.
    Unsafe,
    /// Proven not to change what Heat computes.
    Safe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::DisplayOnly => "display-only",
            Applicability::Unsafe => "unsafe",
            Applicability::Safe => "safe",
        }
    }
}

/// Replace the bytes of `span` in the original text with `content`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub content: String,
}

impl Edit {
    pub fn replace(span: Span, content: impl Into<String>) -> Edit {
        Edit {
            span,
            content: content.into(),
        }
    }

    pub fn delete(span: Span) -> Edit {
        Edit::replace(span, "")
    }

    pub fn insert(at: usize, content: impl Into<String>) -> Edit {
        Edit::replace(Span::new(at, at), content)
    }
}

/// Non-overlapping edits that together fix one finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, e.g. "Replace `Fn::Join` with `list_join`".
    pub message: String,
    pub edits: Vec<Edit>,
    pub applicability: Applicability,
}

/// One finding: what is wrong, where, and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code, e.g. `H301`.
    pub code: &'static str,
    /// Stable kebab-case name, e.g. `undefined-parameter`.
    pub name: &'static str,
    pub severity: Severity,
    /// What is wrong, in one line.
    pub message: String,
    /// Where.
    pub span: Span,
    /// A short note on the primary span.
    pub label: Option<String>,
    /// Other places that matter, in the same file.
    pub labels: Vec<Label>,
    /// Places in other files that matter (empty for nearly every finding: an empty `Vec`
    /// allocates nothing). Kept apart from `labels` so that code which moves or maps spans
    /// of the finding's own file (the upgrade's offsets) can never move these.
    pub file_labels: Vec<FileLabel>,
    /// What to do.
    pub help: Option<String>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    pub fn new(
        code: &'static str,
        name: &'static str,
        severity: Severity,
        message: impl Into<String>,
        span: Span,
    ) -> Diagnostic {
        Diagnostic {
            code,
            name,
            severity,
            message: message.into(),
            span,
            label: None,
            labels: Vec::new(),
            file_labels: Vec::new(),
            help: None,
            fix: None,
        }
    }
}

impl Diagnostic {
    /// Sets what to do about it.
    pub fn help(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }

    /// Sets a short note on the primary span.
    pub fn primary_label(&mut self, label: impl Into<String>) -> &mut Self {
        self.label = Some(label.into());
        self
    }

    /// Adds a secondary span.
    pub fn label(&mut self, span: Span, message: impl Into<String>) -> &mut Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a secondary span in another file: `path` as the run names it, `source` its text.
    pub fn file_label(
        &mut self,
        path: impl Into<Arc<str>>,
        source: Arc<str>,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Self {
        self.file_labels.push(FileLabel {
            path: path.into(),
            source,
            span,
            message: message.into(),
        });
        self
    }

    /// Attaches a fix.
    pub fn fix(&mut self, fix: Fix) -> &mut Self {
        self.fix = Some(fix);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_in_another_file_shares_the_text_and_debug_leaves_it_out() {
        let text: Arc<str> = "heat_template_version: rocky\nparameters: {}\n".into();
        let mut diagnostic = Diagnostic::new("X003", "x", Severity::Error, "m", Span::new(0, 1));
        diagnostic.file_label(
            "nested/a.yaml",
            text.clone(),
            Span::new(29, 39),
            "declared here",
        );
        let label = &diagnostic.file_labels[0];
        assert!(Arc::ptr_eq(&label.source, &text));
        assert_eq!(&*label.path, "nested/a.yaml");
        assert_eq!(
            &label.source[label.span.start..label.span.end],
            "parameters"
        );
        let debug = format!("{diagnostic:?}");
        assert!(debug.contains("source_len: 44"), "{debug}");
        assert!(!debug.contains("heat_template_version"), "{debug}");
        assert!(diagnostic.labels.is_empty());
    }

    #[test]
    fn a_finding_without_labels_in_other_files_allocates_none() {
        let diagnostic = Diagnostic::new("H301", "x", Severity::Error, "m", Span::new(0, 1));
        assert_eq!(diagnostic.file_labels.capacity(), 0);
    }
}
