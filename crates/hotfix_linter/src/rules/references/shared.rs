//! Helpers shared by the reference rules: Heat's paths to calls (as its error texts print
//! them), and literal conditions.

use foldhash::{HashMap, HashMapExt as _, HashSet, HashSetExt as _};
use hotfix_hot::{
    Call, Context as CallContext, Function, Named, Owner, RefKind, Reference, key_name,
    owner_definition,
};
use hotfix_yaml::{NodeId, NodeKind, ScalarValue};

use crate::rule::Context;
use crate::rules::util::{is_mapping, is_null};

/// Whether a section can be used to look names up: absent, null (Heat reads `{}`), or a
/// mapping. Another family reports a section of the wrong type; names are not checked then.
pub(super) fn section_usable(cx: &Context<'_>, name: &str) -> bool {
    cx.template
        .section(name)
        .is_none_or(|s| is_mapping(cx.doc, s.value) || is_null(cx.doc, s.value))
}

/// The name of the definition a reference belongs to.
pub(super) fn owner_name<'t>(cx: &'t Context<'_>, owner: Owner) -> &'t str {
    owner_definition(cx.template, owner).name.as_str()
}

/// The call a reference is an argument of.
pub(super) fn call_of<'s>(cx: &'s Context<'_>, reference: &Reference) -> Option<&'s Call> {
    reference.call.and_then(|i| cx.semantic.calls.get(i))
}

/// Heat's paths to the calls of parsed fields, computed once per field.
///
/// Heat prints a path as `.key` for a mapping entry, `[i]` for a list item and `.fn` for the
/// arguments of a function, e.g. `r.Properties.value.list_join[1][0]`; the branches of an
/// `if` are not numbered (only the chosen branch is parsed: `value.if.x`).
pub(super) struct Paths<'c> {
    cx: &'c Context<'c>,
    fields: HashMap<(Owner, &'static str), HashMap<NodeId, String>>,
}

impl<'c> Paths<'c> {
    pub(super) fn new(cx: &'c Context<'c>) -> Self {
        Paths {
            cx,
            fields: HashMap::new(),
        }
    }

    /// The path at which `call` sits in field `field` of `owner` (not always the call's own:
    /// an alias can bring it to another definition), starting with `prefix` (the path of the
    /// field itself).
    fn path(
        &mut self,
        owner: Owner,
        field: &'static str,
        call: &Call,
        prefix: &str,
    ) -> Option<String> {
        let key = (owner, field);
        if !self.fields.contains_key(&key) {
            let definition = owner_definition(self.cx.template, owner);
            let paths = match self.cx.template.field(definition, field) {
                Some(root) => self.walk(root),
                None => HashMap::new(),
            };
            self.fields.insert(key, paths);
        }
        let relative = self.fields.get(&key)?.get(&call.map)?;
        Some(format!("{prefix}{relative}"))
    }

    /// Every call below `root`, with its path relative to the field (first occurrence wins
    /// when aliases share a node). Iterative: fields may nest deeply.
    fn walk(&self, root: NodeId) -> HashMap<NodeId, String> {
        let doc = self.cx.doc;
        let mut out = HashMap::new();
        let mut seen = HashSet::new();
        let mut stack = vec![(root, String::new())];
        while let Some((node, path)) = stack.pop() {
            let node = doc.resolve(node);
            if !seen.insert(node) {
                continue;
            }
            match &doc.node(node).kind {
                NodeKind::Mapping { .. } => {
                    if let Some(call) = self.cx.semantic.call_at(node) {
                        let name = doc.str_value(call.key).unwrap_or_default();
                        let inner = format!("{path}.{name}");
                        out.entry(node).or_insert(path);
                        if is_value_if(call) {
                            // The branches are parsed in place of the `if`: no index.
                            for &branch in doc
                                .items(call.args)
                                .unwrap_or_default()
                                .iter()
                                .skip(1)
                                .rev()
                            {
                                stack.push((branch, inner.clone()));
                            }
                        } else {
                            stack.push((call.args, inner));
                        }
                    } else {
                        for entry in doc.entries(node).into_iter().rev() {
                            stack.push((
                                entry.value,
                                format!("{path}.{}", key_name(doc, entry.key)),
                            ));
                        }
                    }
                }
                NodeKind::Sequence { items, .. } => {
                    for (i, &item) in items.iter().enumerate().rev() {
                        stack.push((item, format!("{path}[{i}]")));
                    }
                }
                NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
            }
        }
        out
    }

