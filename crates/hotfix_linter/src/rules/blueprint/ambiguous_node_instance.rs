use std::cell::{Cell, RefCell};

use hotfix_blueprint::{Call, Kind, NodeTemplate, Scope, Where};
use hotfix_yaml::{Document, Int, NodeId, ScalarValue};

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::BlueprintContext;
use crate::rules::blueprint::undefined_node_template::{KEYWORDS, shape_checked};

declare_rule! {
    /// ## What it does
    /// Checks for `get_attribute` calls that name a node template deployed with several
    /// instances where Cloudify has no way to tell which instance is meant: in a node's
    /// operation inputs when the node has no relationship to it, in a relationship's operation
    /// inputs, in outputs and in capabilities. It reports only what is certain: the node's
    /// instance count is written as a number (`capabilities.scalable.properties
    /// .default_instances`, or `instances.deploy` before `cloudify_dsl_1_3`, times the count of the node
    /// it is `contained_in`) and is more than one, neither the node nor anything it may be
    /// contained in is a member of a group, and every import is Cloudify's types, a plugin or
    /// a local file that was read and declares no groups or policies (another file could scale
    /// the node).
    ///
    /// ## Why is this bad?
    /// `get_attribute` of a node name reads one node instance. Cloudify (`dsl_parser/functions.py`,
    /// `GetAttribute._resolve_node_instance_by_name`) takes the only instance when there is one;
    /// otherwise the instance that the calling node instance's own relationships target, when
    /// they target exactly one instance of that node; otherwise the instance in the same
    /// scaling group instance; otherwise it fails with `More than one node instance found for
    /// node "NAME". Cannot resolve a node instance unambiguously.` The relationships are
    /// looked up only from a `self` instance, which only a node's operations have
    /// (`cloudify/endpoint.py` gives a relationship's operations `source` and `target`, outputs
    /// and capabilities nothing): there only scaling groups can resolve the name. So:
    ///
    /// - a node's operation fails when it runs (the operation's inputs cannot be evaluated);
    /// - a relationship's operation fails when it runs, even when the name is the
    ///   relationship's own source or target;
    /// - a capability cannot be evaluated (`evaluate_capabilities` raises the error);
    /// - an output does not fail, but its value becomes the text `<ERROR: Unable to evaluate
    ///   get_attribute function: More than one node instance found …>` (`GetAttribute.evaluate`
    ///   returns it when the context is `evaluate_outputs`).
    ///
    /// A node's operation that names a node it has a relationship to is not reported: that
    /// resolves when the relationship targets one instance (`contained_in`, or
    /// `connection_type: all_to_one`). It still fails with the default `all_to_all`
    /// `connected_to` and several target instances; that case is not reported.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   db:
    ///     type: cloudify.nodes.DBMS
    ///     capabilities:
    ///       scalable:
    ///         properties: {default_instances: 2}
    ///   app:
    ///     type: cloudify.nodes.ApplicationModule
    ///     interfaces:
    ///       cloudify.interfaces.lifecycle:
    ///         configure:
    ///           implementation: scripts/configure.sh
    ///           inputs:
    ///             db_ip: {get_attribute: [db, ip]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   db:
    ///     type: cloudify.nodes.DBMS
    ///     capabilities:
    ///       scalable:
    ///         properties: {default_instances: 2}
    ///   app:
    ///     type: cloudify.nodes.ApplicationModule
    ///     interfaces:
    ///       cloudify.interfaces.lifecycle:
    ///         configure:
    ///           implementation: scripts/configure.sh
    ///           inputs:
    ///             db_ips: {get_attributes_list: [db, ip]}
    /// ```
    pub(crate) static RULE = {
        code: "C012",
        name: "ambiguous-node-instance",
        severity: Warning,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    // Groups of another file could scale the node; so could one the linter cannot read.
    let groups_elsewhere = !cx.blueprint.is_self_contained()
        && (!cx.names_complete() || cx.imported.is_none_or(|i| i.groups));
    if groups_elsewhere {
        return;
    }
    let graph = Graph::new(cx);
    for call in &cx.blueprint.calls {
        if call.function.name != "get_attribute" || in_static_call(cx, call) {
            continue;
        }
        let Some(items) = cx.arg_items(call) else {
            continue;
        };
        if !shape_checked(cx, call.function.name, items) {
            continue;
        }
        let Some(name) = cx.doc.str_value(items[0]) else {
            continue;
        };
        if KEYWORDS.contains(&name) {
            continue;
        }
        let Some(target) = cx.blueprint.node_template(name) else {
            continue;
        };
        let Some(place) = place(cx, &graph, call, target) else {
            continue;
        };
        if graph.grouped(target) {
            continue;
        }
        let (count, exact) = graph.instances(target);
        if count < 2 {
            continue;
        }
        let count = if exact {
            format!("{count}")
        } else {
            format!("at least {count}")
        };
        let diagnostic = sink.report(
            cx.span(items[0]),
            format!(
                "`get_attribute` {} cannot tell which of the {count} instances of `{name}` to \
                 read: {}",
                place.context(),
                place.outcome()
            ),
        );
        diagnostic.primary_label(format!("which instance of `{name}`?"));
        diagnostic.help(place.advice(name));
    }
}

/// Where a call is evaluated, as far as the resolution of a node name goes.
enum Place<'a> {
    /// A node's operation inputs; the node is the target itself.
    Operation {
        owner: &'a str,
        same: bool,
    },
    /// A relationship's source or target operation inputs; the name is the relationship's
    /// source or target.
    Relationship {
        source: &'a str,
        target: &'a str,
        keyword: Option<&'static str>,
    },
    Output,
    Capability,
}

