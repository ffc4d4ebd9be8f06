//! A resource's property values checked as Heat checks them before it creates the resource
//! (`Properties.validate` with values, `heat/engine/properties.py`): every key a property (or a
//! key of a nested map schema), every required one given, every literal converted to the
//! property's type as Heat converts it, and the converted value within the constraints,
//! recursively into the nested schemas of lists and maps.
//!
//! A value that is a call is checked like a literal when it evaluates from literals and
//! parameter defaults alone (`hotfix_eval::fold_with_defaults`: `list_join` of literals,
//! `str_replace` of a `get_param` whose parameter has a default, …), with the message naming the
//! function and the parameters whose defaults it used; its items and known keys are followed
//! into the nested schemas (their unknown or missing keys are not reported). What Heat cannot
//! know before it resolves a function is left alone: a call that needs a resource, a file, a condition or a parameter
//! without a default, a value from defaults in a resource with a `condition`, and the length or
//! allowed values of a list or map with a call among its items. The literal parts around a call are checked. Heat skips the value checks
//! of a property that depends on a resource not created yet when it validates a template, but
//! runs them all again just before it creates the resource, so a literal that breaks them fails
//! the stack either way. Properties that a translation rule drops or moves are not checked
//! (their value is checked where Heat moves it), and a required property that a translation rule
//! fills from another one counts as given.

use std::collections::BTreeMap;
use std::fmt::Display;

use hotfix_hot::key_name;
use hotfix_hot::resource_types::{Constraint, PropertyType, RuleKind, Schema, TranslationRule};
use hotfix_yaml::{NodeId, NodeKind};
use serde_json::Value as Json;

use crate::rule::Context;
use crate::rules::parameters::regex::{self, Compiled};
use crate::rules::py::{self, Num, Parsed, Value};
use crate::rules::resources::shared::{
    Registered, call_at, property_arrives_later, validated_resources,
};

/// How deep nested schemas are followed (Heat's deepest is four).
const MAX_DEPTH: usize = 16;

/// Characters of a value shown in a message.
const MAX_SHOWN: usize = 60;

/// What is wrong with a property value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A key of a nested map that its schema does not have (the top-level keys are
    /// `unknown-property`'s own).
    UnknownKey,
    /// A required property (or nested key) not given.
    Missing,
    /// A literal that Heat cannot convert to the property's type.
    Type,
    /// A converted literal outside the property's constraints.
    Constraint,
    /// A property (or a list's items) that Heat declares but refuses any value for.
    NotImplemented,
}

/// One problem, ready to report.
#[derive(Debug)]
pub(crate) struct Problem {
    pub(super) kind: Kind,
    pub(super) node: NodeId,
    pub(super) message: String,
    pub(super) help: String,
}

/// The problems of every registered resource's properties, found once per template.
pub(super) fn all(cx: &Context<'_>) -> std::rc::Rc<Vec<Problem>> {
    cx.once(|| {
        // Built when a value is a call, once for the template.
        let folder = std::cell::OnceCell::new();
        validated_resources(cx)
            .flat_map(|registered| problems(cx, &registered, &folder))
            .collect()
    })
}

/// The problems of one resource's properties, in document order within each mapping.
fn problems<'c>(
    cx: &Context<'c>,
    registered: &Registered<'_>,
    folder: &std::cell::OnceCell<Option<hotfix_eval::Folder<'c>>>,
) -> Vec<Problem> {
    let schema = registered.schema;
    let resource = registered.resource;
    let label = registered.label();
    let conditional = cx.doc.get(resource.value, "condition").is_some();
    // Heat checks `update_policy` of every type, `OS::Heat::None` and the placeholders too.
    let mut out = update_policy(cx, registered, folder, &label, conditional);
    if schema.none_resource {
        return out;
    }
    let mut walk = Walk {
        cx,
        folder,
        type_name: &label,
        phase: Phase::Create,
        conditional,
        rules: &schema.translation,
        // A property written beside `type` is `unknown-resource-key`'s (which says to move it).
        misplaced: cx
            .doc
            .entries(resource.value)
            .iter()
            .filter_map(|e| cx.doc.str_value(e.key))
            .filter(|k| {
                schema.properties.contains_key(*k)
                    && cx.version().is_some_and(|v| !v.resource_keys().contains(k))
            })
            .map(str::to_owned)
            .collect(),
        out: Vec::new(),
    };
    let path = format!("resources.{}.properties", resource.name);
    let doc = cx.doc;
    match cx.template.field(resource, "properties") {
        None => walk.missing_in(
            &schema.properties,
            &[],
            &path,
            registered.type_node,
            None,
            &[],
        ),
        Some(properties) => {
            let resolved = doc.resolve(properties);
            if call_at(cx, properties).is_some() {
                out.append(&mut walk.out);
                return out;
            }
            let at = doc
                .get_key(resource.value, "properties")
                .unwrap_or(registered.type_node);
            match &doc.node(resolved).kind {
                NodeKind::Mapping { .. } => {
                    walk.map(
                        &schema.properties,
                        resolved,
                        &mut Vec::new(),
                        &path,
                        at,
                        true,
                    );
                }
                NodeKind::Scalar(_) if matches!(py::load(doc, resolved), Some(Value::None)) => {
                    walk.missing_in(&schema.properties, &[], &path, at, None, &[]);
                }
                // Anything else is `invalid-resource-field-type`'s.
                _ => {}
            }
        }
    }
    out.append(&mut walk.out);
    out
}

