use hotfix_blueprint::Scope;
use hotfix_yaml::{Int, NodeId, ScalarValue};

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::{BlueprintContext, Py};

declare_rule! {
    /// ## What it does
    /// Checks `get_input` calls with a path (`{get_input: [input, key, index, …]}`) against the
    /// input's default: a key the mapping lacks, an index past the end of the list, a key
    /// into a list or into a plain value.
    ///
    /// Not checked: an input whose `type` is a data type (`data_types`, its own or imported),
    /// whose default Cloudify fills in with the defaults its properties (and those of the types
    /// it derives from, and of its properties' own data types) declare.
    ///
    /// ## Why is this bad?
    /// A deployment created without a value for the input uses the default, and Cloudify
    /// fails to create it: `Input attribute 'KEY' of 'INPUT', doesn't exist.`, `List size of
    /// 'INPUT' is N but index I is retrieved.` A deployment given a value with that key works,
    /// so this is a warning.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// inputs:
    ///   vm: {default: {image: centos, flavor: small}}
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///     properties:
    ///       image: {get_input: [vm, imgae]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// inputs:
    ///   vm: {default: {image: centos, flavor: small}}
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///     properties:
    ///       image: {get_input: [vm, image]}
    /// ```
    pub(crate) static RULE = {
        code: "C008",
        name: "missing-input-key",
        severity: Warning,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    for (_, call) in cx.validated_calls() {
        if call.function.name != "get_input"
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
        let Some(items) = cx.arg_items(call) else {
            continue;
        };
        let Some((&first, path)) = items.split_first() else {
            continue;
        };
        if path.is_empty()
            || items
                .iter()
                .any(|&i| !matches!(cx.py(i), Py::Str | Py::Int))
        {
            continue;
        }
        let Some(name) = cx.doc.str_value(first) else {
            continue;
        };
        let Some(input) = cx.blueprint.input(name) else {
            continue;
        };
        let Some(default) = input.default.filter(|_| plain_type(cx, input.definition)) else {
            continue;
        };
        if let Some((at, quoted)) = missing(cx, name, default, path) {
            let diagnostic = sink.report(
                cx.span(at),
                format!("the default of input `{name}` has no `{}`", cx.doc.text(at)),
            );
            diagnostic.primary_label("not in the input's default");
            diagnostic.help(format!(
                "a deployment created without `{name}` fails; Cloudify: `{quoted}`"
            ));
        }
    }
}

/// The types whose values Cloudify takes as they are written (`USER_PRIMITIVE_TYPES` of its
/// DSL parser): any other is a data type, whose properties' defaults fill the value in.
const PLAIN_TYPES: [&str; 17] = [
    "string",
    "integer",
    "float",
    "boolean",
    "list",
    "dict",
    "regex",
    "textarea",
    "blueprint_id",
    "deployment_id",
    "capability_value",
    "scaling_group",
    "node_id",
    "node_type",
    "node_instance",
    "secret_key",
    "operation_name",
];

/// Whether the input defined at `definition` has no `type`, or one whose values are taken as
/// they are written (not a data type).
fn plain_type(cx: &BlueprintContext<'_>, definition: NodeId) -> bool {
    let doc = cx.doc;
    match doc
        .get(doc.resolve(definition), "type")
        .map(|t| doc.resolve(t))
    {
        None => true,
        Some(type_node) => doc
            .str_value(type_node)
            .is_some_and(|name| PLAIN_TYPES.contains(&name)),
    }
}

/// The first path item the default does not have, and Cloudify's message for it.
fn missing(
    cx: &BlueprintContext<'_>,
    name: &str,
    default: NodeId,
    path: &[NodeId],
) -> Option<(NodeId, String)> {
    let doc = cx.doc;
    let mut value = doc.resolve(default);
    let mut shown = name.to_owned();
    for &item in path {
        let text = doc.scalar(item).map(|s| s.text.as_str().to_owned())?;
        match cx.py(value) {
            Py::Dict => {
                let found = doc.entries(value).into_iter().find(|e| {
                    doc.scalar(e.key).is_some_and(|k| {
                        k.text == text
                            && std::mem::discriminant(&k.value)
                                == std::mem::discriminant(
                                    &doc.scalar(item)
                                        .map_or(ScalarValue::Null, |s| s.value.clone()),
                                )
                    })
                });
                let Some(entry) = found else {
                    return Some((
                        item,
                        format!("Input attribute '{text}' of '{shown}', doesn't exist."),
                    ));
                };
                value = doc.resolve(entry.value);
                shown = format!("{shown}.{text}");
            }
            Py::List => {
                let len = doc.items(value).map_or(0, <[_]>::len);
                let Some(ScalarValue::Int(Int::Small(index))) = doc.scalar(item).map(|s| &s.value)
                else {
                    return None;
                };
                let len_i = i64::try_from(len).ok()?;
                let resolved = if *index < 0 { len_i + index } else { *index };
                if resolved < 0 || resolved >= len_i {
                    return Some((
                        item,
                        format!("List size of '{shown}' is {len} but index {index} is retrieved."),
                    ));
                }
                value = doc.resolve(doc.items(value)?[usize::try_from(resolved).ok()?]);
                shown = format!("{shown}[{index}]");
            }
            _ => return None,
        }
    }
    None
}
