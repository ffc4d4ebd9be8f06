//! What the resource rules share: finding calls, Python truthiness, and names for versions.

use hotfix_diagnostics::Edit;
use hotfix_hot::heat_release::HeatRelease;
use hotfix_hot::resource_types::{ResourceType, ResourceTypes, Status, SupportStatus};
use hotfix_hot::{Named, Version};
use hotfix_stack::Mapped;
use hotfix_yaml::{NodeId, NodeKind, ScalarStyle};

use crate::rule::Context;

pub(super) use crate::rules::util::{
    call_at, esc, is_external, is_falsy, is_null, kind_name, span_or,
};

/// The first version whose resources accept `external_id` and `condition`.
pub(super) const NEWTON: Version = Version::V2016_10_14;

/// The resources whose definition is a mapping (the others are `resource-not-mapping`'s).
pub(super) fn mapping_resources<'t>(cx: &'t Context<'_>) -> impl Iterator<Item = &'t Named> {
    cx.template
        .resources
        .iter()
        .filter(|r| cx.template.is_mapping(r.value))
}

/// A resource whose `type` is a type of Heat's registry, or a name Heat's default environment
/// maps onto one.
pub(super) struct Registered<'t> {
    pub(super) resource: &'t Named,
    /// The `type` value's node.
    pub(super) type_node: NodeId,
    /// The registered type: the name written, or the type an alias stands for.
    pub(super) type_name: &'t str,
    pub(super) schema: &'static ResourceType,
    /// The name written, when it is an alias of `type_name`: in Heat's default environment
    /// (`OS::Quantum::Net` for `OS::Neutron::Net`), or in the stack's environments
    /// ([`Registered::by_environment`]).
    pub(super) alias: Option<&'t str>,
    /// The alias is the stack's environments' (`My::Port: OS::Neutron::Port`), not Heat's.
    pub(super) by_environment: bool,
}

impl Registered<'_> {
    /// The type as messages name it: `OS::Neutron::Net`, or for an alias
    /// `OS::Neutron::Net (Heat's type for OS::Quantum::Net)`, or
    /// `OS::Neutron::Port (the environment's type for My::Port)`.
    pub(super) fn label(&self) -> String {
        match self.alias {
            Some(alias) if self.by_environment => {
                format!("{} (the environment's type for {alias})", self.type_name)
            }
            Some(alias) => format!("{} (Heat's type for {alias})", self.type_name),
            None => self.type_name.to_owned(),
        }
    }

    /// The type as a clause names it: `OS::Neutron::Net`, or for an alias
    /// `OS::Neutron::Net, Heat's type for OS::Quantum::Net`.
    pub(super) fn clause(&self) -> String {
        match self.alias {
            Some(alias) if self.by_environment => {
                format!("{}, the environment's type for {alias}", self.type_name)
            }
            Some(alias) => format!("{}, Heat's type for {alias}", self.type_name),
            None => self.type_name.to_owned(),
        }
    }
}

/// The resources (mappings) whose `type` is a type of Heat's registry, or an alias of one.
pub(super) fn registered_resources<'t>(
    cx: &'t Context<'_>,
) -> impl Iterator<Item = Registered<'t>> {
    mapping_resources(cx).filter_map(|resource| registered(cx, resource))
}

/// The registered resources whose definition Heat validates: all but the external ones
/// ([`is_external`]), of which Heat checks no property, no `update_policy` and no function.
pub(super) fn validated_resources<'t>(cx: &'t Context<'_>) -> impl Iterator<Item = Registered<'t>> {
    registered_resources(cx).filter(|r| !is_external(cx, r.resource))
}

/// The resource, when its `type` is a type of Heat's registry or an alias of one.
///
/// None for a resource that is never created ([`Context::never_created`]): Heat does not look at
/// its type, properties or attributes.
pub(super) fn registered<'t>(cx: &Context<'t>, resource: &'t Named) -> Option<Registered<'t>> {
    registered_in(cx, resource, cx.resource_types())
}

