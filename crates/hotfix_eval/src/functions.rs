//! What each function's `result()` computes (`heat/engine/hot/functions.py`,
//! `heat/engine/cfn/functions.py`), on resolved Python values.

use std::fmt::Write as _;

use crate::Fail;
use crate::value::{Dict, Value, get};

/// `Join.result` (13–15a `list_join`, `Fn::Join`).
/// `Join.result`; a result longer than `limit` bytes is not built ([`Fail::budget`]).
pub(crate) fn join(name: &str, delim: Value, strings: Value, limit: usize) -> Result<Value, Fail> {
    let strings = match strings {
        Value::None => Vec::new(),
        Value::List(items) => items,
        _ => {
            return Err(Fail::type_error(format!(
                "\"{name}\" must operate on a list"
            )));
        }
    };
    let Value::Str(delim) = delim else {
        return Err(Fail::type_error(format!(
            "\"{name}\" delimiter must be a string"
        )));
    };
    let mut parts = Vec::with_capacity(strings.len());
    for s in strings {
        match s {
            Value::None => parts.push(String::new()),
            Value::Str(s) => parts.push(s),
            other => {
                return Err(Fail::type_error(format!(
                    "Items to join must be strings not {}",
                    truncate(&other.py_repr(), 200)
                )));
            }
        }
    }
    joined(&parts, &delim, limit)
}

/// `JoinMultiple.result` (15b+ `list_join`): the lists were resolved first, the delimiter after.
/// `JoinMultiple.result`; a result longer than `limit` bytes is not built
/// ([`Fail::budget`]).
pub(crate) fn join_multiple(
    name: &str,
    lists: Vec<Value>,
    delim: Value,
    limit: usize,
) -> Result<Value, Fail> {
    let mut strings = Vec::new();
    for list in lists {
        if !list.truthy() {
            continue;
        }
        match list {
            Value::List(items) => strings.extend(items),
            _ => {
                return Err(Fail::type_error(format!(
                    "\"{name}\" must operate on a list"
                )));
            }
        }
    }
    let Value::Str(delim) = delim else {
        return Err(Fail::type_error(format!(
            "\"{name}\" delimiter must be a string"
        )));
    };
    let mut parts = Vec::with_capacity(strings.len());
    for s in strings {
        match s {
            Value::None => parts.push(String::new()),
            Value::Str(s) => parts.push(s),
            v @ (Value::List(_) | Value::Map(_)) => parts.push(v.json_dumps(true)),
            other => {
                return Err(Fail::type_error(format!(
                    "Items to join must be string, map or list not {}",
                    truncate(&other.py_repr(), 200)
                )));
            }
        }
    }
    joined(&parts, &delim, limit)
}

/// How `str_replace` turns a param value into text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReplaceKind {
    /// `Replace` (13–15a, `Fn::Replace`).
    Plain,
    /// `ReplaceJson` (15b+).
    Json,
    /// `ReplaceJsonStrict` (17a+).
    Strict,
    /// `ReplaceJsonVeryStrict` (17b+).
    VeryStrict,
}

/// `delim.join(parts)`, unless longer than `limit` bytes.
fn joined(parts: &[String], delim: &str, limit: usize) -> Result<Value, Fail> {
    let length = parts
        .iter()
        .fold(0usize, |n, p| n.saturating_add(p.len()))
        .saturating_add(parts.len().saturating_sub(1).saturating_mul(delim.len()));
    if length > limit {
        return Err(Fail::budget());
    }
    Ok(Value::Str(parts.join(delim)))
}

/// How many params `str_replace` takes before Heat's recursion (one level per key, two Python
/// frames each) reaches Python's limit. Measured with Heat's oracle (an output's value): 496
/// keys are replaced, 497 raise `RecursionError`; Heat deeper in its call stack stops earlier,
/// never later, so an error past this count is certain.
pub(crate) const MAX_REPLACE_KEYS: usize = 496;

