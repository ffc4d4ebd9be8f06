use super::shared::{constraint_items, definition, kinds, param_type, span_in};
use crate::rule::{Context, Sink, declare_rule};
use hotfix_hot::parameter_schema::{ConstraintKind, ParameterType};

declare_rule! {
    /// ## What it does
    /// Checks that each constraint applies to its parameter's type: `range` and `modulo`
    /// only to `number`; `length` to `string`, `comma_delimited_list` and `json`;
    /// `allowed_values` and `custom_constraint` to every type but `json`; `allowed_pattern`
    /// only to `string`.
    ///
    /// Heat uses only the first kind it recognises in a constraint item (in the order
    /// `modulo`, `range`, `length`, `allowed_values`, `allowed_pattern`,
    /// `custom_constraint`), so that is the one checked here.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template:
    /// `Parameter 'port' is invalid: AllowedPattern constraint invalid for number`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   port:
    ///     type: number
    ///     constraints:
    ///       - allowed_pattern: "[0-9]+"
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   port:
    ///     type: number
    ///     constraints:
    ///       - range: {min: 1, max: 65535}
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H403",
        name: "constraint-not-applicable",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// What to use instead of `kind` on a parameter of type `ty`.
fn instead(kind: ConstraintKind, ty: ParameterType) -> Option<&'static str> {
    Some(match (kind, ty) {
        (
            ConstraintKind::Range,
            ParameterType::String | ParameterType::CommaDelimitedList | ParameterType::Json,
        ) => "to limit a length, use `length`",
        (ConstraintKind::Length, ParameterType::Number) => "to limit a number, use `range`",
        (ConstraintKind::AllowedPattern, ParameterType::Number) => {
            "to limit a number, use `range` or `modulo` (or make the parameter a `string`)"
        }
        (ConstraintKind::AllowedPattern, ParameterType::CommaDelimitedList) => {
            "Heat matches patterns against strings only; use `allowed_values` for the items"
        }
        (
            ConstraintKind::AllowedValues
            | ConstraintKind::CustomConstraint
            | ConstraintKind::AllowedPattern,
            ParameterType::Json,
        ) => "a `json` parameter takes only `length` constraints",
        _ => return None,
    })
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    for param in &cx.template.parameters {
        let (Some(map), Some(ty)) = (definition(cx, param), param_type(cx, param)) else {
            continue;
        };
        for item in constraint_items(doc, map) {
            let Some(first) = kinds(doc, item, version).into_iter().next() else {
                continue;
            };
            if first.kind.applies_to(ty) {
                continue;
            }
            let applies_to: Vec<String> = ParameterType::ALL
                .iter()
                .filter(|t| first.kind.applies_to(**t))
                .map(|t| format!("`{}`", t.name()))
                .collect();
            let heat = format!(
                "Heat: `Parameter '{}' is invalid: {} constraint invalid for {}`",
                param.name,
                first.kind.class_name(),
                ty.name()
            );
            let advice = instead(first.kind, ty).map_or_else(
                || {
                    format!(
                        "`{}` applies only to {}",
                        first.kind.key(),
                        applies_to.join(", ")
                    )
                },
                str::to_owned,
            );
            sink.report(
                span_in(cx, param, first.key),
                format!(
                    "`{}` does not apply to `{}` parameter `{}`",
                    first.kind.key(),
                    ty.name(),
                    param.name
                ),
            )
            .help(format!("{advice}; {heat}"));
        }
    }
}
