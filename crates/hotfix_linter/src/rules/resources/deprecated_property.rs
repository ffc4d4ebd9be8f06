use std::fmt::Write as _;

use hotfix_hot::resource_types::{self, ResourceType, RuleKind, Status, SupportStatus};
use serde_json::Value;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{call_at, mapping_resources};

declare_rule! {
    /// ## What it does
    /// Reports a property that Heat has deprecated or hidden for the resource's type, as Heat's
    /// registry records it (`hotfix type NAME` marks them), and says what Heat does with it.
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
    pub(crate) static RULE = {
        code: "H612",
        name: "deprecated-property",
        severity: Warning,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for resource in mapping_resources(cx) {
        let Some(type_name) = cx
            .template
            .field(resource, "type")
            .and_then(|ty| doc.str_value(ty))
        else {
            continue;
        };
        let Some(schema) = resource_types::get(type_name) else {
            continue;
        };
        let Some(properties) = cx.template.field(resource, "properties") else {
            continue;
        };
        if schema.none_resource
            || !cx.template.is_mapping(properties)
            || call_at(cx, properties).is_some()
        {
            continue;
        }
        for entry in doc.entries(doc.resolve(properties)) {
            let Some(key) = doc.str_value(entry.key) else {
                continue;
            };
            let Some(property) = schema.properties.get(key) else {
                continue;
            };
            let status = &property.support_status;
            let state = match status.status {
                Status::Deprecated => "deprecated",
                Status::Hidden => "hidden",
                Status::Supported | Status::Unsupported | Status::Unknown => continue,
            };
            let diagnostic = sink.report(
                cx.span(entry.key),
                format!("`{key}` of {type_name} is {state}{}", since(status)),
            );
            let mut help = what_heat_does(schema, key);
            let history: Vec<String> = status
                .chain()
                .skip(1)
                .filter(|s| s.status != Status::Supported)
                .map(|s| format!("{}{}", s.status.as_str().to_lowercase(), since(s)))
                .collect();
            if !history.is_empty() {
                let _ = write!(help, " (before: {})", history.join(", "));
            }
            diagnostic.help(help);
        }
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

/// ` since 5.0.0`, when Heat says since when.
fn since(status: &SupportStatus) -> String {
    status
        .version
        .as_deref()
        .map_or_else(String::new, |version| format!(" since {version}"))
}
