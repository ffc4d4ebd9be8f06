use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{alias_target, call_at, is_external, mapping_resources};

declare_rule! {
    /// ## What it does
    /// Reports a resource whose whole `properties` (on a type of Heat's registry) or whole
    /// `update_policy` is a function call, such as `properties: {get_param: volume_settings}`.
    ///
    /// ## Why is this bad?
    /// Heat looks at the keys of these mappings before it resolves anything, so it refuses the
    /// template when it validates it: `TypeError: resources.volume: 'GetParam' object is not
    /// iterable`, or for types with translation rules `argument of type 'GetParam' is not
    /// iterable` (the class name is the function's). Only the values inside the mapping may
    /// come from functions. `OS::Heat::None` and the removed types Heat keeps as placeholders
    /// ignore their properties, so a function there passes; a type Heat does not register
    /// (a template file, a name an environment maps) is not checked.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   volume_settings:
    ///     type: json
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties: {get_param: volume_settings}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   volume_size:
    ///     type: number
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties:
    ///       size: {get_param: volume_size}
    /// ```
    pub(crate) static RULE = {
        code: "H620",
        name: "field-from-function",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    for resource in mapping_resources(cx) {
        // Heat validates nothing of an external resource's definition but its fields.
        if is_external(cx, resource) {
            continue;
        }
        let registered = cx
            .template
            .field(resource, "type")
            .and_then(|t| cx.doc.str_value(t))
            .and_then(|name| {
                cx.resource_types()
                    .get(name)
                    .or_else(|| alias_target(cx, name, Some(&resource.name)).map(|(_, t)| t))
            });
        for field in ["properties", "update_policy"] {
            if field == "properties" && registered.is_none_or(|t| t.none_resource) {
                continue;
            }
            let Some(value) = cx.template.field(resource, field) else {
                continue;
            };
            if call_at(cx, value).is_none() {
                continue;
            }
            sink.report(
                cx.span(value),
                format!(
                    "the whole `{field}` of `{}` cannot come from a function",
                    resource.name
                ),
            )
            .help(
                "write the mapping and take each value from a function; Heat refuses the \
                 template with a `TypeError` (`… is not iterable`, naming the function's class)",
            );
        }
    }
}