/// As [`registered`], with the newest Heat's types whatever `heat-release` says (for
/// `unavailable-in-release`, which reports what arrived after that release).
pub(super) fn registered_newest<'t>(
    cx: &Context<'t>,
    resource: &'t Named,
) -> Option<Registered<'t>> {
    registered_in(cx, resource, hotfix_hot::resource_types::all())
}

/// As [`registered`], looking the written type up in `types` (aliases are looked up in the
/// release's).
fn registered_in<'t>(
    cx: &Context<'t>,
    resource: &'t Named,
    types: &'static ResourceTypes,
) -> Option<Registered<'t>> {
    if cx.never_created(resource) {
        return None;
    }
    let type_node = cx.template.field(resource, "type")?;
    let written = cx.doc.str_value(type_node)?;
    let (type_name, schema, alias, by_environment) = if let Some(schema) = types.get(written) {
        (written, schema, None, false)
    } else if let Some((target, schema)) = alias_target(cx, written, Some(&resource.name)) {
        (target, schema, Some(written), false)
    } else {
        /// The environments' answer for the type written at one node (of one resource), asked
        /// by each rule that looks at registered resources: looked up once.
        #[derive(Clone, Copy)]
        struct Mapped(Option<(&'static str, &'static ResourceType)>);
        let Mapped(answer) = cx.memo(type_node, || {
            Mapped(environment_alias_target(cx, written, &resource.name))
        });
        let (target, schema) = answer?;
        (target, schema, Some(written), true)
    };
    Some(Registered {
        resource,
        type_node,
        type_name,
        schema,
        alias,
        by_environment,
    })
}

/// The registered type that the stack's environments map the type `name` onto
/// (`My::Port: OS::Neutron::Port`, `"OS::Networking::*": "OS::Neutron::*"`, through any chain
/// of aliases): Heat creates the resource as that type, and checks its properties and
/// attributes as that type's (`Property error: resources.p.properties: Unknown Property
/// bogus`). Only when every answer is that one type: the environments the user named (Heat's
/// one answer), or those of the tree closest to the linted file, all agreeing. None when any
/// maps it elsewhere (a template, a type Heat does not have, something rendered at
/// deployment): which one is deployed is not known.
fn environment_alias_target(
    cx: &Context<'_>,
    name: &str,
    resource: &str,
) -> Option<(&'static str, &'static ResourceType)> {
    let files = cx.files?;
    let registry = files.registry?.get();
    let registered = |n: &str| cx.resource_types().get(n).is_some();
    let mut target: Option<String> = None;
    for mapped in registry.lookup_for(files.path, name, Some(resource), &registered) {
        let Mapped::Type(found) = mapped else {
            return None;
        };
        if target.as_ref().is_some_and(|t| *t != found) {
            return None;
        }
        target = Some(found);
    }
    let target = target.filter(|t| t != name)?;
    cx.resource_types().iter().find(|(n, _)| *n == target)
}

/// The registered type that Heat runs the unregistered type `name` as, through its default
/// environment (`/etc/heat/environment.d/default.yaml`: `OS::Ceilometer::Alarm` →
/// `OS::Aodh::Alarm`, `OS::Quantum*` → `OS::Neutron*`): Heat then checks the target's
/// properties and attributes. None when the stack's environments map `name` to anything else
/// (a template, another type: theirs is the mapping that counts), or when the target is not a
/// registered type (a template URL). Without that file Heat refuses the name
/// (`deprecated-resource-type` says so).
pub(super) fn alias_target(
    cx: &Context<'_>,
    name: &str,
    resource: Option<&str>,
) -> Option<(&'static str, &'static ResourceType)> {
    let types = cx.resource_types();
    let target = types.default_environment_target(name)?;
    if let Some(registry) = cx.files.and_then(|f| f.registry) {
        let builtin = |n: &str| types.get(n).is_some();
        let mapped = registry.get().lookup(name, resource, &builtin);
        if mapped
            .iter()
            .any(|m| !matches!(m, Mapped::Type(t) if *t == *target))
        {
            return None;
        }
    }
    types.iter().find(|(n, _)| *n == target)
}

