use hotfix_hot::VersionDecl;

use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks that a template has only one version key: `heat_template_version`, or one of
    /// the CloudFormation keys `HeatTemplateFormatVersion` and `AWSTemplateFormatVersion`.
    ///
    /// ## Why is this bad?
    /// Heat cannot tell which format the template is in and refuses it:
    /// `The template version is invalid: Ambiguous versions (…)`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// HeatTemplateFormatVersion: '2012-12-12'
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H103",
        name: "ambiguous-version",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let VersionDecl::Ambiguous { keys } = &cx.template.version else {
        return;
    };
    let names: Vec<&str> = keys.iter().map(|&k| cx.text(k)).collect();
    let Some((&first, rest)) = keys.split_first() else {
        return;
    };
    let diagnostic = sink.report(
        cx.span(first),
        format!(
            "the template declares several versions: {}",
            names.join(", ")
        ),
    );
    for &key in rest {
        diagnostic.label(cx.span(key), "another version key");
    }
    diagnostic.help(format!(
        "keep only `heat_template_version`; Heat: `The template version is invalid: Ambiguous versions ({})`",
        names.join(", ")
    ));
}
