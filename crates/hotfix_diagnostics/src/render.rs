//! Rendering diagnostics: miette code frames, and one-line summaries.

use std::fmt;

use hotfix_yaml::{LineIndex, Span};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use crate::escape::{escape_line, for_terminal, for_terminal_line};
use crate::view::View;
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
/// is shown (not even one in another file: the message names what matters). Line breaks and
/// every character a terminal could act on are escaped.
pub fn render_concise(
    diagnostic: &Diagnostic,
    path: &str,
    lines: &LineIndex,
    source: &str,
) -> String {
    let (start, _) = location(lines, source, diagnostic.span);
    format!(
        "{}:{}:{}: {} {}",
        escape_line(path),
        start.line,
        start.column,
        escape_line(diagnostic.code),
        for_terminal_line(&diagnostic.message)
    )
}

/// A miette code frame: the message, the source around the span with labels, and the help.
/// Labels in other files ([`Diagnostic::file_labels`]) get a code frame of their own under the
/// finding's, headed by that file's `path:line:col`, before the help (as rustc and miette show a
/// secondary file): one frame per file, in the order the labels first name them.
///
/// A frame shows the lines around the labels, a long line only in windows around the places
/// the labels start and end (`…[N chars cut]…` marks what is left out), and escapes every
/// character a terminal could act on, in the file's text as in the messages.
pub fn render_human(
    diagnostic: &Diagnostic,
    path: &str,
    source: &str,
    options: RenderOptions,
) -> String {
    render_human_indexed(diagnostic, path, source, &LineIndex::new(source), options)
}

/// [`render_human`] with the file's lines already indexed: a file with many findings indexes
/// its lines once, not once a finding.
pub fn render_human_indexed(
    diagnostic: &Diagnostic,
    path: &str,
    source: &str,
    lines: &LineIndex,
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
    let spans: Vec<Span> = std::iter::once(diagnostic.span)
        .chain(diagnostic.labels.iter().map(|l| l.span))
        .collect();
    let view = View::new(path, source, lines, &spans);
    let report = Report {
        diagnostic,
        view: &view,
        help: true,
    };
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        // The handler only fails when the span is outside the text: say so plainly.
        return format!(
            "{}: {} {}\n",
            escape_line(path),
            escape_line(diagnostic.code),
            for_terminal(&diagnostic.message)
        );
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
    let spans: Vec<Span> = labels.iter().map(|l| l.span).collect();
    let lines = LineIndex::new(&first.source);
    let view = View::new(&first.path, &first.source, &lines, &spans);
    let frame = Frame {
        severity,
        labels,
        view: &view,
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

struct Report<'a> {
    diagnostic: &'a Diagnostic,
    view: &'a View,
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
        f.write_str(&for_terminal(&self.diagnostic.message))
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!(
            "{}({})",
            escape_line(self.diagnostic.code),
            escape_line(self.diagnostic.name)
        )))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(miette_severity(self.diagnostic.severity))
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        if !self.help {
            return None;
        }
        let help = self.diagnostic.help.as_deref().map(for_terminal);
        let fix = self.diagnostic.fix.as_ref().map(|fix| {
            format!(
                "fix ({}): {}",
                fix.applicability.as_str(),
                for_terminal(&fix.message)
            )
        });
        match (help, fix) {
            (None, None) => None,
            (Some(help), None) => Some(Box::new(help.into_owned())),
            (None, Some(fix)) => Some(Box::new(fix)),
            (Some(help), Some(fix)) => Some(Box::new(format!("{help}\n{fix}"))),
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.view)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = LabeledSpan::new_primary_with_span(
            self.diagnostic
                .label
                .as_deref()
                .map(|l| for_terminal(l).into_owned()),
            self.view.span(0),
        );
        let secondary = self.diagnostic.labels.iter().enumerate().map(|(i, l)| {
            LabeledSpan::new_with_span(
                Some(for_terminal(&l.message).into_owned()),
                self.view.span(i + 1),
            )
        });
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }
}

