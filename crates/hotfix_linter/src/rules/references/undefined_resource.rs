use hotfix_hot::RefKind;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::references::shared::{
    Paths, by_name, in_output_value, section_usable, with_heat,
};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every `get_resource`, `get_attr` (its first argument) and `depends_on` names
    /// a resource of the template.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template, e.g. `The specified reference "nope" (in r) is incorrect.`
    /// for a `depends_on`, `The specified reference "nope" (in r.Properties.value) is
    /// incorrect.` for a reference in a resource's properties, and
    /// `outputs.o.value.get_attr: The specified reference "nope" (in unknown) is incorrect.`
    /// for a `get_attr` in an output. A `get_resource` in an output's value is only found when
    /// the output is shown, so the stack is created with an output that always fails: that
    /// finding is a warning.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// resources:
    ///   network: {type: OS::Neutron::Net}
    ///   subnet:
    ///     type: OS::Neutron::Subnet
    ///     properties:
    ///       network: {get_resource: netwrok}
    ///       cidr: 10.0.0.0/24
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// resources:
    ///   network: {type: OS::Neutron::Net}
    ///   subnet:
    ///     type: OS::Neutron::Subnet
    ///     properties:
    ///       network: {get_resource: network}
    ///       cidr: 10.0.0.0/24
    /// ```
    pub(crate) static RULE = {
        code: "H302",
        name: "undefined-resource",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() || !section_usable(cx, "resources") {
        return;
    }
    let resources = by_name(&cx.template.resources);
    let parameters: std::collections::HashSet<&str> = cx
        .template
        .parameters
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    let mut paths = Paths::new(cx);
    for reference in &cx.semantic.references {
        // Heat resolves nothing in a resource it never creates, and ignores its `depends_on`.
        // Nor anything in an output whose condition is certainly false (not even validated).
        if crate::rules::util::in_never_created(cx, reference.owner)
            || crate::rules::util::output_never_shown(cx, reference.owner)
        {
            continue;
        }
        let what = match reference.kind {
            RefKind::Resource => "`get_resource` refers to",
            RefKind::Attribute => "`get_attr` refers to",
            RefKind::DependsOn => "`depends_on` names",
            _ => continue,
        };
        let name = reference.name.as_str();
        if resources.contains_key(name) {
            continue;
        }
        let heat = paths.missing_resource_error(reference);
        let shown = reference.kind == RefKind::Resource && in_output_value(reference);
        let when = if shown {
            " (only when the output is shown: `template validate` and stack create accept it)"
        } else {
            ""
        };
        let advice = match did_you_mean(name, cx.template.resources.iter().map(|r| r.name.as_str()))
        {
            Some(suggestion) => format!("did you mean `{suggestion}`?"),
            None if reference.kind == RefKind::Resource && parameters.contains(name) => {
                format!("`{name}` is a parameter: use `get_param` to refer to it")
            }
            None => format!("define a resource `{name}` or refer to an existing one"),
        };
        let finding = sink
            .report(
                cx.span(reference.node),
                format!("{what} `{name}`, which is not a resource of this template"),
            )
            .help(with_heat(&advice, &format!("Heat: `{heat}`{when}")));
        if shown {
            finding.severity = hotfix_diagnostics::Severity::Warning;
        }
    }
}
