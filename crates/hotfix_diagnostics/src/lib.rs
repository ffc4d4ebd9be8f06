//! Diagnostics, edits and fixes, and how they are shown.
//!
//! This is the only crate that knows `miette`: rules build [`Diagnostic`]s; the binary asks
//! this crate to render them as graphical code frames ([`render_human`]) or one line each
//! ([`render_concise`]).

mod render;

pub use hotfix_yaml::Span;
pub use render::{Location, RenderOptions, location, render_concise, render_human};

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
    /// Other places that matter.
    pub labels: Vec<Label>,
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

    /// Attaches a fix.
    pub fn fix(&mut self, fix: Fix) -> &mut Self {
        self.fix = Some(fix);
        self
    }
}
