use hotfix_stack::Knowledge;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every name under an environment's `parameter_defaults` is a parameter of some
    /// template of the stack it is given with (`hotfix lint TEMPLATE -e ENV`, or a `[[stacks]]`
    /// entry): the top template, or a nested template its resources lead to (a template path,
    /// or a type the environments map to a template), at any depth.
    ///
    /// Not checked: an environment linted on its own, and a stack hotfix cannot read whole (a
    /// nested template that is missing, rendered at deployment, outside the tree or a URL; a
    /// group whose members' type is not written out; an `AWS::AutoScaling::AutoScalingGroup`).
    ///
    /// ## Why is this bad?
    /// Heat ignores a `parameter_defaults` entry no template declares, silently: a misspelt
    /// name leaves the parameter at its default (or unset), and nothing says so.
    ///
    /// ## Example
    /// ```yaml
    /// parameter_defaults:
    ///   flavour: m1.small
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// parameter_defaults:
    ///   flavor: m1.small
    /// ```
    pub(crate) static RULE = {
        code: "E009",
        name: "unknown-parameter-default",
        severity: Warning,
        fix: None,
        scope: Environment,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let (Some(env), Some(files)) = (cx.environment, cx.files) else {
        return;
    };
    let Some(section) = env.section("parameter_defaults") else {
        return;
    };
    if files.stack_templates.is_empty() {
        return;
    }
    let Some(registry) = files.registry.map(hotfix_stack::LazyRegistry::get) else {
        return;
    };
    if registry.knowledge() != Some(Knowledge::Given) {
        return;
    }
    let tops: Vec<hotfix_stack::StackPath> = files
        .stack_templates
        .iter()
        .map(|(p, _)| p.clone())
        .collect();
    let Some(declared) = hotfix_stack::stack_parameters(
        files.source,
        files.roots,
        registry,
        &tops,
        &crate::rules::crossfile::heat_has,
    ) else {
        return;
    };
    let doc = cx.doc;
    let top = tops.first().map_or("", hotfix_stack::StackPath::file_name);
    for entry in doc.entries(section.value) {
        let name = hotfix_hot::key_name(doc, entry.key);
        if declared.contains(&name) {
            continue;
        }
        let diagnostic = sink.report(
            cx.span(entry.key),
            format!(
                "`{name}` is not a parameter of any template of the stack of `{top}`: Heat \
                 ignores it"
            ),
        );
        match did_you_mean(&name, declared.iter().map(String::as_str)) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`?")),
            None => diagnostic.help(
                "remove it, or declare it under `parameters` in the template that should take it",
            ),
        };
    }
}