/// `Replace.result` and its subclasses: keys longest first (then lexicographically), split and
/// join, so replaced text is never scanned again. A result longer than `limit` bytes is not
/// built: [`Fail::budget`].
pub(crate) fn replace(
    name: &str,
    kind: ReplaceKind,
    template: Value,
    mapping: Value,
    limit: usize,
) -> Result<Value, Fail> {
    let strict = matches!(kind, ReplaceKind::Strict | ReplaceKind::VeryStrict);
    let Value::Str(template) = template else {
        return Err(Fail::type_error(format!(
            "\"{name}\" template must be a string"
        )));
    };
    let Value::Map(mapping) = mapping else {
        return Err(Fail::type_error(format!("\"{name}\" params must be a map")));
    };
    // sorted(sorted(mapping), key=len, reverse=True): sorting mixed key types fails in Python
    // at the first pair it cannot compare, and `len()` of the first key in sorted order that
    // is not a string fails after. The keys with their values (no lookup per key: a mapping
    // may have many).
    let mut keys: Vec<(&Value, &Value)> = mapping.iter().map(|(k, v)| (k, v)).collect();
    if keys.iter().any(|(k, _)| k.as_str().is_none()) {
        let order = py_sorted(&keys.iter().map(|(k, _)| *k).collect::<Vec<_>>())?;
        if let Some(&first) = order.iter().find(|&&i| keys[i].0.as_str().is_none()) {
            return Err(Fail::type_error(format!(
                "object of type '{}' has no len()",
                keys[first].0.type_name()
            )));
        }
    }
    keys.sort_by(|(a, _), (b, _)| a.as_str().cmp(&b.as_str()));
    keys.sort_by(|(a, _), (b, _)| {
        let la = a.as_str().map_or(0, |s| s.chars().count());
        let lb = b.as_str().map_or(0, |s| s.chars().count());
        lb.cmp(&la)
    });
    let mut unreplaced: Vec<String> = Vec::new();
    if strict {
        unreplaced = keys
            .iter()
            .filter_map(|(k, _)| k.as_str().map(str::to_owned))
            .collect();
    }
    let mut values = Vec::with_capacity(keys.len());
    // Python validates each value lazily, in key order, as the recursion reaches it; an error
    // for a key is raised whatever the template holds.
    let mut placeholders = Vec::with_capacity(keys.len());
    for &(key, value) in keys.iter().take(MAX_REPLACE_KEYS + 1) {
        let Some(placeholder) = key.as_str() else {
            return Err(Fail::type_error(format!(
                "\"{name}\" param placeholders must be strings"
            )));
        };
        values.push(replacement(name, kind, value.clone(), placeholder)?);
        placeholders.push(placeholder);
    }
    if keys.len() > MAX_REPLACE_KEYS {
        return Err(Fail::new(
            "RecursionError",
            "maximum recursion depth exceeded".to_owned(),
        ));
    }
    // The shortest placeholder comes last: its value is checked, then `str.split('')` fails.
    if placeholders.last() == Some(&"") {
        return Err(Fail::value_error("empty separator".to_owned()));
    }
    let result = replace_rec(&template, &placeholders, &values, &mut unreplaced, limit)?;
    if strict && !unreplaced.is_empty() {
        unreplaced.sort();
        unreplaced.sort_by_key(|k| std::cmp::Reverse(k.chars().count()));
        return Err(Fail::value_error(format!(
            "The following params were not found in the template: {}",
            unreplaced.join(",")
        )));
    }
    Ok(Value::Str(result))
}

/// The order Python's `sorted()` puts `items` in (their indexes), or the `TypeError` of the
/// first pair it cannot compare, by the comparisons of Python 3.11 for fewer than 64 items (a
/// run, then a binary insertion sort); beyond, only items that all compare are sorted.
fn py_sorted(items: &[&Value]) -> Result<Vec<usize>, Fail> {
    /// Python's `a < b` for the keys of a mapping.
    fn lt(a: &Value, b: &Value) -> Result<bool, Fail> {
        match (a, b) {
            (Value::Str(x), Value::Str(y)) => Ok(x < y),
            _ => match (a.as_num(), b.as_num()) {
                (Some(x), Some(y)) => Ok(x.cmp_num(y) == Some(std::cmp::Ordering::Less)),
                _ if [a, b].iter().all(|v| {
                    matches!(
                        v,
                        Value::Int(_) | Value::BigInt(_) | Value::Bool(_) | Value::Float(_)
                    )
                }) =>
                {
                    Err(Fail::not_evaluated(
                        "comparing an int beyond 128 bits is not modelled".to_owned(),
                    ))
                }
                _ => Err(Fail::type_error(format!(
                    "'<' not supported between instances of '{}' and '{}'",
                    a.type_name(),
                    b.type_name()
                ))),
            },
        }
    }
    let n = items.len();
    let mut order: Vec<usize> = (0..n).collect();
    if n >= 64 {
        let mut failed = None;
        order.sort_by(
            |&i, &j| match (lt(items[i], items[j]), lt(items[j], items[i])) {
                (Ok(true), _) => std::cmp::Ordering::Less,
                (Ok(false), Ok(true)) => std::cmp::Ordering::Greater,
                (Ok(false), Ok(false)) => std::cmp::Ordering::Equal,
                (Err(f), _) | (_, Err(f)) => {
                    failed.get_or_insert(f);
                    std::cmp::Ordering::Equal
                }
            },
        );
        return match failed {
            None => Ok(order),
            Some(_) => Err(Fail::not_evaluated(
                "sorting 64 or more keys of mixed types is not modelled".to_owned(),
            )),
        };
    }
    if n < 2 {
        return Ok(order);
    }
    let at = |order: &[usize], i: usize| items[order[i]];
    // count_run: the longest ascending (or strictly descending, reversed) run at the start.
    let mut run = 2;
    if lt(at(&order, 1), at(&order, 0))? {
        while run < n && lt(at(&order, run), at(&order, run - 1))? {
            run += 1;
        }
        order[..run].reverse();
    } else {
        while run < n && !lt(at(&order, run), at(&order, run - 1))? {
            run += 1;
        }
    }
    // binarysort of the rest into the run.
    for start in run..n {
        let pivot = order[start];
        let (mut l, mut r) = (0, start);
        while l < r {
            let p = l + ((r - l) >> 1);
            if lt(items[pivot], at(&order, p))? {
                r = p;
            } else {
                l = p + 1;
            }
        }
        order[l..=start].rotate_right(1);
    }
    Ok(order)
}

