use hotfix_hot::{CallStatus, Function, Version};

use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Reports `Fn::MemberListToMap` when leaving 2013-05-23: 2014-10-16 removed it, and no
    /// HOT function does the same. The upgrade stops at 2013-05-23 until it is replaced by
    /// hand.
    ///
    /// ## Why is this bad?
    /// From 2014-10-16 Heat rejects the template: `The template version is invalid: The
    /// function Fn::MemberListToMap is not supported in this version of HOT.` It turns
    /// CloudFormation's `.member.N.Name=key`/`.member.N.Value=value` lists into a map. HOT
    /// templates take maps directly: write the map itself, or pass it in a `json` parameter.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// outputs:
    ///   tags:
    ///     value:
    ///       Fn::MemberListToMap: [Name, Value, [.member.0.Name=env, .member.0.Value=prod]]
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2014-10-16
    /// parameters:
    ///   tags: {type: json, default: {env: prod}}
    /// outputs:
    ///   tags:
    ///     value: {get_param: tags}
    /// ```
    pub(crate) static RULE = {
        code: "U108",
        name: "fn-member-list-to-map",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::FnMemberListToMap) {
            continue;
        }
        sink.report(
            cx.span(call.key),
            format!(
                "`Fn::MemberListToMap` is removed in {}, and HOT has no equivalent function",
                ucx.to
            ),
        )
        .help(
            "write the map itself (`{KEY: VALUE, ...}`), or pass it in a parameter of type \
             `json` and use `get_param`",
        );
    }
}
