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
mod references;
mod replace;
mod strings;

use hotfix_hot::{Call, Function, Version};
use hotfix_yaml::NodeId;

use super::shared::{Arg, View};

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

/// The first error in the literal arguments of an active call, if any.
pub(super) fn check(view: &View<'_>, call: &Call) -> Option<Bad> {
    use Function as F;
    match call.status.function() {
        F::GetParam => references::get_param(view, call),
        F::GetAttr => references::get_attr(view, call),
        F::GetResource => references::get_resource(view, call),
        F::Ref => references::cfn_ref(view, call),
        F::ResourceFacade | F::FnResourceFacade => references::resource_facade(view, call),
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
        F::Equals => collections::equals(view, call),
        F::FnSelect => collections::fn_select(view, call),
        F::FnMemberListToMap => collections::member_list_to_map(view, call),
        F::Yaql => maps::yaql(view, call),
        F::MakeUrl => maps::make_url(view, call),
        // `get_file` is `non-literal-get-file`'s; `repeat` is the `repeat` rules'; `if`, `not`,
        // `and`, `or` are the conditions rules'; `Fn::GetAZs` ignores its argument.
        F::GetFile | F::Repeat | F::If | F::Not | F::And | F::Or | F::FnGetAzs => None,
    }
}

/// Python's text when unpacking a value that is not iterable (`a, b = None`), with the class
/// Heat gives a call in the versions that have the CloudFormation-style functions.
fn unpack_error(arg: Arg<'_>, version: Version) -> Option<String> {
    let type_name = match arg {
        Arg::Call(f) => f.heat_class(version),
        Arg::Null | Arg::Bool(_) | Arg::Int(_) | Arg::Float(_) => arg.py_type()?,
        _ => return None,
    };
    Some(format!("cannot unpack non-iterable {type_name} object"))
}

/// Python's `type(x)` as `%s` prints it: `<class 'int'>`.
fn class_of(arg: Arg<'_>) -> String {
    format!("<class '{}'>", arg.py_type().unwrap_or("object"))
}
