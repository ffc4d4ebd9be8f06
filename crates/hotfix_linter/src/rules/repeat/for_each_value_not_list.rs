use hotfix_yaml::{NodeKind, ScalarValue};

use super::shared::{a_type, repeats, span};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::call_at;

declare_rule! {
    /// ## What it does
    /// Checks that every value of a literal `for_each` map is a list (or, from 2016-10-14, a
    /// map, whose keys are then iterated), null, or a function call.
    ///
    /// ## Why is this bad?
    /// Heat fails when it resolves the value. Before 2016-10-14: `The values of the
    /// "for_each" argument to "repeat" must be lists`; from 2016-10-14 on: `The values of the
    /// "for_each" argument to "repeat" must be lists or maps`. A string is not a list, even a
    /// comma-separated one. With `permutations: false` (2017-09-01 on) maps are rejected too,
    /// with the first text. A null value counts as an empty list.
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
    ///           for_each:
    ///             <%port%>: 80,443
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
        code: "H902",
        name: "for-each-value-not-list",
        severity: Error,
        fix: None,
        check: check,
    };
}

const LISTS: &str = "The values of the \"for_each\" argument to \"repeat\" must be lists";

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    for repeat in repeats(cx) {
        let Some(entries) = repeat.for_each_entries(cx) else {
            continue;
        };
        let zipped = repeat.zipped(doc, version);
        let maps_allowed = version.repeat_accepts_maps() && !zipped;
        for entry in entries {
            if call_at(cx, entry.value).is_some() {
                continue;
            }
            let ok = match &doc.node(doc.resolve(entry.value)).kind {
                // `resolve` never returns an alias.
                NodeKind::Sequence { .. } | NodeKind::Alias { .. } => true,
                NodeKind::Mapping { .. } => maps_allowed,
                // `bytes` is a Python sequence, so Heat lets `!!binary` through here.
                NodeKind::Scalar(s) => matches!(s.value, ScalarValue::Null | ScalarValue::Binary),
            };
            if ok {
                continue;
            }
            let name = hotfix_hot::key_name(doc, entry.key);
            let is_map = crate::rules::util::is_mapping(doc, entry.value);
            let diagnostic = sink.report(
                span(cx, entry.value),
                format!(
                    "the `for_each` value of `{name}` is {}, not a list{}",
                    a_type(doc, entry.value),
                    if maps_allowed { " or map" } else { "" }
                ),
            );
            if let (true, Some(permutations)) = (is_map && zipped, repeat.permutations) {
                diagnostic.label(
                    cx.span(permutations.key),
                    format!(
                        "with `permutations: {}` only lists are accepted",
                        cx.text(permutations.value)
                    ),
                );
                diagnostic.help(format!(
                    "a map's keys have no order to pair by: list them (`[a, b]`); Heat: `{LISTS}`"
                ));
            } else if is_map {
                diagnostic.help(format!(
                    "maps are accepted only from heat_template_version 2016-10-14 (newton); list the keys instead (`[a, b]`); Heat: `{LISTS}`"
                ));
            } else if maps_allowed {
                diagnostic.help(format!(
                    "write a list of strings (`['a', 'b']`), or use a function that returns one (`{{get_param: a_comma_delimited_list}}`); Heat: `{LISTS} or maps`"
                ));
            } else {
                diagnostic.help(format!(
                    "write a list of strings (`['a', 'b']`), or use a function that returns one (`{{get_param: a_comma_delimited_list}}`); Heat: `{LISTS}`"
                ));
            }
        }
    }
}
