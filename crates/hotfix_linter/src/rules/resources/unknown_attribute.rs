use hotfix_hot::resource_types;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{Registered, registered};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that the attribute a `get_attr` names is one the resource's type has, for the
    /// types of Heat's registry (`hotfix type OS::Neutron::Net` lists them).
    ///
    /// ## Why is this bad?
    /// Heat refuses the template when it validates it:
    /// `outputs.o.value.get_attr: The Referenced Attribute (net subnet) is incorrect.`
    ///
    /// Not checked: types whose attributes Heat computes at run time (groups, software
    /// deployments, nested stacks, `OS::Heat::None` and the placeholders of removed types:
    /// `hotfix type` says "any attribute"), template files and types Heat's registry does not
    /// have, and an attribute name given by a function.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   net:
    ///     type: OS::Neutron::Net
    /// outputs:
    ///   subnets:
    ///     value: {get_attr: [net, subnet]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   net:
    ///     type: OS::Neutron::Net
    /// outputs:
    ///   subnets:
    ///     value: {get_attr: [net, subnets]}
    /// ```
    pub(crate) static RULE = {
        code: "H610",
        name: "unknown-attribute",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    for (resource, attribute_node, attribute) in crate::rules::util::attribute_uses(cx) {
        let Some(Registered {
            type_name, schema, ..
        }) = registered(cx, resource)
        else {
            continue;
        };
        if schema.accepts_attribute(attribute) {
            continue;
        }
        let shown = schema
            .attributes
            .iter()
            .filter(|(_, a)| a.support_status.status != resource_types::Status::Hidden)
            .map(|(name, _)| name.as_str());
        let diagnostic = sink.report(
            cx.span(attribute_node),
            format!(
                "`{attribute}` is not an attribute of {type_name} (`{}`)",
                resource.name
            ),
        );
        let heat = format!(
            "Heat: `The Referenced Attribute ({} {attribute}) is incorrect.`",
            resource.name
        );
        match did_you_mean(attribute, shown) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
            None => diagnostic.help(format!(
                "`hotfix type {type_name}` lists its attributes; {heat}"
            )),
        };
    }
}
