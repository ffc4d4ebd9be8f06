use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every top-level key is a section of the declared version:
    /// `heat_template_version`, `description`, `parameter_groups`, `parameters`, `resources`,
    /// `outputs`, and from 2016-10-14 (newton) `conditions` (`conditions` in an older template is
    /// `H801 conditions-before-newton`).
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `The template section is invalid: conditions`. A
    /// misspelled section (`resource:`) or one from a later version would otherwise be lost.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resource:
    ///   r: {type: OS::Heat::None}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r: {type: OS::Heat::None}
    /// ```
    pub(crate) static RULE = {
        code: "H104",
        name: "unknown-section",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let sections = version.sections();
    for section in &cx.template.sections {
        // `conditions` before newton is H801 `conditions-before-newton`.
        if sections.contains(&section.name.as_str()) || section.name == "conditions" {
            continue;
        }
        let diagnostic = sink.report(
            cx.span(section.key),
            format!("`{}` is not a template section in {version}", section.name),
        );
        let heat = format!("Heat: `The template section is invalid: {}`", section.name);
        if let Some(suggestion) = did_you_mean(&section.name, sections.iter().copied()) {
            diagnostic.help(format!("did you mean `{suggestion}`? {heat}"));
        } else {
            diagnostic.help(format!("valid sections: {}; {heat}", sections.join(", ")));
        }
    }
}
