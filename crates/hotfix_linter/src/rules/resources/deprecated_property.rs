use std::collections::BTreeMap;

use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::resource_types::{
    PropertyType, ResourceType, RuleKind, Schema, Status, TranslationRule,
};
use hotfix_yaml::{NodeId, NodeKind, ScalarValue};
use serde_json::Value;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    Registered, call_at, earlier_statuses, literal_properties, replace_scalar, validated_resources,
};

declare_rule! {
    /// ## What it does
    /// Reports a property that Heat has deprecated or hidden for the resource's type, as Heat's
    /// registry records it (`hotfix type NAME` marks them), and says what Heat does with it.
    /// Keys of the nested maps a property's schema describes are checked too (`uuid` in an
    /// item of `networks` of `OS::Nova::Server`), in literal values: a value given by a
    /// function is not looked into.
    ///
    /// ## Why is this bad?
    /// Heat still accepts it, but it is on its way out, and for several Heat already uses
    /// another property: it moves the value of `network_id` of an `OS::Neutron::Port` to
    /// `network` before using it (its translation rules), and drops some (`sequence` of
    /// `OS::Heat::RandomString` becomes a `character_classes` entry). Writing the current
    /// property says what Heat will do.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   port:
    ///     type: OS::Neutron::Port
    ///     properties:
    ///       network_id: private
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   port:
    ///     type: OS::Neutron::Port
    ///     properties:
    ///       network: private
    /// ```
    ///
    /// ## Fix safety
    /// Where Heat's translation rule only moves the value to the current name in the same map
    /// (`network_id` to `network` of an `OS::Neutron::Port`, `uuid` to `network` in an item of
    /// `networks` of an `OS::Nova::Server`), the fix renames the key, and is safe: Heat reads
    /// the renamed template into the properties its translation makes of the original. Only
    /// the key's characters change (its quotes are kept). No fix is offered where the current
    /// name is already written in the same map (Heat refuses both together: `Cannot define
    /// the following properties at the same time`), where the key or a map around it is
    /// shared through a YAML anchor or a merge key, or where the translation changes the
    /// value's form or another property (`sequence` of `OS::Heat::RandomString`, `l3_agent_id`
    /// of `OS::Neutron::Router`, the `policies` of a Mistral task): those are edited by hand.
    pub(crate) static RULE = {
        code: "H612",
        name: "deprecated-property",
        severity: Warning,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    for Registered {
        resource,
        type_name,
        schema,
        ..
    } in validated_resources(cx)
    {
        if schema.none_resource {
            continue;
        }
        let Some(properties) = literal_properties(cx, resource) else {
            continue;
        };
        let mut walk = Walk {
            cx,
            sink: &mut *sink,
            type_name,
            schema,
            names: Vec::new(),
        };
        walk.map(&schema.properties, properties);
    }
}

/// How deep nested schemas are followed (Heat's deepest is four).
const MAX_DEPTH: usize = 16;

/// A walk of one resource's literal properties, into the nested schemas of lists and maps.
struct Walk<'a, 'c, 's> {
    cx: &'a Context<'c>,
    sink: &'a mut Sink<'s>,
    type_name: &'a str,
    schema: &'static ResourceType,
    /// The property names from the top of `properties` to the map being walked (list items
    /// add no name, as in Heat's translation paths).
    names: Vec<String>,
}

