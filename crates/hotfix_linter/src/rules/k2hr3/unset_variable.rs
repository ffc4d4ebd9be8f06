use hotfix_k2hr3::{ExprKind, Node};

use super::{K2hr3Context, no_hot_check, node_exprs, span, walk_expr, walk_nodes};
use crate::rule::{Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports a variable read where nothing has set it: no assignment, `++`/`--`, `for`
    /// initialisation or `foreach` sets it earlier in the template, and no loop around the read
    /// sets it later (for the next round). Variables whose name starts with `yrn:` are given by
    /// K2HR3 (the data of a RESOURCE or ROLE) and are not reported, nor are the keys of the
    /// template's variables file (`FILE.vars.json` beside the template `FILE`, a JSON object
    /// as `hotfix k2hr3 expand --vars` reads).
    ///
    /// ## Why is this bad?
    /// Apart from YRN paths, a template's variables are its own: one read before it is set has
    /// no value, usually a misspelt name.
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
        severity: Error,
        fix: None,
        check: no_hot_check,
    };
}

pub(super) fn check_k2hr3(cx: &K2hr3Context<'_>, sink: &mut Sink<'_>) {
    let Ok(template) = cx.parsed else { return };
    // Where each variable is set, and the spans of the loops.
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
        for expr in node_exprs(node) {
            walk_expr(expr, &mut |e| match &e.kind {
                // The variable is set once the value is computed: `%v% = %v% + 1` reads first.
                ExprKind::Assign { name, .. } => sets.push((name.as_str(), e.span.end)),
                ExprKind::Step {
                    name, name_span, ..
                } => {
                    reads.push((name.as_str(), *name_span));
                    sets.push((name.as_str(), e.span.end));
                }
                ExprKind::Var(name) => reads.push((name.as_str(), e.span)),
                _ => {}
            });
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
                format!("%{name}% is read before anything sets it"),
            )
            .help("assign it first (`{{ %name% = … }}`), or check the name's spelling");
        }
    }
}