impl Place<'_> {
    fn context(&self) -> String {
        match self {
            Place::Operation { owner, .. } => format!("in an operation of `{owner}`"),
            Place::Relationship { source, target, .. } => {
                format!("in an operation of the relationship of `{source}` to `{target}`")
            }
            Place::Output => "in an output".to_owned(),
            Place::Capability => "in a capability".to_owned(),
        }
    }

    fn outcome(&self) -> &'static str {
        match self {
            Place::Operation { .. } => "the operation fails when it runs",
            Place::Relationship { .. } => "the relationship's operation fails when it runs",
            Place::Output => "the output's value becomes Cloudify's `<ERROR: …>` text",
            Place::Capability => "evaluating the capability fails",
        }
    }

    fn advice(&self, name: &str) -> String {
        let quoted = format!(
            "Cloudify: `More than one node instance found for node \"{name}\". Cannot resolve \
             a node instance unambiguously.`"
        );
        match self {
            Place::Operation { same: true, .. } => {
                format!("use `SELF` for the instance the operation runs on; {quoted}")
            }
            Place::Operation { owner, .. } => format!(
                "give `{owner}` a relationship to `{name}` that targets one instance \
                 (`contained_in`, or `connection_type: all_to_one`), or read every instance \
                 with `get_attributes_list`; {quoted}"
            ),
            Place::Relationship {
                keyword: Some(keyword),
                ..
            } => format!(
                "use `{keyword}`: a relationship's operations resolve a node name only through \
                 scaling groups; {quoted}"
            ),
            Place::Relationship { keyword: None, .. } => format!(
                "a relationship's operations resolve a node name only through scaling groups: \
                 read every instance with `get_attributes_list`; {quoted}"
            ),
            Place::Output | Place::Capability => format!(
                "read every instance with `get_attributes_list` (or `get_attributes_dict`); \
                 {quoted}"
            ),
        }
    }
}

