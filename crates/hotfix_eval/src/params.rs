//! Parameters as Heat builds and checks them at stack create (`heat/engine/parameters.py`,
//! `heat/engine/hot/parameters.py`, `heat/engine/constraints.py`): the schema of each, its
//! value (user value, else `parameter_defaults`, else the template's default) converted to the
//! type, and `Parameters.validate(validate_value=True)`.

use std::collections::HashMap;
use std::sync::OnceLock;

use hotfix_hot::parameter_schema::{CONSTRAINT_KEYS, ConstraintKind, ParameterType};
use hotfix_hot::python;
use hotfix_hot::{Template, Version};
use hotfix_yaml::{Document, NodeId, NodeKind};

use crate::constraints::Rule;
use crate::value::{NotNumber, Value, get_str};
use crate::{Fail, Inputs};

/// The pseudo parameters of the oracle's stack (`OS::stack_id`, `OS::project_id`,
/// `OS::stack_name`).
pub const STACK_ID: &str = "00000000-0000-4000-8000-000000000000";
pub const PROJECT_ID: &str = "oracle-project";
pub const STACK_NAME: &str = "oracle";

#[derive(Debug, Default)]
pub(crate) struct Parameters {
    params: Vec<Param>,
    /// What is left of the steps the parameters' patterns may take in all
    /// ([`crate::regex::FILE_STEPS`]).
    steps: std::sync::atomic::AtomicUsize,
    /// The places in `params`, in the order of the parameters' names (one parameter a
    /// name), for a binary search by name.
    by_name: Vec<usize>,
    /// User values naming no parameter of the template.
    unknown: Vec<String>,
}

#[derive(Debug)]
struct Param {
    name: String,
    kind: ParameterType,
    default: Option<Value>,
    user_default: Option<Value>,
    user_value: Option<Value>,
    constraints: Vec<Constraint>,
    node: Option<NodeId>,
    pseudo: bool,
    /// The name as the oracle prints it (a YAML `true:` key is `"true"`), when it is not
    /// `name` (a key that loads as a `str`).
    json_name: Option<String>,
    /// The raw value converted to the parameter's type, once (as Heat's `ParsedParameter`
    /// parses its value once): a `json` parameter is not parsed again for each `get_param`.
    converted: OnceLock<Result<Value, Fail>>,
    /// What [`Param::validate`] found, once: each `get_param` of a parameter asks whether its
    /// default is valid ([`Parameters::defaulted`]), and its patterns are matched once, not
    /// once per question (which would spend the parameters' budget of steps on repeats).
    validated: OnceLock<Result<(), Fail>>,
}

#[derive(Debug)]
struct Constraint {
    rule: Rule,
    description: Option<String>,
}

fn schema_error(message: String) -> Fail {
    Fail::new("InvalidSchemaError", message)
}

impl Parameters {
    pub(crate) fn new(
        doc: &Document,
        template: &Template<'_>,
        inputs: &Inputs,
    ) -> Result<Parameters, Fail> {
        let version = template.version().unwrap_or(Version::LATEST);
        let mut params = Vec::with_capacity(3 + template.parameters.len());
        params.extend([
            pseudo("OS::stack_id", STACK_ID),
            pseudo("OS::project_id", PROJECT_ID),
            pseudo("OS::stack_name", STACK_NAME),
        ]);
        // The user's values by name, the last of a name winning.
        let given: HashMap<&str, &Value> =
            inputs.params.iter().map(|(n, v)| (n.as_str(), v)).collect();
        for p in &template.parameters {
            let mut param = schema(doc, version, &p.name, p.value)?;
            if Value::node_str(doc, p.key).is_none() {
                param.json_name = Some(Value::from_node(doc, p.key).json_name());
            }
            param.user_value = given
                .get(p.name.as_str())
                .map(|&v| v.clone())
                .filter(|v| !v.is_none());
            params.push(param);
        }
        // A parameter named like one before it (a pseudo parameter) replaces it, last.
        let mut by_name = name_order(&params);
        if by_name
            .windows(2)
            .any(|w| params[w[0]].name == params[w[1]].name)
        {
            // Of the places of one name (in order, next to each other), the last is kept.
            let mut keep = vec![true; params.len()];
            for w in by_name.windows(2) {
                if params[w[0]].name == params[w[1]].name {
                    keep[w[0]] = false;
                }
            }
            let mut kept = keep.iter();
            params.retain(|_| kept.next().copied().unwrap_or(false));
            by_name = name_order(&params);
        }
        for (name, value) in &inputs.parameter_defaults {
            if let Some(i) = find(&params, &by_name, name) {
                let p = &mut params[i];
                if p.pseudo {
                    p.default = Some(value.clone());
                } else {
                    p.user_default = Some(value.clone()).filter(|v| !v.is_none());
                }
            }
        }
        // A name is declared by the template when its parameter is not a pseudo one (a
        // template parameter named like a pseudo parameter replaced it).
        let unknown = inputs
            .params
            .iter()
            .filter(|(n, _)| find(&params, &by_name, n).is_none_or(|i| params[i].pseudo))
            .map(|(n, _)| n.clone())
            .collect();
        Ok(Parameters {
            params,
            steps: std::sync::atomic::AtomicUsize::new(crate::regex::FILE_STEPS),
            by_name,
            unknown,
        })
    }

