//! What the resource rules share: finding calls, Python truthiness, and names for versions.

use hotfix_diagnostics::Edit;
use hotfix_hot::resource_types::{self, ResourceType, Status, SupportStatus};
use hotfix_hot::{Named, Version};
use hotfix_yaml::{NodeId, NodeKind, ScalarStyle};

use crate::rule::Context;

pub(super) use crate::rules::util::{call_at, esc, is_falsy, kind_name, span_or};

/// The first version whose resources accept `external_id` and `condition`.
pub(super) const NEWTON: Version = Version::V2016_10_14;

/// The resources whose definition is a mapping (the others are `resource-not-mapping`'s).
pub(super) fn mapping_resources<'t>(cx: &'t Context<'_>) -> impl Iterator<Item = &'t Named> {
    cx.template
        .resources
        .iter()
        .filter(|r| cx.template.is_mapping(r.value))
}

/// A resource whose `type` is a type of Heat's registry.
pub(super) struct Registered<'t> {
    pub(super) resource: &'t Named,
    /// The `type` value's node, and its text.
    pub(super) type_node: NodeId,
    pub(super) type_name: &'t str,
    pub(super) schema: &'static ResourceType,
}

/// The resources (mappings) whose `type` is a type of Heat's registry.
pub(super) fn registered_resources<'t>(
    cx: &'t Context<'_>,
) -> impl Iterator<Item = Registered<'t>> {
    mapping_resources(cx).filter_map(|resource| registered(cx, resource))
}

/// The resource, when its `type` is a type of Heat's registry.
///
/// None for a resource that is never created ([`Context::never_created`]): Heat does not look at
/// its type, properties or attributes.
pub(super) fn registered<'t>(cx: &Context<'t>, resource: &'t Named) -> Option<Registered<'t>> {
    if cx.never_created(resource) {
        return None;
    }
    let type_node = cx.template.field(resource, "type")?;
    let type_name = cx.doc.str_value(type_node)?;
    Some(Registered {
        resource,
        type_node,
        type_name,
        schema: resource_types::get(type_name)?,
    })
}

/// A resource's `properties` as a written mapping (through aliases): none when absent, not a
/// mapping, or a call (`properties: {get_param: p}`), which Heat resolves before its keys count.
pub(super) fn literal_properties(cx: &Context<'_>, resource: &Named) -> Option<NodeId> {
    let properties = cx.template.field(resource, "properties")?;
    (cx.template.is_mapping(properties) && call_at(cx, properties).is_none())
        .then(|| cx.doc.resolve(properties))
}

/// The member definition of an `OS::Heat::ResourceGroup` (`properties.resource_def`), as
/// written: Heat checks its type and its property names when it validates the group before a
/// stack create (`resources.group<nested_stack>.resources[0]`).
pub(super) struct GroupMember {
    /// The `type` value, when it is a string.
    pub(super) type_node: NodeId,
    pub(super) type_name: String,
    /// The member's `properties`, when a written mapping.
    pub(super) properties: Option<NodeId>,
}

/// The member definition of a resource group, when the group is written out literally.
pub(super) fn group_member(cx: &Context<'_>, resource: &Named) -> Option<GroupMember> {
    let doc = cx.doc;
    let ty = cx.template.field(resource, "type")?;
    if doc.str_value(ty)? != "OS::Heat::ResourceGroup" {
        return None;
    }
    let properties = literal_properties(cx, resource)?;
    let definition = doc.get(properties, "resource_def")?;
    if call_at(cx, definition).is_some() || !cx.template.is_mapping(definition) {
        return None;
    }
    let definition = doc.resolve(definition);
    let type_node = doc.get(definition, "type")?;
    if call_at(cx, type_node).is_some() {
        return None;
    }
    let type_name = doc.str_value(type_node)?.to_owned();
    let properties = doc
        .get(definition, "properties")
        .filter(|&p| cx.template.is_mapping(p) && call_at(cx, p).is_none())
        .map(|p| doc.resolve(p));
    Some(GroupMember {
        type_node,
        type_name,
        properties,
    })
}

/// ` (before: deprecated since 2014.2)`: the statuses before this one that were not plain
/// support; empty when there were none.
pub(super) fn earlier_statuses(status: &SupportStatus) -> String {
    let earlier: Vec<String> = status
        .chain()
        .skip(1)
        .filter(|s| s.status != Status::Supported)
        .map(ToString::to_string)
        .collect();
    if earlier.is_empty() {
        String::new()
    } else {
        format!(" (before: {})", earlier.join(", "))
    }
}

/// `heat_template_version 2016-10-14 (newton)`.
pub(super) fn version_label(version: Version) -> String {
    match version.name() {
        Some(name) => format!("{} ({name})", version.date()),
        None => version.date().to_owned(),
    }
}

/// An edit that replaces the string scalar `node` with `text` written the same way (plain,
/// single- or double-quoted). `None` for aliases, tagged and block scalars, where a textual
/// replacement could change more than this one value. `text` must be safe as a plain scalar.
pub(super) fn replace_scalar(cx: &Context<'_>, node: NodeId, text: &str) -> Option<Edit> {
    let n = cx.doc.node(node);
    if n.tag.is_some() {
        return None;
    }
    let NodeKind::Scalar(scalar) = &n.kind else {
        return None;
    };
    let content = match scalar.style {
        ScalarStyle::Plain => text.to_owned(),
        ScalarStyle::SingleQuoted => format!("'{text}'"),
        ScalarStyle::DoubleQuoted => format!("\"{text}\""),
        ScalarStyle::Literal | ScalarStyle::Folded => return None,
    };
    Some(Edit::replace(n.span, content))
}
