use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::{CallStatus, Function, Version};

use super::util::{NOT_IN_PLACE, is_parameter, is_resource, plain_call, rename};
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Rewrites `Ref: NAME` as `get_resource: NAME` when `NAME` is a resource of the template,
    /// and as `get_param: NAME` when it is a parameter (declared, or one of the pseudo
    /// parameters `OS::stack_name`, `OS::stack_id`, `OS::project_id`), when leaving
    /// 2013-05-23: 2014-10-16 removed `Ref`.
    ///
    /// ## Why is this bad?
    /// From 2014-10-16 Heat rejects the template: `The template version is invalid: The
    /// function Ref is not supported in this version of HOT.` In 2013-05-23 Heat turns `Ref`
    /// into `get_resource`'s own class when the stack has a resource of that name, and
    /// otherwise into a parameter lookup that returns what `get_param` returns: both rewrites
    /// are exact (Safe). A name that is neither a resource nor a parameter fails in Heat
    /// already (`The specified reference "NAME" (in unknown) is incorrect.`), and an argument
    /// that is not a literal name too; neither is rewritten, so the upgrade stops there until
    /// the name is fixed or the parameter declared.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// parameters:
    ///   flavor: {type: string, default: m1.small}
    /// resources:
    ///   port: {type: OS::Neutron::Port, properties: {network: private}}
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       flavor: {Ref: flavor}
    ///       image: cirros
    ///       networks: [{port: {Ref: port}}]
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2014-10-16
    /// parameters:
    ///   flavor: {type: string, default: m1.small}
    /// resources:
    ///   port: {type: OS::Neutron::Port, properties: {network: private}}
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       flavor: {get_param: flavor}
    ///       image: cirros
    ///       networks: [{port: {get_resource: port}}]
    /// ```
    pub(crate) static RULE = {
        code: "U101",
        name: "ref",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::Ref) {
            continue;
        }
        let Some(name) = doc.str_value(call.args) else {
            sink.report(
                cx.span(call.key),
                format!(
                    "`Ref` is removed in {}, and this one does not name anything",
                    ucx.to
                ),
            )
            .help(
                "Heat only accepts a literal name in `Ref` (anything else fails with \
                 `unhashable type`): write `get_resource: NAME` for a resource or \
                 `get_param: NAME` for a parameter",
            );
            continue;
        };
        let (function, what) = if is_resource(cx.template, name) {
            ("get_resource", "a resource")
        } else if is_parameter(cx.template, name) {
            ("get_param", "a parameter")
        } else {
            let diagnostic = sink.report(
                cx.span(call.key),
                format!(
                    "`Ref` is removed in {}, and `{name}` is neither a resource nor a parameter",
                    ucx.to
                ),
            );
            diagnostic.label(cx.span(call.args), "not defined in this template");
            let hint = match name {
                "AWS::StackName" => " (the HOT pseudo parameter is `OS::stack_name`)",
                "AWS::StackId" => " (the HOT pseudo parameter is `OS::stack_id`)",
                _ => "",
            };
            diagnostic.help(format!(
                "Heat already fails here (`The specified reference \"{name}\" (in unknown) is \
                 incorrect.`): declare a parameter `{name}` or correct the name{hint}, then \
                 upgrade again"
            ));
            continue;
        };
        let diagnostic = sink.report(cx.span(call.key), format!("`Ref` is removed in {}", ucx.to));
        let help = format!("`{name}` is {what}: `{function}: {name}` gives the same value");
        let Some(edit) = plain_call(doc, call)
            .then(|| rename(doc, call.key, function))
            .flatten()
        else {
            diagnostic.help(format!("{help}; {NOT_IN_PLACE}"));
            continue;
        };
        diagnostic.help(help).fix(Fix {
            message: format!("Replace `Ref` with `{function}`"),
            edits: vec![edit],
            applicability: Applicability::Safe,
        });
    }
}
