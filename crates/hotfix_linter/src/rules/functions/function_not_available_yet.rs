use hotfix_hot::{Context as FieldContext, Function, Version};

use super::shared::{unique_data_maps, version_label};
use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for a single-key mapping whose key is a HOT function that the declared version
    /// does not have yet: `str_split` before 2015-10-15, `map_merge` before 2016-04-08, `if`
    /// and `yaql` before 2016-10-14, `filter` before 2017-02-24, `contains`, `make_url` and
    /// `list_concat` before 2017-09-01, and so on; in a condition, `contains` before
    /// 2017-09-01. (`yaql` in a condition before 2017-09-01 is an error Heat reports, left to
    /// `invalid-function-in-condition`; a whole condition definition that is not a call is
    /// left to `invalid-condition-definition`.)
    ///
    /// ## Why is this bad?
    /// Heat does not complain: a name its version does not know is not a function, so the
    /// mapping is plain data and Heat passes `{str_split: [",", "a,b"]}` on unchanged. The
    /// property or output then holds that mapping instead of the result, which fails later
    /// (if a property schema rejects it) or silently does the wrong thing. In a condition the
    /// mapping is no condition at all, and Heat rejects it once the condition is used:
    /// `Invalid condition "{'contains': …}"`. Raise `heat_template_version` to a version that
    /// has the function, or write it another way.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2015-04-30
    /// outputs:
    ///   first:
    ///     value: {str_split: [",", "a,b", 0]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2015-10-15
    /// outputs:
    ///   first:
    ///     value: {str_split: [",", "a,b", 0]}
    /// ```
    pub(crate) static RULE = {
        code: "H202",
        name: "function-not-available-yet",
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
        let [entry] = entries.as_slice() else {
            continue;
        };
        let Some(name) = cx.doc.str_value(entry.key) else {
            continue;
        };
        let Some(function) = Function::from_name(name) else {
            continue;
        };
        let Some(since) = introduced_later(function, data.context, version) else {
            continue;
        };
        let since = version_label(since);
        let (message, help) = match data.context {
            FieldContext::Value => (
                format!("`{name}` is not a function in heat_template_version {version}"),
                format!(
                    "`{name}` exists from heat_template_version {since}; in {version} Heat does not call it and passes `{{{name}: …}}` on unchanged as data"
                ),
            ),
            FieldContext::Condition => (
                format!("`{name}` is not a condition function in heat_template_version {version}"),
                format!(
                    "`{name}` is a condition function from heat_template_version {since}; in {version} this mapping is not a condition, and once the condition is used, Heat: `Invalid condition \"{{'{name}': …}}\"`"
                ),
            ),
        };
        sink.report(cx.span(entry.key), message)
            .primary_label("Heat treats this mapping as data")
            .help(help);
    }
}

/// The later version in which the name becomes a function in this context, if any.
fn introduced_later(
    function: Function,
    context: FieldContext,
    version: Version,
) -> Option<Version> {
    let since = match context {
        FieldContext::Value => function.since(),
        FieldContext::Condition => function.condition_since(),
    }?;
    (since > version).then_some(since)
}
