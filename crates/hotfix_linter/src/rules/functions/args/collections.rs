//! Functions on lists and maps: `map_merge`, `map_replace`, `list_concat`, `filter`,
//! `contains`, `Fn::Select`, `Fn::MemberListToMap`.

use hotfix_hot::Call;
use hotfix_yaml::NodeId;

use super::{Bad, Phase, bad, class_of};
use crate::rules::functions::shared::{Arg, PyInt, View, str_repr};

pub(super) fn map_merge(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    let message = format!(
        "`map_merge` takes a list of mappings, not {}",
        arg.describe()
    );
    let advice = "write `map_merge: [{a: 1}, {b: 2}]`";
    match arg {
        Arg::List(items) => items.iter().find_map(|&item| merge_item(v, item)),
        Arg::Call(_) | Arg::Bytes(_) | Arg::Str("") => None,
        Arg::Str(s) => {
            let first = str_repr(&s.chars().take(1).collect::<String>());
            let heat = format!(
                "Incorrect arguments: Items to merge must be maps. {first} is type <class 'str'> instead of a dict"
            );
            bad(Phase::Resolve, call.args, message, advice, heat)
        }
        _ => bad(
            Phase::Resolve,
            call.args,
            message,
            advice,
            r#"Incorrect arguments to "map_merge" should be: "map_merge" : [ { "key1": "val1" }, { "key2": "val2" } ]"#,
        ),
    }
}

fn merge_item(v: &View<'_>, item: NodeId) -> Option<Bad> {
    let arg = v.arg(item);
    if !arg.is_known() || matches!(arg, Arg::Null | Arg::Map(_)) {
        return None;
    }
    let repr = v.repr(item).unwrap_or_else(|| "…".to_owned());
    bad(
        Phase::Resolve,
        item,
        format!("`map_merge` merges mappings, not {}", arg.describe()),
        "give a mapping (or a function that returns one)",
        format!(
            "Incorrect arguments: Items to merge must be maps. {repr} is type {} instead of a dict",
            class_of(arg)
        ),
    )
}

const MAP_REPLACE_EXAMPLE: &str = r#""map_replace" : [ { "key1": "val1" }, {"keys": {"key1": "key2"}, "values": {"val1": "val2"}}]"#;