/// One level of Heat's `replace`: `s` split on the first key, each part replaced with the
/// other keys, joined with the first value. Its depth is the number of keys (at most
/// [`MAX_REPLACE_KEYS`]); a result longer than `limit` bytes fails before it is joined.
fn replace_rec(
    s: &str,
    keys: &[&str],
    values: &[String],
    unreplaced: &mut Vec<String>,
    limit: usize,
) -> Result<String, Fail> {
    let Some((&key, rest)) = keys.split_first() else {
        return Ok(s.to_owned());
    };
    let parts: Vec<&str> = py_split(s, key);
    if parts.len() > 1 {
        unreplaced.retain(|k| k != key);
    }
    let joins = (parts.len() - 1).saturating_mul(values[0].len());
    let mut replaced = Vec::with_capacity(parts.len());
    let mut length = joins;
    for part in parts {
        if length > limit {
            return Err(Fail::budget());
        }
        let part = replace_rec(part, rest, &values[1..], unreplaced, limit - length)?;
        length = length.saturating_add(part.len());
        replaced.push(part);
    }
    if length > limit {
        return Err(Fail::budget());
    }
    Ok(replaced.join(&values[0]))
}

/// Python's `str.split(sep)` (an empty separator is a `ValueError` in Python; callers avoid it).
fn py_split<'s>(s: &'s str, sep: &str) -> Vec<&'s str> {
    if sep.is_empty() {
        return vec![s];
    }
    s.split(sep).collect()
}

fn replacement(name: &str, kind: ReplaceKind, value: Value, param: &str) -> Result<String, Fail> {
    let empty = || {
        Fail::value_error(format!(
            "{name} has an undefined or empty value for param {param}, must be a defined \
             non-empty value"
        ))
    };
    let allow_empty = kind != ReplaceKind::VeryStrict;
    match value {
        Value::None if allow_empty => Ok(String::new()),
        Value::None => Err(empty()),
        v @ (Value::Str(_)
        | Value::Int(_)
        | Value::BigInt(_)
        | Value::Float(_)
        | Value::Bool(_)) => {
            let text = v.py_str();
            if !allow_empty && text.is_empty() {
                return Err(empty());
            }
            Ok(text)
        }
        v @ (Value::List(_) | Value::Map(_)) if kind != ReplaceKind::Plain => {
            if !allow_empty && v.py_len() == Some(0) {
                return Err(empty());
            }
            Ok(v.json_dumps(true))
        }
        _ if kind == ReplaceKind::Plain => Err(Fail::type_error(format!(
            "\"{name}\" params must be strings or numbers, param {param} is not valid"
        ))),
        _ => Err(Fail::type_error(format!(
            "\"{name}\" params must be strings, numbers, list or map."
        ))),
    }
}

