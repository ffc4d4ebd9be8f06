//! Inline suppression: `# hotfix: ignore[H301, H302]` on the line of a finding or the line
//! above it, `# hotfix: ignore-file[H301]` anywhere for the whole file. A suppression that
//! suppresses nothing is itself reported (`unused-suppression`).

use hotfix_diagnostics::{Diagnostic, Span};
use hotfix_yaml::Document;

use crate::rule::Selector;
use crate::rules::load::UNUSED_SUPPRESSION;
use crate::settings::Settings;

#[derive(Debug)]
struct Suppression {
    span: Span,
    /// `None`: the whole file.
    line: Option<usize>,
    selectors: Vec<(String, Option<Selector>, bool)>,
}

/// Removes suppressed findings and adds one for every suppression that suppressed nothing.
pub(crate) fn apply(
    doc: &Document,
    diagnostics: Vec<Diagnostic>,
    settings: &Settings,
) -> Vec<Diagnostic> {
    let mut suppressions = parse(doc);
    let mut malformed = Vec::new();
    suppressions.retain(|s| {
        if s.selectors.is_empty() {
            malformed.push(s.span);
            false
        } else {
            true
        }
    });
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics {
        let line = doc
            .lines()
            .position(doc.source(), diagnostic.span.start)
            .line;
        let mut suppressed = false;
        for suppression in &mut suppressions {
            let applies = match suppression.line {
                None => true,
                Some(l) => line == l || line == l + 1,
            };
            if !applies {
                continue;
            }
            for (_, selector, used) in &mut suppression.selectors {
                let matches = selector.as_ref().is_some_and(|s| {
                    crate::rule_by_code(diagnostic.code).is_some_and(|rule| s.matches(rule))
                });
                if matches {
                    *used = true;
                    suppressed = true;
                }
            }
        }
        if !suppressed {
            kept.push(diagnostic);
        }
    }
    if !settings.enabled(&UNUSED_SUPPRESSION) {
        return kept;
    }
    let severity = settings.severity(&UNUSED_SUPPRESSION);
    let mut report = |span: Span, message: String, help: &str| {
        let mut d = Diagnostic::new(
            UNUSED_SUPPRESSION.code,
            UNUSED_SUPPRESSION.name,
            severity,
            message,
            span,
        );
        d.help(help);
        kept.push(d);
    };
    for span in malformed {
        report(
            span,
            "malformed suppression comment".to_owned(),
            "write `# hotfix: ignore[CODE, …]` or `# hotfix: ignore-file[CODE, …]`",
        );
    }
    for suppression in suppressions {
        for (text, selector, used) in suppression.selectors {
            if selector.is_none() {
                let help = match crate::registry::suggest_rule(&text) {
                    Some(rule) => format!("did you mean `{rule}`? `hotfix rules` lists the codes"),
                    None => "`hotfix rules` lists the codes".to_owned(),
                };
                report(
                    suppression.span,
                    format!("`{text}` is not a hotfix rule code or name"),
                    &help,
                );
            } else if !used {
                let scope = if suppression.line.is_some() {
                    "here"
                } else {
                    "in this file"
                };
                report(
                    suppression.span,
                    format!("unused suppression: nothing {scope} is reported as `{text}`"),
                    "remove it from the comment",
                );
            }
        }
    }
    kept
}

fn parse(doc: &Document) -> Vec<Suppression> {
    let mut out = Vec::new();
    for comment in doc.comments() {
        let Some(rest) = comment.text.trim().strip_prefix("hotfix:") else {
            continue;
        };
        let rest = rest.trim();
        let (file, list) = if let Some(list) = rest.strip_prefix("ignore-file") {
            (true, list)
        } else if let Some(list) = rest.strip_prefix("ignore") {
            (false, list)
        } else {
            out.push(Suppression {
                span: comment.span,
                line: None,
                selectors: Vec::new(),
            });
            continue;
        };
        let selectors = list
            .trim()
            .strip_prefix('[')
            .and_then(|l| l.split_once(']'))
            .map(|(inside, _)| {
                inside
                    .split(',')
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(|c| (c.to_owned(), Selector::parse(c), false))
                    .collect()
            })
            .unwrap_or_default();
        let line = (!file).then(|| doc.lines().position(doc.source(), comment.span.start).line);
        out.push(Suppression {
            span: comment.span,
            line,
            selectors,
        });
    }
    out
}
