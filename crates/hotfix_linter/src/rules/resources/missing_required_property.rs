use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::property_values::{self, Kind};

declare_rule! {
    /// ## What it does
    /// Checks that a resource of a type of Heat's registry gives every property the type
    /// requires (`hotfix type OS::Cinder::VolumeAttachment` marks them), and every required key
    /// of the nested maps it writes (each item of `OS::Neutron::Port`'s `allowed_address_pairs`
    /// needs `ip_address`).
    ///
    /// A property given by a function (`get_param`, `get_attr`, `if`, …) counts as given, and
    /// so does one that Heat fills from a deprecated property through a translation rule
    /// (`network_id` for `network`). A type that Heat's default environment maps onto a
    /// registered one (`OS::Ceilometer::Alarm` → `OS::Aodh::Alarm`) is checked as that type, and
    /// so is one the stack's environments map onto a registered one (`My::Port:
    /// OS::Neutron::Port`; without `-e`, when the closest environments agree). Not
    /// checked: an external resource (with an `external_id`), which Heat adopts without looking
    /// at its properties.
    ///
    /// ## Why is this bad?
    /// `openstack orchestration template validate` accepts the template, but Heat refuses the
    /// stack when it creates it: `Property error: resources.attachment.properties: Property
    /// volume_id not assigned`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   attachment:
    ///     type: OS::Cinder::VolumeAttachment
    ///     properties:
    ///       instance_uuid: {get_resource: server}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   attachment:
    ///     type: OS::Cinder::VolumeAttachment
    ///     properties:
    ///       instance_uuid: {get_resource: server}
    ///       volume_id: {get_resource: volume}
    /// ```
    pub(crate) static RULE = {
        code: "H613",
        name: "missing-required-property",
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
        if problem.kind == Kind::Missing {
            sink.report(cx.span(problem.node), problem.message.clone())
                .help(problem.help.clone());
        }
    }
}