/// `StrSplit.result`.
pub(crate) fn str_split(name: &str, args: Value) -> Result<Value, Fail> {
    let example = format!("\"{name}\" : [ \",\", \"apples,pears\", <index>]");
    let incorrect = || {
        Fail::value_error(format!(
            "Incorrect arguments to \"{name}\" should be: {example}"
        ))
    };
    let Value::List(mut args) = args else {
        return Err(incorrect());
    };
    if args.len() < 2 {
        return Err(incorrect());
    }
    let rest = args.split_off(2);
    let string = args.pop().unwrap_or(Value::None);
    let delim = args.pop().unwrap_or(Value::None);
    if string.is_none() {
        return Ok(Value::None);
    }
    let Value::Str(string) = string else {
        return Err(Fail::attribute_error(&string, "split"));
    };
    let parts: Vec<String> = match &delim {
        Value::Str(d) if d.is_empty() => {
            return Err(Fail::value_error("empty separator".to_owned()));
        }
        Value::Str(d) => string.split(d.as_str()).map(str::to_owned).collect(),
        Value::None => string.split_whitespace().map(str::to_owned).collect(),
        other => {
            return Err(Fail::type_error(format!(
                "must be str or None, not {}",
                other.type_name()
            )));
        }
    };
    let Some(index) = rest.into_iter().next() else {
        return Ok(Value::List(parts.into_iter().map(Value::Str).collect()));
    };
    // `int(index)`: its `ValueError` is Heat's; a `TypeError` or `OverflowError` goes through.
    let index = match int_of(&index) {
        Ok(n) => n,
        Err(fail) if fail.class == "ValueError" => {
            return Err(Fail::value_error(format!(
                "Incorrect index to \"{name}\" should be: {example}"
            )));
        }
        Err(fail) => return Err(fail),
    };
    let index = index.as_i128().and_then(|n| i64::try_from(n).ok());
    match index.and_then(|i| py_index(parts.len(), i)) {
        Some(i) => Ok(Value::Str(parts[i].clone())),
        None => Err(Fail::value_error(format!(
            "Incorrect index to \"{name}\" should be between 0 and {}",
            parts.len().saturating_sub(1)
        ))),
    }
}

/// Python's `int(x)`: an `Int` or `BigInt`, or the exception Python raises (`ValueError`,
/// `TypeError`, `OverflowError`); `NotEvaluated` for what is not modelled (Unicode digits,
/// `bytes`).
pub(crate) fn int_of(v: &Value) -> Result<Value, Fail> {
    match v {
        Value::Int(_) | Value::BigInt(_) => Ok(v.clone()),
        Value::Bool(b) => Ok(Value::Int(i64::from(*b))),
        Value::Float(f) if f.is_nan() => Err(Fail::value_error(
            "cannot convert float NaN to integer".to_owned(),
        )),
        Value::Float(f) if f.is_infinite() => Err(Fail::new(
            "OverflowError",
            "cannot convert float infinity to integer".to_owned(),
        )),
        Value::Float(f) => {
            let whole = f.trunc();
            // 2⁶³, exactly.
            if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&whole) {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "an integral float within i64's range converts exactly"
                )]
                return Ok(Value::Int(whole as i64));
            }
            // Rust writes a float's exact decimal value.
            Ok(Value::BigInt(format!("{whole:.0}")))
        }
        Value::Str(s) => match hotfix_hot::python::int_of_str(s) {
            Ok(n) => Ok(crate::params::int_value(n)),
            Err(hotfix_hot::python::NotConverted::ValueError) => Err(Fail::value_error(format!(
                "invalid literal for int() with base 10: {}",
                crate::value::str_repr(s)
            ))),
            Err(hotfix_hot::python::NotConverted::Unknown) => Err(Fail::not_evaluated(format!(
                "int() of {} (Unicode digits) is not modelled",
                crate::value::str_repr(s)
            ))),
        },
        Value::Bytes => Err(Fail::not_evaluated(
            "int() of bytes is not modelled".to_owned(),
        )),
        other => Err(Fail::type_error(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            other.type_name()
        ))),
    }
}

/// Python's `int(x)` within `i64` ([`int_of`]), `None` where it raises or is beyond.
pub(crate) fn py_int(v: &Value) -> Option<i64> {
    int_of(v)
        .ok()?
        .as_i128()
        .and_then(|n| i64::try_from(n).ok())
}

/// A Python index into a sequence of `len` items (negative from the end).
pub(crate) fn py_index(len: usize, index: i64) -> Option<usize> {
    let len = i64::try_from(len).ok()?;
    let i = if index < 0 { index + len } else { index };
    (0..len)
        .contains(&i)
        .then(|| usize::try_from(i).ok())
        .flatten()
}

