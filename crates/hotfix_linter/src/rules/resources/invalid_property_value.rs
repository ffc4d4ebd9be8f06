use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::property_values::{self, Kind};

declare_rule! {
    /// ## What it does
    /// Checks every literal property value of a resource (of a type of Heat's registry) against
    /// the constraints of its property, after Heat's conversion to the property's type:
    /// allowed values, ranges, lengths, steps (modulo) and allowed patterns, recursively into
    /// the nested schemas of lists and maps (`hotfix type OS::Neutron::SecurityGroupRule` lists
    /// them). So are the values of a resource's `update_policy` (a group's `max_batch_size` is
    /// at least 1), which Heat refuses when it validates the template.
    ///
    /// A value given by a function is checked when it evaluates offline from literals and
    /// parameter defaults, evaluated as Heat evaluates it in the template's version (`list_join`
    /// and `str_replace` of literals, `get_param` of a parameter with a default, and any function
    /// of those): a value from literals alone is what Heat computes whatever the stack's
    /// inputs; one that uses a default names the parameter, since a value given for it at create
    /// time changes the result, and is not checked in a resource with a `condition` (with the
    /// defaults it may not be created). A computed list's items and a computed map's known keys
    /// are checked against their nested schemas (not the keys of a map whose property a
    /// translation rule rewrites).
    ///
    /// Not checked: the constraints that ask the cloud (`nova.flavor`, `glance.image`, …);
    /// values given by other functions (a resource's attribute, a file, a condition, a parameter
    /// without a default); the length and allowed values of a list or map that holds a function
    /// call. When a property's value depends on a resource (a `get_resource` or
    /// `get_attr` somewhere in it), `openstack orchestration template validate` skips its
    /// checks, but Heat runs them just before it creates the resource, so its literal parts
    /// are checked here all the same.
    ///
    /// ## Why is this bad?
    /// Heat refuses the stack when it creates it, e.g. `Property error:
    /// resources.rule.properties.direction: "inbound" is not an allowed value ["ingress",
    /// "egress"]`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   rule:
    ///     type: OS::Neutron::SecurityGroupRule
    ///     properties:
    ///       security_group: default
    ///       direction: inbound
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   rule:
    ///     type: OS::Neutron::SecurityGroupRule
    ///     properties:
    ///       security_group: default
    ///       direction: ingress
    /// ```
    pub(crate) static RULE = {
        code: "H615",
        name: "invalid-property-value",
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
        if problem.kind == Kind::Constraint {
            sink.report(cx.span(problem.node), problem.message.clone())
                .help(problem.help.clone());
        }
    }
}
