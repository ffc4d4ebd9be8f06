use std::collections::BTreeMap;

use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_hot::heat_release::property_arrival;
use hotfix_hot::resource_types::{
    PropertyType, ResourceType, RuleKind, Schema, Status, SupportStatus, TranslationRule,
};
use hotfix_yaml::{Entry, NodeId, NodeKind, ScalarStyle, ScalarValue, Style};
use serde_json::Value;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    Registered, call_at, deprecated_since, earlier_statuses, literal_properties, replace_scalar,
    validated_resources,
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
    /// the key's characters change (its quotes are kept).
    ///
    /// Where the translation also changes the value's form, the fix writes the value as the
    /// translation rule builds it, and is unsafe: `sequence: X` of `OS::Heat::RandomString`
    /// becomes `character_classes: [{class: X, min: 1}]`, `l3_agent_id: X` of
    /// `OS::Neutron::Router` becomes `l3_agent_ids: [X]`. Heat translates both texts into the
    /// same properties, but it applies these rules only when the old value is not empty: a
    /// value that comes out empty (a parameter given as `''`) was ignored, and is now a list
    /// entry. Likewise `masters` of `OS::Designate::Zone` is renamed `primaries`, which Heat
    /// fills `masters` from: the same properties for this Heat, but `masters` was deprecated
    /// only in Heat 15.0.0 (victoria), and Heat's registry records no release for `primaries`:
    /// a cloud with an older Heat may not know it. Apply these where the value is a literal, or
    /// never empty, and the cloud's Heat is recent.
    ///
    /// No fix is offered where the current name is already written in the same map (Heat
    /// refuses both together: `Cannot define the following properties at the same time`), where
    /// the key or a map around it is shared through a YAML anchor or a merge key, where a value
    /// to rewrite spans lines or is an alias, or where Heat keeps no substitute (`personality`
    /// of `OS::Nova::Server`, `replacement_policy` of `OS::Neutron::Port`) or spreads the value
    /// over several keys (the `policies` of a Mistral task): those are edited by hand.
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
                if let Some(target) = added_to(self.schema, &self.names, key)
                    .map(|rule| rule.path[0].as_str())
                    .filter(|target| doc.get(node, target).is_some())
                {
                    advice = format!(
                        "`{target}` is written too: Heat refuses the two; add the value to \
                         `{target}` and remove `{key}`; Heat: `Incorrect translation rule using \
                         - cannot resolve Add rule for non-list translation value \"{target}.0\".`"
                    );
                }
                if let Some(current) = filled_from(self.schema, &self.names, key)
                    .filter(|current| doc.get(node, current).is_some())
                {
                    advice = format!(
                        "`{current}` is written too: Heat refuses the two (unless one is empty); \
                         remove `{key}` and keep the value under `{current}`; Heat: `Cannot \
                         define the following properties at the same time: {key}, {current}`"
                    );
                }
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
                let fix = rename(self.cx, self.schema, &self.names, node, entry.key, key)
                    .or_else(|| reshape(self.cx, self.schema, &self.names, node, entry, key))
                    .filter(|_| self.in_release(schema, status, key));
                let diagnostic = self
                    .sink
                    .report(
                        self.cx.span(entry.key),
                        format!("{what} of {} is {status}", self.type_name),
                    )
                    .help(format!("{advice}{}", earlier_statuses(status)));
                if let Some(fix) = fix {
                    diagnostic.fix(fix);
                }
            }
            self.names.push(key.to_owned());
            self.value(property, entry.value);
            self.names.pop();
        }
    }

    /// Whether the fixes of the deprecated `key` of a map of `schema` suit the Heat release the
    /// settings name (any, when they name none): `key` is deprecated there already, and the
    /// property a fix writes arrived there, as far as Heat's support statuses say.
    fn in_release(
        &self,
        schema: &'static BTreeMap<String, Schema>,
        status: &SupportStatus,
        key: &str,
    ) -> bool {
        let Some(release) = self.cx.heat_release else {
            return true;
        };
        let deprecated = deprecated_since(status);
        if deprecated.is_some_and(|d| d > release) {
            return false;
        }
        let target = renamed_to(self.schema, &self.names, key)
            .or_else(|| added_to(self.schema, &self.names, key).map(|r| r.path[0].as_str()))
            .or_else(|| filled_from(self.schema, &self.names, key));
        let Some((target, property)) = target.and_then(|t| Some((t, schema.get(t)?))) else {
            return false;
        };
        let mut path: Vec<&str> = self.names.iter().map(String::as_str).collect();
        path.push(target);
        property_arrival(self.type_name, &path, property).is_none_or(|a| a <= release)
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

/// The list property an Add rule of Heat's translation appends the top-level property `key`
/// to, where a Delete rule then drops `key` (`l3_agent_ids` for `l3_agent_id` of
/// `OS::Neutron::Router`).
fn added_to<'s>(
    schema: &'s ResourceType,
    parents: &[String],
    key: &str,
) -> Option<&'s TranslationRule> {
    if !parents.is_empty() {
        return None;
    }
    let path = [key.to_owned()];
    let deleted = schema
        .translation
        .iter()
        .any(|r| r.rule == RuleKind::Delete && r.path == path);
    let rule = schema.translation.iter().find(|r| {
        r.rule == RuleKind::Add
            && r.path.len() == 1
            && r.value.as_ref().is_some_and(|v| placeholders(v, key) == 1)
    })?;
    deleted.then_some(rule)
}