/// `MapMerge.result`.
pub(crate) fn map_merge(name: &str, args: Value) -> Result<Value, Fail> {
    let items = match args {
        Value::List(items) => items,
        Value::Str(s) => s.chars().map(|c| Value::Str(c.to_string())).collect(),
        _ => {
            return Err(Fail::type_error(format!(
                "Incorrect arguments to \"{name}\" should be: \"{name}\" : [ {{ \"key1\": \"val1\" }}, {{ \"key2\": \"val2\" }} ]"
            )));
        }
    };
    let mut out = Dict::default();
    for m in items {
        match m {
            Value::None => {}
            Value::Map(entries) => {
                for (k, v) in entries {
                    out.insert(k, v);
                }
            }
            other => {
                return Err(Fail::type_error(format!(
                    "Incorrect arguments: Items to merge must be maps. {} is type {} instead of a dict",
                    truncate(&other.py_repr(), 200),
                    other.py_type()
                )));
            }
        }
    }
    Ok(out.into_value())
}

/// `MapReplace.result`.
pub(crate) fn map_replace(name: &str, args: Value) -> Result<Value, Fail> {
    let example = format!(
        "\"{name}\" : [ {{ \"key1\": \"val1\" }}, {{\"keys\": {{\"key1\": \"key2\"}}, \"values\": {{\"val1\": \"val2\"}}}}]"
    );
    let incorrect = || {
        Fail::type_error(format!(
            "Incorrect arguments to \"{name}\" should be: {example}"
        ))
    };
    let ensure_map = |m: Value| match m {
        Value::None => Ok(Vec::new()),
        Value::Map(e) => Ok(e),
        _ => Err(Fail::type_error(format!(
            "Incorrect arguments: to \"{name}\", arguments must be a list of maps. Example:  {example}"
        ))),
    };
    let args = match args {
        Value::List(items) => items,
        // `args.pop(0)` of a dict: a `KeyError` unless a key equals 0, and then the second
        // `pop(0)` misses it.
        Value::Map(entries) => {
            let zero = Value::Int(0);
            if let Some((_, first)) = entries.into_iter().find(|(k, _)| k.py_eq(&zero)) {
                ensure_map(first)?;
            }
            return Err(Fail::new("KeyError", "0".to_owned()));
        }
        // No `pop`: an `AttributeError`, which Heat turns into this.
        _ => return Err(incorrect()),
    };
    let mut args = args.into_iter();
    let Some(first) = args.next() else {
        return Err(incorrect());
    };
    let in_map = ensure_map(first)?;
    let Some(second) = args.next() else {
        return Err(incorrect());
    };
    let repl = ensure_map(second)?;
    if args.next().is_some() {
        return Err(incorrect());
    }
    for (k, _) in &repl {
        if !matches!(k.as_str(), Some("keys" | "values")) {
            return Err(Fail::value_error(format!(
                "Incorrect arguments to \"{name}\" should be: {example}"
            )));
        }
    }
    let keys = Dict::of(ensure_map(
        get(&repl, &Value::Str("keys".into()))
            .cloned()
            .unwrap_or(Value::Map(Vec::new())),
    )?);
    let values = Dict::of(ensure_map(
        get(&repl, &Value::Str("values".into()))
            .cloned()
            .unwrap_or(Value::Map(Vec::new())),
    )?);
    let in_map = Dict::of(in_map);
    let mut out = Dict::with_capacity(in_map.entries().len());
    for (k, v) in in_map.entries() {
        let key = match keys.get(k) {
            None | Some(Value::None) => k.clone(),
            Some(key) => {
                if in_map.contains_key(key) && !key.py_eq(k) {
                    return Err(Fail::value_error(format!(
                        "key replacement {} collides with a key in the input map",
                        key.py_str()
                    )));
                }
                if out.contains_key(key) {
                    return Err(Fail::value_error(format!(
                        "key replacement {} collides with a key in the output map",
                        key.py_str()
                    )));
                }
                key.clone()
            }
        };
        let value = if matches!(v, Value::List(_) | Value::Map(_)) {
            v.clone()
        } else {
            values.get(v).cloned().unwrap_or_else(|| v.clone())
        };
        out.insert(key, value);
    }
    Ok(out.into_value())
}

