//! Function calls and references, found exactly where and as Heat finds them.
//!
//! Heat's `parse()` (`heat/engine/template.py`) turns a mapping into a function call iff it has
//! exactly one key and that key is in the table of the context: the version's `functions` in
//! value contexts, its condition table in condition contexts. Otherwise the mapping is data and
//! only its values are parsed; keys never are. Parsed fields: a resource's `type`,
//! `properties`, `metadata`, `update_policy`, `deletion_policy`, `external_id` and (as a
//! condition) `condition`; an output's `value` and `condition`; every `conditions` entry.
//! `parameters`, `parameter_groups`, `depends_on` and descriptions are never parsed. Inside a
//! call the arguments are parsed in the same context, except the first argument of `if`,
//! which is a condition.

use hotfix_yaml::{Document, NodeId, NodeKind};

use crate::template::{Named, Template};
use crate::{Availability, ConditionAvailability, Function, Version};

/// Which function table applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    Value,
    Condition,
}

/// The definition a node belongs to (an index into the template's list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Resource(usize),
    Output(usize),
    Condition(usize),
}

/// What the version's table makes of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallStatus {
    /// Called.
    Active(Function),
    /// Heat's `Removed`: an error when validated.
    Removed(Function),
    /// A value function in a condition context: `The function "%s" is invalid in this context`.
    Invalid(Function),
}

impl CallStatus {
    pub fn function(self) -> Function {
        match self {
            CallStatus::Active(f) | CallStatus::Removed(f) | CallStatus::Invalid(f) => f,
        }
    }
}

/// A function call: a single-key mapping whose key the context's table knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The `{name: args}` mapping.
    pub map: NodeId,
    /// The key node (`get_param`).
    pub key: NodeId,
    /// The arguments.
    pub args: NodeId,
    pub status: CallStatus,
    pub context: Context,
    pub owner: Owner,
    /// The field of the owner (`properties`, `value`, `condition`, …).
    pub field: &'static str,
}

/// A mapping in a parsed field that Heat treats as data, not as a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataMap {
    pub map: NodeId,
    pub context: Context,
    pub owner: Owner,
    pub field: &'static str,
}

/// What a reference names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// `get_param: name` / `get_param: [name, …]`.
    Parameter,
    /// `get_resource: name`.
    Resource,
    /// `get_attr: [name, …]`.
    Attribute,
    /// `depends_on: name` / `[names]`.
    DependsOn,
    /// `Ref: name` (2013-05-23): a resource if one has that name, else a parameter.
    CfnRef,
    /// A condition name: a `condition:` field, the first argument of `if`, an argument of
    /// `not`/`and`/`or`.
    Condition,
}

/// A name that refers to a parameter, resource or condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub kind: RefKind,
    pub name: String,
    /// The scalar holding the name.
    pub node: NodeId,
    pub owner: Owner,
    pub field: &'static str,
    /// The call the reference is an argument of (an index into [`Semantic::calls`]).
    pub call: Option<usize>,
}

/// Every call, data mapping and reference of a template, found once.
#[derive(Debug, Default)]
pub struct Semantic {
    pub calls: Vec<Call>,
    pub data_maps: Vec<DataMap>,
    pub references: Vec<Reference>,
    /// Each call's mapping with its first record in `calls`, sorted by mapping.
    by_map: Vec<(NodeId, usize)>,
}

