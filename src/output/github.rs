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

/// Writes the annotations of every file, grouped by file.
pub(crate) fn write(
    out: &mut impl Write,
    root: &SourceRoot,
    files: &[FileFindings<'_>],
) -> io::Result<()> {
    let count = |severity: Severity| {
        files
            .iter()
            .flat_map(|f| f.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    };
    let (errors, warnings, notices) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    // When findings are left out, one notice is kept for saying so.
    let overflow = errors > LIMIT || warnings > LIMIT || notices > LIMIT;
    let mut left = [LIMIT, LIMIT, if overflow { LIMIT - 1 } else { LIMIT }];
    let mut shown = 0;
    for file in files {
        let path = root.relative(file.path);
        let lines = LineIndex::new(file.source);
        let mut group_open = false;
        for diagnostic in file.diagnostics {
            let (command, kind) = match diagnostic.severity {
                Severity::Error => ("error", 0),
                Severity::Warning => ("warning", 1),
                Severity::Info => ("notice", 2),
            };
            if left[kind] == 0 {
                continue;
            }
            left[kind] -= 1;
            shown += 1;
            if !group_open {
                writeln!(out, "::group::{}", escape_data(&path))?;
                group_open = true;
            }
            writeln!(
                out,
                "{}",
                annotation(command, &path, &lines, file.source, diagnostic)
            )?;
        }
        if group_open {
            writeln!(out, "::endgroup::")?;
        }
    }
    let hidden = errors + warnings + notices - shown;
    if hidden > 0 {
        writeln!(
            out,
            "::notice title=hotfix::{}",
            escape_data(&format!(
                "{hidden} more {} not shown as annotations (GitHub shows at most {LIMIT} errors, \
                 {LIMIT} warnings and {LIMIT} notices per step): see them all with \
                 `hotfix lint --format concise`, or in code scanning with \
                 `hotfix lint --format sarif`",
                if hidden == 1 { "finding" } else { "findings" }
            ))
        )?;
    }
    Ok(())
}

/// One workflow command: `::error file=…,line=…,endLine=…[,col=…,endColumn=…],title=…::…`.
/// Columns are left out when the finding spans lines.
fn annotation(
    command: &str,
    path: &str,
    lines: &LineIndex,
    source: &str,
    diagnostic: &Diagnostic,
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
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    format!(
        "::{command} {properties},title={}::{}",
        escape_property(&title),
        escape_data(&message)
    )
}

/// Escapes the message of a workflow command.
pub(crate) fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
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
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
