use hotfix_diagnostics::{Applicability, Edit, Fix};

use super::shared::{definition, span_in};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{self, Value};

declare_rule! {
    /// ## What it does
    /// Checks that a parameter's `hidden` and `immutable` are booleans, not strings.
    ///
    /// ## Why is this bad?
    /// Heat does not convert these keys: it uses the value's Python truthiness, and every
    /// non-empty string is true. Heat silently accepts `hidden: "false"` and *hides* the
    /// parameter; `immutable: "no"` makes it immutable. (In a JSON template,
    /// `"hidden": "false"` is an easy slip.)
    ///
    /// ## Fix safety
    /// The fix writes the boolean the string spells (`"false"` → `false`, `"yes"` → `true`; an
    /// empty string → `false`). Where the string spells true, or is empty, Heat does what it
    /// did before. Where it spells false, the fix changes what Heat does, which is why it is
    /// unsafe: a parameter Heat hid is shown (its value appears in place of `******`), and an
    /// immutable one may be changed by a stack update.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   flavor:
    ///     type: string
    ///     hidden: "false"
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   flavor:
    ///     type: string
    ///     hidden: false
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H407",
        name: "hidden-as-string",
        severity: Warning,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for param in &cx.template.parameters {
        let Some(map) = definition(cx, param) else {
            continue;
        };
        for key in ["hidden", "immutable"] {
            let Some(node) = doc.get(map, key) else {
                continue;
            };
            let Some(text) = doc.str_value(node) else {
                continue;
            };
            let effect = match key {
                "hidden" => "hides the parameter",
                _ => "makes the parameter immutable",
            };
            let (message, help, replacement) = if text.is_empty() {
                (
                    format!("`{key}` of parameter `{}` is an empty string", param.name),
                    format!("write `{key}: false`; Heat treats the empty string as false"),
                    Some("false"),
                )
            } else {
                let message = format!(
                    "`{key}` of parameter `{}` is the string `{}`, which Heat treats as true",
                    param.name,
                    doc.text(node)
                );
                match py::bool_from_string(&Value::Str(text.to_owned())) {
                    Ok(false) => (
                        message,
                        format!(
                            "write `{key}: false`; any non-empty string is true in Python, so Heat silently {effect}"
                        ),
                        Some("false"),
                    ),
                    Ok(true) => (
                        message,
                        format!(
                            "write `{key}: true`; this works only because any non-empty string is true in Python"
                        ),
                        Some("true"),
                    ),
                    Err(_) => (
                        message,
                        format!(
                            "write `{key}: true` or `{key}: false`; any non-empty string is true in Python, so Heat {effect}"
                        ),
                        None,
                    ),
                }
            };
            let diagnostic = sink.report(span_in(cx, param, node), message);
            diagnostic.help(help);
            // A definition shared through an alias is fixed once, at its anchor.
            let aliased = cx.span(node) != span_in(cx, param, node);
            if let (Some(replacement), false) = (replacement, aliased) {
                diagnostic.fix(Fix {
                    message: format!("Replace with `{replacement}`"),
                    edits: vec![Edit::replace(cx.span(node), replacement)],
                    applicability: Applicability::Unsafe,
                });
            }
        }
    }
}
