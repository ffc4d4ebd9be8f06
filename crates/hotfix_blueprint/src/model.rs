//! The blueprint model: sections, named items, and the function calls found in them.

use std::collections::HashMap;

use hotfix_yaml::{Document, NodeId};

use crate::functions::{Function, as_call};

/// The scope `dsl_parser.scan` gives a call (it decides what `SELF`, `SOURCE` and `TARGET`
/// may name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A node template's properties, capability properties or operation inputs.
    NodeTemplate {
        node: usize,
    },
    /// The operation inputs of one of a node template's relationships (source or target side).
    Relationship {
        node: usize,
        relationship: usize,
    },
    Outputs,
    Capabilities,
    Policies,
    Labels,
    DeploymentSettings,
    /// An input's default: not scanned by `dsl_parser`'s function validation.
    InputDefault,
}

impl Scope {
    /// The name `dsl_parser` gives the scope in its messages.
    pub fn dsl_name(self) -> &'static str {
        match self {
            Scope::NodeTemplate { .. } => "node_template",
            Scope::Relationship { .. } => "node_template_relationship",
            Scope::Outputs => "outputs",
            Scope::Capabilities => "capabilities",
            Scope::Policies => "policies",
            Scope::Labels => "labels",
            Scope::DeploymentSettings => "deployment_settings",
            Scope::InputDefault => "inputs",
        }
    }
}

/// Where in its scope a call sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Where {
    Properties,
    CapabilityProperties,
    OperationInputs,
    SourceOperationInputs,
    TargetOperationInputs,
    Value,
}

/// One intrinsic function call.
#[derive(Clone, Debug)]
pub struct Call {
    pub function: &'static Function,
    /// The whole `{name: args}` mapping.
    pub node: NodeId,
    /// The function name's key.
    pub key: NodeId,
    /// The arguments.
    pub args: NodeId,
    pub scope: Scope,
    pub place: Where,
    /// The call whose arguments hold this one.
    pub parent: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Input {
    pub name: String,
    pub key: NodeId,
    pub definition: NodeId,
    pub default: Option<NodeId>,
}

#[derive(Clone, Debug)]
pub struct Relationship {
    pub node: NodeId,
    pub type_name: Option<String>,
    pub target: Option<(String, NodeId)>,
}

#[derive(Clone, Debug)]
pub struct NodeTemplate {
    pub name: String,
    pub key: NodeId,
    pub definition: NodeId,
    pub type_name: Option<String>,
    pub relationships: Vec<Relationship>,
}

/// What an import names, as `dsl_parser`'s import resolver tells them apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportKind {
    /// `http://…`, `https://…`, `file:…`: fetched.
    Url,
    /// `plugin:NAME…`: a plugin's YAML from the manager.
    Plugin,
    /// `cloudify/types/types.yaml` and the like: Cloudify's own types from the manager, or from
    /// their URL under `cloudify.co/spec/cloudify/`.
    CloudifyTypes,
    /// `NAMESPACE--blueprint:ID` or `blueprint:ID`: a blueprint uploaded to the manager.
    Blueprint,
    /// A path relative to the blueprint, without a namespace.
    Local,
    /// `NAMESPACE--PATH`: an import whose names get the prefix `NAMESPACE--`.
    Namespaced,
}

#[derive(Clone, Debug)]
pub struct Import {
    pub text: String,
    pub node: NodeId,
    pub kind: ImportKind,
}

/// A loaded blueprint.
#[derive(Debug)]
pub struct Blueprint<'d> {
    pub doc: &'d Document,
    /// The `tosca_definitions_version` value node.
    pub version_node: NodeId,
    /// `(1, 4)` for `cloudify_dsl_1_4`; `None` when the value does not read as one.
    pub version: Option<(u32, u32)>,
    pub imports: Vec<Import>,
    pub inputs: Vec<Input>,
    pub node_templates: Vec<NodeTemplate>,
    /// Output names and their key nodes.
    pub outputs: Vec<(String, NodeId)>,
    pub capabilities: Vec<(String, NodeId)>,
    pub groups: Vec<(String, NodeId)>,
    pub policies: Vec<(String, NodeId)>,
    pub labels: Vec<(String, NodeId)>,
    pub dsl_definitions: Option<NodeId>,
    pub calls: Vec<Call>,
    /// The index in `inputs` of the first input of each name, so that [`Blueprint::input`]
    /// does not scan every input.
    input_index: HashMap<String, usize>,
    /// The index in `node_templates` of the first node template of each name, so that
    /// [`Blueprint::node_template`] does not scan every node template.
    node_index: HashMap<String, usize>,
}