/// A resource's `properties` as a written mapping (through aliases): none when absent, not a
/// mapping, or a call (`properties: {get_param: p}`), which Heat resolves before its keys count.
pub(super) fn literal_properties(cx: &Context<'_>, resource: &Named) -> Option<NodeId> {
    let properties = cx.template.field(resource, "properties")?;
    (cx.template.is_mapping(properties) && call_at(cx, properties).is_none())
        .then(|| cx.doc.resolve(properties))
}

/// The groups whose members are defined by a resource definition of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    /// `OS::Heat::ResourceGroup`: `resource_def`, members named `0`, `1`, …
    Resource,
    /// `OS::Heat::AutoScalingGroup`: `resource`, members named at random.
    AutoScaling,
}

/// The member definition of an `OS::Heat::ResourceGroup` (`properties.resource_def`) or an
/// `OS::Heat::AutoScalingGroup` (`properties.resource`), as written: Heat checks its type and
/// its property names when it validates the group before a stack create, in a nested stack of
/// one member (`resources.group<nested_stack>.resources[0]`).
pub(crate) struct GroupMember {
    pub(crate) group: Group,
    /// The `type` value, when it is a string.
    pub(crate) type_node: NodeId,
    pub(crate) type_name: String,
    /// The member's `properties`, when a written mapping.
    pub(crate) properties: Option<NodeId>,
    /// The name of the member Heat validates, as its messages show it: `0` for a resource
    /// group (unless `removal_policies` may skip that name), else `<member>`.
    pub(super) heat_name: &'static str,
}

impl GroupMember {
    /// Where Heat's messages put the member: `resources.group<nested_stack>.resources[0]`, or
    /// `….resources.<member>` for an autoscaling group (its members' names are random).
    pub(crate) fn heat_path(&self, group: &str) -> String {
        match self.group {
            Group::Resource => format!("resources.{group}<nested_stack>.resources[0]"),
            Group::AutoScaling => format!("resources.{group}<nested_stack>.resources.<member>"),
        }
    }
}

/// The member definition of a group, when the group is written out literally and Heat
/// validates a member: not for a group never created, an external one, nor one whose size is
/// zero (a `count` of 0; `desired_capacity`, else `min_size`, of 0), whose member Heat does
/// not validate.
pub(crate) fn group_member(cx: &Context<'_>, resource: &Named) -> Option<GroupMember> {
    let doc = cx.doc;
    let ty = cx.template.field(resource, "type")?;
    let group = match doc.str_value(ty)? {
        "OS::Heat::ResourceGroup" => Group::Resource,
        "OS::Heat::AutoScalingGroup" => Group::AutoScaling,
        _ => return None,
    };
    if cx.never_created(resource) || is_external(cx, resource) {
        return None;
    }
    let properties = literal_properties(cx, resource)?;
    let empty = match group {
        Group::Resource => doc
            .get(properties, "count")
            .is_some_and(|count| is_zero(cx, count)),
        Group::AutoScaling => {
            doc.get(properties, "desired_capacity")
                .is_none_or(|desired| is_zero(cx, desired) || is_null(cx.doc, desired))
                && doc
                    .get(properties, "min_size")
                    .is_some_and(|min| is_zero(cx, min))
        }
    };
    if empty {
        return None;
    }
    let key = match group {
        Group::Resource => "resource_def",
        Group::AutoScaling => "resource",
    };
    let definition = doc.get(properties, key)?;
    if call_at(cx, definition).is_some() || !cx.template.is_mapping(definition) {
        return None;
    }
    let definition = doc.resolve(definition);
    let type_node = doc.get(definition, "type")?;
    if call_at(cx, type_node).is_some() {
        return None;
    }
    let type_name = doc.str_value(type_node)?.to_owned();
    let heat_name = match group {
        Group::Resource if doc.get(properties, "removal_policies").is_none() => "0",
        _ => "<member>",
    };
    let properties = doc
        .get(definition, "properties")
        .filter(|&p| cx.template.is_mapping(p) && call_at(cx, p).is_none())
        .map(|p| doc.resolve(p));
    Some(GroupMember {
        group,
        type_node,
        type_name,
        properties,
        heat_name,
    })
}

