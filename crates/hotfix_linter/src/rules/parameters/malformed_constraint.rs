use hotfix_eval::constraints::Rule;
use hotfix_hot::{Version, key_name};
use hotfix_yaml::NodeId;

use super::shared::{Built, Outcome, build, definition, kinds, param_type};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{self, Parsed, Value};
use crate::rules::util::{did_you_mean, is_mapping, is_null, python_type};
use hotfix_hot::parameter_schema::CONSTRAINT_KEYS;
use hotfix_hot::parameter_schema::ParameterType;

declare_rule! {
    /// ## What it does
    /// Checks that a parameter's `constraints` is a list of constraint items Heat can build:
    /// each a mapping with only `description` and constraint keys, at least one constraint
    /// the version interprets (`modulo` only from 2017-02-24, ocata), and a well-formed
    /// value: `range`/`length` with a `min` and/or a `max` (integers for `length`), `modulo`
    /// with an integral `step` and `offset` (step not 0, offset smaller than step by absolute
    /// value, same sign), `allowed_values` a list, `allowed_pattern` a valid Python regular
    /// expression (the syntax errors Python reports for unbalanced brackets and parentheses,
    /// a quantifier with nothing to repeat, bad escapes and bad ranges are found, with
    /// Python's text; rarer syntax is left alone).
    ///
    /// It also reports what Heat accepts silently but never works: a second constraint in the
    /// same item (only the first is used), a `range` or `length` whose `min` exceeds its
    /// `max`, an empty `allowed_values`, allowed values that cannot be converted to the
    /// parameter's type, and non-string allowed values of a `comma_delimited_list` (its items
    /// are strings, so they never match).
    ///
    /// ## Why is this bad?
    /// Heat refuses the template with texts such as
    /// `Invalid parameter constraints for parameter x, expected a list`,
    /// `Invalid key 'lenght' for parameter constraints`, `No constraint expressed`,
    /// `A range constraint must have a min value and/or a max value specified.`,
    /// `AllowedValues must be a list` or `unterminated character set at position 0`.
    /// An allowed value that does not convert to the parameter's type makes every value fail
    /// (`Value "two" is invalid for data type "number".`). The other cases pass Heat's checks
    /// silently, and the constraint then does not do what it says.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   name:
    ///     type: string
    ///     constraints:
    ///       - lenght: {max: 64}
    ///       - length: {max: 64}
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   name:
    ///     type: string
    ///     constraints:
    ///       - length: {max: 64}
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H404",
        name: "malformed-constraint",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    for param in &cx.template.parameters {
        let Some(map) = definition(cx, param) else {
            continue;
        };
        let Some(constraints) = doc.get(map, "constraints") else {
            continue;
        };
        if is_null(doc, constraints) {
            continue;
        }
        let Some(items) = doc.items(constraints) else {
            sink.report(
                cx.span(constraints),
                format!(
                    "`constraints` of parameter `{}` is {}, not a list",
                    param.name,
                    py::a_type(python_type(doc, constraints))
                ),
            )
            .help(format!(
                "write each constraint as a list item: `constraints: [{{length: {{max: 8}}}}]`; Heat: `Invalid parameter constraints for parameter {}, expected a list`",
                param.name
            ));
            continue;
        };
        let ty = param_type(cx, param);
        for &item in items {
            check_item(cx, sink, version, ty, item);
        }
    }
}

fn check_item(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    version: Version,
    ty: Option<ParameterType>,
    item: NodeId,
) {
    let doc = cx.doc;
    if !is_mapping(doc, item) {
        sink.report(
            cx.span(item),
            format!("constraint item is {}, not a mapping", py::a_type(python_type(doc, item))),
        )
        .help("write each constraint as a mapping, e.g. `- allowed_values: [a, b]`; Heat: `Invalid parameter constraints, expected a mapping`");
        return;
    }
    let mut unknown = false;
    for entry in doc.entries(item) {
        let key = key_name(doc, entry.key);
        if doc
            .str_value(entry.key)
            .is_some_and(|k| CONSTRAINT_KEYS.contains(&k))
        {
            continue;
        }
        unknown = true;
        let heat = format!("Heat: `Invalid key '{key}' for parameter constraints`");
        let advice = match key.as_str() {
            "min" | "max" => {
                "put bounds in `range: {min: …, max: …}` or `length: {min: …, max: …}`;".to_owned()
            }
            "step" | "offset" => "put them in `modulo: {step: …, offset: …}`;".to_owned(),
            "pattern" => "did you mean `allowed_pattern`?".to_owned(),
            "values" => "did you mean `allowed_values`?".to_owned(),
            _ => did_you_mean(&key, CONSTRAINT_KEYS.iter().copied()).map_or_else(
                || format!("valid keys: {};", CONSTRAINT_KEYS.join(", ")),
                |k| format!("did you mean `{k}`?"),
            ),
        };
        sink.report(
            cx.span(entry.key),
            format!("`{key}` is not a constraint key"),
        )
        .help(format!("{advice} {heat}"));
    }
    let found = kinds(doc, item, version);
    let modulo_key = doc
        .get_key(item, "modulo")
        .filter(|_| !version.has_modulo_constraint());
    let Some((first, ignored)) = found.split_first() else {
        if let Some(key) = modulo_key {
            sink.report(cx.span(key), format!("`modulo` constraints are not interpreted in {version}"))
                .help(format!(
                    "`modulo` needs heat_template_version {} (ocata) or later; Heat: `No constraint expressed`",
                    Version::V2017_02_24
                ));
        } else if !unknown {
            sink.report(cx.span(item), "constraint item expresses no constraint")
                .help("add one of `length`, `range`, `modulo`, `allowed_values`, `allowed_pattern`, `custom_constraint`; Heat: `No constraint expressed`");
        }
        return;
    };
    if let Some(key) = modulo_key {
        sink.report(cx.span(key), format!("`modulo` is ignored in {version}"))
            .help(format!(
                "Heat silently ignores `modulo` before {} (ocata) and uses only `{}` in this item",
                Version::V2017_02_24,
                first.kind.key()
            ));
    }
    for other in ignored {
        sink.report(
            cx.span(other.key),
            format!(
                "`{}` is ignored: Heat uses only the first constraint of an item, here `{}`",
                other.kind.key(),
                first.kind.key()
            ),
        )
        .label(cx.span(first.key), "the constraint Heat uses")
        .help(format!(
            "move `{}` to its own item (`- {}: …`); Heat silently ignores it",
            other.kind.key(),
            other.kind.key()
        ));
    }
    match build(cx, first) {
        Outcome::Problem(problem) => {
            sink.report(cx.span(problem.node), problem.message)
                .help(format!("{}; Heat: `{}`", problem.advice, problem.heat));
        }
        Outcome::Built(built) => check_built(cx, sink, ty, &built, first.value),
        Outcome::Unknown => {}
    }
}

