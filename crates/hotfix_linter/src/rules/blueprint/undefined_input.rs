use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::{BlueprintContext, Py};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks for `get_input` calls that name an input the blueprint does not declare.
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded: `get_input function references an
    /// unknown input 'NAME'.` The check is skipped when an import that cannot be read (a URL,
    /// an uploaded blueprint, a namespaced import, an unread local file) could declare it.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// inputs:
    ///   image: {default: centos}
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    ///     properties:
    ///       image: {get_input: imgae}
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
        code: "C001",
        name: "undefined-input",
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
        if call.function.name != "get_input" {
            continue;
        }
        // `validate` looks at the first item of a list, or the string itself.
        let name_node = match cx.py(call.args) {
            Py::Str => call.args,
            Py::List => match cx.arg_items(call).and_then(<[_]>::first) {
                Some(&first) => first,
                None => continue,
            },
            _ => continue,
        };
        let Some(name) = cx.doc.str_value(name_node) else {
            continue;
        };
        if cx.has_input(name) {
            continue;
        }
        let names = cx.input_names();
        let diagnostic = sink.report(
            cx.span(name_node),
            format!("`get_input` names `{name}`, which is not an input of the blueprint"),
        );
        diagnostic.primary_label("not declared under `inputs`");
        let advice = match did_you_mean(name, names.iter().copied()) {
            Some(close) => format!("did you mean `{close}`? "),
            None => "declare it under `inputs`, or fix the name; ".to_owned(),
        };
        diagnostic.help(format!(
            "{advice}Cloudify, on upload: `get_input function references an unknown input \
             '{name}'.`"
        ));
    }
}
