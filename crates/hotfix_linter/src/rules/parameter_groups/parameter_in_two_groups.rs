use hotfix_yaml::NodeId;

use super::shared::{grouped, groups, heat_text, label, value};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::Value;

declare_rule! {
    /// ## What it does
    /// Checks that each parameter appears in at most one parameter group, and only once.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `Parameter Groups error: parameter_groups.<label>: The
    /// flavor parameter must be assigned to one parameter group only.`
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameter_groups:
    ///   - label: Servers
    ///     parameters: [flavor, image]
    ///   - label: Sizes
    ///     parameters: [flavor]
    /// parameters:
    ///   flavor: {type: string}
    ///   image: {type: string}
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameter_groups:
    ///   - label: Servers
    ///     parameters: [image]
    ///   - label: Sizes
    ///     parameters: [flavor]
    /// parameters:
    ///   flavor: {type: string}
    ///   image: {type: string}
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H504",
        name: "parameter-in-two-groups",
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
    // Every name grouped so far: its value, where it is, and its group.
    let mut seen: Vec<(Value, NodeId, NodeId)> = Vec::new();
    for group in groups(cx) {
        let Some(items) = grouped(doc, group) else {
            continue;
        };
        for &item in items {
            let Some(name) = value(doc, item) else {
                continue;
            };
            let shown = name.py_str();
            if let Some((_, first, first_group)) = seen.iter().find(|(v, _, _)| v.py_eq(&name)) {
                let (first, first_group) = (*first, *first_group);
                let message = if first_group == group {
                    format!("`{shown}` is listed twice in the same parameter group")
                } else {
                    match label(doc, first_group) {
                        Some(l) => format!("`{shown}` is already in parameter group `{l}`"),
                        None => format!("`{shown}` is already in another parameter group"),
                    }
                };
                let first_label = if first_group == group {
                    "first listed here".to_owned()
                } else {
                    label(doc, first_group).map_or_else(
                        || "first assigned here".to_owned(),
                        |l| format!("first assigned in group `{l}`"),
                    )
                };
                sink.report(cx.span(item), message)
                    .label(cx.span(first), first_label)
                    .help(format!(
                        "keep the parameter in one group only; {}",
                        heat_text(
                            doc,
                            group,
                            &format!("The {shown} parameter must be assigned to one parameter group only.")
                        )
                    ));
                continue;
            }
            seen.push((name, item, group));
        }
    }
}
