//! JUnit XML for CI test reports (GitLab, Jenkins, Azure, …), shaped as ruff writes it: one
//! `<testsuite>` per linted file, one `<testcase>` per finding with a `<failure>` that carries
//! the message and the place.
//!
//! ```text
//! <testsuites name="hotfix" tests="3" failures="2" errors="0">
//!     <testsuite name="templates/app.yaml" tests="2" failures="2" errors="0" skipped="0">
//!         <testcase name="H301 undefined-parameter at 9:26" classname="templates/app">
//!             <failure type="error" message="…">templates/app.yaml:9:26: H301 …</failure>
//!         </testcase>
//!         …
//!     <testsuite name="templates/clean.yaml" tests="1" failures="0" errors="0" skipped="0">
//!         <testcase name="no findings" classname="templates/clean"/>
//! ```
//!
//! Where ruff differs, hotfix keeps to the Jenkins JUnit schema (`junit-10.xsd`, the one pytest
//! validates its own reports against): no `line`/`column` attributes on test cases (the schema
//! has none; the place is in the name and the failure text), and every test case's name is
//! unique within its file, because GitLab keys test cases by suite, class name and name and
//! shows only one of several that share them. A file without findings is a passing test case,
//! so that the report shows it was checked.
//!
//! Paths are relative to the repository root, as in SARIF. Columns count characters, as in the
//! concise format. Text is escaped for XML 1.0: markup characters become entities, line breaks
//! and tabs in attributes become character references (a parser would turn them into spaces),
//! and characters XML 1.0 forbids (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF) become
//! U+FFFD.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Seek as _, Write};

use hotfix_diagnostics::{Diagnostic, location};
use hotfix_yaml::LineIndex;

use super::{FileFindings, SourceRoot};

/// A report written one file at a time: each file's `<testsuite>` goes to a spool (an unnamed
/// temporary file) as it comes, and [`Junit::finish`] writes the root element, whose totals
/// are known only then, and copies the suites after it.
pub(crate) struct Junit<'a> {
    out: &'a mut dyn Write,
    root: &'a SourceRoot,
    spool: io::BufWriter<std::fs::File>,
    files: usize,
    tests: usize,
    failures: usize,
}

impl<'a> Junit<'a> {
    pub(crate) fn new(out: &'a mut dyn Write, root: &'a SourceRoot) -> io::Result<Junit<'a>> {
        Ok(Junit {
            out,
            root,
            spool: io::BufWriter::new(tempfile::tempfile()?),
            files: 0,
            tests: 0,
            failures: 0,
        })
    }

    /// One more file's suite.
    pub(crate) fn file(&mut self, file: &FileFindings<'_>) -> io::Result<()> {
        // A clean file is one passing test case.
        self.files += 1;
        self.tests += file.diagnostics.len().max(1);
        self.failures += file.diagnostics.len();
        write_suite(&mut self.spool, self.root, file)
    }

    /// Writes the report.
    pub(crate) fn finish(self) -> io::Result<()> {
        let Junit {
            out,
            spool,
            files,
            tests,
            failures,
            ..
        } = self;
        // No file at all is one passing test case too, so that a CI server that rejects empty
        // reports still sees the run.
        let tests = tests.max(1);
        writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
        writeln!(
            out,
            r#"<testsuites name="hotfix" tests="{tests}" failures="{failures}" errors="0">"#
        )?;
        if files == 0 {
            writeln!(
                out,
                r#"    <testsuite name="hotfix" tests="1" failures="0" errors="0" skipped="0">"#
            )?;
            writeln!(
                out,
                r#"        <testcase name="no templates to lint" classname="hotfix"/>"#
            )?;
            writeln!(out, "    </testsuite>")?;
        }
        let mut spool = spool.into_inner().map_err(io::IntoInnerError::into_error)?;
        spool.seek(io::SeekFrom::Start(0))?;
        io::copy(&mut spool, out)?;
        writeln!(out, "</testsuites>")
    }
}

/// Writes the report for these files, in their order.
#[cfg(test)]
pub(crate) fn write(
    out: &mut dyn Write,
    root: &SourceRoot,
    files: &[FileFindings<'_>],
) -> io::Result<()> {
    let mut junit = Junit::new(out, root)?;
    for file in files {
        junit.file(file)?;
    }
    junit.finish()
}

/// One file's `<testsuite>`.
fn write_suite(out: &mut impl Write, root: &SourceRoot, file: &FileFindings<'_>) -> io::Result<()> {
    let path = root.relative(file.path);
    let classname = class_name(&path);
    let failures = file.diagnostics.len();
    writeln!(
        out,
        r#"    <testsuite name="{}" tests="{}" failures="{failures}" errors="0" skipped="0">"#,
        attribute(&path),
        failures.max(1),
    )?;
    if file.diagnostics.is_empty() {
        writeln!(
            out,
            r#"        <testcase name="no findings" classname="{}"/>"#,
            attribute(&classname)
        )?;
    }
    let lines = LineIndex::new(file.source);
    let mut names: HashMap<String, usize> = HashMap::new();
    for diagnostic in file.diagnostics {
        let (start, _) = location(&lines, file.source, diagnostic.span);
        let mut name = format!(
            "{} {} at {}:{}",
            diagnostic.code, diagnostic.name, start.line, start.column
        );
        let seen = names.entry(name.clone()).or_insert(0);
        *seen += 1;
        if *seen > 1 {
            let _ = write!(name, " ({seen})");
        }
        writeln!(
            out,
            r#"        <testcase name="{}" classname="{}">"#,
            attribute(&name),
            attribute(&classname)
        )?;
        writeln!(
            out,
            r#"            <failure type="{}" message="{}">{}</failure>"#,
            diagnostic.severity.as_str(),
            attribute(&message(diagnostic)),
            text(&failure_text(
                diagnostic,
                &path,
                start.line,
                start.column,
                &super::elsewhere(root, diagnostic)
            )),
        )?;
        writeln!(out, "        </testcase>")?;
    }
    writeln!(out, "    </testsuite>")
}

/// The class name of a file's test cases: its path without the extension, as ruff writes it
/// (CI servers that split class names at dots then do not take the extension for a class).
fn class_name(path: &str) -> String {
    let (folder, name) = match path.rsplit_once('/') {
        Some((folder, name)) => (Some(folder), name),
        None => (None, path),
    };
    let stem = match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => name,
    };
    match folder {
        Some(folder) => format!("{folder}/{stem}"),
        None => stem.to_owned(),
    }
}

