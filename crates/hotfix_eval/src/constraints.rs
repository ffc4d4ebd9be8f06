//! A value checked against a parameter constraint as Heat checks it
//! (`heat/engine/constraints.py`: `Range`, `Length`, `Modulo`, `AllowedValues`,
//! `AllowedPattern`, each `_is_valid` and `_err_msg`): the one model the evaluator and the
//! linter's rules check values with. Building a constraint from its definition is the
//! caller's (the evaluator builds it from values, the linter from nodes it can point at).

use std::cmp::Ordering;

use hotfix_hot::parameter_schema::{ConstraintKind, ParameterType};

use crate::Fail;
use crate::params::{bool_from_string, str_to_num};
use crate::regex::Regex;
use crate::value::{Num, Value};

/// A constraint as Heat builds it.
#[derive(Debug)]
pub enum Rule {
    /// Bounds as `Schema.str_to_num` returns them (an `int`, `float` or `bool`).
    Range {
        min: Option<Value>,
        max: Option<Value>,
    },
    /// Bounds as `Schema.str_to_num` returns them, integral.
    Length {
        min: Option<Value>,
        max: Option<Value>,
    },
    /// Integral numbers as `Schema.str_to_num` returns them (`2.0` stays a float, as Heat
    /// prints it), `step` not 0.
    Modulo {
        step: Value,
        offset: Value,
    },
    AllowedValues(Vec<Value>),
    /// `allowed_pattern`, and its compiled form (`None`: syntax [`crate::regex`] does not
    /// model).
    Pattern(String, Option<Regex>),
    /// Needs a cloud: every value passes.
    Custom,
}

/// What checking a value against a [`Rule`] gives.
#[derive(Debug)]
pub enum Verdict {
    Pass,
    /// The constraint's failure, in Heat's words (before a `description` replaces them).
    Violated(String),
    /// What Heat raises while checking, before any verdict: `str_to_num`'s or
    /// `to_schema_type`'s error for a value that is not of the type, the `TypeError` of
    /// `len()` or of `re` for a value without a length or that is not a string: the
    /// exception's class and `str()`.
    Raised {
        class: &'static str,
        message: String,
    },
    /// Not modelled: a pattern's syntax, an `int` beyond `i128`, Unicode digits.
    Unknown,
}

impl Rule {
    /// Its kind, of the model every part of hotfix shares.
    pub fn kind(&self) -> ConstraintKind {
        match self {
            Rule::Range { .. } => ConstraintKind::Range,
            Rule::Length { .. } => ConstraintKind::Length,
            Rule::Modulo { .. } => ConstraintKind::Modulo,
            Rule::AllowedValues(_) => ConstraintKind::AllowedValues,
            Rule::Pattern(..) => ConstraintKind::AllowedPattern,
            Rule::Custom => ConstraintKind::CustomConstraint,
        }
    }

    /// `Constraint.validate(value, schema)` for a parameter of type `kind`.
    pub fn check(&self, kind: ParameterType, value: &Value) -> Verdict {
        self.check_within(
            kind,
            value,
            &std::sync::atomic::AtomicUsize::new(crate::regex::MAX_STEPS),
        )
    }

    /// [`Rule::check`], a pattern matched within the steps left of `steps`: a budget the
    /// checks of one file share ([`crate::regex::FILE_STEPS`]).
    pub fn check_within(
        &self,
        kind: ParameterType,
        value: &Value,
        steps: &std::sync::atomic::AtomicUsize,
    ) -> Verdict {
        match self.is_valid_within(kind, value, steps) {
            Ok(true) => Verdict::Pass,
            Ok(false) => Verdict::Violated(self.err_msg(value)),
            Err(fail) if fail.class == "NotEvaluated" => Verdict::Unknown,
            Err(fail) => Verdict::Raised {
                class: fail.class,
                message: fail.message,
            },
        }
    }

