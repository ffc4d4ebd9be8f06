use std::collections::BTreeMap;

use hotfix_hot::heat_release::{
    HeatRelease, attribute_arrival, newest_template_version, property_arrival,
    template_version_arrival, type_arrival,
};
use hotfix_hot::resource_types::Schema;
use hotfix_hot::{RefKind, VersionDecl};
use hotfix_yaml::{NodeId, NodeKind};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    Registered, call_at, is_external, literal_properties, mapping_resources, registered_newest,
};

declare_rule! {
    /// ## What it does
    /// With `heat-release` set (in `hotfix.toml`, or `--heat-release`) to the OpenStack release
    /// the templates are deployed to, reports a `heat_template_version`, a resource type, a
    /// property (also a key of a nested map, such as `tag` in the `networks` of an
    /// `OS::Nova::Server`) or an attribute named by `get_attr` that arrived in a later Heat:
    /// template versions as `hotfix versions` lists them, the rest as its support status in
    /// Heat's registry says (`hotfix type NAME` shows them). Without the setting it reports
    /// nothing.
    ///
    /// ## Why is this bad?
    /// The Heat of that release does not have it, and refuses the template:
    /// `The template version is invalid`,
    /// `The Resource Type (OS::Neutron::Trunk) could not be found.`,
    /// `Unknown Property no_fixed_ips`, or `The Referenced Attribute (net segments) is
    /// incorrect.`
    ///
    /// Each template version is in Heat from its release on (`2018-08-31`, or `rocky`, from Heat
    /// 11.0.0). Heat records when most types and properties arrived (`SUPPORTED since 9.0.0`, which is
    /// pike); what it does not record is not reported: a status without a release, one whose
    /// oldest entry is a deprecation or a change of status, and a point release. The statuses
    /// agree with the registries of Heat 5.0.0 (liberty) to 26.0.0 (2026.1 gazpacho) for every
    /// finding this rule can make but one, `domain` of `OS::Keystone::Role`, which the rule takes
    /// from Heat's history (10.0.0, queens). Releases before liberty cannot be named: their
    /// support statuses were written afterwards and often disagree with what Heat had.
    ///
    /// Not reported: removals. The release in which Heat hid a type is not the one in which it
    /// stopped working (`OS::Neutron::LoadBalancer` is hidden since 9.0.0 and worked until Heat
    /// 22.0.0 made it a placeholder), so the data cannot say whether an older cloud still has
    /// it; `deprecated-resource-type` reports the types Heat has removed.
    ///
    /// ## Example
    /// ```yaml
    /// # heat-release = "victoria"
    /// heat_template_version: 2018-08-31
    /// resources:
    ///   port:
    ///     type: OS::Neutron::Port
    ///     properties:
    ///       network: private
    ///       no_fixed_ips: true
    /// ```
    ///
    /// Use instead: leave it out on victoria (Neutron then gives the port an address), or, when
    /// the cloud runs a later Heat, say which:
    /// ```yaml
    /// # heat-release = "wallaby"
    /// heat_template_version: 2018-08-31
    /// resources:
    ///   port:
    ///     type: OS::Neutron::Port
    ///     properties:
    ///       network: private
    ///       no_fixed_ips: true
    /// ```
    pub(crate) static RULE = {
        code: "H618",
        name: "unavailable-in-release",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(release) = cx.heat_release else {
        return;
    };
    if cx.version().is_none() {
        return;
    }
    template_version(cx, sink, release);
    for Registered {
        resource,
        type_node,
        type_name,
        schema,
        alias,
        ..
    } in mapping_resources(cx).filter_map(|r| registered_newest(cx, r))
    {
        // What an alias of Heat's default environment stands for depends on that file.
        if alias.is_some() {
            continue;
        }
        if let Some(arrived) = type_arrival(schema).filter(|a| *a > release) {
            sink.report(
                cx.span(type_node),
                arrived_message(&format!("`{type_name}`"), arrived, release),
            )
            .help(format!(
                "{} refuses it: `The Resource Type ({type_name}) could not be found.`",
                heat_of(release)
            ));
            continue;
        }
        // Heat checks none of an external resource's properties.
        if schema.none_resource || is_external(cx, resource) {
            continue;
        }
        let Some(properties) = literal_properties(cx, resource) else {
            continue;
        };
        let mut walk = Walk {
            cx,
            sink: &mut *sink,
            release,
            type_name,
            path: Vec::new(),
        };
        walk.map(&schema.properties, properties);
    }
    attributes(cx, sink, release);
}

/// A declared `heat_template_version` that the release's Heat does not know yet. (A misspelt
/// one is `invalid-version`'s.)
fn template_version(cx: &Context<'_>, sink: &mut Sink<'_>, release: HeatRelease) {
    let VersionDecl::Valid { version, value, .. } = cx.template.version else {
        return;
    };
    let Some(arrived) = template_version_arrival(version).filter(|a| *a > release) else {
        return;
    };
    let newest = newest_template_version(release)
        .map(|v| format!("; the newest version it knows is `{v}`"))
        .unwrap_or_default();
    sink.report(
        cx.span(value),
        arrived_message(
            &format!("heat_template_version `{}`", cx.text(value).trim()),
            arrived,
            release,
        ),
    )
    .help(format!(
        "{} refuses the template: `The template version is invalid`{newest}",
        heat_of(release)
    ));
}

/// `` `OS::Neutron::Trunk` arrived in Heat 9.0.0 (pike), after ocata ``.
fn arrived_message(subject: &str, arrived: HeatRelease, release: HeatRelease) -> String {
    format!(
        "{subject} arrived in Heat {} ({arrived}), after {release}",
        arrived.heat_version(),
    )
}

/// `Heat 8.0.0 (ocata, as heat-release says)`.
fn heat_of(release: HeatRelease) -> String {
    format!(
        "Heat {} ({release}, as heat-release says)",
        release.heat_version()
    )
}

/// The written properties of one resource, followed into the nested maps their schemas have.
struct Walk<'a, 'c, 's> {
    cx: &'a Context<'c>,
    sink: &'a mut Sink<'s>,
    release: HeatRelease,
    type_name: &'a str,
    /// The names of the properties and nested keys that lead to the mapping being walked.
    path: Vec<&'a str>,
}

