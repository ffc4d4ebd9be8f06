//! The checks Heat's function classes make of their arguments before anything is resolved:
//! in their constructors, when the template is parsed (the `__init__` of each class of
//! `heat/engine/hot/functions.py` and `heat/engine/cfn/functions.py`), and in `validate()`.
//! Heat refuses such a template wherever the call is.
//!
//! One model for the linter (which sees a call's arguments as nodes, a call inside them being
//! of unknown value) and the evaluator (which sees them parsed): each describes an argument
//! through [`Arg`], and both get the same [`Refusal`], with Heat's exception.
//!
//! ```
//! use hotfix_hot::function_args::{Arg, Kind, Shape, constructor_refusal};
//! use hotfix_hot::{Function, Version};
//!
//! /// A literal string, or a list of them.
//! #[derive(Clone)]
//! enum Lit {
//!     Str(&'static str),
//!     List(Vec<Lit>),
//! }
//!
//! impl Arg for Lit {
//!     fn shape(&self) -> Shape<'_> {
//!         match self {
//!             Lit::Str(s) => Shape::Str(s),
//!             Lit::List(_) => Shape::List,
//!         }
//!     }
//!     fn truthy(&self) -> Option<bool> {
//!         Some(match self {
//!             Lit::Str(s) => !s.is_empty(),
//!             Lit::List(items) => !items.is_empty(),
//!         })
//!     }
//!     fn items(&self) -> Vec<Self> {
//!         match self {
//!             Lit::List(items) => items.clone(),
//!             Lit::Str(_) => Vec::new(),
//!         }
//!     }
//!     fn entries(&self) -> Vec<(Self, Self)> {
//!         Vec::new()
//!     }
//!     fn get(&self, _: &str) -> Option<Self> {
//!         None
//!     }
//! }
//!
//! let args = Lit::List(vec![Lit::Str("a")]);
//! let refusal = constructor_refusal(Function::Filter, Version::V2018_08_31, &args)
//!     .expect("refused");
//! assert_eq!(refusal.kind, Kind::Count);
//! assert_eq!(refusal.class, "ValueError");
//! assert_eq!(
//!     refusal.text,
//!     r#""filter" expected 2 arguments of the form [values, sequence] but got 1 arguments instead"#
//! );
//! let args = Lit::List(vec![Lit::Str("a"), Lit::Str("b")]);
//! assert!(constructor_refusal(Function::Filter, Version::V2018_08_31, &args).is_none());
//! ```

use crate::{Function, Version};

/// What an argument is to Heat's constructor, before anything is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape<'s> {
    Null,
    Bool(bool),
    Int,
    Float,
    Str(&'s str),
    /// `bytes` (a `!!binary` scalar).
    Bytes,
    List,
    Map,
    /// A function call: an object of Heat's class for it.
    Call(Function),
    /// What the front end does not judge: no check refuses it.
    Unknown,
}

/// An argument of a call (or a part of it), as a front end sees it.
pub trait Arg: Sized {
    /// What it is.
    fn shape(&self) -> Shape<'_>;
    /// Python's truthiness, when known (a call is an object, always true).
    fn truthy(&self) -> Option<bool>;
    /// The items of a list.
    fn items(&self) -> Vec<Self>;
    /// The keys and values of a mapping.
    fn entries(&self) -> Vec<(Self, Self)>;
    /// The value of a mapping's entry, by its string key.
    fn get(&self, key: &str) -> Option<Self>;
    /// For a `Ref` call: whether it names a resource of the template (Heat then builds a
    /// `GetResource`, else a `ParamRef`).
    fn names_resource(&self) -> bool {
        false
    }
    /// For a call: what it resolves to, where Heat compares the call by its result
    /// (`resource_facade`'s `args in (...)`): `Some(Some(text))` for a string, `Some(None)`
    /// for anything else or an error, `None` when the front end does not resolve calls.
    fn result_str(&self) -> Option<Option<String>> {
        None
    }
    /// Python's `str()` of it, when known (Heat formats it into a message).
    fn py_str(&self) -> Option<String> {
        None
    }
    /// Python's `int()` of it (an `int`, a `bool` included, as it is).
    fn int(&self) -> IntOf {
        IntOf::Unknown
    }
}

