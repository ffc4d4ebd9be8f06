//! Rendering diagnostics: miette code frames, and one-line summaries.

use std::fmt;

use hotfix_yaml::{LineIndex, Span};
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

use crate::{Diagnostic, FileLabel, Severity};

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

/// `path:line:col: CODE message`: one line a finding, as ruff's concise output, so no label
/// is shown (not even one in another file: the message names what matters).
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
/// Labels in other files ([`Diagnostic::file_labels`]) get a code frame of their own under the
/// finding's, headed by that file's `path:line:col`, before the help (as rustc and miette show a
/// secondary file): one frame per file, in the order the labels first name them.
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
        help: true,
    };
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        // The handler only fails when the span is outside the text: say so plainly.
        return format!("{path}: {} {}\n", diagnostic.code, diagnostic.message);
    }
    if diagnostic.file_labels.is_empty() {
        return out;
    }
    // The same report without its help is the part above the help: the other files' frames
    // go between the two.
    let mut above_help = String::new();
    let without_help = Report {
        help: false,
        ..report
    };
    if handler
        .render_report(&mut above_help, &without_help)
        .is_err()
        || !out.starts_with(&above_help)
    {
        return out;
    }
    let mut frames = String::new();
    let mut done: Vec<&str> = Vec::new();
    for label in &diagnostic.file_labels {
        if done.contains(&label.path.as_ref()) {
            continue;
        }
        done.push(&label.path);
        let labels: Vec<&FileLabel> = diagnostic
            .file_labels
            .iter()
            .filter(|l| l.path == label.path)
            .collect();
        frames.push_str(&frame(&handler, diagnostic.severity, &labels));
    }
    let help = &out[above_help.len()..];
    format!("{above_help}{frames}{help}")
}

/// The code frame of `labels` (all in one other file), without a message above it.
fn frame(handler: &GraphicalReportHandler, severity: Severity, labels: &[&FileLabel]) -> String {
    let Some(first) = labels.first() else {
        return String::new();
    };
    let frame = Frame {
        severity,
        labels,
        source: NamedText {
            name: &first.path,
            source: &first.source,
        },
        with_labels: true,
    };
    let bare = Frame {
        with_labels: false,
        ..frame
    };
    // miette writes a (here empty) message line above every frame: render the report without
    // its labels too, and keep what the labels add.
    let (mut with, mut without) = (String::new(), String::new());
    if handler.render_report(&mut with, &frame).is_err()
        || handler.render_report(&mut without, &bare).is_err()
    {
        return String::new();
    }
    with.strip_prefix(without.as_str())
        .map(str::to_owned)
        .unwrap_or_default()
}

/// A span clamped into a text of `len` bytes, for miette.
fn clamped(span: Span, len: usize) -> SourceSpan {
    let start = span.start.min(len);
    let end = span.end.clamp(start, len);
    SourceSpan::from(start..end)
}

/// The file's text with its name, for miette.
#[derive(Clone, Copy)]
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
    /// Whether the help (and the fix) are shown.
    help: bool,
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
        Some(miette_severity(self.diagnostic.severity))
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        if !self.help {
            return None;
        }
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
        let clamp = move |span: Span| clamped(span, source_len);
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

/// The labels of one other file, as a report whose message is empty: only its frame is kept.
#[derive(Clone, Copy)]
struct Frame<'a> {
    severity: Severity,
    labels: &'a [&'a FileLabel],
    source: NamedText<'a>,
    with_labels: bool,
}

impl fmt::Debug for Frame<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.labels, f)
    }
}

impl fmt::Display for Frame<'_> {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}

impl std::error::Error for Frame<'_> {}

impl miette::Diagnostic for Frame<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette_severity(self.severity))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if !self.with_labels {
            return None;
        }
        let len = self.source.source.len();
        Some(Box::new(self.labels.iter().map(move |l| {
            LabeledSpan::new_with_span(Some(l.message.clone()), clamped(l.span, len))
        })))
    }
}

