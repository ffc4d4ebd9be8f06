use hotfix_blueprint::{Call, Scope};
use hotfix_yaml::{Document, Int, NodeId, ScalarValue};

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::undefined_node_template::shape_checked;
use crate::rules::blueprint::{BlueprintContext, Py, py};

declare_rule! {
    /// ## What it does
    /// Checks for `get_property` calls that name a property the node template neither sets
    /// nor has in its type, when the type and all it derives from are declared in the
    /// blueprint itself (a type from an import cannot be read offline: such calls are not
    /// checked). A longer path (`[vm, config, port]`) is followed into the property's literal
    /// value (the node template's, else the type's default) when the type declares the
    /// property with no `type` or a primitive one (a data type would fill in its own
    /// defaults): a key the mapping lacks, an index past the list's end, a key into a list or
    /// into a scalar is reported. The walk stops at a function call, whose value is not known
    /// before the deployment (Cloudify stops there too).
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded: `Unable to evaluate get_property
    /// function: Node template property 'vm.properties.port' referenced from
    /// 'nodes.web.properties.port' doesn't exist.` (for a list: `… index is out of range. Got 2
    /// but list size is 2.`, or `… is expected port to be an int but it is a str.`).
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
    nested_paths(cx, sink);
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
        let Some(node) = named_node(cx, call, node_name) else {
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

/// The node template a `get_property` names: by name, or `SELF`, `SOURCE`, `TARGET` where they
/// name one.
fn named_node(cx: &BlueprintContext<'_>, call: &Call, name: &str) -> Option<usize> {
    let bp = cx.blueprint;
    match (name, call.scope) {
        ("SELF", Scope::NodeTemplate { node }) | ("SOURCE", Scope::Relationship { node, .. }) => {
            Some(node)
        }
        ("TARGET", Scope::Relationship { node, relationship }) => bp.node_templates[node]
            .relationships
            .get(relationship)
            .and_then(|r| r.target.as_ref())
            .and_then(|(t, _)| bp.node_template(t)),
        ("SELF" | "SOURCE" | "TARGET", _) => None,
        (name, _) => bp.node_template(name),
    }
}

/// `get_property [node, property, key…]` whose path the property's literal value lacks
/// (`dsl_parser.functions._get_property_value`).
fn nested_paths(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    let doc = cx.doc;
    for (_, call) in cx.validated_calls() {
        if call.function.name != "get_property" {
            continue;
        }
        let Some(items) = cx.arg_items(call) else {
            continue;
        };
        if items.len() < 3 || !shape_checked(cx, "get_property", items) {
            continue;
        }
        let (Some(node_name), Some(property)) = (doc.str_value(items[0]), doc.str_value(items[1]))
        else {
            continue;
        };
        let Some(node) = named_node(cx, call, node_name) else {
            continue;
        };
        let template = &cx.blueprint.node_templates[node];
        let Some(value) = literal_property(cx, template, property) else {
            continue;
        };
        let Some((at, problem)) = lacks(doc, value, &items[2..]) else {
            continue;
        };
        let path: Vec<String> = items[1..]
            .iter()
            .filter_map(|&i| doc.scalar(i).map(|s| s.text.as_str().to_owned()))
            .collect();
        let shown = format!("{}.properties.{}", template.name, path.join("."));
        let (message, label, quoted) = match problem {
            Lack::Key => (
                format!(
                    "`{shown}` does not exist: the value there has no `{}`",
                    doc.text(at)
                ),
                "not in the property's value".to_owned(),
                "doesn't exist.".to_owned(),
            ),
            Lack::Index { index, len } => (
                format!("`{shown}` does not exist: the list there has {len} items"),
                "past the list's end".to_owned(),
                format!("index is out of range. Got {index} but list size is {len}."),
            ),
            Lack::NotInt { key } => (
                format!("`{shown}` does not exist: the value there is a list, not a mapping"),
                "a key into a list".to_owned(),
                format!("is expected {key} to be an int but it is a str."),
            ),
        };
        let diagnostic = sink.report(cx.span(at), message);
        diagnostic.primary_label(label);
        diagnostic.label(cx.span(template.key), "the node template");
        diagnostic.help(format!(
            "fix the path, or the property's value; Cloudify, on upload: `Unable to evaluate \
             get_property function: Node template property '{shown}' referenced from … {quoted}`"
        ));
    }
}

/// The literal value a node template's property has in the plan: what the template sets, else
/// the default of the nearest type that declares it. `None` when that cannot be known offline:
/// a type of the chain is not in the blueprint, or a declaration of the property in the chain
/// gives it a type that is not a primitive one (a data type fills in defaults of its own).
fn literal_property(
    cx: &BlueprintContext<'_>,
    template: &hotfix_blueprint::NodeTemplate,
    property: &str,
) -> Option<NodeId> {
    let doc = cx.doc;
    let types = doc.get(doc.root(), "node_types")?;
    let primitive = ["string", "integer", "float", "boolean", "list", "dict"];
    let mut name = template.type_name.as_deref()?;
    let mut nearest = None;
    for depth in 0..=64 {
        if depth == 64 {
            return None;
        }
        let definition: NodeId = doc.get(types, name)?;
        if let Some(found) = doc
            .get(definition, "properties")
            .and_then(|p| doc.get(p, property))
        {
            if let Some(kind) = doc.get(found, "type")
                && !doc.str_value(kind).is_some_and(|k| primitive.contains(&k))
            {
                return None;
            }
            nearest = nearest.or(Some(found));
        }
        match doc.get(definition, "derived_from") {
            None => break,
            Some(parent) => name = doc.str_value(parent)?,
        }
    }
    let declaration = nearest?;
    doc.get(template.definition, "properties")
        .and_then(|p| doc.get(p, property))
        .or_else(|| doc.get(declaration, "default"))
}

/// What a path lacks.
enum Lack {
    Key,
    Index { index: i64, len: usize },
    NotInt { key: String },
}

/// The first path item a literal value lacks, as `_get_property_value` walks it; `None` when
/// the value has it, or a function call (or a key form this walk does not model) is met first.
fn lacks(doc: &Document, value: NodeId, path: &[NodeId]) -> Option<(NodeId, Lack)> {
    let mut value = doc.resolve(value);
    for &item in path {
        let key = doc.scalar(item)?;
        match py(doc, value) {
            // A function's value is not known offline; bytes are not modelled.
            Py::Function | Py::Bytes => return None,
            Py::Dict => {
                let entries = doc.entries(value);
                // Keys other than strings (ints, `<<` merges) are not modelled.
                if entries
                    .iter()
                    .any(|e| !matches!(doc.scalar(e.key).map(|k| &k.value), Some(ScalarValue::Str)))
                {
                    return None;
                }
                if !matches!(key.value, ScalarValue::Str) {
                    return Some((item, Lack::Key));
                }
                let found = entries
                    .iter()
                    .find(|e| doc.str_value(e.key) == Some(key.text.as_str()));
                let Some(entry) = found else {
                    return Some((item, Lack::Key));
                };
                value = doc.resolve(entry.value);
            }
            Py::List => {
                let list = doc.items(value)?;
                let index = match &key.value {
                    ScalarValue::Int(Int::Small(index)) => *index,
                    ScalarValue::Str => {
                        return Some((
                            item,
                            Lack::NotInt {
                                key: key.text.as_str().to_owned(),
                            },
                        ));
                    }
                    _ => return None,
                };
                let len = i64::try_from(list.len()).ok()?;
                let resolved = if index < 0 { len + index } else { index };
                if resolved < 0 || resolved >= len {
                    return Some((
                        item,
                        Lack::Index {
                            index,
                            len: list.len(),
                        },
                    ));
                }
                value = doc.resolve(list[usize::try_from(resolved).ok()?]);
            }
            Py::Str | Py::Int | Py::Float | Py::Null => return Some((item, Lack::Key)),
        }
    }
    None
}
