use hotfix_diagnostics::{Applicability, Fix};
use hotfix_yaml::ScalarValue;

use super::shared::{delete_entry_lines, literal_len, repeats};
use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for a `permutations` key in `repeat` before `heat_template_version` 2017-09-01
    /// (pike), which introduced it.
    ///
    /// ## Why is this bad?
    /// Heat silently ignores the key ("We don't check for invalid keys appearing here") and
    /// always nests the loops: `for_each: {<%a%>: [x, y], <%b%>: [1, 2]}` gives all four
    /// combinations. `permutations: false` does not pair the lists as it would from
    /// 2017-09-01 on, and upgrading the version changes the result (two items instead of
    /// four). `permutations: true` is harmless but misleading: it is what Heat does anyway.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
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
        code: "H903",
        name: "permutations-ignored",
        severity: Warning,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    if version.has_repeat_permutations() {
        return;
    }
    let doc = cx.doc;
    for repeat in repeats(cx) {
        let (Some(args), Some(permutations)) = (repeat.args, repeat.permutations) else {
            continue;
        };
        let value = doc.scalar(permutations.value).map(|s| &s.value);
        let diagnostic = sink.report(
            cx.span(permutations.key),
            format!("`permutations` is ignored in heat_template_version {version}: Heat always nests the loops"),
        );
        match value {
            Some(ScalarValue::Bool(false)) => {
                diagnostic.help(false_help(cx, version, &repeat));
            }
            Some(ScalarValue::Bool(true)) => {
                diagnostic.help(
                    "nesting the loops is what `permutations: true` means, and the default from 2017-09-01 (pike) on: remove the key",
                );
                if let Some(edit) = delete_entry_lines(doc, args, permutations) {
                    diagnostic.fix(Fix {
                        message: "Remove `permutations: true`".to_owned(),
                        edits: vec![edit],
                        applicability: Applicability::Safe,
                    });
                }
            }
            _ => {
                diagnostic.help(
                    "remove the key; from 2017-09-01 (pike) on Heat reads it, and refuses anything but `true` or `false`",
                );
            }
        }
    }
}

/// What Heat does with `permutations: false` here, and what upgrading would do.
fn false_help(
    cx: &Context<'_>,
    version: hotfix_hot::Version,
    repeat: &super::shared::Repeat<'_>,
) -> String {
    const UPGRADE: &str = "pairing the lists (`permutations: false`) needs heat_template_version 2017-09-01 (pike) or later";
    let entries = repeat.for_each_entries(cx);
    if entries.as_ref().is_some_and(|e| e.len() == 1) {
        return "with a single placeholder, nesting and pairing give the same result: remove the key"
            .to_owned();
    }
    let lengths: Option<Vec<usize>> = entries.and_then(|entries| {
        entries
            .iter()
            .map(|e| literal_len(cx, version, e.value))
            .collect()
    });
    let Some(lengths) = lengths.filter(|l| l.len() > 1) else {
        return format!(
            "Heat produces every combination of the values, not pairs; {UPGRADE}, and upgrading changes the result"
        );
    };
    let product = lengths.iter().fold(1usize, |p, &l| p.saturating_mul(l));
    let factors = lengths
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" × ");
    match lengths.split_first() {
        Some((first, rest)) if rest.iter().all(|l| l == first) => format!(
            "Heat produces every combination ({factors} = {product} items), not {first} pairs; {UPGRADE}, and upgrading changes the result"
        ),
        _ => format!(
            "Heat produces every combination ({factors} = {product} items); {UPGRADE}, and would then refuse these lists of different lengths"
        ),
    }
}