/// What Python's `int(x)` gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntOf {
    /// The number (`None` beyond `i128`) and its digits, as `%d` prints it.
    Value(Option<i128>, String),
    /// A `ValueError` (`int('x')`, `int(float('nan'))`).
    ValueError,
    /// Another exception: its class and text (`TypeError` of a list, `OverflowError` of an
    /// infinite float).
    Raised(&'static str, String),
    /// Not known (a call, a value the front end does not model).
    Unknown,
}

/// What is wrong with a call's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The argument should be a list.
    NotList,
    /// The argument should be a mapping.
    NotMap,
    /// The argument (a CloudFormation-style function's) does not unpack into its parts: not
    /// iterable, a string or mapping where a list is needed, or the wrong number of items.
    NotUnpacked,
    /// `get_attr` names no resource: its argument is empty (false to Python).
    Empty,
    /// A list with the wrong number of items.
    Count,
    /// A mapping without this key.
    Missing(&'static str),
    /// A key of the mapping that the function does not know (`at` is the key).
    UnknownKey,
    /// The `params` of `str_replace` (or the first item of `Fn::Replace`) is not a mapping.
    Params,
    /// The key name of `Fn::MemberListToMap` is not a string.
    KeyName,
    /// The value name of `Fn::MemberListToMap` is not a string.
    ValueName,
    /// `permutations` of `repeat` is not a boolean.
    Permutations,
    /// `for_each` of `repeat` is not a mapping.
    ForEachNotMap,
    /// `expression` of `yaql` is not a string.
    Expression,
    /// Not one of the values the function takes (`resource_facade`).
    NotAllowed,
    /// `not` of `null`.
    NotCondition,
    /// `Ref` of what Python cannot hash (it looks the argument up in the stack).
    Unhashable,
    /// Python would iterate a `bytes` here, which is not modelled: no text.
    Bytes,
    /// `make_url`'s `query` is not a mapping.
    QueryNotMap,
    /// A `make_url` argument other than `query` and `port` (this one) is not a string.
    NotString(&'static str),
    /// `make_url`'s `port` is not a number (`int()` raises a `ValueError`).
    PortNotNumber,
    /// `make_url`'s `port` is a value `int()` refuses with another exception.
    PortRaised,
    /// `make_url`'s `port` is out of range 1-65535.
    PortRange,
}

/// A refusal: what is wrong, where, and the exception Heat raises.
#[derive(Clone, Debug)]
pub struct Refusal<A> {
    pub kind: Kind,
    /// The argument, or the part of it, that is wrong.
    pub at: A,
    /// The exception's class: `TypeError`, `ValueError`, `KeyError`.
    pub class: &'static str,
    /// The exception's argument (the `str()` of a `KeyError` is its `repr()`).
    pub text: String,
}

/// The error a function's constructor raises for its (parsed, unresolved) arguments, if any.
/// A removed function has no checks; `if` (a macro, parsed by the evaluator) and `get_file`
/// are not judged here.
#[allow(
    clippy::too_many_lines,
    reason = "one arm per function's constructor, as in Heat"
)]
pub fn constructor_refusal<A: Arg + Clone>(
    function: Function,
    version: Version,
    args: &A,
) -> Option<Refusal<A>> {
    use Function as F;
    let name = function.name();
    let refuse = |kind, class, text: String| refusal(kind, args.clone(), class, text);
    match function {
        F::GetAttr => get_attr(version, args),
        F::ListJoin | F::FnJoin => {
            let multiple = function == F::ListJoin && version.has_join_multiple();
            let more = if multiple { " ..." } else { "" };
            let text = format!(
                r#"Incorrect arguments to "{name}" should be: "{name}" : [ " ", [ "str1", "str2"]{more}]"#
            );
            match args.shape() {
                Shape::Unknown => None,
                Shape::List => {
                    let n = args.items().len();
                    let fine = if multiple { n >= 2 } else { n == 2 };
                    if fine {
                        None
                    } else {
                        refuse(Kind::Count, VALUE_ERROR, text)
                    }
                }
                _ => refuse(Kind::NotList, TYPE_ERROR, text),
            }
        }
        F::StrReplace | F::StrReplaceStrict | F::StrReplaceVstrict => str_replace(name, args),
        F::FnReplace => fn_replace(version, args),
        F::Repeat => repeat(version, args),
        F::StrSplit => match args.shape() {
            Shape::Str(_) | Shape::Map => refuse(
                Kind::NotList,
                TYPE_ERROR,
                format!(
                    r#"Incorrect arguments to "{name}" should be: "{name}" : [ ",", "apples,pears", <index>]"#
                ),
            ),
            _ => None,
        },
        F::FnSplit => {
            let text = format!(
                r#"Incorrect arguments to "{name}" should be: "{name}" : [ ",", "str1,str2"]]"#
            );
            if let Shape::Str(_) | Shape::Map = args.shape() {
                return refuse(Kind::NotUnpacked, TYPE_ERROR, text);
            }
            unpack(version, args, 2, VALUE_ERROR, text).err()
        }
        F::FnSelect => {
            let text = format!(r#"Arguments to "{name}" must be of the form [index, collection]"#);
            unpack(version, args, 2, VALUE_ERROR, text).err()
        }
        F::FnMemberListToMap => member_list_to_map(version, args),
        F::ResourceFacade | F::FnResourceFacade => {
            let allowed = if function == F::ResourceFacade {
                ["metadata", "deletion_policy", "update_policy"]
            } else {
                ["Metadata", "DeletionPolicy", "UpdatePolicy"]
            };
            // `args in (...)`: a call compares by its result (`Function.__eq__`).
            let fine = match args.shape() {
                Shape::Unknown => return None,
                Shape::Str(s) => allowed.contains(&s),
                Shape::Call(_) => args.result_str()?.is_some_and(|s| allowed.contains(&&*s)),
                _ => false,
            };
            if fine {
                return None;
            }
            let text = format!(
                r#"Incorrect arguments to "{name}" should be one of: {}"#,
                allowed.join(", ")
            );
            refuse(Kind::NotAllowed, VALUE_ERROR, text)
        }
        F::Equals => match args.shape() {
            Shape::Unknown => None,
            Shape::List if args.items().len() == 2 => None,
            _ => refuse(
                Kind::Count,
                VALUE_ERROR,
                format!(r#"Arguments to "{name}" must be of the form: [value_1, value_2]"#),
            ),
        },
        F::Not => match args.shape() {
            Shape::Null => refuse(
                Kind::NotCondition,
                VALUE_ERROR,
                format!(r#"Argument to "{name}" must be a condition"#),
            ),
            _ => None,
        },
        F::And | F::Or => match args.shape() {
            Shape::Unknown => None,
            Shape::List if args.items().len() >= 2 => None,
            Shape::List => refuse(
                Kind::Count,
                VALUE_ERROR,
                format!(r#"The minimum number of condition arguments to "{name}" is 2."#),
            ),
            _ => refuse(
                Kind::NotList,
                VALUE_ERROR,
                format!(r#"Arguments to "{name}" must be a list of conditions"#),
            ),
        },
        F::Filter => match args.shape() {
            Shape::Unknown => None,
            Shape::List => {
                let n = args.items().len();
                if n == 2 {
                    return None;
                }
                refuse(
                    Kind::Count,
                    VALUE_ERROR,
                    format!(
                        r#""{name}" expected 2 arguments of the form [values, sequence] but got {n} arguments instead"#
                    ),
                )
            }
            _ => refuse(
                Kind::NotList,
                TYPE_ERROR,
                format!(r#"Argument to "{name}" must be a list"#),
            ),
        },
        F::Contains => {
            let n = match args.shape() {
                Shape::Unknown => return None,
                Shape::List => args.items().len(),
                _ => 0,
            };
            if n == 0 {
                let text = format!(
                    r#"Incorrect arguments to "{name}" should be: "{name}" : [ "value1", [ "value1", "value2"]]"#
                );
                return refuse(Kind::NotList, TYPE_ERROR, text);
            }
            if n == 2 {
                return None;
            }
            let text =
                format!(r#"Arguments to "{name}" must be of the form: [value1, [value1, value2]]"#);
            refuse(Kind::Count, VALUE_ERROR, text)
        }
        F::Yaql => yaql(args),
        F::Ref => {
            // `args in stack` (a resource, else a parameter) hashes the argument.
            let class = match args.shape() {
                Shape::List => "list",
                Shape::Map => "dict",
                Shape::Call(f) => class_of_call(f, version, args),
                _ => return None,
            };
            refuse(
                Kind::Unhashable,
                TYPE_ERROR,
                format!("unhashable type: '{class}'"),
            )
        }
        F::GetParam
        | F::GetResource
        | F::GetFile
        | F::If
        | F::Digest
        | F::MapMerge
        | F::MapReplace
        | F::ListConcat
        | F::ListConcatUnique
        | F::MakeUrl
        | F::FnBase64
        | F::FnGetAzs => None,
    }
}

/// The error a function's `validate()` raises for its unresolved arguments beyond those of its
/// constructor, where hotfix shares the check: `yaql`'s expression must be a string (a call
/// there is not checked), `make_url`'s arguments, `repeat`'s `for_each` a mapping.
pub fn validate_refusal<A: Arg + Clone>(function: Function, args: &A) -> Option<Refusal<A>> {
    match function {
        Function::Yaql => yaql_expression_refusal(args.get("expression")?),
        Function::MakeUrl => make_url(args),
        Function::Repeat => {
            // `Repeat.validate()`: `for_each` a mapping (or a call).
            let for_each = args.get("for_each")?;
            if let Shape::Map | Shape::Call(_) | Shape::Unknown = for_each.shape() {
                return None;
            }
            let text = format!(
                r#"The "for_each" argument to "{}" must contain a map"#,
                function.name()
            );
            refusal(Kind::ForEachNotMap, for_each, TYPE_ERROR, text)
        }
        _ => None,
    }
}

/// `MakeURL._ARG_KEYS`, in Heat's order (the order `_check_args` looks at them).
pub const URL_KEYS: [&str; 8] = [
    "scheme", "username", "password", "host", "port", "path", "query", "fragment",
];

/// `MakeURL.validate()`: a mapping of [`URL_KEYS`] only, then [`url_args_refusal`].
fn make_url<A: Arg + Clone>(args: &A) -> Option<Refusal<A>> {
    let name = Function::MakeUrl.name();
    if let Err(found) = mapping(args, || {
        format!(r#"The arguments to "{name}" must be a map"#)
    }) {
        return found;
    }
    // Heat joins the keys it does not know (a set: here in the order written); `join` fails
    // on the first that is not a string.
    let odd: Vec<A> = args
        .entries()
        .into_iter()
        .map(|(key, _)| key)
        .filter(|key| !matches!(key.shape(), Shape::Str(k) if URL_KEYS.contains(&k)))
        .collect();
    let Some(first) = odd.first().cloned() else {
        return url_args_refusal(args);
    };
    let mut names = Vec::new();
    for (i, key) in odd.iter().enumerate() {
        let type_name = match key.shape() {
            Shape::Str(k) => {
                names.push(k.to_owned());
                continue;
            }
            Shape::Unknown | Shape::Call(_) => return None,
            Shape::Null => "NoneType",
            Shape::Bool(_) => "bool",
            Shape::Int => "int",
            Shape::Float => "float",
            Shape::Bytes => "bytes",
            Shape::List => "list",
            Shape::Map => "dict",
        };
        let text = format!("sequence item {i}: expected str instance, {type_name} found");
        return refusal(Kind::UnknownKey, key.clone(), TYPE_ERROR, text);
    }
    let text = format!(r#"Invalid arguments to "{name}": {}"#, names.join(", "));
    refusal(Kind::UnknownKey, first, VALUE_ERROR, text)
}

/// `MakeURL._check_args`, on the unresolved arguments (`validate()`) or the resolved ones
/// (`result()`): in [`URL_KEYS`]' order, `query` a mapping (nothing after it is looked at),
/// `port` a number from 1 to 65535, the others strings; a call passes.
pub fn url_args_refusal<A: Arg + Clone>(args: &A) -> Option<Refusal<A>> {
    let name = Function::MakeUrl.name();
    for key in URL_KEYS {
        let Some(value) = args.get(key) else {
            continue;
        };
        let shape = value.shape();
        if matches!(shape, Shape::Call(_) | Shape::Unknown) {
            if key == "query" {
                return None;
            }
            continue;
        }
        match key {
            "query" => {
                if shape == Shape::Map {
                    return None;
                }
                let text = format!(r#"The "{key}" argument to "{name}" must be a map"#);
                return refusal(Kind::QueryNotMap, value, TYPE_ERROR, text);
            }
            "port" => match value.int() {
                IntOf::Unknown => {}
                IntOf::Value(Some(port), _) if (1..=65535).contains(&port) => {}
                IntOf::Value(_, digits) => {
                    let text = format!("Invalid URL port {digits}, must be in range 1-65535");
                    return refusal(Kind::PortRange, value, VALUE_ERROR, text);
                }
                IntOf::ValueError => {
                    let text = format!(
                        r#"Invalid URL port "{}" for {name} called with {}"#,
                        value.py_str().unwrap_or_default(),
                        args.py_str().unwrap_or_else(|| "{…}".to_owned())
                    );
                    return refusal(Kind::PortNotNumber, value, VALUE_ERROR, text);
                }
                IntOf::Raised(class, text) => {
                    return refusal(Kind::PortRaised, value, class, text);
                }
            },
            _ => {
                if !matches!(shape, Shape::Str(_)) {
                    let text = format!(r#"The "{key}" argument to "{name}" must be a string"#);
                    return refusal(Kind::NotString(key), value, TYPE_ERROR, text);
                }
            }
        }
    }
    None
}

/// `Yaql._parse`: the expression, unresolved (in `validate()`) or resolved (in `result()`),
/// must be a string; a call is not checked before it is resolved.
pub fn yaql_expression_refusal<A: Arg>(expression: A) -> Option<Refusal<A>> {
    if let Shape::Str(_) | Shape::Call(_) | Shape::Unknown = expression.shape() {
        return None;
    }
    refusal(
        Kind::Expression,
        expression,
        TYPE_ERROR,
        r#"The "expression" argument to yaql must contain a string."#.to_owned(),
    )
}

/// The Python class of the object Heat builds for a call, as an error names it (`cannot
/// unpack non-iterable GetParam object`): a `Ref` is a `ParamRef` unless it names a resource.
pub fn class_of_call<A: Arg>(function: Function, version: Version, call: &A) -> &'static str {
    if function == Function::Ref && !call.names_resource() {
        return "ParamRef";
    }
    function.heat_class(version)
}

/// A refusal, as the `Option` every check returns.
#[allow(
    clippy::unnecessary_wraps,
    reason = "every check returns `Option<Refusal>`"
)]
fn refusal<A>(kind: Kind, at: A, class: &'static str, text: String) -> Option<Refusal<A>> {
    Some(Refusal {
        kind,
        at,
        class,
        text,
    })
}

const TYPE_ERROR: &str = "TypeError";
const VALUE_ERROR: &str = "ValueError";
const KEY_ERROR: &str = "KeyError";

fn get_attr<A: Arg + Clone>(version: Version, args: &A) -> Option<Refusal<A>> {
    let name = Function::GetAttr.name();
    let all = version.has_get_attr_all_attributes();
    let refuse = |kind, class, text: String| refusal(kind, args.clone(), class, text);
    if all && args.truthy() == Some(false) {
        return refuse(
            Kind::Empty,
            VALUE_ERROR,
            format!(
                r#"Arguments to "{name}" can be of the next forms: [resource_name] or [resource_name, attribute, (path), ...]"#
            ),
        );
    }
    match args.shape() {
        Shape::Unknown => None,
        Shape::List => {
            let n = args.items().len();
            if n >= 2 || (all && n == 1) {
                return None;
            }
            refuse(
                Kind::Count,
                VALUE_ERROR,
                format!(
                    r#"Arguments to "{name}" must be of the form [resource_name, attribute, (path), ...]"#
                ),
            )
        }
        // A one-character string passes as `[resource]`.
        Shape::Str(s) if all && s.chars().count() == 1 => None,
        _ => refuse(
            Kind::NotList,
            TYPE_ERROR,
            format!(r#"Argument to "{name}" must be a list"#),
        ),
    }
}

/// Heat's check that a function's arguments are a mapping: `Err(None)` when the front end does
/// not judge them, `Err(Some(..))` with Heat's `TypeError` (`text`) when they are not one.
fn mapping<A: Arg + Clone>(
    args: &A,
    text: impl FnOnce() -> String,
) -> Result<(), Option<Refusal<A>>> {
    match args.shape() {
        Shape::Unknown => Err(None),
        Shape::Map => Ok(()),
        _ => Err(refusal(Kind::NotMap, args.clone(), TYPE_ERROR, text())),
    }
}

/// `str_replace` and its strict variants: `{template: …, params: {…}}`.
fn str_replace<A: Arg + Clone>(name: &str, args: &A) -> Option<Refusal<A>> {
    if let Err(found) = mapping(args, || format!(r#"Arguments to "{name}" must be a map"#)) {
        return found;
    }
    let params = args.get("params");
    let missing = match (&params, args.get("template")) {
        (None, _) => "params",
        (Some(_), None) => "template",
        (Some(_), Some(_)) => return params.and_then(|p| params_refusal(name, p)),
    };
    refusal(
        Kind::Missing(missing),
        args.clone(),
        KEY_ERROR,
        format!(
            "\"{name}\" syntax should be {name}:\n              template: This is var1 template var2\n              params:\n                var1: a\n                var2: string"
        ),
    )
}

/// `Fn::Replace`: `[{placeholder: value}, template]`.
fn fn_replace<A: Arg + Clone>(version: Version, args: &A) -> Option<Refusal<A>> {
    let name = Function::FnReplace.name();
    let text = format!(
        r#"Incorrect arguments to "{name}" should be: {{"{name}": [ {{"$var1": "foo", "%var2%": "bar"}}, "$var1 is %var2%"]}}"#
    );
    if let Shape::Str(_) | Shape::Map = args.shape() {
        return refusal(Kind::NotUnpacked, args.clone(), TYPE_ERROR, text);
    }
    match unpack(version, args, 2, VALUE_ERROR, text) {
        Ok(Some(items)) => items
            .into_iter()
            .next()
            .and_then(|p| params_refusal(name, p)),
        Ok(None) => None,
        Err(refusal) => Some(refusal),
    }
}

/// The placeholders of `str_replace` and `Fn::Replace` must be a mapping (or a call).
fn params_refusal<A: Arg>(name: &str, params: A) -> Option<Refusal<A>> {
    if let Shape::Map | Shape::Call(_) | Shape::Unknown = params.shape() {
        return None;
    }
    refusal(
        Kind::Params,
        params,
        TYPE_ERROR,
        format!(r#""{name}" parameters must be a mapping"#),
    )
}

fn repeat<A: Arg + Clone>(version: Version, args: &A) -> Option<Refusal<A>> {
    let name = Function::Repeat.name();
    if let Err(found) = mapping(args, || format!(r#"Arguments to "{name}" must be a map"#)) {
        return found;
    }
    let missing = if args.get("for_each").is_none() {
        Some("for_each")
    } else if args.get("template").is_none() {
        Some("template")
    } else {
        None
    };
    if let Some(missing) = missing {
        return refusal(Kind::Missing(missing), args.clone(), KEY_ERROR, "\"repeat\" syntax should be repeat:\n              template: This is %var%\n              for_each:\n                %var%: ['a', 'b', 'c']".to_owned());
    }
    if !version.has_repeat_permutations() {
        return None;
    }
    let permutations = args.get("permutations")?;
    if let Shape::Bool(_) | Shape::Unknown = permutations.shape() {
        return None;
    }
    refusal(
        Kind::Permutations,
        permutations,
        TYPE_ERROR,
        format!(r#""permutations" should be boolean type for {name} function."#),
    )
}

fn member_list_to_map<A: Arg + Clone>(version: Version, args: &A) -> Option<Refusal<A>> {
    let name = Function::FnMemberListToMap.name();
    let text = "Wrong Arguments try: \"\n            {'Fn::MemberListToMap': ['Name', 'Value',\n                                     ['.member.0.Name=key',\n                                      '.member.0.Value=door']]}\n            \"".to_owned();
    // A string's characters are strings.
    let items = match unpack(version, args, 3, TYPE_ERROR, text) {
        Ok(items) => items?,
        Err(refusal) => return Some(refusal),
    };
    let mut items = items.into_iter();
    for (kind, which) in [(Kind::KeyName, "Key"), (Kind::ValueName, "Value")] {
        let item = items.next()?;
        if let Shape::Str(_) | Shape::Unknown = item.shape() {
            continue;
        }
        return refusal(
            kind,
            item,
            TYPE_ERROR,
            format!("{name} {which} Name must be a string"),
        );
    }
    None
}

fn yaql<A: Arg + Clone>(args: &A) -> Option<Refusal<A>> {
    let name = Function::Yaql.name();
    if let Err(found) = mapping(args, || format!(r#"Arguments to "{name}" must be a map."#)) {
        return found;
    }
    let odd = args
        .entries()
        .into_iter()
        .map(|(key, _)| key)
        .find(|key| !matches!(key.shape(), Shape::Str("expression" | "data")));
    let (kind, at) = match odd {
        Some(key) => (Kind::UnknownKey, key),
        None if args.get("expression").is_none() => (Kind::Missing("expression"), args.clone()),
        None => return None,
    };
    refusal(
        kind,
        at,
        KEY_ERROR,
        format!(
            "\"{name}\" syntax should be {name}:\n              expression: $.data.var1.sum()\n              data:\n                var1: [3, 2, 1]"
        ),
    )
}

/// Python's `a, b = args` (`n` targets): the items when there are `n` (`None` for a string's
/// characters, all strings, or what the front end does not judge), else the refusal: `class`
/// and `text` for another count (the error each function words itself), or the `TypeError`
/// of what is not iterable.
fn unpack<A: Arg + Clone>(
    version: Version,
    args: &A,
    n: usize,
    class: &'static str,
    text: String,
) -> Result<Option<Vec<A>>, Refusal<A>> {
    let (count, items) = match args.shape() {
        Shape::Unknown => return Ok(None),
        Shape::List => {
            let items = args.items();
            (items.len(), Some(items))
        }
        Shape::Str(s) => (s.chars().count(), None),
        Shape::Map => {
            let keys: Vec<A> = args.entries().into_iter().map(|(key, _)| key).collect();
            (keys.len(), Some(keys))
        }
        shape => {
            let (kind, type_name) = match shape {
                Shape::Bytes => (Kind::Bytes, ""),
                Shape::Call(f) => (Kind::NotUnpacked, class_of_call(f, version, args)),
                Shape::Null => (Kind::NotUnpacked, "NoneType"),
                Shape::Bool(_) => (Kind::NotUnpacked, "bool"),
                Shape::Float => (Kind::NotUnpacked, "float"),
                _ => (Kind::NotUnpacked, "int"),
            };
            let (class, text) = match kind {
                Kind::Bytes => ("", String::new()),
                _ => (
                    TYPE_ERROR,
                    format!("cannot unpack non-iterable {type_name} object"),
                ),
            };
            return Err(Refusal {
                kind,
                at: args.clone(),
                class,
                text,
            });
        }
    };
    if count == n {
        return Ok(items);
    }
    Err(Refusal {
        kind: Kind::NotUnpacked,
        at: args.clone(),
        class,
        text,
    })
}
