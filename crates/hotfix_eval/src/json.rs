//! Python's `json.loads` ([`hotfix_yaml::json_loads`]) building Python values: the order of
//! keys kept (a `dict` keeps insertion order), Python's error texts.

use hotfix_yaml::json_loads::{Build, LoadsError};

use crate::Fail;
use crate::value::{Dict, Value};

/// How deeply arrays and objects may nest: Python's decoder recurses once per level and
/// stops at its recursion limit. Measured with Heat's oracle (a `json` parameter's default):
/// 987 levels decode, 988 raise `RecursionError`. Heat deeper in its call stack (an engine
/// serving a request) stops earlier, never later, so an error past this depth is certain.
pub(crate) const MAX_DEPTH: usize = 987;

/// Parses JSON text as `json.loads` does (`NaN`, `Infinity` and `-Infinity` accepted). The
/// error is a `ValueError` with Python's text, or the `RecursionError` of a document nested
/// deeper than [`MAX_DEPTH`].
pub(crate) fn loads(text: &str) -> Result<Value, Fail> {
    hotfix_yaml::json_loads::loads(text, MAX_DEPTH, &mut Values).map_err(|err| match err {
        LoadsError::Syntax(message) => Fail::value_error(message),
        LoadsError::TooDeep { array } => Fail::new(
            "RecursionError",
            format!(
                "maximum recursion depth exceeded while decoding a JSON {} from a unicode string",
                if array { "array" } else { "object" }
            ),
        ),
    })
}

/// Builds Python's values. A lone surrogate, which a Rust string cannot hold, becomes U+FFFD.
struct Values;

impl Build for Values {
    type Value = Value;
    fn null(&mut self) -> Value {
        Value::None
    }
    fn boolean(&mut self, value: bool) -> Value {
        Value::Bool(value)
    }
    fn number(&mut self, text: &str, float: bool) -> Value {
        if float {
            return Value::Float(match text {
                "NaN" => f64::NAN,
                "Infinity" => f64::INFINITY,
                "-Infinity" => f64::NEG_INFINITY,
                _ => text.parse().unwrap_or(f64::NAN),
            });
        }
        text.parse::<i64>()
            .map_or_else(|_| Value::BigInt(text.to_owned()), Value::Int)
    }
    fn string(&mut self, code_points: &[u32]) -> Value {
        Value::Str(hotfix_yaml::json_loads::code_points_to_string(code_points))
    }
    fn list(&mut self, items: Vec<Value>) -> Value {
        Value::List(items)
    }
    fn object(&mut self, entries: Vec<(Vec<u32>, Value)>) -> Value {
        if entries.is_empty() {
            return Value::Map(Vec::new());
        }
        let mut dict = Dict::default();
        for (key, value) in entries {
            dict.insert(self.string(&key), value);
        }
        dict.into_value()
    }
}

#[cfg(test)]
mod depth_tests {
    use super::*;

    fn nested(depth: usize, open: &str, close: &str) -> String {
        format!("{}1{}", open.repeat(depth), close.repeat(depth))
    }

    #[test]
    fn decodes_as_deep_as_heat_and_fails_past_it_as_heat_does() {
        // 987 levels decode in Heat's oracle, 988 raise (a json parameter's default).
        assert!(loads(&nested(MAX_DEPTH, "[", "]")).is_ok());
        assert!(loads(&nested(MAX_DEPTH, "{\"a\":", "}")).is_ok());
        let err = loads(&nested(MAX_DEPTH + 1, "[", "]")).expect_err("too deep");
        assert_eq!(err.class, "RecursionError");
        assert_eq!(
            err.message,
            "maximum recursion depth exceeded while decoding a JSON array from a unicode string"
        );
        let err = loads(&nested(MAX_DEPTH + 1, "{\"a\":", "}")).expect_err("too deep");
        assert_eq!(
            err.message,
            "maximum recursion depth exceeded while decoding a JSON object from a unicode string"
        );
        // Far deeper: the same error, and no overflow of hotfix's own stack.
        let err = loads(&nested(1_000_000, "[", "]")).expect_err("too deep");
        assert_eq!(err.class, "RecursionError");
        let err = loads("[1,]").expect_err("invalid");
        assert_eq!(err.class, "ValueError");
    }
}
