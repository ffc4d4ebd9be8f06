//! GitHub Actions workflow commands: each finding becomes an annotation on its file and line.
//!
//! ```text
//! ::group::templates/a.yaml
//! ::error file=templates/a.yaml,line=3,endLine=3,col=5,endColumn=9,title=H301 undefined-parameter::…
//! ::endgroup::
//! ```
//!
//! GitHub shows at most 10 error and 10 warning annotations of a step (and 10 notices), so
//! hotfix emits at most that many and then one notice that says how many more findings there
//! are and where to see them all.

use std::fmt::Write as _;
use std::io::{self, Write};

use hotfix_diagnostics::{Diagnostic, Severity};
use hotfix_yaml::LineIndex;

use super::{FileFindings, Region, SourceRoot};

/// The most annotations of one kind GitHub shows for a step.
pub(crate) const LIMIT: usize = 10;

/// The annotations of a run, gathered one file at a time. At most [`LIMIT`] of each kind are
/// ever shown, so only those are kept (with the counts of all); [`Github::finish`] writes them,
/// once it knows whether findings were left out and a notice must make room to say so.
pub(crate) struct Github<'a> {
    out: &'a mut dyn Write,
    root: &'a SourceRoot,
    /// Each file with annotations to show: its path, and each annotation's kind and text.
    groups: Vec<(String, Vec<(usize, String)>)>,
    /// Findings of each kind (error, warning, notice): all of them, and those kept.
    total: [usize; 3],
    kept: [usize; 3],
}

impl<'a> Github<'a> {
    pub(crate) fn new(out: &'a mut dyn Write, root: &'a SourceRoot) -> Github<'a> {
        Github {
            out,
            root,
            groups: Vec::new(),
            total: [0; 3],
            kept: [0; 3],
        }
    }

    /// One more file's findings.
    pub(crate) fn file(&mut self, file: &FileFindings<'_>) {
        if file.diagnostics.is_empty() {
            return;
        }
        let path = self.root.relative(file.path);
        let lines = LineIndex::new(file.source);
        let mut annotations = Vec::new();
        for diagnostic in file.diagnostics {
            let (command, kind) = match diagnostic.severity {
                Severity::Error => ("error", 0),
                Severity::Warning => ("warning", 1),
                Severity::Info => ("notice", 2),
            };
            self.total[kind] += 1;
            if self.kept[kind] == LIMIT {
                continue;
            }
            self.kept[kind] += 1;
            let elsewhere = super::elsewhere(self.root, diagnostic);
            let text = annotation(command, &path, &lines, file.source, diagnostic, &elsewhere);
            annotations.push((kind, text));
        }
        if !annotations.is_empty() {
            self.groups.push((path, annotations));
        }
    }

    /// Writes the annotations, grouped by file, and the notice of those left out.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        // When findings are left out, one notice is kept for saying so: the last one goes.
        let overflow = self.total.iter().any(|&n| n > LIMIT);
        if overflow && self.kept[2] == LIMIT {
            let last_notice = self.groups.iter_mut().rev().find_map(|(_, annotations)| {
                let last = annotations.iter().rposition(|(kind, _)| *kind == 2)?;
                Some((annotations, last))
            });
            if let Some((annotations, last)) = last_notice {
                annotations.remove(last);
                self.kept[2] -= 1;
            }
        }
        for (path, annotations) in &self.groups {
            if annotations.is_empty() {
                continue;
            }
            writeln!(self.out, "::group::{}", escape_data(path))?;
            for (_, text) in annotations {
                writeln!(self.out, "{text}")?;
            }
            writeln!(self.out, "::endgroup::")?;
        }
        let hidden = self.total.iter().sum::<usize>() - self.kept.iter().sum::<usize>();
        if hidden > 0 {
            writeln!(
                self.out,
                "::notice title=hotfix::{}",
                escape_data(&format!(
                    "{hidden} more {} not shown as annotations (GitHub shows at most {LIMIT} \
                     errors, {LIMIT} warnings and {LIMIT} notices per step): see them all with \
                     `hotfix lint --format concise`, or in code scanning with \
                     `hotfix lint --format sarif`",
                    if hidden == 1 { "finding" } else { "findings" }
                ))
            )?;
        }
        Ok(())
    }
}

