use hotfix_k2hr3::{Expr, ExprKind, Node, Value};

use super::{K2hr3Context, no_hot_check, span, walk_nodes};
use crate::rule::{Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports the branches that a constant condition (a literal: `true`, `false`, `null`, a
    /// number, a string) makes unreachable: the body of `if false`, of `elif 0`, of `while
    /// false`; the `elif` and `else` branches after `if true`.
    ///
    /// ## Why is this bad?
    /// The text and statements there are never expanded; usually the condition was meant to
    /// test a variable.
    ///
    /// ## Example
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// {{ if false }}
    /// never shown
    /// {{ endif }}
    /// ```
    ///
    /// Use instead:
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// {{ %debug% = false }}
    /// {{ if %debug% }}
    /// shown when debugging
    /// {{ endif }}
    /// ```
    pub(crate) static UNREACHABLE_BRANCH = {
        code: "K005",
        name: "k2hr3-unreachable-branch",
        severity: Warning,
        fix: None,
        check: no_hot_check,
    };
}

pub(super) fn check_k2hr3(cx: &K2hr3Context<'_>, sink: &mut Sink<'_>) {
    let Ok(template) = cx.parsed else { return };
    walk_nodes(&template.body, &mut |node| match node {
        Node::If {
            branches,
            otherwise,
            ..
        } => {
            for (i, branch) in branches.iter().enumerate() {
                match constant(&branch.cond) {
                    Some(false) => {
                        sink.report(
                            span(branch.head),
                            "this branch is never taken: its condition is always false",
                        )
                        .help("test a variable, or remove the branch");
                    }
                    // An empty branch is passed over even when taken: the engine goes on to
                    // the next `elif` or the `else`.
                    Some(true) if branch.body.is_empty() => {}
                    Some(true) => {
                        let later = branches[i + 1..].iter().map(|b| b.head);
                        let after = later.chain(otherwise.as_ref().map(|(s, _)| *s));
                        for head in after {
                            sink.report(
                                span(head),
                                "this branch is never taken: an earlier condition is always true",
                            )
                            .help("test a variable in the earlier condition, or remove the branch")
                            .label(span(branch.cond.span), "always true");
                        }
                        break;
                    }
                    None => {}
                }
            }
        }
        Node::While { head, cond, .. } if constant(cond) == Some(false) => {
            sink.report(
                span(*head),
                "the loop's body is never run: its condition is always false",
            )
            .help("test a variable, or remove the loop");
        }
        _ => {}
    });
}

/// The truth of a literal condition, as the engine decides it; `None` when it depends on
/// something.
fn constant(expr: &Expr) -> Option<bool> {
    let value = match &expr.kind {
        ExprKind::Null => Value::Null,
        ExprKind::Bool(b) => Value::Bool(*b),
        ExprKind::Num(n) => Value::Num(*n),
        ExprKind::Str(s) => Value::Str(s.clone()),
        _ => return None,
    };
    Some(value.truthy())
}
