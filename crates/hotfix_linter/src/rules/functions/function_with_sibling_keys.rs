use hotfix_hot::{Availability, ConditionAvailability, Context as FieldContext, Version};
use hotfix_yaml::NodeId;

use super::shared::unique_data_maps;
use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for a mapping that has a function name as one of several keys, such as
    /// `{get_attr: [server, first_address], port: 80}`, where Heat parses functions. (A whole
    /// condition definition that is not a call is left to `invalid-condition-definition`.)
    ///
    /// ## Why is this bad?
    /// Heat calls a function only when its name is the *only* key of the mapping. With any
    /// other key beside it, the whole mapping is plain data: Heat never calls the function and
    /// passes `{get_attr: [...], port: 80}` on as it is, silently. This usually comes from a
    /// wrong indentation or a key meant for the enclosing mapping.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   script: {type: string}
    /// resources:
    ///   config:
    ///     type: OS::Heat::SoftwareConfig
    ///     properties:
    ///       config:
    ///         get_param: script
    ///         group: script
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   script: {type: string}
    /// resources:
    ///   config:
    ///     type: OS::Heat::SoftwareConfig
    ///     properties:
    ///       config:
    ///         get_param: script
    ///       group: script
    /// ```
    pub(crate) static RULE = {
        code: "H203",
        name: "function-with-sibling-keys",
        severity: Warning,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    for data in unique_data_maps(cx) {
        let entries = cx.doc.entries(data.map);
        if entries.len() < 2 {
            continue;
        }
        let functions: Vec<(NodeId, &str)> = entries
            .iter()
            .filter_map(|e| Some((e.key, cx.doc.str_value(e.key)?)))
            .filter(|(_, name)| is_function(version, data.context, name))
            .collect();
        let Some(&(key, name)) = functions.first() else {
            continue;
        };
        let others: Vec<String> = entries
            .iter()
            .filter(|e| e.key != key)
            .map(|e| format!("`{}`", hotfix_hot::key_name(cx.doc, e.key)))
            .collect();
        let diagnostic = sink.report(
            cx.span(key),
            format!(
                "`{name}` is never called: its mapping has other keys ({})",
                listed(&others)
            ),
        );
        diagnostic.primary_label(format!("not called: `{name}` is not the only key"));
        for &(other, other_name) in functions.iter().skip(1) {
            diagnostic.label(
                cx.span(other),
                format!("`{other_name}` is not called either"),
            );
        }
        diagnostic.help(format!(
            "Heat calls a function only when it is the only key of its mapping; here it treats the whole mapping as data. Move the other keys out (check the indentation), or put `{name}` under a key of its own"
        ));
    }
}

/// The first few keys, and how many more.
fn listed(keys: &[String]) -> String {
    const SHOWN: usize = 3;
    match keys.len().checked_sub(SHOWN) {
        Some(more) if more > 0 => format!("{} and {more} more", keys[..SHOWN].join(", ")),
        _ => keys.join(", "),
    }
}

/// Whether `{name: …}` alone would be a call in this version and context.
fn is_function(version: Version, context: FieldContext, name: &str) -> bool {
    match context {
        FieldContext::Value => matches!(version.function(name), Availability::Function(_)),
        FieldContext::Condition => matches!(
            version.condition_function(name),
            ConditionAvailability::Function(_)
        ),
    }
}
