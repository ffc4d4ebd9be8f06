use hotfix_k2hr3::{BinaryOp, Expr, ExprKind, Node};

use super::{K2hr3Context, no_hot_check, node_exprs, span, walk_nodes};
use crate::rule::{Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports a variable read where nothing has set it, when its value is evidently needed:
    /// printed (`{{= %v% }}`), computed with (`+ - * / % & | << >> < > <= >=`, `!`, `++`,
    /// `--`), indexed, assigned to another variable, or walked by `foreach`. Reads that only
    /// test it (a condition, `&&`, `||`, `==`, `!=`) are not reported. A variable is set by an
    /// assignment, `++`/`--`, a `for` initialisation or a `foreach` earlier in the template, or
    /// anywhere in a loop around the read (for the next round). Variables whose name starts
    /// with `yrn:` are given by K2HR3 (the data of a RESOURCE or ROLE) and are not reported, nor
    /// are the keys of the template's variables file (`FILE.vars.json` beside the template
    /// `FILE`, a JSON object as `hotfix k2hr3 expand --vars` reads).
    ///
    /// ## Why is this bad?
    /// The K2HR3 Template Engine reads a variable nothing set as `null`: printed it gives
    /// nothing, `null + 1` gives `01`, `null < 5` is false, and `-`, `!`, `++`, `foreach`
    /// fail. Apart from YRN paths, a template's variables are its own: one read before it is
    /// set is usually a misspelt name.
    ///
    /// ## Example
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// {{ %count% = 3 }}
    /// {{= %cuont% }}
    /// ```
    ///
    /// Use instead:
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// {{ %count% = 3 }}
    /// {{= %count% }}
    /// ```
    pub(crate) static UNSET_VARIABLE = {
        code: "K003",
        name: "k2hr3-unset-variable",
        severity: Warning,
        fix: None,
        check: no_hot_check,
    };
}

pub(super) fn check_k2hr3(cx: &K2hr3Context<'_>, sink: &mut Sink<'_>) {
    let Ok(template) = cx.parsed else { return };
    // Where each variable is set, the spans of the loops, and the reads that need a value.
    let mut sets: Vec<(&str, usize)> = Vec::new();
    let mut loops: Vec<hotfix_k2hr3::Span> = Vec::new();
    let mut reads: Vec<(&str, hotfix_k2hr3::Span)> = Vec::new();
    walk_nodes(&template.body, &mut |node| {
        match node {
            Node::Foreach {
                var,
                var_span,
                span,
                ..
            } => {
                sets.push((var.as_str(), var_span.start));
                loops.push(*span);
            }
            Node::While { span, .. } | Node::DoWhile { span, .. } | Node::For { span, .. } => {
                loops.push(*span);
            }
            _ => {}
        }
        let needs_value = matches!(node, Node::Print { .. } | Node::Foreach { .. });
        for expr in node_exprs(node) {
            visit(expr, needs_value, &mut sets, &mut reads);
        }
    });
    for (name, at) in reads {
        if name.starts_with("yrn:") || cx.settings.k2hr3_variables.iter().any(|v| v == name) {
            continue;
        }
        let set_before = sets.iter().any(|(n, s)| *n == name && *s < at.start);
        let set_in_enclosing_loop = loops.iter().any(|l| {
            l.start <= at.start
                && at.end <= l.end
                && sets
                    .iter()
                    .any(|(n, s)| *n == name && l.start <= *s && *s < l.end)
        });
        if !set_before && !set_in_enclosing_loop {
            sink.report(
                span(at),
                format!("%{name}% is read before anything sets it: the engine reads it as null"),
            )
            .help("assign it first (`{{ %name% = … }}`), or check the name's spelling");
        }
    }
}

/// Records the sets and the reads that need a value in a formula; `needs_value` says whether
/// the formula's own value is used as a value (not only tested).
fn visit<'t>(
    expr: &'t Expr,
    needs_value: bool,
    sets: &mut Vec<(&'t str, usize)>,
    reads: &mut Vec<(&'t str, hotfix_k2hr3::Span)>,
) {
    match &expr.kind {
        ExprKind::Var(name) => {
            if needs_value {
                reads.push((name.as_str(), expr.span));
            }
        }
        ExprKind::Index { base, index, .. } => {
            visit(base, needs_value, sets, reads);
            visit(index, true, sets, reads);
        }
        ExprKind::Length { base, .. } => visit(base, needs_value, sets, reads),
        ExprKind::Not { operand, .. } => visit(operand, true, sets, reads),
        ExprKind::Step { operand, .. } => {
            visit(operand, true, sets, reads);
            if let ExprKind::Var(name) = &operand.kind {
                sets.push((name.as_str(), expr.span.end));
            }
        }
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let value = !matches!(
                op,
                BinaryOp::And | BinaryOp::Or | BinaryOp::Eq | BinaryOp::Ne
            );
            visit(lhs, value, sets, reads);
            visit(rhs, value, sets, reads);
        }
        ExprKind::Assign { target, value, .. } => {
            visit(value, true, sets, reads);
            match &target.kind {
                // The variable is set once the value is computed: `%v% = %v% + 1` reads first.
                ExprKind::Var(name) => sets.push((name.as_str(), expr.span.end)),
                _ => visit(target, true, sets, reads),
            }
        }
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Num(_) | ExprKind::Str(_) => {}
    }
}