/// The problems of a resource's literal `update_policy` mapping, which Heat checks against
/// the type's `update_policy_schema` (empty for most types) with values when it validates the
/// template (`Resource.validate_template`): every key one the type has, each value converted to
/// its type and within its constraints, into the nested maps.
fn update_policy<'c>(
    cx: &Context<'c>,
    registered: &Registered<'_>,
    folder: &std::cell::OnceCell<Option<hotfix_eval::Folder<'c>>>,
    label: &str,
    conditional: bool,
) -> Vec<Problem> {
    let doc = cx.doc;
    let resource = registered.resource;
    let Some(policy) = cx.template.field(resource, "update_policy") else {
        return Vec::new();
    };
    // A call is `field-from-function`'s; anything but a mapping `invalid-resource-field-type`'s.
    if call_at(cx, policy).is_some() || !cx.template.is_mapping(policy) {
        return Vec::new();
    }
    let policy = doc.resolve(policy);
    let schema = &registered.schema.update_policy;
    let path = format!("resources.{}.update_policy", resource.name);
    let mut walk = Walk {
        cx,
        folder,
        type_name: label,
        phase: Phase::Validate,
        conditional,
        rules: &[],
        misplaced: Vec::new(),
        out: Vec::new(),
    };
    for entry in doc.entries(policy) {
        let key = hotfix_hot::key_text(doc, entry.key);
        if doc.str_value(entry.key).is_some() && schema.contains_key(key.as_ref()) {
            continue;
        }
        let heat = format!(
            "Heat refuses the template when it validates it: `Property error: {path}: Unknown \
             Property {key}`"
        );
        let keys = schema
            .iter()
            .filter(|(_, s)| s.support_status.status != hotfix_hot::resource_types::Status::Hidden)
            .map(|(name, _)| name.as_str());
        let (message, help) = if schema.is_empty() {
            // A group whose rolling updates are a property (`OS::Heat::AutoScalingGroup`'s
            // `rolling_updates`): say where the setting goes.
            let property = registered
                .schema
                .properties
                .iter()
                .filter(|(_, p)| {
                    p.support_status.status != hotfix_hot::resource_types::Status::Hidden
                })
                .map(|(name, _)| name.as_str());
            let help = match crate::rules::util::did_you_mean(&key, property) {
                Some(p) => format!("did you mean its property `{p}`? {heat}"),
                None => format!("remove `update_policy`; {heat}"),
            };
            (
                format!("`{key}` is not an update policy of {label}, which has none"),
                help,
            )
        } else {
            let help = crate::rules::util::did_you_mean(&key, keys).map_or_else(
                || {
                    let keys: Vec<String> = schema.keys().map(|k| format!("`{k}`")).collect();
                    format!("its update policies are {}; {heat}", keys.join(", "))
                },
                |suggestion| format!("did you mean `{suggestion}`? {heat}"),
            );
            (format!("`{key}` is not an update policy of {label}"), help)
        };
        walk.out.push(Problem {
            kind: Kind::UnknownKey,
            node: entry.key,
            message,
            help,
        });
    }
    let at = doc
        .get_key(resource.value, "update_policy")
        .unwrap_or(policy);
    walk.map(schema, policy, &mut Vec::new(), &path, at, true);
    walk.out
}

/// When Heat checks the values: properties' just before it creates the resource (their keys,
/// when it validates the template), `update_policy` when it validates the template.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Create,
    Validate,
}

impl Phase {
    /// "creates the stack", "validates the template".
    fn when(self) -> &'static str {
        match self {
            Phase::Create => "creates the stack",
            Phase::Validate => "validates the template",
        }
    }
}

struct Walk<'a, 'c> {
    cx: &'a Context<'c>,
    /// What evaluates computed values, built at the first.
    folder: &'a std::cell::OnceCell<Option<hotfix_eval::Folder<'c>>>,
    type_name: &'a str,
    /// When Heat checks what this walk checks (for the messages).
    phase: Phase,
    /// Whether the resource has a `condition`: with the parameters' defaults it may not be
    /// created at all, so a value computed from defaults is not checked.
    conditional: bool,
    rules: &'static [TranslationRule],
    misplaced: Vec<String>,
    out: Vec<Problem>,
}

/// What Heat's conversion of a value gives.
enum Converted {
    Value(Value),
    /// Heat's error text.
    Error(String),
    /// Not modelled here (a huge integer, `bytes`, Unicode digits): say nothing.
    Unknown,
}

