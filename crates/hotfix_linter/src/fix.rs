//! Applying fixes: byte edits of the original text, back to front, pass after pass.
//!
//! In one pass, fixes are taken in the order of their first edit; a fix whose edits overlap an
//! edit already taken waits for the next pass. [`fix_to_fixed_point`] re-parses and asks the
//! rules again after each pass until nothing is left to apply; both `hotfix lint --fix` and
//! `hotfix upgrade` run it. The text is never re-serialised: everything outside the edits stays
//! byte for byte, which [`Segments`] records.

use hotfix_diagnostics::{Applicability, Diagnostic, Edit, Fix};

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
    /// Where its first edit starts in the original text (a later pass's edit inside text an
    /// earlier pass wrote is placed at the start of what that pass replaced).
    pub offset: usize,
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
        let diagnostics = check(&text, segments).map_err(Stopped::Check)?;
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
            let start = fixes[i].edits.iter().map(|e| e.span.start).min();
            applied_fixes.push(Applied {
                code: fixable[i].code,
                name: fixable[i].name,
                message: fixes[i].message.clone(),
                applicability: fixes[i].applicability,
                offset: segments.to_original(start.unwrap_or(0)),
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
mod tests {
    use hotfix_diagnostics::{Applicability, Span};

    use super::*;

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
}
