//! What the parameter group rules share: the groups, Heat's error prefix for a group, and
//! grouped names compared as Python compares them.

use hotfix_yaml::{Document, NodeId};

use crate::rule::Context;
use crate::rules::py::{self, Value};
use crate::rules::util::{is_mapping, is_sequence};

/// The items of `parameter_groups`, when it is a list Heat validates.
pub(super) fn groups(cx: &Context<'_>) -> Vec<NodeId> {
    cx.template
        .section("parameter_groups")
        .and_then(|s| cx.doc.items(s.value))
        .map(<[NodeId]>::to_vec)
        .unwrap_or_default()
}

/// A group's `parameters`, when the group is a mapping and they are a list.
pub(super) fn grouped(doc: &Document, group: NodeId) -> Option<&[NodeId]> {
    if !is_mapping(doc, group) {
        return None;
    }
    let parameters = doc.get(group, "parameters")?;
    if !is_sequence(doc, parameters) {
        return None;
    }
    doc.items(parameters)
}

/// The text Heat puts before a group's error (`StackValidationFailed` with the path
/// `[parameter_groups, group.get('label', '')]`): `.label`, `[3]` for a digit string or an
/// int. Heat crashes on a label of another type: `Err` holds its message.
pub(super) fn prefix(doc: &Document, group: NodeId) -> Result<String, String> {
    let label = match doc.get(group, "label") {
        None => Value::Str(String::new()),
        Some(node) => py::load(doc, node).unwrap_or(Value::None),
    };
    let path = match &label {
        Value::Str(s) if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) => format!("[{s}]"),
        Value::Str(s) => format!(".{s}"),
        Value::Int(_) | Value::BigInt(_) | Value::Bool(_) => format!("[{}]", label.py_str()),
        other => {
            return Err(format!(
                "'{}' object has no attribute 'isdigit'",
                other.type_name()
            ));
        }
    };
    Ok(format!("Parameter Groups error: parameter_groups{path}: "))
}

/// Heat's full text for a group error, or the crash a non-string label causes instead.
pub(super) fn heat_text(doc: &Document, group: NodeId, message: &str) -> String {
    match prefix(doc, group) {
        Ok(prefix) => format!("Heat: `{prefix}{message}`"),
        Err(crash) => format!(
            "Heat: `{crash}` (the group's `label` is not a string, which Heat cannot print; otherwise: `{message}`)"
        ),
    }
}

/// A grouped name as a Python value, for `in` comparisons.
pub(super) fn value(doc: &Document, id: NodeId) -> Option<Value> {
    py::load(doc, id)
}

/// The group's label as written, for messages.
pub(super) fn label(doc: &Document, group: NodeId) -> Option<String> {
    let node = doc.get(group, "label")?;
    py::load(doc, node).map(|v| v.py_str())
}