/// `ListConcat.result`.
pub(crate) fn list_concat(name: &str, args: &Value, unique: bool) -> Result<Value, Fail> {
    let Value::List(items) = args.clone() else {
        return Err(Fail::type_error(format!(
            "Incorrect arguments to \"{name}\" should be: \"{name}\" : [ [ <value 1>, <value 2> ], [ <value 3>, <value 4> ] ]"
        )));
    };
    let mut out = Vec::new();
    for m in items {
        match m {
            Value::None => {}
            Value::List(l) => out.extend(l),
            other => {
                return Err(Fail::type_error(format!(
                    "Incorrect arguments: Items to concat must be lists. {} contains an item that is not a list: {}",
                    args.json_dumps(false),
                    other.json_dumps(false)
                )));
            }
        }
    }
    if !unique {
        return Ok(Value::List(out));
    }
    let mut kept: Vec<Value> = Vec::new();
    for item in out {
        if !kept.iter().any(|k| k.py_eq(&item)) {
            kept.push(item);
        }
    }
    Ok(Value::List(kept))
}

/// `Filter.result`: the sequence is resolved first.
pub(crate) fn filter(
    name: &str,
    sequence: Value,
    values: impl FnOnce() -> Result<Value, Fail>,
) -> Result<Value, Fail> {
    if !sequence.truthy() {
        return Ok(sequence);
    }
    let Value::List(sequence) = sequence else {
        return Err(Fail::type_error(format!(
            "\"{name}\" only works with lists"
        )));
    };
    let values = values()?;
    if !values.truthy() {
        return Ok(Value::List(sequence));
    }
    let Value::List(values) = values else {
        return Err(Fail::type_error(format!(
            "\"{name}\" filters a list of values"
        )));
    };
    Ok(Value::List(
        sequence
            .into_iter()
            .filter(|i| !values.iter().any(|v| v.py_eq(i)))
            .collect(),
    ))
}

/// `Contains.result`.
pub(crate) fn contains(name: &str, value: &Value, sequence: &Value) -> Result<Value, Fail> {
    match sequence {
        Value::List(_) => Ok(Value::Bool(sequence.py_contains(value).unwrap_or(false))),
        Value::Str(_) => match sequence.py_contains(value) {
            Some(b) => Ok(Value::Bool(b)),
            None => Err(Fail::type_error(format!(
                "'in <string>' requires string as left operand, not {}",
                value.type_name()
            ))),
        },
        _ => Err(Fail::type_error(format!(
            "Second argument to \"{name}\" should be a sequence."
        ))),
    }
}

/// `Select.result` (`Fn::Select`).
pub(crate) fn select(name: &str, index: Value, strings: Value) -> Result<Value, Fail> {
    if strings.as_str() == Some("") {
        return Ok(Value::Str(String::new()));
    }
    let strings = match strings {
        Value::Str(s) => match crate::json::loads(&s) {
            Ok(v) => v,
            Err(err) if err.class == "ValueError" => {
                return Err(Fail::value_error(format!("\"{name}\": {}", err.message)));
            }
            Err(err) => return Err(err),
        },
        other => other,
    };
    if let Value::Map(entries) = &strings {
        let Value::Str(_) = index else {
            return Err(Fail::type_error(format!(
                "Index to \"{name}\" must be a string"
            )));
        };
        return Ok(get(entries, &index)
            .cloned()
            .unwrap_or(Value::Str(String::new())));
    }
    // `int(index)`, its `ValueError` and `TypeError` ignored (an `OverflowError` goes through).
    let index = match int_of(&index) {
        Ok(n) => n,
        Err(fail) if matches!(fail.class, "ValueError" | "TypeError") => index,
        Err(fail) => return Err(fail),
    };
    // An int beyond i64 is out of range of any list.
    if let (Value::BigInt(_), Value::List(_)) = (&index, &strings) {
        return Ok(Value::Str(String::new()));
    }
    match strings {
        Value::List(items) => {
            let Value::Int(i) = index else {
                return Err(Fail::type_error(format!(
                    "Index to \"{name}\" must be an integer"
                )));
            };
            Ok(py_index(items.len(), i).map_or(Value::Str(String::new()), |i| items[i].clone()))
        }
        Value::None => Ok(Value::Str(String::new())),
        _ => Err(Fail::type_error(format!(
            "Arguments to {name} not fully resolved"
        ))),
    }
}

