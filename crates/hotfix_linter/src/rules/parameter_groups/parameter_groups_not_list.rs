use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py;
use crate::rules::py::a_type;
use crate::rules::util::{is_sequence, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that `parameter_groups` is a list of groups.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `Parameter Groups error: parameter_groups: The
    /// parameter_groups should be a list.` (An empty value — `{}`, `~`, `''` — is ignored.)
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameter_groups:
    ///   label: Servers
    ///   parameters: [flavor]
    /// parameters:
    ///   flavor: {type: string}
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameter_groups:
    ///   - label: Servers
    ///     parameters: [flavor]
    /// parameters:
    ///   flavor: {type: string}
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H501",
        name: "parameter-groups-not-list",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let Some(section) = cx.template.section("parameter_groups") else {
        return;
    };
    let doc = cx.doc;
    if is_sequence(doc, section.value) {
        return;
    }
    // Heat validates only a truthy value.
    if !py::load(doc, section.value).is_none_or(|v| v.truthy()) {
        return;
    }
    let help = if crate::rules::util::is_mapping(doc, section.value)
        && doc.get(section.value, "parameters").is_some()
    {
        "this looks like a single group: make it a list item (`- label: …`)"
    } else {
        "write a list of groups, each with a `label` and a list of `parameters`"
    };
    sink.report(
        cx.span(section.value),
        format!("`parameter_groups` is {}, not a list", a_type(python_type(doc, section.value))),
    )
    .help(format!(
        "{help}; Heat: `Parameter Groups error: parameter_groups: The parameter_groups should be a list.`"
    ));
}