impl Walk<'_, '_, '_> {
    fn map(&mut self, schema: &'static BTreeMap<String, Schema>, node: NodeId) {
        let doc = self.cx.doc;
        for entry in doc.entries(node) {
            let Some(key) = doc.str_value(entry.key) else {
                continue;
            };
            // Keys the schema lacks are `unknown-property`'s.
            let Some(property) = schema.get(key) else {
                continue;
            };
            self.path.push(key);
            match property_arrival(self.type_name, &self.path, property) {
                Some(arrived) if arrived > self.release => self.report(entry.key, key, arrived),
                _ => self.value(property, entry.value),
            }
            self.path.pop();
        }
    }

    /// A property's value: a map with a schema is walked, and so is each map item of a list
    /// whose items have one; a value that is a call is resolved only by Heat.
    fn value(&mut self, property: &'static Schema, node: NodeId) {
        let cx = self.cx;
        if call_at(cx, node).is_some() {
            return;
        }
        let node = cx.doc.resolve(node);
        match &cx.doc.node(node).kind {
            NodeKind::Mapping { .. } if !property.schema.is_empty() => {
                self.map(&property.schema, node);
            }
            NodeKind::Sequence { items, .. } => {
                let Some(item) = property.items.as_deref().filter(|i| !i.schema.is_empty()) else {
                    return;
                };
                for &node in items {
                    if call_at(cx, node).is_some() {
                        continue;
                    }
                    let node = cx.doc.resolve(node);
                    if matches!(cx.doc.node(node).kind, NodeKind::Mapping { .. }) {
                        self.map(&item.schema, node);
                    }
                }
            }
            _ => {}
        }
    }

    fn report(&mut self, key_node: NodeId, key: &str, arrived: HeatRelease) {
        let release = self.release;
        let (what, help) = match self.path.as_slice() {
            [_] => (
                format!("`{key}` of {}", self.type_name),
                format!("{} refuses it: `Unknown Property {key}`", heat_of(release)),
            ),
            [.., parent, _] => (
                format!("`{key}` of `{parent}` in {}", self.type_name),
                format!(
                    "{} has no such key: `Unknown Property {key}`",
                    heat_of(release)
                ),
            ),
            [] => return,
        };
        self.sink
            .report(
                self.cx.span(key_node),
                arrived_message(&what, arrived, release),
            )
            .help(help);
    }
}

/// The attributes `get_attr` names, on resources of types the release has.
fn attributes(cx: &Context<'_>, sink: &mut Sink<'_>, release: HeatRelease) {
    let doc = cx.doc;
    for reference in &cx.semantic.references {
        let (RefKind::Attribute, Some(call)) = (reference.kind, reference.call) else {
            continue;
        };
        let Some(resource) = cx
            .template
            .resources
            .iter()
            .rev()
            .find(|r| r.name == reference.name)
        else {
            continue;
        };
        let Some(Registered {
            type_name,
            schema,
            alias: None,
            ..
        }) = registered_newest(cx, resource)
        else {
            continue;
        };
        // A type the release lacks is reported once, at its `type`; a type whose attributes
        // are computed at run time accepts any name when Heat validates the template.
        if type_arrival(schema).is_some_and(|a| a > release) || schema.dynamic_attributes {
            continue;
        }
        let args = cx.semantic.calls[call].args;
        let Some(&attribute_node) = doc.items(doc.resolve(args)).and_then(|items| items.get(1))
        else {
            continue;
        };
        let Some(name) = doc.str_value(attribute_node) else {
            continue;
        };
        let Some(attribute) = schema.attributes.get(name) else {
            continue;
        };
        let Some(arrived) = attribute_arrival(attribute).filter(|a| *a > release) else {
            continue;
        };
        sink.report(
            cx.span(attribute_node),
            arrived_message(&format!("`{name}` of {type_name}"), arrived, release),
        )
        .help(format!(
            "{} refuses it: `The Referenced Attribute ({} {name}) is incorrect.`",
            heat_of(release),
            resource.name
        ));
    }
}
