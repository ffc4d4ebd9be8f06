//! `list_join`/`Fn::Join`, `str_split`, `Fn::Split`, `digest`, `Fn::Base64`.

use hotfix_hot::{Call, Function};
use hotfix_yaml::NodeId;

use super::{Bad, Phase, bad, class_of};
use crate::rules::functions::shared::{Arg, PyInt, View};

pub(super) fn list_join(v: &View<'_>, call: &Call) -> Option<Bad> {
    let name = call.status.function().name();
    let multiple = call.status.function() == Function::ListJoin && v.version.has_join_multiple();
    // Its constructor has checked the rest: a delimiter and lists.
    let Arg::List([delimiter, lists @ ..]) = v.arg(call.args) else {
        return None;
    };
    let list_error = lists
        .iter()
        .find_map(|&list| join_list(v, name, multiple, list));
    list_error
        .or_else(|| join_delimiter(v, name, *delimiter))
        .or_else(|| {
            lists
                .iter()
                .find_map(|&list| join_items(v, name, multiple, list))
        })
}

/// The lists themselves: each must be a list (`None`, and from 2015-10-15 any falsy value, is
/// skipped).
fn join_list(v: &View<'_>, name: &str, multiple: bool, list: NodeId) -> Option<Bad> {
    let arg = v.arg(list);
    let skipped = if multiple {
        arg.truthy(v.doc) == Some(false)
    } else {
        matches!(arg, Arg::Null)
    };
    if skipped || !arg.is_known() || matches!(arg, Arg::List(_)) {
        return None;
    }
    bad(
        Phase::Resolve,
        list,
        format!(
            "`{name}` joins the items of a list, but this is {}",
            arg.describe()
        ),
        format!("write `{name}: [', ', [a, b]]`"),
        format!(r#""{name}" must operate on a list"#),
    )
}

fn join_delimiter(v: &View<'_>, name: &str, delimiter: NodeId) -> Option<Bad> {
    let arg = v.arg(delimiter);
    if !arg.is_known() || arg.is_str() {
        return None;
    }
    bad(
        Phase::Resolve,
        delimiter,
        format!(
            "the delimiter of `{name}` is {}, not a string",
            arg.describe()
        ),
        "quote the delimiter: `', '`",
        format!(r#""{name}" delimiter must be a string"#),
    )
}

/// The items of a literal list: strings (and from 2015-10-15 lists and maps, as JSON).
fn join_items(v: &View<'_>, name: &str, multiple: bool, list: NodeId) -> Option<Bad> {
    let Arg::List(items) = v.arg(list) else {
        return None;
    };
    items.iter().find_map(|&item| {
        let arg = v.arg(item);
        let fine = match arg {
            Arg::Null | Arg::Str(_) | Arg::Call(_) | Arg::Bytes(_) => true,
            Arg::List(_) | Arg::Map(_) => multiple,
            Arg::Bool(_) | Arg::Int(_) | Arg::Float(_) => false,
        };
        if fine {
            return None;
        }
        let repr = v.repr(item).unwrap_or_else(|| "…".to_owned());
        let (heat, advice) = if multiple {
            (
                format!("Items to join must be string, map or list not {repr}"),
                "quote it to make it a string",
            )
        } else if matches!(arg, Arg::List(_) | Arg::Map(_)) {
            (
                format!("Items to join must be strings not {repr}"),
                "join strings only; `list_join` encodes lists and maps as JSON from heat_template_version 2015-10-15",
            )
        } else {
            (format!("Items to join must be strings not {repr}"), "quote it to make it a string")
        };
        bad(Phase::Resolve, item, format!("`{name}` cannot join {}", arg.describe()), advice, heat)
    })
}

const STR_SPLIT_ARGS: &str = r#"Incorrect arguments to "str_split" should be: "str_split" : [ ",", "apples,pears", <index>]"#;

pub(super) fn str_split(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    // Its constructor refuses a string or mapping; anything else fails when resolved.
    let items = match arg {
        Arg::List(items) => items,
        Arg::Null | Arg::Bool(_) | Arg::Int(_) | Arg::Float(_) => {
            let message = format!(
                "`str_split` takes a list `[delimiter, string, index]`, not {}",
                arg.describe()
            );
            return bad(
                Phase::Resolve,
                call.args,
                message,
                "write `str_split: [',', 'a,b', 0]`",
                STR_SPLIT_ARGS,
            );
        }
        _ => return None,
    };
    let [delimiter, string, rest @ ..] = items else {
        let message = format!(
            "`str_split` needs a delimiter and a string, not {}",
            arg.describe()
        );
        return bad(
            Phase::Resolve,
            call.args,
            message,
            "write `str_split: [',', 'a,b']`",
            STR_SPLIT_ARGS,
        );
    };
    let text = match split_string(v, *string) {
        Ok(text) => text,
        Err(found) => return found,
    };
    let delimiter = match split_delimiter(v, *delimiter) {
        Ok(delimiter) => delimiter,
        Err(found) => return found,
    };
    split_index(v, *rest.first()?, text, delimiter)
}

/// The string to split: `Ok(None)` when unknown; `Err(None)` for `null` (Heat returns `None`
/// without looking further).
fn split_string<'a>(v: &View<'a>, string: NodeId) -> Result<Option<&'a str>, Option<Bad>> {
    match v.arg(string) {
        Arg::Str(s) => Ok(Some(s)),
        Arg::Call(_) | Arg::Bytes(_) => Ok(None),
        Arg::Null => Err(None),
        other => Err(bad(
            Phase::Resolve,
            string,
            format!("`str_split` splits a string, not {}", other.describe()),
            "give it a string",
            format!(
                "'{}' object has no attribute 'split'",
                other.py_type().unwrap_or("object")
            ),
        )),
    }
}