impl Walk<'_, '_> {
    /// "Heat refuses the stack when it creates it", or the template when it validates it.
    fn refuses(&self) -> &'static str {
        match self.phase {
            Phase::Create => "Heat refuses the stack when it creates it",
            Phase::Validate => "Heat refuses the template when it validates it",
        }
    }

    /// Whether `get-param-type-mismatch` reports a value a bare `get_param` gives (a
    /// property's, not an update policy's).
    fn bare_param_rule(&self, origin: &Origin) -> bool {
        origin.function == "get_param" && self.phase == Phase::Create
    }

    /// "Heat refuses the value when it creates the stack" (or validates the template).
    fn refuses_value(&self) -> String {
        format!("Heat refuses the value when it {}", self.phase.when())
    }

    /// The required keys of a map schema that are not given (nor filled by a translation rule).
    fn missing_in(
        &mut self,
        schema: &BTreeMap<String, Schema>,
        names: &[String],
        path: &dyn Display,
        at: NodeId,
        parent: Option<&str>,
        present: &[String],
    ) {
        for (name, property) in schema {
            if !property.required
                || !property.implemented
                || present.iter().any(|p| p == name)
                || (parent.is_none() && self.misplaced.iter().any(|m| m == name))
                || self.moved_away(names, name)
                || self.filled(names, name, present)
            {
                continue;
            }
            let message = match parent {
                None => format!("{} needs the property `{name}`", self.type_name),
                Some(parent) => format!("`{parent}` needs the key `{name}`"),
            };
            self.out.push(Problem {
                kind: Kind::Missing,
                node: at,
                message,
                help: format!(
                    "{}: `Property error: {path}: Property {name} not assigned`",
                    self.refuses()
                ),
            });
        }
    }

    /// Whether a translation rule drops the key `name` of the map at `names`, or moves its
    /// value into another property: Heat does not check it there.
    fn moved_away(&self, names: &[String], name: &str) -> bool {
        self.rules.iter().any(|rule| {
            let here = |path: &[String]| {
                path.len() == names.len() + 1
                    && path[..names.len()] == *names
                    && path[names.len()] == name
            };
            match rule.rule {
                RuleKind::Delete => here(&rule.path),
                RuleKind::Replace => {
                    rule.value_path.as_deref().is_some_and(here)
                        || (rule.value_name.as_deref() == Some(name)
                            && rule.path.len() == names.len() + 1
                            && rule.path[..names.len()] == *names)
                }
                RuleKind::Add => false,
            }
        })
    }

    /// A top-level property that a translation rule reads to move it into another (`network_id`
    /// into `network`, `sequence` into `character_classes`): Heat converts the value to the
    /// property's own type when it translates, as it validates the template, and refuses what
    /// it cannot convert (`Value must be a string; got 1.5`, with more or less of the path
    /// before it).
    fn translated_type(&mut self, schema: &Schema, node: NodeId, name: &str) {
        let reads = |value: &Json| reads_property(value, name);
        let Some(target) = self.rules.iter().find_map(|rule| {
            let read = match rule.rule {
                RuleKind::Replace => rule.value_path.as_deref() == Some(&[name.to_owned()][..]),
                RuleKind::Add => rule.value.as_ref().is_some_and(reads),
                RuleKind::Delete => false,
            };
            (read && rule.path.len() == 1).then(|| rule.path[0].clone())
        }) else {
            return;
        };
        let doc = self.cx.doc;
        if self.holds_call(node, 0) {
            return;
        }
        let node = doc.resolve(node);
        let Some(value) = py::load(doc, node).filter(|v| !matches!(v, Value::None)) else {
            return;
        };
        if let Converted::Error(heat) = convert(schema, &value) {
            self.out.push(Problem {
                kind: Kind::Type,
                node,
                message: format!(
                    "`{name}` takes {}, and Heat cannot convert `{}` to one",
                    a_kind(schema.kind),
                    shown(self.cx, node)
                ),
                help: format!(
                    "Heat refuses the template when it validates it, as it moves `{name}` into \
                     `{target}`: `{heat}`"
                ),
            });
        }
    }

    /// The sibling that a translation rule moves the key `name` of the map at `names` into
    /// (`value_name`), with its schema, when the sibling is not given too.
    fn moved_into(
        &self,
        schema: &'static BTreeMap<String, Schema>,
        names: &[String],
        name: &str,
    ) -> Option<(String, &'static Schema)> {
        if names.is_empty() {
            return None;
        }
        self.rules.iter().find_map(|rule| {
            let target = rule.path.last()?;
            (rule.rule == RuleKind::Replace
                && rule.value_name.as_deref() == Some(name)
                && rule.custom_value_path.is_none()
                && rule.path.len() == names.len() + 1
                && rule.path[..names.len()] == *names)
                .then_some(())?;
            Some((target.clone(), schema.get(target)?))
        })
    }

    /// Whether a translation rule fills the key `name` of the map at `names` from a value that
    /// is given (or may be).
    fn filled(&self, names: &[String], name: &str, present: &[String]) -> bool {
        self.rules.iter().any(|rule| {
            let targets = rule.path.len() == names.len() + 1
                && rule.path[..names.len()] == *names
                && rule.path[names.len()] == name;
            if !targets || rule.rule == RuleKind::Delete {
                return false;
            }
            if let Some(sibling) = &rule.value_name {
                return present.iter().any(|p| p == sibling);
            }
            match &rule.value_path {
                Some(source)
                    if source.len() == names.len() + 1 && source[..names.len()] == *names =>
                {
                    present.iter().any(|p| *p == source[names.len()])
                }
                // A value from elsewhere, or a fixed one: assume it is given.
                _ => true,
            }
        })
    }

    /// A literal mapping checked against a map schema: its keys, the required ones, each value.
    fn map(
        &mut self,
        schema: &'static BTreeMap<String, Schema>,
        node: NodeId,
        names: &mut Vec<String>,
        path: &dyn Display,
        at: NodeId,
        top: bool,
    ) {
        if names.len() > MAX_DEPTH {
            return;
        }
        let doc = self.cx.doc;
        let entries = doc.entries(node);
        let mut present = Vec::with_capacity(entries.len());
        for entry in &entries {
            let key = hotfix_hot::key_text(doc, entry.key);
            let known = doc.str_value(entry.key).is_some() && schema.contains_key(key.as_ref());
            if !known {
                if !top {
                    self.unknown_key(schema, entry.key, &key, names, path);
                }
                continue;
            }
            present.push(key.into_owned());
        }
        for entry in entries {
            let key = hotfix_hot::key_text(doc, entry.key);
            let Some(property) = schema
                .get(key.as_ref())
                .filter(|_| doc.str_value(entry.key).is_some())
            else {
                continue;
            };
            if !property.implemented {
                self.out.push(Problem {
                    kind: Kind::NotImplemented,
                    node: entry.key,
                    message: format!(
                        "Heat declares `{key}` in {} but does not implement it",
                        self.type_name
                    ),
                    help: format!(
                        "remove it; Heat refuses any value: `Property error: {path}: Property {key} \
                         not implemented yet`"
                    ),
                });
            }
            // A key whose value a translation rule moves into a sibling (`uuid` into `network`)
            // is checked as that sibling, where Heat checks it.
            let (checked_as, property) = match self.moved_into(schema, names, &key) {
                Some(target) => target,
                None if self.moved_away(names, &key) => {
                    if names.is_empty() {
                        self.translated_type(property, entry.value, &key);
                    }
                    continue;
                }
                None => (key.clone().into_owned(), property),
            };
            names.push(checked_as.clone());
            self.value(
                property,
                entry.value,
                entry.key,
                names,
                &Child::Key(path, &checked_as),
            );
            names.pop();
        }
        let parent = (!top).then(|| names.last().map_or("", String::as_str));
        self.missing_in(schema, names, path, at, parent, &present);
    }

    fn unknown_key(
        &mut self,
        schema: &BTreeMap<String, Schema>,
        key_node: NodeId,
        key: &str,
        names: &[String],
        path: &dyn Display,
    ) {
        let mut arriving: Vec<&str> = names.iter().map(String::as_str).collect();
        arriving.push(key);
        if self.phase == Phase::Create && property_arrives_later(self.cx, self.type_name, &arriving)
        {
            // `unavailable-in-release` reports it, with the release it arrived in.
            return;
        }
        let parent = names.last().map_or("", String::as_str);
        let shown = schema
            .iter()
            .filter(|(_, s)| s.support_status.status != hotfix_hot::resource_types::Status::Hidden)
            .map(|(name, _)| name.as_str());
        let heat = format!(
            "{}: `Property error: {path}: Unknown Property {key}`",
            self.refuses()
        );
        let help = if let Some(suggestion) = crate::rules::util::did_you_mean(key, shown) {
            format!("did you mean `{suggestion}`? {heat}")
        } else {
            let keys: Vec<String> = schema.keys().map(|k| format!("`{k}`")).collect();
            format!("its keys are {}; {heat}", keys.join(", "))
        };
        self.out.push(Problem {
            kind: Kind::UnknownKey,
            node: key_node,
            message: format!("`{key}` is not a key of `{parent}` in {}", self.type_name),
            help,
        });
    }

    /// One value checked against its schema.
    /// One value checked against its schema; `at` is where a missing nested key is reported
    /// (the value's key, or the list item).
    fn value(
        &mut self,
        schema: &'static Schema,
        node: NodeId,
        at: NodeId,
        names: &mut Vec<String>,
        path: &dyn Display,
    ) {
        let cx = self.cx;
        let doc = cx.doc;
        if let Some(call) = call_at(cx, node) {
            self.computed(schema, node, call.key, names, path);
            return;
        }
        let node = doc.resolve(node);
        match &doc.node(node).kind {
            NodeKind::Scalar(_) => {
                let Some(value) = py::load(doc, node) else {
                    return;
                };
                let value = match value {
                    // A null map is its default, or an empty map: its required keys are missing.
                    Value::None if schema.kind == PropertyType::Map && schema.default.is_none() => {
                        self.missing_in(
                            &schema.schema,
                            names,
                            path,
                            at,
                            names.last().map(String::as_str),
                            &[],
                        );
                        return;
                    }
                    Value::None => match null_value(schema) {
                        Some(v) => v,
                        None => return,
                    },
                    other => other,
                };
                match convert(schema, &value) {
                    Converted::Value(converted) => {
                        self.constraints(schema, node, &converted, names, path);
                    }
                    Converted::Error(heat) => self.wrong_type(schema, node, names, path, &heat),
                    Converted::Unknown => {}
                }
            }
            NodeKind::Sequence { items, .. } => match schema.kind {
                PropertyType::List => self.list(schema, node, items, names, path),
                PropertyType::Any => {}
                PropertyType::Map if schema.allow_conversion => {}
                _ => self.collection_type(schema, node, names, path),
            },
            NodeKind::Mapping { .. } => match schema.kind {
                PropertyType::Map => {
                    if !schema.schema.is_empty() {
                        self.map(&schema.schema, node, names, path, at, false);
                    }
                    self.collection_constraints(schema, node, names, path);
                }
                PropertyType::Any => {}
                _ => self.collection_type(schema, node, names, path),
            },
            NodeKind::Alias { .. } => {}
        }
    }

    /// A value given by a function that evaluates from literals and parameter defaults
    /// ([`hotfix_eval::Folder::fold_with_defaults`]), checked like a literal: its type, the
    /// items of a list and the known keys of a map against their schemas, and the constraints
    /// of the converted value (a list's after converting its items).
    fn computed(
        &mut self,
        schema: &Schema,
        node: NodeId,
        function: NodeId,
        names: &[String],
        path: &dyn Display,
    ) {
        let cx = self.cx;
        let evaluator = self.folder.get_or_init(|| {
            cx.version()
                .map(|v| hotfix_eval::Folder::with_template(cx.template, v))
        });
        let Some(folded) = evaluator.as_ref().and_then(|f| f.fold_with_defaults(node)) else {
            return;
        };
        if self.conditional && !folded.defaults.is_empty() {
            return;
        }
        if holds_ellipsis(&folded.value) {
            return;
        }
        let value = folded.value;
        if matches!(value, Value::None | Value::BigInt(_)) {
            return;
        }
        let origin = Origin {
            function: key_name(cx.doc, function),
            defaults: folded.defaults,
        };
        let property = names.last().map_or("", String::as_str);
        // Nested map keys that a translation rule moves are checked where Heat moves them:
        // not followed in a computed value.
        let translated = self
            .rules
            .iter()
            .any(|rule| rule.path.len() > names.len() && rule.path[..names.len()] == *names);
        let at = Computed {
            node,
            origin: &origin,
            follow_maps: !translated,
        };
        self.computed_value(schema, &value, property, path, &at, 0);
    }

    /// A computed value (or a part of it, at `depth`) checked against its schema: its type,
    /// then recursively the items of a list and the known keys of a map, then its constraints.
    /// `label` names it in messages (`users`, `users[0]`, `name`), `path` in Heat's text.
    fn computed_value(
        &mut self,
        schema: &Schema,
        value: &Value,
        label: &str,
        path: &dyn Display,
        at: &Computed<'_>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH || matches!(value, Value::None | Value::BigInt(_)) {
            return;
        }
        let origin = at.origin;
        let whose = if depth == 0 {
            format!(", {},", origin.what())
        } else {
            format!(" in the value of {}", origin.what())
        };
        let converted = match convert(schema, value) {
            Converted::Value(converted) => converted,
            // A default that a bare `get_param` gives a property unconverted is
            // `get-param-type-mismatch`'s (which does not look at `update_policy`).
            Converted::Error(_) if depth == 0 && self.bare_param_rule(origin) => return,
            Converted::Error(heat) => {
                self.out.push(Problem {
                    kind: Kind::Type,
                    node: at.node,
                    message: format!(
                        "`{label}` takes {}, and Heat cannot convert `{}`{whose} to one",
                        a_kind(schema.kind),
                        clip(&value.py_str()),
                    ),
                    help: format!(
                        "{}{}: `Property error: {path}: {heat}`",
                        self.refuses(),
                        origin.unless()
                    ),
                });
                return;
            }
            Converted::Unknown => return,
        };
        let converted = match (&converted, &schema.items) {
            (Value::List(items), Some(item_schema)) => {
                let mut out = Vec::with_capacity(items.len());
                let mut all = true;
                for (i, item) in items.iter().enumerate() {
                    self.computed_value(
                        item_schema,
                        item,
                        &format!("{label}[{i}]"),
                        &Child::Index(path, i),
                        at,
                        depth + 1,
                    );
                    let item = match item {
                        Value::None => null_value(item_schema),
                        other => Some(other.clone()),
                    };
                    match item.map(|item| convert(item_schema, &item)) {
                        Some(Converted::Value(v)) => out.push(v),
                        _ => all = false,
                    }
                }
                // The list's own constraints see the converted items.
                if !all {
                    return;
                }
                Value::List(out)
            }
            (Value::Map(entries), None) if at.follow_maps && !schema.schema.is_empty() => {
                for (key, item) in entries {
                    let Value::Str(key) = key else {
                        continue;
                    };
                    // An unknown key is `unknown-property`'s; a null is the key's default.
                    let Some(key_schema) = schema.schema.get(key) else {
                        continue;
                    };
                    self.computed_value(
                        key_schema,
                        item,
                        key,
                        &Child::Key(path, key),
                        at,
                        depth + 1,
                    );
                }
                converted
            }
            _ => converted,
        };
        for constraint in &schema.constraints {
            let Some((message, help)) = violation(schema, constraint, &converted, label) else {
                continue;
            };
            let whose = if depth == 0 {
                format!(": the value of {}", origin.what())
            } else {
                format!(", in the value of {}", origin.what())
            };
            self.out.push(Problem {
                kind: Kind::Constraint,
                node: at.node,
                message: format!("{message}{whose}"),
                help: format!(
                    "{help}; {}{} (`Property error: {path}: …`)",
                    self.refuses_value(),
                    origin.unless()
                ),
            });
        }
    }

    fn list(
        &mut self,
        schema: &'static Schema,
        node: NodeId,
        items: &[NodeId],
        names: &mut Vec<String>,
        path: &dyn Display,
    ) {
        if let Some(item_schema) = &schema.items {
            if !item_schema.implemented
                && let Some(&first) = items.first()
            {
                let property = names.last().map_or("", String::as_str);
                self.out.push(Problem {
                    kind: Kind::NotImplemented,
                    node: first,
                    message: format!(
                        "Heat declares the items of `{property}` in {} but does not implement \
                         them",
                        self.type_name
                    ),
                    help: format!(
                        "leave the list empty or remove it; Heat refuses any item: `Property \
                         error: {path}: Property 0 not implemented yet`"
                    ),
                });
            }
            for (i, &item) in items.iter().enumerate() {
                self.value(item_schema, item, item, names, &Child::Index(path, i));
            }
        }
        self.collection_constraints(schema, node, names, path);
    }

    /// A list or map value whose type is not the property's: Heat's error, with the value as
    /// Python prints it when it holds no call.
    fn collection_type(
        &mut self,
        schema: &Schema,
        node: NodeId,
        names: &[String],
        path: &dyn Display,
    ) {
        let doc = self.cx.doc;
        let value = if self.holds_call(node, 0) {
            None
        } else {
            py::load(doc, node)
        };
        let heat = match &value {
            Some(value) => match convert(schema, value) {
                Converted::Error(heat) => Some(heat),
                Converted::Value(_) | Converted::Unknown => return,
            },
            None => None,
        };
        let property = names.last().map_or("", String::as_str);
        let what = if matches!(doc.node(node).kind, NodeKind::Sequence { .. }) {
            "a list"
        } else {
            "a map"
        };
        let message = format!("`{property}` takes {}, not {what}", a_kind(schema.kind));
        let help = match heat {
            Some(heat) => format!("{}: `Property error: {path}: {heat}`", self.refuses()),
            None => format!("Heat refuses {what} here when it {}", self.phase.when()),
        };
        self.out.push(Problem {
            kind: Kind::Type,
            node,
            message,
            help,
        });
    }

    fn wrong_type(
        &mut self,
        schema: &Schema,
        node: NodeId,
        names: &[String],
        path: &dyn Display,
        heat: &str,
    ) {
        let property = names.last().map_or("", String::as_str);
        self.out.push(Problem {
            kind: Kind::Type,
            node,
            message: format!(
                "`{property}` takes {}, and Heat cannot convert `{}` to one",
                a_kind(schema.kind),
                shown(self.cx, node)
            ),
            help: format!("{}: `Property error: {path}: {heat}`", self.refuses()),
        });
    }

    /// Whether a call is anywhere in the value (bounded).
    fn holds_call(&self, node: NodeId, depth: usize) -> bool {
        let cx = self.cx;
        let doc = cx.doc;
        if depth > MAX_DEPTH * 4 || call_at(cx, node).is_some() {
            return true;
        }
        let node = doc.resolve(node);
        match &doc.node(node).kind {
            NodeKind::Sequence { items, .. } => {
                items.iter().any(|&item| self.holds_call(item, depth + 1))
            }
            NodeKind::Mapping { .. } => doc
                .entries(node)
                .iter()
                .any(|e| self.holds_call(e.value, depth + 1)),
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => false,
        }
    }

    /// The length and allowed values of a literal list or map, when no item is a call (an `if`
    /// may drop an item, and a call's value is unknown).
    fn collection_constraints(
        &mut self,
        schema: &'static Schema,
        node: NodeId,
        names: &[String],
        path: &dyn Display,
    ) {
        if schema.constraints.is_empty() || self.holds_call(node, 0) {
            return;
        }
        let Some(value) = py::load(self.cx.doc, node) else {
            return;
        };
        // The items as Heat holds them after converting each to the item schema's type.
        let value = match (&value, &schema.items) {
            (Value::List(items), Some(item_schema)) => {
                let mut converted = Vec::with_capacity(items.len());
                for item in items {
                    let item = match item {
                        Value::None => match null_value(item_schema) {
                            Some(v) => v,
                            None => return,
                        },
                        other => other.clone(),
                    };
                    match convert(item_schema, &item) {
                        Converted::Value(v) => converted.push(v),
                        Converted::Error(_) | Converted::Unknown => return,
                    }
                }
                Value::List(converted)
            }
            _ => value,
        };
        self.constraints(schema, node, &value, names, path);
    }

    fn constraints(
        &mut self,
        schema: &Schema,
        node: NodeId,
        value: &Value,
        names: &[String],
        path: &dyn Display,
    ) {
        let property = names.last().map_or("", String::as_str);
        for constraint in &schema.constraints {
            let Some((message, help)) = violation(schema, constraint, value, property) else {
                continue;
            };
            self.out.push(Problem {
                kind: Kind::Constraint,
                node,
                message,
                help: format!(
                    "{help}; {} (`Property error: {path}: …`)",
                    self.refuses_value()
                ),
            });
        }
    }
}

