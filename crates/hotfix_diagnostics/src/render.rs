//! Rendering diagnostics: miette code frames, and one-line summaries.

use std::fmt;

use hotfix_yaml::{LineIndex, Span};
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

use crate::{Diagnostic, Severity};

/// How graphical output looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// ANSI colours (for a terminal).
    pub color: bool,
    /// Wrap width.
    pub width: usize,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            color: false,
            width: 100,
        }
    }
}

/// A 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

/// Start and end of a span as lines and character columns (the end is exclusive).
pub fn location(lines: &LineIndex, source: &str, span: Span) -> (Location, Location) {
    let start = lines.position(source, span.start);
    let end = lines.position(source, span.end);
    (
        Location {
            line: start.line,
            column: start.char_col,
        },
        Location {
            line: end.line,
            column: end.char_col,
        },
    )
}

/// `path:line:col: CODE message`.
pub fn render_concise(
    diagnostic: &Diagnostic,
    path: &str,
    lines: &LineIndex,
    source: &str,
) -> String {
    let (start, _) = location(lines, source, diagnostic.span);
    format!(
        "{path}:{}:{}: {} {}",
        start.line, start.column, diagnostic.code, diagnostic.message
    )
}

/// A miette code frame: the message, the source around the span with labels, and the help.
pub fn render_human(
    diagnostic: &Diagnostic,
    path: &str,
    source: &str,
    options: RenderOptions,
) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false);
    let report = Report {
        diagnostic,
        source: NamedText { name: path, source },
    };
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        // The handler only fails when the span is outside the text: say so plainly.
        return format!("{path}: {} {}\n", diagnostic.code, diagnostic.message);
    }
    out
}

/// The file's text with its name, for miette.
struct NamedText<'a> {
    name: &'a str,
    source: &'a str,
}

impl SourceCode for NamedText<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let contents = self.source.read_span(span, before, after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_owned(),
            contents.data(),
            *contents.span(),
            contents.line(),
            contents.column(),
            contents.line_count(),
        )))
    }
}

struct Report<'a> {
    diagnostic: &'a Diagnostic,
    source: NamedText<'a>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.diagnostic, f)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!(
            "{}({})",
            self.diagnostic.code, self.diagnostic.name
        )))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let help = self.diagnostic.help.as_deref();
        let fix = self
            .diagnostic
            .fix
            .as_ref()
            .map(|fix| format!("fix ({}): {}", fix.applicability.as_str(), fix.message));
        match (help, fix) {
            (None, None) => None,
            (Some(help), None) => Some(Box::new(help.to_owned())),
            (None, Some(fix)) => Some(Box::new(fix)),
            (Some(help), Some(fix)) => Some(Box::new(format!("{help}\n{fix}"))),
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let source_len = self.source.source.len();
        let clamp = move |span: Span| {
            let start = span.start.min(source_len);
            let end = span.end.clamp(start, source_len);
            SourceSpan::from(start..end)
        };
        let primary = LabeledSpan::new_primary_with_span(
            self.diagnostic.label.clone(),
            clamp(self.diagnostic.span),
        );
        let secondary = self
            .diagnostic
            .labels
            .iter()
            .map(move |l| LabeledSpan::new_with_span(Some(l.message.clone()), clamp(l.span)));
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_code_frame_with_label_and_help() {
        let source =
            "heat_template_version: 2016-10-14\nresources:\n  r:\n    typ: OS::Heat::None\n";
        let start = source.find("typ").unwrap();
        let mut diagnostic = Diagnostic::new(
            "H603",
            "unknown-resource-key",
            Severity::Error,
            "`typ` is not a resource key",
            Span::new(start, start + 3),
        );
        diagnostic.help = Some("did you mean `type`?".to_owned());
        let out = render_human(&diagnostic, "t.yaml", source, RenderOptions::default());
        assert!(out.contains("H603(unknown-resource-key)"), "{out}");
        assert!(out.contains("t.yaml:4:5"), "{out}");
        assert!(out.contains("did you mean `type`?"), "{out}");
        let lines = LineIndex::new(source);
        assert_eq!(
            render_concise(&diagnostic, "t.yaml", &lines, source),
            "t.yaml:4:5: H603 `typ` is not a resource key"
        );
    }
}
