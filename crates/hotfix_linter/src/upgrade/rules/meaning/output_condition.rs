use hotfix_diagnostics::{Applicability, Fix, Severity};
use hotfix_hot::{ConditionAvailability, Version, key_name};
use hotfix_yaml::{NodeId, NodeKind, ScalarValue};

use super::remove::remove_entry;
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Reports an output with a `condition` key when leaving 2016-04-08: up to 2016-04-08
    /// Heat ignores the key and always computes the output's value; from 2016-10-14 it
    /// honours it, and a false condition makes the value null (the value is then not even
    /// parsed).
    ///
    /// ## Why is this bad?
    /// The upgrade keeps the text and changes what the output gives. Heat's engine shows it:
    /// in 2016-04-08 `{value: computed, condition: false}` resolves to `computed`; the same
    /// output in 2016-10-14 resolves to `null`, and so does an expression that is false
    /// (`{equals: [{get_param: env}, dev]}` with `env` = `prod`).
    ///
    /// A condition Heat 2016-10-14 cannot use is an error (it blocks the step): a condition
    /// name, when the template has no `conditions` section defining it (2016-04-08 has no
    /// such section), fails with `outputs.o.condition: Invalid condition "is_prod"`; so do a
    /// number (`Invalid condition "1"`), a list, or a map that is not a condition function.
    ///
    /// `condition: true` and `condition: null` (Heat computes the value, as before) are not
    /// reported.
    ///
    /// ## Fix safety
    /// The fix removes the `condition` entry, which keeps exactly what 2016-04-08 computed
    /// (the value, always), but drops what the author wrote, so it is Unsafe
    /// (`--unsafe-fixes`).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-04-08
    /// outputs:
    ///   debug_url:
    ///     value: http://example.com/debug
    ///     condition: false
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// outputs:
    ///   debug_url:
    ///     value: http://example.com/debug
    /// ```
    pub(crate) static RULE = {
        code: "U501",
        name: "output-condition-honoured",
        step: Some((Version::V2016_04_08, Version::V2016_10_14)),
        severity: Warning,
        check: check,
    };
}

/// What 2016-10-14 makes of an output's `condition` value.
enum Condition {
    /// `false`: the value becomes null.
    False,
    /// A condition expression, or the name of a defined condition: the value is null when
    /// it is false.
    Evaluated,
    /// Heat rejects it: why, with Heat's text.
    Rejected(String),
}

fn classify(ucx: &UpgradeContext<'_>, value: NodeId) -> Option<Condition> {
    let cx = ucx.cx;
    let doc = cx.doc;
    let value = doc.resolve(value);
    let invalid = |shown: &str, why: &str| {
        Condition::Rejected(format!("{why} (`Invalid condition \"{shown}\"`)"))
    };
    match &doc.node(value).kind {
        NodeKind::Scalar(scalar) => match &scalar.value {
            ScalarValue::Null | ScalarValue::Bool(true) => None,
            ScalarValue::Bool(false) => Some(Condition::False),
            ScalarValue::Str => {
                if cx.template.condition(&scalar.text).is_some() {
                    Some(Condition::Evaluated)
                } else {
                    let why = if scalar.text.is_empty() {
                        "an empty name is not a condition".to_owned()
                    } else {
                        format!("no `conditions` section defines `{}`", scalar.text)
                    };
                    Some(invalid(&scalar.text, &why))
                }
            }
            _ => Some(invalid(
                &key_name(doc, value),
                &format!("`{}` is not a condition", doc.text(value)),
            )),
        },
        NodeKind::Sequence { .. } => Some(Condition::Rejected(
            "a list is not a condition (`Invalid condition`)".to_owned(),
        )),
        NodeKind::Mapping { .. } => {
            let entries = doc.entries(value);
            let name = match entries.as_slice() {
                [entry] => doc.str_value(entry.key),
                _ => None,
            };
            let Some(name) = name else {
                return Some(Condition::Rejected(
                    "a map that is not a function call is not a condition (`Invalid condition`)"
                        .to_owned(),
                ));
            };
            Some(match ucx.to.condition_function(name) {
                ConditionAvailability::Function(_) => Condition::Evaluated,
                ConditionAvailability::Invalid(_) => Condition::Rejected(format!(
                    "`{name}` is not a condition function (`The function \"{name}\" is invalid in this context`)"
                )),
                ConditionAvailability::Removed(_) => Condition::Rejected(format!(
                    "`{name}` is removed (`The function {name} is not supported in this version of HOT.`)"
                )),
                ConditionAvailability::Data => Condition::Rejected(format!(
                    "`{name}` is not a condition function, so the map is not a condition (`Invalid condition`)"
                )),
            })
        }
        NodeKind::Alias { .. } => None,
    }
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    for output in &cx.template.outputs {
        if !cx.template.is_mapping(output.value) {
            continue;
        }
        let map = doc.resolve(output.value);
        let Some(entry) = doc
            .entries(map)
            .into_iter()
            .find(|e| doc.str_value(e.key) == Some("condition"))
        else {
            continue;
        };
        let Some(condition) = classify(ucx, entry.value) else {
            continue;
        };
        let name = &output.name;
        let to = ucx.to;
        let diagnostic = match &condition {
            Condition::False => {
                let d = sink.report(
                    cx.span(entry.key),
                    format!(
                        "output `{name}`: from {to} Heat honours `condition`, and `false` makes the value null (before, the key was ignored and the value always computed)"
                    ),
                );
                d.help("remove the `condition` entry to keep the value, or keep it if the output is meant to be null");
                d
            }
            Condition::Evaluated => {
                let d = sink.report(
                    cx.span(entry.key),
                    format!(
                        "output `{name}`: from {to} Heat honours `condition`: the value is null whenever the condition is false (before, the key was ignored and the value always computed)"
                    ),
                );
                d.help("remove the `condition` entry to always compute the value, as before");
                d
            }
            Condition::Rejected(error) => {
                let d = sink.report(
                    cx.span(entry.key),
                    format!(
                        "output `{name}`: from {to} Heat honours `condition`, and rejects this one: {error}; before, the key was ignored"
                    ),
                );
                d.severity = Severity::Error;
                d.help(format!(
                    "remove the `condition` entry (what Heat did before: the value is always computed); to make the output conditional, add a `conditions` section and the key back once the template is at {to}"
                ));
                d
            }
        };
        if let Some(edits) = remove_entry(doc, map, "condition") {
            diagnostic.fix(Fix {
                message: "Remove the `condition` entry (the value is always computed, as before)"
                    .to_owned(),
                edits,
                applicability: Applicability::Unsafe,
            });
        }
    }
}