fn map_replace_args() -> String {
    format!(r#"Incorrect arguments to "map_replace" should be: {MAP_REPLACE_EXAMPLE}"#)
}

pub(super) fn map_replace(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    let message = format!(
        "`map_replace` takes a list `[map, {{keys: …, values: …}}]`, not {}",
        arg.describe()
    );
    let advice = "write `map_replace: [{a: 1}, {keys: {a: b}}]`";
    let items = match arg {
        Arg::List(items) => items,
        Arg::Call(_) | Arg::Bytes(_) => return None,
        Arg::Map(_) => {
            return bad(
                Phase::Resolve,
                call.args,
                message,
                format!("{advice} (Heat fails with a `KeyError`)"),
                "0",
            );
        }
        _ => {
            return bad(
                Phase::Resolve,
                call.args,
                message,
                advice,
                map_replace_args(),
            );
        }
    };
    if let Some(found) = items.first().and_then(|&i| replace_map_item(v, i)) {
        return Some(found);
    }
    let [input, replacements] = items else {
        let message = format!(
            "`map_replace` takes exactly two items, the map and `{{keys: …, values: …}}`, not {}",
            arg.describe()
        );
        return bad(
            Phase::Resolve,
            call.args,
            message,
            advice,
            map_replace_args(),
        );
    };
    replace_map_item(v, *replacements)
        .or_else(|| replacement_keys(v, *replacements))
        .or_else(|| key_collision(v, *input, *replacements))
}

/// Each item of `map_replace`, and its `keys` and `values`, must be a map (or null).
fn replace_map_item(v: &View<'_>, item: NodeId) -> Option<Bad> {
    let arg = v.arg(item);
    if !arg.is_known() || matches!(arg, Arg::Null | Arg::Map(_)) {
        return None;
    }
    bad(
        Phase::Resolve,
        item,
        format!("`map_replace` works on mappings, not {}", arg.describe()),
        "write `map_replace: [{a: 1}, {keys: {a: b}, values: {1: 2}}]`",
        format!(
            r#"Incorrect arguments: to "map_replace", arguments must be a list of maps. Example:  {MAP_REPLACE_EXAMPLE}"#
        ),
    )
}

/// The replacements may have only `keys` and `values`, each a map.
fn replacement_keys(v: &View<'_>, replacements: NodeId) -> Option<Bad> {
    let Arg::Map(map) = v.arg(replacements) else {
        return None;
    };
    let entries = v.doc.entries(map);
    if let Some(odd) = entries
        .iter()
        .find(|e| !matches!(v.str(e.key), Some("keys" | "values")))
    {
        return bad(
            Phase::Resolve,
            odd.key,
            format!(
                "`map_replace` takes only `keys` and `values`, not `{}`",
                v.doc.text(odd.key)
            ),
            "rename keys with `keys: {old: new}` and values with `values: {old: new}`",
            map_replace_args(),
        );
    }
    entries.iter().find_map(|e| replace_map_item(v, e.value))
}

/// A renamed key that collides with a key of the input map, or with another renamed key.
fn key_collision(v: &View<'_>, input: NodeId, replacements: NodeId) -> Option<Bad> {
    let (Arg::Map(input), Arg::Map(replacements)) = (v.arg(input), v.arg(replacements)) else {
        return None;
    };
    let Arg::Map(keys) = v.arg(v.doc.get(replacements, "keys")?) else {
        return None;
    };
    let input_keys: Vec<&str> = v
        .doc
        .entries(input)
        .iter()
        .map(|e| v.str(e.key))
        .collect::<Option<_>>()?;
    let mut renames = Vec::new();
    for entry in v.doc.entries(keys) {
        let to = match v.arg(entry.value) {
            Arg::Str(s) => Some(s),
            Arg::Null => None,
            _ => return None,
        };
        renames.push((v.str(entry.key)?, to, entry.value));
    }
    let mut output: Vec<&str> = Vec::new();
    for &key in &input_keys {
        let Some(&(_, Some(to), node)) = renames.iter().find(|(from, ..)| *from == key) else {
            output.push(key);
            continue;
        };
        let (place, clash) = if input_keys.contains(&to) && to != key {
            ("input", "a key the map already has")
        } else if output.contains(&to) {
            ("output", "a key the result already has")
        } else {
            output.push(to);
            continue;
        };
        return bad(
            Phase::Resolve,
            node,
            format!("`map_replace` renames `{key}` to `{to}`, {clash}"),
            "rename it to a key that is not in the map",
            format!("key replacement {to} collides with a key in the {place} map"),
        );
    }
    None
}

pub(super) fn list_concat(v: &View<'_>, call: &Call) -> Option<Bad> {
    let name = call.status.function().name();
    let arg = v.arg(call.args);
    let items = match arg {
        Arg::List(items) => items,
        Arg::Call(_) | Arg::Bytes(_) => return None,
        other => {
            let example = "[ [ <value 1>, <value 2> ], [ <value 3>, <value 4> ] ]";
            return bad(
                Phase::Resolve,
                call.args,
                format!("`{name}` takes a list of lists, not {}", other.describe()),
                format!("write `{name}: [[a, b], [c]]`"),
                format!(r#"Incorrect arguments to "{name}" should be: "{name}" : {example}"#),
            );
        }
    };
    let &item = items.iter().find(|&&i| {
        let a = v.arg(i);
        a.is_known() && !matches!(a, Arg::Null | Arg::List(_))
    })?;
    let all = v.json(call.args).unwrap_or_else(|| "…".to_owned());
    let one = v.json(item).unwrap_or_else(|| "…".to_owned());
    bad(
        Phase::Resolve,
        item,
        format!(
            "`{name}` concatenates lists, not {}",
            v.arg(item).describe()
        ),
        "put the item in a list of its own",
        format!(
            "Incorrect arguments: Items to concat must be lists. {all} contains an item that is not a list: {one}"
        ),
    )
}

pub(super) fn filter(v: &View<'_>, call: &Call) -> Option<Bad> {
    // Its constructor has checked the rest: two items.
    let Arg::List([values, sequence]) = v.arg(call.args) else {
        return None;
    };
    let is_bad =
        |a: Arg<'_>| a.is_known() && a.truthy(v.doc) == Some(true) && !matches!(a, Arg::List(_));
    let sequence_arg = v.arg(*sequence);
    if is_bad(sequence_arg) {
        let message = format!("`filter` filters a list, not {}", sequence_arg.describe());
        return bad(
            Phase::Resolve,
            *sequence,
            message,
            "give the list to filter as the second item",
            r#""filter" only works with lists"#,
        );
    }
    if !matches!(sequence_arg, Arg::List(items) if !items.is_empty()) {
        return None;
    }
    let values_arg = v.arg(*values);
    if !is_bad(values_arg) {
        return None;
    }
    bad(
        Phase::Resolve,
        *values,
        format!(
            "the values `filter` removes must be a list, not {}",
            values_arg.describe()
        ),
        "put the values to remove in a list",
        r#""filter" filters a list of values"#,
    )
}

pub(super) fn contains(v: &View<'_>, call: &Call) -> Option<Bad> {
    // Its constructor has checked the rest: two items.
    let Arg::List([_, sequence]) = v.arg(call.args) else {
        return None;
    };
    let sequence_arg = v.arg(*sequence);
    if !sequence_arg.is_known() || sequence_arg.is_sequence() {
        return None;
    }
    bad(
        Phase::Resolve,
        *sequence,
        format!(
            "`contains` looks in a list or string, not {}",
            sequence_arg.describe()
        ),
        "give a list (or a string, to look for a substring)",
        r#"Second argument to "contains" should be a sequence."#,
    )
}

pub(super) fn fn_select(v: &View<'_>, call: &Call) -> Option<Bad> {
    // Its constructor has checked the rest: two items (or what unpacks into two).
    let Arg::List([index, collection]) = v.arg(call.args) else {
        return None;
    };
    select_value(v, *index, *collection)
}

fn select_value(v: &View<'_>, index: NodeId, collection: NodeId) -> Option<Bad> {
    let index_arg = v.arg(index);
    match v.arg(collection) {
        Arg::Map(_) if index_arg.is_known() && !index_arg.is_str() => bad(
            Phase::Resolve,
            index,
            format!(
                "`Fn::Select` looks up a mapping by key, so the index must be a string, not {}",
                index_arg.describe()
            ),
            "quote the key",
            r#"Index to "Fn::Select" must be a string"#,
        ),
        Arg::List(_) if matches!(index_arg.to_int(), PyInt::ValueError | PyInt::TypeError) => bad(
            Phase::Resolve,
            index,
            format!(
                "`Fn::Select` picks from a list by position, so the index must be an integer, not {}",
                index_arg.describe()
            ),
            "give the position of the item, from 0",
            r#"Index to "Fn::Select" must be an integer"#,
        ),
        other @ (Arg::Bool(_) | Arg::Int(_) | Arg::Float(_)) => bad(
            Phase::Resolve,
            collection,
            format!(
                "`Fn::Select` picks from a list or mapping, not {}",
                other.describe()
            ),
            "give a list, a mapping, or a JSON string",
            "Arguments to Fn::Select not fully resolved",
        ),
        _ => None,
    }
}

pub(super) fn member_list_to_map(v: &View<'_>, call: &Call) -> Option<Bad> {
    // Its constructor has checked the rest: three items, two names.
    let Arg::List([_, _, list]) = v.arg(call.args) else {
        return None;
    };
    member_list(v, *list)
}

fn member_list(v: &View<'_>, list: NodeId) -> Option<Bad> {
    let arg = v.arg(list);
    let items = match arg {
        Arg::List(items) => items,
        Arg::Null | Arg::Bool(_) | Arg::Int(_) | Arg::Float(_) => {
            let message = format!(
                "`Fn::MemberListToMap` converts a list, not {}",
                arg.describe()
            );
            return bad(
                Phase::Resolve,
                list,
                message,
                "give a list of `.member.N.Name=…` strings",
                "Member list must be a list",
            );
        }
        _ => return None,
    };
    let &item = items.iter().find(|&&i| {
        let a = v.arg(i);
        a.is_known() && !a.is_str()
    })?;
    bad(
        Phase::Resolve,
        item,
        format!(
            "the items of `Fn::MemberListToMap` must be strings, not {}",
            v.arg(item).describe()
        ),
        "quote it to make it a string",
        "Member list items must be strings",
    )
}