impl<'d> Blueprint<'d> {
    /// The blueprint a document is; `None` when it is not one.
    pub fn new(doc: &'d Document) -> Option<Blueprint<'d>> {
        let mut bp = Blueprint::imports_only(doc)?;
        bp.load_inputs();
        bp.load_node_templates();
        bp.index_names();
        let root = doc.root();
        bp.outputs = named(doc, doc.get(root, "outputs"));
        bp.capabilities = named(doc, doc.get(root, "capabilities"));
        bp.groups = named(doc, doc.get(root, "groups"));
        bp.policies = named(doc, doc.get(root, "policies"));
        bp.labels = named(doc, doc.get(root, "labels"));
        bp.find_calls();
        Some(bp)
    }

    /// A blueprint's local imports as written, as [`Blueprint::new`] reads them (its `imports`
    /// of [`ImportKind::Local`]), without reading the rest of it; `None` when the document is
    /// not a blueprint. What a tool looking for the blueprints that import a file asks of each
    /// blueprint beside it.
    pub fn local_imports(doc: &Document) -> Option<Vec<String>> {
        let bp = Blueprint::imports_only(doc)?;
        Some(
            bp.imports
                .into_iter()
                .filter(|i| i.kind == ImportKind::Local)
                .map(|i| i.text)
                .collect(),
        )
    }

    /// The blueprint with its version and imports read, nothing else.
    fn imports_only(doc: &'d Document) -> Option<Blueprint<'d>> {
        let root = doc.root();
        let version_node = doc.get(root, "tosca_definitions_version")?;
        let text = doc.str_value(version_node)?;
        if !text.starts_with("cloudify_dsl_") {
            return None;
        }
        let mut bp = Blueprint {
            doc,
            version_node,
            version: crate::parse_dsl_version(text),
            imports: Vec::new(),
            inputs: Vec::new(),
            node_templates: Vec::new(),
            outputs: Vec::new(),
            capabilities: Vec::new(),
            groups: Vec::new(),
            policies: Vec::new(),
            labels: Vec::new(),
            dsl_definitions: doc.get(root, "dsl_definitions"),
            calls: Vec::new(),
            input_index: HashMap::new(),
            node_index: HashMap::new(),
        };
        bp.load_imports();
        Some(bp)
    }

    /// Records where the first input and node template of each name is.
    fn index_names(&mut self) {
        for (i, input) in self.inputs.iter().enumerate() {
            self.input_index.entry(input.name.clone()).or_insert(i);
        }
        for (i, node) in self.node_templates.iter().enumerate() {
            self.node_index.entry(node.name.clone()).or_insert(i);
        }
    }

    /// The index of the node template of this name.
    pub fn node_template(&self, name: &str) -> Option<usize> {
        self.node_index.get(name).copied()
    }

    /// The input of this name (the first, if it is repeated).
    pub fn input(&self, name: &str) -> Option<&Input> {
        self.input_index.get(name).map(|&i| &self.inputs[i])
    }

    /// Whether every input and node template is declared in this file or in imports whose
    /// names cannot be others (Cloudify's types, plugins). A URL, an uploaded blueprint, a
    /// namespaced or a local import may declare more.
    pub fn is_self_contained(&self) -> bool {
        self.imports
            .iter()
            .all(|i| matches!(i.kind, ImportKind::Plugin | ImportKind::CloudifyTypes))
    }

    /// The calls whose parent is `call` (its direct arguments and what they hold, not deeper
    /// calls' arguments).
    pub fn children(&self, call: usize) -> impl Iterator<Item = (usize, &Call)> {
        self.calls
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.parent == Some(call))
    }

    fn load_imports(&mut self) {
        let doc = self.doc;
        let Some(list) = doc.get(doc.root(), "imports").and_then(|i| doc.items(i)) else {
            return;
        };
        for &item in list {
            let Some(text) = doc.str_value(item) else {
                continue;
            };
            self.imports.push(Import {
                text: text.to_owned(),
                node: item,
                kind: import_kind(text),
            });
        }
    }

    fn load_inputs(&mut self) {
        let doc = self.doc;
        let Some(inputs) = doc.get(doc.root(), "inputs") else {
            return;
        };
        for entry in doc.entries(inputs) {
            let Some(name) = key_text(doc, entry.key) else {
                continue;
            };
            self.inputs.push(Input {
                name,
                key: entry.key,
                definition: entry.value,
                default: doc.get(entry.value, "default"),
            });
        }
    }

    fn load_node_templates(&mut self) {
        let doc = self.doc;
        let Some(nodes) = doc.get(doc.root(), "node_templates") else {
            return;
        };
        for entry in doc.entries(nodes) {
            let Some(name) = key_text(doc, entry.key) else {
                continue;
            };
            let relationships = doc
                .get(entry.value, "relationships")
                .and_then(|r| doc.items(r))
                .unwrap_or_default()
                .iter()
                .map(|&r| Relationship {
                    node: r,
                    type_name: doc
                        .get(r, "type")
                        .and_then(|t| doc.str_value(t))
                        .map(str::to_owned),
                    target: doc
                        .get(r, "target")
                        .and_then(|t| doc.str_value(t).map(|s| (s.to_owned(), t))),
                })
                .collect();
            self.node_templates.push(NodeTemplate {
                name,
                key: entry.key,
                definition: entry.value,
                type_name: doc
                    .get(entry.value, "type")
                    .and_then(|t| doc.str_value(t))
                    .map(str::to_owned),
                relationships,
            });
        }
    }

    fn find_calls(&mut self) {
        let doc = self.doc;
        let root = doc.root();
        let mut found = Vec::new();
        let mut walker = Walker {
            doc,
            out: &mut found,
        };
        for (i, node) in self.node_templates.iter().enumerate() {
            let scope = Scope::NodeTemplate { node: i };
            let def = node.definition;
            walker.container(doc.get(def, "properties"), scope, Where::Properties);
            if let Some(caps) = doc.get(def, "capabilities") {
                for cap in doc.entries(caps) {
                    walker.container(
                        doc.get(cap.value, "properties"),
                        scope,
                        Where::CapabilityProperties,
                    );
                }
            }
            walker.interfaces(doc.get(def, "interfaces"), scope, Where::OperationInputs);
            for (r, rel) in node.relationships.iter().enumerate() {
                let scope = Scope::Relationship {
                    node: i,
                    relationship: r,
                };
                walker.interfaces(
                    doc.get(rel.node, "source_interfaces"),
                    scope,
                    Where::SourceOperationInputs,
                );
                walker.interfaces(
                    doc.get(rel.node, "target_interfaces"),
                    scope,
                    Where::TargetOperationInputs,
                );
            }
        }
        for (section, scope) in [
            ("outputs", Scope::Outputs),
            ("capabilities", Scope::Capabilities),
            ("labels", Scope::Labels),
        ] {
            if let Some(items) = doc.get(root, section) {
                for entry in doc.entries(items) {
                    walker.container(Some(entry.value), scope, Where::Value);
                }
            }
        }
        if let Some(policies) = doc.get(root, "policies") {
            for entry in doc.entries(policies) {
                walker.container(
                    doc.get(entry.value, "properties"),
                    Scope::Policies,
                    Where::Properties,
                );
            }
        }
        walker.container(
            doc.get(root, "deployment_settings"),
            Scope::DeploymentSettings,
            Where::Value,
        );
        for input in &self.inputs {
            if let Some(default) = input.default {
                walker.value(default, Scope::InputDefault, Where::Value, None);
            }
        }
        self.calls = found;
    }
}

/// `scan_properties` and the validation handler: calls in a container's values, and in the
/// arguments of every call found.
struct Walker<'a> {
    doc: &'a Document,
    out: &'a mut Vec<Call>,
}