    /// The template's parameters (no pseudo parameters) as the oracle lists them: the name
    /// as JSON prints it, and the value or the error of `parameters[name]`.
    pub(crate) fn listing(&self) -> Vec<(String, Result<Value, Fail>)> {
        // Heat's `non_pseudo_param_keys`: a template parameter named like a pseudo parameter
        // (`OS::stack_name`) replaces it, and is not listed either.
        self.params
            .iter()
            .filter(|p| {
                !p.pseudo
                    && !hotfix_hot::PSEUDO_PARAMETERS.contains(&p.name.as_str())
                    && p.name != "OS::region"
            })
            .map(|p| {
                let name = p.json_name.as_ref().unwrap_or(&p.name);
                (name.clone(), p.value())
            })
            .collect()
    }

    /// `parameters[name]`: the converted value.
    pub(crate) fn value(&self, name: &str) -> Result<Value, Fail> {
        let Some(i) = find(&self.params, &self.by_name, name) else {
            return Err(missing(name));
        };
        self.params[i].value()
    }

    /// What `get_param` finds: `UserParameterMissing` for an unknown name.
    pub(crate) fn get(&self, name: &str) -> Result<Value, Fail> {
        self.value(name)
    }

    /// Whether `name` is a parameter of the template (not a pseudo parameter) whose value,
    /// with no user input, is its own valid default.
    pub(crate) fn defaulted(&self, name: &str) -> bool {
        find(&self.params, &self.by_name, name).is_some_and(|i| {
            let p = &self.params[i];
            !p.pseudo
                && !hotfix_hot::PSEUDO_PARAMETERS.contains(&name)
                && name != "OS::region"
                && p.default.is_some()
                && p.user_value.is_none()
                && p.user_default.is_none()
                && p.validate(&self.steps).is_ok()
                && p.value().is_ok()
        })
    }

    /// `Parameters.validate(validate_value=True)`.
    pub(crate) fn validate(&self) -> Result<(), Fail> {
        if let Some(name) = self.unknown.first() {
            return Err(Fail::new(
                "UnknownUserParameter",
                format!("The Parameter ({name}) was not defined in template."),
            ));
        }
        for p in &self.params {
            p.validate(&self.steps).map_err(|f| match p.node {
                Some(n) => f.at(n),
                None => f,
            })?;
        }
        Ok(())
    }
}

/// The places of `params` in the order of their names, a name's places in their order.
fn name_order(params: &[Param]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..params.len()).collect();
    // Places are distinct: the order is total, and an unstable sort gives the stable one.
    order.sort_unstable_by(|&a, &b| params[a].name.cmp(&params[b].name).then(a.cmp(&b)));
    order
}

/// The place in `params` of the parameter named `name`, by a binary search of `by_name`
/// ([`name_order`] of `params`, one place a name).
fn find(params: &[Param], by_name: &[usize], name: &str) -> Option<usize> {
    by_name
        .binary_search_by(|&i| params[i].name.as_str().cmp(name))
        .ok()
        .map(|k| by_name[k])
}

fn missing(name: &str) -> Fail {
    Fail::new(
        "UserParameterMissing",
        format!("The Parameter ({name}) was not provided."),
    )
}

