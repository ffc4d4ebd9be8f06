use hotfix_hot::{CallStatus, Context as CallContext, Function, Owner};

use hotfix_hot::function_args::Kind;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::conditions::shared::{kind_name, span_or};
use crate::rules::functions::refusal;

declare_rule! {
    /// ## What it does
    /// Checks that `and` and `or` get a list of at least two conditions.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template when it parses the condition: anything but a list gives
    /// `Arguments to "and" must be a list of conditions` (a single name too), and a list of
    /// fewer than two gives `The minimum number of condition arguments to "and" is 2.`
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    ///   monitored: {and: [production]}
    /// resources:
    ///   agent: {type: OS::Heat::None, condition: monitored}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    /// resources:
    ///   agent: {type: OS::Heat::None, condition: production}
    /// ```
    pub(crate) static RULE = {
        code: "H805",
        name: "and-or-too-few-arguments",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        if call.context != CallContext::Condition {
            continue;
        }
        let name = match call.status {
            CallStatus::Active(Function::And) => "and",
            CallStatus::Active(Function::Or) => "or",
            _ => continue,
        };
        let span = span_or(cx, call.args, call.key);
        // Directly a condition's definition, where a bare name is not allowed (H802).
        let definition = match call.owner {
            Owner::Condition(i) => cx
                .template
                .conditions
                .get(i)
                .is_some_and(|c| doc.resolve(c.value) == call.map),
            _ => false,
        };
        let neutral = if name == "and" { "true" } else { "false" };
        let direct = |condition: &str| {
            if definition {
                format!(
                    "a definition needs a function: add `{neutral}` as a second condition, `{name}: [{condition}, {neutral}]`, or use `{condition}` directly where this condition is used"
                )
            } else {
                format!(
                    "a one-condition `{name}` is just that condition: use `{condition}` directly"
                )
            }
        };
        // What Heat's constructor refuses (`hotfix_hot::function_args`), in this rule's words.
        let Some(refused) = refusal(cx, call.status.function(), call.args) else {
            continue;
        };
        let heat = &refused.text;
        let Some(items) = doc.items(call.args).filter(|_| refused.kind == Kind::Count) else {
            let what = kind_name(cx.doc, call.args);
            let advice = if let Some(condition) = doc.str_value(call.args) {
                direct(condition)
            } else {
                format!("write `{name}: [a, b]`")
            };
            sink.report(
                span,
                format!("`{name}` takes a list of conditions, not {what}"),
            )
            .help(format!("{advice}; Heat: `{heat}`"));
            continue;
        };
        let advice = match items.len() {
            0 => format!(
                "list at least two conditions, or write `{}` instead",
                name == "and"
            ),
            1 => direct(
                items
                    .first()
                    .filter(|&&i| doc.scalar(i).is_some())
                    .map_or("it", |&i| cx.text(i)),
            ),
            _ => continue,
        };
        let n = items.len();
        let plural = if n == 1 { "" } else { "s" };
        sink.report(
            span,
            format!("`{name}` has {n} condition{plural}; it needs at least 2"),
        )
        .help(format!("{advice}; Heat: `{heat}`"));
    }
}
