//! The findings of the errors Heat raises when it parses a call (its function's constructor,
//! or `validate()`): what [`function_args`] finds, in this rule's words.

use hotfix_hot::function_args::{Kind, Refusal, URL_KEYS};
use hotfix_hot::{Call, Function};

use super::{Bad, Node, Phase};
use crate::rules::functions::shared::Arg;
use crate::rules::util::did_you_mean;

/// The finding of a refusal, at the part of the arguments it names, with Heat's text on one
/// line.
#[allow(
    clippy::too_many_lines,
    reason = "one arm per function and kind of error"
)]
pub(super) fn bad(
    view: &super::View<'_>,
    call: &Call,
    refusal: &Refusal<Node<'_, '_>>,
) -> Option<Bad> {
    use Function as F;
    let function = call.status.function();
    let name = function.name();
    let node = refusal.at.id;
    let arg = view.arg(node);
    let given = arg.describe();
    let (message, advice) = match (function, refusal.kind) {
        (F::GetAttr, Kind::Empty) => (
            format!("`get_attr` names no resource (its argument is {given})"),
            "write `get_attr: [resource, attribute, key…]`, or `get_attr: [resource]` for all its attributes".to_owned(),
        ),
        (F::GetAttr, Kind::Count) => (
            format!("`get_attr` needs a resource and an attribute, not {given}"),
            "write `get_attr: [resource, attribute, key…]`; `get_attr: [resource]` alone needs heat_template_version 2015-10-15 or later".to_owned(),
        ),
        (F::GetAttr, _) => (
            format!("`get_attr` takes a list `[resource, attribute, …]`, not {given}"),
            whole_list_advice(arg, "get_attr: [resource, attribute, key…]"),
        ),
        (F::ListJoin | F::FnJoin, Kind::Count) => {
            let multiple = function == F::ListJoin && view.version.has_join_multiple();
            let more = if multiple {
                "a delimiter and at least one list"
            } else {
                "exactly two items, a delimiter and a list"
            };
            let advice = if multiple || function == F::FnJoin {
                format!("write `{name}: [', ', [a, b]]`")
            } else {
                "write `list_join: [', ', [a, b]]`; joining several lists needs heat_template_version 2015-10-15 or later".to_owned()
            };
            (format!("`{name}` needs {more}, not {given}"), advice)
        }
        (F::ListJoin | F::FnJoin, _) => (
            format!("`{name}` takes a list `[delimiter, list]`, not {given}"),
            whole_list_advice(arg, &format!("{name}: [', ', [a, b]]")),
        ),
        (_, Kind::Params) => (
            format!("the `params` of `{name}` is {given}, not a mapping"),
            "map each placeholder to its value: `{$x: value}`".to_owned(),
        ),
        (F::FnReplace, _) => (
            format!("`Fn::Replace` takes a list `[params, template]`, not {given}"),
            whole_list_advice(arg, "Fn::Replace: [{$x: value}, 'text with $x']"),
        ),
        (_, Kind::Missing(key)) if function != F::Yaql => (
            format!("`{name}` has no `{key}`"),
            format!("write `{name}: {{template: …, params: …}}`"),
        ),
        (F::StrReplace | F::StrReplaceStrict | F::StrReplaceVstrict, _) => (
            format!("`{name}` takes a mapping with `template` and `params`, not {given}"),
            whole_mapping_advice(arg, &format!("{name}: {{template: …, params: …}}")),
        ),
        (F::StrSplit, _) => (
            format!("`str_split` takes a list `[delimiter, string, index]`, not {given}"),
            "write `str_split: [',', 'a,b', 0]`".to_owned(),
        ),
        (F::FnSplit, _) => (
            format!("`Fn::Split` takes a list `[delimiter, string]`, not {given}"),
            whole_list_advice(arg, "Fn::Split: [',', 'a,b']"),
        ),
        (F::FnSelect, _) => (
            format!("`Fn::Select` takes a list `[index, collection]`, not {given}"),
            whole_list_advice(arg, "Fn::Select: [index, collection]"),
        ),
        (F::FnMemberListToMap, Kind::KeyName | Kind::ValueName) => {
            let which = if refusal.kind == Kind::KeyName { "key" } else { "value" };
            (
                format!("the {which} name of `Fn::MemberListToMap` is {given}, not a literal string"),
                "write the name literally: Heat does not resolve functions here".to_owned(),
            )
        }
        (F::FnMemberListToMap, _) => (
            format!("`Fn::MemberListToMap` takes `[key name, value name, list]`, not {given}"),
            "write `Fn::MemberListToMap: [Name, Value, ['.member.0.Name=key', '.member.0.Value=value']]`".to_owned(),
        ),
        (F::ResourceFacade | F::FnResourceFacade, _) => {
            let allowed: [&str; 3] = if function == F::ResourceFacade {
                ["metadata", "deletion_policy", "update_policy"]
            } else {
                ["Metadata", "DeletionPolicy", "UpdatePolicy"]
            };
            let given = match arg {
                Arg::Str(s) => format!("`{s}`"),
                _ => given,
            };
            let advice = match view.str(node).and_then(|s| did_you_mean(s, allowed)) {
                Some(suggestion) => format!("did you mean `{suggestion}`?"),
                None => format!("write `{name}: {}`", allowed[0]),
            };
            (format!("`{name}` takes one of {}, not {given}", allowed.join(", ")), advice)
        }
        (F::Equals, _) => (
            format!("`equals` takes a list of two values, not {given}"),
            whole_list_advice(arg, "equals: [value_1, value_2]"),
        ),
        (F::Filter, Kind::Count) => (
            format!("`filter` takes two items, `[values, list]`, not {given}"),
            "write `filter: [[values to remove], list]`".to_owned(),
        ),
        (F::Filter, _) => (
            format!("`filter` takes a list `[values, list]`, not {given}"),
            whole_list_advice(arg, "filter: [[values to remove], list]"),
        ),
        (F::Contains, Kind::Count) => (
            format!("`contains` takes two items, `[value, sequence]`, not {given}"),
            "write `contains: [value, [a, b]]`".to_owned(),
        ),
        (F::Contains, _) => (
            format!("`contains` takes a list `[value, sequence]`, not {given}"),
            whole_list_advice(arg, "contains: [value, [a, b]]"),
        ),
        (F::Yaql, Kind::Expression) => (
            format!("the `expression` of `yaql` is {given}, not a string"),
            "write the YAQL expression as a string".to_owned(),
        ),
        (F::Yaql, Kind::UnknownKey) => (
            format!("`yaql` takes only `expression` and `data`, not `{}`", view.doc.text(node)),
            format!("write `{YAQL_FORM}`"),
        ),
        (F::Yaql, Kind::Missing(_)) => ("`yaql` has no `expression`".to_owned(), format!("write `{YAQL_FORM}`")),
        (F::Yaql, _) => (
            format!("`yaql` takes a mapping, not {given}"),
            whole_mapping_advice(arg, YAQL_FORM),
        ),
        (F::Ref, _) => (
            format!("`Ref` takes the literal name of a parameter or resource, not {given}"),
            "write `get_param: name` for a parameter or `get_resource: name` for a resource".to_owned(),
        ),
        (F::MakeUrl, Kind::UnknownKey) => {
            let key = view.doc.text(node);
            let advice = match did_you_mean(key, URL_KEYS) {
                Some(suggestion) => format!("did you mean `{suggestion}`?"),
                None => format!("the arguments are {}", URL_KEYS.join(", ")),
            };
            (format!("`make_url` has no argument `{key}`"), advice)
        }
        (F::MakeUrl, Kind::QueryNotMap) => (
            format!("the `query` of `make_url` is {given}, not a mapping"),
            "give the query parameters as a mapping: `query: {a: b}`".to_owned(),
        ),
        (F::MakeUrl, Kind::NotString(key)) => (
            format!("the `{key}` of `make_url` is {given}, not a string"),
            "quote it to make it a string".to_owned(),
        ),
        (F::MakeUrl, Kind::PortRange) => (
            format!("port `{}` of `make_url` is out of range", view.doc.text(node)),
            "give a port number from 1 to 65535".to_owned(),
        ),
        (F::MakeUrl, Kind::PortNotNumber | Kind::PortRaised) => (
            format!("the `port` of `make_url` is {given}, not a number"),
            "give a port number from 1 to 65535".to_owned(),
        ),
        (F::MakeUrl, _) => (
            format!("`make_url` takes a mapping, not {given}"),
            whole_mapping_advice(arg, URL_FORM),
        ),
        // The rule leaves `repeat` and the conditions' functions to other rules.
        _ => return None,
    };
    Some(Bad {
        when: Phase::Parse,
        node,
        message,
        advice,
        heat: one_line(&refusal.text),
    })
}

const URL_FORM: &str = "make_url: {scheme: https, host: …, port: 443, path: /}";

const YAQL_FORM: &str = "yaql: {expression: $.data.x, data: {x: …}}";

/// Heat's text on one line: the example of a YAML syntax (`"yaql" syntax should be
/// yaql:\n  expression: …`) with its keys only, another example's lines joined.
pub(super) fn one_line(text: &str) -> String {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let rest: Vec<&str> = lines.collect();
    if rest.is_empty() {
        return text.to_owned();
    }
    let mut out = first.to_owned();
    if first.ends_with(':') {
        let indent = |l: &&str| l.len() - l.trim_start().len();
        let top = rest.iter().map(indent).min().unwrap_or_default();
        for line in rest.iter().filter(|l| indent(l) == top) {
            let key = line.trim().split(':').next().unwrap_or_default();
            out.push(' ');
            out.push_str(key);
            out.push_str(": …");
        }
    } else {
        for line in rest {
            if out.ends_with(',') {
                out.push(' ');
            }
            out.push_str(line.trim());
        }
    }
    out
}

/// What to do when a list was expected and something else (perhaps a call) was given.
fn whole_list_advice(arg: Arg<'_>, form: &str) -> String {
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
