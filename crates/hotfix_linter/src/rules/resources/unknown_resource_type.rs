use std::collections::BTreeSet;

use hotfix_yaml::{NodeId, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{group_member, mapping_resources, type_arrives_later};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that a resource's `type` is a type Heat registers, when it is in a namespace
    /// Heat owns (`OS::Nova::…`, `AWS::EC2::…`: the first two parts of a registered type).
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `The Resource Type (OS::Nova::Servr) could not be found.`
    /// The types are those of Heat's own registry (`hotfix types`), which hotfix carries.
    ///
    /// Not reported: a template file (`type: server.yaml`, any name ending in `.yaml` or
    /// `.template`, which Heat loads as a nested stack), a type in a namespace Heat does not
    /// own (`OS::TripleO::Controller`, `My::Server`), which an environment's
    /// `resource_registry` maps, and a type that Heat's default environment maps
    /// (`OS::Quantum::Net`, see `hotfix types`).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server:
    ///     type: OS::Nova::Servr
    ///     properties:
    ///       flavor: m1.small
    ///       image: cirros
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
    /// ```
    pub(crate) static RULE = {
        code: "H608",
        name: "unknown-resource-type",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    let mut namespaces: Option<BTreeSet<&str>> = None;
    // Each resource's type, and the member type of each resource group (which Heat looks up
    // when it validates the group before a stack create).
    let mut types_written: Vec<(NodeId, bool)> = Vec::new();
    for resource in mapping_resources(cx) {
        // Heat never looks up the type of a resource it never creates.
        if cx.never_created(resource) {
            continue;
        }
        if let Some(ty) = cx.template.field(resource, "type") {
            types_written.push((ty, false));
        }
        if let Some(member) = group_member(cx, resource) {
            types_written.push((member.type_node, true));
        }
    }
    for (ty, member) in types_written {
        let Some(scalar) = doc.scalar(ty) else {
            continue;
        };
        if scalar.value != ScalarValue::Str {
            continue;
        }
        let name: &str = &scalar.text;
        let types = cx.resource_types();
        #[allow(
            clippy::case_sensitive_file_extension_comparisons,
            reason = "Heat's test: `resource_type.endswith(('.yaml', '.template'))`"
        )]
        let template_file = name.ends_with(".yaml") || name.ends_with(".template");
        if name.is_empty()
            || template_file
            || types.get(name).is_some()
            || types.default_environment_target(name).is_some()
            || type_arrives_later(cx, name)
        {
            continue;
        }
        let namespaces = namespaces
            .get_or_insert_with(|| types.iter().filter_map(|(t, _)| namespace(t)).collect());
        if !namespace(name).is_some_and(|ns| namespaces.contains(ns)) {
            continue;
        }
        // An environment may map a type of Heat's namespaces too (to a template, or to another
        // type); `unmapped-resource-type` (X007) checks what the environments map.
        if let Some(registry) = cx.files.and_then(|f| f.registry)
            && !registry.get().lookup(name, None, &|_| false).is_empty()
        {
            continue;
        }
        let visible = types
            .iter()
            .filter(|(_, t)| !t.is_hidden())
            .map(|(name, _)| name);
        let diagnostic = sink.report(
            cx.span(ty),
            format!(
                "`{name}` is not a resource type of Heat {}",
                types.heat_version()
            ),
        );
        let when = if member {
            " (for a group's member, when it creates the stack)"
        } else {
            ""
        };
        let heat = format!("Heat{when}: `The Resource Type ({name}) could not be found.`");
        match did_you_mean(name, visible) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
            None => diagnostic.help(format!("`hotfix types` lists the types; {heat}")),
        };
    }
}

/// `OS::Nova` of `OS::Nova::Server`: every part but the last, when there are three or more.
fn namespace(name: &str) -> Option<&str> {
    let (namespace, last) = name.rsplit_once("::")?;
    (!last.is_empty() && namespace.contains("::")).then_some(namespace)
}
