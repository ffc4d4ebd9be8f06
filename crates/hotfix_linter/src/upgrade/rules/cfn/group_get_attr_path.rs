use hotfix_hot::{CallStatus, Function, Version};
use hotfix_yaml::{Int, ScalarValue};

use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

const RESOURCE_GROUP: &str = "OS::Heat::ResourceGroup";
const AUTOSCALING_GROUP: &str = "OS::Heat::AutoScalingGroup";

declare_upgrade_rule! {
    /// ## What it does
    /// Reports `get_attr: [GROUP, ATTRIBUTE, PATH…]` with a path, where `GROUP` is an
    /// `OS::Heat::ResourceGroup` or `OS::Heat::AutoScalingGroup`, when leaving 2013-05-23:
    /// from 2014-10-16 on the path means something else.
    ///
    /// ## Why is this bad?
    /// In 2013-05-23 `get_attr` fetches the attribute, then selects the path from the value:
    /// a group's attribute is the list of every member's value, so `[group, address, 0]` is
    /// the first member's address. From 2014-10-16 the group is handed the path, and applies
    /// it to each member: `[group, address, 0]` becomes the list of every member's
    /// `address[0]`. For one member of a `ResourceGroup` use the member attribute:
    /// `get_attr: [group, resource.0, address]`. Group attributes that do not aggregate the
    /// members change too (`refs_map`, `removed_rsrc_list` and, of an `AutoScalingGroup`,
    /// `refs` and `current_size` ignore the path, `attributes` worked only with 2014-10-16's
    /// per-member path). `refs` of a `ResourceGroup` and `resource.N.ATTRIBUTE` keep their
    /// meaning and are not reported.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// resources:
    ///   servers:
    ///     type: OS::Heat::ResourceGroup
    ///     properties:
    ///       count: 2
    ///       resource_def: {type: OS::Nova::Server, properties: {image: cirros, flavor: m1.small}}
    /// outputs:
    ///   first_ip: {value: {get_attr: [servers, first_address, 0]}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2014-10-16
    /// resources:
    ///   servers:
    ///     type: OS::Heat::ResourceGroup
    ///     properties:
    ///       count: 2
    ///       resource_def: {type: OS::Nova::Server, properties: {image: cirros, flavor: m1.small}}
    /// outputs:
    ///   first_ip: {value: {get_attr: [servers, resource.0, first_address]}}
    /// ```
    pub(crate) static RULE = {
        code: "U109",
        name: "group-get-attr-path",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Warning,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::GetAttr) {
            continue;
        }
        let Some([group, attribute, path @ ..]) = doc.items(call.args) else {
            continue;
        };
        let Some((&first, rest)) = path.split_first() else {
            continue;
        };
        let Some(name) = doc.str_value(*group) else {
            continue;
        };
        let Some(resource) = cx
            .template
            .resources
            .iter()
            .find(|r| doc.str_value(r.key) == Some(name))
        else {
            continue;
        };
        let Some(kind @ (RESOURCE_GROUP | AUTOSCALING_GROUP)) = cx.template.resource_type(resource)
        else {
            continue;
        };
        let attr = doc.str_value(*attribute);
        // `resource.N.ATTRIBUTE` reads one member in both versions; so does `refs` of a
        // ResourceGroup, which selects from the list of references in both.
        if let Some(a) = attr {
            let member_attribute = a.starts_with("resource.") && a.splitn(3, '.').count() == 3;
            if member_attribute || (kind == RESOURCE_GROUP && a == "refs") {
                continue;
            }
        }
        let shown = attr.map_or_else(|| "the attribute".to_owned(), |a| format!("`{a}`"));
        let aggregated = attr.is_none_or(|a| {
            !a.starts_with("resource.")
                && !matches!(
                    a,
                    "refs" | "refs_map" | "removed_rsrc_list" | "attributes" | "current_size"
                )
        });
        let message = if aggregated {
            format!(
                "from {} the path of this `get_attr` applies to each member of the {kind} \
                 `{name}`, not to the list of members",
                ucx.to
            )
        } else {
            format!(
                "from {} the path of this `get_attr` is handed to the {kind} `{name}` instead \
                 of selecting from {shown}'s value",
                ucx.to
            )
        };
        let diagnostic = sink.report(cx.span(call.key), message);
        diagnostic.label(
            cx.span(*attribute),
            "the path after this attribute changes meaning",
        );
        let help = if !aggregated {
            format!(
                "in 2013-05-23 the path selected from {shown}'s whole value; from {} the group \
                 reads {shown} itself with the path, or ignores it: check that the value is \
                 still the one you need",
                ucx.to
            )
        } else if kind == RESOURCE_GROUP {
            let index = first_index(doc, first).unwrap_or_else(|| "<i>".to_owned());
            let rest: Vec<&str> = rest.iter().map(|&p| doc.text(p)).collect();
            let tail = if rest.is_empty() {
                String::new()
            } else {
                format!(", {}", rest.join(", "))
            };
            let attribute_text = doc.text(*attribute);
            format!(
                "in 2013-05-23 the first path item picked a member from the list of every \
                 member's {shown}; from {} the whole path is applied to each member's {shown} \
                 and the result is a list. For one member's value write `get_attr: [{name}, \
                 resource.{index}, {attribute_text}{tail}]`",
                ucx.to
            )
        } else {
            format!(
                "in 2013-05-23 the path selected from the list (or map) of every member's \
                 {shown}; from {} the path is applied to each member and the result collects \
                 every member's selection: check that the value is still the one you need",
                ucx.to
            )
        };
        diagnostic.help(help);
    }
}

/// The member index a literal first path item names.
fn first_index(doc: &hotfix_yaml::Document, item: hotfix_yaml::NodeId) -> Option<String> {
    let scalar = doc.scalar(item)?;
    match &scalar.value {
        ScalarValue::Int(Int::Small(n)) if *n >= 0 => Some(n.to_string()),
        _ => None,
    }
}
