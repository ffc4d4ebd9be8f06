use std::collections::HashSet;

use hotfix_blueprint::input_uses;

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::BlueprintContext;

declare_rule! {
    /// ## What it does
    /// Checks for inputs that no `get_input` in the blueprint (node types, workflows and read
    /// local imports included) names.
    ///
    /// ## Why is this bad?
    /// Whoever creates a deployment is asked for a value that changes nothing. It is often
    /// the trace of a renamed input whose old name still gets filled in. The check is skipped
    /// when a `get_input` names its input with a function, or an import that cannot be read
    /// could use it.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// inputs:
    ///   image: {default: centos}
    ///   flavor: {default: m1.small}
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///     properties:
    ///       image: {get_input: image}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// inputs:
    ///   image: {default: centos}
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///     properties:
    ///       image: {get_input: image}
    /// ```
    pub(crate) static RULE = {
        code: "C007",
        name: "unused-input",
        severity: Warning,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    if !cx.names_complete() {
        return;
    }
    let uses = input_uses(cx.doc);
    if uses.dynamic || cx.imported.is_some_and(|i| i.dynamic_input_use) {
        return;
    }
    // Sets of the names used, so that each input is not compared with every use.
    let named: HashSet<&str> = uses.names.iter().map(|(n, _)| n.as_str()).collect();
    let used_by_imports: HashSet<&str> = cx
        .imported
        .map(|i| i.used_inputs.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let is_used = |name: &str| named.contains(name) || used_by_imports.contains(name);
    for input in &cx.blueprint.inputs {
        if is_used(&input.name) {
            continue;
        }
        let diagnostic = sink.report(
            cx.span(input.key),
            format!("input `{}` is never used", input.name),
        );
        diagnostic.primary_label("no `get_input` names it");
        diagnostic.help("remove it, or pass it where it was meant to go with `get_input`");
    }
}
