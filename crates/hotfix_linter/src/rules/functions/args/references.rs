//! `get_param`, `get_resource`, `Ref`.

use hotfix_hot::Call;

use super::{Bad, Phase, bad};
use crate::rules::functions::shared::{Arg, View, py_str};

pub(super) fn get_param(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    if arg.truthy(v.doc) == Some(false) {
        return bad(
            Phase::Resolve,
            call.args,
            format!(
                "`get_param` names no parameter (its argument is {})",
                falsy(arg)
            ),
            "name the parameter: `get_param: name` or `get_param: [name, key, …]`",
            r#"Function "get_param" must have arguments"#,
        );
    }
    match arg {
        Arg::List(items) => {
            let first = *items.first()?;
            let name = v.arg(first);
            if !name.is_known() || name.is_str() {
                return None;
            }
            bad(
                Phase::Resolve,
                first,
                format!(
                    "the parameter name in `get_param` is {}, not a string",
                    name.describe()
                ),
                "put the parameter's name first: `get_param: [name, key, …]`",
                r#"Parameter name in "get_param" must be string"#,
            )
        }
        Arg::Str(_) | Arg::Call(_) | Arg::Bytes(_) => None,
        other => bad(
            Phase::Resolve,
            call.args,
            format!(
                "`get_param` takes a name or a list `[name, key, …]`, not {}",
                other.describe()
            ),
            "write `get_param: name` or `get_param: [name, key, …]`",
            r#"Argument to "get_param" must be string or list"#,
        ),
    }
}

/// A value Python finds false, for messages.
fn falsy(arg: Arg<'_>) -> String {
    match arg {
        Arg::Map(_) => "an empty mapping".to_owned(),
        Arg::Int(_) | Arg::Float(_) => "zero".to_owned(),
        Arg::Bool(_) => "`false`".to_owned(),
        other => other.describe(),
    }
}

pub(super) fn get_resource(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    // A list or mapping cannot even be looked up (at parse); another name is looked up, and
    // missed, only when the value is resolved.
    let (heat, when) = match arg {
        Arg::Str(_) | Arg::Call(_) | Arg::Bytes(_) => return None,
        Arg::List(_) | Arg::Map(_) => (
            format!("unhashable type: '{}'", arg.py_type()?),
            Phase::Parse,
        ),
        _ => (
            format!(
                r#"The specified reference "{}" (in …) is incorrect."#,
                py_str(v, call.args)?
            ),
            Phase::Resolve,
        ),
    };
    bad(
        when,
        call.args,
        format!(
            "`get_resource` takes a resource name, not {}",
            arg.describe()
        ),
        "write `get_resource: name` with the name of a resource of this template",
        heat,
    )
}

pub(super) fn cfn_ref(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    // A list, a mapping or a call cannot be looked up: Heat refuses it when it parses.
    if !matches!(arg, Arg::Null | Arg::Bool(_) | Arg::Int(_) | Arg::Float(_)) {
        return None;
    }
    bad(
        Phase::Resolve,
        call.args,
        format!(
            "`Ref` takes the literal name of a parameter or resource, not {}",
            arg.describe()
        ),
        "write `get_param: name` for a parameter or `get_resource: name` for a resource",
        format!(
            r#"The specified reference "{}" (in unknown) is incorrect."#,
            py_str(v, call.args)?
        ),
    )
}
