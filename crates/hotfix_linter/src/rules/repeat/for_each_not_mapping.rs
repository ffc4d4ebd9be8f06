use hotfix_hot::Function;
use hotfix_hot::function_args::Kind;

use super::shared::{a_type, repeats, span};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::functions::{Refused, refusal};
use crate::rules::util::call_at;

declare_rule! {
    /// ## What it does
    /// Checks the shape of every `repeat` call: its arguments must be a map with a `for_each`
    /// and a `template`, and `for_each` must be a map (or a function that returns one) of at
    /// least one placeholder.
    ///
    /// ## Why is this bad?
    /// Heat rejects the template. Arguments that are not a map (a string, a list, a
    /// `get_param` call): `Arguments to "repeat" must be a map`. A missing key:
    /// `"repeat" syntax should be repeat: template: This is %var% for_each: %var%: ['a', 'b',
    /// 'c']` (a quoted `KeyError`, its line breaks shown as `\n`). A `for_each` that is a list,
    /// a string or null: `The "for_each" argument to "repeat" must contain a map`. An empty
    /// `for_each` map fails when the value is resolved, with Python's own
    /// `not enough values to unpack (expected 2, got 0)`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       ports:
    ///         repeat:
    ///           for_each: ['80', '443']
    ///           template: {port: <%port%>}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       ports:
    ///         repeat:
    ///           for_each:
    ///             <%port%>: ['80', '443']
    ///           template: {port: <%port%>}
    /// ```
    pub(crate) static RULE = {
        code: "H901",
        name: "for-each-not-mapping",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let doc = cx.doc;
    for repeat in repeats(cx) {
        // What Heat's constructor and `validate()` refuse (`hotfix_hot::function_args`), in
        // this rule's words.
        let refused = refusal(cx, Function::Repeat, repeat.call.args);
        // Heat's text on one line (its example of the syntax is indented on several).
        let heat = |r: &Refused| {
            let words: Vec<&str> = r.text.split_whitespace().collect();
            format!("Heat: `{}`", words.join(" "))
        };
        match &refused {
            Some(r) if r.kind == Kind::NotMap => {
                let what = match call_at(cx, repeat.call.args) {
                    Some(call) => format!("a `{}` call", cx.text(call.key)),
                    None => a_type(doc, repeat.call.args).to_owned(),
                };
                sink.report(
                    cx.span(repeat.call.args),
                    format!("the arguments to `repeat` are {what}, not a map"),
                )
                .help(format!(
                    "write `repeat: {{for_each: {{<%x%>: [...]}}, template: ...}}`; {}",
                    heat(r)
                ));
                continue;
            }
            Some(r) if matches!(r.kind, Kind::Missing(_)) => {
                // Heat names the syntax; both missing keys are named here.
                let names = [
                    ("for_each", repeat.for_each.is_none()),
                    ("template", repeat.template.is_none()),
                ]
                .into_iter()
                .filter(|(_, missing)| *missing)
                .map(|(name, _)| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(" and ");
                sink.report(
                    cx.span(repeat.call.key),
                    format!("`repeat` without {names}"),
                )
                .help(format!(
                    "`repeat` needs both `for_each` and `template`; {}",
                    heat(r)
                ));
            }
            _ => {}
        }
        let Some(for_each) = repeat.for_each else {
            continue;
        };
        if let Some(r) = refused.as_ref().filter(|r| r.kind == Kind::ForEachNotMap) {
            sink.report(
                span(cx, for_each.value),
                format!(
                    "`for_each` is {}, not a map of placeholders to lists",
                    a_type(doc, for_each.value)
                ),
            )
            .help(format!(
                "map each placeholder to its values: `for_each: {{<%x%>: [a, b]}}`; {}",
                heat(r)
            ));
            continue;
        }
        if call_at(cx, for_each.value).is_some()
            || !crate::rules::util::is_mapping(doc, for_each.value)
        {
            continue;
        }
        if doc.entries(for_each.value).is_empty() {
            sink.report(cx.span(for_each.value), "`for_each` is an empty map")
                    .help(
                    "give at least one placeholder and its values; Heat fails when it resolves the value: `not enough values to unpack (expected 2, got 0)`",
                );
        }
    }
}
