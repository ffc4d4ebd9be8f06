use super::pyjson;
use super::shared::{
    Built, Outcome, build, constraint_items, definition, kinds, param_type, shown_value, span_in,
};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{self, Parsed, Value};
use hotfix_hot::parameter_schema::{ConstraintKind, ParameterType};

declare_rule! {
    /// ## What it does
    /// Checks that a parameter's `default` converts to the parameter's type the way Heat
    /// converts it: a `number` with Python's `int()` then `float()`; a `boolean` with
    /// `bool_from_string` (`true`/`false`, `yes`/`no`, `on`/`off`, `y`/`n`, `t`/`f`, `1`/`0`);
    /// a `json` string with `json.loads`; a `comma_delimited_list` must be a list or a
    /// string. (A `string` accepts anything: YAML `true` becomes `'True'`.)
    ///
    /// ## Why is this bad?
    /// Creating the stack fails unless a value is given for the parameter:
    /// `Parameter 'count' is invalid: could not convert string to float: 'two'`, or
    /// `Unrecognized value 'maybe', acceptable values are: …`, or
    /// `Value must be valid JSON: …`. `openstack orchestration template validate` does not
    /// check the default's type, so only the stack create fails — unless a constraint makes
    /// Heat convert the default earlier, or for a `comma_delimited_list`, whose default Heat
    /// splits when validating (`Default must be a comma-delimited list string: …`).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   count:
    ///     type: number
    ///     default: two
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   count:
    ///     type: number
    ///     default: 2
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H405",
        name: "default-type-mismatch",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// Why Heat cannot convert a default, and whether template-validate already sees it.
struct Mismatch {
    message: String,
    heat: String,
    early: bool,
}

fn convert(ty: ParameterType, raw: &Value) -> Option<Mismatch> {
    match ty {
        ParameterType::String => None,
        ParameterType::Number => match py::to_num(raw) {
            Parsed::Error(heat) => Some(Mismatch {
                message: "is not a number".to_owned(),
                heat,
                early: false,
            }),
            Parsed::Num(_) | Parsed::Unknown => None,
        },
        ParameterType::Boolean => py::bool_from_string(raw).err().map(|heat| Mismatch {
            message: "is not a boolean".to_owned(),
            heat,
            early: false,
        }),
        ParameterType::Json => {
            let Value::Str(text) = raw else {
                return None;
            };
            if text.is_empty() {
                return None;
            }
            match pyjson::loads(text)? {
                Ok(()) => None,
                Err(error) => Some(Mismatch {
                    message: "is not valid JSON".to_owned(),
                    heat: format!("Value must be valid JSON: {error}"),
                    early: false,
                }),
            }
        }
        ParameterType::CommaDelimitedList => match raw {
            Value::List(_) | Value::Str(_) | Value::Bytes => None,
            // An `int` beyond `i128` is not modelled.
            Value::BigInt(_) if raw.as_i128().is_none() => None,
            other => Some(Mismatch {
                message: format!(
                    "is {}, not a list or a comma-separated string",
                    py::a_type(other.type_name())
                ),
                heat: format!(
                    "Default must be a comma-delimited list string: '{}' object has no attribute 'split'",
                    other.type_name()
                ),
                early: true,
            }),
        },
    }
}

/// The text template-validate gives when a constraint converts the default first (the
/// first applicable constraint of a `number` or the `allowed_values` of a `boolean`).
/// The error of Heat's `to_schema_type` for a `number` or `boolean` value, if it fails.
fn schema_type_error(ty: ParameterType, value: &Value) -> Option<String> {
    let shown = value.py_str();
    match ty {
        ParameterType::Number => match py::to_num(value) {
            Parsed::Error(_) if matches!(value, Value::Str(_)) => Some(format!(
                "Value \"{shown}\" is invalid for data type \"number\"."
            )),
            Parsed::Error(type_error) => Some(type_error),
            Parsed::Num(_) | Parsed::Unknown => None,
        },
        ParameterType::Boolean => py::bool_from_string(&Value::Str(shown.clone()))
            .err()
            .map(|_| format!("Value \"{shown}\" is invalid for data type \"boolean\".")),
        _ => None,
    }
}

fn early_text(
    cx: &Context<'_>,
    map: hotfix_yaml::NodeId,
    ty: ParameterType,
    raw: &Value,
) -> Option<String> {
    let version = cx.version()?;
    for item in constraint_items(cx.doc, map) {
        let Some(first) = kinds(cx.doc, item, version).into_iter().next() else {
            continue;
        };
        if !first.kind.applies_to(ty) || first.kind == ConstraintKind::CustomConstraint {
            continue;
        }
        let Outcome::Built(built) = build(cx, &first) else {
            continue;
        };
        let shown = raw.py_str();
        let text = match (ty, &built) {
            (ParameterType::Number, Built::Range { .. } | Built::Modulo { .. }) => {
                match py::to_num(raw) {
                    Parsed::Error(e) => e,
                    _ => return None,
                }
            }
            // A list is compared item by item, unconverted.
            (ParameterType::Number | ParameterType::Boolean, Built::AllowedValues(allowed))
                if matches!(raw, Value::List(_)) =>
            {
                let Value::List(items) = raw else { continue };
                if items
                    .iter()
                    .all(|v| allowed.iter().any(|(_, a)| v.py_eq(a)))
                {
                    continue;
                }
                let listed: Vec<String> =
                    allowed.iter().map(|(_, a)| a.json_dumps(false)).collect();
                format!(
                    "{} is not an allowed value [{}]",
                    raw.json_dumps(false),
                    listed.join(", ")
                )
            }
            // `to_schema_type` converts the allowed values first, then the default.
            (ParameterType::Number | ParameterType::Boolean, Built::AllowedValues(allowed)) => {
                allowed
                    .iter()
                    .find_map(|(_, a)| schema_type_error(ty, a))
                    .or_else(|| schema_type_error(ty, raw))?
            }
            _ => continue,
        };
        return Some(format!("Invalid default {shown} ({text})"));
    }
    None
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for param in &cx.template.parameters {
        let (Some(map), Some(ty)) = (definition(cx, param), param_type(cx, param)) else {
            continue;
        };
        let Some(node) = doc.get(map, "default") else {
            continue;
        };
        let Some(raw) = py::load(doc, node) else {
            continue;
        };
        if matches!(raw, Value::None) {
            continue;
        }
        let Some(mismatch) = convert(ty, &raw) else {
            continue;
        };
        let name = &param.name;
        let early = if mismatch.early {
            None
        } else {
            early_text(cx, map, ty, &raw)
        };
        let when = match (&early, mismatch.early) {
            (Some(_), _) => {
                "template validate reports it because a constraint converts the default"
            }
            (None, true) => "template validate reports it",
            (None, false) => "template validate passes, stack create fails",
        };
        let heat_text = early.unwrap_or(mismatch.heat);
        let advice = match ty {
            ParameterType::Number => "write a number".to_owned(),
            ParameterType::Boolean => "write `true` or `false`".to_owned(),
            ParameterType::Json => {
                "write the default as YAML data, or fix the JSON text".to_owned()
            }
            ParameterType::CommaDelimitedList => {
                "write a list (`[a, b]`) or a comma-separated string (`'a,b'`)".to_owned()
            }
            ParameterType::String => String::new(),
        };
        sink.report(
            span_in(cx, param, node),
            format!(
                "default {} of {} parameter `{name}` {}",
                shown_value(&raw),
                ty.name(),
                mismatch.message
            ),
        )
        .help(format!(
            "{advice}; {when}; Heat: `Parameter '{name}' is invalid: {heat_text}`"
        ));
    }
}
