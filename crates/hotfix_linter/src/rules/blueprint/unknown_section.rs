use hotfix_blueprint::SECTIONS;
use hotfix_yaml::ScalarValue;

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::BlueprintContext;
use crate::rules::util::{did_you_mean, esc};

declare_rule! {
    /// ## What it does
    /// Checks that every top-level key of a blueprint is one Cloudify's parser takes:
    /// `tosca_definitions_version`, `description`, `imports`, `dsl_definitions`, `metadata`,
    /// `inputs`, `plugins`, `node_types`, `relationships`, `node_templates`, `policy_types`,
    /// `policy_triggers`, `groups`, `policies`, `workflows`, `outputs`, `data_types`,
    /// `capabilities`, `imported_blueprints`, `namespaces_mapping`, `labels`,
    /// `blueprint_labels`, `deployment_settings` and `resource_tags`.
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded, and every blueprint that imports the
    /// file: `'node_template' is not in schema. Valid schema values: [...]`. A misspelt section
    /// would otherwise be lost.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_template:
    ///   vm: {type: cloudify.nodes.Root}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   vm: {type: cloudify.nodes.Root}
    /// ```
    pub(crate) static RULE = {
        code: "C013",
        name: "unknown-blueprint-section",
        severity: Error,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    let doc = cx.doc;
    for entry in &doc.entries(doc.root()) {
        // A key that is not a string is refused in other words (`Dict keys must be strings`).
        let Some(scalar) = doc.scalar(entry.key) else {
            continue;
        };
        if scalar.value != ScalarValue::Str {
            continue;
        }
        let key = scalar.text.as_str();
        if SECTIONS.contains(&key) {
            continue;
        }
        let key = esc(key);
        let diagnostic = sink.report(
            cx.span(entry.key),
            format!("`{key}` is not a section of a Cloudify blueprint"),
        );
        let cloudify = format!("Cloudify, on upload: `'{key}' is not in schema`");
        match did_you_mean(&key, SECTIONS.iter().copied()) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {cloudify}")),
            None => diagnostic.help(format!("`hotfix rule C013` lists the sections; {cloudify}")),
        };
    }
}