    /// `_is_valid`; `NotEvaluated` for what is not modelled.
    pub(crate) fn is_valid_within(
        &self,
        kind: ParameterType,
        value: &Value,
        steps: &std::sync::atomic::AtomicUsize,
    ) -> Result<bool, Fail> {
        match self {
            Rule::Range { min, max } => within(&str_to_num(value)?, min.as_ref(), max.as_ref()),
            Rule::Length { min, max } => {
                if matches!(value, Value::Bytes) {
                    return Err(not_modelled("the length of bytes"));
                }
                let Some(length) = value.py_len() else {
                    return Err(Fail::type_error(format!(
                        "object of type '{}' has no len()",
                        value.type_name()
                    )));
                };
                let length = Value::int(i128::try_from(length).unwrap_or(i128::MAX));
                within(&length, min.as_ref(), max.as_ref())
            }
            Rule::Modulo { step, offset } => {
                let rest = modulo(&str_to_num(value)?, step)?;
                Ok(compare(&rest, offset)? == Ordering::Equal)
            }
            Rule::AllowedValues(allowed) => {
                // Heat's text names them with `json.dumps`, which fails on `bytes`.
                if allowed.iter().any(Value::holds_bytes) {
                    return Err(not_modelled("a !!binary allowed value"));
                }
                if let Value::List(items) = value {
                    return Ok(items.iter().all(|v| allowed.iter().any(|a| a.py_eq(v))));
                }
                // `to_schema_type` of every allowed value first, then of the value: the first
                // that raises decides; one not modelled (Unicode digits, which Python reads)
                // is taken to convert, and the verdict is then not known.
                let mut unknown = None;
                let mut converted = Vec::with_capacity(allowed.len());
                for a in allowed.iter().chain(std::iter::once(value)) {
                    match to_schema_type(kind, a) {
                        Ok(v) => converted.push(v),
                        Err(fail) if fail.class == "NotEvaluated" => {
                            unknown.get_or_insert(fail);
                        }
                        Err(fail) => return Err(fail),
                    }
                }
                if let Some(fail) = unknown {
                    return Err(fail);
                }
                let value = converted.pop().unwrap_or(Value::None);
                Ok(converted.iter().any(|a| a.py_eq(&value)))
            }
            Rule::Pattern(_, regex) => {
                let Value::Str(text) = value else {
                    return Err(Fail::type_error(format!(
                        "expected string or bytes-like object, got '{}'",
                        value.type_name()
                    )));
                };
                let Some(regex) = regex else {
                    return Err(not_modelled("the pattern's syntax"));
                };
                regex.full_match_within(text, steps).ok_or_else(|| {
                    Fail::not_evaluated(
                        "the match of the pattern is not evaluated: a value over 4,096 characters, or too many steps"
                            .to_owned(),
                    )
                })
            }
            Rule::Custom => Ok(true),
        }
    }

