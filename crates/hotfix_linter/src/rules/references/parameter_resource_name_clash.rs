use hotfix_hot::PSEUDO_PARAMETERS;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::references::shared::{by_name, section_usable};

declare_rule! {
    /// ## What it does
    /// Checks that no resource has the name of a parameter, or of a pseudo parameter Heat
    /// defines (`OS::stack_name`, `OS::stack_id`, `OS::project_id`).
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `Duplicate names {'x'}`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   network: {type: string}
    /// resources:
    ///   network:
    ///     type: OS::Neutron::Net
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   network_name: {type: string}
    /// resources:
    ///   network:
    ///     type: OS::Neutron::Net
    ///     properties:
    ///       name: {get_param: network_name}
    /// ```
    pub(crate) static RULE = {
        code: "H307",
        name: "parameter-resource-name-clash",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none()
        || !section_usable(cx, "parameters")
        || !section_usable(cx, "resources")
    {
        return;
    }
    let parameters = by_name(&cx.template.parameters);
    for resource in &cx.template.resources {
        let name = resource.name.as_str();
        let heat = format!("Heat: `Duplicate names {{'{name}'}}`");
        if let Some(parameter) = parameters.get(name) {
            sink.report(
                cx.span(resource.key),
                format!("resource `{name}` has the same name as a parameter"),
            )
            .primary_label(format!("resource `{name}`"))
            .label(
                cx.span(parameter.key),
                format!("parameter `{name}` is declared here"),
            )
            .help(format!("rename the parameter or the resource; {heat}"));
        } else if PSEUDO_PARAMETERS.contains(&name) {
            sink.report(
                cx.span(resource.key),
                format!("resource `{name}` has the name of a pseudo parameter Heat defines"),
            )
            .help(format!("rename the resource; {heat}"));
        }
    }
}
