//! `str_replace`, `str_replace_strict`, `str_replace_vstrict`, `Fn::Replace`.

use hotfix_hot::{Call, Function, Version};
use hotfix_yaml::{Entry, NodeId};

use super::{Bad, Phase, bad};
use crate::rules::functions::shared::{Arg, View};

pub(super) fn str_replace(v: &View<'_>, call: &Call) -> Option<Bad> {
    let function = call.status.function();
    // Its constructor has checked the rest: a mapping with `template` and `params` (a list
    // `[params, template]` for `Fn::Replace`), the params a mapping.
    let (params, template) = match v.arg(call.args) {
        Arg::List(&[params, template]) if function == Function::FnReplace => (params, template),
        Arg::Map(map) if function != Function::FnReplace => {
            (v.doc.get(map, "params")?, v.doc.get(map, "template")?)
        }
        _ => return None,
    };
    template_type(v, function.name(), template)
        .or_else(|| params_content(v, function, params, template))
}

fn template_type(v: &View<'_>, name: &str, template: NodeId) -> Option<Bad> {
    let arg = v.arg(template);
    if !arg.is_known() || arg.is_str() {
        return None;
    }
    bad(
        Phase::Resolve,
        template,
        format!(
            "the template of `{name}` is {}, not a string",
            arg.describe()
        ),
        "give the text to replace in as a string",
        format!(r#""{name}" template must be a string"#),
    )
}

/// The placeholders and values of a literal `params` mapping, in the order Heat replaces them.
fn params_content(
    v: &View<'_>,
    function: Function,
    params: NodeId,
    template: NodeId,
) -> Option<Bad> {
    let Arg::Map(map) = v.arg(params) else {
        return None;
    };
    let entries = v.doc.entries(map);
    if let Some(found) = placeholder_types(v, function.name(), &entries) {
        return Some(found);
    }
    let mut keyed: Vec<(&str, Entry)> = entries
        .iter()
        .filter_map(|e| Some((v.str(e.key)?, *e)))
        .collect();
    keyed.sort_by(|a, b| {
        b.0.chars()
            .count()
            .cmp(&a.0.chars().count())
            .then(a.0.cmp(b.0))
    });
    keyed
        .iter()
        .find_map(|&(key, entry)| param_value(v, function, key, entry))
        .or_else(|| unused_params(v, function, params, template, &keyed))
}

/// Placeholders must be non-empty strings.
fn placeholder_types(v: &View<'_>, name: &str, entries: &[Entry]) -> Option<Bad> {
    if let Some(entry) = entries.iter().find(|e| v.str(e.key) == Some("")) {
        return bad(
            Phase::Resolve,
            entry.key,
            format!("`{name}` has an empty placeholder"),
            "remove it",
            "empty separator",
        );
    }
    let odd = entries.iter().find(|e| !v.arg(e.key).is_str())?;
    let key_type = v.arg(odd.key).py_type().unwrap_or("object");
    let heat = if entries.iter().any(|e| v.arg(e.key).is_str()) {
        format!("'<' not supported between instances of 'str' and '{key_type}'")
    } else {
        format!("object of type '{key_type}' has no len()")
    };
    bad(
        Phase::Resolve,
        odd.key,
        format!(
            "the placeholder `{}` of `{name}` is {}, not a string",
            v.doc.text(odd.key),
            v.arg(odd.key).describe()
        ),
        "quote the placeholder",
        heat,
    )
}

/// A value Heat refuses: a list or map before 2015-10-15 (and in `Fn::Replace`), an empty
/// value in `str_replace_vstrict`.
fn param_value(v: &View<'_>, function: Function, key: &str, entry: Entry) -> Option<Bad> {
    let arg = v.arg(entry.value);
    let name = function.name();
    let plain = function == Function::FnReplace || v.version < Version::V2015_10_15;
    if plain && matches!(arg, Arg::List(_) | Arg::Map(_)) {
        return bad(
            Phase::Resolve,
            entry.value,
            format!(
                "the value of `{key}` in `{name}` is {}, not a string or number",
                arg.describe()
            ),
            "replace with strings or numbers; lists and maps are encoded as JSON by `str_replace` from heat_template_version 2015-10-15",
            format!(r#""{name}" params must be strings or numbers, param {key} is not valid"#),
        );
    }
    if function != Function::StrReplaceVstrict || arg.truthy(v.doc) != Some(false) {
        return None;
    }
    if matches!(arg, Arg::Bool(_) | Arg::Int(_) | Arg::Float(_)) {
        return None;
    }
    bad(
        Phase::Resolve,
        entry.value,
        format!(
            "the value of `{key}` in `str_replace_vstrict` is {}",
            empty(arg)
        ),
        "give every placeholder a non-empty value, or use `str_replace_strict`",
        format!(
            "str_replace_vstrict has an undefined or empty value for param {key}, must be a defined non-empty value"
        ),
    )
}

fn empty(arg: Arg<'_>) -> &'static str {
    match arg {
        Arg::Null => "null",
        Arg::List(_) => "an empty list",
        Arg::Map(_) => "an empty mapping",
        _ => "an empty string",
    }
}

/// `str_replace_strict`/`vstrict`: every placeholder must occur in the template (Heat splits
/// the template by the longest placeholders first, so a placeholder found only inside a
/// longer one does not count).
fn unused_params(
    v: &View<'_>,
    function: Function,
    params: NodeId,
    template: NodeId,
    keyed: &[(&str, Entry)],
) -> Option<Bad> {
    if !matches!(
        function,
        Function::StrReplaceStrict | Function::StrReplaceVstrict
    ) {
        return None;
    }
    let text = v.str(template)?;
    let Arg::Map(map) = v.arg(params) else {
        return None;
    };
    if keyed.len() != v.doc.entries(map).len() {
        return None;
    }
    let mut fragments = vec![text];
    let mut unused = Vec::new();
    for &(key, entry) in keyed {
        if !fragments.iter().any(|f| f.contains(key)) {
            unused.push((key, entry));
        }
        fragments = fragments.iter().flat_map(|f| f.split(key)).collect();
    }
    let &(first, entry) = unused.first()?;
    let names: Vec<&str> = unused.iter().map(|(k, _)| *k).collect();
    let name = function.name();
    let message = if names.len() > 1 {
        let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        format!(
            "placeholders {} do not occur in the template of `{name}`",
            listed.join(", ")
        )
    } else {
        format!("placeholder `{first}` does not occur in the template of `{name}`")
    };
    bad(
        Phase::Resolve,
        entry.key,
        message,
        "remove the unused placeholders, or use `str_replace`, which allows them",
        format!(
            "The following params were not found in the template: {}",
            names.join(",")
        ),
    )
}
