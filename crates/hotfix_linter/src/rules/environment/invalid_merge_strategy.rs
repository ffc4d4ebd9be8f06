use hotfix_hot::environment::MERGE_STRATEGIES;
use hotfix_hot::key_name;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that each value of `parameter_merge_strategies` is one of Heat's merge
    /// strategies: `overwrite`, `merge` or `deep_merge`.
    ///
    /// ## Why is this bad?
    /// Heat accepts any value and ignores one it does not know
    /// (`environment_util.get_param_merge_strategy`): the parameter takes the file's `default`
    /// strategy, or is overwritten, and the merge that was asked for silently does not happen.
    ///
    /// ## Example
    /// ```yaml
    /// parameter_merge_strategies:
    ///   ExtraConfig: deep-merge
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// parameter_merge_strategies:
    ///   ExtraConfig: deep_merge
    /// ```
    pub(crate) static RULE = {
        code: "E005",
        name: "invalid-merge-strategy",
        severity: Warning,
        fix: None,
        scope: Environment,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(env) = cx.environment else {
        return;
    };
    let Some(section) = env.section("parameter_merge_strategies") else {
        return;
    };
    let doc = cx.doc;
    let default = doc
        .get(section.value, "default")
        .and_then(|n| doc.str_value(n))
        .filter(|d| MERGE_STRATEGIES.contains(d));
    for entry in doc.entries(section.value) {
        let value = doc.str_value(entry.value);
        if value.is_some_and(|v| MERGE_STRATEGIES.contains(&v)) {
            continue;
        }
        let name = key_name(doc, entry.key);
        let shown = value.map_or_else(|| doc.text(entry.value).to_owned(), str::to_owned);
        let fallback = match (name.as_str(), default) {
            ("default", _) | (_, None) => "overwrites the parameter".to_owned(),
            (_, Some(default)) => format!("uses this file's default, `{default}`"),
        };
        let diagnostic = sink.report(
            cx.span(entry.value),
            format!("`{shown}` is not a merge strategy: Heat ignores it and {fallback}"),
        );
        match value.and_then(|v| did_you_mean(v, MERGE_STRATEGIES)) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`?")),
            None => diagnostic.help(format!("strategies: {}", MERGE_STRATEGIES.join(", "))),
        };
    }
}
