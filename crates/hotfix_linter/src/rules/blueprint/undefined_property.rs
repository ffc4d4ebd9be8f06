use hotfix_blueprint::Scope;
use hotfix_yaml::{Document, NodeId};

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::undefined_node_template::shape_checked;
use crate::rules::blueprint::{BlueprintContext, Py};

declare_rule! {
    /// ## What it does
    /// Checks for `get_property` calls that name a property the node template neither sets
    /// nor has in its type, when the type and all it derives from are declared in the
    /// blueprint itself (a type from an import cannot be read offline: such calls are not
    /// checked).
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded: `Unable to evaluate get_property
    /// function: Node template property 'vm.properties.port' referenced from
    /// 'nodes.web.properties.port' doesn't exist.`
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_types:
    ///   server:
    ///     properties:
    ///       port: {default: 80}
    /// node_templates:
    ///   vm:
    ///     type: server
    ///   web:
    ///     type: server
    ///     properties:
    ///       port: {get_property: [vm, prot]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_types:
    ///   server:
    ///     properties:
    ///       port: {default: 80}
    /// node_templates:
    ///   vm:
    ///     type: server
    ///   web:
    ///     type: server
    ///     properties:
    ///       port: {get_property: [vm, port]}
    /// ```
    pub(crate) static RULE = {
        code: "C010",
        name: "undefined-property",
        severity: Error,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    for unset in unset_properties(cx) {
        if unset.declared != Some(false) {
            continue;
        }
        let (template, property, type_name) = (unset.template, unset.property, unset.type_name);
        let diagnostic = sink.report(
            cx.span(unset.at),
            format!(
                "node template `{template}` has no property `{property}`: it does not set it, \
                 and its type `{type_name}` does not declare it"
            ),
        );
        diagnostic.primary_label("no such property");
        diagnostic.label(cx.span(unset.key), "the node template");
        diagnostic.help(format!(
            "set it on `{template}` or declare it in its type; Cloudify, on upload: `Unable to \
             evaluate get_property function: Node template property \
             '{template}.properties.{property}' referenced from … doesn't exist.`"
        ));
    }
}

/// A `get_property` of a property its node template does not set.
pub(crate) struct Unset<'a> {
    /// The property name's node.
    pub(crate) at: NodeId,
    pub(crate) template: &'a str,
    /// The node template's key.
    pub(crate) key: NodeId,
    pub(crate) property: &'a str,
    pub(crate) type_name: &'a str,
    /// Whether the type declares it: `None` when a type of its chain is not in the blueprint.
    pub(crate) declared: Option<bool>,
}

/// Every `get_property [node, property, …]` (literal arguments, a node template of the
/// blueprint) whose node template does not set the property.
pub(crate) fn unset_properties<'a>(cx: &'a BlueprintContext<'a>) -> Vec<Unset<'a>> {
    let bp = cx.blueprint;
    let mut out = Vec::new();
    for (_, call) in cx.validated_calls() {
        if call.function.name != "get_property" {
            continue;
        }
        let Some(items) = cx.arg_items(call) else {
            continue;
        };
        if !shape_checked(cx, "get_property", items) {
            continue;
        }
        let (Some(node_name), Some(property)) =
            (cx.doc.str_value(items[0]), cx.doc.str_value(items[1]))
        else {
            continue;
        };
        if cx.py(items[1]) != Py::Str {
            continue;
        }
        let node = match (node_name, call.scope) {
            ("SELF", Scope::NodeTemplate { node })
            | ("SOURCE", Scope::Relationship { node, .. }) => Some(node),
            ("TARGET", Scope::Relationship { node, relationship }) => bp.node_templates[node]
                .relationships
                .get(relationship)
                .and_then(|r| r.target.as_ref())
                .and_then(|(t, _)| bp.node_template(t)),
            ("SELF" | "SOURCE" | "TARGET", _) => None,
            (name, _) => bp.node_template(name),
        };
        let Some(node) = node else {
            continue;
        };
        let template = &bp.node_templates[node];
        let sets = cx
            .doc
            .get(template.definition, "properties")
            .is_some_and(|p| cx.doc.get(p, property).is_some());
        if sets {
            continue;
        }
        let Some(type_name) = template.type_name.as_deref() else {
            continue;
        };
        out.push(Unset {
            at: items[1],
            template: &template.name,
            key: template.key,
            property,
            type_name,
            declared: declared_in_type(cx.doc, type_name, property),
        });
    }
    out
}

/// Whether a type declared in the blueprint, or one it derives from, declares the property;
/// `None` when a type of the chain is not declared in the blueprint (it comes from an import).
fn declared_in_type(doc: &Document, type_name: &str, property: &str) -> Option<bool> {
    let types = doc.get(doc.root(), "node_types")?;
    let mut name = type_name;
    for _ in 0..64 {
        let definition: NodeId = doc.get(types, name)?;
        if doc
            .get(definition, "properties")
            .is_some_and(|p| doc.get(p, property).is_some())
        {
            return Some(true);
        }
        match doc.get(definition, "derived_from") {
            None => return Some(false),
            Some(parent) => name = doc.str_value(parent)?,
        }
    }
    None
}
