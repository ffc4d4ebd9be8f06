//! The argument checks of `invalid-function-arguments`: one small function per function (or
//! family of functions), each returning the first error Heat would raise for the literal
//! parts of a call's arguments, with Heat's text.
//!
//! A call inside the arguments may resolve to anything, so it is judged only where Heat
//! itself looks at it unresolved: a call standing for the whole argument of a function that
//! checks its argument's type when the template is parsed (`list_join: {get_param: x}` is not
//! a list to Heat), and the delimiter of `Fn::Split`, which Heat never resolves.

mod collections;
mod maps;
mod parse;
mod references;
mod replace;
mod strings;

use hotfix_hot::function_args::{self, IntOf, Shape};
use hotfix_hot::{Call, Function};
use hotfix_yaml::NodeId;

use super::shared::{Arg, PyInt, View};

/// When Heat raises a finding's error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// When it builds the function from the template, or in the function's `validate()`:
    /// Heat refuses the template (`openstack orchestration template validate`, stack create),
    /// wherever the call is.
    Parse,
    /// Only in the function's `result()`, when the value is resolved: a resource's properties
    /// at stack create, but an output's value only when it is read, so Heat accepts a template
    /// with such a call in an output.
    Resolve,
}

/// What is wrong with a call's arguments.
#[derive(Debug)]
pub(super) struct Bad {
    /// When Heat raises the error (as Heat 27.0.1 does, checked against its engine).
    pub(super) when: Phase,
    /// Where: the argument, or the item of it, that is wrong.
    pub(super) node: NodeId,
    /// What is wrong, in one line.
    pub(super) message: String,
    /// What to do.
    pub(super) advice: String,
    /// Heat's error text.
    pub(super) heat: String,
}

/// A finding, as the `Option` every check returns.
#[allow(
    clippy::unnecessary_wraps,
    reason = "every check returns `Option<Bad>`"
)]
fn bad(
    when: Phase,
    node: NodeId,
    message: impl Into<String>,
    advice: impl Into<String>,
    heat: impl Into<String>,
) -> Option<Bad> {
    Some(Bad {
        when,
        node,
        message: message.into(),
        advice: advice.into(),
        heat: heat.into(),
    })
}

/// The first error in the literal arguments of an active call, if any: first those Heat's
/// constructor and `validate()` raise ([`function_args`], shared with the evaluator), then
/// those it raises when it resolves the value.
pub(super) fn check(view: &View<'_>, call: &Call) -> Option<Bad> {
    use Function as F;
    let function = call.status.function();
    let args = Node {
        view,
        id: call.args,
    };
    let refusal = function_args::constructor_refusal(function, view.version, &args)
        .or_else(|| function_args::validate_refusal(function, &args));
    if let Some(refusal) = refusal {
        return parse::bad(view, call, &refusal);
    }
    match function {
        F::GetParam => references::get_param(view, call),
        F::GetResource => references::get_resource(view, call),
        F::Ref => references::cfn_ref(view, call),
        F::ListJoin | F::FnJoin => strings::list_join(view, call),
        F::StrSplit => strings::str_split(view, call),
        F::FnSplit => strings::fn_split(view, call),
        F::Digest => strings::digest(view, call),
        F::FnBase64 => strings::base64(view, call),
        F::StrReplace | F::StrReplaceStrict | F::StrReplaceVstrict | F::FnReplace => {
            replace::str_replace(view, call)
        }
        F::MapMerge => collections::map_merge(view, call),
        F::MapReplace => collections::map_replace(view, call),
        F::ListConcat | F::ListConcatUnique => collections::list_concat(view, call),
        F::Filter => collections::filter(view, call),
        F::Contains => collections::contains(view, call),
        F::FnSelect => collections::fn_select(view, call),
        F::FnMemberListToMap => collections::member_list_to_map(view, call),
        F::MakeUrl => maps::make_url(view, call),
        // Only their constructors check `get_attr`, `resource_facade`, `equals` and `yaql`.
        // `get_file` is `non-literal-get-file`'s; `repeat` is the `repeat` rules'; `if`, `not`,
        // `and`, `or` are the conditions rules'; `Fn::GetAZs` ignores its argument.
        F::GetAttr
        | F::ResourceFacade
        | F::FnResourceFacade
        | F::Equals
        | F::Yaql
        | F::GetFile
        | F::Repeat
        | F::If
        | F::Not
        | F::And
        | F::Or
        | F::FnGetAzs => None,
    }
}

