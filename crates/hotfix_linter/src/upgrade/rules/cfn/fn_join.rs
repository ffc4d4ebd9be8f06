use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::{CallStatus, Function, Version};

use crate::upgrade::shared::rename_key;
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Rewrites `Fn::Join: [delimiter, list]` as `list_join: [delimiter, list]` when leaving
    /// 2013-05-23: 2014-10-16 removed `Fn::Join`.
    ///
    /// ## Why is this bad?
    /// From 2014-10-16 Heat rejects the template: `The template version is invalid: The
    /// function Fn::Join is not supported in this version of HOT.` In 2013-05-23 `Fn::Join` is
    /// Heat's `cfn.Join`, a subclass of the `Join` that `list_join` uses, with nothing
    /// overridden, and later versions' `list_join` only accepts more: the rewrite is exact
    /// (Safe) at every target.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// outputs:
    ///   o: {value: {"Fn::Join": ["-", [a, b]]}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2014-10-16
    /// outputs:
    ///   o: {value: {"list_join": ["-", [a, b]]}}
    /// ```
    pub(crate) static RULE = {
        code: "U102",
        name: "fn-join",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::FnJoin) {
            continue;
        }
        let diagnostic = sink.report(
            cx.span(call.key),
            format!("`Fn::Join` is removed in {}", ucx.to),
        );
        diagnostic.help("`list_join` takes the same arguments and computes the same string");
        if let Some(edit) = rename_key(cx.doc, call.key, "list_join") {
            diagnostic.fix(Fix {
                message: "Replace `Fn::Join` with `list_join`".to_owned(),
                edits: vec![edit],
                applicability: Applicability::Safe,
            });
        }
    }
}
