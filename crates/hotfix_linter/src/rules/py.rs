//! How Python sees the values of a template once PyYAML has loaded them, for every rule
//! family: a node as a literal or a call ([`View`], [`Arg`]), a whole value ([`Value`], loaded
//! or computed), and the Python operations Heat applies to them: `str()`, `repr()`,
//! `json.dumps()`, `==`, truthiness, `int()`/`float()`, `len()` and `%`.

mod view;

use hotfix_hot::python;
use hotfix_yaml::{Document, NodeId};

pub(in crate::rules) use view::{Arg, PyInt, View};

use hotfix_eval::NotNumber;
pub(in crate::rules) use hotfix_eval::{Num, Value};

/// Nodes a value may expand to (through aliases) before it is not worth modelling.
const MAX_NODES: usize = 10_000;

/// The value of a node, or `None` when it is too large to model ([`Value::load_within`]).
pub(in crate::rules) fn load(doc: &Document, id: NodeId) -> Option<Value> {
    Value::load_within(doc, id, MAX_NODES)
}

/// Python's type name of the value a node loads as (`str`, `int`, `list`, …).
pub(in crate::rules) fn python_type(doc: &Document, id: NodeId) -> &'static str {
    // `Arg::of` tells no call apart: a call's mapping is a `dict` like any other.
    Arg::of(doc, id).py_type().unwrap_or("dict")
}

/// Whether Python finds the loaded value false (`None`, `''`, `0`, `False`, `[]`, `{}`).
pub(in crate::rules) fn is_falsy(doc: &Document, id: NodeId) -> bool {
    Arg::of(doc, id).truthy(doc) == Some(false)
}

pub(in crate::rules) use hotfix_yaml::python_str_repr as str_repr;

/// Python's `len()`, or the `TypeError` text.
pub(in crate::rules) fn py_len(value: &Value) -> Result<usize, String> {
    value
        .py_len()
        .ok_or_else(|| format!("object of type '{}' has no len()", value.type_name()))
}

/// What Python's `int(s)` then `float(s)` (Heat's `str_to_num`) make of a string.
pub(in crate::rules) enum Parsed {
    Num(Num),
    /// Python's `ValueError` text.
    Error(String),
    /// Non-ASCII text or an integer too large: not modelled.
    Unknown,
}

/// What Python's `int(s)` makes of a `str`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::rules) enum StrInt {
    /// The value (`None`: outside `i128`).
    Value(Option<i128>),
    ValueError,
    /// Unicode digits: not modelled.
    Unknown,
}

/// Python's `int(s)` for a `str` ([`hotfix_hot::python::int_of_str`]).
pub(in crate::rules) fn str_int(s: &str) -> StrInt {
    match python::int_of_str(s) {
        Ok(python::Int::Small(n)) => StrInt::Value(Some(n)),
        Ok(python::Int::Big(_)) => StrInt::Value(None),
        Err(python::NotConverted::ValueError) => StrInt::ValueError,
        Err(python::NotConverted::Unknown) => StrInt::Unknown,
    }
}

/// Heat's `Schema.str_to_num` for a string ([`Value::str_to_num`]).
pub(in crate::rules) fn str_to_num(s: &str) -> Parsed {
    to_num(&Value::Str(s.to_owned()))
}

/// Heat's `Schema.str_to_num` for any value ([`Value::str_to_num`]): numbers as they are,
/// strings parsed, anything else the `TypeError` of `int()`; an integer beyond `i128` is not
/// modelled.
pub(in crate::rules) fn to_num(value: &Value) -> Parsed {
    match value.str_to_num() {
        Ok(number) => number.as_num().map_or(Parsed::Unknown, Parsed::Num),
        Err(NotNumber::Raised { message, .. }) => Parsed::Error(message),
        Err(NotNumber::Unknown(_)) => Parsed::Unknown,
    }
}

/// What `str_to_num` returns for `original`, parsed as `num`: a number as it is (a `bool`
/// stays one), a string's number.
pub(in crate::rules) fn num_value(original: &Value, num: Num) -> Value {
    if original.as_num().is_some() {
        return original.clone();
    }
    match num {
        Num::Int(n) => Value::int(n),
        Num::Float(f) => Value::Float(f),
    }
}

/// `oslo_utils.strutils.bool_from_string(value, strict=True)`
/// ([`hotfix_hot::python::bool_from_string`] of its `str()`).
pub(in crate::rules) fn bool_from_string(value: &Value) -> Result<bool, String> {
    if let Value::Bool(b) = value {
        return Ok(*b);
    }
    python::bool_from_string(&value.py_str())
}

