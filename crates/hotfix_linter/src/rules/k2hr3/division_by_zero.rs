use hotfix_k2hr3::{BinaryOp, ExprKind};

use super::{K2hr3Context, no_hot_check, node_exprs, span, walk_expr, walk_nodes};
use crate::rule::{Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports a division (`/`) or remainder (`%`) whose right operand is the literal `0`.
    ///
    /// ## Why is this bad?
    /// The K2HR3 Template Engine refuses to divide by the number 0: expanding the template
    /// fails there (`right template object result is 0, so could not division(/) by 0.`).
    ///
    /// ## Example
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// {{= 10 / 0 }}
    /// ```
    ///
    /// Use instead:
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// {{= 10 / 2 }}
    /// ```
    pub(crate) static DIVISION_BY_ZERO = {
        code: "K004",
        name: "k2hr3-division-by-zero",
        severity: Error,
        fix: None,
        check: no_hot_check,
    };
}

pub(super) fn check_k2hr3(cx: &K2hr3Context<'_>, sink: &mut Sink<'_>) {
    let Ok(template) = cx.parsed else { return };
    walk_nodes(&template.body, &mut |node| {
        for expr in node_exprs(node) {
            walk_expr(expr, &mut |e| {
                if let ExprKind::Binary {
                    op: op @ (BinaryOp::Div | BinaryOp::Rem),
                    op_span,
                    rhs,
                    ..
                } = &e.kind
                    && rhs.kind == ExprKind::Num(0.0)
                {
                    let what = if *op == BinaryOp::Div {
                        "division"
                    } else {
                        "remainder"
                    };
                    sink.report(span(rhs.span), format!("{what} by zero"))
                        .help("expanding the template fails here: divide by something else")
                        .label(span(*op_span), "this operator");
                }
            });
        }
    });
}
