use hotfix_hot::Version;

use super::shared::{definition, span_in};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::a_type;
use crate::rules::util::{did_you_mean, is_null, is_sequence, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that a parameter uses only the keys of its template version: `type`,
    /// `description`, `default`, `constraints`, `hidden`, `label`, `immutable`, `schema`, and
    /// from 2018-03-02 (queens) `tags`, which must be a list.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `Invalid key 'Default' for parameter (x)`. Keys are
    /// case-sensitive, so CFN spellings (`Default`, `NoEcho`, `AllowedValues`) are
    /// errors, and `tags` before queens is one too. A `tags` that is not a list gives
    /// `Tags property should be a list for parameter: x`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   flavor:
    ///     type: string
    ///     Default: m1.small
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   flavor:
    ///     type: string
    ///     default: m1.small
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H402",
        name: "unknown-parameter-key",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// What a CFN parameter key (or another common guess) is in HOT.
fn hint(key: &str) -> Option<&'static str> {
    Some(match key {
        "NoEcho" => "HOT spells it `hidden: true`",
        "AllowedValues" => "HOT puts it in a constraint: `constraints: [{allowed_values: [...]}]`",
        "AllowedPattern" => "HOT puts it in a constraint: `constraints: [{allowed_pattern: ...}]`",
        "MinLength" | "MaxLength" => {
            "HOT puts it in a constraint: `constraints: [{length: {min: ..., max: ...}}]`"
        }
        "MinValue" | "MaxValue" => {
            "HOT puts it in a constraint: `constraints: [{range: {min: ..., max: ...}}]`"
        }
        "ConstraintDescription" => "HOT puts it in each constraint as `description`",
        "required" => {
            "HOT parameters have no `required`: a parameter without `default` is required"
        }
        "allowed_values" | "allowed_pattern" | "length" | "range" | "modulo"
        | "custom_constraint" => "it belongs in a constraint item: `constraints: [{...}]`",
        _ => return None,
    })
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    let keys = version.parameter_keys();
    for param in &cx.template.parameters {
        let Some(map) = definition(cx, param) else {
            continue;
        };
        let name = &param.name;
        for entry in doc.entries(map) {
            let key = hotfix_hot::key_text(doc, entry.key);
            let written = doc.str_value(entry.key);
            if written.is_some_and(|k| keys.contains(&k)) {
                if key == "tags" && !is_sequence(doc, entry.value) {
                    sink.report(
                        span_in(cx, param, entry.value),
                        if is_null(doc, entry.value) {
                            format!("`tags` of parameter `{name}` is empty, not a list")
                        } else {
                            format!(
                                "`tags` of parameter `{name}` is {}, not a list",
                                a_type(python_type(doc, entry.value))
                            )
                        },
                    )
                    .help(format!(
                        "write the tags as a list, e.g. `tags: [a, b]`; Heat: `Tags property should be a list for parameter: {name}`"
                    ));
                }
                continue;
            }
            let mut heat = format!("Heat: `Invalid key '{key}' for parameter ({name})`");
            if written.is_none() && cx.text(entry.key) != key {
                // `on:`, `yes:`, `1:` as keys: YAML 1.1 does not load them as strings.
                heat = format!(
                    "YAML reads `{}` as `{key}`, not a string; {heat}",
                    cx.text(entry.key)
                );
            }
            let diagnostic = sink.report(
                span_in(cx, param, entry.key),
                format!("`{key}` is not a key of parameter `{name}`"),
            );
            if key == "tags" {
                diagnostic.help(format!(
                    "`tags` needs heat_template_version {} (queens) or later; {heat}",
                    Version::V2018_03_02
                ));
            } else if let Some(hint) = hint(&key) {
                diagnostic.help(format!("{hint}; {heat}"));
            } else if let Some(better) = did_you_mean(&key, keys.iter().copied()) {
                diagnostic.help(format!("did you mean `{better}`? {heat}"));
            } else {
                diagnostic.help(format!("valid keys: {}; {heat}", keys.join(", ")));
            }
        }
    }
}
