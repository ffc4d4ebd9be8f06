//! Applying fixes: byte edits of the original text, back to front, pass after pass.
//!
//! In one pass, fixes are taken in the order of their first edit; a fix whose edits overlap an
//! edit already taken waits for the next pass. The fixed-point loop re-parses and asks the
//! rules again after each pass until nothing is left to apply; both `hotfix lint --fix` and
//! `hotfix upgrade` run it. The text is never re-serialised: everything outside the edits stays
//! byte for byte, which [`Segments`] records.

use hotfix_diagnostics::{Applicability, Diagnostic, Edit, Fix};

use crate::Settings;

mod segments;

pub use segments::Segments;

/// How many fix passes may be taken before fixing counts as not converging (a bug).
pub const MAX_PASSES: usize = 16;

/// One fix that was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The rule's code and name.
    pub code: &'static str,
    pub name: &'static str,
    /// What the fix did, e.g. "Remove `permutations: true`".
    pub message: String,
    pub applicability: Applicability,
    /// Where its finding starts in the original text (a finding of a later pass inside text
    /// an earlier pass wrote is placed at the start of what that pass replaced).
    pub offset: usize,
}

/// The result of fixing one file.
#[derive(Clone, Debug)]
pub struct FixOutcome {
    /// The fixed text (the source itself when no fix applied).
    pub text: String,
    /// Every fix applied, pass after pass.
    pub applied: Vec<Applied>,
    /// What the enabled rules report on `text`, as [`crate::lint`] reports it.
    pub diagnostics: Vec<Diagnostic>,
    /// Which bytes of the source survive in `text`, and where.
    pub segments: Segments,
}

/// Why a file could not be fixed: both are bugs in a rule's fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FixError {
    #[error("internal error: the fixes did not converge in {MAX_PASSES} passes")]
    NotConverged,
    #[error("internal error: the fixes produced text that does not load: {0}")]
    Unparseable(String),
}

/// Lints `source` and applies the fixes of what the enabled rules report (Safe ones, and
/// Unsafe ones with `unsafe_fixes`; `DisplayOnly` ones never), then lints the new text and
/// fixes again until no fix applies. Suppressed findings are not reported, so not fixed. A
/// source that does not load is returned unchanged with the finding [`crate::lint`] gives.
///
/// # Errors
/// When fixes are still being applied after [`MAX_PASSES`] passes, or a fix produces text
/// that no longer loads: both are bugs in a rule's fix.
pub fn fix_file(
    path: &str,
    source: &str,
    settings: &Settings,
    unsafe_fixes: bool,
) -> Result<FixOutcome, FixError> {
    fix_file_with_files(path, source, settings, unsafe_fixes, None)
}

/// [`fix_file`], with the checks that read other files when `files` is given.
pub fn fix_file_with_files(
    path: &str,
    source: &str,
    settings: &Settings,
    unsafe_fixes: bool,
    files: Option<&crate::Files<'_>>,
) -> Result<FixOutcome, FixError> {
    let mut segments = Segments::new(source.len());
    if crate::is_k2hr3(source.as_bytes()) {
        // A K2HR3 template: its rules offer no fixes.
        return Ok(FixOutcome {
            text: source.to_owned(),
            applied: Vec::new(),
            diagnostics: crate::lint_k2hr3(source, settings),
            segments,
        });
    }
    let mut first_pass = true;
    let fixed = fix_to_fixed_point(source, unsafe_fixes, &mut segments, |text, _| {
        let loaded = hotfix_yaml::check_bytes(text.as_bytes()).and_then(hotfix_yaml::parse);
        match loaded {
            Ok(doc) => {
                first_pass = false;
                Ok(crate::lint_document(path, &doc, settings, files))
            }
            // The source itself does not load: nothing to fix, report it as `lint` does.
            Err(_) if first_pass => Ok(crate::lint_with_files(
                path,
                text.as_bytes(),
                settings,
                files,
            )),
            Err(err) => Err(FixError::Unparseable(err.message)),
        }
    })
    .map_err(|stopped| match stopped {
        Stopped::Check(err) => err,
        Stopped::NotConverged => FixError::NotConverged,
    })?;
    Ok(FixOutcome {
        text: fixed.text,
        applied: fixed.applied,
        diagnostics: fixed.remaining,
        segments,
    })
}

