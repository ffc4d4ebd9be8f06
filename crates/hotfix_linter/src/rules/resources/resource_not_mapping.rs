use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{is_falsy, kind_name, span_or};
use crate::rules::util::{is_mapping, is_null, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that `resources` is a mapping from resource names to definitions, and that
    /// every definition is itself a mapping.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template. A definition that is not a mapping gives
    /// `"resources" must contain a map of resource maps. Found a [<class 'str'>] instead`
    /// (an empty one, such as `''` or `[]`, gives `Each resource must contain a type key.`);
    /// a `resources` section that is a list or a string fails with Python's own error,
    /// `'list' object has no attribute 'items'`. An empty `resources:` is fine.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server: OS::Heat::None
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server:
    ///     type: OS::Heat::None
    /// ```
    pub(crate) static RULE = {
        code: "H601",
        name: "resource-not-mapping",
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
    if let Some(section) = cx.template.section("resources") {
        // Heat reads a false section (`resources:`, `[]`, `''`) as `{}`.
        if !is_mapping(doc, section.value) && !is_falsy(doc, section.value) {
            let ty = python_type(doc, section.value);
            sink.report(
                cx.span(section.value),
                format!(
                    "`resources` is {}, not a mapping of resource definitions",
                    kind_name(doc, section.value)
                ),
            )
            .help(format!(
                "write `resources` as a mapping from resource names to definitions; Heat: `'{ty}' object has no attribute 'items'`"
            ));
            return;
        }
    }
    for resource in &cx.template.resources {
        // A null definition has no type: `missing-resource-type` reports it.
        if is_mapping(doc, resource.value) || is_null(doc, resource.value) {
            continue;
        }
        let ty = python_type(doc, resource.value);
        let heat = if is_falsy(doc, resource.value) {
            "Each resource must contain a type key.".to_owned()
        } else {
            format!(
                "\"resources\" must contain a map of resource maps. Found a [<class '{ty}'>] instead"
            )
        };
        sink.report(
            span_or(cx, resource.value, resource.key),
            format!(
                "the definition of resource `{}` is {}, not a mapping",
                resource.name,
                kind_name(doc, resource.value)
            ),
        )
        .help(format!(
            "a resource definition is a mapping with at least a `type`, e.g. `type: OS::Heat::None`; Heat: `{heat}`"
        ));
    }
}