/// What Heat's constructor of a function refuses in its arguments, for the rules of other
/// families that word it themselves (`repeat`'s, the conditions'): what is wrong, where, and
/// Heat's text.
#[derive(Debug)]
pub(in crate::rules) struct Refused {
    pub(in crate::rules) kind: function_args::Kind,
    pub(in crate::rules) at: NodeId,
    pub(in crate::rules) text: String,
}

/// The error Heat's constructor (or `validate()`) of `function` raises for the arguments at
/// `args` in the template's version, if any ([`function_args::constructor_refusal`],
/// [`function_args::validate_refusal`]).
pub(in crate::rules) fn refusal(
    cx: &crate::rule::Context<'_>,
    function: Function,
    args: NodeId,
) -> Option<Refused> {
    let version = cx.version()?;
    let view = View::new(cx.doc, version, cx.semantic, &cx.template.resources);
    let args = Node {
        view: &view,
        id: args,
    };
    let found = function_args::constructor_refusal(function, version, &args)
        .or_else(|| function_args::validate_refusal(function, &args))?;
    Some(Refused {
        kind: found.kind,
        at: found.at.id,
        text: found.text,
    })
}

/// A node of a call's arguments as Heat's constructor sees it ([`function_args::Arg`]): a
/// call is of unknown value, and so is `bytes`, which Heat is never sent.
#[derive(Clone, Copy)]
pub(super) struct Node<'v, 'a> {
    view: &'v View<'a>,
    pub(super) id: NodeId,
}

impl Node<'_, '_> {
    fn at(&self, id: NodeId) -> Self {
        Node {
            view: self.view,
            id,
        }
    }
}

