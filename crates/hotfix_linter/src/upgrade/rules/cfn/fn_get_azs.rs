use hotfix_hot::{CallStatus, Function, Version};

use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Reports `Fn::GetAZs` when leaving 2013-05-23: 2014-10-16 removed it, and no HOT
    /// function lists the availability zones. The upgrade stops at 2013-05-23 until it is
    /// replaced by hand.
    ///
    /// ## Why is this bad?
    /// From 2014-10-16 Heat rejects the template: `The template version is invalid: The
    /// function Fn::GetAZs is not supported in this version of HOT.` In 2013-05-23 it asks Nova
    /// for the names of the availability zones (its argument, a region, is ignored). A
    /// parameter is the only HOT replacement: a `comma_delimited_list` of zones (a
    /// single-zone cloud uses `nova`), indexed with `get_param: [zones, 0]` where the template
    /// picks one zone.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties:
    ///       size: 1
    ///       availability_zone: {Fn::Select: [0, {Fn::GetAZs: ""}]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2014-10-16
    /// parameters:
    ///   zones: {type: comma_delimited_list, default: nova}
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties:
    ///       size: 1
    ///       availability_zone: {get_param: [zones, 0]}
    /// ```
    pub(crate) static RULE = {
        code: "U107",
        name: "fn-get-azs",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::FnGetAzs) {
            continue;
        }
        sink.report(
            cx.span(call.key),
            format!(
                "`Fn::GetAZs` is removed in {}, and HOT has no function that lists the \
                 availability zones",
                ucx.to
            ),
        )
        .help(
            "pass the zones in a parameter instead, e.g. `zones: {type: comma_delimited_list, \
             default: nova}`, and use `get_param: zones` (or `get_param: [zones, 0]` for one \
             zone)",
        );
    }
}
