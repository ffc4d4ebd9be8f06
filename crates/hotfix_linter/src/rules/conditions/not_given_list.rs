use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_hot::{CallStatus, Context as CallContext, Function};
use hotfix_yaml::{NodeKind, ScalarValue, Style};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::conditions::shared::{py_str, span_or};
use crate::rules::functions::refusal;

declare_rule! {
    /// ## What it does
    /// Checks that `not` is given one condition (a name, a boolean or a condition function),
    /// not a list and not nothing.
    ///
    /// ## Why is this bad?
    /// `not` negates a single condition. Heat takes a list as the *name* of a condition and
    /// fails once the condition is used: `Invalid condition "['production']"`. An empty
    /// `not:` is refused at once: `Argument to "not" must be a condition`.
    ///
    /// ## Fix safety
    /// The fix replaces a list of one condition written in a flow list with that condition
    /// (`not: [production]` → `not: production`). It is unsafe: where Heat failed once the
    /// condition was used, the fixed template negates the condition, and the resources and
    /// outputs that use it are created or left out by its value.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    ///   testing: {not: [production]}
    /// resources:
    ///   debugger: {type: OS::Heat::None, condition: testing}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    ///   testing: {not: production}
    /// resources:
    ///   debugger: {type: OS::Heat::None, condition: testing}
    /// ```
    pub(crate) static RULE = {
        code: "H804",
        name: "not-given-list",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::Not)
            || call.context != CallContext::Condition
        {
            continue;
        }
        // What Heat's constructor refuses (`hotfix_hot::function_args`): `not` of `null`.
        if let Some(refused) = refusal(cx, Function::Not, call.args) {
            sink.report(span_or(cx, call.args, call.key), "`not` has no condition")
                .help(format!(
                    "give `not` the condition to negate, e.g. `not: production`; Heat: `{}`",
                    refused.text
                ));
            continue;
        }
        let Some(items) = doc.items(call.args) else {
            continue;
        };
        let heat = format!(
            "once the condition is used, Heat: `Invalid condition \"{}\"`",
            py_str(cx, call.args)
        );
        let diagnostic = sink.report(
            span_or(cx, call.args, call.key),
            "`not` takes one condition, not a list",
        );
        match items {
            [item] => {
                let text = cx.text(*item).to_owned();
                diagnostic.help(format!("write `not: {text}`; {heat}"));
                // `[x]` → `x`, when the item is a scalar written in place in a flow list (in a
                // block list, the item's indentation might not suit a plain value).
                let node = doc.node(*item);
                let simple = matches!(&node.kind, NodeKind::Scalar(s)
                    if !matches!(s.value, ScalarValue::Null) && !text.contains('\n'))
                    && node.anchor.is_none()
                    && node.tag.is_none()
                    && matches!(
                        doc.node(call.args).kind,
                        NodeKind::Sequence {
                            style: Style::Flow,
                            ..
                        }
                    )
                    && doc.node(call.args).anchor.is_none();
                if simple {
                    diagnostic.fix(Fix {
                        message: format!("Replace the list with `{text}`"),
                        edits: vec![Edit::replace(cx.span(call.args), text)],
                        applicability: Applicability::Unsafe,
                    });
                }
            }
            [] => {
                diagnostic.help(format!("give `not` the condition to negate; {heat}"));
            }
            _ => {
                diagnostic.help(format!(
                    "to negate several conditions, combine them first: `not: {{or: [a, b]}}` is true when none is, `not: {{and: [a, b]}}` when not all are; {heat}"
                ));
            }
        }
    }
}