impl Semantic {
    /// Walks every parsed field of the template, with the functions of the version it is read
    /// as ([`Template::effective_version`]). Without one nothing is parsed (Heat would not get
    /// that far), so the result is empty.
    pub fn new(template: &Template<'_>) -> Semantic {
        let mut walker = Walker {
            doc: template.doc,
            version: template.effective_version(),
            out: Semantic::default(),
            seen: vec![0; template.doc.nodes().len()],
        };
        let Some(version) = walker.version else {
            return walker.out;
        };
        let conditions_exist = version >= Version::V2016_10_14;
        for (i, resource) in template.resources.iter().enumerate() {
            let owner = Owner::Resource(i);
            if !template.is_mapping(resource.value) {
                continue;
            }
            for field in [
                "type",
                "properties",
                "metadata",
                "update_policy",
                "deletion_policy",
                "external_id",
            ] {
                if let Some(node) = template.field(resource, field) {
                    walker.walk(node, Context::Value, owner, field);
                }
            }
            if conditions_exist && let Some(node) = template.field(resource, "condition") {
                walker.condition_field(node, owner, "condition");
            }
            if let Some(node) = template.field(resource, "depends_on") {
                walker.depends_on(node, owner);
            }
        }
        for (i, output) in template.outputs.iter().enumerate() {
            let owner = Owner::Output(i);
            if !template.is_mapping(output.value) {
                continue;
            }
            if let Some(node) = template.field(output, "value") {
                walker.walk(node, Context::Value, owner, "value");
            }
            if conditions_exist && let Some(node) = template.field(output, "condition") {
                walker.condition_field(node, owner, "condition");
            }
        }
        if conditions_exist {
            for (i, condition) in template.conditions.iter().enumerate() {
                walker.walk(
                    condition.value,
                    Context::Condition,
                    Owner::Condition(i),
                    "definition",
                );
            }
        }
        let mut out = walker.out;
        let mut by_map: Vec<(NodeId, usize)> = out
            .calls
            .iter()
            .enumerate()
            .map(|(i, call)| (call.map, i))
            .collect();
        // Sorted by mapping, then record: the first of each mapping is its first record.
        by_map.sort_unstable();
        by_map.dedup_by_key(|(map, _)| *map);
        out.by_map = by_map;
        out
    }

    /// The call whose `{name: args}` mapping is `map` (not following aliases), if Heat's
    /// parser calls it, whatever its status.
    pub fn call_at(&self, map: NodeId) -> Option<&Call> {
        let at = self.by_map.binary_search_by_key(&map, |&(m, _)| m).ok()?;
        Some(&self.calls[self.by_map[at].1])
    }

    /// The references of one kind.
    pub fn references(&self, kind: RefKind) -> impl Iterator<Item = &Reference> {
        self.references.iter().filter(move |r| r.kind == kind)
    }

    /// The calls of one (active) function.
    pub fn calls_to(&self, function: Function) -> impl Iterator<Item = &Call> {
        self.calls
            .iter()
            .filter(move |c| c.status == CallStatus::Active(function))
    }
}

/// One resource depending on another, as Heat orders them: through `depends_on`, or through a
/// `get_resource`, `get_attr` (in 2013-05-23 also `Ref`) in its `properties` or `metadata` (Heat
/// derives implicit dependencies from those two fields only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    /// The resource that depends (an index into the template's resources).
    pub from: usize,
    /// The resource it depends on: the first of that name.
    pub to: usize,
    /// [`RefKind::DependsOn`], [`RefKind::Resource`], [`RefKind::Attribute`] or
    /// [`RefKind::CfnRef`].
    pub kind: RefKind,
    /// The scalar naming `to`.
    pub node: NodeId,
}

impl Dependency {
    /// What makes the dependency, as written: `depends_on`, `get_resource`, `get_attr`, `Ref`.
    pub fn via(&self) -> &'static str {
        match self.kind {
            RefKind::DependsOn => "depends_on",
            RefKind::Resource => "get_resource",
            RefKind::Attribute => "get_attr",
            RefKind::CfnRef => "Ref",
            // Never a dependency.
            RefKind::Parameter => "get_param",
            RefKind::Condition => "condition",
        }
    }
}