/// Where a computed value is reported, and what its parts may be checked against.
struct Computed<'o> {
    /// The call.
    node: NodeId,
    origin: &'o Origin,
    /// Whether the keys of a computed map are followed into its nested schema (not where a
    /// translation rule moves some).
    follow_maps: bool,
}

/// Where a computed value comes from, for its messages.
struct Origin {
    /// The function's name (`list_join`).
    function: String,
    /// The parameters whose defaults it used.
    defaults: Vec<String>,
}

impl Origin {
    /// The function, quoted ("this `` `list_join` ``"), and the parameters whose defaults it
    /// used.
    fn what(&self) -> String {
        let function = format!("this `{}`", self.function);
        match self.defaults.as_slice() {
            [] => function,
            [one] => format!("{function} with the default of parameter `{one}`"),
            many => format!(
                "{function} with the defaults of parameters {}",
                many.iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// "unless a value is given for" the parameters whose defaults were used, or nothing.
    fn unless(&self) -> String {
        match self.defaults.as_slice() {
            [] => String::new(),
            names => format!(
                " unless a value is given for {}",
                names
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// Whether a translation rule's value reads the top-level property `name` (`{"property":
/// [name]}` somewhere in it).
fn reads_property(value: &Json, name: &str) -> bool {
    match value {
        Json::Object(map) => {
            map.get("property")
                .and_then(Json::as_array)
                .is_some_and(|path| path.len() == 1 && path[0] == name)
                || map.values().any(|v| reads_property(v, name))
        }
        Json::Array(items) => items.iter().any(|v| reads_property(v, name)),
        _ => false,
    }
}

/// Whether a value `hotfix_eval` computed holds the dropped item of a two-argument `if`,
/// which has no Python value.
fn holds_ellipsis(value: &Value) -> bool {
    match value {
        Value::Ellipsis => true,
        Value::List(items) => items.iter().any(holds_ellipsis),
        Value::Map(entries) => entries
            .iter()
            .any(|(k, v)| holds_ellipsis(k) || holds_ellipsis(v)),
        _ => false,
    }
}

/// The value Heat makes of a written value that is not a call: converted to the property's type,
/// an explicit null to what Heat uses for it. `None` where that is not known, or where Heat
/// refuses the value (another finding).
pub(super) fn converted(cx: &Context<'_>, schema: &Schema, node: NodeId) -> Option<Value> {
    if call_at(cx, node).is_some() {
        return None;
    }
    match py::load(cx.doc, node)? {
        Value::None => null_value(schema),
        value => match convert(schema, &value) {
            Converted::Value(v) => Some(v),
            Converted::Error(_) | Converted::Unknown => None,
        },
    }
}

/// What Heat uses for an explicit null: the default when it is truthy (a map's default even
/// when empty), else the type's empty value. `None` for `any`, which keeps the null.
fn null_value(schema: &Schema) -> Option<Value> {
    let default = schema.default.as_ref().map(Value::from_json);
    match schema.kind {
        PropertyType::String => Some(truthy_or(default, Value::Str(String::new()))),
        PropertyType::Integer | PropertyType::Number => Some(truthy_or(default, Value::Int(0))),
        PropertyType::Boolean => Some(truthy_or(default, Value::Bool(false))),
        PropertyType::List => Some(truthy_or(default, Value::List(Vec::new()))),
        PropertyType::Map => Some(default.unwrap_or(Value::Map(Vec::new()))),
        PropertyType::Any => None,
    }
}

fn truthy_or(default: Option<Value>, empty: Value) -> Value {
    default.filter(Value::truthy).unwrap_or(empty)
}

/// `Property.get_value` for a value that is not a call: the converted value, or Heat's error.
fn convert(schema: &Schema, value: &Value) -> Converted {
    match schema.kind {
        PropertyType::String => match value {
            Value::Str(_) => Converted::Value(value.clone()),
            Value::Bool(_) | Value::Int(_) | Value::BigInt(_) => {
                Converted::Value(Value::Str(value.py_repr()))
            }
            Value::Bytes => Converted::Unknown,
            other => Converted::Error(format!("Value must be a string; got {}", other.py_repr())),
        },
        PropertyType::Integer => match value {
            Value::Int(_) => Converted::Value(value.clone()),
            Value::BigInt(_) if value.as_i128().is_some() => Converted::Value(value.clone()),
            Value::Bool(b) => Converted::Value(Value::Int(i64::from(*b))),
            Value::Float(f) if f.is_nan() => {
                Converted::Error("Value 'nan' is not an integer".to_owned())
            }
            Value::Float(f) if f.is_infinite() => {
                Converted::Error("cannot convert float infinity to integer".to_owned())
            }
            #[allow(
                clippy::cast_possible_truncation,
                reason = "Python's int() truncates a float; one too large is not checked"
            )]
            Value::Float(f) if f.abs() < 1e30 => Converted::Value(Value::int(f.trunc() as i128)),
            Value::Str(s) => match py::str_to_num(s) {
                Parsed::Num(Num::Int(n)) => Converted::Value(Value::int(n)),
                Parsed::Num(Num::Float(_)) | Parsed::Error(_) => {
                    Converted::Error(format!("Value '{s}' is not an integer"))
                }
                Parsed::Unknown => Converted::Unknown,
            },
            Value::List(_) | Value::Map(_) => Converted::Error(not_a_number(value)),
            Value::Float(_) | Value::BigInt(_) | Value::Bytes | Value::None | Value::Ellipsis => {
                Converted::Unknown
            }
        },
        PropertyType::Number => match py::to_num(value) {
            Parsed::Num(Num::Int(n)) => Converted::Value(match value {
                Value::Bool(_) => value.clone(),
                _ => Value::int(n),
            }),
            Parsed::Num(Num::Float(f)) => Converted::Value(Value::Float(f)),
            Parsed::Error(heat) => Converted::Error(heat),
            Parsed::Unknown => Converted::Unknown,
        },
        PropertyType::Boolean => match value {
            Value::Bool(_) => Converted::Value(value.clone()),
            Value::Str(s) => {
                let lower = s.to_lowercase();
                match lower.as_str() {
                    "true" => Converted::Value(Value::Bool(true)),
                    "false" => Converted::Value(Value::Bool(false)),
                    _ => Converted::Error(format!("\"{lower}\" is not a valid boolean")),
                }
            }
            Value::Bytes | Value::None => Converted::Unknown,
            other => Converted::Error(format!("\"{}\" is not a valid boolean", other.py_str())),
        },
        PropertyType::Map => match value {
            Value::Map(_) => Converted::Value(value.clone()),
            Value::Str(_) if schema.allow_conversion => Converted::Value(value.clone()),
            Value::List(_) if schema.allow_conversion => {
                Converted::Value(Value::Str(value.json_dumps(false)))
            }
            Value::Bytes | Value::None => Converted::Unknown,
            other => Converted::Error(format!("\"{}\" is not a map", other.py_str())),
        },
        PropertyType::List => match value {
            Value::List(_) => Converted::Value(value.clone()),
            Value::Str(s) if schema.allow_conversion => Converted::Value(if s.is_empty() {
                Value::List(Vec::new())
            } else {
                Value::List(
                    s.split(',')
                        .map(|part| Value::Str(part.trim().to_owned()))
                        .collect(),
                )
            }),
            Value::Bytes | Value::None => Converted::Unknown,
            other => Converted::Error(format!("\"{}\" is not a list", other.py_repr())),
        },
        PropertyType::Any => Converted::Value(value.clone()),
    }
}

/// The `TypeError` of `int()` on a list or dict.
fn not_a_number(value: &Value) -> String {
    format!(
        "int() argument must be a string, a bytes-like object or a real number, not '{}'",
        value.type_name()
    )
}

/// What Heat makes of a literal given for a property whose items and keys have no schema of
/// their own (a nested template's parameter, `Schema.from_parameter`), as `Property.get_value`
/// with `validate=True` does before it creates the resource.
pub(in crate::rules) enum Literal {
    /// The value, converted to the property's type, within every constraint.
    Accepted(Value),
    /// Heat cannot convert it: Heat's text.
    WrongType(String),
    /// The converted value breaks the constraint at `index` (the first it breaks): this
    /// linter's words for it, and Heat's own text (unless the constraint has a description).
    Breaks {
        value: Value,
        index: usize,
        message: String,
        help: String,
        heat: String,
    },
    /// Not known here (a value or constraint this linter does not model).
    Unknown,
}

/// Checks the literal `value` (not a call, nothing within it a call) against `schema`: an
/// explicit null becomes what Heat uses for it, the value is converted to the property's type
/// as Heat converts it, then checked against each constraint in order. `property` names the
/// property in the messages.
pub(in crate::rules) fn literal(schema: &Schema, value: Value, property: &str) -> Literal {
    let value = match value {
        Value::None => match null_value(schema) {
            Some(v) => v,
            None => return Literal::Unknown,
        },
        other => other,
    };
    let converted = match convert(schema, &value) {
        Converted::Value(v) => v,
        Converted::Error(heat) => return Literal::WrongType(heat),
        Converted::Unknown => return Literal::Unknown,
    };
    for (index, constraint) in schema.constraints.iter().enumerate() {
        let Some((message, help)) = violation(schema, constraint, &converted, property) else {
            continue;
        };
        let Some(heat) = heat_violation(constraint, &converted) else {
            return Literal::Unknown;
        };
        return Literal::Breaks {
            value: converted,
            index,
            message,
            help,
            heat,
        };
    }
    Literal::Accepted(converted)
}

/// Heat's text for a value that breaks `constraint` (the constraint classes' `_err_msg`).
fn heat_violation(constraint: &Constraint, value: &Value) -> Option<String> {
    let bound = |n: &Option<serde_json::Number>| match n {
        None => "None".to_owned(),
        Some(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => n
                .as_f64()
                .map_or_else(|| n.to_string(), hotfix_yaml::python_float_str),
        },
    };
    Some(match constraint {
        Constraint::Range(b) => format!(
            "{} is out of range (min: {}, max: {})",
            value.py_str(),
            bound(&b.min),
            bound(&b.max)
        ),
        Constraint::Length(b) => format!(
            "length ({}) is out of range (min: {}, max: {})",
            py::py_len(value).ok()?,
            bound(&b.min),
            bound(&b.max)
        ),
        Constraint::Modulo(m) => format!(
            "{} is not a multiple of {} with an offset of {}",
            value.py_str(),
            bound(&m.step),
            bound(&m.offset)
        ),
        Constraint::AllowedValues(allowed) => format!(
            "{} is not an allowed value [{}]",
            value.json_dumps(false),
            allowed
                .iter()
                .map(|a| Value::from_json(a).json_dumps(false))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Constraint::AllowedPattern(pattern) => {
            format!(
                "\"{}\" does not match pattern \"{pattern}\"",
                value.py_str()
            )
        }
        Constraint::CustomConstraint(_) => return None,
    })
}

/// The message and help for a converted value that breaks `constraint`, or `None`.
fn violation(
    schema: &Schema,
    constraint: &Constraint,
    value: &Value,
    property: &str,
) -> Option<(String, String)> {
    match constraint {
        Constraint::AllowedValues(allowed) => not_allowed(schema, allowed, value, property),
        Constraint::Range(bounds) => out_of_range(bounds, value, property),
        Constraint::Length(bounds) => bad_length(bounds, value, property),
        Constraint::Modulo(modulo) => off_step(modulo, value, property),
        Constraint::AllowedPattern(pattern) => {
            let Value::Str(text) = value else {
                return None;
            };
            let Compiled::Regex(regex) = regex::compile(pattern) else {
                return None;
            };
            (regex.full_match(text) == Some(false)).then(|| {
                (
                    format!(
                        "`{}` does not match the pattern of `{property}`",
                        clip(text)
                    ),
                    format!("it must match `{pattern}` from start to end"),
                )
            })
        }
        Constraint::CustomConstraint(_) => None,
    }
}

/// `allowed_values`: each item of a list among them, else the value in the schema's type.
fn not_allowed(
    schema: &Schema,
    allowed: &[Json],
    value: &Value,
    property: &str,
) -> Option<(String, String)> {
    let allowed: Vec<Value> = allowed.iter().map(Value::from_json).collect();
    let listed = allowed
        .iter()
        .map(|a| format!("`{}`", a.py_str()))
        .collect::<Vec<_>>()
        .join(", ");
    if let Value::List(items) = value {
        let bad = items
            .iter()
            .find(|item| !allowed.iter().any(|a| a.py_eq(item)))?;
        return Some((
            format!(
                "`{}` is not an allowed value of `{property}`",
                clip(&bad.py_str())
            ),
            format!("its items must be among {listed}"),
        ));
    }
    let wanted = schema_type(schema, value)?;
    let mut any_allowed = false;
    for a in &allowed {
        let a = schema_type(schema, a)?;
        any_allowed |= a.py_eq(&wanted);
    }
    if any_allowed {
        return None;
    }
    let suggestion = match value {
        Value::Str(s) => crate::rules::util::did_you_mean(
            s,
            allowed.iter().filter_map(|a| match a {
                Value::Str(s) => Some(s.as_str()),
                _ => None,
            }),
        )
        .map(|s| format!("did you mean `{s}`? ")),
        _ => None,
    }
    .unwrap_or_default();
    Some((
        format!(
            "`{}` is not an allowed value of `{property}`",
            clip(&value.py_str())
        ),
        format!("{suggestion}allowed: {listed}"),
    ))
}

fn out_of_range(
    bounds: &hotfix_hot::resource_types::Bounds,
    value: &Value,
    property: &str,
) -> Option<(String, String)> {
    let number = match py::to_num(value) {
        Parsed::Num(n) => n,
        Parsed::Error(_) | Parsed::Unknown => return None,
    };
    let below = bounds
        .min
        .as_ref()
        .and_then(json_num)
        .is_some_and(|min| number.cmp_num(min) == Some(std::cmp::Ordering::Less));
    let above = bounds
        .max
        .as_ref()
        .and_then(json_num)
        .is_some_and(|max| number.cmp_num(max) == Some(std::cmp::Ordering::Greater));
    (below || above).then(|| {
        (
            format!(
                "`{}` is out of range for `{property}`",
                clip(&value.py_str())
            ),
            format!("it must be {}", bounds_text(bounds, "")),
        )
    })
}

fn bad_length(
    bounds: &hotfix_hot::resource_types::Bounds,
    value: &Value,
    property: &str,
) -> Option<(String, String)> {
    let length = py::py_len(value).ok()?;
    let n = Num::Int(i128::try_from(length).ok()?);
    let below = bounds
        .min
        .as_ref()
        .and_then(json_num)
        .is_some_and(|min| n.cmp_num(min) == Some(std::cmp::Ordering::Less));
    let above = bounds
        .max
        .as_ref()
        .and_then(json_num)
        .is_some_and(|max| n.cmp_num(max) == Some(std::cmp::Ordering::Greater));
    let unit = match value {
        Value::Str(_) => " characters",
        _ => " items",
    };
    (below || above).then(|| {
        (
            format!("`{property}` has {length}{unit}, out of its length range"),
            format!("its length must be {}", bounds_text(bounds, unit)),
        )
    })
}

fn off_step(
    modulo: &hotfix_hot::resource_types::Modulo,
    value: &Value,
    property: &str,
) -> Option<(String, String)> {
    let number = match py::to_num(value) {
        Parsed::Num(n) => n,
        Parsed::Error(_) | Parsed::Unknown => return None,
    };
    let step = modulo.step.as_ref().and_then(json_num)?;
    let offset = modulo.offset.as_ref().and_then(json_num)?;
    let rest = number.modulo(step)?;
    (rest.cmp_num(offset)? != std::cmp::Ordering::Equal).then(|| {
        (
            format!(
                "`{}` is not a valid value of `{property}`",
                clip(&value.py_str())
            ),
            format!(
                "it must be a multiple of {} plus {}",
                modulo
                    .step
                    .as_ref()
                    .map_or(String::new(), ToString::to_string),
                modulo
                    .offset
                    .as_ref()
                    .map_or(String::new(), ToString::to_string),
            ),
        )
    })
}

/// `Schema.to_schema_type`: how `allowed_values` compares a scalar. `None` when Heat would
/// fail there or it is not modelled.
fn schema_type(schema: &Schema, value: &Value) -> Option<Value> {
    match schema.kind {
        PropertyType::Integer => match py::to_num(value) {
            Parsed::Num(Num::Int(n)) => Some(Value::int(n)),
            _ => None,
        },
        PropertyType::Number => match py::to_num(value) {
            Parsed::Num(Num::Int(n)) => Some(Value::int(n)),
            Parsed::Num(Num::Float(f)) => Some(Value::Float(f)),
            _ => None,
        },
        PropertyType::String => match value {
            Value::Bytes => None,
            other => Some(Value::Str(other.py_str())),
        },
        PropertyType::Boolean => py::bool_from_string(&Value::Str(value.py_str()))
            .ok()
            .map(Value::Bool),
        PropertyType::Map | PropertyType::List | PropertyType::Any => Some(value.clone()),
    }
}

fn json_num(n: &serde_json::Number) -> Option<Num> {
    match n.as_i64() {
        Some(i) => Some(Num::Int(i128::from(i))),
        None => n.as_f64().map(Num::Float),
    }
}

/// `at least 1`, `at most 255`, `from 1 to 255`, with a unit.
fn bounds_text(bounds: &hotfix_hot::resource_types::Bounds, unit: &str) -> String {
    match (&bounds.min, &bounds.max) {
        (Some(min), Some(max)) => format!("from {min} to {max}{unit}"),
        (Some(min), None) => format!("at least {min}{unit}"),
        (None, Some(max)) => format!("at most {max}{unit}"),
        (None, None) => "anything".to_owned(),
    }
}

/// `a string`, `an integer`, …
fn a_kind(kind: PropertyType) -> &'static str {
    match kind {
        PropertyType::String => "a string",
        PropertyType::Integer => "an integer",
        PropertyType::Number => "a number",
        PropertyType::Boolean => "a boolean",
        PropertyType::Map => "a map",
        PropertyType::List => "a list",
        PropertyType::Any => "any value",
    }
}

/// The source text of a scalar, clipped.
fn shown(cx: &Context<'_>, node: NodeId) -> String {
    let doc = cx.doc;
    let text = match doc.scalar(node) {
        Some(s) => s.text.as_str().to_owned(),
        None => doc.text(node).to_owned(),
    };
    clip(&text)
}

fn clip(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let mut out: String = line.chars().take(MAX_SHOWN).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// Where a property value is, under the path of its parent, as Heat's messages name it
/// (`resources.r.properties.p[0]`, `….p.key`): written out only for a message.
enum Child<'a> {
    Index(&'a dyn Display, usize),
    Key(&'a dyn Display, &'a str),
}

impl Display for Child<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Child::Index(parent, i) => write!(f, "{parent}[{i}]"),
            Child::Key(parent, key) => write!(f, "{parent}.{key}"),
        }
    }
}
