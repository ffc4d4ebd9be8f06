use super::shared::{literal_len, repeats};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::call_at;

declare_rule! {
    /// ## What it does
    /// Checks that the literal lists of a `repeat` with `permutations: false`
    /// (`heat_template_version` 2017-09-01 and later) all have the same length.
    ///
    /// ## Why is this bad?
    /// With `permutations: false` Heat pairs the lists item by item, and refuses lists of
    /// different lengths when it resolves the value: `For repeat, the length of for_each
    /// values should be equal if no nested loop.` Null values are left out of the comparison
    /// (and make the result empty). A value given by a function is compared when it is
    /// computed from literals alone (`str_split` of a literal string, `list_concat` of literal
    /// lists), evaluated as Heat evaluates it in the template's version; one that depends on
    /// parameters, resources or conditions is only known when the stack is created, and is
    /// left out.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2017-09-01
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       nics:
    ///         repeat:
    ///           for_each:
    ///             <%net%>: [net1, net2, net3]
    ///             <%ip%>: [10.0.0.1, 10.0.0.2]
    ///           template: {network: <%net%>, fixed_ip: <%ip%>}
    ///           permutations: false
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2017-09-01
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       nics:
    ///         repeat:
    ///           for_each:
    ///             <%net%>: [net1, net2, net3]
    ///             <%ip%>: [10.0.0.1, 10.0.0.2, 10.0.0.3]
    ///           template: {network: <%net%>, fixed_ip: <%ip%>}
    ///           permutations: false
    /// ```
    pub(crate) static RULE = {
        code: "H905",
        name: "permutations-unequal-lengths",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    for repeat in repeats(cx) {
        if !repeat.zipped(doc, version) {
            continue;
        }
        let (Some(for_each), Some(entries)) = (repeat.for_each, repeat.for_each_entries(cx)) else {
            continue;
        };
        // Null is left out of Heat's length check; maps are rejected earlier (H902).
        // A call computed from literals alone (`str_split` of a literal) is a list too.
        let lists: Vec<(hotfix_yaml::Entry, usize)> = entries
            .into_iter()
            .filter_map(|e| {
                if crate::rules::util::is_sequence(doc, e.value) {
                    return Some((e, literal_len(cx, version, e.value)?));
                }
                call_at(cx, e.value)?;
                match hotfix_eval::fold(doc, version, e.value)? {
                    hotfix_eval::Value::List(items) => Some((e, items.len())),
                    _ => None,
                }
            })
            .collect();
        let Some(&(_, first)) = lists.first() else {
            continue;
        };
        if lists.iter().all(|&(_, len)| len == first) {
            continue;
        }
        let summary = lists
            .iter()
            .map(|&(e, len)| format!("`{}` has {len}", hotfix_hot::key_name(doc, e.key)))
            .collect::<Vec<_>>()
            .join(", ");
        let diagnostic = sink.report(
            cx.span(for_each.key),
            format!("`permutations: false` pairs lists of different lengths: {summary}"),
        );
        for &(entry, len) in &lists {
            let items = if len == 1 { "item" } else { "items" };
            diagnostic.label(
                cx.span(entry.value),
                format!("`{}`: {len} {items}", hotfix_hot::key_name(doc, entry.key)),
            );
        }
        diagnostic.help(
            "give every list the same number of items, or drop `permutations: false` to get every combination; Heat: `For repeat, the length of for_each values should be equal if no nested loop.`",
        );
    }
}