/// The safe fix of a deprecated key that Heat's translation renames: the key's own text
/// replaced. `None` where the key cannot be edited alone (see [`editable`]).
fn rename(
    cx: &Context<'_>,
    schema: &ResourceType,
    parents: &[String],
    map: NodeId,
    key_node: NodeId,
    key: &str,
) -> Option<Fix> {
    let target = renamed_to(schema, parents, key)?;
    if !editable(cx, map, key_node, key, target) {
        return None;
    }
    let edit = replace_scalar(cx, key_node, target)?;
    Some(Fix {
        message: format!("Rename `{key}` to `{target}`"),
        edits: vec![edit],
        applicability: Applicability::Safe,
    })
}

/// Whether the entry `key` of `map` can be rewritten as `target` by editing its own text: the
/// new name is not in the map already (Heat refuses both), the map has no merge key, the key is
/// written once, and it lies inside no anchored node (an alias elsewhere would change too).
fn editable(cx: &Context<'_>, map: NodeId, key_node: NodeId, key: &str, target: &str) -> bool {
    let doc = cx.doc;
    let Some(raw) = doc.raw_entries(map) else {
        return false;
    };
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
        return false;
    }
    let span = doc.node(key_node).span;
    !doc.nodes()
        .iter()
        .any(|n| n.anchor.is_some() && n.span.start <= span.start && span.end <= n.span.end)
}

/// The unsafe fix of a deprecated top-level property that Heat's translation turns into another
/// property in another form or direction, written as Heat's translation would have it:
///
/// - an Add rule that appends a value built around the property's (`[{class: X, min: 1}]` for
///   `sequence` of `OS::Heat::RandomString`, `[X]` for `l3_agent_id` of `OS::Neutron::Router`),
///   with a Delete rule of the property: the key renamed, the value wrapped;
/// - a Replace rule that fills the deprecated property from a current one (`masters` of
///   `OS::Designate::Zone` from `primaries`): the key renamed.
///
/// `None` where the key cannot be edited alone (see [`editable`]), and, for a wrapped value,
/// where the value is not on one line, is an alias or has an anchor or a tag, or is a plain
/// scalar that could read otherwise inside brackets.
fn reshape(
    cx: &Context<'_>,
    schema: &ResourceType,
    parents: &[String],
    map: NodeId,
    entry: Entry,
    key: &str,
) -> Option<Fix> {
    if !parents.is_empty() {
        return None;
    }
    if let Some(rule) = added_to(schema, parents, key) {
        let target = rule.path[0].as_str();
        if !editable(cx, map, entry.key, key, target) {
            return None;
        }
        let value = rule.value.as_ref()?;
        let text = wrappable(cx, entry.value)?;
        let json = cx.doc.format() == hotfix_yaml::SourceFormat::Json;
        let wrapped = flow(value, key, text, json);
        let edits = vec![
            replace_scalar(cx, entry.key, target)?,
            Edit::replace(cx.doc.node(entry.value).span, wrapped.clone()),
        ];
        return Some(Fix {
            message: format!("Write `{key}` as `{target}: {wrapped}`, as Heat translates it"),
            edits,
            applicability: Applicability::Unsafe,
        });
    }
    let target = filled_from(schema, parents, key)?;
    if !editable(cx, map, entry.key, key, target) {
        return None;
    }
    Some(Fix {
        message: format!("Rename `{key}` to `{target}`"),
        edits: vec![replace_scalar(cx, entry.key, target)?],
        applicability: Applicability::Unsafe,
    })
}

