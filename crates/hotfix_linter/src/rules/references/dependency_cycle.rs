use hotfix_yaml::NodeId;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::graph::Graph;
use crate::rules::references::shared::section_usable;

declare_rule! {
    /// ## What it does
    /// Checks that resources do not depend on each other in a cycle, through `depends_on`
    /// and the `get_resource` and `get_attr` (in 2013-05-23 also `Ref`) in their
    /// `properties` and `metadata`, including a resource that depends on itself. Each cycle is
    /// reported once, at its first resource, with the path around it.
    ///
    /// ## Why is this bad?
    /// Heat cannot order the resources and refuses the template:
    /// `Circular Dependency Found: {…}`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// resources:
    ///   port:
    ///     type: OS::Neutron::Port
    ///     properties:
    ///       network: private
    ///     depends_on: server
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       networks: [{port: {get_resource: port}}]
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// resources:
    ///   port:
    ///     type: OS::Neutron::Port
    ///     properties:
    ///       network: private
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       networks: [{port: {get_resource: port}}]
    /// ```
    pub(crate) static RULE = {
        code: "H304",
        name: "dependency-cycle",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// Why one resource depends on another, for a label.
struct Edge {
    node: NodeId,
    via: &'static str,
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() || !section_usable(cx, "resources") {
        return;
    }
    let resources = &cx.template.resources;
    let mut graph = Graph::new(resources.len());
    for dependency in cx.semantic.dependencies(cx.template) {
        let edge = Edge {
            node: dependency.node,
            via: dependency.via(),
        };
        graph.add(dependency.from, dependency.to, edge);
    }
    let name = |i: usize| resources.get(i).map_or("?", |r| r.name.as_str());
    for cycle in graph.cycles() {
        let Some(&(first_from, first_to, first)) = cycle.steps.first() else {
            continue;
        };
        let message = if cycle.is_loop() {
            format!("resource `{}` depends on itself", name(first_from))
        } else {
            format!(
                "resources depend on each other in a cycle: {}",
                cycle.path(name)
            )
        };
        let diagnostic = sink.report(cx.span(first.node), message);
        diagnostic.primary_label(format!(
            "`{}` depends on `{}` ({})",
            name(first_from),
            name(first_to),
            first.via
        ));
        for &(from, to, edge) in cycle.shown_rest() {
            diagnostic.label(
                cx.span(edge.node),
                format!("`{}` depends on `{}` ({})", name(from), name(to), edge.via),
            );
        }
        diagnostic.help(if cycle.is_loop() {
            "remove the reference to itself; Heat: `Circular Dependency Found: {…}`"
        } else {
            "break the cycle: remove one of these references, or pass the value another way \
             (e.g. a parameter); Heat: `Circular Dependency Found: {…}`"
        });
    }
}
