use hotfix_k2hr3::ParseErrorKind;

use super::{K2hr3Context, no_hot_check, span};
use crate::rule::{Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports a K2HR3 template that the K2HR3 Template Engine refuses to load: an unclosed
    /// string or variable, an empty string `''`, an `if` without
    /// `endif` (or an `endif`, `elif`, `else` without `if`), a `while`, `for` or `foreach`
    /// without `done` (or a `done` without a loop), a `do` without its closing `while`, an `if`
    /// directly inside an `if` or a loop directly inside a loop, parentheses, a sign or a
    /// fraction in a number, an operator given operands it refuses (`7 - 3 == 2`,
    /// `%a% > 1 && %a% < 9`, `'a' - 1`), a multi-level element access (`%a%[0][1]`), an empty
    /// template; inside a block, a formula starting with `++` or `--` right after one that
    /// ends with a number, a variable or a calculation (`{{ %n% }}{{ ++%i% }}`), and a `while`
    /// after a `do … while` that ended in the same block.
    ///
    /// ## Why is this bad?
    /// K2HR3 stores the template as it is; nothing checks it before it is stored, and the
    /// engine refuses it only when a host or user reads the RESOURCE.
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
        ParseErrorKind::Empty => "give the template some text or a statement",
        ParseErrorKind::UnclosedBlock("if") => "close the block with `{{ endif }}`",
        ParseErrorKind::UnclosedBlock("do") => "close the block with `{{ while CONDITION }}`",
        ParseErrorKind::UnclosedBlock(_) => "close the loop with `{{ done }}`",
        ParseErrorKind::DirectlyNested { .. } => {
            "put the inner block after the outer one, or an \
             `if` (around a loop) or a loop (around an `if`) between them"
        }
        ParseErrorKind::Operands { .. } | ParseErrorKind::Operand { .. } => {
            "the engine reads a formula from the left, each operator taking the rest as its \
             right side: assign a part to a variable first (`{{ %d% = 7 - 3 }}{{ if %d% == 2 }}`)"
        }
        ParseErrorKind::MissingOperand => "give the operator its operand",
        ParseErrorKind::EmptyString => {
            "the engine refuses `''` and `\"\"`: keep an empty string in a variable instead"
        }
        _ => "the K2HR3 Template Engine cannot load this template",
    };
    sink.report(span(err.span), err.to_string()).help(help);
}