impl Walker<'_> {
    fn container(&mut self, id: Option<NodeId>, scope: Scope, place: Where) {
        self.children(id, scope, place, None);
    }

    fn children(&mut self, id: Option<NodeId>, scope: Scope, place: Where, parent: Option<usize>) {
        let Some(id) = id.map(|id| self.doc.resolve(id)) else {
            return;
        };
        if let Some(items) = self.doc.items(id) {
            for &item in items {
                self.value(item, scope, place, parent);
            }
        } else if self.doc.raw_entries(id).is_some() {
            for entry in self.doc.entries(id) {
                self.value(entry.value, scope, place, parent);
            }
        }
    }

    fn value(&mut self, id: NodeId, scope: Scope, place: Where, parent: Option<usize>) {
        let id = self.doc.resolve(id);
        let mut parent = parent;
        if let Some((function, key, args)) = as_call(self.doc, id) {
            self.out.push(Call {
                function,
                node: id,
                key,
                args: self.doc.resolve(args),
                scope,
                place,
                parent,
            });
            parent = Some(self.out.len() - 1);
        }
        // The handler scans the value's own entries or items, function or not.
        self.children(Some(id), scope, place, parent);
    }

    fn interfaces(&mut self, id: Option<NodeId>, scope: Scope, place: Where) {
        let doc = self.doc;
        let Some(id) = id else {
            return;
        };
        for interface in doc.entries(id) {
            for operation in doc.entries(interface.value) {
                let inputs = doc.get(operation.value, "inputs");
                self.container(inputs, scope, place);
            }
        }
    }
}

