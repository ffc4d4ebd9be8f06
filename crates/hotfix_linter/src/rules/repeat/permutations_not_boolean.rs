use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_hot::Function;
use hotfix_hot::function_args::Kind;
use hotfix_yaml::{NodeKind, ScalarValue};

use super::shared::{a_type, repeats, span};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::functions::refusal;
use crate::rules::util::call_at;

declare_rule! {
    /// ## What it does
    /// Checks that `permutations` in `repeat` (`heat_template_version` 2017-09-01 and later) is
    /// a literal YAML boolean.
    ///
    /// ## Why is this bad?
    /// Heat rejects the template: `"permutations" should be boolean type for repeat
    /// function.` The string `"false"` is not a boolean, nor is null, and neither is a
    /// function call such as `{get_param: flag}`, even one that returns a boolean: Heat checks
    /// the key before resolving anything.
    ///
    /// ## Fix safety
    /// The fix writes the boolean a quoted word spells (`'false'` → `false`, `'yes'` → `true`).
    /// It is unsafe: Heat refused the template, and with the fix the boolean decides what the
    /// `repeat` makes (`true` every combination of the `for_each` lists, `false` the lists
    /// paired item by item), how many items included.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2017-09-01
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       rules:
    ///         repeat:
    ///           for_each:
    ///             <%port%>: ['80', '443']
    ///             <%proto%>: [tcp, udp]
    ///           template: {port: <%port%>, protocol: <%proto%>}
    ///           permutations: 'false'
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2017-09-01
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       rules:
    ///         repeat:
    ///           for_each:
    ///             <%port%>: ['80', '443']
    ///             <%proto%>: [tcp, udp]
    ///           template: {port: <%port%>, protocol: <%proto%>}
    ///           permutations: false
    /// ```
    pub(crate) static RULE = {
        code: "H904",
        name: "permutations-not-boolean",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    if !version.has_repeat_permutations() {
        return;
    }
    let doc = cx.doc;
    for repeat in repeats(cx) {
        // What Heat's constructor refuses (`hotfix_hot::function_args`), when it is this.
        let Some(refused) = refusal(cx, Function::Repeat, repeat.call.args)
            .filter(|r| r.kind == Kind::Permutations)
        else {
            continue;
        };
        let heat = format!("Heat: `{}`", refused.text);
        let value = refused.at;
        if let Some(call) = call_at(cx, value) {
            sink.report(
                span(cx, value),
                format!(
                    "`permutations` is a `{}` call, not a literal boolean",
                    cx.text(call.key)
                ),
            )
            .help(format!(
                "Heat checks the type before resolving any function: write `true` or `false`; {heat}"
            ));
            continue;
        }
        let diagnostic = sink.report(
            span(cx, value),
            format!("`permutations` is {}, not a boolean", a_type(doc, value)),
        );
        let node = doc.node(value);
        let word = match &node.kind {
            NodeKind::Scalar(s) if s.value == ScalarValue::Str && node.tag.is_none() => {
                boolean_word(&s.text)
            }
            _ => None,
        };
        match word {
            Some(word) => {
                diagnostic
                    .help(format!("write `{word}` without quotes; {heat}"))
                    .fix(Fix {
                        message: format!("Replace `{}` with `{word}`", cx.text(value)),
                        edits: vec![Edit::replace(span(cx, value), word)],
                        applicability: Applicability::Unsafe,
                    });
            }
            None => {
                diagnostic.help(format!(
                    "write `true` (nest the loops) or `false` (pair the lists); {heat}"
                ));
            }
        }
    }
}

/// The boolean a string obviously means.
fn boolean_word(text: &str) -> Option<&'static str> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" => Some("true"),
        "false" | "no" | "off" => Some("false"),
        _ => None,
    }
}