/// The one-line message, or the rule's name when a message is empty.
fn message(diagnostic: &Diagnostic) -> String {
    let message = diagnostic.message.trim();
    if message.is_empty() {
        diagnostic.name.to_owned()
    } else {
        message.to_owned()
    }
}

/// `path:line:col: CODE message`, as the concise format prints it, then each place in another
/// file (`see path:line:col: message`), then the help.
fn failure_text(
    diagnostic: &Diagnostic,
    path: &str,
    line: usize,
    column: usize,
    elsewhere: &[super::Place],
) -> String {
    let mut text = format!(
        "{path}:{line}:{column}: {} {}",
        diagnostic.code,
        message(diagnostic)
    );
    for place in elsewhere {
        text.push_str("\nsee ");
        let _ = write!(text, "{place}");
    }
    if let Some(help) = diagnostic.help.as_deref().filter(|h| !h.trim().is_empty()) {
        text.push_str("\nhelp: ");
        text.push_str(help.trim());
    }
    text
}

/// Escapes an attribute value (written between double quotes).
pub(crate) fn attribute(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(allowed(c)),
        }
    }
    out
}

/// Escapes character data. `>` is escaped too, so that `]]>` never appears; a carriage return
/// is a reference, lest a parser turn it into a line feed.
pub(crate) fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(allowed(c)),
        }
    }
    out
}

/// `c`, or U+FFFD when XML 1.0 does not allow it (`Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] |
/// [#xE000-#xFFFD] | [#x10000-#x10FFFF]`; a Rust `char` is never a surrogate). Not even a
/// character reference may name these characters, so they cannot be kept.
fn allowed(c: char) -> char {
    match c {
        '\t' | '\n' | '\r' => c,
        '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use hotfix_diagnostics::{Severity, Span};

    use super::*;

    fn report(files: &[FileFindings<'_>]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let root = SourceRoot::discover(dir.path());
        let mut out = Vec::new();
        write(&mut out, &root, files).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn escapes_markup_line_breaks_and_forbidden_characters() {
        assert_eq!(
            attribute("a&b<c>\"d'\te\nf\r\u{1}\u{fffe}\u{ffff}é𝄞"),
            "a&amp;b&lt;c&gt;&quot;d'&#9;e&#10;f&#13;\u{fffd}\u{fffd}\u{fffd}é𝄞"
        );
        assert_eq!(
            text("]]> & <x>\t\n\r\u{0}\u{1b}[31m\u{7f}"),
            "]]&gt; &amp; &lt;x&gt;\t\n&#13;\u{fffd}\u{fffd}[31m\u{7f}"
        );
    }

    #[test]
    fn class_names_drop_the_extension_only() {
        assert_eq!(class_name("templates/app.yaml"), "templates/app");
        assert_eq!(class_name("a.b/c.d.yaml"), "a.b/c.d");
        assert_eq!(class_name("noext"), "noext");
        assert_eq!(class_name(".hidden"), ".hidden");
        assert_eq!(class_name("../x.json"), "../x");
    }

    #[test]
    fn names_are_unique_within_a_file_and_clean_files_pass() {
        let source = "a: 1\n";
        let one = Diagnostic::new("H999", "made-up", Severity::Warning, "m", Span::new(0, 1));
        let diagnostics = [one.clone(), one];
        let xml = report(&[
            FileFindings {
                path: Path::new("t.yaml"),
                source,
                diagnostics: &diagnostics,
            },
            FileFindings {
                path: Path::new("clean.yaml"),
                source,
                diagnostics: &[],
            },
        ]);
        assert!(xml.contains(r#"<testcase name="H999 made-up at 1:1" classname="t">"#));
        assert!(xml.contains(r#"<testcase name="H999 made-up at 1:1 (2)" classname="t">"#));
        assert!(xml.contains(r#"<testcase name="no findings" classname="clean"/>"#));
        assert!(xml.contains(r#"<testsuites name="hotfix" tests="3" failures="2" errors="0">"#));
        assert!(
            xml.contains(r#"<failure type="warning" message="m">t.yaml:1:1: H999 m</failure>"#)
        );
    }

    #[test]
    fn no_files_is_one_passing_test_case() {
        let xml = report(&[]);
        assert!(xml.contains(r#"tests="1" failures="0""#), "{xml}");
        assert!(xml.contains(r#"<testcase name="no templates to lint" classname="hotfix"/>"#));
    }
}