impl Semantic {
    /// Every dependency of a resource on another of `template` (this semantic's template), in
    /// the order they are written; a name no resource has is left out.
    pub fn dependencies(&self, template: &Template<'_>) -> Vec<Dependency> {
        let index: std::collections::HashMap<&str, usize> = template
            .resources
            .iter()
            .enumerate()
            .rev()
            .map(|(i, r)| (r.name.as_str(), i))
            .collect();
        let mut found: Vec<Dependency> = self
            .references
            .iter()
            .filter(|r| matches!(r.field, "properties" | "metadata" | "depends_on"))
            .filter(|r| {
                matches!(
                    r.kind,
                    RefKind::Resource | RefKind::Attribute | RefKind::DependsOn | RefKind::CfnRef
                )
            })
            .filter_map(|r| {
                let Owner::Resource(from) = r.owner else {
                    return None;
                };
                Some(Dependency {
                    from,
                    to: *index.get(r.name.as_str())?,
                    kind: r.kind,
                    node: r.node,
                })
            })
            .collect();
        found.sort_by_key(|d| template.doc.node(d.node).span.start);
        found
    }
}

/// The definition an owner names.
pub fn owner_definition<'t>(template: &'t Template<'_>, owner: Owner) -> &'t Named {
    match owner {
        Owner::Resource(i) => &template.resources[i],
        Owner::Output(i) => &template.outputs[i],
        Owner::Condition(i) => &template.conditions[i],
    }
}

struct Walker<'d> {
    doc: &'d Document,
    version: Option<Version>,
    out: Semantic,
    /// Mappings already recorded (as a call or as data) in a context. An aliased mapping is
    /// walked once per place that uses it, so that references are credited to every owner,
    /// but it is recorded once: one place, one call. By node index, a bit per context.
    seen: Vec<u8>,
}

