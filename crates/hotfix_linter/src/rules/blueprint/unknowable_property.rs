use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::BlueprintContext;
use crate::rules::blueprint::undefined_property::unset_properties;

declare_rule! {
    /// ## What it does
    /// Points at `get_property` calls whose property the node template does not set, when its
    /// type comes from an import (Cloudify's types, a plugin): whether the type declares the
    /// property, with a default, cannot be checked offline. Information only, and outside the
    /// default set (`--extend-select C011`).
    ///
    /// ## Why is this bad?
    /// It may be fine: the type may declare the property with a default. If it does not,
    /// Cloudify refuses the blueprint on upload: `Unable to evaluate get_property function:
    /// Node template property 'vm.properties.port' referenced from … doesn't exist.` This list
    /// says which calls to check against the type's documentation.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// imports: [cloudify/types/types.yaml]
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///   web:
    ///     type: cloudify.nodes.WebServer
    ///     properties:
    ///       port: {get_property: [vm, port]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// imports: [cloudify/types/types.yaml]
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///     properties:
    ///       port: 80
    ///   web:
    ///     type: cloudify.nodes.WebServer
    ///     properties:
    ///       port: {get_property: [vm, port]}
    /// ```
    pub(crate) static RULE = {
        code: "C011",
        name: "property-from-imported-type",
        severity: Info,
        fix: None,
        default: false,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    for unset in unset_properties(cx) {
        if unset.declared.is_some() {
            continue;
        }
        let diagnostic = sink.report(
            cx.span(unset.at),
            format!(
                "`{}` does not set `{}`; whether its type `{}` has it cannot be checked offline",
                unset.template, unset.property, unset.type_name
            ),
        );
        diagnostic.primary_label("not set on the node template");
        diagnostic.help(
            "check that the type declares this property with a default, or set it on the node \
             template",
        );
    }
}
