use hotfix_hot::{CallStatus, Context as CallContext, Function, Version};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::conditions::shared::{kind_name, span_or};

declare_rule! {
    /// ## What it does
    /// Checks that every `if` gets a list of exactly three arguments:
    /// `[condition, value_if_true, value_if_false]`, or from 2021-04-16 (wallaby) also two,
    /// `[condition, value_if_true]`.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template when it parses the `if`: `Arguments to "if" must be of the
    /// form: [condition_name, value_if_true, value_if_false]`. Heat only parses the branch it
    /// takes, so an `if` nested in the other branch fails only when the condition changes.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    /// outputs:
    ///   size:
    ///     value: {if: [production, large]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    /// outputs:
    ///   size:
    ///     value: {if: [production, large, small]}
    /// ```
    pub(crate) static RULE = {
        code: "H803",
        name: "if-arguments",
        severity: Error,
        fix: None,
        check: check,
    };
}

const HEAT: &str = "Heat: `Arguments to \"if\" must be of the form: [condition_name, value_if_true, value_if_false]`";

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    let nullable = version.has_nullable_if();
    for call in &cx.semantic.calls {
        // In conditions `if` is invalid altogether: another rule's.
        if call.status != CallStatus::Active(Function::If) || call.context != CallContext::Value {
            continue;
        }
        let span = span_or(cx, call.args, call.key);
        let Some(items) = doc.items(call.args) else {
            sink.report(
                span,
                format!(
                    "`if` takes a list [condition, value_if_true, value_if_false], not {}",
                    kind_name(cx.doc, call.args)
                ),
            )
            .help(format!(
                "write `if: [condition, value_if_true, value_if_false]`; {HEAT}"
            ));
            continue;
        };
        let n = items.len();
        if n == 3 || (nullable && n == 2) {
            continue;
        }
        let wanted = if nullable { "2 or 3" } else { "3" };
        let advice = if n == 2 {
            format!(
                "add the value for a false condition; leaving it out needs heat_template_version {} (wallaby)",
                Version::V2021_04_16
            )
        } else {
            "write `if: [condition, value_if_true, value_if_false]`".to_owned()
        };
        let plural = if n == 1 { "" } else { "s" };
        sink.report(
            span,
            format!("`if` has {n} argument{plural}; it takes {wanted}"),
        )
        .help(format!("{advice}; {HEAT}"));
    }
}