/// Where the call is, when it is a place this rule judges: the operation's node (or the
/// relationship's source and target) certainly has an instance, and a node's operation has no
/// relationship to the target.
fn place<'a>(
    cx: &'a BlueprintContext<'_>,
    graph: &Graph<'_>,
    call: &Call,
    target: usize,
) -> Option<Place<'a>> {
    let nodes = &cx.blueprint.node_templates;
    match (call.scope, call.place) {
        (Scope::NodeTemplate { node }, Where::OperationInputs) => {
            let related = nodes[node].relationships.iter().any(|r| {
                r.target
                    .as_ref()
                    .is_some_and(|(t, _)| *t == nodes[target].name)
            });
            (graph.instances(node).0 >= 1 && !related).then_some(Place::Operation {
                owner: &nodes[node].name,
                same: node == target,
            })
        }
        (Scope::Relationship { node, relationship }, _) => {
            let (other_name, _) = nodes[node].relationships[relationship].target.as_ref()?;
            let other = cx.blueprint.node_template(other_name)?;
            if graph.instances(node).0 < 1 || graph.instances(other).0 < 1 {
                return None;
            }
            let keyword = if target == node {
                Some("SOURCE")
            } else if target == other {
                Some("TARGET")
            } else {
                None
            };
            Some(Place::Relationship {
                source: &nodes[node].name,
                target: other_name,
                keyword,
            })
        }
        (Scope::Outputs, _) => Some(Place::Output),
        (Scope::Capabilities, _) => Some(Place::Capability),
        _ => None,
    }
}

/// Whether a call sits in the arguments of a function the plan evaluates and that refuses a
/// runtime argument (`get_input`, `get_property`, `string_*`): the plan fails first (C006).
fn in_static_call(cx: &BlueprintContext<'_>, call: &Call) -> bool {
    let mut parent = call.parent;
    while let Some(index) = parent {
        let outer = &cx.blueprint.calls[index];
        if outer.function.kind == Kind::Hybrid && outer.function.needs_resolved_arguments {
            return true;
        }
        parent = outer.parent;
    }
    false
}

/// The node templates, how many instances each certainly gets, and which may be in a group.
struct Graph<'a> {
    doc: &'a Document,
    nodes: &'a [NodeTemplate],
    /// For each node template, the node templates it may be contained in (certainly, or through
    /// a relationship type whose ancestry is not known).
    /// `None`: a node template of another file.
    hosts: Vec<Vec<(Option<usize>, bool)>>,
    /// Node template names listed as group members.
    members: Vec<String>,
    /// Each node template's count once worked out.
    counts: RefCell<Vec<Count>>,
    /// How deep `instances` has recursed.
    depth: Cell<usize>,
}

#[derive(Clone, Copy)]
enum Count {
    NotYet,
    /// Being worked out: a node met again is in a containment cycle (Cloudify refuses those).
    Pending,
    Done(u64, bool),
}

/// How a relationship type relates to `cloudify.relationships.contained_in`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Containment {
    Yes,
    No,
    Unknown,
}

impl<'a> Graph<'a> {
    fn new(cx: &'a BlueprintContext<'_>) -> Self {
        let doc = cx.doc;
        let nodes = &cx.blueprint.node_templates;
        let declared = doc.get(doc.root(), "relationships");
        let hosts = nodes
            .iter()
            .map(|node| {
                node.relationships
                    .iter()
                    .filter_map(|r| {
                        let containment = match &r.type_name {
                            Some(t) => containment(doc, declared, t),
                            None => Containment::Unknown,
                        };
                        if containment == Containment::No {
                            return None;
                        }
                        // A target in another file: its count is not known.
                        let (target, _) = r.target.as_ref()?;
                        Some((
                            cx.blueprint.node_template(target),
                            containment == Containment::Yes,
                        ))
                    })
                    .collect()
            })
            .collect();
        let mut members = Vec::new();
        if let Some(groups) = doc.get(doc.root(), "groups") {
            for group in doc.entries(groups) {
                let list = doc.get(group.value, "members").and_then(|m| doc.items(m));
                for &member in list.unwrap_or_default() {
                    if let Some(name) = doc.scalar(member) {
                        members.push(name.text.as_str().to_owned());
                    }
                }
            }
        }
        Graph {
            doc,
            nodes,
            hosts,
            members,
            counts: RefCell::new(vec![Count::NotYet; nodes.len()]),
            depth: Cell::new(0),
        }
    }

