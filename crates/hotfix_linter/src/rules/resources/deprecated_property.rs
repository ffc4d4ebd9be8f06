use hotfix_hot::resource_types::{ResourceType, RuleKind, Status};
use serde_json::Value;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    Registered, earlier_statuses, literal_properties, registered_resources,
};

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
    for Registered {
        resource,
        type_name,
        schema,
        ..
    } in registered_resources(cx)
    {
        if schema.none_resource {
            continue;
        }
        let Some(properties) = literal_properties(cx, resource) else {
            continue;
        };
        for entry in doc.entries(properties) {
            let Some(key) = doc.str_value(entry.key) else {
                continue;
            };
            let Some(property) = schema.properties.get(key) else {
                continue;
            };
            let status = &property.support_status;
            if !matches!(status.status, Status::Deprecated | Status::Hidden) {
                continue;
            }
            sink.report(
                cx.span(entry.key),
                format!("`{key}` of {type_name} is {status}"),
            )
            .help(format!(
                "{}{}",
                what_heat_does(schema, key),
                earlier_statuses(status)
            ));
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
