use hotfix_hot::resource_types::{self, ResourceType};
use hotfix_yaml::NodeId;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::property_values::{self, Kind};
use crate::rules::resources::shared::{
    Registered, group_member, literal_properties, member_type, property_arrives_later,
    validated_resources,
};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every key under a resource's `properties` is a property of its type, for
    /// the types of Heat's registry (`hotfix type OS::Nova::Server` lists them), and that every
    /// key of a nested map is one its schema has (`networks: [{netwrok: private}]`). The keys of
    /// its `update_policy` likewise: only the groups take any (`OS::Heat::ResourceGroup`'s
    /// `rolling_update` and `batch_create`, `OS::Heat::InstanceGroup`'s `RollingUpdate`, …; not
    /// `OS::Heat::AutoScalingGroup`, whose rolling updates are its `rolling_updates` property),
    /// with their nested keys.
    ///
    /// The properties of an `OS::Heat::ResourceGroup`'s member (`resource_def`) and of an
    /// `OS::Heat::AutoScalingGroup`'s (`resource`) are checked too, unless the group's size is 0
    /// (then Heat validates no member). A type that Heat's default environment maps onto a
    /// registered one (`OS::Ceilometer::Alarm` → `OS::Aodh::Alarm`, `OS::Quantum::Net` →
    /// `OS::Neutron::Net`) is checked as that type, as Heat checks it where the file is
    /// installed, unless the stack's environments map the name themselves. So is a type the
    /// stack's environments map onto a registered one (`My::Port: OS::Neutron::Port`, a glob
    /// `"OS::Networking::*": "OS::Neutron::*"`): with `-e`, Heat's one answer; without, when the
    /// environments of the tree closest to the template all map it onto that type.
    ///
    /// Not checked: the properties of `OS::Heat::None` and the removed types Heat keeps as
    /// placeholders (they take any property, but no `update_policy`), an external resource (with an `external_id`: Heat adopts it and
    /// checks none of its properties), template files and types Heat's registry does not have
    /// (`unknown-resource-type` reports those it should know).
    ///
    /// ## Why is this bad?
    /// Heat refuses the template when it validates it, before anything is created:
    /// `Property error: resources.server.properties: Unknown Property netwroks`. A misspelt
    /// property is never what was meant: the value meant for it is not used. A misspelt key of a
    /// nested map passes that validation, and Heat refuses the stack when it creates it
    /// (`Property error: resources.server.properties.networks[0]: Unknown Property netwrok`).
    /// Heat checks a group's member when it validates the group before a stack create. Heat
    /// refuses an unknown `update_policy` key when it validates the template: `Property error:
    /// resources.group.update_policy: Unknown Property rolling_updat`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       flavor: m1.small
    ///       image: cirros
    ///       netwroks: [{network: private}]
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       flavor: m1.small
    ///       image: cirros
    ///       networks: [{network: private}]
    /// ```
    pub(crate) static RULE = {
        code: "H609",
        name: "unknown-property",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    for problem in property_values::all(cx).iter() {
        if matches!(problem.kind, Kind::UnknownKey | Kind::NotImplemented) {
            sink.report(cx.span(problem.node), problem.message.clone())
                .help(problem.help.clone());
        }
    }
    for registered in validated_resources(cx) {
        let label = registered.label();
        let Registered {
            resource,
            type_name,
            schema,
            ..
        } = registered;
        if let Some(properties) = literal_properties(cx, resource).filter(|_| !schema.none_resource)
        {
            let heat = format!(
                "Heat: `Property error: resources.{}.properties: Unknown Property …`",
                resource.name
            );
            unknown_keys(cx, sink, properties, (type_name, &label), schema, &heat);
        }
        // A group's member: Heat checks its property names when it validates the group.
        if let Some(member) = group_member(cx, resource)
            && let Some(properties) = member.properties
            && let Some((member_type, member_schema)) =
                member_type(cx, &member).filter(|(_, t)| !t.none_resource)
        {
            let heat = format!(
                "Heat, when it creates the stack: `Property error: {}.properties: Unknown \
                 Property …`",
                member.heat_path(&resource.name)
            );
            unknown_keys(
                cx,
                sink,
                properties,
                (member_type, member_type),
                member_schema,
                &heat,
            );
        }
    }
}

/// The keys of a written `properties` mapping that the type does not have (`type_name` and how
/// messages name it); `heat` is Heat's text with `…` for the key.
fn unknown_keys(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    properties: NodeId,
    (type_name, label): (&str, &str),
    schema: &ResourceType,
    heat: &str,
) {
    let doc = cx.doc;
    for entry in doc.entries(properties) {
        let key = hotfix_hot::key_text(doc, entry.key);
        if doc.str_value(entry.key).is_some()
            && (schema.properties.contains_key(key.as_ref())
                || property_arrives_later(cx, type_name, &[&key]))
        {
            continue;
        }
        let shown = schema
            .properties
            .iter()
            .filter(|(_, p)| p.support_status.status != resource_types::Status::Hidden)
            .map(|(name, _)| name.as_str());
        let diagnostic = sink.report(
            cx.span(entry.key),
            format!("`{key}` is not a property of {label}"),
        );
        let heat = heat.replace('…', &key);
        match did_you_mean(&key, shown) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
            None => diagnostic.help(format!(
                "`hotfix type {type_name}` lists its properties; {heat}"
            )),
        };
    }
}