/// Whether a fix of this applicability is applied: Safe ones always, Unsafe ones on request,
/// `DisplayOnly` ones never.
pub fn is_applied(applicability: Applicability, unsafe_fixes: bool) -> bool {
    match applicability {
        Applicability::Safe => true,
        Applicability::Unsafe => unsafe_fixes,
        Applicability::DisplayOnly => false,
    }
}

/// Where fixing to a fixed point ended.
#[derive(Debug)]
pub(crate) struct FixedPoint {
    pub(crate) text: String,
    /// The edits of each pass, in the coordinates of the text that pass started from.
    pub(crate) batches: Vec<Vec<Edit>>,
    pub(crate) applied: Vec<Applied>,
    /// What `check` reports on `text`.
    pub(crate) remaining: Vec<Diagnostic>,
}

/// Why fixing stopped short.
#[derive(Debug)]
pub(crate) enum Stopped<E> {
    /// `check` failed (the text no longer parses, say).
    Check(E),
    /// Fixes were still being applied after [`MAX_PASSES`] passes.
    NotConverged,
}

/// Checks the text, applies the allowed fixes of what `check` reports, and repeats on the new
/// text until no fix applies. `check` sees the current text and which ranges of it earlier
/// passes wrote; `segments` records every pass's edits.
pub(crate) fn fix_to_fixed_point<E>(
    source: &str,
    unsafe_fixes: bool,
    segments: &mut Segments,
    mut check: impl FnMut(&str, &Segments) -> Result<Vec<Diagnostic>, E>,
) -> Result<FixedPoint, Stopped<E>> {
    let mut text = source.to_owned();
    let mut batches: Vec<Vec<Edit>> = Vec::new();
    let mut applied_fixes = Vec::new();
    for _ in 0..MAX_PASSES {
        let mut diagnostics = check(&text, segments).map_err(Stopped::Check)?;
        if let Some(line) = lone_cr_line(&text) {
            withhold_all(&mut diagnostics, line);
        }
        let fixable: Vec<&Diagnostic> = diagnostics
            .iter()
            .filter(|d| {
                d.fix
                    .as_ref()
                    .is_some_and(|f| is_applied(f.applicability, unsafe_fixes))
            })
            .collect();
        let fixes: Vec<&Fix> = fixable.iter().filter_map(|d| d.fix.as_ref()).collect();
        let (next, applied) = apply_fixes(&text, &fixes);
        if applied.is_empty() {
            return Ok(FixedPoint {
                text,
                batches,
                applied: applied_fixes,
                remaining: diagnostics,
            });
        }
        for &i in &applied {
            applied_fixes.push(Applied {
                code: fixable[i].code,
                name: fixable[i].name,
                message: fixes[i].message.clone(),
                applicability: fixes[i].applicability,
                offset: segments.to_original(fixable[i].span.start),
            });
        }
        let batch: Vec<Edit> = applied
            .iter()
            .flat_map(|&i| fixes[i].edits.iter().cloned())
            .collect();
        segments.apply(&batch);
        batches.push(batch);
        text = next;
    }
    Err(Stopped::NotConverged)
}

/// The 1-based line of the first carriage return that is a line break on its own (not part of a
/// CRLF). YAML takes it for a line break; the fixes and rewrites, which edit lines, count only
/// LF and CRLF, so they are not applied to such a file rather than risk breaking it.
fn lone_cr_line(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    let at = (0..bytes.len()).find(|&i| lone(i))?;
    let breaks = (0..at).filter(|&i| bytes[i] == b'\n' || lone(i)).count();
    Some(breaks + 1)
}

/// Takes the fix off every finding, and says why in its help.
fn withhold_all(diagnostics: &mut [Diagnostic], line: usize) {
    let note = format!(
        "hotfix does not rewrite a file that ends a line with a lone carriage return (line \
         {line}): convert its line ends to LF or CRLF, then run hotfix again"
    );
    for diagnostic in diagnostics.iter_mut().filter(|d| d.fix.is_some()) {
        diagnostic.fix = None;
        diagnostic.help = Some(match diagnostic.help.take() {
            Some(help) => format!("{help}; {note}"),
            None => note.clone(),
        });
    }
}

