use hotfix_hot::resource_types::Status;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    Registered, earlier_statuses, mapping_resources, registered_resources,
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
    pub(crate) static RULE = {
        code: "H611",
        name: "deprecated-resource-type",
        severity: Warning,
        fix: None,
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
        let advice = match status.chain().find_map(|s| s.substitute.as_deref()) {
            Some(substitute) => format!("use `{substitute}`, which Heat names as its replacement"),
            None if schema.none_resource => {
                "remove it, or use the type of the service that replaced it".to_owned()
            }
            None => "plan its replacement: `hotfix types` lists the supported types".to_owned(),
        };
        sink.report(cx.span(type_node), message)
            .help(format!("{advice}{}", earlier_statuses(status)));
    }
}
