use hotfix_hot::{Version, VersionDecl};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that `heat_template_version` is one of the versions Heat accepts: a release
    /// date (`2013-05-23` … `2021-04-16`) or, from newton on, its lower-case name (`newton`
    /// … `wallaby`).
    ///
    /// ## Why is this bad?
    /// Heat refuses any other value: `The template version is invalid:
    /// "heat_template_version: 2016-10-15". "heat_template_version" should be one of: …`.
    /// Names are case-sensitive (`Newton` is invalid) and dates must match a release exactly.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-15
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H102",
        name: "invalid-version",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let VersionDecl::Invalid { text, value, .. } = &cx.template.version else {
        return;
    };
    let accepted = Version::accepted_strings();
    let suggestion = did_you_mean(text, accepted.iter().copied());
    let diagnostic = sink.report(
        cx.span(*value),
        format!("`{text}` is not a HOT version Heat knows"),
    );
    let heat = format!(
        "Heat: `The template version is invalid: \"heat_template_version: {text}\". \"heat_template_version\" should be one of: {}`",
        accepted.join(", ")
    );
    match suggestion {
        Some(suggestion) => {
            diagnostic.help(format!("did you mean `{suggestion}`? {heat}"));
            diagnostic.fix(hotfix_diagnostics::Fix {
                message: format!("Replace `{text}` with `{suggestion}`"),
                edits: vec![hotfix_diagnostics::Edit::replace(
                    cx.span(*value),
                    suggestion,
                )],
                applicability: hotfix_diagnostics::Applicability::Unsafe,
            });
        }
        None => {
            diagnostic.help(heat);
        }
    }
}
