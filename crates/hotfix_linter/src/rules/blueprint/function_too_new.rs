use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::BlueprintContext;

declare_rule! {
    /// ## What it does
    /// Checks for functions the blueprint's `tosca_definitions_version` does not have yet:
    /// `concat` needs `cloudify_dsl_1_1`, `merge` `cloudify_dsl_1_3`.
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded: `Using concat requires using dsl
    /// version 1_1 or greater, but found: … in PATH.`
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_2
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///     properties:
    ///       agent_config: {merge: [{user: centos}, {key: k}]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_3
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///     properties:
    ///       agent_config: {merge: [{user: centos}, {key: k}]}
    /// ```
    pub(crate) static RULE = {
        code: "C005",
        name: "function-too-new",
        severity: Error,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.blueprint.version else {
        return;
    };
    let declared = cx.doc.text(cx.blueprint.version_node);
    for (_, call) in cx.validated_calls() {
        let since = call.function.since;
        if version >= since {
            continue;
        }
        let name = call.function.name;
        let diagnostic = sink.report(
            cx.span(call.key),
            format!(
                "`{name}` needs `cloudify_dsl_{}_{}` or later; the blueprint declares `{declared}`",
                since.0, since.1
            ),
        );
        diagnostic.primary_label(format!("not in {declared}"));
        diagnostic.label(cx.span(cx.blueprint.version_node), "declared here");
        diagnostic.help(format!(
            "declare `tosca_definitions_version: cloudify_dsl_{}_{}` or later; Cloudify, on \
             upload: `Using {name} requires using dsl version {}_{} or greater`",
            since.0, since.1, since.0, since.1
        ));
    }
}
