use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::heat_release::type_arrival;
use hotfix_hot::resource_types::{self, ResourceType, Status};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    Registered, deprecated_since, earlier_statuses, mapping_resources, registered_resources,
    replace_scalar,
};

declare_rule! {
    /// ## What it does
    /// Reports a resource whose type Heat has deprecated, hidden or removed, as Heat's registry
    /// records it (`hotfix types`).
    ///
    /// ## Why is this bad?
    /// - A removed type that Heat keeps as a placeholder (`OS::Glance::Image`,
    ///   `OS::Designate::Record`, the old load balancer types, …) is accepted with any property, and
    ///   Heat creates nothing for it: the template deploys, without the resource it describes.
    /// - A hidden type still works, but Heat no longer lists or documents it, and it is the step
    ///   before removal.
    /// - A deprecated type works, and will be hidden, then removed.
    ///
    /// - An old name Heat no longer registers (`OS::Ceilometer::Alarm`, `OS::Quantum::Net`) works
    ///   only on a cloud that installs Heat's default environment
    ///   (`/etc/heat/environment.d/default.yaml`, shipped with Heat), which maps it onto the
    ///   current type; elsewhere Heat refuses it: `The Resource Type (OS::Ceilometer::Alarm)
    ///   could not be found.` Most installations have that file, so this is a warning, not an
    ///   error; the help names the type to write instead.
    ///
    /// Heat names a replacement for some (`OS::Heat::SoftwareDeployments` →
    /// `OS::Heat::SoftwareDeploymentGroup`); the help gives it.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   image:
    ///     type: OS::Glance::Image
    ///     properties:
    ///       location: https://example.com/cirros.img
    ///       disk_format: qcow2
    ///       container_format: bare
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   image:
    ///     type: OS::Glance::WebImage
    ///     properties:
    ///       location: https://example.com/cirros.img
    ///       disk_format: qcow2
    ///       container_format: bare
    /// ```
    ///
    /// ## Fix safety
    /// Where Heat names a replacement with the same properties, attributes and update policy
    /// (`OS::Heat::SoftwareDeployments` → `OS::Heat::SoftwareDeploymentGroup`,
    /// `OS::Heat::StructuredDeployments` → `OS::Heat::StructuredDeploymentGroup`,
    /// `OS::Magnum::BayModel` → `OS::Magnum::ClusterTemplate`), the fix changes the type, and is
    /// unsafe: Heat reads the resource's properties the same way, but a stack update sees
    /// another type. Where the type's current status names the replacement (the two deployment
    /// types), Heat's update switches the existing resource to it in place; where only an
    /// earlier status does (`OS::Magnum::BayModel`), Heat's update replaces the resource: it
    /// creates the new one and deletes the old. A new stack is the same either way. No fix is
    /// offered for a removed type Heat keeps as a placeholder: the help quotes Heat's message,
    /// which names the replacement where there is one (`OS::Designate::Zone` for
    /// `OS::Designate::Domain`, Octavia for the `OS::Neutron::LBaaS` types), or says the
    /// service was retired (Sahara, Senlin, Monasca).
    pub(crate) static RULE = {
        code: "H611",
        name: "deprecated-resource-type",
        severity: Warning,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let types = cx.resource_types();
    for resource in mapping_resources(cx) {
        let Some(type_node) = cx.template.field(resource, "type") else {
            continue;
        };
        let Some(name) = cx.doc.str_value(type_node) else {
            continue;
        };
        if types.get(name).is_some() {
            continue;
        }
        let Some(target) = types.default_environment_target(name) else {
            continue;
        };
        let heat = types.heat_version();
        let target_status = types
            .get(&target)
            .map(|t| &t.support_status)
            .filter(|s| s.status != Status::Supported)
            .map(|s| format!(", itself {s}"))
            .unwrap_or_default();
        sink.report(
            cx.span(type_node),
            format!(
                "`{name}` is not a type of Heat {heat}: only Heat's default environment maps it, \
                 onto `{target}`"
            ),
        )
        .help(format!(
            "write `{target}`{target_status}; a cloud without /etc/heat/environment.d/default.yaml \
             refuses `{name}`: `The Resource Type ({name}) could not be found.`"
        ));
    }
    for Registered {
        type_node,
        type_name: name,
        schema,
        alias,
        ..
    } in registered_resources(cx)
    {
        // An alias is reported above, with the status of the type it stands for.
        if alias.is_some() {
            continue;
        }
        let status = &schema.support_status;
        let heat = cx.resource_types().heat_version();
        let message = match status.status {
            Status::Hidden if schema.none_resource => format!(
                "`{name}` was removed from Heat ({status}): Heat {heat} accepts any property for \
                 it and creates nothing"
            ),
            Status::Hidden => {
                format!("`{name}` is {status}: Heat {heat} still runs it, but no longer lists it")
            }
            Status::Deprecated => format!("`{name}` is {status}"),
            Status::Supported | Status::Unsupported | Status::Unknown => continue,
        };
        let (advice, twin) = advice(schema);
        // With a Heat release named, a fix only where the type is deprecated there already and
        // the substitute has arrived.
        let twin = twin.filter(|t| {
            cx.heat_release.is_none_or(|release| {
                let deprecated = deprecated_since(status);
                let arrived = resource_types::all().get(t).and_then(type_arrival);
                deprecated.is_none_or(|d| d <= release) && arrived.is_none_or(|a| a <= release)
            })
        });
        let diagnostic = sink
            .report(cx.span(type_node), message)
            .help(format!("{advice}{}", earlier_statuses(status)));
        let Some(twin) = twin else {
            continue;
        };
        if let Some(edit) = replace_scalar(cx, type_node, twin) {
            diagnostic.fix(Fix {
                message: format!("Change the type to `{twin}`"),
                edits: vec![edit],
                applicability: Applicability::Unsafe,
            });
        }
    }
}

/// Whether Heat's substitute type has the same properties, attributes and update policy as the
/// type (`OS::Heat::SoftwareDeployments` and `OS::Heat::SoftwareDeploymentGroup`): a template
/// written for one means the same to the other.
fn same_schema(old: &ResourceType, new: Option<&ResourceType>) -> bool {
    let Some(new) = new else {
        return false;
    };
    let json = |t: &ResourceType| {
        (
            serde_json::to_value(&t.properties).ok(),
            serde_json::to_value(&t.attributes).ok(),
            serde_json::to_value(&t.update_policy).ok(),
        )
    };
    if new.none_resource {
        return false;
    }
    let old = json(old);
    old.0.is_some() && old == json(new)
}

/// What to do with a resource of the deprecated type `schema`, with Heat's own message where
/// it names no substitute; and the substitute a fix may write, where it has the same schema.
fn advice(schema: &'static ResourceType) -> (String, Option<&'static str>) {
    let status = &schema.support_status;
    let substitute = status.chain().find_map(|s| s.substitute.as_deref());
    let twin = substitute.filter(|s| same_schema(schema, resource_types::all().get(s)));
    let advice = match (substitute, twin) {
        (Some(substitute), Some(_)) if status.substitute.as_deref() == Some(substitute) => {
            format!(
                "use `{substitute}`, which Heat names as its replacement: the same \
         properties and attributes, and a stack update switches the resource to it \
         in place"
            )
        }
        (Some(substitute), Some(_)) => format!(
            "use `{substitute}`, which Heat names as its replacement: the same properties \
     and attributes, but a stack update replaces the resource (Heat switches in \
     place only to the substitute its current status names)"
        ),
        (Some(substitute), None) => {
            format!("use `{substitute}`, which Heat names as its replacement")
        }
        (None, _) if schema.none_resource => {
            "remove it, or use the type of the service that replaced it".to_owned()
        }
        (None, _) => "plan its replacement: `hotfix types` lists the supported types".to_owned(),
    };
    // Heat's message, where it names no substitute (which the advice already gives).
    let heat_says = status
        .chain()
        .find_map(|s| s.message.as_deref())
        .filter(|_| substitute.is_none())
        .map(|m| format!("; Heat: `{}`", m.trim()))
        .unwrap_or_default();
    (format!("{advice}{heat_says}"), twin)
}