/// Writes the annotations of every file, grouped by file.
#[cfg(test)]
pub(crate) fn write(
    out: &mut dyn Write,
    root: &SourceRoot,
    files: &[FileFindings<'_>],
) -> io::Result<()> {
    let mut github = Github::new(out, root);
    for file in files {
        github.file(file);
    }
    github.finish()
}

/// One workflow command: `::error file=…,line=…,endLine=…[,col=…,endColumn=…],title=…::…`.
/// Columns are left out when the finding spans lines. The message is the finding's, then each
/// place in another file (`see path:line:col: message`: an annotation has one place), then the
/// help.
fn annotation(
    command: &str,
    path: &str,
    lines: &LineIndex,
    source: &str,
    diagnostic: &Diagnostic,
    elsewhere: &[super::Place],
) -> String {
    let region = Region::of_finding(lines, source, diagnostic.span);
    let mut properties = format!(
        "file={},line={},endLine={}",
        escape_property(path),
        region.start_line,
        region.end_line
    );
    if region.start_line == region.end_line {
        let _ = write!(
            properties,
            ",col={},endColumn={}",
            region.start_column, region.end_column
        );
    }
    let title = format!("{} {}", diagnostic.code, diagnostic.name);
    // A message or help that quotes a long value shows its start and its end.
    let mut message = hotfix_diagnostics::for_terminal(&diagnostic.message).into_owned();
    for place in elsewhere {
        message.push_str("\nsee ");
        let _ = write!(message, "{place}");
    }
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(&hotfix_diagnostics::for_terminal(help));
    }
    format!(
        "::{command} {properties},title={}::{}",
        escape_property(&title),
        escape_data(&message)
    )
}

/// Escapes the message of a workflow command: its own escapes for `%` and line breaks, and
/// every other character a terminal could act on shown as Rust writes it (`\x1b`), for the
/// command is a line of the job's log.
pub(crate) fn escape_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c if hotfix_diagnostics::is_unsafe(c) => hotfix_diagnostics::escaped_char(c, &mut out),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a property value of a workflow command.
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::path::Path;

    use hotfix_diagnostics::{Diagnostic, Span};

    fn notices(count: usize, severity: Severity) -> String {
        let source = "a: 1\n".repeat(count);
        let diagnostics: Vec<Diagnostic> = (0..count)
            .map(|i| {
                Diagnostic::new(
                    "H999",
                    "made-up",
                    severity,
                    "m",
                    Span::new(i * 5, i * 5 + 1),
                )
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let root = SourceRoot::discover(dir.path());
        let mut out = Vec::new();
        let files = [FileFindings {
            path: Path::new("t.yaml"),
            source: &source,
            diagnostics: &diagnostics,
        }];
        write(&mut out, &root, &files).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn caps_each_kind_and_keeps_a_notice_for_the_rest() {
        let out = notices(10, Severity::Info);
        assert_eq!(out.matches("::notice file=").count(), 10, "{out}");
        assert!(!out.contains("more"), "{out}");
        let out = notices(12, Severity::Info);
        assert_eq!(out.matches("::notice file=").count(), 9, "{out}");
        assert!(
            out.contains("::notice title=hotfix::3 more findings"),
            "{out}"
        );
        let out = notices(11, Severity::Warning);
        assert_eq!(out.matches("::warning ").count(), 10, "{out}");
        assert!(
            out.contains("::notice title=hotfix::1 more finding not"),
            "{out}"
        );
        assert!(out.starts_with("::group::t.yaml\n") && out.contains("::endgroup::\n"));
        assert_eq!(notices(0, Severity::Error), "");
    }

    #[test]
    fn escapes_messages_and_properties() {
        assert_eq!(escape_data("50%\r\nof: a, b"), "50%25%0D%0Aof: a, b");
        assert_eq!(
            escape_data("\u{1b}]2;x\u{7}\u{202e}\t"),
            "\\x1b]2;x\\x07\\u{202e}\t"
        );
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