impl function_args::Arg for Node<'_, '_> {
    fn shape(&self) -> Shape<'_> {
        match self.view.arg(self.id) {
            Arg::Call(f) => Shape::Call(f),
            Arg::Null => Shape::Null,
            Arg::Bool(b) => Shape::Bool(b),
            Arg::Int(_) => Shape::Int,
            Arg::Float(_) => Shape::Float,
            Arg::Str(s) => Shape::Str(s),
            Arg::Bytes(_) => Shape::Unknown,
            Arg::List(_) => Shape::List,
            Arg::Map(_) => Shape::Map,
        }
    }

    fn truthy(&self) -> Option<bool> {
        self.view.arg(self.id).truthy(self.view.doc)
    }

    fn items(&self) -> Vec<Self> {
        match self.view.arg(self.id) {
            Arg::List(items) => items.iter().map(|&i| self.at(i)).collect(),
            _ => Vec::new(),
        }
    }

    fn entries(&self) -> Vec<(Self, Self)> {
        match self.view.arg(self.id) {
            Arg::Map(map) => self
                .view
                .doc
                .entries(map)
                .iter()
                .map(|e| (self.at(e.key), self.at(e.value)))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn get(&self, key: &str) -> Option<Self> {
        match self.view.arg(self.id) {
            Arg::Map(map) => self.view.doc.get(map, key).map(|id| self.at(id)),
            _ => None,
        }
    }

    fn names_resource(&self) -> bool {
        self.view.names_resource(self.id)
    }

    fn py_str(&self) -> Option<String> {
        super::shared::py_str(self.view, self.id)
    }

    fn int(&self) -> IntOf {
        let arg = self.view.arg(self.id);
        match arg.to_int() {
            PyInt::Unknown => IntOf::Unknown,
            PyInt::ValueError => IntOf::ValueError,
            PyInt::TypeError => IntOf::Raised(
                "TypeError",
                format!(
                    "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                    arg.py_type().unwrap_or("object")
                ),
            ),
            PyInt::Value(Some(n)) => IntOf::Value(Some(i128::from(n)), n.to_string()),
            // Beyond `i64`: its digits, as `%d` prints them.
            PyInt::Value(None) => match arg {
                Arg::Int(hotfix_yaml::Int::Big(digits)) => {
                    IntOf::Value(digits.parse().ok(), digits.clone())
                }
                Arg::Str(s) => match hotfix_hot::python::int_of_str(s) {
                    Ok(hotfix_hot::python::Int::Small(n)) => IntOf::Value(Some(n), n.to_string()),
                    Ok(hotfix_hot::python::Int::Big(digits)) => IntOf::Value(None, digits),
                    Err(_) => IntOf::Unknown,
                },
                _ => IntOf::Unknown,
            },
        }
    }
}

/// Python's `type(x)` as `%s` prints it: `<class 'int'>`.
fn class_of(arg: Arg<'_>) -> String {
    format!("<class '{}'>", arg.py_type().unwrap_or("object"))
}

#[cfg(test)]
mod tests {
    use hotfix_hot::function_args::{Arg as _, Kind};
    use hotfix_hot::{Context, Semantic, Template};
    use hotfix_yaml::python_str_repr;

    use super::*;
    use crate::rules::functions::shared::{is_active, unique_calls};

    /// Every call of the fixtures of `invalid-function-arguments`: the error the linter finds
    /// when Heat parses it (through [`function_args`]) is the one the evaluator raises for the
    /// same call, and the evaluator raises none at a call where the linter finds none.
    #[test]
    fn the_linter_refuses_a_call_as_the_evaluator_parses_it() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/rules/H205");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("the fixtures")
            .map(|e| e.expect("an entry").path())
            .collect();
        files.sort();
        let mut compared = 0;
        for path in files {
            let text = std::fs::read_to_string(&path).expect("a fixture");
            let doc = hotfix_yaml::parse(&text).expect("a template");
            let template = Template::new(&doc);
            let semantic = Semantic::new(&template);
            let Some(version) = template.effective_version() else {
                continue;
            };
            let view = View::new(&doc, version, &semantic, &template.resources);
            for call in unique_calls(&semantic, is_active) {
                let function = call.status.function();
                // `if` is a macro: its condition is resolved when it is parsed.
                if function == Function::If {
                    continue;
                }
                let args = Node {
                    view: &view,
                    id: call.args,
                };
                let here = doc.node(call.map).span;
                let place = format!("{}:{}", path.display(), doc.text(call.map));
                let evaluated = hotfix_eval::parse_error(
                    &doc,
                    version,
                    call.map,
                    call.context == Context::Condition,
                );
                let evaluated = evaluated.filter(|p| p.span == Some(here));
                let Some(refusal) = function_args::constructor_refusal(function, version, &args)
                else {
                    // The linter does not resolve the call `resource_facade` compares.
                    let resolved = matches!(args.shape(), Shape::Call(_))
                        && matches!(
                            function,
                            Function::ResourceFacade | Function::FnResourceFacade
                        );
                    assert!(
                        evaluated.is_none() || args.shape() == Shape::Unknown || resolved,
                        "{place}: the evaluator refuses it, the linter does not: {evaluated:?}"
                    );
                    continue;
                };
                assert_ne!(refusal.kind, Kind::Bytes, "{place}");
                let raised = if refusal.class == "KeyError" {
                    python_str_repr(&refusal.text)
                } else {
                    refusal.text.clone()
                };
                let evaluated =
                    evaluated.unwrap_or_else(|| panic!("{place}: not refused by the evaluator"));
                assert_eq!(
                    evaluated.message,
                    format!(".{}: {raised}", function.name()),
                    "{place}"
                );
                if let Some(found) = check(&view, call) {
                    assert_eq!(found.heat, parse::one_line(&refusal.text), "{place}");
                }
                compared += 1;
            }
        }
        assert!(compared > 40, "{compared} calls compared");
    }
}
