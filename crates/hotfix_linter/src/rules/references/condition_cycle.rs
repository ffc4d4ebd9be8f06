use foldhash::HashMap;
use hotfix_hot::{Owner, RefKind, Version};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::graph::Graph;
use crate::rules::references::shared::section_usable;

declare_rule! {
    /// ## What it does
    /// Checks that conditions are not defined in terms of each other in a cycle (through the
    /// condition names in `not`, `and` and `or`), including a condition that refers to itself.
    /// Each cycle is reported once, at its first condition, with the path around it.
    ///
    /// ## Why is this bad?
    /// A cycle has no value. When Heat evaluates a condition (for a resource, an output or an
    /// `if` that uses it) and the evaluation comes back to a condition it is still evaluating,
    /// it refuses the template: `Condition validation error: Circular definition for condition
    /// "a"`. Heat evaluates `and` and `or` lazily, so a cycle behind an argument that already
    /// decides the result, or in conditions nothing uses, goes unnoticed until the parameters
    /// change.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// conditions:
    ///   small: {not: large}
    ///   large: {not: small}
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     condition: large
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   size: {type: string, default: small}
    /// conditions:
    ///   small: {equals: [{get_param: size}, small]}
    ///   large: {not: small}
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     condition: large
    /// ```
    pub(crate) static RULE = {
        code: "H306",
        name: "condition-cycle",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none_or(|v| v < Version::V2016_10_14) || !section_usable(cx, "conditions") {
        return;
    }
    let conditions = &cx.template.conditions;
    let index: HashMap<&str, usize> = conditions
        .iter()
        .enumerate()
        .rev()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    let mut graph = Graph::new(conditions.len());
    let mut references: Vec<_> = cx.semantic.references(RefKind::Condition).collect();
    references.sort_by_key(|r| cx.span(r.node).start);
    for reference in references {
        let Owner::Condition(from) = reference.owner else {
            continue;
        };
        let Some(&to) = index.get(reference.name.as_str()) else {
            continue;
        };
        graph.add(from, to, reference.node);
    }
    let name = |i: usize| conditions.get(i).map_or("?", |c| c.name.as_str());
    for cycle in graph.cycles() {
        let Some(&(first_from, first_to, &first)) = cycle.steps.first() else {
            continue;
        };
        let message = if cycle.is_loop() {
            format!(
                "condition `{}` is defined in terms of itself",
                name(first_from)
            )
        } else {
            format!("conditions defined in a cycle: {}", cycle.path(name))
        };
        let diagnostic = sink.report(cx.span(first), message);
        diagnostic.primary_label(format!("`{}` uses `{}`", name(first_from), name(first_to)));
        for &(from, to, &node) in cycle.shown_rest() {
            diagnostic.label(
                cx.span(node),
                format!("`{}` uses `{}`", name(from), name(to)),
            );
        }
        let advice = if cycle.is_loop() {
            format!("define `{}` without referring to itself", name(first_from))
        } else {
            "define one of these conditions without the others (e.g. from a parameter)".to_owned()
        };
        diagnostic.help(format!(
            "{advice}; Heat, when its evaluation reaches the cycle: `Condition validation \
             error: Circular definition for condition \"{}\"`",
            name(first_from)
        ));
    }
}