fn pseudo(name: &str, value: &str) -> Param {
    Param {
        name: name.to_owned(),
        kind: ParameterType::String,
        default: Some(Value::Str(value.to_owned())),
        user_default: None,
        user_value: None,
        constraints: Vec::new(),
        node: None,
        pseudo: true,
        json_name: None,
        converted: OnceLock::new(),
        validated: OnceLock::new(),
    }
}

/// `HOTParamSchema.from_dict`. Only what it reads of the definition is loaded (the
/// constraints, the default); the other fields are checked for their keys alone, as Heat
/// checks them.
fn schema(doc: &Document, version: Version, name: &str, node: NodeId) -> Result<Param, Fail> {
    let mapping = doc.resolve(node);
    if !matches!(doc.node(mapping).kind, NodeKind::Mapping { .. }) {
        return Err(
            schema_error(format!("Invalid parameter ({name}), expected a mapping")).at(node),
        );
    }
    // The entries of the loaded `dict`, in its order (as `Value::from_node` builds it).
    let entries = doc.entries(mapping);
    let keys = version.parameter_keys();
    for e in &entries {
        if !Value::node_str(doc, e.key).is_some_and(|k| keys.contains(&k)) {
            let key = Value::from_node(doc, e.key).py_str();
            return Err(
                schema_error(format!("Invalid key '{key}' for parameter ({name})")).at(node),
            );
        }
    }
    // Every key is a `str` by now: the first entry of that text is the one `dict.get` finds.
    let field = |key: &str| {
        entries
            .iter()
            .find(|e| Value::node_str(doc, e.key) == Some(key))
            .map(|e| e.value)
    };
    let Some(ty) = field("type") else {
        return Err(schema_error(format!("Missing parameter type for parameter: {name}")).at(node));
    };
    if let Some(tags) = field("tags")
        && doc.items(tags).is_none()
    {
        return Err(schema_error(format!(
            "Tags property should be a list for parameter: {name}"
        ))
        .at(node));
    }
    let mut constraints = Vec::new();
    if let Some(list) = field("constraints")
        .map(|c| Value::from_node(doc, c))
        .filter(|c| !c.is_none())
    {
        let Value::List(items) = list else {
            return Err(schema_error(format!(
                "Invalid parameter constraints for parameter {name}, expected a list"
            ))
            .at(node));
        };
        for item in &items {
            constraints.push(constraint(version, item).map_err(|f| f.at(node))?);
        }
    }
    let Some(kind) = Value::node_str(doc, ty).and_then(ParameterType::parse) else {
        let ty = Value::from_node(doc, ty).py_str();
        return Err(schema_error(format!("Invalid type ({ty})")).at(node));
    };
    Ok(Param {
        name: name.to_owned(),
        kind,
        default: field("default")
            .map(|d| Value::from_node(doc, d))
            .filter(|v| !v.is_none()),
        user_default: None,
        user_value: None,
        constraints,
        node: Some(node),
        pseudo: false,
        json_name: None,
        converted: OnceLock::new(),
        validated: OnceLock::new(),
    })
}

