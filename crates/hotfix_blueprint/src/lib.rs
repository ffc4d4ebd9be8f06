//! Cloudify blueprints: recognition, the model, and every intrinsic function call with the
//! context `dsl_parser` evaluates it in.
//!
//! A YAML file with a top-level `tosca_definitions_version: cloudify_dsl_1_N` is a blueprint.
//! Function calls are recognised as `dsl_parser.utils.get_function` does: a mapping of one or
//! two entries whose keys are a registered function name and, optionally, `type`. They are
//! found where `dsl_parser.scan` looks for them (node template properties and capability
//! properties, operation inputs of nodes and of relationships' source and target interfaces,
//! outputs, capabilities, policies, labels, `deployment_settings`), and recursively in the
//! arguments of every call.

mod functions;
mod model;

pub use functions::{FUNCTIONS, Function, Kind, call_of, function, is_call};
pub use model::{
    Blueprint, Call, Import, ImportKind, Imported, Input, InputUses, NodeTemplate, Relationship,
    Scope, Where, input_uses,
};

/// The top-level keys Cloudify's parser takes in a blueprint (and in every file it imports),
/// in its order: the keys of `dsl_parser.elements.blueprint.Blueprint.schema` in
/// cloudify-common 7.0.5. Any other key is refused on upload (`'KEY' is not in schema`); a
/// test of the blueprint oracle compares this list with the parser's.
pub const SECTIONS: [&str; 24] = [
    "tosca_definitions_version",
    "description",
    "imports",
    "dsl_definitions",
    "metadata",
    "inputs",
    "plugins",
    "node_types",
    "relationships",
    "node_templates",
    "policy_types",
    "policy_triggers",
    "groups",
    "policies",
    "workflows",
    "outputs",
    "data_types",
    "capabilities",
    "imported_blueprints",
    "namespaces_mapping",
    "labels",
    "blueprint_labels",
    "deployment_settings",
    "resource_tags",
];

/// The DSL version a `tosca_definitions_version` value names: `cloudify_dsl_1_4` is `(1, 4)`.
pub fn parse_dsl_version(text: &str) -> Option<(u32, u32)> {
    let rest = text.strip_prefix("cloudify_dsl_")?;
    let mut parts = rest.split('_');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// Whether a loaded document is a Cloudify blueprint: a top-level `tosca_definitions_version`
/// whose value starts with `cloudify_dsl_`.
pub fn is_blueprint(doc: &hotfix_yaml::Document) -> bool {
    doc.get(doc.root(), "tosca_definitions_version")
        .and_then(|v| doc.str_value(v))
        .is_some_and(|v| v.starts_with("cloudify_dsl_"))
}

#[cfg(test)]
mod tests;
