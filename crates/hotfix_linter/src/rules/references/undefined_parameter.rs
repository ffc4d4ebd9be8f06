use hotfix_diagnostics::Severity;
use hotfix_hot::{Owner, PSEUDO_PARAMETERS, RefKind};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::references::shared::{
    by_name, in_output_value, section_usable, used_conditions, with_heat,
};
use crate::rules::util::did_you_mean;
use crate::rules::util::in_never_created;

declare_rule! {
    /// ## What it does
    /// Checks that every `get_param` names a parameter the template declares, or one of the
    /// pseudo parameters Heat provides: `OS::stack_name`, `OS::stack_id`, `OS::project_id`.
    /// In 2013-05-23 it also checks that every `Ref` names a resource or a parameter.
    ///
    /// ## Why is this bad?
    /// Heat fails when it resolves the value: `The Parameter (nope) was not provided.` (for
    /// `Ref`: `The specified reference "nope" (in unknown) is incorrect.`). In a resource this
    /// only happens when the stack is created: `openstack orchestration template validate`
    /// accepts the template. In a condition, only once something uses the condition: in one
    /// that nothing uses, the finding is a warning (Heat accepts the template as it is). In an
    /// output's value, only when the output is shown: Heat creates the stack, and the output
    /// is that error whenever it is read; the finding is a warning. `OS::region` is not a
    /// pseudo parameter Heat provides: `get_param: OS::region` fails the same way.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   flavor: {type: string}
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       flavor: {get_param: flavour}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   flavor: {type: string}
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       flavor: {get_param: flavor}
    /// ```
    pub(crate) static RULE = {
        code: "H301",
        name: "undefined-parameter",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// The pseudo parameters of CFN templates, and what HOT offers instead.
const CFN_PSEUDO: [(&str, Option<&str>); 3] = [
    ("AWS::StackName", Some("OS::stack_name")),
    ("AWS::StackId", Some("OS::stack_id")),
    ("AWS::Region", None),
];

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() || !section_usable(cx, "parameters") {
        return;
    }
    let parameters = by_name(&cx.template.parameters);
    let resources = by_name(&cx.template.resources);
    let declared = |name: &str| PSEUDO_PARAMETERS.contains(&name) || parameters.contains_key(name);
    let parameter_names = || {
        cx.template
            .parameters
            .iter()
            .map(|p| p.name.as_str())
            .chain(PSEUDO_PARAMETERS)
    };
    let used_conditions = used_conditions(cx);
    for reference in &cx.semantic.references {
        // Heat resolves nothing in a resource it never creates.
        // Nor anything in an output whose condition is certainly false (not even validated).
        if in_never_created(cx, reference.owner)
            || crate::rules::util::output_never_shown(cx, reference.owner)
        {
            continue;
        }
        let name = reference.name.as_str();
        match reference.kind {
            RefKind::Parameter if !declared(name) => {
                let unused = match reference.owner {
                    Owner::Condition(i) => !used_conditions[i],
                    _ => false,
                };
                let output = in_output_value(reference);
                let when = if output {
                    "only when the output is shown: `template validate` and stack create accept \
                     the template"
                } else if unused {
                    "as soon as a resource, output or `if` uses this condition; nothing does \
                     yet, so Heat accepts the template"
                } else if matches!(reference.owner, Owner::Condition(_)) {
                    "as soon as a resource, output or `if` uses this condition"
                } else {
                    "only when the stack is created; `template validate` does not find it"
                };
                let heat = format!("Heat: `The Parameter ({name}) was not provided.` ({when})");
                let advice = advice(name, parameter_names()).unwrap_or_else(|| {
                    if resources.contains_key(name) {
                        format!(
                            "`{name}` is a resource: use `get_resource` (or `get_attr`) to refer \
                             to it, or declare a parameter"
                        )
                    } else {
                        format!("declare `{name}` under `parameters`")
                    }
                });
                let finding = sink
                    .report(
                        cx.span(reference.node),
                        format!("`get_param` names `{name}`, which is not a declared parameter"),
                    )
                    .help(with_heat(&advice, &heat));
                if unused || output {
                    finding.severity = Severity::Warning;
                }
            }
            RefKind::CfnRef if !declared(name) && !resources.contains_key(name) => {
                if !section_usable(cx, "resources") {
                    continue;
                }
                let resources = cx.template.resources.iter().map(|r| r.name.as_str());
                let advice = advice(name, parameter_names().chain(resources))
                    .unwrap_or_else(|| format!("declare `{name}` as a parameter or a resource"));
                let output = in_output_value(reference);
                let finding = sink
                    .report(
                        cx.span(reference.node),
                        format!(
                            "`Ref` names `{name}`, which is neither a resource nor a parameter"
                        ),
                    )
                    .help(with_heat(
                        &advice,
                        &format!(
                            "Heat: `The specified reference \"{name}\" (in unknown) is \
                             incorrect.` ({})",
                            if output {
                                "only when the output is shown: `template validate` and stack \
                                 create accept the template"
                            } else {
                                "only when the stack is created"
                            }
                        ),
                    ));
                if output {
                    finding.severity = Severity::Warning;
                }
            }
            _ => {}
        }
    }
}

/// What to do about an unknown name, when there is more to say than "declare it".
fn advice<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<String> {
    if name == "OS::region" {
        return Some(
            "Heat provides no `OS::region` pseudo parameter (only `OS::stack_name`, \
                `OS::stack_id` and `OS::project_id`); declare a parameter for the region"
                .to_owned(),
        );
    }
    if let Some((_, hot)) = CFN_PSEUDO.iter().find(|(cfn, _)| *cfn == name) {
        return Some(match hot {
            Some(hot) => format!("`{name}` exists only in CloudFormation templates; use `{hot}`"),
            None => format!(
                "`{name}` exists only in CloudFormation templates; declare a parameter for it"
            ),
        });
    }
    did_you_mean(name, candidates).map(|suggestion| format!("did you mean `{suggestion}`?"))
}