/// `_constraint_from_def`.
#[allow(
    clippy::too_many_lines,
    reason = "each kind of constraint in Heat's order"
)]
fn constraint(version: Version, item: &Value) -> Result<Constraint, Fail> {
    let Value::Map(entries) = item else {
        return Err(schema_error(
            "Invalid parameter constraints, expected a mapping".to_owned(),
        ));
    };
    for (k, _) in entries {
        if !py_str_in(k, &CONSTRAINT_KEYS) {
            return Err(schema_error(format!(
                "Invalid key '{}' for parameter constraints",
                k.py_str()
            )));
        }
    }
    let field = |key: &str| get_str(entries, key);
    let description = field("description").map(Value::py_str);
    let bounds = |key: &str,
                  entity: &str,
                  names: [&str; 2]|
     -> Result<(Option<Value>, Option<Value>), Fail> {
        let Some(Value::Map(cdef)) = field(key) else {
            return Err(schema_error(format!(
                "Invalid {entity}, expected a mapping"
            )));
        };
        for (k, _) in cdef {
            if !py_str_in(k, &names) {
                return Err(schema_error(format!(
                    "Invalid key '{}' for {entity}",
                    k.py_str()
                )));
            }
        }
        let num = |k: &str| -> Result<Option<Value>, Fail> {
            match get_str(cdef, k) {
                None | Some(Value::None) => Ok(None),
                Some(v) => str_to_num(v).map(Some),
            }
        };
        Ok((num(names[0])?, num(names[1])?))
    };
    let rule = if ConstraintKind::Modulo.read_by(version) && field("modulo").is_some() {
        let (step, offset) = bounds("modulo", "modulo constraint", ["step", "offset"])?;
        let (Some(step_v), Some(offset_v)) = (&step, &offset) else {
            return Err(schema_error(
                "A modulo constraint must have a step value and an offset value specified."
                    .to_owned(),
            ));
        };
        // `int(param) == param` for each, then `int()` of each.
        let (Some(s), Some(o)) = (modulo_int(step_v)?, modulo_int(offset_v)?) else {
            return Err(schema_error("step/offset must be integer".to_owned()));
        };
        if s == 0 {
            return Err(schema_error("step cannot be 0.".to_owned()));
        }
        if o.unsigned_abs() >= s.unsigned_abs() {
            return Err(schema_error(
                "offset must be smaller (by absolute value) than step.".to_owned(),
            ));
        }
        if (s < 0 && o > 0) || (s > 0 && o < 0) {
            return Err(schema_error(
                "step and offset must be both positive or both negative.".to_owned(),
            ));
        }
        Rule::Modulo {
            step: step_v.clone(),
            offset: offset_v.clone(),
        }
    } else if field("range").is_some() {
        let (min, max) = bounds("range", "range constraint", ["min", "max"])?;
        if min.is_none() && max.is_none() {
            return Err(schema_error(
                "A range constraint must have a min value and/or a max value specified.".to_owned(),
            ));
        }
        Rule::Range { min, max }
    } else if field("length").is_some() {
        let (min, max) = bounds("length", "length constraint", ["min", "max"])?;
        if min.is_none() && max.is_none() {
            return Err(schema_error(
                "A length constraint must have a min value and/or a max value specified."
                    .to_owned(),
            ));
        }
        // `isinstance(param, int)`: a whole float is not one.
        for b in [&min, &max].into_iter().flatten() {
            if !matches!(b, Value::Int(_) | Value::BigInt(_) | Value::Bool(_)) {
                return Err(schema_error("min/max length must be integral".to_owned()));
            }
        }
        Rule::Length { min, max }
    } else if let Some(allowed) = field("allowed_values") {
        let Value::List(allowed) = allowed else {
            return Err(schema_error("AllowedValues must be a list".to_owned()));
        };
        Rule::AllowedValues(allowed.clone())
    } else if let Some(pattern) = field("allowed_pattern") {
        let Value::Str(pattern) = pattern else {
            return Err(schema_error("AllowedPattern must be a string".to_owned()));
        };
        match crate::regex::compile(pattern) {
            crate::regex::Compiled::Regex(regex) => Rule::Pattern(pattern.clone(), Some(regex)),
            crate::regex::Compiled::Invalid(message) => return Err(Fail::new("error", message)),
            crate::regex::Compiled::Unsupported => Rule::Pattern(pattern.clone(), None),
        }
    } else if field("custom_constraint").is_some() {
        Rule::Custom
    } else {
        return Err(schema_error("No constraint expressed".to_owned()));
    };
    Ok(Constraint { rule, description })
}

/// Whether `str(key)` is one of `names`, with no `str()` built for a key that is a `str`.
fn py_str_in(key: &Value, names: &[&str]) -> bool {
    match key {
        Value::Str(s) => names.contains(&s.as_str()),
        other => names.contains(&other.py_str().as_str()),
    }
}

/// A modulo bound as `Modulo.__init__` takes it: `Some` when integral (`int(param) ==
/// param`), `None` when not; `int()`'s own error for a NaN or an infinity.
fn modulo_int(v: &Value) -> Result<Option<i128>, Fail> {
    match v {
        Value::Float(f) if f.is_nan() => Err(Fail::value_error(
            "cannot convert float NaN to integer".to_owned(),
        )),
        Value::Float(f) if f.is_infinite() => Err(Fail::new(
            "OverflowError",
            "cannot convert float infinity to integer".to_owned(),
        )),
        Value::Float(f) if f.fract() != 0.0 => Ok(None),
        #[allow(
            clippy::cast_possible_truncation,
            reason = "an integral float; one beyond i128 saturates, still out of any range"
        )]
        Value::Float(f) => Ok(Some(*f as i128)),
        other => other.as_i128().map(Some).ok_or_else(|| {
            Fail::not_evaluated("a modulo bound beyond 128 bits is not modelled".to_owned())
        }),
    }
}

