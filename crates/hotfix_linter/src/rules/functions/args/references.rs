//! `get_param`, `get_attr`, `get_resource`, `Ref`, `resource_facade`.

use hotfix_hot::{Call, Function};

use super::{Bad, Phase, bad};
use crate::rules::functions::shared::{Arg, View, py_str};
use crate::rules::util::did_you_mean;

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

pub(super) fn get_attr(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    let all = v.version.has_get_attr_all_attributes();
    if all && arg.truthy(v.doc) == Some(false) {
        return bad(
            Phase::Parse,
            call.args,
            format!(
                "`get_attr` names no resource (its argument is {})",
                arg.describe()
            ),
            "write `get_attr: [resource, attribute, key…]`, or `get_attr: [resource]` for all its attributes",
            r#"Arguments to "get_attr" can be of the next forms: [resource_name] or [resource_name, attribute, (path), ...]"#,
        );
    }
    match arg {
        Arg::List(items) if items.len() < 2 && !all => bad(
            Phase::Parse,
            call.args,
            format!(
                "`get_attr` needs a resource and an attribute, not {}",
                arg.describe()
            ),
            "write `get_attr: [resource, attribute, key…]`; `get_attr: [resource]` alone needs heat_template_version 2015-10-15 or later",
            r#"Arguments to "get_attr" must be of the form [resource_name, attribute, (path), ...]"#,
        ),
        Arg::List(_) | Arg::Bytes(_) => None,
        // A one-character string passes as `[resource]`.
        Arg::Str(s) if all && s.chars().count() == 1 => None,
        other => bad(
            Phase::Parse,
            call.args,
            format!(
                "`get_attr` takes a list `[resource, attribute, …]`, not {}",
                other.describe()
            ),
            whole_list_advice(other, "get_attr: [resource, attribute, key…]"),
            r#"Argument to "get_attr" must be a list"#,
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

/// What to do when a list was expected and something else (perhaps a call) was given.
pub(super) fn whole_list_advice(arg: Arg<'_>, form: &str) -> String {
    whole_advice(arg, form, "list", "items")
}

/// What to do when a mapping was expected and something else (perhaps a call) was given.
pub(super) fn whole_mapping_advice(arg: Arg<'_>, form: &str) -> String {
    whole_advice(arg, form, "mapping", "values")
}

fn whole_advice(arg: Arg<'_>, form: &str, what: &str, parts: &str) -> String {
    if arg.is_call() {
        format!(
            "write `{form}`: Heat checks that the argument is a {what} before calling anything, so a function cannot stand for the whole {what} (use functions for its {parts} instead)"
        )
    } else {
        format!("write `{form}`")
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
    let (heat, when) = match arg {
        Arg::Str(_) | Arg::Bytes(_) => return None,
        Arg::Call(f) => (
            format!("unhashable type: '{}'", f.heat_class(v.version)),
            Phase::Parse,
        ),
        Arg::List(_) | Arg::Map(_) => (
            format!("unhashable type: '{}'", arg.py_type()?),
            Phase::Parse,
        ),
        _ => (
            format!(
                r#"The specified reference "{}" (in unknown) is incorrect."#,
                py_str(v, call.args)?
            ),
            Phase::Resolve,
        ),
    };
    bad(
        when,
        call.args,
        format!(
            "`Ref` takes the literal name of a parameter or resource, not {}",
            arg.describe()
        ),
        "write `get_param: name` for a parameter or `get_resource: name` for a resource",
        heat,
    )
}

pub(super) fn resource_facade(v: &View<'_>, call: &Call) -> Option<Bad> {
    let function = call.status.function();
    let name = function.name();
    let allowed: [&str; 3] = if function == Function::ResourceFacade {
        ["metadata", "deletion_policy", "update_policy"]
    } else {
        ["Metadata", "DeletionPolicy", "UpdatePolicy"]
    };
    let arg = v.arg(call.args);
    let given = match arg {
        Arg::Call(_) | Arg::Bytes(_) => return None,
        Arg::Str(s) if allowed.contains(&s) => return None,
        Arg::Str(s) => format!("`{s}`"),
        other => other.describe(),
    };
    let advice = match v.str(call.args).and_then(|s| did_you_mean(s, allowed)) {
        Some(suggestion) => format!("did you mean `{suggestion}`?"),
        None => format!("write `{name}: {}`", allowed[0]),
    };
    let list = allowed.join(", ");
    bad(
        Phase::Parse,
        call.args,
        format!("`{name}` takes one of {list}, not {given}"),
        advice,
        format!(r#"Incorrect arguments to "{name}" should be one of: {list}"#),
    )
}
