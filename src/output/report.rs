//! `hotfix lint`'s report in any format, written one file at a time as the run goes: only the
//! file at hand is in memory, whatever the size of the tree. Formats whose beginning depends
//! on the whole run (the rules of SARIF, the totals of JUnit) spool their body to an unnamed
//! temporary file and write it at the end; the GitHub format keeps only the few annotations
//! GitHub shows; statistics keep a count per rule.

use std::io::{self, Write};

use hotfix_diagnostics::{Diagnostic, RenderOptions, render_concise, render_human_indexed};
use hotfix_yaml::LineIndex;

use super::github::Github;
use super::gitlab::Gitlab;
use super::junit::Junit;
use super::sarif::Sarif;
use super::statistics::Counter;
use super::{FileFindings, JsonArray, SourceRoot};

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// Code frames, `width` columns wide.
    Human {
        color: bool,
        width: usize,
    },
    Concise,
    Json,
    Sarif,
    Github,
    Junit,
    Gitlab,
    /// `--statistics`: a table, or JSON.
    Statistics {
        json: bool,
    },
}

/// A report being written.
pub(crate) enum Report<'a> {
    Human {
        out: &'a mut dyn Write,
        options: RenderOptions,
    },
    Concise(&'a mut dyn Write),
    Json(&'a mut dyn Write, JsonArray),
    Sarif(&'a mut dyn Write, Sarif<'a>),
    Github(Github<'a>),
    Junit(Junit<'a>),
    Gitlab(Gitlab<'a>),
    Statistics {
        out: &'a mut dyn Write,
        json: bool,
        counter: Counter,
    },
}

/// How a report ended.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Written {
    /// The results of a SARIF log (GitHub code scanning takes at most 25,000 in a run).
    pub(crate) sarif_results: usize,
}

impl<'a> Report<'a> {
    /// Starts a report on `out`, with paths relative to `root`.
    pub(crate) fn start(
        style: Style,
        root: &'a SourceRoot,
        out: &'a mut dyn Write,
    ) -> io::Result<Report<'a>> {
        Ok(match style {
            Style::Human { color, width } => Report::Human {
                out,
                options: RenderOptions { color, width },
            },
            Style::Concise => Report::Concise(out),
            Style::Json => Report::Json(out, JsonArray::new(0)),
            Style::Sarif => Report::Sarif(out, Sarif::new(root)?),
            Style::Github => Report::Github(Github::new(out, root)),
            Style::Junit => Report::Junit(Junit::new(out, root)?),
            Style::Gitlab => Report::Gitlab(Gitlab::new(out, root)),
            Style::Statistics { json } => Report::Statistics {
                out,
                json,
                counter: Counter::default(),
            },
        })
    }

    /// One more file, with its display name (as the user wrote its path).
    pub(crate) fn file(&mut self, display: &str, file: &FileFindings<'_>) -> io::Result<()> {
        match self {
            Report::Human { out, options } => {
                if file.diagnostics.is_empty() {
                    return Ok(());
                }
                let lines = LineIndex::new(file.source);
                for diagnostic in file.diagnostics {
                    let shown = with_shown_paths(diagnostic);
                    let diagnostic = shown.as_ref().unwrap_or(diagnostic);
                    let rendered =
                        render_human_indexed(diagnostic, display, file.source, &lines, *options);
                    writeln!(out, "{rendered}")?;
                }
            }
            Report::Concise(out) => {
                if file.diagnostics.is_empty() {
                    return Ok(());
                }
                let lines = LineIndex::new(file.source);
                for diagnostic in file.diagnostics {
                    let line = render_concise(diagnostic, display, &lines, file.source);
                    writeln!(out, "{line}")?;
                }
            }
            Report::Json(out, array) => {
                if file.diagnostics.is_empty() {
                    return Ok(());
                }
                let lines = LineIndex::new(file.source);
                for diagnostic in file.diagnostics {
                    array.push(&mut **out, &json_finding(display, file, &lines, diagnostic))?;
                }
            }
            Report::Sarif(_, sarif) => sarif.file(file)?,
            Report::Github(github) => github.file(file),
            Report::Junit(junit) => junit.file(file)?,
            Report::Gitlab(gitlab) => gitlab.file(file)?,
            Report::Statistics { counter, .. } => counter.add(file.diagnostics),
        }
        Ok(())
    }

    /// Sends on what the formats written as they go hold (the others write at the end).
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        match self {
            Report::Human { out, .. } | Report::Concise(out) | Report::Json(out, _) => out.flush(),
            Report::Gitlab(gitlab) => gitlab.flush(),
            Report::Sarif(..)
            | Report::Github(_)
            | Report::Junit(_)
            | Report::Statistics { .. } => Ok(()),
        }
    }

    /// Writes what only the end of the run knows, and ends the report.
    pub(crate) fn finish(self) -> io::Result<Written> {
        let mut written = Written::default();
        match self {
            Report::Human { .. } | Report::Concise(_) => {}
            Report::Json(out, array) => {
                array.close(&mut *out)?;
                writeln!(out)?;
            }
            Report::Sarif(out, sarif) => written.sarif_results = sarif.finish(out)?,
            Report::Github(github) => github.finish()?,
            Report::Junit(junit) => junit.finish()?,
            Report::Gitlab(gitlab) => gitlab.finish()?,
            Report::Statistics { out, json, counter } => {
                let statistics = counter.statistics();
                if json {
                    super::statistics::write_json(out, &statistics)?;
                } else {
                    super::statistics::write_text(out, &statistics)?;
                }
            }
        }
        Ok(written)
    }
}

/// The finding with the paths of its labels in other files written as the finding's own is
/// (see [`crate::paths::escaped`]), when it has such labels.
fn with_shown_paths(diagnostic: &Diagnostic) -> Option<Diagnostic> {
    if diagnostic.file_labels.is_empty() {
        return None;
    }
    let mut shown = diagnostic.clone();
    for label in &mut shown.file_labels {
        label.path = shown_path(&label.path).into();
    }
    Some(shown)
}

/// A path of the run (relative to the working folder, or absolute) as the outputs write the
/// linted files' own: each name escaped, without a leading `./`.
fn shown_path(path: &str) -> String {
    let text = crate::paths::escaped(std::path::Path::new(path));
    text.strip_prefix("./").unwrap_or(&text).to_owned()
}

/// One finding of `--format json` ([`hotfix_diagnostics::json_finding`]; another file's path
/// shown as the findings' own paths are).
fn json_finding(
    display: &str,
    file: &FileFindings<'_>,
    lines: &LineIndex,
    d: &Diagnostic,
) -> serde_json::Value {
    hotfix_diagnostics::json_finding(display, file.source, lines, d, &shown_path)
}