/// The registered type of a group's member (through Heat's default environment, as for a
/// resource), when it is one.
pub(super) fn member_type(
    cx: &Context<'_>,
    member: &GroupMember,
) -> Option<(&'static str, &'static ResourceType)> {
    let types = cx.resource_types();
    match types.iter().find(|(n, _)| *n == member.type_name) {
        Some(found) => Some(found),
        None => alias_target(cx, &member.type_name, None),
    }
}

/// Whether a group size is 0 as Heat reads it (an integer property: `0`, or `'0'`), written or
/// computed from literals and parameter defaults; a size Heat knows only from the stack's
/// inputs is not.
fn is_zero(cx: &Context<'_>, node: NodeId) -> bool {
    /// The answer for one node, asked once per template (each rule that checks a group's
    /// member asks it; computing it builds the template's parameters).
    #[derive(Clone, Copy)]
    struct Zero(bool);
    cx.memo(node, || Zero(zero_size(cx, node))).0
}

/// [`is_zero`]'s answer, worked out.
fn zero_size(cx: &Context<'_>, node: NodeId) -> bool {
    let zero = |value: &hotfix_eval::Value| match value {
        hotfix_eval::Value::Int(n) => *n == 0,
        hotfix_eval::Value::Str(s) => matches!(
            hotfix_hot::python::int_of_str(s),
            Ok(hotfix_hot::python::Int::Small(0))
        ),
        _ => false,
    };
    if call_at(cx, node).is_none() {
        return zero(&hotfix_eval::Value::from_node(cx.doc, node));
    }
    let Some(version) = cx.version() else {
        return false;
    };
    hotfix_eval::Folder::with_template(cx.template, version)
        .fold_with_defaults(node)
        .is_some_and(|folded| zero(&folded.value))
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

/// The release from which Heat has deprecated (or hidden) it: the earliest such status of the
/// chain, where its version names a release.
pub(super) fn deprecated_since(status: &SupportStatus) -> Option<HeatRelease> {
    status
        .chain()
        .filter(|s| matches!(s.status, Status::Deprecated | Status::Hidden))
        .last()
        .and_then(|s| s.version.as_deref())
        .and_then(HeatRelease::of_heat_version)
}

/// Whether `unavailable-in-release` (H618) reports the type `name` (the newest Heat has it, and
/// it arrived after `heat-release`): the rules that check against the release's own types stay
/// quiet about it, so that it is reported once, with the release it arrived in.
pub(crate) fn type_arrives_later(cx: &Context<'_>, name: &str) -> bool {
    let Some(release) = cx.heat_release else {
        return false;
    };
    hotfix_hot::resource_types::all()
        .get(name)
        .and_then(hotfix_hot::heat_release::type_arrival)
        .is_some_and(|arrived| arrived > release)
}

/// As [`type_arrives_later`], for a property of the type `type_name` (`path`: its name, or the
/// names down to a key of a nested map, through lists' items).
pub(super) fn property_arrives_later(cx: &Context<'_>, type_name: &str, path: &[&str]) -> bool {
    let Some(release) = cx.heat_release else {
        return false;
    };
    let Some(resource_type) = hotfix_hot::resource_types::all().get(type_name) else {
        return false;
    };
    let mut schema = &resource_type.properties;
    let mut property = None;
    for name in path {
        let Some(found) = schema.get(*name) else {
            return false;
        };
        property = Some(found);
        schema = match &found.items {
            Some(items) if found.schema.is_empty() => &items.schema,
            _ => &found.schema,
        };
    }
    property
        .and_then(|p| hotfix_hot::heat_release::property_arrival(type_name, path, p))
        .is_some_and(|arrived| arrived > release)
}

/// As [`type_arrives_later`], for the attribute `attribute` of the type `type_name`.
pub(super) fn attribute_arrives_later(cx: &Context<'_>, type_name: &str, attribute: &str) -> bool {
    let Some(release) = cx.heat_release else {
        return false;
    };
    hotfix_hot::resource_types::all()
        .get(type_name)
        .and_then(|t| t.attributes.get(attribute))
        .and_then(hotfix_hot::heat_release::attribute_arrival)
        .is_some_and(|arrived| arrived > release)
}
