//! A resource field written as `{get_param: NAME}`: the parameter it names, its type, and the
//! value Heat gives it from its default (`heat/engine/parameters.py`, `Parameter.value()` of
//! each type).

use hotfix_hot::{CallStatus, Function, Named};
use hotfix_yaml::{Document, NodeId};

use crate::rule::Context;
use crate::rules::parameters::shared::{definition, param_type};
use crate::rules::py::{self, Num, Parsed, Value};
use crate::rules::resources::shared::call_at;
use hotfix_hot::parameter_schema::ParameterType;

/// A value written `{get_param: NAME}` or `{get_param: [NAME]}` (no path), naming a parameter
/// the template declares with a type Heat knows.
pub(super) struct ParamRef<'t> {
    pub(super) param: &'t Named,
    pub(super) ty: ParameterType,
    /// The parameter's `type` value, to point at.
    pub(super) type_node: NodeId,
    /// What `get_param` returns when no value is given: the default as the parameter converts
    /// it, with its node. `None` when there is no default, when Heat's own check of the
    /// parameter could fail first (any constraint but an `allowed_values` that lists the
    /// default; a default of the wrong type, `default-type-mismatch`'s), or when the value is
    /// not modelled (a `json` default written as a string).
    pub(super) default: Option<(Value, NodeId)>,
}

/// The parameter `node` reads, when it is exactly a one-name `get_param`.
pub(super) fn get_param<'t>(cx: &Context<'t>, node: NodeId) -> Option<ParamRef<'t>> {
    let call = call_at(cx, node)?;
    if call.status != CallStatus::Active(Function::GetParam) {
        return None;
    }
    let doc = cx.doc;
    let name_node = match doc.items(call.args) {
        Some(&[only]) => only,
        Some(_) => return None,
        None => call.args,
    };
    let param = cx.template.parameter(doc.str_value(name_node)?)?;
    let ty = param_type(cx, param)?;
    let map = definition(cx, param)?;
    Some(ParamRef {
        param,
        ty,
        type_node: doc.get(map, "type")?,
        default: default_value(doc, map, ty),
    })
}

fn default_value(doc: &Document, map: NodeId, ty: ParameterType) -> Option<(Value, NodeId)> {
    let node = doc.get(map, "default")?;
    let raw = py::load(doc, node)?;
    if matches!(raw, Value::None) || !constraints_pass(doc, map, ty, &raw) {
        return None;
    }
    Some((heat_value(ty, &raw)?, node))
}

/// `Parameter.value()` for a default (`raw`, as YAML loads it), when the parameter accepts it.
fn heat_value(ty: ParameterType, raw: &Value) -> Option<Value> {
    match ty {
        // `to_schema_type`: `str()`.
        ParameterType::String => match raw {
            Value::Bytes => None,
            other => Some(Value::Str(other.py_str())),
        },
        // `str_to_num`: numbers (and booleans) as they are, strings parsed.
        ParameterType::Number => match raw {
            Value::Bool(_) | Value::Int(_) | Value::Float(_) => Some(raw.clone()),
            Value::BigInt(_) if raw.as_i128().is_some() => Some(raw.clone()),
            Value::Str(s) => match py::str_to_num(s) {
                Parsed::Num(Num::Int(n)) => Some(Value::int(n)),
                Parsed::Num(Num::Float(f)) => Some(Value::Float(f)),
                Parsed::Error(_) | Parsed::Unknown => None,
            },
            _ => None,
        },
        ParameterType::Boolean => py::bool_from_string(raw).ok().map(Value::Bool),
        // A list's items as strings; a string split on commas (`''` is `[]`).
        ParameterType::CommaDelimitedList => match raw {
            Value::List(items) => Some(Value::List(
                items.iter().map(|i| Value::Str(i.py_str())).collect(),
            )),
            Value::Str(s) if s.is_empty() => Some(Value::List(Vec::new())),
            Value::Str(s) => Some(Value::List(
                s.split(',').map(|p| Value::Str(p.to_owned())).collect(),
            )),
            _ => None,
        },
        // `json.loads(json.dumps(default))`: the same data when it is plain JSON data.
        ParameterType::Json => {
            (matches!(raw, Value::List(_) | Value::Map(_)) && plain_json(raw)).then(|| raw.clone())
        }
    }
}

/// Whether a value survives `json.dumps` then `json.loads` unchanged: string keys, and
/// strings, numbers, booleans, nulls, lists and maps only.
fn plain_json(value: &Value) -> bool {
    match value {
        Value::None | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => true,
        // An `int` beyond `i128` and `bytes` are not modelled.
        Value::BigInt(digits) => digits.parse::<i128>().is_ok(),
        Value::Bytes | Value::Ellipsis => false,
        Value::List(items) => items.iter().all(plain_json),
        Value::Map(entries) => entries
            .iter()
            .all(|(k, v)| matches!(k, Value::Str(_)) && plain_json(v)),
    }
}

/// Whether Heat's check of the parameter certainly passes with its default: no constraints,
/// or (for a string) only `allowed_values` that list it.
fn constraints_pass(doc: &Document, map: NodeId, ty: ParameterType, raw: &Value) -> bool {
    let Some(constraints) = doc.get(map, "constraints") else {
        return true;
    };
    let Some(items) = doc.items(constraints) else {
        return false;
    };
    if items.is_empty() {
        return true;
    }
    if ty != ParameterType::String {
        return false;
    }
    let value = raw.py_str();
    items.iter().all(|&item| {
        let entries = doc.entries(item);
        let only_allowed = !entries.is_empty()
            && entries
                .iter()
                .all(|e| matches!(doc.str_value(e.key), Some("allowed_values" | "description")));
        only_allowed
            && doc
                .get(item, "allowed_values")
                .and_then(|a| doc.items(a))
                .is_some_and(|allowed| {
                    allowed
                        .iter()
                        .any(|&a| py::load(doc, a).is_some_and(|a| a.py_str() == value))
                })
    })
}
