//! `hotfix lint --statistics`: how many findings each rule has, instead of the findings, as
//! ruff (and flake8 before it) prints them.
//!
//! ```text
//! 12<TAB>H408<TAB>[ ] unused-parameter
//!  2<TAB>H903<TAB>[*] permutations-ignored
//! ```
//!
//! Sorted by count, most first, then by code. `[*]` marks a rule whose every finding has a safe
//! fix; the column is left out when no rule has one. `--format json` gives the same as a JSON
//! list of `{code, name, count, fixable}`.

use std::collections::BTreeMap;
use std::io::{self, Write};

use hotfix_diagnostics::{Applicability, Diagnostic};
use serde_json::json;

#[cfg(test)]
use super::FileFindings;

/// One rule's count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Statistic {
    pub(crate) code: &'static str,
    pub(crate) name: &'static str,
    pub(crate) count: usize,
    /// Every finding has a safe fix.
    pub(crate) fixable: bool,
}

/// The counts per rule, gathered one file at a time.
#[derive(Debug, Default)]
pub(crate) struct Counter {
    by_code: BTreeMap<&'static str, Statistic>,
}

impl Counter {
    /// Counts these findings.
    pub(crate) fn add(&mut self, diagnostics: &[Diagnostic]) {
        for diagnostic in diagnostics {
            let statistic = self.by_code.entry(diagnostic.code).or_insert(Statistic {
                code: diagnostic.code,
                name: diagnostic.name,
                count: 0,
                fixable: true,
            });
            statistic.count += 1;
            statistic.fixable &= safely_fixable(diagnostic);
        }
    }

    /// The counts per rule, most first, then by code.
    pub(crate) fn statistics(self) -> Vec<Statistic> {
        let mut statistics: Vec<Statistic> = self.by_code.into_values().collect();
        // Stable: equal counts keep the order of their codes.
        statistics.sort_by_key(|s| std::cmp::Reverse(s.count));
        statistics
    }
}

/// The counts per rule of these files, most first, then by code.
#[cfg(test)]
pub(crate) fn collect(files: &[FileFindings<'_>]) -> Vec<Statistic> {
    let mut counter = Counter::default();
    for file in files {
        counter.add(file.diagnostics);
    }
    counter.statistics()
}

fn safely_fixable(diagnostic: &Diagnostic) -> bool {
    diagnostic
        .fix
        .as_ref()
        .is_some_and(|fix| fix.applicability == Applicability::Safe)
}

/// The table: count, code, fixable mark, name; tab-separated, counts right-aligned.
pub(crate) fn write_text(out: &mut dyn Write, statistics: &[Statistic]) -> io::Result<()> {
    let count_width = statistics
        .iter()
        .map(|s| s.count.to_string().len())
        .max()
        .unwrap_or(1);
    let code_width = statistics.iter().map(|s| s.code.len()).max().unwrap_or(0);
    let any_fixable = statistics.iter().any(|s| s.fixable);
    for statistic in statistics {
        let mark = match (any_fixable, statistic.fixable) {
            (false, _) => "",
            (true, true) => "[*] ",
            (true, false) => "[ ] ",
        };
        writeln!(
            out,
            "{:>count_width$}\t{:<code_width$}\t{mark}{}",
            statistic.count, statistic.code, statistic.name
        )?;
    }
    Ok(())
}

/// The same as a JSON list (`[]` when there is nothing to count).
pub(crate) fn write_json(out: &mut dyn Write, statistics: &[Statistic]) -> io::Result<()> {
    let statistics: Vec<_> = statistics
        .iter()
        .map(|s| {
            json!({
                "code": s.code,
                "name": s.name,
                "count": s.count,
                "fixable": s.fixable,
            })
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &statistics)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use hotfix_diagnostics::{Edit, Fix, Severity, Span};

    use super::*;

    fn diagnostic(code: &'static str, fix: Option<Applicability>) -> Diagnostic {
        let mut d = Diagnostic::new(code, "made-up", Severity::Warning, "m", Span::new(0, 1));
        if let Some(applicability) = fix {
            d.fix(Fix {
                message: String::new(),
                edits: vec![Edit::replace(Span::new(0, 1), "b")],
                applicability,
            });
        }
        d
    }

    fn text(diagnostics: &[Diagnostic]) -> String {
        let mut out = Vec::new();
        let statistics = collect(&[FileFindings {
            path: Path::new("t.yaml"),
            source: "a",
            diagnostics,
        }]);
        write_text(&mut out, &statistics).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn counts_sort_by_count_then_code_and_mark_safe_fixes() {
        let mut diagnostics = vec![diagnostic("H2", None), diagnostic("H1", None)];
        diagnostics.extend((0..10).map(|_| diagnostic("H3", Some(Applicability::Safe))));
        // One unsafe fix among safe ones: not every finding is fixed by `--fix`.
        diagnostics.push(diagnostic("H4", Some(Applicability::Safe)));
        diagnostics.push(diagnostic("H4", Some(Applicability::Unsafe)));
        assert_eq!(
            text(&diagnostics),
            "10\tH3\t[*] made-up\n 2\tH4\t[ ] made-up\n 1\tH1\t[ ] made-up\n 1\tH2\t[ ] made-up\n"
        );
        // No fixable rule: no column for it.
        assert_eq!(text(&diagnostics[..2]), "1\tH1\tmade-up\n1\tH2\tmade-up\n");
        assert_eq!(text(&[]), "");
    }
}
