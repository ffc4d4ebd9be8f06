use foldhash::HashSet;
use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_yaml::{NodeKind, ScalarStyle, ScalarValue, SourceFormat, python_float_repr};

use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for unquoted values and keys that YAML 1.1 reads as numbers in a way few
    /// authors expect: a leading zero makes an octal integer (`012` is 10, `0644` is 420),
    /// and colons make a base-60 ("sexagesimal") number (`1:20` is 80, `12:30` is 750,
    /// `190:20:30` is 685230, `1:20.5` is the float 80.5).
    ///
    /// Not reported, because the prefix or the digits show that a number was meant: hex
    /// (`0x1F`), binary (`0b101`), underscores between digits (`1_000`), a `+` on a decimal
    /// (`+5`); and an octal value of a key named `mode`, `…_mode`, `permissions` or `umask`,
    /// a file mode for which an octal integer is usually what the consumer (Ansible,
    /// cloud-init) expects.
    ///
    /// ## Why is this bad?
    /// Heat's loader follows YAML 1.1 and silently loads the number: a time `12:30` becomes
    /// `750`, a zero-padded id `012` becomes `10`, a version `1:2` becomes `62`. Heat
    /// then passes the number on (to a property, a `str_replace`, a config file) where the
    /// text was meant.
    ///
    /// ## Fix safety
    /// The fix quotes the value as written (`12:30` → `'12:30'`). It is unsafe because it
    /// changes what Heat loads: the text where Heat loaded the number (`750`), and whatever
    /// reads the value (a property, a `str_replace`, a config file) gets the text. If the
    /// number was meant, write it in decimal instead.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       backup_time: 12:30
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       backup_time: '12:30'
    /// ```
    pub(crate) static RULE = {
        code: "H004",
        name: "yaml-implicit-number",
        severity: Warning,
        fix: Always,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let doc = cx.doc;
    if doc.format() == SourceFormat::Json {
        return;
    }
    let file_modes: HashSet<usize> = doc
        .nodes()
        .iter()
        .filter_map(|node| match &node.kind {
            NodeKind::Mapping { entries, .. } => Some(entries),
            _ => None,
        })
        .flatten()
        .filter(|entry| doc.str_value(entry.key).is_some_and(is_file_mode_key))
        .map(|entry| entry.value.index())
        .collect();
    for (index, node) in doc.nodes().iter().enumerate() {
        let NodeKind::Scalar(scalar) = &node.kind else {
            continue;
        };
        if scalar.style != ScalarStyle::Plain || node.tag.is_some() {
            continue;
        }
        let text = scalar.text.as_str();
        let (number, why) = match &scalar.value {
            ScalarValue::Int(_) if is_octal(text) && file_modes.contains(&index) => continue,
            ScalarValue::Int(n) if is_octal(text) => (format!("the integer `{n}`"), "octal"),
            ScalarValue::Int(n) if text.contains(':') => (format!("the integer `{n}`"), "base 60"),
            ScalarValue::Float(f) if text.contains(':') => {
                (format!("the float `{}`", python_float_repr(*f)), "base 60")
            }
            _ => continue,
        };
        let decimal = match &scalar.value {
            ScalarValue::Float(f) => python_float_repr(*f),
            ScalarValue::Int(n) => n.to_string(),
            _ => String::new(),
        };
        sink.report(
            node.span,
            format!("`{text}` loads as {number} (YAML 1.1 {why}), not the string \"{text}\""),
        )
        .help(format!(
            "quote it (`'{text}'`) if you mean the text; write `{decimal}` if you mean the number"
        ))
        .fix(Fix {
            message: format!("Quote `{text}`"),
            edits: vec![Edit::replace(node.span, format!("'{text}'"))],
            applicability: Applicability::Unsafe,
        });
    }
}

/// A key whose octal value is a deliberate file mode.
fn is_file_mode_key(key: &str) -> bool {
    let ends = |suffix: &str| {
        key.len() >= suffix.len()
            && key.as_bytes()[key.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    key.eq_ignore_ascii_case("mode")
        || ends("_mode")
        || key.eq_ignore_ascii_case("permissions")
        || key.eq_ignore_ascii_case("umask")
}

/// `[-+]?0[0-7_]+`: a leading zero followed by more digits (PyYAML's octal).
fn is_octal(text: &str) -> bool {
    let unsigned = text.trim_start_matches(['-', '+']);
    unsigned.len() > 1
        && unsigned.starts_with('0')
        && unsigned.bytes().all(|b| matches!(b, b'0'..=b'7' | b'_'))
}
