use hotfix_hot::{Call, CallStatus, Owner, Version, owner_definition};

use super::shared::{unique_calls, version_label};
use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for value functions used where Heat expects a condition: in a `conditions`
    /// definition, in the `condition` of a resource or output, and in the first argument of
    /// `if`. Conditions can only use `get_param`, `equals`, `not`, `and` and `or`, plus `yaql`
    /// and `contains` from 2017-09-01 (pike).
    ///
    /// ## Why is this bad?
    /// Conditions are evaluated before any resource exists, so Heat refuses anything else
    /// when it parses the condition: `The function "get_resource" is invalid in this context`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   env: {type: string}
    /// conditions:
    ///   is_prod:
    ///     equals: [{str_replace: {template: E, params: {E: {get_param: env}}}}, prod]
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   env: {type: string}
    /// conditions:
    ///   is_prod:
    ///     equals: [{get_param: env}, prod]
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H206",
        name: "invalid-function-in-condition",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    for call in unique_calls(cx.semantic, |c| matches!(c.status, CallStatus::Invalid(_))) {
        let function = call.status.function();
        let name = function.name();
        let later = function
            .condition_since()
            .filter(|&since| since > version)
            .map(|since| {
                format!(
                    "`{name}` is a condition function only from heat_template_version {}; ",
                    version_label(since)
                )
            })
            .unwrap_or_default();
        sink.report(
            cx.span(call.key),
            format!("`{name}` cannot be used {}", place(cx, call)),
        )
        .help(format!(
            "{later}conditions are evaluated before any resource exists and can use only {}. Heat: `The function \"{name}\" is invalid in this context`",
            allowed(version)
        ));
    }
}

/// Where the condition is, for the message.
fn place(cx: &Context<'_>, call: &Call) -> String {
    let name = &owner_definition(cx.template, call.owner).name;
    match (call.owner, call.field) {
        (Owner::Condition(_), _) => format!("in the definition of condition `{name}`"),
        (Owner::Resource(_), "condition") => format!("in the condition of resource `{name}`"),
        (Owner::Output(_), "condition") => format!("in the condition of output `{name}`"),
        _ => "in the condition of an `if`".to_owned(),
    }
}

/// The condition functions of the version, for the help.
fn allowed(version: Version) -> String {
    let names: Vec<String> = version
        .condition_functions()
        .iter()
        .map(|f| format!("`{}`", f.name()))
        .collect();
    names.join(", ")
}
