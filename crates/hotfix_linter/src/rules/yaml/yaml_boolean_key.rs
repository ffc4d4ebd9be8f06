use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_yaml::{NodeKind, ScalarStyle, ScalarValue, SourceFormat};

use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for unquoted mapping keys that YAML 1.1 loads as a boolean or as null: `yes`,
    /// `no`, `on`, `off`, `true`, `false` (in lower, Title or UPPER case), `~`, `null`.
    ///
    /// ## Why is this bad?
    /// Heat's loader follows YAML 1.1, so `on:` is the key `True`, not the string `"on"`, and
    /// `~:` is the key `None`. Heat loads the template without a word; what happens next
    /// depends on where the key is: `str_replace` fails when resolved (`object of type 'bool'
    /// has no len()`), `get_param: "on"` does not find a parameter declared as `on:` (`The
    /// Parameter (on) was not provided.`), and data shows `true` or `null` in place of the
    /// name. `on:` and `yes:` are even the same key. Single
    /// letters (`y`, `n`) and other spellings (`oN`) stay strings.
    ///
    /// ## Fix safety
    /// The fix quotes the key (`on:` → `"on":`). It is unsafe because it changes what Heat
    /// loads: the string `"on"` where Heat loaded the boolean `True` (or `None`); if the
    /// boolean was meant, it breaks the template.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       value:
    ///         str_replace:
    ///           template: "turn_it on"
    ///           params:
    ///             on: off
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       value:
    ///         str_replace:
    ///           template: "turn_it on"
    ///           params:
    ///             "on": "off"
    /// ```
    pub(crate) static RULE = {
        code: "H003",
        name: "yaml-boolean-key",
        severity: Warning,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let doc = cx.doc;
    if doc.format() == SourceFormat::Json {
        return;
    }
    for node in doc.nodes() {
        let NodeKind::Mapping { entries, .. } = &node.kind else {
            continue;
        };
        for entry in entries {
            let key = doc.node(entry.key);
            let NodeKind::Scalar(scalar) = &key.kind else {
                continue;
            };
            if scalar.style != ScalarStyle::Plain || key.tag.is_some() {
                continue;
            }
            let python = match scalar.value {
                ScalarValue::Bool(true) => "the boolean `True`",
                ScalarValue::Bool(false) => "the boolean `False`",
                ScalarValue::Null => "`None`",
                _ => continue,
            };
            let text = scalar.text.as_str();
            // An empty key (`? ` with nothing after it) has an empty span.
            if text.is_empty() || key.span.is_empty() {
                sink.report(key.span, format!("an empty key loads as {python}"))
                    .help("give the key a name; YAML 1.1, which Heat's loader follows, reads an empty key as null");
                continue;
            }
            sink.report(
                key.span,
                format!("the key `{text}` loads as {python}, not the string \"{text}\""),
            )
            .help(format!(
                "quote it (`\"{text}\":`) if you mean the string: Heat's loader follows YAML 1.1, where unquoted yes/no/on/off/true/false are booleans and ~/null is None, in keys too"
            ))
            .fix(Fix {
                message: format!("Quote the key `{text}`"),
                edits: vec![Edit::replace(key.span, format!("\"{text}\""))],
                applicability: Applicability::Unsafe,
            });
        }
    }
}
