use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::{CallStatus, Function, Version};

use super::util::{NOT_IN_PLACE, plain_call, rename, replace_str};
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Rewrites `Fn::ResourceFacade: Metadata|DeletionPolicy|UpdatePolicy` as
    /// `resource_facade: metadata|deletion_policy|update_policy` when leaving 2013-05-23:
    /// 2014-10-16 removed `Fn::ResourceFacade`.
    ///
    /// ## Why is this bad?
    /// From 2014-10-16 Heat rejects the template: `The template version is invalid: The
    /// function Fn::ResourceFacade is not supported in this version of HOT.` In 2013-05-23
    /// `Fn::ResourceFacade` is a subclass of `resource_facade`'s class that only spells the
    /// three arguments differently: the rewrite is exact (Safe). Any other argument fails in
    /// Heat already and is not rewritten.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// outputs:
    ///   policy: {value: {Fn::ResourceFacade: DeletionPolicy}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2014-10-16
    /// outputs:
    ///   policy: {value: {resource_facade: deletion_policy}}
    /// ```
    pub(crate) static RULE = {
        code: "U105",
        name: "fn-resource-facade",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::FnResourceFacade) {
            continue;
        }
        let diagnostic = sink.report(
            cx.span(call.key),
            format!("`Fn::ResourceFacade` is removed in {}", ucx.to),
        );
        let hot = match doc.str_value(call.args) {
            Some("Metadata") => "metadata",
            Some("DeletionPolicy") => "deletion_policy",
            Some("UpdatePolicy") => "update_policy",
            _ => {
                let label = "not one of Metadata, DeletionPolicy, UpdatePolicy";
                diagnostic.label(cx.span(call.args), label).help(
                    "Heat already rejects this argument: write `resource_facade: metadata`, \
                     `resource_facade: deletion_policy` or `resource_facade: update_policy`",
                );
                continue;
            }
        };
        let help = format!("`resource_facade: {hot}` reads the same data of the parent resource");
        let edits = if plain_call(doc, call) && doc.node(call.args).anchor.is_none() {
            rename(doc, call.key, "resource_facade").zip(replace_str(doc, call.args, hot))
        } else {
            None
        };
        let Some((key, arg)) = edits else {
            diagnostic.help(format!("{help}; {NOT_IN_PLACE}"));
            continue;
        };
        diagnostic.help(help).fix(Fix {
            message: format!("Replace `Fn::ResourceFacade` with `resource_facade: {hot}`"),
            edits: vec![key, arg],
            applicability: Applicability::Safe,
        });
    }
}