/// The current property a Replace rule of Heat's translation fills the deprecated top-level
/// property `key` from (`primaries` for `masters` of `OS::Designate::Zone`).
fn filled_from<'s>(schema: &'s ResourceType, parents: &[String], key: &str) -> Option<&'s str> {
    if !parents.is_empty() {
        return None;
    }
    schema.translation.iter().find_map(|r| {
        let plain = r.rule == RuleKind::Replace
            && r.path.len() == 1
            && r.path[0] == key
            && r.custom_value_path.is_none()
            && r.value.is_none();
        let source = match (&r.value_name, r.value_path.as_deref()) {
            (Some(name), None) | (None, Some([name])) => Some(name.as_str()),
            _ => None,
        };
        source.filter(|_| plain)
    })
}

/// How many times a translation rule's value reads the property `key` (`{"property": [key]}`).
fn placeholders(value: &Value, key: &str) -> usize {
    match value {
        Value::Object(map) if is_placeholder(value, key) => usize::from(map.len() == 1),
        Value::Object(map) => map.values().map(|v| placeholders(v, key)).sum(),
        Value::Array(items) => items.iter().map(|v| placeholders(v, key)).sum(),
        _ => 0,
    }
}

fn is_placeholder(value: &Value, key: &str) -> bool {
    value
        .get("property")
        .and_then(Value::as_array)
        .is_some_and(|path| path.len() == 1 && path[0] == key)
}

/// The text of a value that can stand inside a flow collection as it is: one line, no alias,
/// anchor or tag; a quoted scalar, a flow collection, or a plain scalar of letters, digits and
/// `_`, `-`, `.`.
fn wrappable<'a>(cx: &'a Context<'_>, node: NodeId) -> Option<&'a str> {
    let n = cx.doc.node(node);
    if n.anchor.is_some() || n.tag.is_some() {
        return None;
    }
    let text = cx.text(node);
    if text.is_empty() || text.contains(['\n', '\r']) {
        return None;
    }
    let fits = match &n.kind {
        NodeKind::Scalar(s) => match s.style {
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => true,
            ScalarStyle::Plain => text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')),
            ScalarStyle::Literal | ScalarStyle::Folded => false,
        },
        NodeKind::Mapping { style, .. } | NodeKind::Sequence { style, .. } => *style == Style::Flow,
        NodeKind::Alias { .. } => false,
    };
    fits.then_some(text)
}

/// A translation rule's value written in flow style, with `text` where it reads `key`; keys
/// and strings quoted in a JSON file.
fn flow(value: &Value, key: &str, text: &str, json: bool) -> String {
    if is_placeholder(value, key) {
        return text.to_owned();
    }
    let string = |s: &str| {
        let plain = !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
            && s.bytes().any(|b| b.is_ascii_alphabetic());
        if json || !plain {
            Value::String(s.to_owned()).to_string()
        } else {
            s.to_owned()
        }
    };
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|v| flow(v, key, text, json)).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", string(k), flow(v, key, text, json)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        Value::String(s) => string(s),
        other => other.to_string(),
    }
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
    if let Some(current) = filled_from(schema, &[], key) {
        return format!(
            "Heat fills it from `{current}`, the name it asks for now: write `{current}` instead"
        );
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