fn key_text(doc: &Document, key: NodeId) -> Option<String> {
    doc.scalar(key).map(|s| s.text.as_str().to_owned())
}

fn named(doc: &Document, section: Option<NodeId>) -> Vec<(String, NodeId)> {
    let Some(section) = section else {
        return Vec::new();
    };
    doc.entries(section)
        .into_iter()
        .filter_map(|e| key_text(doc, e.key).map(|k| (k, e.key)))
        .collect()
}

fn import_kind(text: &str) -> ImportKind {
    let lower = text.to_ascii_lowercase();
    if is_cloudify_types_url(&lower) {
        ImportKind::CloudifyTypes
    } else if lower.starts_with("http://")
        || lower.starts_with("https://")
        || lower.starts_with("file:")
    {
        ImportKind::Url
    } else if text.starts_with("plugin:") {
        ImportKind::Plugin
    } else if text.starts_with("blueprint:") || text.contains("--blueprint:") {
        ImportKind::Blueprint
    } else if text.starts_with("cloudify/types/") {
        ImportKind::CloudifyTypes
    } else if text.contains("--") {
        ImportKind::Namespaced
    } else {
        ImportKind::Local
    }
}

/// What a blueprint's local imports declare and use, gathered by the caller file by file (the
/// library reads no files).
#[derive(Clone, Debug, Default)]
pub struct Imported {
    pub inputs: Vec<String>,
    pub node_templates: Vec<String>,
    /// Input names the imported files pass to `get_input`.
    pub used_inputs: Vec<String>,
    /// Whether an imported file names an input with a function.
    pub dynamic_input_use: bool,
    /// Whether an imported file declares `groups` or `policies` (which may scale the
    /// blueprint's own node templates).
    pub groups: bool,
    /// Whether every import was read, and none of them is one whose names cannot be known (a
    /// URL, an uploaded blueprint, a namespaced import).
    pub complete: bool,
}

impl Imported {
    /// Nothing imported yet: complete until an import cannot be read.
    pub fn new() -> Self {
        Imported {
            complete: true,
            ..Imported::default()
        }
    }

    /// Adds what another gathering holds (that of one file, kept to be added to several
    /// blueprints' gatherings): the same as adding its files' documents one by one.
    pub fn merge(&mut self, other: &Imported) {
        self.inputs.extend(other.inputs.iter().cloned());
        self.node_templates
            .extend(other.node_templates.iter().cloned());
        self.used_inputs.extend(other.used_inputs.iter().cloned());
        self.dynamic_input_use |= other.dynamic_input_use;
        self.groups |= other.groups;
        self.complete &= other.complete;
    }