    /// Heat's text for a `get_resource`/`get_attr`/`depends_on` naming a resource that does not
    /// exist or is disabled by its condition, as precise as Heat's paths can be reproduced.
    pub(super) fn missing_resource_error(&mut self, reference: &Reference) -> String {
        let name = &reference.name;
        let unknown = format!("The specified reference \"{name}\" (in unknown) is incorrect.");
        let owner = owner_name(self.cx, reference.owner).to_owned();
        match (reference.kind, reference.owner, reference.field) {
            (RefKind::DependsOn, _, _) => {
                format!("The specified reference \"{name}\" (in {owner}) is incorrect.")
            }
            (_, Owner::Resource(_), field @ ("properties" | "metadata")) => {
                let section = if field == "properties" {
                    "Properties"
                } else {
                    "Metadata"
                };
                let prefix = format!("{owner}.{section}");
                let path = call_of(self.cx, reference)
                    .and_then(|call| self.path(reference.owner, reference.field, call, &prefix));
                match path {
                    Some(path) => {
                        format!("The specified reference \"{name}\" (in {path}) is incorrect.")
                    }
                    None => unknown,
                }
            }
            (RefKind::Attribute, Owner::Output(_), "value") => {
                let definition = owner_definition(self.cx.template, reference.owner);
                let direct = call_of(self.cx, reference).is_some_and(|call| {
                    self.cx
                        .template
                        .field(definition, "value")
                        .is_some_and(|value| self.cx.doc.resolve(value) == call.map)
                });
                if direct {
                    format!("outputs.{owner}.value.get_attr: {unknown}")
                } else {
                    unknown
                }
            }
            _ => unknown,
        }
    }

    /// The path Heat's parser prints for an error in the arguments of `call`, e.g.
    /// `resources.r.properties.value[0].if`.
    pub(super) fn parse_path(&mut self, call: &Call) -> Option<String> {
        let section = match call.owner {
            Owner::Resource(_) => "resources",
            Owner::Output(_) => "outputs",
            Owner::Condition(_) => return None,
        };
        let prefix = format!(
            "{section}.{}.{}",
            owner_name(self.cx, call.owner),
            call.field
        );
        let path = self.path(call.owner, call.field, call, &prefix)?;
        let name = self.cx.doc.str_value(call.key)?;
        Some(format!("{path}.{name}"))
    }
}

/// An `if` in a value context: its first argument is a condition, the others are branches.
pub(super) fn is_value_if(call: &Call) -> bool {
    call.status.function() == Function::If && call.context == CallContext::Value
}

/// The boolean a condition is written as, if it is a literal or names a condition defined as
/// one.
pub(super) fn literal_condition(cx: &Context<'_>, node: NodeId) -> Option<bool> {
    let doc = cx.doc;
    let node = match doc.str_value(node) {
        Some(name) => cx.template.condition(name)?.value,
        None => node,
    };
    match doc.scalar(node)?.value {
        ScalarValue::Bool(b) => Some(b),
        _ => None,
    }
}

/// Advice followed by Heat's text: `did you mean `x`? Heat: …`, `define it; Heat: …`.
pub(super) fn with_heat(advice: &str, heat: &str) -> String {
    if advice.ends_with('?') {
        format!("{advice} {heat}")
    } else {
        format!("{advice}; {heat}")
    }
}

/// Definitions by name, for lookups that stay fast in templates with many resources.
pub(super) fn by_name(definitions: &[Named]) -> HashMap<&str, &Named> {
    let mut map = HashMap::with_capacity(definitions.len());
    for definition in definitions {
        map.entry(definition.name.as_str()).or_insert(definition);
    }
    map
}

/// Which conditions Heat ever resolves, by index into the template's conditions: those named by
/// a resource's or output's `condition`, by an `if`, or by a condition that is itself resolved.
/// Heat resolves a condition only when something asks for it, so a mistake inside one that
/// nothing uses does not stop the stack (Heat 27.0.1 accepts `conditions: {c: {not: nope}}`
/// and `{c: {equals: [{get_param: nope}, x]}}` when nothing uses `c`).
pub(crate) fn used_conditions(cx: &Context<'_>) -> Vec<bool> {
    let count = cx.template.conditions.len();
    let index: HashMap<&str, usize> = cx
        .template
        .conditions
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    let mut used = vec![false; count];
    let mut named_by: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut work = Vec::new();
    for reference in cx.semantic.references(RefKind::Condition) {
        let Some(&target) = index.get(reference.name.as_str()) else {
            continue;
        };
        match reference.owner {
            Owner::Condition(from) if from < count => named_by[from].push(target),
            Owner::Condition(_) => {}
            _ => work.push(target),
        }
    }
    while let Some(i) = work.pop() {
        if std::mem::replace(&mut used[i], true) {
            continue;
        }
        work.extend(named_by[i].iter().copied());
    }
    used
}

/// Whether a reference is in an output's value, which Heat resolves only when the output is
/// shown: `template validate` and stack create accept the template (Heat 27.0.1's stack
/// create, run by the oracle's `stack.py --strict`).
pub(crate) fn in_output_value(reference: &hotfix_hot::Reference) -> bool {
    matches!(reference.owner, hotfix_hot::Owner::Output(_)) && reference.field == "value"
}