/// `MemberListToMap.result`.
pub(crate) fn member_list_to_map(
    keyname: &str,
    valuename: &str,
    list: Value,
) -> Result<Value, Fail> {
    // Any iterable: a string's characters, a mapping's keys.
    let items: Vec<Value> = match list {
        Value::List(items) => items,
        Value::Str(s) => s.chars().map(|c| Value::Str(c.to_string())).collect(),
        Value::Map(entries) => entries.into_iter().map(|(k, _)| k).collect(),
        Value::Bytes => {
            return Err(Fail::bytes());
        }
        _ => return Err(Fail::type_error("Member list must be a list".to_owned())),
    };
    // Each member by its index (`int()` of its digits: written without leading zeros, of any
    // length), with its fields as written.
    let mut members: Vec<(String, Vec<(String, String)>)> = Vec::new();
    // Where each index's member is in `members`.
    let mut member_of: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, s) in items.into_iter().enumerate() {
        let Value::Str(s) = s else {
            return Err(Fail::type_error(
                "Member list items must be strings".to_owned(),
            ));
        };
        // `dict(s.split('=', 1) for s in member_list)`: an item without `=` is one long.
        let Some((k, v)) = s.split_once('=') else {
            return Err(Fail::value_error(format!(
                "dictionary update sequence element #{i} has length 1; 2 is required"
            )));
        };
        let (k, v) = (k.to_owned(), v.to_owned());
        // ^\.member\.([0-9]+)\.(.*)
        let Some(rest) = k.strip_prefix(".member.") else {
            continue;
        };
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() {
            continue;
        }
        let Some(field) = rest[digits.len()..].strip_prefix('.') else {
            continue;
        };
        // `(.*)` stops at a line break.
        let field = field.split('\n').next().unwrap_or_default();
        let index = match digits.trim_start_matches('0') {
            "" => "0".to_owned(),
            significant => significant.to_owned(),
        };
        let m = *member_of.entry(index.clone()).or_insert_with(|| {
            members.push((index, Vec::new()));
            members.len() - 1
        });
        members[m].1.push((field.to_owned(), v));
    }
    // `extract_param_list`: the members in the order of their indexes.
    members.sort_by(|(a, _), (b, _)| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    let mut out = Dict::with_capacity(members.len());
    for (_, fields) in members {
        let find = |name: &str| {
            fields
                .iter()
                .rev()
                .find(|(f, _)| f == name)
                .map(|(_, v)| v.clone())
        };
        // `extract_param_pairs` skips a member without the key or the value.
        let (Some(k), Some(v)) = (find(keyname), find(valuename)) else {
            continue;
        };
        out.insert(Value::Str(k), Value::Str(v));
    }
    Ok(out.into_value())
}

/// `MakeURL.result`.
pub(crate) fn make_url(args: Value) -> Result<Value, Fail> {
    // Its `_check_args` is the caller's (`hotfix_hot::function_args::url_args_refusal`).
    let Value::Map(args) = args else {
        return Err(make_url_of_no_map(&args));
    };
    let text = |key: &str| -> Result<String, Fail> {
        match get(&args, &Value::Str(key.into())) {
            None => Ok(String::new()),
            Some(Value::Str(s)) => Ok(s.clone()),
            Some(other) => Err(Fail::type_error(format!(
                "quote_from_bytes() expected bytes, not {}",
                other.type_name()
            ))),
        }
    };
    let scheme = text("scheme")?;
    if scheme.contains(':') {
        return Err(Fail::value_error(
            "URL \"scheme\" should not contain ':'".to_owned(),
        ));
    }
    let mut netloc = String::new();
    let username = quote(&text("username")?, "");
    let password = quote(&text("password")?, "");
    if !username.is_empty() || !password.is_empty() {
        netloc.push_str(&username);
        if !password.is_empty() {
            netloc.push(':');
            netloc.push_str(&password);
        }
        netloc.push('@');
    }
    let mut host = text("host")?;
    if host.starts_with('[') && host.ends_with(']') && host.len() >= 2 {
        host = host[1..host.len() - 1].to_owned();
    }
    let mut host = quote(&host, ":");
    if host.contains(':') {
        host = format!("[{host}]");
    }
    netloc.push_str(&host);
    if let Some(port) = get(&args, &Value::Str("port".into()))
        && port.truthy()
    {
        netloc.push(':');
        netloc.push_str(&port.py_str());
    }
    let path = quote(&text("path")?, "/");
    let query = match get(&args, &Value::Str("query".into())) {
        None => String::new(),
        Some(Value::Map(q)) => urlencode(q).replace("%2F", "/"),
        Some(_) => {
            return Err(Fail::type_error(
                "not a valid non-string sequence or mapping object".to_owned(),
            ));
        }
    };
    let fragment = quote(&text("fragment")?, "/");
    // urlunsplit
    let mut url = String::new();
    if !scheme.is_empty() {
        url.push_str(&scheme);
        url.push(':');
    }
    if !netloc.is_empty()
        || (!scheme.is_empty()
            && [
                "", "ftp", "http", "https", "gopher", "nntp", "telnet", "imap", "wais", "file",
                "mms", "shttp", "snews", "prospero", "rtsp", "rtspu", "rsync", "svn", "svn+ssh",
                "sftp", "nfs", "git", "git+ssh", "ws", "wss",
            ]
            .contains(&scheme.as_str())
            && path.starts_with("//"))
    {
        url.push_str("//");
        url.push_str(&netloc);
        if !path.is_empty() && !path.starts_with('/') {
            url.push('/');
        }
    } else if path.starts_with("//") {
        url.push_str("//");
    }
    url.push_str(&path);
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query);
    }
    if !fragment.is_empty() {
        url.push('#');
        url.push_str(&fragment);
    }
    Ok(Value::Str(url))
}

