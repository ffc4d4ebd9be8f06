//! Applying fixes: byte edits of the original text, back to front.
//!
//! Fixes are taken in the order of their first edit; a fix whose edits overlap an edit already
//! taken waits for the next pass (the caller re-parses and asks the rules again). The text is
//! never re-serialised: everything outside the edits stays byte for byte.

use hotfix_diagnostics::{Edit, Fix};

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
