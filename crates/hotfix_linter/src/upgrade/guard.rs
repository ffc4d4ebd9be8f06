//! No rewrite erases the evidence of a likely mistake.
//!
//! Some lint rules flag a node that Heat accepts but that is almost certainly not what its
//! author meant: a CloudFormation function HOT never had (`{Fn::GetAtt: …}`, which Heat passes
//! on as data), a function with sibling keys (never called), a function used before its
//! version or after its removal. A rewrite can keep what Heat computes and still make such a
//! node disappear: folding `Fn::Select: [1, [{Fn::GetAtt: [r, a]}, b]]` to `b` is exact, but
//! the `Fn::GetAtt` the author meant to call is gone, and so is the finding that would have
//! exposed it.
//!
//! So in every pass of a step the upgrade lints the current text with these rules, and a fix
//! whose edits touch such a finding is tried on its own: when the finding does not survive it
//! (the node is dropped or folded, not carried along), the fix is withheld, Safe or Unsafe, and
//! the rule's finding says why. It stays in place: an error blocks the step, and the template
//! keeps the last version its content meets.

use hotfix_diagnostics::{Diagnostic, Fix, Span};
use hotfix_hot::{Semantic, Template};
use hotfix_yaml::Document;

use crate::fix::apply_fixes;
use crate::rule::Selector;
use crate::rule::{Context, Sink};
use crate::settings::Settings;

/// The lint rules whose findings mark a node as a likely mistake that no rewrite may erase:
/// `removed-function`, `function-not-available-yet`, `function-with-sibling-keys`,
/// `cfn-function-not-in-hot`. Each finding is about the node itself (its key, its siblings,
/// the declared version), so it survives a rewrite that carries the node along unchanged.
/// (`invalid-function-arguments` is about a call's arguments, which the rewrites of that call
/// change on purpose, each with its own applicability.)
pub(crate) const GUARDED: [&str; 4] = ["H201", "H202", "H203", "H204"];

/// The guarded rules' findings on a document, less those an inline comment suppresses.
pub(crate) fn likely_mistakes(doc: &Document) -> Vec<Diagnostic> {
    let template = Template::new(doc);
    let semantic = Semantic::new(&template);
    let cx = Context::new("", doc, &template, &semantic);
    let mut out = Vec::new();
    for rule in crate::all_rules() {
        if GUARDED.contains(&rule.code)
            && let crate::rule::Check::Hot(check) = rule.check
        {
            check(
                &cx,
                &mut Sink {
                    rule,
                    out: &mut out,
                },
            );
        }
    }
    // Only the guarded rules are selected: no `unused-suppression` findings come back.
    let settings = Settings {
        select: GUARDED.iter().filter_map(|c| Selector::parse(c)).collect(),
        ..Settings::default()
    };
    let mut out = crate::suppression::apply(doc, out, &settings);
    out.retain(|d| GUARDED.contains(&d.code));
    out
}

/// Withholds the fixes of `diagnostics` that would erase one of `mistakes` (all the guarded
/// findings on `text`): the fix is removed and the diagnostic says which finding it would have
/// erased. A finding on text an earlier rewrite of this upgrade wrote (`written`) is not the
/// author's, and guards nothing.
pub(crate) fn withhold(
    text: &str,
    diagnostics: &mut [Diagnostic],
    mistakes: &[Diagnostic],
    written: &[Span],
) {
    let authors: Vec<&Diagnostic> = mistakes
        .iter()
        .filter(|m| !written.iter().any(|w| overlaps(*w, m.span)))
        .collect();
    if authors.is_empty() {
        return;
    }
    let lines = hotfix_yaml::LineIndex::new(text);
    for diagnostic in diagnostics.iter_mut() {
        let Some(fix) = &diagnostic.fix else {
            continue;
        };
        let touched: Vec<&Diagnostic> = authors
            .iter()
            .copied()
            .filter(|m| fix.edits.iter().any(|e| touches(e.span, m.span)))
            .collect();
        if touched.is_empty() {
            continue;
        }
        let Some(erased) = erased(text, fix, &touched, mistakes) else {
            continue;
        };
        let at = lines.position(text, erased.span.start);
        let message = format!(
            "{}, and its rewrite is withheld: it would erase what {} reports at {}:{} ({})",
            diagnostic.message, erased.code, at.line, at.char_col, erased.message
        );
        let help = format!(
            "an upgrade does not rewrite away a likely mistake: fix what {} ({}) reports first (`hotfix lint` shows it), then upgrade again; the withheld rewrite: {}",
            erased.code, erased.name, fix.message
        );
        diagnostic.fix = None;
        diagnostic.message = message;
        diagnostic.help(help);
    }
}

fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

/// Whether an edit touches a finding's span: overlaps it, or inserts inside it.
fn touches(edit: Span, finding: Span) -> bool {
    overlaps(edit, finding)
        || (edit.start == edit.end && finding.start < edit.start && edit.start < finding.end)
}

/// The first of `touched` that does not survive the fix applied alone: afterwards its rule
/// reports its message fewer times than before (`all`: every guarded finding before). A fix
/// whose result does not parse erases everything it touches.
fn erased<'m>(
    text: &str,
    fix: &Fix,
    touched: &[&'m Diagnostic],
    all: &[Diagnostic],
) -> Option<&'m Diagnostic> {
    let (after, applied) = apply_fixes(text, &[fix]);
    let survivors = if applied.is_empty() {
        Vec::new()
    } else {
        hotfix_yaml::parse_unlimited(&after)
            .map(|doc| likely_mistakes(&doc))
            .unwrap_or_default()
    };
    let count = |list: &mut dyn Iterator<Item = &Diagnostic>, d: &Diagnostic| {
        list.filter(|s| s.code == d.code && s.message == d.message)
            .count()
    };
    touched
        .iter()
        .copied()
        .find(|d| count(&mut survivors.iter(), d) < count(&mut all.iter(), d))
}
