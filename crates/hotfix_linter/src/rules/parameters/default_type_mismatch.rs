use hotfix_eval::constraints::{Rule, Verdict};

use super::pyjson;
use super::shared::{
    Outcome, build, constraint_items, definition, kinds, param_type, shown_value, span_in,
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
        let converts = match &built.rule {
            Rule::Range { .. } | Rule::Modulo { .. } => ty == ParameterType::Number,
            Rule::AllowedValues(_) => {
                matches!(ty, ParameterType::Number | ParameterType::Boolean)
            }
            _ => false,
        };
        if !converts {
            continue;
        }
        // The number constraints convert the default with `str_to_num`; `allowed_values`
        // converts the allowed values, then the default, with `to_schema_type` (a list is
        // compared item by item, unconverted).
        let list = matches!(raw, Value::List(_));
        let text = match built.rule.check(ty, raw) {
            Verdict::Raised { message, .. } => message,
            Verdict::Violated(text) if list => text,
            Verdict::Pass if list => continue,
            Verdict::Pass | Verdict::Violated(_) | Verdict::Unknown => return None,
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
