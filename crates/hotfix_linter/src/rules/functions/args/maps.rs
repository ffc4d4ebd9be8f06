//! `make_url`, whose argument is a mapping.

use hotfix_hot::Call;
use hotfix_yaml::NodeId;

use super::parse::whole_mapping_advice;
use super::{Bad, Phase, bad};
use crate::rules::functions::shared::{Arg, PyInt, View, py_str};
use crate::rules::util::did_you_mean;

/// The mapping argument of `make_url`, or the finding when it is not.
fn mapping(v: &View<'_>, call: &Call, form: &str, heat: &str) -> Result<NodeId, Option<Bad>> {
    let name = call.status.function().name();
    match v.arg(call.args) {
        Arg::Map(map) => Ok(map),
        Arg::Bytes(_) => Err(None),
        other => Err(bad(
            Phase::Parse,
            call.args,
            format!("`{name}` takes a mapping, not {}", other.describe()),
            whole_mapping_advice(other, form),
            heat,
        )),
    }
}

const URL_KEYS: [&str; 8] = [
    "scheme", "username", "password", "host", "port", "path", "query", "fragment",
];

pub(super) fn make_url(v: &View<'_>, call: &Call) -> Option<Bad> {
    let form = "make_url: {scheme: https, host: …, port: 443, path: /}";
    let map = match mapping(
        v,
        call,
        form,
        r#"The arguments to "make_url" must be a map"#,
    ) {
        Ok(map) => map,
        Err(found) => return found,
    };
    let entries = v.doc.entries(map);
    if let Some(odd) = entries
        .iter()
        .find(|e| !v.str(e.key).is_some_and(|k| URL_KEYS.contains(&k)))
    {
        let key = v.doc.text(odd.key);
        let advice = match did_you_mean(key, URL_KEYS) {
            Some(suggestion) => format!("did you mean `{suggestion}`?"),
            None => format!("the arguments are {}", URL_KEYS.join(", ")),
        };
        let message = format!("`make_url` has no argument `{key}`");
        return bad(
            Phase::Parse,
            odd.key,
            message,
            advice,
            format!(r#"Invalid arguments to "make_url": {key}"#),
        );
    }
    // Heat checks in this order and stops after `query`, so `fragment` goes unchecked then.
    for key in URL_KEYS {
        let Some(value) = v.doc.get(map, key) else {
            continue;
        };
        if key == "query" {
            return url_query(v, value);
        }
        let found = if key == "port" {
            url_port(v, call.args, value)
        } else {
            url_string(v, key, value)
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

fn url_query(v: &View<'_>, value: NodeId) -> Option<Bad> {
    let arg = v.arg(value);
    if !arg.is_known() || matches!(arg, Arg::Map(_)) {
        return None;
    }
    bad(
        Phase::Parse,
        value,
        format!(
            "the `query` of `make_url` is {}, not a mapping",
            arg.describe()
        ),
        "give the query parameters as a mapping: `query: {a: b}`",
        r#"The "query" argument to "make_url" must be a map"#,
    )
}

fn url_string(v: &View<'_>, key: &str, value: NodeId) -> Option<Bad> {
    let arg = v.arg(value);
    if key == "scheme" && v.str(value).is_some_and(|s| s.contains(':')) {
        return bad(
            Phase::Resolve,
            value,
            "the `scheme` of `make_url` contains `:`",
            "write the scheme alone, e.g. `https`",
            r#"URL "scheme" should not contain ':'"#,
        );
    }
    if !arg.is_known() || arg.is_str() {
        return None;
    }
    bad(
        Phase::Parse,
        value,
        format!(
            "the `{key}` of `make_url` is {}, not a string",
            arg.describe()
        ),
        "quote it to make it a string",
        format!(r#"The "{key}" argument to "make_url" must be a string"#),
    )
}

fn url_port(v: &View<'_>, args: NodeId, value: NodeId) -> Option<Bad> {
    let arg = v.arg(value);
    let (message, heat) = match arg.to_int() {
        PyInt::Unknown => return None,
        PyInt::Value(Some(port)) if (1..=65535).contains(&port) => return None,
        PyInt::Value(port) => (
            format!("port `{}` of `make_url` is out of range", v.doc.text(value)),
            format!(
                "Invalid URL port {}, must be in range 1-65535",
                port.map_or_else(|| v.doc.text(value).to_owned(), |p| p.to_string())
            ),
        ),
        PyInt::ValueError => (
            format!(
                "the `port` of `make_url` is {}, not a number",
                arg.describe()
            ),
            format!(
                r#"Invalid URL port "{}" for make_url called with {}"#,
                py_str(v, value).unwrap_or_default(),
                v.repr(args).unwrap_or_else(|| "{…}".to_owned())
            ),
        ),
        PyInt::TypeError => (
            format!(
                "the `port` of `make_url` is {}, not a number",
                arg.describe()
            ),
            format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                arg.py_type().unwrap_or("object")
            ),
        ),
    };
    bad(
        Phase::Parse,
        value,
        message,
        "give a port number from 1 to 65535",
        heat,
    )
}
