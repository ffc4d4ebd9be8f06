//! `Cxxx`: Cloudify blueprints (`tosca_definitions_version: cloudify_dsl_1_N`), their intrinsic
//! functions as Cloudify's `dsl_parser` 7.0.5 checks and evaluates them.

use hotfix_blueprint::{Call, ImportKind, Scope};
use hotfix_diagnostics::Span;
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};

pub(crate) use crate::rule::BlueprintContext;
use crate::rule::Rule;

mod ambiguous_node_instance;
mod function_arguments;
mod function_too_new;
mod invalid_node_keyword;
mod missing_input_key;
mod undefined_input;
mod undefined_node_template;
mod undefined_property;
mod unknowable_property;
mod unknown_section;
mod unknown_sys_entity;
mod unresolved_runtime_argument;
mod unused_input;

pub(crate) const RULES: &[&Rule] = &[
    &undefined_input::RULE,
    &undefined_node_template::RULE,
    &invalid_node_keyword::RULE,
    &function_arguments::RULE,
    &function_too_new::RULE,
    &unresolved_runtime_argument::RULE,
    &unused_input::RULE,
    &missing_input_key::RULE,
    &unknown_sys_entity::RULE,
    &undefined_property::RULE,
    &unknowable_property::RULE,
    &ambiguous_node_instance::RULE,
    &unknown_section::RULE,
];

impl BlueprintContext<'_> {
    pub(crate) fn span(&self, id: NodeId) -> Span {
        self.doc.node(id).span
    }

    /// Whether every input and node template the blueprint can use is known: its imports are
    /// Cloudify's types and plugins only, or its local imports were read, all of them.
    pub(crate) fn names_complete(&self) -> bool {
        let only_types =
            |kind: &ImportKind| matches!(kind, ImportKind::Plugin | ImportKind::CloudifyTypes);
        if self.blueprint.imports.iter().all(|i| only_types(&i.kind)) {
            return true;
        }
        self.imported.is_some_and(|imported| imported.complete)
            && self
                .blueprint
                .imports
                .iter()
                .all(|i| only_types(&i.kind) || i.kind == ImportKind::Local)
    }

    /// Whether an input of this name is declared (in the file or a read import).
    pub(crate) fn has_input(&self, name: &str) -> bool {
        self.blueprint.input(name).is_some()
            || self
                .imported
                .is_some_and(|i| i.inputs.iter().any(|n| n == name))
    }

    pub(crate) fn has_node_template(&self, name: &str) -> bool {
        self.blueprint.node_template(name).is_some()
            || self
                .imported
                .is_some_and(|i| i.node_templates.iter().any(|n| n == name))
    }

    /// The input names, for "did you mean".
    pub(crate) fn input_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .blueprint
            .inputs
            .iter()
            .map(|i| i.name.as_str())
            .collect();
        if let Some(imported) = self.imported {
            names.extend(imported.inputs.iter().map(String::as_str));
        }
        names
    }

    pub(crate) fn node_template_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .blueprint
            .node_templates
            .iter()
            .map(|n| n.name.as_str())
            .collect();
        if let Some(imported) = self.imported {
            names.extend(imported.node_templates.iter().map(String::as_str));
        }
        names
    }

    /// The calls `dsl_parser.functions.validate_functions` validates (every scanned scope; an
    /// input's default is not one).
    pub(crate) fn validated_calls(&self) -> impl Iterator<Item = (usize, &Call)> {
        self.blueprint
            .calls
            .iter()
            .enumerate()
            .filter(|(_, c)| c.scope != Scope::InputDefault)
    }

    /// The items of a call's arguments when they are a list.
    pub(crate) fn arg_items(&self, call: &Call) -> Option<&[NodeId]> {
        self.doc.items(call.args)
    }

    /// What Python type `dsl_parser` sees for a node.
    pub(crate) fn py(&self, id: NodeId) -> Py {
        py(self.doc, id)
    }
}

/// The Python type a YAML node loads as, with function calls told apart from other dicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Py {
    Str,
    /// `int`, `bool` included (`isinstance(True, int)`).
    Int,
    Float,
    Null,
    Bytes,
    List,
    Dict,
    Function,
}

pub(crate) fn py(doc: &Document, id: NodeId) -> Py {
    let id = doc.resolve(id);
    match &doc.node(id).kind {
        NodeKind::Scalar(scalar) => match scalar.value {
            ScalarValue::Str | ScalarValue::Merge | ScalarValue::ValueKey => Py::Str,
            ScalarValue::Int(_) | ScalarValue::Bool(_) => Py::Int,
            ScalarValue::Float(_) => Py::Float,
            ScalarValue::Null => Py::Null,
            ScalarValue::Binary => Py::Bytes,
        },
        NodeKind::Sequence { .. } => Py::List,
        NodeKind::Mapping { .. } => {
            if hotfix_blueprint::is_call(doc, id) {
                Py::Function
            } else {
                Py::Dict
            }
        }
        NodeKind::Alias { .. } => Py::Null,
    }
}

/// `_contains_legal_nested_attribute_path_items`: every item a function, a string or an int.
pub(crate) fn legal_path_items(doc: &Document, items: &[NodeId]) -> bool {
    items
        .iter()
        .all(|&i| matches!(py(doc, i), Py::Function | Py::Str | Py::Int))
}