impl Walk<'_, '_, '_> {
    /// A literal mapping checked against a map schema: each deprecated key reported, each
    /// value walked into.
    fn map(&mut self, schema: &'static BTreeMap<String, Schema>, node: NodeId) {
        if self.names.len() > MAX_DEPTH {
            return;
        }
        let doc = self.cx.doc;
        for entry in doc.entries(node) {
            let Some(key) = doc.str_value(entry.key) else {
                continue;
            };
            let Some(property) = schema.get(key) else {
                continue;
            };
            let status = &property.support_status;
            if matches!(status.status, Status::Deprecated | Status::Hidden) {
                let (what, mut advice) = if self.names.is_empty() {
                    (format!("`{key}`"), what_heat_does(self.schema, key))
                } else {
                    (
                        format!("`{key}` in `{}`", self.names.join("`.`")),
                        what_heat_does_nested(self.schema, &self.names, key),
                    )
                };
                if let Some(target) = renamed_to(self.schema, &self.names, key)
                    .filter(|target| doc.get(node, target).is_some())
                {
                    let mut both = self.names.clone();
                    both.push(target.to_owned());
                    let new = both.join(".");
                    both.pop();
                    both.push(key.to_owned());
                    advice = format!(
                        "`{target}` is written too: Heat refuses the two together (unless one \
                         is empty); remove one and keep the value under `{target}`; Heat: \
                         `Cannot define the following properties at the same time: {new}, {}`",
                        both.join(".")
                    );
                }
                let diagnostic = self
                    .sink
                    .report(
                        self.cx.span(entry.key),
                        format!("{what} of {} is {status}", self.type_name),
                    )
                    .help(format!("{advice}{}", earlier_statuses(status)));
                if let Some(fix) = rename(self.cx, self.schema, &self.names, node, entry.key, key) {
                    diagnostic.fix(fix);
                }
            }
            self.names.push(key.to_owned());
            self.value(property, entry.value);
            self.names.pop();
        }
    }

    /// A literal value walked into: the keys of a map, the items of a list.
    fn value(&mut self, schema: &'static Schema, node: NodeId) {
        if call_at(self.cx, node).is_some() {
            return;
        }
        let doc = self.cx.doc;
        let node = doc.resolve(node);
        match (&doc.node(node).kind, schema.kind) {
            (NodeKind::Mapping { .. }, PropertyType::Map) if !schema.schema.is_empty() => {
                self.map(&schema.schema, node);
            }
            (NodeKind::Sequence { items, .. }, PropertyType::List) => {
                if let Some(item) = &schema.items {
                    for &child in items {
                        self.value(item, child);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The name Heat's translation moves the value of `key` to, unchanged, in the same map: a
/// Replace rule that reads `key` alone (`value_path: [key]` at the top, `value_name: key`
/// in a nested map), with no path within the value.
fn renamed_to<'s>(schema: &'s ResourceType, parents: &[String], key: &str) -> Option<&'s str> {
    schema.translation.iter().find_map(|rule| {
        let plain = rule.rule == RuleKind::Replace
            && rule.custom_value_path.is_none()
            && rule.value.is_none()
            && rule.path.len() == parents.len() + 1
            && rule.path[..parents.len()] == *parents;
        let reads = if parents.is_empty() {
            rule.value_name.is_none() && rule.value_path.as_deref() == Some(&[key.to_owned()][..])
        } else {
            rule.value_path.is_none() && rule.value_name.as_deref() == Some(key)
        };
        (plain && reads).then(|| rule.path[parents.len()].as_str())
    })
}

/// The safe fix of a deprecated key that Heat's translation renames: the key's own text
/// replaced. `None` where the new name is already in the map (Heat refuses both), where the
/// map has a merge key or the key repeats, or where the key lies inside an anchored node
/// (an alias elsewhere would be renamed too).
fn rename(
    cx: &Context<'_>,
    schema: &ResourceType,
    parents: &[String],
    map: NodeId,
    key_node: NodeId,
    key: &str,
) -> Option<Fix> {
    let target = renamed_to(schema, parents, key)?;
    let doc = cx.doc;
    let raw = doc.raw_entries(map)?;
    let merged = raw.iter().any(|e| {
        matches!(
            doc.scalar(e.key).map(|s| &s.value),
            Some(ScalarValue::Merge)
        )
    });
    let written = raw
        .iter()
        .filter(|e| doc.str_value(e.key) == Some(key))
        .count();
    if merged || written != 1 || doc.get(map, target).is_some() {
        return None;
    }
    let span = doc.node(key_node).span;
    let anchored = doc
        .nodes()
        .iter()
        .any(|n| n.anchor.is_some() && n.span.start <= span.start && span.end <= n.span.end);
    if anchored {
        return None;
    }
    let edit = replace_scalar(cx, key_node, target)?;
    Some(Fix {
        message: format!("Rename `{key}` to `{target}`"),
        edits: vec![edit],
        applicability: Applicability::Safe,
    })
}

/// What Heat's translation rules do with a deprecated key of a nested map (`uuid` in an item of
/// `networks`), as advice: the rules name it by its parent's path and the key.
fn what_heat_does_nested(schema: &ResourceType, parents: &[String], key: &str) -> String {
    let within = |rule: &TranslationRule| {
        rule.path.len() == parents.len() + 1 && rule.path[..parents.len()] == *parents
    };
    for rule in &schema.translation {
        if rule.rule == RuleKind::Replace
            && within(rule)
            && rule.value_name.as_deref() == Some(key)
            && rule.custom_value_path.is_none()
        {
            let target = &rule.path[parents.len()];
            return format!(
                "Heat uses its value as `{target}` in the same map: write `{target}` instead"
            );
        }
    }
    let moved: Vec<String> = schema
        .translation
        .iter()
        .filter(|r| {
            r.rule == RuleKind::Replace
                && within(r)
                && r.value_name.as_deref() == Some(key)
                && r.custom_value_path.is_some()
        })
        .map(|r| format!("`{}`", r.path[parents.len()]))
        .collect();
    let mut path = parents.to_vec();
    path.push(key.to_owned());
    let dropped = schema
        .translation
        .iter()
        .any(|r| r.rule == RuleKind::Delete && r.path == path);
    match (moved.is_empty(), dropped) {
        (false, true) => format!(
            "Heat moves its entries to {} in the same map and drops it: write those instead",
            moved.join(", ")
        ),
        (false, false) => format!(
            "Heat moves its entries to {} in the same map: write those instead",
            moved.join(", ")
        ),
        (true, true) => "Heat drops it before using the properties: remove it".to_owned(),
        (true, false) => "Heat still accepts it, but it is on its way out; `hotfix type` lists \
                          the current properties"
            .to_owned(),
    }
}

/// What Heat's translation rules do with the property, as advice.
fn what_heat_does(schema: &ResourceType, key: &str) -> String {
    let path = [key.to_owned()];
    for rule in &schema.translation {
        if rule.rule == RuleKind::Replace && rule.value_path.as_deref() == Some(&path[..]) {
            let target = rule.path.join(".");
            return format!("Heat uses its value as `{target}`: write `{target}` instead");
        }
    }
    for rule in &schema.translation {
        if rule.rule == RuleKind::Add && rule.value.as_ref().is_some_and(|v| reads(v, key)) {
            let target = rule.path.join(".");
            return format!("Heat adds its value to `{target}` and drops it: write it there");
        }
    }
    if schema
        .translation
        .iter()
        .any(|r| r.rule == RuleKind::Delete && r.path == path)
    {
        return "Heat drops it before using the properties: remove it".to_owned();
    }
    "Heat still accepts it, but it is on its way out; `hotfix type` lists the current properties"
        .to_owned()
}

/// Whether a translation rule's value reads the property `key` (`{"property": [key]}`).
fn reads(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(map) => {
            map.get("property")
                .and_then(Value::as_array)
                .is_some_and(|path| path.len() == 1 && path[0] == key)
                || map.values().any(|v| reads(v, key))
        }
        Value::Array(items) => items.iter().any(|v| reads(v, key)),
        _ => false,
    }
}
