use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::{BlueprintContext, Py, legal_path_items};

/// `GetSys.VALID_PROPERTIES`.
const VALID: [(&str, &str); 5] = [
    ("tenant", "name"),
    ("deployment", "id"),
    ("deployment", "name"),
    ("deployment", "blueprint"),
    ("deployment", "owner"),
];

declare_rule! {
    /// ## What it does
    /// Checks that `get_sys` names an entity and property Cloudify knows: `[tenant, name]`,
    /// `[deployment, id]`, `[deployment, name]`, `[deployment, blueprint]` or
    /// `[deployment, owner]`.
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded: `get_sys function unable to
    /// determine entity: NAME` or `get_sys function unable to determine property: ENTITY
    /// NAME`.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// outputs:
    ///   tenant: {value: {get_sys: [tenant, id]}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// outputs:
    ///   tenant: {value: {get_sys: [tenant, name]}}
    /// ```
    pub(crate) static RULE = {
        code: "C009",
        name: "unknown-sys-property",
        severity: Error,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    for (_, call) in cx.validated_calls() {
        if call.function.name != "get_sys" {
            continue;
        }
        let Some(items) = cx.arg_items(call) else {
            continue;
        };
        let [entity, property, ..] = items else {
            continue;
        };
        if !legal_path_items(cx.doc, items) || cx.py(*entity) == Py::Function {
            continue;
        }
        let entity_text = cx.doc.text(*entity);
        let Some(entity_name) = cx
            .doc
            .str_value(*entity)
            .filter(|e| VALID.iter().any(|(v, _)| v == e))
        else {
            let diagnostic = sink.report(
                cx.span(*entity),
                format!("`get_sys` knows no entity `{entity_text}`"),
            );
            diagnostic.primary_label("expected `tenant` or `deployment`");
            diagnostic.help(format!(
                "Cloudify, on upload: `get_sys function unable to determine entity: \
                 {entity_text}`"
            ));
            continue;
        };
        if cx.py(*property) == Py::Function {
            continue;
        }
        let known = cx
            .doc
            .str_value(*property)
            .is_some_and(|p| VALID.contains(&(entity_name, p)));
        if known {
            continue;
        }
        let property_text = cx.doc.text(*property);
        let choices: Vec<String> = VALID
            .iter()
            .filter(|(e, _)| *e == entity_name)
            .map(|(_, p)| format!("`{p}`"))
            .collect();
        let diagnostic = sink.report(
            cx.span(*property),
            format!("`get_sys` knows no property `{property_text}` of `{entity_name}`"),
        );
        diagnostic.primary_label(format!("expected {}", choices.join(", ")));
        diagnostic.help(format!(
            "Cloudify, on upload: `get_sys function unable to determine property: {entity_name} \
             {property_text}`"
        ));
    }
}