/// Constraints Heat builds but that can never be satisfied as written.
fn check_built(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    ty: Option<ParameterType>,
    built: &Built,
    value: NodeId,
) {
    match &built.rule {
        Rule::Range {
            min: Some(min),
            max: Some(max),
        }
        | Rule::Length {
            min: Some(min),
            max: Some(max),
        } => {
            inverted(cx, sink, built, min, max);
        }
        Rule::AllowedValues(allowed) => {
            if allowed.is_empty() {
                sink.report(cx.span(value), "`allowed_values` is empty: no value is allowed")
                    .help("list the allowed values, or remove the constraint; Heat accepts the template but rejects every value");
                return;
            }
            let Some(ty) = ty else {
                return;
            };
            for (&node, allowed) in built.allowed.iter().zip(allowed) {
                allowed_value(cx, sink, ty, node, allowed);
            }
        }
        _ => {}
    }
}

fn inverted(cx: &Context<'_>, sink: &mut Sink<'_>, built: &Built, min: &Value, max: &Value) {
    let (Some(low), Some(high)) = (min.as_num(), max.as_num()) else {
        return;
    };
    let [Some(min_node), Some(max_node)] = built.bounds else {
        return;
    };
    if low.cmp_num(high) != Some(std::cmp::Ordering::Greater) {
        return;
    }
    let kind = if matches!(built.rule, Rule::Length { .. }) {
        "length"
    } else {
        "range"
    };
    sink.report(
        cx.span(max_node),
        format!(
            "`{kind}` has `min` {} greater than `max` {}: no value satisfies it",
            min.py_str(),
            max.py_str()
        ),
    )
    .label(cx.span(min_node), "min")
    .help("swap the bounds; Heat accepts the template but rejects every value");
}

fn allowed_value(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    ty: ParameterType,
    node: NodeId,
    allowed: &Value,
) {
    let shown = allowed.py_str();
    match ty {
        ParameterType::Number => {
            let heat = match py::to_num(allowed) {
                Parsed::Error(_) if matches!(allowed, Value::Str(_)) => {
                    format!("Value \"{shown}\" is invalid for data type \"number\".")
                }
                Parsed::Error(type_error) => type_error,
                Parsed::Num(_) | Parsed::Unknown => return,
            };
            sink.report(cx.span(node), format!("allowed value `{shown}` is not a number"))
                .help(format!(
                    "Heat converts every allowed value to the parameter's type before comparing, so every value is rejected; Heat: `{heat}`"
                ));
        }
        ParameterType::Boolean => {
            if py::bool_from_string(&Value::Str(shown.clone())).is_ok() {
                return;
            }
            sink.report(cx.span(node), format!("allowed value `{shown}` is not a boolean"))
                .help(format!(
                    "Heat converts every allowed value to the parameter's type before comparing, so every value is rejected; Heat: `Value \"{shown}\" is invalid for data type \"boolean\".`"
                ));
        }
        ParameterType::CommaDelimitedList => {
            if matches!(allowed, Value::Str(_)) {
                return;
            }
            sink.report(
                cx.span(node),
                format!(
                    "allowed value `{shown}` is {}, but list items are strings",
                    py::a_type(allowed.type_name())
                ),
            )
            .help(format!(
                "quote it (`'{shown}'`): Heat compares each item of a `comma_delimited_list` value, always a string, with the allowed values as written, so this one never matches"
            ));
        }
        ParameterType::String | ParameterType::Json => {}
    }
}
