//! `hotfix eval`'s readable output: block YAML of the evaluation's JSON.

use std::fmt::Write as _;

/// Block YAML of a JSON value; strings are written as JSON strings (valid YAML) wherever a
/// plain scalar could read differently.
#[must_use]
pub fn to_yaml(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_yaml(value, 0, &mut out);
    out
}

fn write_yaml(value: &serde_json::Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                let _ = write!(
                    out,
                    "{pad}{}:",
                    scalar(&serde_json::Value::String(k.clone()))
                );
                block_child(v, indent, out);
            }
        }
        serde_json::Value::Array(items) if !items.is_empty() => {
            for v in items {
                let _ = write!(out, "{pad}-");
                block_child(v, indent, out);
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{}", scalar(other));
        }
    }
}

fn block_child(v: &serde_json::Value, indent: usize, out: &mut String) {
    match v {
        serde_json::Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            write_yaml(v, indent + 2, out);
        }
        serde_json::Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            write_yaml(v, indent + 2, out);
        }
        _ => {
            let _ = writeln!(out, " {}", scalar(v));
        }
    }
}

fn scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => {
            let plain = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./<>".contains(c))
                && !s.starts_with(['-', '.', '<'])
                && matches!(hotfix_yaml::resolve_plain(s), hotfix_yaml::ScalarValue::Str);
            if plain { s.clone() } else { json_quoted(s) }
        }
        serde_json::Value::Object(_) => "{}".to_owned(),
        serde_json::Value::Array(_) => "[]".to_owned(),
        other => other.to_string(),
    }
}

/// `text` as a JSON string (valid YAML): JSON escapes the C0 controls; DEL, the C1 controls
/// and the bidi controls are escaped too (`\u202e`), lest a terminal act on them.
fn json_quoted(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    if !quoted.chars().any(hotfix_diagnostics::is_unsafe) {
        return quoted;
    }
    let mut out = String::with_capacity(quoted.len() + 8);
    for c in quoted.chars() {
        if hotfix_diagnostics::is_unsafe(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}
