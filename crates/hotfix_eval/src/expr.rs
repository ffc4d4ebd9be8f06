//! Heat's `parse()`: a field's YAML turned into data and function calls, with the checks each
//! function's constructor makes (`heat/engine/template.py` `parse`, the `__init__` of every
//! class in `heat/engine/hot/functions.py` and `heat/engine/cfn/functions.py`).
//!
//! A mapping is a call iff it has exactly one key and the context's table knows the key. The
//! arguments are parsed first, then the constructor checks their shape; a `ValueError`,
//! `TypeError` or `KeyError` becomes `StackValidationFailed` with the path of the call
//! (`resources.r.properties.a[0].list_join: …`). `if` is a macro: its condition is resolved while
//! parsing and only the chosen branch is parsed.

use hotfix_hot::Function;
use hotfix_yaml::NodeId;

use crate::value::Value;

/// A parsed snippet.
#[derive(Clone, Debug)]
pub(crate) enum Expr {
    /// A scalar.
    Data(Value),
    List(Vec<Expr>),
    /// A mapping that is data (keys are never parsed).
    Map(Vec<(Value, Expr)>),
    Call(Box<Call>),
    /// The result of wallaby's two-argument `if` whose condition is false.
    Ellipsis,
}

/// A function call.
#[derive(Clone, Debug)]
pub(crate) struct Call {
    pub(crate) function: Function,
    /// `Removed`: resolves to its raw snippet, fails when validated.
    pub(crate) removed: bool,
    pub(crate) args: Expr,
    /// The call's `{name: args}` mapping: its span, and the snippet as written (what
    /// `Removed` returns).
    pub(crate) node: NodeId,
    /// The class of the function in the template's version, where it differs by version.
    pub(crate) class: Class,
}

/// The class a version maps a function name to, where versions differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Plain,
    /// `GetAttThenSelect` (2013-05-23).
    GetAttThenSelect,
    /// `GetAtt` (2014-10-16, 2015-04-30).
    GetAtt,
    /// `GetAttAllAttributes` (2015-10-15 on).
    GetAttAll,
    /// `Join` (up to 2015-04-30, and `Fn::Join`).
    Join,
    /// `JoinMultiple` (2015-10-15 on).
    JoinMultiple,
    /// `Replace` (up to 2015-04-30, and `Fn::Replace`).
    Replace,
    /// `ReplaceJson` (2015-10-15 on) and its strict variants.
    ReplaceJson,
    ReplaceJsonStrict,
    ReplaceJsonVeryStrict,
    /// `Repeat` (2015-04-30 … 2016-04-08).
    Repeat,
    /// `RepeatWithMap` (2016-10-14, 2017-02-24).
    RepeatWithMap,
    /// `RepeatWithNestedLoop` (2017-09-01 on), with its `permutations`.
    RepeatNested {
        permutations: bool,
    },
}

impl Expr {
    pub(crate) fn is_map(&self) -> bool {
        matches!(self, Expr::Map(_))
    }

    pub(crate) fn is_call(&self) -> bool {
        matches!(self, Expr::Call(_))
    }

    pub(crate) fn is_str(&self) -> bool {
        matches!(self, Expr::Data(Value::Str(_)))
    }

    /// Python truthiness of the parsed (unresolved) snippet: a call is an object, always true.
    pub(crate) fn truthy(&self) -> bool {
        match self {
            Expr::Data(v) => v.truthy(),
            Expr::List(items) => !items.is_empty(),
            Expr::Map(entries) => !entries.is_empty(),
            Expr::Call(_) | Expr::Ellipsis => true,
        }
    }

    /// The value of an entry of a data map, by string key.
    pub(crate) fn get(&self, key: &str) -> Option<&Expr> {
        let Expr::Map(entries) = self else {
            return None;
        };
        entries
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }
}