/// A literal delimiter of `str_split`.
#[derive(Clone, Copy)]
enum Delimiter<'a> {
    /// A call: unknown.
    Unknown,
    /// `null`: Python splits on whitespace.
    Whitespace,
    Text(&'a str),
}

fn split_delimiter<'a>(v: &View<'a>, delimiter: NodeId) -> Result<Delimiter<'a>, Option<Bad>> {
    match v.arg(delimiter) {
        Arg::Str("") => Err(bad(
            Phase::Resolve,
            delimiter,
            "the delimiter of `str_split` is empty",
            "give a delimiter of at least one character",
            "empty separator",
        )),
        Arg::Str(s) => Ok(Delimiter::Text(s)),
        Arg::Null => Ok(Delimiter::Whitespace),
        Arg::Call(_) | Arg::Bytes(_) => Ok(Delimiter::Unknown),
        other => Err(bad(
            Phase::Resolve,
            delimiter,
            format!(
                "the delimiter of `str_split` is {}, not a string",
                other.describe()
            ),
            "quote the delimiter",
            format!(
                "must be str or None, not {}",
                other.py_type().unwrap_or("object")
            ),
        )),
    }
}

fn split_index(
    v: &View<'_>,
    index: NodeId,
    text: Option<&str>,
    delimiter: Delimiter<'_>,
) -> Option<Bad> {
    let arg = v.arg(index);
    let value = match arg.to_int() {
        PyInt::Value(value) => value,
        PyInt::Unknown => return None,
        PyInt::ValueError => {
            let message = format!(
                "the index of `str_split` is {}, not an integer",
                arg.describe()
            );
            let heat = r#"Incorrect index to "str_split" should be: "str_split" : [ ",", "apples,pears", <index>]"#;
            return bad(
                Phase::Resolve,
                index,
                message,
                "give the position of the item, from 0",
                heat,
            );
        }
        PyInt::TypeError => {
            let message = format!(
                "the index of `str_split` is {}, not an integer",
                arg.describe()
            );
            let heat = format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                arg.py_type().unwrap_or("object")
            );
            return bad(
                Phase::Resolve,
                index,
                message,
                "give the position of the item, from 0",
                heat,
            );
        }
    };
    let count = split_count(text?, delimiter)?;
    let count_i = i64::try_from(count).unwrap_or(i64::MAX);
    if value.is_some_and(|i| (-count_i..count_i).contains(&i)) {
        return None;
    }
    bad(
        Phase::Resolve,
        index,
        format!(
            "index `{}` is out of range: `str_split` gives {count} items here",
            v.doc.text(index)
        ),
        format!("use an index from 0 to {}", count_i - 1),
        format!(
            r#"Incorrect index to "str_split" should be between 0 and {}"#,
            count_i - 1
        ),
    )
}

/// How many items Python's `text.split(delimiter)` gives.
fn split_count(text: &str, delimiter: Delimiter<'_>) -> Option<usize> {
    match delimiter {
        Delimiter::Text(delimiter) => Some(text.matches(delimiter).count() + 1),
        Delimiter::Whitespace => Some(text.split_whitespace().count()),
        Delimiter::Unknown => None,
    }
}

