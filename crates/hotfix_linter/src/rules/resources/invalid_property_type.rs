use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::property_values::{self, Kind};

declare_rule! {
    /// ## What it does
    /// Checks that every literal property value of a resource (of a type of Heat's registry)
    /// is of the property's type, or one Heat converts to it, recursively into the nested
    /// schemas of lists and maps. Heat's conversions are followed exactly:
    ///
    /// - a string property takes a string, and also an integer or a boolean (`1` becomes `"1"`,
    ///   `true` becomes `"True"`), but not a float, a list or a map;
    /// - an integer property takes an integer, a string Python's `int()` reads (`"10"`), a
    ///   boolean, or a float (truncated);
    /// - a number property takes a number, a boolean, or a string of one (`"1.5"`, `"1e3"`);
    /// - a boolean property takes `true`/`false` or the strings `"true"`/`"false"` in any case,
    ///   and nothing else: not `1`, not `"yes"` (a plain `yes` is YAML's `true`);
    /// - a list property takes a list, a map property a map (some take a string Heat converts).
    ///
    /// The values of a resource's `update_policy` are checked the same way against the
    /// type's update policies (`max_batch_size` of a group's `rolling_update` is an integer),
    /// also where a bare `get_param`'s default gives them. A deprecated property that Heat's
    /// translation rules move into the current one (`network_id` into `network`, `sequence`
    /// into `character_classes`) is converted to its own type when Heat translates it.
    ///
    /// A value given by a function is checked when it evaluates offline from literals and
    /// parameter defaults, evaluated as Heat evaluates it in the template's version (`list_join`
    /// and `str_replace` of literals, `str_split` of a literal, `get_param` of a parameter with
    /// a default, and any function of those): a value from literals alone is what Heat computes
    /// whatever the stack's inputs; one that uses a default names the parameter, since a value
    /// given for it at create time changes the result, and is not checked in a resource with a
    /// `condition` (with the defaults it may not be created). A computed list's items and a
    /// computed map's known keys are checked against their nested schemas. A bare `get_param`
    /// whose default cannot be converted is `get-param-type-mismatch`'s. Other functions (a
    /// resource's attribute, a file, a condition, a parameter without a default) are not
    /// checked; the literal items around them are.
    ///
    /// ## Why is this bad?
    /// `openstack orchestration template validate` accepts the template, but Heat refuses the
    /// stack when it creates it: `Property error: resources.volume.properties.size: Value 'ten'
    /// is not an integer`. A value in `update_policy` is refused when Heat validates the
    /// template.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   net:
    ///     type: OS::Neutron::Net
    ///     properties:
    ///       admin_state_up: 1
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   net:
    ///     type: OS::Neutron::Net
    ///     properties:
    ///       admin_state_up: true
    /// ```
    pub(crate) static RULE = {
        code: "H614",
        name: "invalid-property-type",
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
        if problem.kind == Kind::Type {
            sink.report(cx.span(problem.node), problem.message.clone())
                .help(problem.help.clone());
        }
    }
}