/// What `MakeURL.result` raises for arguments that are not a map (its `validate()` refused
/// them already): `_check_args` tests `key in args` for each of its keys and reads `args[key]`
/// for one found; else `args.get` fails.
fn make_url_of_no_map(args: &Value) -> Fail {
    let no_get = || {
        Fail::new(
            "AttributeError",
            format!("'{}' object has no attribute 'get'", args.type_name()),
        )
    };
    match args {
        Value::List(items) => {
            if hotfix_hot::function_args::URL_KEYS
                .iter()
                .any(|k| items.iter().any(|i| i.py_eq(&Value::Str((*k).to_owned()))))
            {
                Fail::type_error("list indices must be integers or slices, not str".to_owned())
            } else {
                no_get()
            }
        }
        Value::Str(s) => {
            if hotfix_hot::function_args::URL_KEYS
                .iter()
                .any(|k| s.contains(k))
            {
                Fail::type_error("string indices must be integers, not 'str'".to_owned())
            } else {
                no_get()
            }
        }
        Value::Bytes | Value::Ellipsis | Value::Map(_) => {
            Fail::not_evaluated("make_url of these arguments is not modelled".to_owned())
        }
        other => Fail::type_error(format!(
            "argument of type '{}' is not iterable",
            other.type_name()
        )),
    }
}

/// `urllib.parse.quote(s, safe)`.
fn quote(s: &str, safe: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        let c = b as char;
        if c.is_ascii_alphanumeric() || "_.-~".contains(c) || (b < 128 && safe.contains(c)) {
            out.push(c);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// `urllib.parse.urlencode(dict)`: `quote_plus` of `str()` of keys and values.
fn urlencode(q: &[(Value, Value)]) -> String {
    let plus = |s: &str| quote(s, " ").replace(' ', "+");
    q.iter()
        .map(|(k, v)| format!("{}={}", plus(&k.py_str()), plus(&v.py_str())))
        .collect::<Vec<_>>()
        .join("&")
}

pub(crate) fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

#[cfg(test)]
mod replace_limit_tests {
    use super::*;

    fn params(n: usize) -> Value {
        Value::Map(
            (0..n)
                .map(|i| (Value::Str(format!("k{i:05}")), Value::Str("v".to_owned())))
                .collect(),
        )
    }

    #[test]
    fn replaces_with_as_many_params_as_heat_and_fails_past_them_as_heat_does() {
        // 496 params are replaced in Heat's oracle, 497 raise (an output's value).
        let template = || Value::Str("k00001 x".to_owned());
        let ok = replace(
            "str_replace",
            ReplaceKind::Plain,
            template(),
            params(496),
            1 << 20,
        );
        assert_eq!(ok.expect("replaced").as_str(), Some("v x"));
        for n in [497, 20_000] {
            let err = replace(
                "str_replace",
                ReplaceKind::Plain,
                template(),
                params(n),
                1 << 20,
            )
            .expect_err("too many params");
            assert_eq!(err.class, "RecursionError");
            assert_eq!(err.message, "maximum recursion depth exceeded");
        }
    }

    #[test]
    fn a_result_longer_than_the_limit_is_not_built() {
        let mapping = Value::Map(vec![(
            Value::Str("a".to_owned()),
            Value::Str("xx".to_owned()),
        )]);
        let template = Value::Str("a".repeat(100));
        let err = replace(
            "str_replace",
            ReplaceKind::Plain,
            template.clone(),
            mapping.clone(),
            199,
        )
        .expect_err("too long");
        assert_eq!(err.class, "NotEvaluated");
        let ok = replace("str_replace", ReplaceKind::Plain, template, mapping, 200);
        assert_eq!(ok.expect("replaced").as_str().map(str::len), Some(200));
    }
}