/// The labels of one other file, as a report whose message is empty: only its frame is kept.
#[derive(Clone, Copy)]
struct Frame<'a> {
    severity: Severity,
    labels: &'a [&'a FileLabel],
    view: &'a View,
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
        Some(self.view)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if !self.with_labels {
            return None;
        }
        Some(Box::new(self.labels.iter().enumerate().map(|(i, l)| {
            LabeledSpan::new_with_span(
                Some(for_terminal(&l.message).into_owned()),
                self.view.span(i),
            )
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

    /// A minified one-line JSON template: `{"heat_template_version": "2016-10-14", "description":
    /// "aaa…", "resources": {"r": {"typ": 1}}}`, the description `width` bytes long.
    fn one_line(width: usize) -> String {
        format!(
            "{{\"heat_template_version\": \"2016-10-14\", \"description\": \"{}\", \
             \"resources\": {{\"r\": {{\"typ\": 1}}}}}}",
            "a".repeat(width)
        )
    }

    fn typ(source: &str) -> Diagnostic {
        let start = source.find("\"typ\"").unwrap() + 1;
        let mut diagnostic = Diagnostic::new(
            "H603",
            "unknown-resource-key",
            Severity::Error,
            "`typ` is not a resource key",
            Span::new(start, start + 3),
        );
        diagnostic.help("did you mean `type`?");
        diagnostic
    }

    /// The line of a frame that holds `text`, and the line under it.
    fn line_and_underline<'a>(out: &'a str, text: &str) -> (&'a str, &'a str) {
        let lines: Vec<&str> = out.lines().collect();
        let at = lines.iter().position(|l| l.contains(text)).expect(out);
        (lines[at], lines[at + 1])
    }

    #[test]
    fn a_finding_past_column_65535_is_shown_in_a_window_of_its_line() {
        let source = one_line(70_000);
        let out = render_human(&typ(&source), "t.json", &source, RenderOptions::default());
        let column = source.find("\"typ\"").unwrap() + 2;
        assert!(out.contains(&format!("[t.json:1:{column}]")), "{out}");
        assert!(
            out.contains(
                "…[70040 chars cut]…aaaaaaaaaaaaaaaa\", \"resources\": {\"r\": {\"typ\": 1}}}"
            ),
            "{out}"
        );
        assert!(out.len() < 1_000, "{} bytes:\n{out}", out.len());
        // The underline is under `typ`.
        let (line, under) = line_and_underline(&out, "\"typ\"");
        let at = line[..line.find("typ").unwrap()].chars().count();
        assert_eq!(
            under.chars().position(|c| c == '\u{2500}'),
            Some(at),
            "\n{out}"
        );
    }

    #[test]
    fn a_span_along_a_long_line_shows_both_ends_and_what_is_cut() {
        let source = one_line(1_000);
        let start = source.find("aaa").unwrap();
        let diagnostic = Diagnostic::new(
            "H999",
            "made-up",
            Severity::Warning,
            "a long value",
            Span::new(start, start + 1_000),
        );
        let out = render_human(&diagnostic, "t.json", &source, RenderOptions::default());
        // Near the line's start: no cut there; along the span, one.
        assert_eq!(out.matches("chars cut]…").count(), 1, "{out}");
        assert!(out.contains("a…[920 chars cut]…a"), "{out}");
        assert!(out.contains("\"description\": \"aaaa"), "{out}");
        assert!(out.contains("aaaa\", \"resources\""), "{out}");
        assert!(out.len() < 1_000, "{} bytes:\n{out}", out.len());
    }

    #[test]
    fn many_findings_on_one_long_line_print_a_window_each() {
        let source = one_line(60_000);
        let total: usize = (0..800)
            .map(|i| {
                let start = 100 + i * 70;
                let diagnostic = Diagnostic::new(
                    "H999",
                    "made-up",
                    Severity::Info,
                    "here",
                    Span::new(start, start + 5),
                );
                render_human(&diagnostic, "t.json", &source, RenderOptions::default()).len()
            })
            .sum();
        assert!(total < 800 * 1_000, "{total} bytes");
    }

    #[test]
    fn control_characters_are_escaped_and_underlines_stay_aligned() {
        let source = "heat_template_version: 2016-10-14\ndescription: \"\u{1b}]2;TITLE\u{7}\u{1b}[2J\"\nresources:\n  \u{202e}r\u{2066}: {typ\u{85}: 1}\n";
        let start = source.find("typ").unwrap();
        let mut diagnostic = Diagnostic::new(
            "H603",
            "unknown-resource-key",
            Severity::Error,
            "`typ\u{85}` is not a resource key of `\u{202e}r\u{2066}`",
            Span::new(start, start + 5),
        );
        diagnostic
            .help("did you mean `type`? \u{1b}[31m")
            .label(Span::new(0, 4), "the \u{7f} version");
        diagnostic.primary_label("a \u{9b} key");
        let out = render_human(
            &diagnostic,
            "t\u{1b}[2J.yaml",
            source,
            RenderOptions::default(),
        );
        assert!(!out.chars().any(crate::is_unsafe), "{out:?}");
        for shown in [
            "\\x1b]2;TITLE\\x07\\x1b[2J",
            "\\u{202e}r\\u{2066}: {typ\\u{85}: 1}",
            "`typ\\u{85}` is not a resource key of `\\u{202e}r\\u{2066}`",
            "t\\x1b[2J.yaml:4:",
            "\\x1b[31m",
            "the \\x7f version",
            "a \\u{9b} key",
        ] {
            assert!(out.contains(shown), "{shown}:\n{out}");
        }
        // The header's column counts the file's characters; the underline is under the escaped
        // `typ\u{85}`.
        assert!(out.contains(":4:9]"), "{out}");
        let (line, under) = line_and_underline(&out, "{typ\\u{85}");
        let at = line[..line.find("typ").unwrap()].chars().count();
        assert_eq!(
            under
                .chars()
                .position(|c| c == '\u{2500}' || c == '\u{252c}'),
            Some(at),
            "\n{out}"
        );
        assert_eq!(
            under
                .chars()
                .filter(|&c| c == '\u{2500}' || c == '\u{252c}')
                .count(),
            "typ\\u{85}".len(),
            "\n{out}"
        );
        let lines = LineIndex::new(source);
        let concise = render_concise(&diagnostic, "t\u{1b}.yaml", &lines, source);
        assert!(!concise.chars().any(crate::is_unsafe), "{concise:?}");
    }
}
