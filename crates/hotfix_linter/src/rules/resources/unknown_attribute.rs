use hotfix_diagnostics::Diagnostic;
use hotfix_hot::Named;
use hotfix_hot::resource_types::{self, ResourceType};
use hotfix_yaml::NodeId;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    Group, Registered, attribute_arrives_later, group_member, member_type, registered,
};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that the attribute a `get_attr` names is one the resource's type has, for the
    /// types of Heat's registry (`hotfix type OS::Neutron::Net` lists them).
    ///
    /// ## Why is this bad?
    /// Heat refuses the template when it validates it:
    /// `outputs.o.value.get_attr: The Referenced Attribute (net subnet) is incorrect.`
    ///
    /// Through an `OS::Heat::ResourceGroup` or `OS::Heat::AutoScalingGroup`, the attribute of
    /// its members is checked against the member's type (`[group, resource.0.first_address]`,
    /// `[group, attributes, first_address]`, `[group, first_address]`, `[asg, outputs, name]`,
    /// `[asg, outputs_list, name]`): Heat refuses it when it validates the group before a stack
    /// create, in a nested stack of one member (for a resource group, member `0`: another index
    /// is not checked, nor any when `removal_policies` may skip `0`, nor a group of size 0). A
    /// type that Heat's default environment maps onto a registered one is checked as that type.
    ///
    /// Not checked: types whose attributes Heat computes at run time (software deployments,
    /// nested stacks, `OS::Heat::None` and the placeholders of removed types: `hotfix type`
    /// says "any attribute"), template files and types Heat's registry does not have, and an
    /// attribute name given by a function.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   net:
    ///     type: OS::Neutron::Net
    /// outputs:
    ///   subnets:
    ///     value: {get_attr: [net, subnet]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   net:
    ///     type: OS::Neutron::Net
    /// outputs:
    ///   subnets:
    ///     value: {get_attr: [net, subnets]}
    /// ```
    pub(crate) static RULE = {
        code: "H610",
        name: "unknown-attribute",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    for (resource, args) in crate::rules::util::attribute_calls(cx) {
        let Some(&attribute_node) = args.get(1) else {
            continue;
        };
        let Some(attribute) = cx.doc.str_value(attribute_node) else {
            continue;
        };
        let Some(registered) = registered(cx, resource) else {
            continue;
        };
        let Registered {
            type_name, schema, ..
        } = registered;
        if schema.accepts_attribute(attribute) {
            members(cx, sink, resource, args);
            continue;
        }
        if registered.alias.is_none() && attribute_arrives_later(cx, type_name, attribute) {
            continue;
        }
        let of = registered.clause();
        let diagnostic = sink.report(
            cx.span(attribute_node),
            format!(
                "`{attribute}` is not an attribute of {of} (`{}`)",
                resource.name
            ),
        );
        let heat = format!(
            "Heat: `The Referenced Attribute ({} {attribute}) is incorrect.`",
            resource.name
        );
        suggest(diagnostic, attribute, type_name, schema, &heat);
    }
}

/// A `get_attr` through a group to its members' attribute (`[group, resource.0.ip]`,
/// `[group, attributes, ip]`, `[group, ip]`; `[asg, outputs, ip]`, `[asg, outputs_list, ip]`,
/// `[asg, resource.0.ip]`): Heat builds an output of the member's attribute in the nested stack
/// of one member it validates before a stack create, and refuses an attribute the member's type
/// lacks there (`resources.group<nested_stack>.outputs…: The Referenced Attribute (0 ip) is
/// incorrect.`).
fn members(cx: &Context<'_>, sink: &mut Sink<'_>, group: &Named, args: &[NodeId]) {
    let Some(member) = group_member(cx, group) else {
        return;
    };
    let Some((member_type, schema)) = member_type(cx, &member) else {
        return;
    };
    let doc = cx.doc;
    let Some(&attribute_node) = args.get(1) else {
        return;
    };
    let Some(key) = doc.str_value(attribute_node) else {
        return;
    };
    let next = || {
        let &node = args.get(2)?;
        Some((node, doc.str_value(node)?))
    };
    let index = key.strip_prefix("resource.").map(|rest| {
        rest.split_once('.')
            .map_or((rest, None), |(i, a)| (i, Some(a)))
    });
    let (node, attribute) = match (member.group, index) {
        // Heat validates the member named `0`, unless removal policies skip that name.
        (Group::Resource, Some((index, _))) if index != member.heat_name => {
            return;
        }
        (_, Some((_, Some(attribute)))) => (attribute_node, attribute),
        (_, Some((_, None))) => match next() {
            Some(found) => found,
            None => return,
        },
        (Group::Resource, None) if key == "attributes" => match next() {
            Some(found) => found,
            None => return,
        },
        (Group::Resource, None) if ["refs", "refs_map", "removed_rsrc_list"].contains(&key) => {
            return;
        }
        (Group::Resource, None) => (attribute_node, key),
        (Group::AutoScaling, None) if key == "outputs" || key == "outputs_list" => match next() {
            Some(found) => found,
            None => return,
        },
        (Group::AutoScaling, None) => return,
    };
    if attribute.is_empty() || schema.accepts_attribute(attribute) {
        return;
    }
    let diagnostic = sink.report(
        cx.span(node),
        format!(
            "`{attribute}` is not an attribute of {member_type}, the type of `{}`'s members",
            group.name
        ),
    );
    let heat = format!(
        "Heat, when it creates the stack: `{}…: The Referenced Attribute ({} {attribute}) is \
         incorrect.`",
        format_args!("resources.{}<nested_stack>.outputs", group.name),
        member.heat_name
    );
    suggest(diagnostic, attribute, member_type, schema, &heat);
}

/// The help: a close attribute name, or where the names are listed; then Heat's words.
fn suggest(
    diagnostic: &mut Diagnostic,
    attribute: &str,
    type_name: &str,
    schema: &ResourceType,
    heat: &str,
) {
    let shown = schema
        .attributes
        .iter()
        .filter(|(_, a)| a.support_status.status != resource_types::Status::Hidden)
        .map(|(name, _)| name.as_str());
    match did_you_mean(attribute, shown) {
        Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
        None => diagnostic.help(format!(
            "`hotfix type {type_name}` lists its attributes; {heat}"
        )),
    };
}
