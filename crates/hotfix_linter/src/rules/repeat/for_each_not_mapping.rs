use super::shared::{a_type, repeats, span};
use crate::rule::{Context, Sink, declare_rule};
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

const NOT_A_MAP: &str = "Heat: `The \"for_each\" argument to \"repeat\" must contain a map`";
const SYNTAX: &str = "Heat: `\"repeat\" syntax should be repeat: template: This is %var% for_each: %var%: ['a', 'b', 'c']`";

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let doc = cx.doc;
    for repeat in repeats(cx) {
        if repeat.args.is_none() {
            let what = match call_at(cx, repeat.call.args) {
                Some(call) => format!("a `{}` call", cx.text(call.key)),
                None => a_type(doc, repeat.call.args).to_owned(),
            };
            sink.report(
                cx.span(repeat.call.args),
                format!("the arguments to `repeat` are {what}, not a map"),
            )
            .help(
                "write `repeat: {for_each: {<%x%>: [...]}, template: ...}`; Heat: `Arguments to \"repeat\" must be a map`",
            );
            continue;
        }
        let missing: Vec<&str> = [
            ("for_each", repeat.for_each.is_none()),
            ("template", repeat.template.is_none()),
        ]
        .into_iter()
        .filter_map(|(name, missing)| missing.then_some(name))
        .collect();
        if !missing.is_empty() {
            let names = missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(" and ");
            sink.report(
                cx.span(repeat.call.key),
                format!("`repeat` without {names}"),
            )
            .help(format!(
                "`repeat` needs both `for_each` and `template`; {SYNTAX}"
            ));
        }
        let Some(for_each) = repeat.for_each else {
            continue;
        };
        if call_at(cx, for_each.value).is_some() {
            continue;
        }
        if !crate::rules::util::is_mapping(doc, for_each.value) {
            sink.report(
                span(cx, for_each.value),
                format!(
                    "`for_each` is {}, not a map of placeholders to lists",
                    a_type(doc, for_each.value)
                ),
            )
            .help(format!(
                "map each placeholder to its values: `for_each: {{<%x%>: [a, b]}}`; {NOT_A_MAP}"
            ));
        } else if doc.entries(for_each.value).is_empty() {
            sink.report(cx.span(for_each.value), "`for_each` is an empty map")
                    .help(
                    "give at least one placeholder and its values; Heat fails when it resolves the value: `not enough values to unpack (expected 2, got 0)`",
                );
        }
    }
}