/// The text with the fixes applied, and which fixes (indexes into `fixes`) were applied.
pub fn apply_fixes(source: &str, fixes: &[&Fix]) -> (String, Vec<usize>) {
    let mut order: Vec<usize> = (0..fixes.len())
        .filter(|&i| !fixes[i].edits.is_empty())
        .collect();
    order.sort_by_key(|&i| {
        let first = fixes[i]
            .edits
            .iter()
            .map(|e| e.span.start)
            .min()
            .unwrap_or(0);
        (first, i)
    });
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = Vec::new();
    for i in order {
        let edits = &fixes[i].edits;
        let valid = edits.iter().all(|e| {
            e.span.start <= e.span.end
                && e.span.end <= source.len()
                && source.is_char_boundary(e.span.start)
                && source.is_char_boundary(e.span.end)
        });
        let clashes = edits.iter().enumerate().any(|(j, a)| {
            taken.iter().any(|b| overlaps(a, b)) || edits[..j].iter().any(|b| overlaps(a, b))
        });
        if valid && !clashes {
            taken.extend(edits.iter());
            applied.push(i);
        }
    }
    taken.sort_by_key(|e| std::cmp::Reverse((e.span.start, e.span.end)));
    let mut text = source.to_owned();
    for edit in taken {
        text.replace_range(edit.span.range(), &edit.content);
    }
    applied.sort_unstable();
    (text, applied)
}

/// Two edits conflict when their ranges share a byte, or both insert at the same place, or one
/// inserts strictly inside the other's range.
fn overlaps(a: &Edit, b: &Edit) -> bool {
    let (a, b) = (a.span, b.span);
    if a.is_empty() && b.is_empty() {
        return a.start == b.start;
    }
    if a.is_empty() {
        return b.start < a.start && a.start < b.end;
    }
    if b.is_empty() {
        return a.start < b.start && b.start < a.end;
    }
    a.start < b.end && b.start < a.end
}

#[cfg(test)]
mod lone_cr_tests {
    use super::*;

    #[test]
    fn finds_the_line_of_the_first_lone_carriage_return() {
        assert_eq!(lone_cr_line("a\r\nb\n"), None);
        assert_eq!(lone_cr_line("a\r\nb\rc\n"), Some(2));
        assert_eq!(lone_cr_line("a\rb"), Some(1));
        assert_eq!(lone_cr_line("a\nb\nc\r"), Some(3));
    }
}

#[cfg(test)]
mod tests {
    use hotfix_diagnostics::{Applicability, Severity, Span};

    use super::*;
    use crate::Selector;

    fn fix(edits: Vec<Edit>) -> Fix {
        Fix {
            message: String::new(),
            edits,
            applicability: Applicability::Safe,
        }
    }

    #[test]
    fn applies_edits_back_to_front_and_leaves_the_rest_alone() {
        let source = "a: Fn::Join # keep\nb: Ref\n";
        let one = fix(vec![Edit::replace(Span::new(3, 11), "list_join")]);
        let two = fix(vec![Edit::replace(Span::new(22, 25), "get_param")]);
        let (text, applied) = apply_fixes(source, &[&two, &one]);
        assert_eq!(text, "a: list_join # keep\nb: get_param\n");
        assert_eq!(applied, vec![0, 1]);
    }

    #[test]
    fn an_overlapping_fix_waits_for_the_next_pass() {
        let source = "0123456789";
        let outer = fix(vec![Edit::replace(Span::new(2, 8), "X")]);
        let inner = fix(vec![Edit::replace(Span::new(4, 5), "Y")]);
        let (text, applied) = apply_fixes(source, &[&inner, &outer]);
        assert_eq!(text, "01X89");
        assert_eq!(applied, vec![1]);
        let same_point = fix(vec![Edit::insert(3, "a")]);
        let again = fix(vec![Edit::insert(3, "b")]);
        let (text, applied) = apply_fixes(source, &[&same_point, &again]);
        assert_eq!(text, "012a3456789");
        assert_eq!(applied, vec![0]);
    }

    #[test]
    fn edits_outside_the_text_are_never_applied() {
        let source = "é";
        let bad = fix(vec![Edit::replace(Span::new(1, 2), "x")]);
        let (text, applied) = apply_fixes(source, &[&bad]);
        assert_eq!(text, "é");
        assert!(applied.is_empty());
    }

    const TEMPLATE: &str = "heat_template_version: 2015-04-30\n\
resources:\n  r:\n    type: OS::Heat::None\n    properties:\n      at: 12:30\n      rules:\n        repeat:\n          permutations: true   # nests anyway\n          for_each: {<%p%>: [a]}\n          template: <%p%>\n";

    fn codes(applied: &[Applied]) -> Vec<(&str, Applicability)> {
        applied.iter().map(|a| (a.code, a.applicability)).collect()
    }

