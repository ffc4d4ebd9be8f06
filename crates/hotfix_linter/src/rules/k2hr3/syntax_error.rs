use hotfix_k2hr3::ParseErrorKind;

use super::{K2hr3Context, no_hot_check, span};
use crate::rule::{Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports a K2HR3 template that the K2HR3 Template Engine cannot parse: a `{{` that no
    /// `}}` closes, an unclosed string, an `if` without `endif` (or an `endif`, `elif`, `else`
    /// without `if`), a `while`, `for` or `foreach` without `done` (or a `done` without a loop),
    /// a `do` without its closing `while`, a `break` or `continue` outside every loop, an
    /// operator missing an operand, a multi-level element access (`%a%[0][1]`), an engine
    /// header that is not at the very start.
    ///
    /// ## Why is this bad?
    /// K2HR3 stores the template as it is; nothing checks it before it is stored, and it fails
    /// only when a host or user reads the RESOURCE.
    ///
    /// ## Example
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// {{ if %n% > 0 }}
    /// positive
    /// ```
    ///
    /// Use instead:
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// {{ %n% = 1 }}
    /// {{ if %n% > 0 }}
    /// positive
    /// {{ endif }}
    /// ```
    pub(crate) static SYNTAX_ERROR = {
        code: "K001",
        name: "k2hr3-syntax-error",
        severity: Error,
        fix: None,
        check: no_hot_check,
    };
}

pub(super) fn check_k2hr3(cx: &K2hr3Context<'_>, sink: &mut Sink<'_>) {
    let Err(err) = cx.parsed else { return };
    if matches!(err.kind, ParseErrorKind::UnknownEngine(_)) {
        return;
    }
    let help = match &err.kind {
        ParseErrorKind::UnclosedStatement => {
            "close the statement with `}}`, or write `{{{` for a literal `{{`"
        }
        ParseErrorKind::UnclosedBlock("if") => "close the block with `{{ endif }}`",
        ParseErrorKind::UnclosedBlock("do") => "close the block with `{{ while CONDITION }}`",
        ParseErrorKind::UnclosedBlock(_) => "close the loop with `{{ done }}`",
        ParseErrorKind::OutsideLoop(_) => {
            "`break` and `continue` work only inside `while`, `do`, `for` and `foreach`"
        }
        ParseErrorKind::MissingOperand => "give the operator its operand",
        ParseErrorKind::MisplacedHeader => {
            "move the header to the first byte of the template, or remove it"
        }
        _ => "the K2HR3 Template Engine cannot expand this template",
    };
    sink.report(span(err.span), err.to_string()).help(help);
}
