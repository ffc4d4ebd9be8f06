use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::{CallStatus, Function, Version};

use super::util::{NOT_IN_PLACE, never_null, plain_call, rename};
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Rewrites `Fn::Split: [delimiter, string]` as `str_split: [delimiter, string]` when
    /// leaving 2013-05-23 for a target of 2015-10-15 or later. 2014-10-16 removed `Fn::Split`,
    /// but `str_split` only exists from 2015-10-15 on: for a target of 2014-10-16 or
    /// 2015-04-30 nothing can replace it, and the upgrade stops at 2013-05-23.
    ///
    /// ## Why is this bad?
    /// From 2014-10-16 Heat rejects the template: `The template version is invalid: The
    /// function Fn::Split is not supported in this version of HOT.` `Fn::Split` never
    /// resolves its delimiter, so it must be a literal string, and then `str_split` splits
    /// the same way. A delimiter that is not a literal string fails in Heat already and is not
    /// rewritten.
    ///
    /// ## Fix safety
    /// The one difference: `Fn::Split` fails on a null string, `str_split` returns null. The
    /// rewrite is Safe when the string is never null (a literal, a string function, a
    /// parameter that is not `json`), Unsafe otherwise: where Heat failed, the stack would now
    /// get null.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// parameters:
    ///   hosts: {type: string, default: "a,b"}
    /// outputs:
    ///   hosts: {value: {Fn::Split: [",", {get_param: hosts}]}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2015-10-15
    /// parameters:
    ///   hosts: {type: string, default: "a,b"}
    /// outputs:
    ///   hosts: {value: {str_split: [",", {get_param: hosts}]}}
    /// ```
    pub(crate) static RULE = {
        code: "U106",
        name: "fn-split",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::FnSplit) {
            continue;
        }
        if ucx.target < Version::V2015_10_15 {
            sink.report(
                cx.span(call.key),
                format!(
                    "`Fn::Split` is removed in {}, and there is no HOT split function before \
                     2015-10-15",
                    ucx.to
                ),
            )
            .help(format!(
                "2014-10-16 and 2015-04-30 have no way to split a string: upgrade to \
                 2015-10-15 or later (`--to 2015-10-15`), where `str_split` replaces it, or \
                 pass the pieces as a `comma_delimited_list` parameter; the target {} keeps \
                 this template at 2013-05-23",
                ucx.target
            ));
            continue;
        }
        let diagnostic = sink.report(
            cx.span(call.key),
            format!("`Fn::Split` is removed in {}", ucx.to),
        );
        let items = doc.items(call.args).unwrap_or_default();
        let [delimiter, string] = items else {
            diagnostic
                .label(cx.span(call.args), "not a list of two items")
                .help(
                    "Heat already rejects these arguments: write `str_split: [DELIMITER, STRING]` \
                 by hand",
                );
            continue;
        };
        if doc.str_value(*delimiter).is_none() {
            diagnostic
                .label(cx.span(*delimiter), "not a literal string")
                .help(
                    "`Fn::Split` never resolves its delimiter, so Heat already fails here \
                     (`Delimiter for Fn::Split must be string`): write `str_split: [DELIMITER, \
                     STRING]` by hand (it resolves its delimiter)",
                );
            continue;
        }
        let safe = never_null(cx.template, cx.semantic, *string);
        let help = if safe {
            "`str_split` (from 2015-10-15) takes the same arguments and computes the same list"
        } else {
            "`str_split` (from 2015-10-15) takes the same arguments and computes the same list, \
             except that for a null string it returns null where `Fn::Split` fails, and this \
             string may be null"
        };
        let Some(edit) = plain_call(doc, call)
            .then(|| rename(doc, call.key, "str_split"))
            .flatten()
        else {
            diagnostic.help(format!("{help}; {NOT_IN_PLACE}"));
            continue;
        };
        diagnostic.help(help).fix(Fix {
            message: "Replace `Fn::Split` with `str_split`".to_owned(),
            edits: vec![edit],
            applicability: if safe {
                Applicability::Safe
            } else {
                Applicability::Unsafe
            },
        });
    }
}
