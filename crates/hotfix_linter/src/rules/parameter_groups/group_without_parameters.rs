use super::shared::{heat_text, label};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::a_type;
use crate::rules::util::{is_mapping, is_null, is_sequence, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that every parameter group is a mapping with a `parameters` list.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: a group without `parameters` (or with `parameters:` left
    /// empty) gives `Parameter Groups error: parameter_groups.<label>: The parameters must be
    /// provided for each parameter group.`; a `parameters` that is not a list gives `… The
    /// parameters of parameter group should be a list.`; a group that is not a mapping makes
    /// Heat fail with `'str' object has no attribute 'get'`. (An empty list,
    /// `parameters: []`, is accepted.)
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameter_groups:
    ///   - label: Servers
    ///     parameters: flavor
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
        code: "H502",
        name: "group-without-parameters",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for group in super::shared::groups(cx) {
        if !is_mapping(doc, group) {
            let ty = python_type(doc, group);
            sink.report(cx.span(group), format!("parameter group is {}, not a mapping", a_type(ty)))
                .help(format!(
                    "write the group as a mapping: `- label: …` with `parameters: [...]`; Heat: `'{ty}' object has no attribute 'get'`"
                ));
            continue;
        }
        let shown = label(doc, group).map_or_else(
            || "parameter group".to_owned(),
            |l| format!("parameter group `{l}`"),
        );
        match doc.get(group, "parameters") {
            None => {
                let at = doc.get_key(group, "label").unwrap_or(group);
                sink.report(cx.span(at), format!("{shown} has no `parameters`"))
                    .help(format!(
                        "list the group's parameters: `parameters: [...]`; {}",
                        heat_text(
                            doc,
                            group,
                            "The parameters must be provided for each parameter group."
                        )
                    ));
            }
            Some(parameters) if is_null(doc, parameters) => {
                let key = doc.get_key(group, "parameters").unwrap_or(parameters);
                sink.report(cx.span(key), format!("`parameters` of {shown} is empty"))
                    .help(format!(
                        "list the group's parameters, or remove the group; {}",
                        heat_text(
                            doc,
                            group,
                            "The parameters must be provided for each parameter group."
                        )
                    ));
            }
            Some(parameters) if !is_sequence(doc, parameters) => {
                sink.report(
                    cx.span(parameters),
                    format!(
                        "`parameters` of {shown} is {}, not a list",
                        a_type(python_type(doc, parameters))
                    ),
                )
                .help(format!(
                    "write a list, e.g. `parameters: [{}]`; {}",
                    doc.str_value(parameters).unwrap_or("…"),
                    heat_text(
                        doc,
                        group,
                        "The parameters of parameter group should be a list."
                    )
                ));
            }
            Some(_) => {}
        }
    }
}
