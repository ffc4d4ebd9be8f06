use hotfix_stack::Knowledge;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::crossfile::{heat_has, is_template_path};
use crate::rules::resources::shared::group_member;

declare_rule! {
    /// ## What it does
    /// Checks that a resource's `type` outside Heat's own namespaces (`My::Server`,
    /// `OS::TripleO::Compute`) is mapped by an environment's `resource_registry`: by the
    /// environments given with `-e` or a `[[stacks]]` entry, as Heat merges them; without them,
    /// by some environment of the tree (or named in a `*.j2.yaml` environment source, which a
    /// deployment renders). So is the type of the member of an `OS::Heat::ResourceGroup`
    /// (`resource_def`) or an `OS::Heat::AutoScalingGroup` (`resource`), which Heat looks up
    /// when it creates the stack (unless the group has no member, or an environment's
    /// `resources` section names the group).
    ///
    /// `unknown-resource-type` (H608) checks the types of Heat's own namespaces. Not checked: a
    /// resource with a `condition`; a template of a tree where the run found no environment
    /// file (its environments are elsewhere); a tree too large to read whole. In a run over
    /// several folders outside one project, each is its own tree, as when linted alone.
    ///
    /// ## Why is this bad?
    /// Heat refuses the stack: `The Resource Type (My::Server) could not be found.`
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: My::Servr
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: My::Server
    /// ```
    pub(crate) static RULE = {
        code: "X007",
        name: "unmapped-resource-type",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let Some(registry) = cx.files.and_then(|f| f.registry) else {
        return;
    };
    let mut registry_built = None;
    for (type_name, at, resource, member) in &written_types(cx) {
        let (type_name, at) = (type_name.as_str(), *at);
        if type_name.is_empty()
            || is_template_path(type_name)
            || heat_has(type_name)
            || in_heats_namespace(type_name)
        {
            continue;
        }
        let registry = *registry_built.get_or_insert_with(|| registry.get());
        let knowledge = registry.knowledge();
        if knowledge == Some(Knowledge::Tree)
            && (registry.is_incomplete() || registry.environments().is_empty())
        {
            return;
        }
        // A member is looked up in the group's nested stack, under its own name: what the
        // `resources` section says of the group is that stack's registry.
        let mapped = if *member {
            registry.names_resource(&resource.name)
                || !registry.lookup(type_name, None, &heat_has).is_empty()
        } else {
            !registry
                .lookup(type_name, Some(&resource.name), &heat_has)
                .is_empty()
        };
        if mapped {
            continue;
        }
        // The entry that maps it (to a type that leads nowhere), when one does: its own, else
        // a glob's (`"OS::Networking::*": "OS::Heat::*"` maps `OS::Networking::Port` to
        // `OS::Heat::Port`).
        let entries = || {
            registry
                .environments()
                .iter()
                .flat_map(|e| e.entries.iter())
                .filter(|e| e.path.len() == 1)
        };
        let own = entries()
            .filter(|e| &*e.path[0] == type_name)
            .filter_map(|e| e.value.as_deref().map(str::to_owned))
            .next_back();
        let alias = own.or_else(|| {
            entries()
                .filter_map(|e| {
                    let prefix = e.path[0].strip_suffix('*')?;
                    let rest = type_name.strip_prefix(prefix)?;
                    let value = e.value.as_deref()?;
                    let to = match value.strip_suffix('*') {
                        Some(stem) => format!("{stem}{rest}"),
                        None => value.to_owned(),
                    };
                    (to != type_name).then_some(to)
                })
                .next_back()
        });
        let by = match knowledge {
            Some(Knowledge::Given) => "the environments given do not map it",
            _ => "no environment of the tree maps it",
        };
        let by = match alias {
            None => by.to_owned(),
            Some(_) => by.replace(" it", " that"),
        };
        let mapped = registry.mapped_names().iter();
        let message = match alias {
            Some(to) => {
                format!("`{type_name}` is mapped to `{to}`, which is not a type Heat has, and {by}")
            }
            None => format!("`{type_name}` is not a type Heat has, and {by}"),
        };
        let diagnostic = sink.report(cx.span(at), message);
        let when = if *member {
            " (for a group's member, when it creates the stack)"
        } else {
            ""
        };
        let heat = format!("Heat{when}: `The Resource Type ({type_name}) could not be found.`");
        match crate::rules::util::did_you_mean(type_name, mapped.map(|name| &**name)) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
            None => diagnostic.help(format!(
                "map it in an environment's `resource_registry` (`{type_name}: file.yaml`); a \
                 type a plugin installed in your cloud's Heat provides is one hotfix cannot \
                 know: leave the rule out there (`[per-file-ignores]`, `# hotfix: \
                 ignore-file[X007]`); stock {heat}"
            )),
        };
    }
}

/// Whether the type is in a namespace of Heat's own types (`OS::Nova` of `OS::Nova::Servr`),
/// which `unknown-resource-type` checks.
/// Each resource's type, and the type of each group's member (which Heat looks up when it
/// creates the stack, in the group's nested stack), but those of a resource with a
/// `condition`: the type, the node it is written at, the resource (whose name the registry's
/// `resources` section may name), and whether it is a member's.
fn written_types<'c>(
    cx: &'c Context<'_>,
) -> Vec<(String, hotfix_yaml::NodeId, &'c hotfix_hot::Named, bool)> {
    let mut written = Vec::new();
    for resource in &cx.template.resources {
        if cx.doc.get(resource.value, "condition").is_some() {
            continue;
        }
        if let Some(type_name) = cx.template.resource_type(resource)
            && let Some(at) = cx.template.field(resource, "type")
        {
            written.push((type_name.to_owned(), at, resource, false));
        }
        if let Some(member) = group_member(cx, resource) {
            written.push((member.type_name, member.type_node, resource, true));
        }
    }
    written
}

fn in_heats_namespace(name: &str) -> bool {
    static NAMESPACES: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    let Some((namespace, _)) = name.rsplit_once("::") else {
        return false;
    };
    NAMESPACES
        .get_or_init(|| {
            hotfix_hot::resource_types::all()
                .iter()
                .filter_map(|(t, _)| Some(t.rsplit_once("::")?.0))
                .collect()
        })
        .contains(namespace)
}