impl Param {
    fn raw(&self) -> Option<&Value> {
        self.user_value
            .as_ref()
            .or(self.user_default.as_ref())
            .or(self.default.as_ref())
    }

    fn value(&self) -> Result<Value, Fail> {
        self.refuse_bytes()?;
        let raw = self.raw();
        if self.kind == ParameterType::Boolean {
            let raw = raw.cloned().unwrap_or(Value::None);
            bool_from_string(&raw.py_str()).map(Value::Bool)
        } else {
            let Some(raw) = raw else {
                return Err(missing(&self.name));
            };
            self.converted(raw).clone()
        }
    }

    /// `convert(self.kind, raw)` of the parameter's raw value, computed once.
    fn converted(&self, raw: &Value) -> &Result<Value, Fail> {
        self.converted.get_or_init(|| convert(self.kind, raw))
    }

    #[allow(
        clippy::too_many_lines,
        reason = "Parameter.validate and Schema.validate in Heat's order"
    )]
    /// What Heat does with `bytes` in a parameter's value or default (`str()` of them, their
    /// JSON, their `int()`, a pattern over them) is not modelled.
    fn refuse_bytes(&self) -> Result<(), Fail> {
        let mut values = [&self.user_value, &self.user_default, &self.default]
            .into_iter()
            .flatten();
        if values.any(Value::holds_bytes) {
            return Err(Fail::not_evaluated(format!(
                "the parameter {}: a !!binary value (Python bytes) is not evaluated",
                self.name
            )));
        }
        Ok(())
    }

    fn validate(&self, steps: &std::sync::atomic::AtomicUsize) -> Result<(), Fail> {
        self.validated
            .get_or_init(|| self.validate_once(steps))
            .clone()
    }

    /// [`Param::validate`], worked out.
    fn validate_once(&self, steps: &std::sync::atomic::AtomicUsize) -> Result<(), Fail> {
        self.refuse_bytes()?;
        let wrap = |f: Fail| -> Fail {
            if matches!(f.class, "StackValidationFailed" | "InvalidSchemaError") {
                Fail::new(
                    f.class,
                    format!("Parameter '{}' is invalid: {}", self.name, f.message),
                )
            } else {
                f
            }
        };
        // Schema.validate: applicability, then the template's default.
        for c in &self.constraints {
            if !c.rule.kind().applies_to(self.kind) {
                return Err(wrap(schema_error(format!(
                    "{} constraint invalid for {}",
                    c.rule.kind().class_name(),
                    self.kind.name()
                ))));
            }
        }
        if let Some(default) = &self.default {
            let checked = match (self.kind, default) {
                (ParameterType::CommaDelimitedList, Value::List(items)) => Ok(Value::List(
                    items.iter().map(|i| Value::Str(i.py_str())).collect(),
                )),
                (ParameterType::CommaDelimitedList, Value::Str(s)) => Ok(Value::List(
                    s.split(',').map(|p| Value::Str(p.to_owned())).collect(),
                )),
                (ParameterType::CommaDelimitedList, other) => Err(schema_error(format!(
                    "Default must be a comma-delimited list string: '{}' object has no attribute 'split'",
                    other.type_name()
                ))),
                (_, v) => Ok(v.clone()),
            };
            let checked = checked.map_err(wrap)?;
            match self.check_constraints(&checked, steps) {
                Err(f) if f.class == "NotEvaluated" => return Err(f),
                Err(f) => {
                    return Err(wrap(schema_error(format!(
                        "Invalid default {} ({})",
                        default.py_str(),
                        f.message
                    ))));
                }
                Ok(()) => {}
            }
        }
        let Some(value) = self
            .user_value
            .as_ref()
            .or(self.user_default.as_ref())
            .or(self.default.as_ref())
        else {
            return Err(missing(&self.name));
        };
        // Heat turns the `ValueError`s of a value into `StackValidationFailed`; a
        // `RecursionError` (a JSON value nested too deep) goes through as it is, and so does
        // what hotfix does not evaluate.
        let stack_failed = |f: Fail| {
            if matches!(f.class, "RecursionError" | "NotEvaluated") {
                f
            } else {
                Fail::new("StackValidationFailed", f.message)
            }
        };
        let checked = match self.kind {
            ParameterType::Number => {
                str_to_num(value).map_err(stack_failed).map_err(wrap)?;
                value.clone()
            }
            ParameterType::Boolean => {
                // oslo's `bool_from_string` takes the `str()` of what is not a string.
                if !matches!(value, Value::Bool(_)) {
                    bool_from_string(&value.py_str())
                        .map_err(stack_failed)
                        .map_err(wrap)?;
                }
                value.clone()
            }
            ParameterType::CommaDelimitedList | ParameterType::Json => self
                .converted(value)
                .clone()
                .map_err(stack_failed)
                .map_err(wrap)?,
            ParameterType::String => value.clone(),
        };
        self.check_constraints(&checked, steps)
            .map_err(stack_failed)
            .map_err(wrap)
    }

    /// `Schema.validate_constraints` (custom constraints accept everything, as in the oracle),
    /// with the checks every part of hotfix shares ([`crate::constraints`]).
    fn check_constraints(
        &self,
        value: &Value,
        steps: &std::sync::atomic::AtomicUsize,
    ) -> Result<(), Fail> {
        for c in &self.constraints {
            let valid = match c.rule.is_valid_within(self.kind, value, steps) {
                // A pattern in syntax hotfix does not model is taken as matching, as before
                // there was one model of the checks (what Heat does with it is not known). A
                // match given up on (too long, or the parameters' budget of steps spent) is
                // not: its answer is unknown, and so is the parameter's value.
                Err(f) if f.class == "NotEvaluated" && matches!(c.rule, Rule::Pattern(_, None)) => {
                    true
                }
                other => other?,
            };
            if !valid {
                let message = match &c.description {
                    Some(d) => d.clone(),
                    None => c.rule.err_msg(value),
                };
                return Err(Fail::value_error(message));
            }
        }
        Ok(())
    }
}

