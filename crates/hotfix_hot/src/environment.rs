//! A Heat environment file, read as Heat reads it.
//!
//! `heat/common/environment_format.py` parses the file (the template loader, then: the root must
//! be a mapping, every top-level key one of [`SECTIONS`], no section null), and
//! `heat/engine/environment.py` loads `resource_registry`: each entry maps a type name (or a
//! glob ending in `*`) to a type name or a template path; a mapping value nests (the `resources`
//! key holds per-resource overrides, keyed by resource name); a null value removes a mapping; the
//! keys `hooks` and `restricted_actions` hold breakpoints and forbidden actions, which Heat
//! checks against [`HOOK_TYPES`] and [`RESTRICTED_ACTIONS`]. `heat/common/environment_util.py`
//! reads `parameter_merge_strategies`: a strategy not in [`MERGE_STRATEGIES`] is ignored.

use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};

use crate::template::key_name;

/// The sections an environment may have, in Heat's order.
pub const SECTIONS: [&str; 6] = [
    "parameters",
    "resource_registry",
    "parameter_defaults",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
];

/// The hook types a `hooks` entry may name (`environment.HOOK_TYPES`).
pub const HOOK_TYPES: [&str; 6] = [
    "pre-create",
    "pre-update",
    "pre-delete",
    "post-create",
    "post-update",
    "post-delete",
];

/// The actions a `restricted_actions` entry may name (`environment.RESTRICTED_ACTIONS`).
pub const RESTRICTED_ACTIONS: [&str; 2] = ["update", "replace"];

/// The merge strategies `parameter_merge_strategies` may give
/// (`environment_util.ALLOWED_PARAM_MERGE_STRATEGIES`).
pub const MERGE_STRATEGIES: [&str; 3] = ["overwrite", "merge", "deep_merge"];

/// A top-level section as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvSection {
    /// The key as Heat sees it.
    pub name: String,
    pub key: NodeId,
    pub value: NodeId,
}

/// One entry of `resource_registry` (or of a per-resource override under `resources`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryEntry {
    /// The names from the top of `resource_registry` to this entry's key
    /// (`["resources", "my_server", "OS::Nova::Server"]`).
    pub path: Vec<String>,
    pub key: NodeId,
    pub value: NodeId,
    pub kind: EntryKind,
}

/// What a registry entry is, as Heat's `_load_registry` tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A type name or template path (a string).
    Mapping,
    /// Null: removes the mapping (Heat's engine); python-heatclient fails on it.
    Removal,
    /// `hooks: …` (valid or not).
    Hooks,
    /// `restricted_actions: …` (valid or not).
    RestrictedActions,
    /// A mapping that nests further entries (`resources:`, a resource's overrides).
    Nested,
    /// Another value (a number, a list, a boolean): Heat keeps it as a type name it then
    /// cannot use.
    Other,
}

/// An environment file's structure.
#[derive(Debug)]
pub struct Environment<'d> {
    pub doc: &'d Document,
    /// The top-level entries, in order (none when the root is not a mapping).
    pub sections: Vec<EnvSection>,
    /// The `resource_registry` entries, depth first, in order.
    pub registry: Vec<RegistryEntry>,
}

/// How deep `resource_registry` is followed (Heat's own nesting is two levels).
const MAX_DEPTH: usize = 32;

impl<'d> Environment<'d> {
    pub fn new(doc: &'d Document) -> Self {
        let root = doc.root();
        let sections: Vec<EnvSection> = doc
            .entries(root)
            .into_iter()
            .map(|e| EnvSection {
                name: key_name(doc, e.key),
                key: e.key,
                value: e.value,
            })
            .collect();
        let mut registry = Vec::new();
        if let Some(section) = sections.iter().find(|s| s.name == "resource_registry") {
            walk(doc, section.value, &mut Vec::new(), &mut registry);
        }
        Environment {
            doc,
            sections,
            registry,
        }
    }

    /// The section called `name`.
    pub fn section(&self, name: &str) -> Option<&EnvSection> {
        self.sections.iter().find(|s| s.name == name)
    }
}

fn walk(doc: &Document, node: NodeId, path: &mut Vec<String>, out: &mut Vec<RegistryEntry>) {
    if path.len() > MAX_DEPTH {
        return;
    }
    for entry in doc.entries(node) {
        let name = key_name(doc, entry.key);
        let value = doc.resolve(entry.value);
        let kind = match (&doc.node(value).kind, name.as_str()) {
            (NodeKind::Scalar(s), _) if s.value == ScalarValue::Null => EntryKind::Removal,
            (_, "hooks") => EntryKind::Hooks,
            (_, "restricted_actions") => EntryKind::RestrictedActions,
            (NodeKind::Mapping { .. }, _) => EntryKind::Nested,
            (NodeKind::Scalar(s), _) if s.value == ScalarValue::Str => EntryKind::Mapping,
            _ => EntryKind::Other,
        };
        path.push(name);
        out.push(RegistryEntry {
            path: path.clone(),
            key: entry.key,
            value: entry.value,
            kind,
        });
        if kind == EntryKind::Nested {
            walk(doc, value, path, out);
        }
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(text: &str) -> (Document, Vec<(String, EntryKind)>) {
        let doc = hotfix_yaml::parse_environment(text)
            .expect("loads")
            .expect("not empty");
        let entries = Environment::new(&doc)
            .registry
            .iter()
            .map(|e| (e.path.join("/"), e.kind))
            .collect();
        (doc, entries)
    }

    #[test]
    fn reads_the_registry_as_heat_loads_it() {
        let (_, entries) = env("resource_registry:\n  My::A: a.yaml\n  OS::Old: ~\n  \
             resources:\n    server:\n      OS::Nova::Server: s.yaml\n      hooks: [pre-create]\n      \
             restricted_actions: replace\n  My::B: 1\n");
        assert_eq!(
            entries,
            vec![
                ("My::A".to_owned(), EntryKind::Mapping),
                ("OS::Old".to_owned(), EntryKind::Removal),
                ("resources".to_owned(), EntryKind::Nested),
                ("resources/server".to_owned(), EntryKind::Nested),
                (
                    "resources/server/OS::Nova::Server".to_owned(),
                    EntryKind::Mapping
                ),
                ("resources/server/hooks".to_owned(), EntryKind::Hooks),
                (
                    "resources/server/restricted_actions".to_owned(),
                    EntryKind::RestrictedActions
                ),
                ("My::B".to_owned(), EntryKind::Other),
            ]
        );
    }

    #[test]
    fn an_empty_file_is_an_empty_environment_and_a_list_is_not_one() {
        assert!(hotfix_yaml::parse_environment("").expect("loads").is_none());
        assert!(
            hotfix_yaml::parse_environment("~\n")
                .expect("loads")
                .is_none()
        );
        let err = hotfix_yaml::parse_environment("- a\n").expect_err("a list");
        assert_eq!(
            err.message,
            "The environment is not a valid YAML mapping data type."
        );
    }
}