    /// `_err_msg`.
    pub(crate) fn err_msg(&self, value: &Value) -> String {
        let opt = |v: &Option<Value>| v.as_ref().map_or_else(|| "None".to_owned(), Value::py_str);
        match self {
            Rule::Range { min, max } => format!(
                "{} is out of range (min: {}, max: {})",
                value.py_str(),
                opt(min),
                opt(max)
            ),
            Rule::Length { min, max } => format!(
                "length ({}) is out of range (min: {}, max: {})",
                value.py_len().unwrap_or(0),
                opt(min),
                opt(max)
            ),
            Rule::Modulo { step, offset } => format!(
                "{} is not a multiple of {} with an offset of {}",
                value.py_str(),
                step.py_str(),
                offset.py_str()
            ),
            Rule::AllowedValues(allowed) => format!(
                "{} is not an allowed value [{}]",
                value.json_dumps(false),
                allowed
                    .iter()
                    .map(|a| a.json_dumps(false))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Rule::Pattern(pattern, _) => {
                format!(
                    "\"{}\" does not match pattern \"{pattern}\"",
                    value.py_str()
                )
            }
            Rule::Custom => String::new(),
        }
    }
}

fn not_modelled(what: &str) -> Fail {
    Fail::not_evaluated(format!("{what} is not modelled"))
}

/// `to_schema_type`, as `allowed_values` compares scalars: its `ValueError` says the value
/// is invalid for the type; a `TypeError` (`int()` of a list) passes through.
fn to_schema_type(kind: ParameterType, v: &Value) -> Result<Value, Fail> {
    let invalid = |fail: Fail| {
        if fail.class != "ValueError" {
            return fail;
        }
        Fail::value_error(format!(
            "Value \"{}\" is invalid for data type \"{}\".",
            v.py_str(),
            kind.name()
        ))
    };
    match kind {
        ParameterType::Number => str_to_num(v).map_err(invalid),
        ParameterType::String => Ok(Value::Str(v.py_str())),
        ParameterType::Boolean => bool_from_string(&v.py_str())
            .map(Value::Bool)
            .map_err(invalid),
        ParameterType::CommaDelimitedList | ParameterType::Json => Ok(v.clone()),
    }
}

/// `min <= n <= max` for the bounds given.
fn within(n: &Value, min: Option<&Value>, max: Option<&Value>) -> Result<bool, Fail> {
    for (bound, refused) in [(min, Ordering::Less), (max, Ordering::Greater)] {
        if let Some(bound) = bound {
            // `value < self.min` (or `> self.max`) refuses; a NaN compares false both ways,
            // so it passes.
            if number(n)?.cmp_num(number(bound)?) == Some(refused) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Python's order of two numbers (`Less` when a NaN makes them unordered: they are not
/// equal); `NotEvaluated` beyond `i128`.
fn compare(a: &Value, b: &Value) -> Result<Ordering, Fail> {
    Ok(number(a)?.cmp_num(number(b)?).unwrap_or(Ordering::Less))
}

fn number(v: &Value) -> Result<Num, Fail> {
    v.as_num()
        .ok_or_else(|| not_modelled("an int beyond 128 bits"))
}

/// Python's `value % step`; a built `Modulo` has a step that is not 0.
fn modulo(value: &Value, step: &Value) -> Result<Value, Fail> {
    match number(value)?.modulo(number(step)?) {
        Some(Num::Int(n)) => Ok(Value::int(n)),
        Some(Num::Float(f)) => Ok(Value::Float(f)),
        None => Err(not_modelled("a modulo by 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: i64) -> Value {
        Value::Int(n)
    }

    fn verdict(rule: &Rule, kind: ParameterType, value: &Value) -> String {
        match rule.check(kind, value) {
            Verdict::Pass => "pass".to_owned(),
            Verdict::Violated(text) => text,
            Verdict::Raised { class, message } => format!("{class}: {message}"),
            Verdict::Unknown => "unknown".to_owned(),
        }
    }

    #[test]
    fn ranges_compare_ints_and_floats_exactly_as_python_does() {
        let rule = Rule::Range {
            min: None,
            max: Some(Value::Float(9_007_199_254_740_992.0)),
        };
        // 2**53 + 1 > 2.0**53 in Python, though both are the same float.
        assert_eq!(
            verdict(&rule, ParameterType::Number, &int((1 << 53) + 1)),
            "9007199254740993 is out of range (min: None, max: 9007199254740992.0)"
        );
        assert_eq!(verdict(&rule, ParameterType::Number, &int(1 << 53)), "pass");
        let rule = Rule::Range {
            min: Some(int(0)),
            max: None,
        };
        assert_eq!(
            verdict(&rule, ParameterType::Number, &Value::Str("1e400".into())),
            "pass"
        );
        assert_eq!(
            verdict(&rule, ParameterType::Number, &Value::Str("nan".into())),
            "pass"
        );
        assert_eq!(
            verdict(&rule, ParameterType::Number, &Value::Str("x".into())),
            "ValueError: could not convert string to float: 'x'"
        );
        assert_eq!(
            verdict(&rule, ParameterType::Number, &Value::BigInt("1".repeat(50))),
            "unknown"
        );
        assert_eq!(
            verdict(
                &rule,
                ParameterType::Number,
                &Value::BigInt("99999999999999999999".into())
            ),
            "pass"
        );
    }

    #[test]
    fn modulo_keeps_the_bounds_as_heat_prints_them_and_takes_float_remainders() {
        let rule = Rule::Modulo {
            step: Value::Float(2.0),
            offset: Value::Float(0.0),
        };
        assert_eq!(
            verdict(&rule, ParameterType::Number, &int(3)),
            "3 is not a multiple of 2.0 with an offset of 0.0"
        );
        assert_eq!(verdict(&rule, ParameterType::Number, &int(4)), "pass");
        let rule = Rule::Modulo {
            step: int(-3),
            offset: int(-1),
        };
        // -7 % -3 == -1; 2.0 % -3 == -1.0.
        assert_eq!(verdict(&rule, ParameterType::Number, &int(-7)), "pass");
        assert_eq!(
            verdict(&rule, ParameterType::Number, &Value::Float(2.0)),
            "pass"
        );
        assert_eq!(
            verdict(&rule, ParameterType::Number, &int(7)),
            "7 is not a multiple of -3 with an offset of -1"
        );
    }

    #[test]
    fn allowed_values_convert_the_allowed_values_before_the_value() {
        let rule = Rule::AllowedValues(vec![int(1), Value::Str("two".into())]);
        assert_eq!(
            verdict(&rule, ParameterType::Number, &Value::Str("x".into())),
            "ValueError: Value \"two\" is invalid for data type \"number\"."
        );
        let rule = Rule::AllowedValues(vec![int(1), Value::Str("2.0".into())]);
        assert_eq!(
            verdict(&rule, ParameterType::Number, &Value::Str("2".into())),
            "pass"
        );
        assert_eq!(
            verdict(&rule, ParameterType::Number, &int(3)),
            "3 is not an allowed value [1, \"2.0\"]"
        );
        assert_eq!(
            verdict(&rule, ParameterType::Number, &Value::List(vec![])),
            "pass"
        );
        let rule = Rule::AllowedValues(vec![Value::Map(vec![])]);
        assert_eq!(
            verdict(&rule, ParameterType::Number, &int(1)),
            "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'dict'"
        );
        let rule = Rule::AllowedValues(vec![Value::Str("True".into())]);
        assert_eq!(
            verdict(&rule, ParameterType::Boolean, &Value::Str("yes".into())),
            "pass"
        );
        let rule = Rule::AllowedValues(vec![Value::Str("a".into())]);
        assert_eq!(
            verdict(
                &rule,
                ParameterType::CommaDelimitedList,
                &Value::List(vec![Value::Str("a".into()), Value::Str("b".into())])
            ),
            "[\"a\", \"b\"] is not an allowed value [\"a\"]"
        );
    }

    #[test]
    fn lengths_and_patterns_raise_as_python_does() {
        let rule = Rule::Length {
            min: Some(int(2)),
            max: None,
        };
        assert_eq!(
            verdict(&rule, ParameterType::String, &int(5)),
            "TypeError: object of type 'int' has no len()"
        );
        assert_eq!(
            verdict(&rule, ParameterType::String, &Value::Str("é".into())),
            "length (1) is out of range (min: 2, max: None)"
        );
        let rule = Rule::Pattern("[a-z]+".into(), None);
        assert_eq!(
            verdict(&rule, ParameterType::String, &int(5)),
            "TypeError: expected string or bytes-like object, got 'int'"
        );
        assert_eq!(
            verdict(&rule, ParameterType::String, &Value::Str("x".into())),
            "unknown"
        );
    }
}