    /// How many instances a node template certainly gets when the deployment is created, and
    /// whether that is its exact count: its own count times its host's (`rel_graph` plans
    /// `default_instances` instances of it per instance of the node it is contained in). Zero
    /// when a count is not a number (`get_input`), or the node may sit in a node without one.
    fn instances(&self, node: usize) -> (u64, bool) {
        match self.counts.borrow()[node] {
            Count::Done(n, exact) => return (n, exact),
            Count::Pending => return (0, false),
            Count::NotYet => {}
        }
        // A containment chain deeper than this is not followed (the stack stays small).
        if self.depth.get() > 256 {
            return (0, false);
        }
        self.depth.set(self.depth.get() + 1);
        self.counts.borrow_mut()[node] = Count::Pending;
        let (n, exact) = self.count(node);
        self.counts.borrow_mut()[node] = Count::Done(n, exact);
        self.depth.set(self.depth.get() - 1);
        (n, exact)
    }

    fn count(&self, node: usize) -> (u64, bool) {
        let Some(own) = own_instances(self.doc, self.nodes[node].definition) else {
            return (0, false);
        };
        let mut total = (own, true);
        for &(host, certain) in &self.hosts[node] {
            let Some(host) = host else {
                return (0, false);
            };
            let (n, exact) = self.instances(host);
            if certain {
                total = (total.0.saturating_mul(n), total.1 && exact);
            } else if n == 0 {
                return (0, false);
            } else {
                // Contained in it or not: at least as many as without it.
                total.1 = false;
            }
        }
        total
    }

    /// Whether the node template, or a node it may be contained in, is a group member: a
    /// scaling group could then resolve the name, and multiplies the count.
    fn grouped(&self, node: usize) -> bool {
        let mut pending = vec![node];
        let mut seen = Vec::new();
        while let Some(n) = pending.pop() {
            if seen.contains(&n) {
                continue;
            }
            seen.push(n);
            if self.members.contains(&self.nodes[n].name) {
                return true;
            }
            for &(host, _) in &self.hosts[n] {
                // A host in another file: its groups are not known.
                let Some(host) = host else {
                    return true;
                };
                pending.push(host);
            }
        }
        false
    }
}

/// A node template's own instance count as `NodeTemplateCapabilities.parse` reads it:
/// `capabilities.scalable.properties.default_instances` (1 when not given), or
/// `instances.deploy`, or 1. `None` when it is not an integer literal.
fn own_instances(doc: &Document, definition: NodeId) -> Option<u64> {
    let value = doc
        .get(definition, "capabilities")
        .map(|c| {
            doc.get(c, "scalable")
                .and_then(|s| doc.get(s, "properties"))
                .and_then(|p| doc.get(p, "default_instances"))
        })
        .or_else(|| {
            doc.get(definition, "instances")
                .map(|i| doc.get(i, "deploy"))
        });
    let Some(Some(value)) = value else {
        return Some(1);
    };
    match doc.scalar(doc.resolve(value)).map(|s| &s.value) {
        Some(ScalarValue::Int(Int::Small(n))) => u64::try_from(*n).ok(),
        _ => None,
    }
}

/// Whether a relationship type is `cloudify.relationships.contained_in` or derives from it,
/// through the blueprint's own `relationships`; Cloudify's `depends_on` and `connected_to`
/// are not.
fn containment(doc: &Document, declared: Option<NodeId>, name: &str) -> Containment {
    let mut name = name.to_owned();
    for _ in 0..64 {
        match name.as_str() {
            "cloudify.relationships.contained_in" => return Containment::Yes,
            "cloudify.relationships.depends_on" | "cloudify.relationships.connected_to" => {
                return Containment::No;
            }
            _ => {}
        }
        let Some(parent) = declared
            .and_then(|d| doc.get(d, &name))
            .and_then(|t| doc.get(t, "derived_from"))
            .and_then(|p| doc.str_value(p))
        else {
            return Containment::Unknown;
        };
        parent.clone_into(&mut name);
    }
    Containment::Unknown
}