/// A parameter's value converted to its type.
fn convert(kind: ParameterType, raw: &Value) -> Result<Value, Fail> {
    match kind {
        ParameterType::String => Ok(Value::Str(raw.py_str())),
        ParameterType::Number => str_to_num(raw),
        ParameterType::Boolean => bool_from_string(&raw.py_str()).map(Value::Bool),
        ParameterType::CommaDelimitedList => match raw {
            Value::List(items) => Ok(Value::List(
                items.iter().map(|i| Value::Str(i.py_str())).collect(),
            )),
            Value::Str(s) if s.is_empty() => Ok(Value::List(Vec::new())),
            Value::Str(s) => Ok(Value::List(
                s.split(',').map(|p| Value::Str(p.to_owned())).collect(),
            )),
            other => Err(Fail::value_error(format!(
                "Value must be a comma-delimited list string: '{}' object has no attribute 'split'",
                other.type_name()
            ))),
        },
        ParameterType::Json => match raw {
            Value::Str(s) if s.is_empty() => Ok(raw.clone()),
            Value::Str(s) => crate::json::loads(s).map_err(|err| {
                if err.class == "ValueError" {
                    Fail::value_error(format!("Value must be valid JSON: {}", err.message))
                } else {
                    err
                }
            }),
            // dumps then loads: keys become strings.
            other => Ok(other.json_roundtrip()),
        },
    }
}

/// `Schema.str_to_num` ([`Value::str_to_num`]), failing as the evaluator fails.
pub(crate) fn str_to_num(v: &Value) -> Result<Value, Fail> {
    v.str_to_num().map_err(|not| match not {
        NotNumber::Raised { class, message } => Fail::new(class, message),
        NotNumber::Unknown(why) => Fail::not_evaluated(why),
    })
}

/// An `int` as a value: `Int` within `i64`, else its digits.
pub(crate) fn int_value(n: python::Int) -> Value {
    match n {
        python::Int::Small(n) => {
            i64::try_from(n).map_or_else(|_| Value::BigInt(n.to_string()), Value::Int)
        }
        python::Int::Big(digits) => Value::BigInt(digits),
    }
}

/// `oslo_utils.strutils.bool_from_string(subject, strict=True)`
/// ([`hotfix_hot::python::bool_from_string`]).
pub(crate) fn bool_from_string(subject: &str) -> Result<bool, Fail> {
    python::bool_from_string(subject).map_err(Fail::value_error)
}