/// A Python type name with its article: `an int`, `a str`, `a dict`.
pub(in crate::rules) fn a_type(name: &str) -> String {
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> String {
        match str_to_num(s) {
            Parsed::Num(Num::Int(n)) => format!("int {n}"),
            Parsed::Num(Num::Float(f)) => format!("float {}", Value::Float(f).py_str()),
            Parsed::Error(e) => e,
            Parsed::Unknown => "unknown".to_owned(),
        }
    }

    #[test]
    fn converts_strings_like_python() {
        assert_eq!(num(" 1_000 "), "int 1000");
        assert_eq!(num("012"), "int 12");
        assert_eq!(num("-3"), "int -3");
        assert_eq!(num("1.5"), "float 1.5");
        assert_eq!(num("1e3"), "float 1000.0");
        assert_eq!(num(".5"), "float 0.5");
        assert_eq!(num("5."), "float 5.0");
        assert_eq!(num("-inf"), "float -inf");
        assert_eq!(num("abc"), "could not convert string to float: 'abc'");
        assert_eq!(num("0x10"), "could not convert string to float: '0x10'");
        assert_eq!(num("1__0"), "could not convert string to float: '1__0'");
        assert_eq!(num("it's"), "could not convert string to float: \"it's\"");
        assert_eq!(num(""), "could not convert string to float: ''");
        assert_eq!(num("."), "could not convert string to float: '.'");
        assert_eq!(num("héllo"), "could not convert string to float: 'héllo'");
        assert_eq!(num("١٢"), "unknown");
    }

    #[test]
    fn converts_strings_to_int_as_python_does() {
        assert_eq!(str_int(" 12 "), StrInt::Value(Some(12)));
        assert_eq!(str_int("-1_000"), StrInt::Value(Some(-1000)));
        assert_eq!(str_int("+5"), StrInt::Value(Some(5)));
        assert_eq!(str_int("\u{a0}12\u{2000}"), StrInt::Value(Some(12)));
        assert_eq!(str_int("1.0"), StrInt::ValueError);
        assert_eq!(str_int("_1"), StrInt::ValueError);
        assert_eq!(str_int("1__0"), StrInt::ValueError);
        assert_eq!(str_int(""), StrInt::ValueError);
        // `str.strip()` takes these off, `int()` does not.
        assert_eq!(str_int("\x1c12"), StrInt::ValueError);
        assert_eq!(str_int("١٢"), StrInt::Unknown);
        assert_eq!(
            str_int("999999999999999999999999999999999999999999"),
            StrInt::Value(None)
        );
        assert_eq!(
            num("\x1f1.5"),
            "could not convert string to float: '\\x1f1.5'"
        );
        assert_eq!(num("\u{a0}1.5"), "float 1.5");
    }

    #[test]
    fn prints_strings_and_floats_as_python_repr_does() {
        assert_eq!(str_repr("a"), "'a'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(str_repr("a\nb"), "'a\\nb'");
        assert_eq!(str_repr("tab\t\u{85}"), "'tab\\t\\x85'");
        // Every character Python calls not printable, as Python 3.11 (Heat's) escapes it.
        assert_eq!(str_repr("\u{a0}get_param"), "'\\xa0get_param'");
        assert_eq!(str_repr("a\u{2028}b\u{feff}"), "'a\\u2028b\\ufeff'");
        assert_eq!(str_repr("\u{e0001}é😀"), "'\\U000e0001é😀'");
        assert_eq!(Value::Float(1.5).py_repr(), "1.5");
        assert_eq!(Value::Float(f64::NAN).py_repr(), "nan");
        assert_eq!(Value::Float(f64::NEG_INFINITY).py_str(), "-inf");
    }

    #[test]
    fn python_modulo_and_printing() {
        let m = |a, b| match Num::Int(a).modulo(Num::Int(b)) {
            Some(Num::Int(n)) => n,
            _ => i128::MAX,
        };
        assert_eq!(m(-3, 2), 1);
        assert_eq!(m(3, -2), -1);
        assert_eq!(m(7, 2), 1);
        assert_eq!(m(-4, -3), -1);
        assert_eq!(
            Value::List(vec![
                Value::Str("a".into()),
                Value::Int(1),
                Value::Bool(true),
                Value::None
            ])
            .py_str(),
            "['a', 1, True, None]"
        );
        assert_eq!(Value::Str("é\n".into()).json_dumps(false), "\"\\u00e9\\n\"");
        assert_eq!(
            bool_from_string(&Value::Float(1.0)).map_err(|e| !e.is_empty()),
            Err(true)
        );
        assert_eq!(bool_from_string(&Value::Str(" Yes ".into())), Ok(true));
    }
}
