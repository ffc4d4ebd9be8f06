use hotfix_k2hr3::ParseErrorKind;

use super::{K2hr3Context, no_hot_check, span};
use crate::rule::{Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports an engine header `{{#!NAME }}` that names another engine than `k2hr3template`.
    ///
    /// ## Why is this bad?
    /// The header is reserved: only `k2hr3template` (the K2HR3 Template Engine) is supported,
    /// and a template naming another engine is not expanded.
    ///
    /// ## Example
    /// ```k2hr3
    /// {{#!jinja2 }}
    /// Hello
    /// ```
    ///
    /// Use instead:
    /// ```k2hr3
    /// {{#!k2hr3template }}
    /// Hello
    /// ```
    pub(crate) static UNKNOWN_ENGINE = {
        code: "K002",
        name: "k2hr3-unknown-engine",
        severity: Error,
        fix: None,
        check: no_hot_check,
    };
}

pub(super) fn check_k2hr3(cx: &K2hr3Context<'_>, sink: &mut Sink<'_>) {
    let Err(err) = cx.parsed else { return };
    if let ParseErrorKind::UnknownEngine(name) = &err.kind {
        sink.report(span(err.span), format!("unknown template engine `{name}`"))
            .help("the only engine is `k2hr3template`: write `{{#!k2hr3template }}` or leave the header out");
    }
}