    /// Adds what one imported file declares and uses; returns its own local imports (paths as
    /// written, relative to that file) for the caller to read next.
    pub fn add(&mut self, doc: &Document) -> Vec<String> {
        let root = doc.root();
        if doc.raw_entries(root).is_none() {
            return Vec::new();
        }
        for (section, names) in [
            ("inputs", &mut self.inputs),
            ("node_templates", &mut self.node_templates),
        ] {
            if let Some(items) = doc.get(root, section) {
                names.extend(named(doc, Some(items)).into_iter().map(|(n, _)| n));
            }
        }
        self.groups |= doc.get(root, "groups").is_some() || doc.get(root, "policies").is_some();
        let uses = input_uses(doc);
        self.dynamic_input_use |= uses.dynamic;
        self.used_inputs
            .extend(uses.names.into_iter().map(|(name, _)| name));
        let mut local = Vec::new();
        if let Some(list) = doc.get(root, "imports").and_then(|i| doc.items(i)) {
            for &item in list {
                let Some(text) = doc.str_value(item) else {
                    self.complete = false;
                    continue;
                };
                match import_kind(text) {
                    ImportKind::Plugin | ImportKind::CloudifyTypes => {}
                    ImportKind::Local => local.push(text.to_owned()),
                    ImportKind::Url | ImportKind::Blueprint | ImportKind::Namespaced => {
                        self.complete = false;
                    }
                }
            }
        }
        local
    }
}

/// Every `get_input` anywhere in a document (node types' defaults and workflow parameters
/// included) and the input name it gives.
#[derive(Debug, Default)]
pub struct InputUses {
    pub names: Vec<(String, NodeId)>,
    /// A `get_input` whose input name is a function (or not a string).
    pub dynamic: bool,
}

/// The `get_input` calls of a whole document.
pub fn input_uses(doc: &Document) -> InputUses {
    let mut uses = InputUses::default();
    let mut stack = vec![doc.root()];
    let mut seen = 0usize;
    while let Some(id) = stack.pop() {
        seen += 1;
        if seen > 1_000_000 {
            uses.dynamic = true;
            break;
        }
        let id = doc.resolve(id);
        if let Some((function, _, args)) = as_call(doc, id)
            && function.name == "get_input"
        {
            let first = doc
                .items(args)
                .map_or(Some(args), |items| items.first().copied());
            match first.and_then(|f| doc.str_value(f).map(|s| (s, f))) {
                Some((name, node)) => uses.names.push((name.to_owned(), node)),
                None => uses.dynamic = true,
            }
        }
        if let Some(items) = doc.items(id) {
            stack.extend(items.iter().rev());
        } else if let Some(entries) = doc.raw_entries(id) {
            stack.extend(entries.iter().rev().map(|e| e.value));
        }
    }
    uses
}

/// Cloudify's own type definitions at the URLs its documentation gives
/// (`http://cloudify.co/spec/cloudify/6.4.0/types.yaml`, the older
/// `http://www.getcloudify.org/spec/cloudify/4.5/types.yaml`): types only, no inputs or node
/// templates.
fn is_cloudify_types_url(lower: &str) -> bool {
    let rest = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"))
        .unwrap_or_default();
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    (rest.starts_with("cloudify.co/spec/cloudify/")
        || rest.starts_with("getcloudify.org/spec/cloudify/"))
        && rest.ends_with("/types.yaml")
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    #[test]
    fn inputs_and_node_templates_are_found_by_name_among_thousands() {
        let mut text = String::from("tosca_definitions_version: cloudify_dsl_1_3\ninputs:\n");
        for i in 0..2000 {
            let _ = writeln!(text, "  i{i}: {{default: d{i}}}");
        }
        text.push_str("node_templates:\n");
        for i in 0..2000 {
            let _ = writeln!(text, "  n{i}: {{type: cloudify.nodes.Root}}");
        }
        let doc = hotfix_yaml::parse_unlimited(&text).expect("parses");
        let bp = Blueprint::new(&doc).expect("a blueprint");
        for i in [0, 1, 999, 1999] {
            let input = bp.input(&format!("i{i}")).expect("the input");
            assert_eq!(input.name, format!("i{i}"));
            let node = bp.node_template(&format!("n{i}")).expect("the node");
            assert_eq!(bp.node_templates[node].name, format!("n{i}"));
        }
        assert!(bp.input("i2000").is_none());
        assert!(bp.node_template("n2000").is_none());
    }
}
