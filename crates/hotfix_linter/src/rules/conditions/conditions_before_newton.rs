use crate::rule::{Context, Sink, declare_rule};
use crate::rules::conditions::shared::NEWTON;

declare_rule! {
    /// ## What it does
    /// Checks for a `conditions` section when the declared version is older than 2016-10-14
    /// (newton), the first version with conditions.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `The template section is invalid: conditions`. Conditions
    /// need a newer `heat_template_version`, as do the `condition` keys of resources and
    /// outputs and the `if` function that use them.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-04-08
    /// conditions:
    ///   production: true
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// ```
    pub(crate) static RULE = {
        code: "H801",
        name: "conditions-before-newton",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    if version >= NEWTON {
        return;
    }
    let Some(section) = cx.template.section("conditions") else {
        return;
    };
    sink.report(
        cx.span(section.key),
        format!("`conditions` needs heat_template_version 2016-10-14 (newton) or later, not {version}"),
    )
    .help(
        "upgrade `heat_template_version` to 2016-10-14 or later (resource and output `condition` keys and `if` need it too), or remove the section; Heat: `The template section is invalid: conditions`",
    );
}
