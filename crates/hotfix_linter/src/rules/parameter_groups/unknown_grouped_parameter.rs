use hotfix_hot::key_name;

use super::shared::{grouped, groups, heat_text, label, value};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{self, Value};
use crate::rules::util::{did_you_mean, is_mapping, is_null};

declare_rule! {
    /// ## What it does
    /// Checks that every name in a parameter group is a parameter of the template, or one of
    /// the pseudo parameters `OS::stack_id` and `OS::project_id`.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `Parameter Groups error: parameter_groups.<label>: The
    /// grouped parameter flavour does not reference a valid parameter.` Note that
    /// `OS::stack_name` is not valid here: Heat checks groups without a stack name.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameter_groups:
    ///   - label: Servers
    ///     parameters: [flavour]
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
        code: "H503",
        name: "unknown-grouped-parameter",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// The pseudo parameters Heat creates when it checks parameter groups (no stack name).
const PSEUDO: [&str; 2] = ["OS::stack_id", "OS::project_id"];

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    // A `parameters` section that is not a mapping fails before groups are checked.
    if let Some(section) = cx.template.section("parameters")
        && !is_null(doc, section.value)
        && !is_mapping(doc, section.value)
    {
        return;
    }
    let mut valid: Vec<Value> = PSEUDO.iter().map(|p| Value::Str((*p).to_owned())).collect();
    for param in &cx.template.parameters {
        match value(doc, param.key) {
            Some(v) => valid.push(v),
            None => return,
        }
    }
    let names: Vec<String> = cx
        .template
        .parameters
        .iter()
        .map(|p| p.name.clone())
        .chain(PSEUDO.iter().map(|p| (*p).to_owned()))
        .collect();
    for group in groups(cx) {
        let Some(items) = grouped(doc, group) else {
            continue;
        };
        for &item in items {
            let Some(name) = value(doc, item) else {
                continue;
            };
            if valid.iter().any(|v| v.py_eq(&name)) {
                continue;
            }
            let shown = name.py_str();
            let heat = heat_text(
                doc,
                group,
                &format!("The grouped parameter {shown} does not reference a valid parameter."),
            );
            let within = label(doc, group).map_or_else(String::new, |l| format!(" in group `{l}`"));
            let advice = if shown == "OS::stack_name" {
                "`OS::stack_name` cannot be grouped: Heat checks groups without a stack name"
                    .to_owned()
            } else if let Some(better) = did_you_mean(&shown, names.iter().map(String::as_str)) {
                format!("did you mean `{better}`?")
            } else if !matches!(name, Value::Str(_)) {
                let written = key_name(doc, item);
                format!(
                    "`{written}` loads as {}, not a string; quote it",
                    py::a_type(name.type_name())
                )
            } else {
                "declare the parameter, or remove it from the group".to_owned()
            };
            sink.report(
                cx.span(item),
                format!("`{shown}`{within} is not a parameter of this template"),
            )
            .help(if advice.ends_with('?') {
                format!("{advice} {heat}")
            } else {
                format!("{advice}; {heat}")
            });
        }
    }
}
