//! The intrinsic functions `dsl_parser` 7.0.5 registers (`dsl_parser/functions.py`), with when
//! each is evaluated.

use hotfix_yaml::{Document, NodeId};

/// When `dsl_parser` evaluates a function (`func_eval_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Evaluated when the deployment plan is prepared, and again at run time when its
    /// arguments were not ready (`HYBRID_FUNC`).
    Hybrid,
    /// Evaluated only at run time (`RUNTIME_FUNC`).
    Runtime,
}

/// A registered intrinsic function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: &'static str,
    pub kind: Kind,
    /// The DSL version `validate` requires (`concat` `1_1`, `merge` `1_3`); `(1, 0)` for the rest.
    pub since: (u32, u32),
    /// Whether plan preparation fails when an argument is still a function after the inner
    /// calls were evaluated (`found an unresolved argument`, `should not be a function`).
    pub needs_resolved_arguments: bool,
}

const fn f(name: &'static str, kind: Kind, since: (u32, u32), strict: bool) -> Function {
    Function {
        name,
        kind,
        since,
        needs_resolved_arguments: strict,
    }
}

/// Every function `dsl_parser` registers, in the order of `functions.py`.
pub const FUNCTIONS: &[Function] = &[
    f("get_input", Kind::Hybrid, (1, 0), true),
    f("get_sys", Kind::Runtime, (1, 0), false),
    f("get_consumers", Kind::Runtime, (1, 0), false),
    f("get_property", Kind::Hybrid, (1, 0), true),
    f("get_attribute", Kind::Runtime, (1, 0), false),
    f("get_attributes_list", Kind::Runtime, (1, 0), false),
    f("get_attributes_dict", Kind::Runtime, (1, 0), false),
    f("get_secret", Kind::Runtime, (1, 0), false),
    f("concat", Kind::Hybrid, (1, 1), false),
    f("merge", Kind::Hybrid, (1, 3), false),
    f("get_capability", Kind::Runtime, (1, 0), false),
    f("get_group_capability", Kind::Runtime, (1, 0), false),
    f("get_label", Kind::Runtime, (1, 0), false),
    f("get_environment_capability", Kind::Runtime, (1, 0), false),
    f("string_find", Kind::Hybrid, (1, 0), true),
    f("string_replace", Kind::Hybrid, (1, 0), true),
    f("string_split", Kind::Hybrid, (1, 0), true),
    f("string_lower", Kind::Hybrid, (1, 0), true),
    f("string_upper", Kind::Hybrid, (1, 0), true),
];

/// The function a name registers.
pub fn function(name: &str) -> Option<&'static Function> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// The call a node is, as `get_function` sees it: a mapping of one or two entries, each key
/// `type` or a function name, at least one a function name (the last one wins). Returns the
/// function, its key node and its argument node.
pub(crate) fn as_call(doc: &Document, id: NodeId) -> Option<(&'static Function, NodeId, NodeId)> {
    let id = doc.resolve(id);
    doc.raw_entries(id)?;
    let entries = doc.entries(id);
    if entries.is_empty() || entries.len() > 2 {
        return None;
    }
    let mut found = None;
    for entry in entries {
        let key = doc.str_value(entry.key)?;
        if key == "type" {
            continue;
        }
        found = Some((function(key)?, entry.key, entry.value));
    }
    found
}

/// Whether a node is a function call as `dsl_parser.utils.get_function` sees it.
pub fn is_call(doc: &Document, id: NodeId) -> bool {
    as_call(doc, id).is_some()
}

/// The function, its key node and its argument node, when a node is a call.
pub fn call_of(doc: &Document, id: NodeId) -> Option<(&'static Function, NodeId, NodeId)> {
    as_call(doc, id)
}
