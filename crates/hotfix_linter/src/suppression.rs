//! Inline suppression: `# hotfix: ignore[H301, H302]` on the line of a finding or the line
//! above it, `# hotfix: ignore-file[H301]` anywhere for the whole file. A suppression that
//! suppresses nothing is itself reported (`unused-suppression`).

use hotfix_diagnostics::{Diagnostic, Span};
use hotfix_yaml::Document;

use crate::rule::{Rule, Selector};
use crate::rules::load::UNUSED_SUPPRESSION;
use crate::settings::Settings;

#[derive(Debug)]
struct Suppression {
    span: Span,
    /// `None`: the whole file.
    line: Option<usize>,
    selectors: Vec<(String, Option<Selector>, bool)>,
}

/// A file's suppressions by the lines they apply to: each finding is matched with those of its
/// line and the line above, and with the file's once for each rule (a file of thousands of
/// findings and thousands of `ignore-file` comments took 12.7 s when each finding was matched
/// with every comment).
struct Index {
    /// The suppressions written on each line, by their place in the file's list.
    by_line: std::collections::HashMap<usize, Vec<usize>>,
    /// The `ignore-file` suppressions.
    whole_file: Vec<usize>,
    /// Whether the `ignore-file` suppressions suppress a rule's findings, by code.
    file_verdict: std::collections::HashMap<&'static str, bool>,
}

impl Index {
    fn new(suppressions: &[Suppression]) -> Index {
        let mut index = Index {
            by_line: std::collections::HashMap::new(),
            whole_file: Vec::new(),
            file_verdict: std::collections::HashMap::new(),
        };
        for (at, suppression) in suppressions.iter().enumerate() {
            match suppression.line {
                Some(line) => index.by_line.entry(line).or_default().push(at),
                None => index.whole_file.push(at),
            }
        }
        index
    }

    /// Whether a finding of `rule` on `line` is suppressed; every selector that names the rule
    /// where it applies is marked used.
    fn suppresses(&mut self, suppressions: &mut [Suppression], rule: &Rule, line: usize) -> bool {
        let mut suppressed = if let Some(&verdict) = self.file_verdict.get(rule.code) {
            verdict
        } else {
            let mut verdict = false;
            for &at in &self.whole_file {
                verdict |= mark(&mut suppressions[at], rule);
            }
            self.file_verdict.insert(rule.code, verdict);
            verdict
        };
        for written in [Some(line), line.checked_sub(1)].into_iter().flatten() {
            for &at in self.by_line.get(&written).map_or(&[][..], Vec::as_slice) {
                suppressed |= mark(&mut suppressions[at], rule);
            }
        }
        suppressed
    }
}

/// Marks every selector of `suppression` that names `rule` as used; whether one does.
fn mark(suppression: &mut Suppression, rule: &Rule) -> bool {
    let mut matched = false;
    for (_, selector, used) in &mut suppression.selectors {
        if selector.as_ref().is_some_and(|s| s.matches(rule)) {
            *used = true;
            matched = true;
        }
    }
    matched
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
    let mut index = Index::new(&suppressions);
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics {
        let suppressed = crate::rule_by_code(diagnostic.code).is_some_and(|rule| {
            let line = doc
                .lines()
                .position(doc.source(), diagnostic.span.start)
                .line;
            index.suppresses(&mut suppressions, rule, line)
        });
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

#[cfg(test)]
mod tests {
    use super::*;
    use hotfix_diagnostics::Severity;

    /// What `apply` gave when every finding was matched with every suppression: the reference
    /// the indexed matching must agree with (kept findings, then the unused suppressions).
    fn every_pair(doc: &Document, diagnostics: Vec<Diagnostic>) -> Vec<(String, Span)> {
        let mut suppressions = parse(doc);
        suppressions.retain(|s| !s.selectors.is_empty());
        let mut kept = Vec::new();
        for diagnostic in diagnostics {
            let line = doc
                .lines()
                .position(doc.source(), diagnostic.span.start)
                .line;
            let mut suppressed = false;
            for suppression in &mut suppressions {
                let applies = suppression.line.is_none_or(|l| line == l || line == l + 1);
                for (_, selector, used) in &mut suppression.selectors {
                    let matches = selector.as_ref().is_some_and(|s| {
                        crate::rule_by_code(diagnostic.code).is_some_and(|rule| s.matches(rule))
                    });
                    if applies && matches {
                        *used = true;
                        suppressed = true;
                    }
                }
            }
            if !suppressed {
                kept.push((diagnostic.code.to_owned(), diagnostic.span));
            }
        }
        for suppression in suppressions {
            for (_, selector, used) in suppression.selectors {
                if selector.is_some() && !used {
                    kept.push(("unused".to_owned(), suppression.span));
                }
            }
        }
        kept
    }

    #[test]
    fn findings_are_matched_with_their_lines_and_the_files_suppressions_as_with_every_one() {
        // Suppressions on a finding's line, the line above, two lines above (too far), for the
        // whole file, by code and by name, of several codes, and of codes that are no rule's.
        // A finding matched by two selectors at once (`c`'s H101: its line's and the line
        // above's; H301: two file selectors), and selectors by name.
        let name = |code: &str| crate::rule_by_code(code).expect("a rule").name;
        let text = format!(
            "\
heat_template_version: 2018-08-31 # hotfix: ignore-file[H301]
parameters: # hotfix: ignore[H101, W9999]
  a: {{type: string}}
  # hotfix: ignore[unused-parameter, {h302}]
  b: {{type: string}}
  # hotfix: ignore[H1]
  c: {{type: string}} # hotfix: ignore[H101]

  d: {{type: string}}
# hotfix: ignore-file[H302, H9999, {h301}]
resources: {{}}
",
            h302 = name("H302"),
            h301 = name("H301"),
        );
        let text = text.as_str();
        let doc = hotfix_yaml::parse(text).expect("loads");
        let codes = ["H101", "H301", "H302", "W201", "H001"];
        let mut diagnostics = Vec::new();
        for (line_start, _) in text.match_indices('\n').chain([(0, "")]) {
            for code in codes {
                let rule = crate::rule_by_code(code);
                diagnostics.push(Diagnostic::new(
                    rule.map_or("H999", |r| r.code),
                    rule.map_or("none", |r| r.name),
                    Severity::Warning,
                    "m",
                    Span::new(line_start + 1, line_start + 2),
                ));
            }
        }
        let expected = every_pair(&doc, diagnostics.clone());
        let got: Vec<(String, Span)> = apply(&doc, diagnostics, &Settings::default())
            .into_iter()
            .map(|d| {
                let code = if d.code == UNUSED_SUPPRESSION.code && d.message.starts_with("unused") {
                    "unused".to_owned()
                } else {
                    d.code.to_owned()
                };
                (code, d.span)
            })
            .filter(|(code, _)| code != UNUSED_SUPPRESSION.code)
            .collect();
        assert_eq!(got, expected);
        // Some findings were kept and some suppressed, some suppressions used and some not.
        assert!(got.iter().any(|(c, _)| c == "unused"));
        assert!(got.iter().any(|(c, _)| c == "H101"));
        assert!(got.len() < codes.len() * text.lines().count());
    }
}
