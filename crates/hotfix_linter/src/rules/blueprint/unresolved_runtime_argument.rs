use hotfix_blueprint::{Kind, Scope};
use hotfix_yaml::NodeId;

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::{BlueprintContext, Py};

declare_rule! {
    /// ## What it does
    /// Checks for a function evaluated at run time (`get_attribute`, `get_secret`,
    /// `get_capability`, `get_sys`, `get_label`, …), or a `concat` or `merge` holding one, given
    /// as an argument to a function that needs its arguments when the deployment is created:
    /// `get_input`, `get_property` and the `string_*` functions.
    ///
    /// ## Why is this bad?
    /// The blueprint uploads, but creating a deployment fails: the inner function has no value
    /// yet. Cloudify: `get_input: found an unresolved argument: …`, `get_property: found an
    /// unresolved argument in path: …`, `string_lower function: argument `input` should not
    /// be a function (…)`.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    /// outputs:
    ///   name: {value: {string_upper: {get_attribute: [vm, name]}}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    /// outputs:
    ///   name: {value: {get_attribute: [vm, name]}}
    /// ```
    pub(crate) static RULE = {
        code: "C006",
        name: "unresolved-runtime-argument",
        severity: Error,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    for (index, call) in cx.validated_calls() {
        if !call.function.needs_resolved_arguments
            || !matches!(
                call.scope,
                Scope::NodeTemplate { .. }
                    | Scope::Relationship { .. }
                    | Scope::Outputs
                    | Scope::Capabilities
            )
        {
            continue;
        }
        let name = call.function.name;
        // The argument positions the function needs as values.
        let positions: Vec<NodeId> = match cx.py(call.args) {
            Py::List => cx.arg_items(call).unwrap_or_default().to_vec(),
            Py::Function => vec![call.args],
            _ => continue,
        };
        for position in positions {
            let Some(inner) = cx
                .blueprint
                .children(index)
                .find(|(_, c)| c.node == cx.doc.resolve(position))
                .map(|(i, _)| i)
            else {
                continue;
            };
            let Some(runtime) = unresolved(cx, inner) else {
                continue;
            };
            let runtime_name = cx.blueprint.calls[runtime].function.name;
            let quoted = if name.starts_with("string_") {
                format!("{name} function: argument `…` should not be a function")
            } else if name == "get_property" {
                "get_property: found an unresolved argument in path: …".to_owned()
            } else {
                format!("{name}: found an unresolved argument: …")
            };
            let diagnostic = sink.report(
                cx.span(position),
                format!(
                    "`{name}` is evaluated when the deployment is created, but this argument \
                     needs `{runtime_name}`, which has a value only at run time"
                ),
            );
            diagnostic.primary_label("no value when the deployment is created");
            if runtime != inner {
                diagnostic.label(
                    cx.span(cx.blueprint.calls[runtime].key),
                    "evaluated at run time",
                );
            }
            diagnostic.help(format!(
                "use a value known at deployment creation (an input, a property), or drop \
                 `{name}`; Cloudify, creating the deployment: `{quoted}`"
            ));
        }
    }
}

/// The runtime call that keeps call `index` unevaluated when the plan is prepared: the call
/// itself when it is a runtime function, else one inside a `concat` or `merge` (whose raw form
/// stays). `get_input`, `get_property` and `string_*` fail on their own (reported there).
fn unresolved(cx: &BlueprintContext<'_>, index: usize) -> Option<usize> {
    let call = &cx.blueprint.calls[index];
    if call.function.kind == Kind::Runtime {
        return Some(index);
    }
    if !matches!(call.function.name, "concat" | "merge") {
        return None;
    }
    cx.blueprint
        .children(index)
        .find_map(|(child, _)| unresolved(cx, child))
}