impl Walker<'_> {
    /// A field that holds a condition: a name (a reference), a boolean, or an expression.
    fn condition_field(&mut self, node: NodeId, owner: Owner, field: &'static str) {
        if let Some(name) = self.doc.str_value(node) {
            self.reference(RefKind::Condition, name, node, owner, field, None);
            return;
        }
        self.walk(node, Context::Condition, owner, field);
    }

    fn depends_on(&mut self, node: NodeId, owner: Owner) {
        if let Some(name) = self.doc.str_value(node) {
            self.reference(RefKind::DependsOn, name, node, owner, "depends_on", None);
        } else if let Some(items) = self.doc.items(node) {
            for &item in items {
                if let Some(name) = self.doc.str_value(item) {
                    self.reference(RefKind::DependsOn, name, item, owner, "depends_on", None);
                }
            }
        }
    }

    fn reference(
        &mut self,
        kind: RefKind,
        name: &str,
        node: NodeId,
        owner: Owner,
        field: &'static str,
        call: Option<usize>,
    ) {
        self.out.references.push(Reference {
            kind,
            name: name.to_owned(),
            node,
            owner,
            field,
            call,
        });
    }

    fn walk(&mut self, node: NodeId, context: Context, owner: Owner, field: &'static str) {
        let doc = self.doc;
        let node = doc.resolve(node);
        match &doc.node(node).kind {
            NodeKind::Sequence { items, .. } => {
                for &item in items {
                    self.walk(item, context, owner, field);
                }
            }
            NodeKind::Mapping { .. } => {
                let entries = doc.entries(node);
                let bit = match context {
                    Context::Value => 1,
                    Context::Condition => 2,
                };
                let seen = &mut self.seen[node.index()];
                let first_visit = *seen & bit == 0;
                *seen |= bit;
                if let [entry] = entries.as_slice()
                    && let Some(status) = self.status(entry.key, context)
                {
                    self.call(
                        node,
                        entry.key,
                        entry.value,
                        status,
                        context,
                        owner,
                        field,
                        first_visit,
                    );
                    return;
                }
                if first_visit {
                    self.out.data_maps.push(DataMap {
                        map: node,
                        context,
                        owner,
                        field,
                    });
                }
                for entry in entries {
                    self.walk(entry.value, context, owner, field);
                }
            }
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
        }
    }

    fn status(&self, key: NodeId, context: Context) -> Option<CallStatus> {
        let name = self.doc.str_value(key)?;
        let version = self.version?;
        match context {
            Context::Value => match version.function(name) {
                Availability::Function(f) => Some(CallStatus::Active(f)),
                Availability::Removed(f) => Some(CallStatus::Removed(f)),
                Availability::Data => None,
            },
            Context::Condition => match version.condition_function(name) {
                ConditionAvailability::Function(f) => Some(CallStatus::Active(f)),
                ConditionAvailability::Removed(f) => Some(CallStatus::Removed(f)),
                ConditionAvailability::Invalid(f) => Some(CallStatus::Invalid(f)),
                ConditionAvailability::Data => None,
            },
        }
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one call site, all parts of a call"
    )]
    fn call(
        &mut self,
        map: NodeId,
        key: NodeId,
        args: NodeId,
        status: CallStatus,
        context: Context,
        owner: Owner,
        field: &'static str,
        record: bool,
    ) {
        // The call a reference belongs to: this one, or the first record of the same mapping.
        let index = if record {
            self.out.calls.push(Call {
                map,
                key,
                args,
                status,
                context,
                owner,
                field,
            });
            self.out.calls.len() - 1
        } else {
            self.out
                .calls
                .iter()
                .position(|c| c.map == map && c.context == context)
                .unwrap_or(0)
        };
        let doc = self.doc;
        let first_str = |args: NodeId| -> Option<NodeId> {
            match doc.items(args) {
                Some(items) => items
                    .first()
                    .copied()
                    .filter(|&i| doc.str_value(i).is_some()),
                None => None,
            }
        };
        let function = status.function();
        match (status, function) {
            (CallStatus::Active(_), Function::GetParam) => {
                let name_node = if doc.str_value(args).is_some() {
                    Some(args)
                } else {
                    first_str(args)
                };
                if let Some(n) = name_node {
                    let name = doc.str_value(n).unwrap_or_default().to_owned();
                    self.reference(RefKind::Parameter, &name, n, owner, field, Some(index));
                }
            }
            (CallStatus::Active(_), Function::GetResource) => {
                if let Some(name) = doc.str_value(args) {
                    self.reference(RefKind::Resource, name, args, owner, field, Some(index));
                }
            }
            (CallStatus::Active(_), Function::GetAttr) => {
                if let Some(n) = first_str(args) {
                    let name = doc.str_value(n).unwrap_or_default().to_owned();
                    self.reference(RefKind::Attribute, &name, n, owner, field, Some(index));
                }
            }
            (CallStatus::Active(_), Function::Ref) => {
                if let Some(name) = doc.str_value(args) {
                    self.reference(RefKind::CfnRef, name, args, owner, field, Some(index));
                }
            }
            (CallStatus::Active(_), Function::Not) => {
                if let Some(name) = doc.str_value(args) {
                    self.reference(RefKind::Condition, name, args, owner, field, Some(index));
                }
            }
            (CallStatus::Active(_), Function::And | Function::Or) => {
                for &item in doc.items(args).unwrap_or_default() {
                    if let Some(name) = doc.str_value(item) {
                        self.reference(RefKind::Condition, name, item, owner, field, Some(index));
                    }
                }
            }
            _ => {}
        }
        if function == Function::If && context == Context::Value {
            // The first argument is a condition; the branches are values.
            let items = doc.items(args).unwrap_or_default().to_vec();
            if let Some((&condition, branches)) = items.split_first() {
                if let Some(name) = doc.str_value(condition) {
                    self.reference(
                        RefKind::Condition,
                        name,
                        condition,
                        owner,
                        field,
                        Some(index),
                    );
                } else {
                    self.walk(condition, Context::Condition, owner, field);
                }
                for &branch in branches {
                    self.walk(branch, context, owner, field);
                }
            }
            return;
        }
        self.walk(args, context, owner, field);
    }
}
