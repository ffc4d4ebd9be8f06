//! `Kxxx`: K2HR3 templates (the RESOURCE strings K2HR3's template engine expands), read with
//! `hotfix_k2hr3`. A file is one when it starts with an engine header `{{#!…}}`, or when the
//! configuration's `k2hr3-templates` globs name it.
//!
//! These rules see the K2HR3 template, not a HOT document: their HOT check does nothing, and
//! `crate::k2hr3::lint` runs their K2HR3 checks. Suppression works as in HOT files, written as a comment
//! statement: `{{# hotfix: ignore[K003] }}` on the line of a finding or the line above, and
//! `{{# hotfix: ignore-file[K003] }}` anywhere.

use hotfix_diagnostics::Span;
use hotfix_k2hr3::{Expr, ExprKind, Node, ParseError, Template};

use crate::rule::{Context, Rule, Sink};
use crate::settings::Settings;

mod division_by_zero;
mod syntax_error;
mod unknown_engine;
mod unreachable_branch;
mod unset_variable;

pub(crate) use division_by_zero::DIVISION_BY_ZERO;
pub(crate) use syntax_error::SYNTAX_ERROR;
pub(crate) use unknown_engine::UNKNOWN_ENGINE;
pub(crate) use unreachable_branch::UNREACHABLE_BRANCH;
pub(crate) use unset_variable::UNSET_VARIABLE;

pub(crate) const RULES: &[&Rule] = &[
    &SYNTAX_ERROR,
    &UNKNOWN_ENGINE,
    &UNSET_VARIABLE,
    &DIVISION_BY_ZERO,
    &UNREACHABLE_BRANCH,
];

/// A `K` rule's check of a K2HR3 template.
pub(crate) type K2hr3Check = fn(&K2hr3Context<'_>, &mut Sink<'_>);

/// The checks, by rule.
pub(crate) const CHECKS: &[(&Rule, K2hr3Check)] = &[
    (&SYNTAX_ERROR, syntax_error::check_k2hr3),
    (&UNKNOWN_ENGINE, unknown_engine::check_k2hr3),
    (&UNSET_VARIABLE, unset_variable::check_k2hr3),
    (&DIVISION_BY_ZERO, division_by_zero::check_k2hr3),
    (&UNREACHABLE_BRANCH, unreachable_branch::check_k2hr3),
];

/// Whether a file's text starts with a K2HR3 engine header (`{{#!`), a byte-order mark aside.
pub fn is_k2hr3(bytes: &[u8]) -> bool {
    bytes
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(bytes)
        .starts_with(b"{{#!")
}

/// What the K2HR3 checks look at.
#[derive(Debug)]
pub(crate) struct K2hr3Context<'a> {
    pub(crate) settings: &'a Settings,
    pub(crate) parsed: &'a Result<Template, ParseError>,
}

/// The HOT check of a `K` rule: nothing (a HOT document is not a K2HR3 template).
pub(crate) fn no_hot_check(_cx: &Context<'_>, _sink: &mut Sink<'_>) {}

/// A `hotfix_k2hr3` span as a diagnostic span.
pub(crate) fn span(s: hotfix_k2hr3::Span) -> Span {
    Span::new(s.start, s.end)
}

/// Calls `f` on every node, depth first, in source order.
pub(crate) fn walk_nodes<'t>(nodes: &'t [Node], f: &mut impl FnMut(&'t Node)) {
    for node in nodes {
        f(node);
        match node {
            Node::If {
                branches,
                otherwise,
                ..
            } => {
                for branch in branches {
                    walk_nodes(&branch.body, f);
                }
                if let Some((_, body)) = otherwise {
                    walk_nodes(body, f);
                }
            }
            Node::While { body, .. }
            | Node::DoWhile { body, .. }
            | Node::For { body, .. }
            | Node::Foreach { body, .. } => walk_nodes(body, f),
            _ => {}
        }
    }
}

/// The formulas a node holds itself (not those of nested nodes), in source order.
pub(crate) fn node_exprs(node: &Node) -> Vec<&Expr> {
    match node {
        Node::Print { expr, .. } => vec![expr],
        Node::Eval { exprs, .. } => exprs.iter().collect(),
        Node::If { branches, .. } => branches.iter().map(|b| &b.cond).collect(),
        Node::While { cond, .. } | Node::DoWhile { cond, .. } => vec![cond],
        Node::For {
            init, cond, step, ..
        } => [init, cond, step].into_iter().flatten().collect(),
        Node::Foreach { iterable, .. } => vec![iterable],
        Node::Text { .. } | Node::Comment { .. } | Node::Break { .. } | Node::Continue { .. } => {
            Vec::new()
        }
    }
}

/// Calls `f` on a formula and every formula inside it.
pub(crate) fn walk_expr<'t>(expr: &'t Expr, f: &mut impl FnMut(&'t Expr)) {
    f(expr);
    match &expr.kind {
        ExprKind::Index { base, index, .. } => {
            walk_expr(base, f);
            walk_expr(index, f);
        }
        ExprKind::Length { base, .. } => walk_expr(base, f),
        ExprKind::Not { operand, .. } | ExprKind::Step { operand, .. } => walk_expr(operand, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            walk_expr(lhs, f);
            walk_expr(rhs, f);
        }
        ExprKind::Assign { target, value, .. } => {
            walk_expr(target, f);
            walk_expr(value, f);
        }
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Num(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_) => {}
    }
}
