use hotfix_hot::environment::SECTIONS;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every top-level key of an environment file is one of Heat's environment
    /// sections: `parameters`, `resource_registry`, `parameter_defaults`,
    /// `encrypted_param_names`, `event_sinks`, `parameter_merge_strategies`.
    ///
    /// ## Why is this bad?
    /// Heat's client refuses the whole environment: `environment has wrong section
    /// "resource_registy"`. A template key (`resources:`) in an environment fails the same way.
    ///
    /// ## Example
    /// ```yaml
    /// resource_registy:
    ///   My::Server: server.yaml
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// resource_registry:
    ///   My::Server: OS::Nova::Server
    /// ```
    pub(crate) static RULE = {
        code: "E002",
        name: "unknown-environment-section",
        severity: Error,
        fix: None,
        scope: Environment,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(env) = cx.environment else {
        return;
    };
    for section in &env.sections {
        if SECTIONS.contains(&section.name.as_str()) {
            continue;
        }
        let diagnostic = sink.report(
            cx.span(section.key),
            format!("`{}` is not an environment section", section.name),
        );
        let heat = format!("Heat: `environment has wrong section \"{}\"`", section.name);
        match did_you_mean(&section.name, SECTIONS) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
            None => diagnostic.help(format!("sections: {}; {heat}", SECTIONS.join(", "))),
        };
    }
}
