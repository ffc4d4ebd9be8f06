use hotfix_diagnostics::Span;
use hotfix_hot::VersionDecl;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::python_type;

declare_rule! {
    /// ## What it does
    /// Checks that the template declares `heat_template_version` as a string.
    ///
    /// ## Why is this bad?
    /// Heat picks the template format from the version, and refuses a template without one:
    /// `The template version is invalid: Template version was not provided`. A version that
    /// YAML loads as something other than a string (`heat_template_version: 2016` is an
    /// integer) counts as missing.
    ///
    /// ## Example
    /// ```yaml
    /// description: a template without a version
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// description: a template with a version
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H101",
        name: "missing-version",
        severity: Error,
        fix: None,
        check: check,
    };
}

const HEAT: &str = "Heat: `The template version is invalid: Template version was not provided`";

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    match &cx.template.version {
        VersionDecl::Missing => {
            let root = cx.span(cx.doc.root());
            sink.report(Span::new(root.start, root.start), "missing `heat_template_version`")
                .help(format!(
                    "add `heat_template_version: 2021-04-16` (or the version the template was written for) at the top; {HEAT}"
                ));
        }
        VersionDecl::NotString { value, .. } => {
            sink.report(
                cx.span(*value),
                format!(
                    "`heat_template_version` loads as a {}, not a string, so Heat sees no version",
                    python_type(cx.doc, *value)
                ),
            )
            .help(format!(
                "write a full date such as `2016-10-14`, or quote it; {HEAT}"
            ));
        }
        _ => {}
    }
}
