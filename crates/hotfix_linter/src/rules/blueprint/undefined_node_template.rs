use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::{BlueprintContext, Py, legal_path_items};
use crate::rules::util::did_you_mean;

/// The functions whose first argument names a node template.
pub(crate) const NODE_FUNCTIONS: [&str; 4] = [
    "get_property",
    "get_attribute",
    "get_attributes_list",
    "get_attributes_dict",
];

/// `SELF`, `SOURCE` and `TARGET`: node templates named by where the call is.
pub(crate) const KEYWORDS: [&str; 3] = ["SELF", "SOURCE", "TARGET"];

declare_rule! {
    /// ## What it does
    /// Checks for `get_property`, `get_attribute`, `get_attributes_list` and
    /// `get_attributes_dict` calls that name a node template the blueprint does not have.
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded: `Node NAME does not exist` for
    /// `get_property`, `get_attribute function node reference 'NAME' does not exist.` for the
    /// others. (It checks only calls none of whose arguments is a function.) The check is
    /// skipped when an import that cannot be read could declare the node template.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    /// outputs:
    ///   ip: {value: {get_attribute: [mv, ip]}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    /// outputs:
    ///   ip: {value: {get_attribute: [vm, ip]}}
    /// ```
    pub(crate) static RULE = {
        code: "C002",
        name: "undefined-node-template",
        severity: Error,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    if !cx.names_complete() {
        return;
    }
    for (_, call) in cx.validated_calls() {
        let name = call.function.name;
        if !NODE_FUNCTIONS.contains(&name) {
            continue;
        }
        let Some(items) = cx.arg_items(call) else {
            continue;
        };
        let Some(&first) = items.first() else {
            continue;
        };
        if !shape_checked(cx, name, items) {
            continue;
        }
        let Some(node) = cx.doc.str_value(first) else {
            continue;
        };
        if KEYWORDS.contains(&node) || cx.has_node_template(node) {
            continue;
        }
        let quoted = if name == "get_property" {
            format!("Node {node} does not exist")
        } else {
            format!("{name} function node reference '{node}' does not exist.")
        };
        let names = cx.node_template_names();
        let diagnostic = sink.report(
            cx.span(first),
            format!("`{name}` names `{node}`, which is not a node template of the blueprint"),
        );
        diagnostic.primary_label("no such node template");
        let advice = match did_you_mean(node, names.iter().copied()) {
            Some(close) => format!("did you mean `{close}`? "),
            None => String::new(),
        };
        diagnostic.help(format!("{advice}Cloudify, on upload: `{quoted}`"));
    }
}

/// Whether `dsl_parser` gets as far as looking the node up: the arguments have the shape
/// `parse_args` accepts and none of them is a function (`validate` returns early then).
pub(crate) fn shape_checked(
    cx: &BlueprintContext<'_>,
    name: &str,
    items: &[hotfix_yaml::NodeId],
) -> bool {
    if name == "get_attributes_dict" {
        // [node, path, path…]: each path an item or a list of items; validate skips when the
        // node or a path (not a path's items) is a function.
        let Some((&node, paths)) = items.split_first() else {
            return false;
        };
        if !matches!(cx.py(node), Py::Str | Py::Int) {
            return false;
        }
        return paths.iter().all(|&p| match cx.py(p) {
            Py::List => cx
                .doc
                .items(p)
                .is_some_and(|path| !path.is_empty() && legal_path_items(cx.doc, path)),
            Py::Str | Py::Int => true,
            _ => false,
        });
    }
    items.len() >= 2
        && legal_path_items(cx.doc, items)
        && items.iter().all(|&i| cx.py(i) != Py::Function)
}