fn miette_severity(severity: Severity) -> miette::Severity {
    match severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
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

    /// A parent's property and the nested template that lacks it, the nested one with a
    /// wider line-number gutter.
    fn cross_file() -> Diagnostic {
        let parent = "heat_template_version: rocky\nresources:\n  s:\n    type: nested.yaml\n    properties: {flavour: m1}\n";
        let start = parent.find("flavour").unwrap();
        let mut diagnostic = Diagnostic::new(
            "X003",
            "unknown-nested-property",
            Severity::Error,
            "`flavour` is not a parameter of `nested.yaml`",
            Span::new(start, start + 7),
        );
        let nested: std::sync::Arc<str> = format!(
            "heat_template_version: rocky\n{}parameters:\n  flavor: {{type: string}}\n",
            "# comment\n".repeat(8)
        )
        .into();
        let at = nested.find("parameters").unwrap();
        diagnostic.help("did you mean `flavor`?").file_label(
            "nested.yaml",
            nested.clone(),
            Span::new(at, at + 10),
            "parameters of `nested.yaml` declared here",
        );
        diagnostic
    }

    #[test]
    fn a_label_in_another_file_gets_its_own_frame_before_the_help() {
        let parent = "heat_template_version: rocky\nresources:\n  s:\n    type: nested.yaml\n    properties: {flavour: m1}\n";
        let out = render_human(
            &cross_file(),
            "parent.yaml",
            parent,
            RenderOptions::default(),
        );
        let expected = "\
X003(unknown-nested-property)

  \u{d7} `flavour` is not a parameter of `nested.yaml`
   \u{256d}\u{2500}[parent.yaml:5:18]
 4 \u{2502}     type: nested.yaml
 5 \u{2502}     properties: {flavour: m1}
   \u{b7}                  \u{2500}\u{2500}\u{2500}\u{2500}\u{2500}\u{2500}\u{2500}
   \u{2570}\u{2500}\u{2500}\u{2500}\u{2500}
    \u{256d}\u{2500}[nested.yaml:10:1]
  9 \u{2502} # comment
 10 \u{2502} parameters:
    \u{b7} \u{2500}\u{2500}\u{2500}\u{2500}\u{2500}\u{252c}\u{2500}\u{2500}\u{2500}\u{2500}
    \u{b7}      \u{2570}\u{2500}\u{2500} parameters of `nested.yaml` declared here
 11 \u{2502}   flavor: {type: string}
    \u{2570}\u{2500}\u{2500}\u{2500}\u{2500}
  help: did you mean `flavor`?
";
        assert_eq!(out, expected, "\n{out}");
    }

    #[test]
    fn labels_in_one_other_file_share_a_frame_and_each_file_gets_one() {
        let parent = "heat_template_version: rocky\nresources:\n  s:\n    type: nested.yaml\n    properties: {flavour: m1}\n";
        let mut diagnostic = cross_file();
        let nested = diagnostic.file_labels[0].source.clone();
        let at = nested.find("flavor").unwrap();
        diagnostic
            .file_label(
                "nested.yaml",
                nested,
                Span::new(at, at + 6),
                "the closest name",
            )
            .file_label("env.yaml", "a: 1\n".into(), Span::new(0, 1), "mapped here");
        let out = render_human(&diagnostic, "parent.yaml", parent, RenderOptions::default());
        assert_eq!(out.matches("\u{256d}\u{2500}[").count(), 3, "{out}");
        let nested_frame = out.find("[nested.yaml:10:1]").expect(&out);
        let env_frame = out.find("[env.yaml:1:1]").expect(&out);
        let help = out.find("help:").expect(&out);
        assert!(nested_frame < env_frame && env_frame < help, "{out}");
        assert!(out.contains("the closest name"), "{out}");
        // One line a finding in the concise format, whatever the labels.
        let lines = LineIndex::new(parent);
        assert_eq!(
            render_concise(&diagnostic, "parent.yaml", &lines, parent),
            "parent.yaml:5:18: X003 `flavour` is not a parameter of `nested.yaml`"
        );
    }

    #[test]
    fn a_label_past_the_end_of_its_file_is_placed_at_the_end() {
        let mut diagnostic = cross_file();
        diagnostic.file_labels[0].span = Span::new(10_000, 10_005);
        let parent = "heat_template_version: rocky\nresources:\n  s:\n    type: nested.yaml\n    properties: {flavour: m1}\n";
        let out = render_human(&diagnostic, "parent.yaml", parent, RenderOptions::default());
        assert!(out.contains("[nested.yaml:"), "{out}");
        assert!(out.contains("help: did you mean"), "{out}");
    }
}