pub(super) fn fn_split(v: &View<'_>, call: &Call) -> Option<Bad> {
    // Its constructor has checked the rest: two items.
    let Arg::List(&[delimiter, string]) = v.arg(call.args) else {
        return None;
    };
    let delimiter_arg = v.arg(delimiter);
    if !delimiter_arg.is_str() && !matches!(delimiter_arg, Arg::Bytes(_)) {
        let message = format!(
            "the delimiter of `Fn::Split` is {}, not a literal string",
            delimiter_arg.describe()
        );
        let advice = "write the delimiter literally: Heat does not resolve functions in the delimiter of `Fn::Split`";
        return bad(
            Phase::Resolve,
            delimiter,
            message,
            advice,
            "Delimiter for Fn::Split must be string",
        );
    }
    let string_arg = v.arg(string);
    if !string_arg.is_known() || string_arg.is_str() {
        return None;
    }
    bad(
        Phase::Resolve,
        string,
        format!("`Fn::Split` splits a string, not {}", string_arg.describe()),
        "give it a string",
        format!(
            "String to split must be string; got {}",
            class_of(string_arg)
        ),
    )
}

const DIGEST_TYPES: &str = r#"Argument to function "digest" must be a list of strings"#;

/// Algorithms `hashlib.algorithms_available` has with any usual OpenSSL build.
const ALGORITHMS: [&str; 20] = [
    "md5",
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha512_224",
    "sha512_256",
    "sha3_224",
    "sha3_256",
    "sha3_384",
    "sha3_512",
    "blake2b",
    "blake2s",
    "md5-sha1",
    "ripemd160",
    "sm3",
    "md4",
    "whirlpool",
    "mdc2",
];

pub(super) fn digest(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    let items = match arg {
        Arg::List(items) => items,
        Arg::Call(_) | Arg::Bytes(_) => return None,
        other => {
            let message = format!(
                "`digest` takes a list `[algorithm, value]`, not {}",
                other.describe()
            );
            return bad(
                Phase::Resolve,
                call.args,
                message,
                "write `digest: [sha256, value]`",
                DIGEST_TYPES,
            );
        }
    };
    let not_string = items.iter().find(|&&i| {
        let item = v.arg(i);
        item.is_known() && !item.is_str()
    });
    if let Some(&item) = not_string {
        let message = format!("`digest` takes strings, not {}", v.arg(item).describe());
        return bad(
            Phase::Resolve,
            item,
            message,
            "quote it to make it a string",
            DIGEST_TYPES,
        );
    }
    let [algorithm, _] = items else {
        let message = format!(
            "`digest` takes an algorithm and a value, not {}",
            arg.describe()
        );
        let heat = r#"Function "digest" usage: ["<algorithm>", "<value>"]"#;
        return bad(
            Phase::Resolve,
            call.args,
            message,
            "write `digest: [sha256, value]`",
            heat,
        );
    };
    digest_algorithm(v, *algorithm)
}

fn digest_algorithm(v: &View<'_>, algorithm: NodeId) -> Option<Bad> {
    let name = v.str(algorithm)?;
    let lower = name.to_lowercase();
    if lower.starts_with("shake_") {
        return bad(
            Phase::Resolve,
            algorithm,
            format!("`digest` cannot use `{name}`: it needs an output length"),
            "use a fixed-length algorithm such as `sha256`",
            "hexdigest() missing required argument 'length' (pos 1)",
        );
    }
    if ALGORITHMS.contains(&lower.as_str()) {
        return None;
    }
    bad(
        Phase::Resolve,
        algorithm,
        format!("`{name}` is not a hash algorithm Heat can use in `digest`"),
        "use one of md5, sha1, sha224, sha256, sha384, sha512, sha3_256, blake2b, …",
        "Algorithm must be one of {…}",
    )
}

pub(super) fn base64(v: &View<'_>, call: &Call) -> Option<Bad> {
    let arg = v.arg(call.args);
    if !arg.is_known() || arg.is_str() {
        return None;
    }
    bad(
        Phase::Resolve,
        call.args,
        format!("`Fn::Base64` takes a string, not {}", arg.describe()),
        "give it a string (Heat returns it unchanged)",
        r#""Fn::Base64" argument must be a string"#,
    )
}