    #[test]
    fn fix_file_applies_safe_fixes_and_unsafe_ones_only_when_asked() {
        let safe = fix_file("t.yaml", TEMPLATE, &Settings::default(), false).unwrap();
        assert_eq!(codes(&safe.applied), [("H903", Applicability::Safe)]);
        assert_eq!(
            safe.text,
            TEMPLATE.replace("          permutations: true   # nests anyway\n", "")
        );
        // What remains is linted on the fixed text: the Unsafe fix is still offered.
        let h004 = safe.diagnostics.iter().find(|d| d.code == "H004").unwrap();
        assert_eq!(&safe.text[h004.span.range()], "12:30");
        assert_eq!(
            h004.fix.as_ref().map(|f| f.applicability),
            Some(Applicability::Unsafe)
        );
        let all = fix_file("t.yaml", TEMPLATE, &Settings::default(), true).unwrap();
        assert_eq!(
            codes(&all.applied),
            [
                ("H004", Applicability::Unsafe),
                ("H903", Applicability::Safe)
            ]
        );
        assert!(all.text.contains("      at: '12:30'\n"), "{}", all.text);
        assert!(all.diagnostics.iter().all(|d| d.code != "H004"));
        // The offset of each applied fix is in the original text.
        assert_eq!(&TEMPLATE[all.applied[0].offset..][..5], "12:30");
        assert_eq!(&TEMPLATE[all.applied[1].offset..][..12], "permutations");
    }

    #[test]
    fn fix_file_leaves_suppressed_findings_and_disabled_rules_alone() {
        let suppressed = TEMPLATE.replace("# nests anyway", "# hotfix: ignore[H903]");
        let outcome = fix_file("t.yaml", &suppressed, &Settings::default(), false).unwrap();
        assert!(outcome.applied.is_empty());
        assert_eq!(outcome.text, suppressed);
        let settings = Settings {
            ignore: vec![Selector::parse("H903").unwrap()],
            ..Settings::default()
        };
        let outcome = fix_file("t.yaml", TEMPLATE, &settings, true).unwrap();
        assert_eq!(codes(&outcome.applied), [("H004", Applicability::Unsafe)]);
        assert!(outcome.text.contains("permutations: true"));
    }

    #[test]
    fn fix_file_reports_a_file_that_does_not_load_and_changes_nothing() {
        let broken = "heat_template_version: 2015-04-30\nresources: [\n";
        let outcome = fix_file("t.yaml", broken, &Settings::default(), true).unwrap();
        assert_eq!(outcome.text, broken);
        assert!(outcome.applied.is_empty());
        assert_eq!(outcome.diagnostics.len(), 1);
        assert_eq!(outcome.diagnostics[0].code, crate::LOAD_ERROR);
    }

    fn finding(fix: Fix) -> Diagnostic {
        let mut d = Diagnostic::new("H999", "test", Severity::Error, "m", Span::new(0, 1));
        d.fix(fix);
        d
    }

    fn fix_of(applicability: Applicability, edit: Edit) -> Fix {
        Fix {
            message: "m".to_owned(),
            edits: vec![edit],
            applicability,
        }
    }

    #[test]
    fn display_only_fixes_are_never_applied() {
        let mut segments = Segments::new(3);
        let fixed = fix_to_fixed_point("abc", true, &mut segments, |_, _| {
            Ok::<_, ()>(vec![finding(fix_of(
                Applicability::DisplayOnly,
                Edit::replace(Span::new(0, 1), "x"),
            ))])
        })
        .unwrap();
        assert_eq!(fixed.text, "abc");
        assert!(fixed.applied.is_empty());
        assert_eq!(fixed.remaining.len(), 1);
    }

    #[test]
    fn a_fix_that_never_removes_its_finding_does_not_converge() {
        let mut segments = Segments::new(3);
        let result = fix_to_fixed_point("abc", false, &mut segments, |_, _| {
            Ok::<_, ()>(vec![finding(fix_of(
                Applicability::Safe,
                Edit::insert(0, "x"),
            ))])
        });
        assert!(matches!(result, Err(Stopped::NotConverged)));
    }

    #[test]
    fn a_failing_check_stops_fixing_with_its_error() {
        let mut segments = Segments::new(3);
        let result = fix_to_fixed_point("abc", false, &mut segments, |text, _| {
            if text == "abc" {
                Ok(vec![finding(fix_of(
                    Applicability::Safe,
                    Edit::replace(Span::new(0, 3), "{"),
                ))])
            } else {
                Err("does not parse")
            }
        });
        assert!(matches!(result, Err(Stopped::Check("does not parse"))));
    }
}
