use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every name under an environment's `parameters` is a parameter of the top
    /// template it is given with: `hotfix lint TEMPLATE -e ENV`, or a `[[stacks]]` entry of
    /// `hotfix.toml`. An environment linted on its own (no template given with it) is not
    /// checked: it may belong to any stack.
    ///
    /// `parameters` apply to the top template only; `parameter_defaults` may name parameters
    /// of any template of the stack, nested ones included, and names no template declares
    /// are ignored by Heat.
    ///
    /// ## Why is this bad?
    /// Heat refuses the stack: `The Parameter (flavour) was not defined in template.`
    ///
    /// ## Example
    /// ```yaml
    /// parameters:
    ///   flavour: m1.small
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// parameters:
    ///   flavor: m1.small
    /// ```
    pub(crate) static RULE = {
        code: "E008",
        name: "undeclared-environment-parameter",
        severity: Error,
        fix: None,
        scope: Environment,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let (Some(env), Some(files)) = (cx.environment, cx.files) else {
        return;
    };
    let Some(section) = env.section("parameters") else {
        return;
    };
    let doc = cx.doc;
    for (template, facts) in files.stack_templates {
        for entry in doc.entries(section.value) {
            let name = hotfix_hot::key_name(doc, entry.key);
            if facts.parameters.iter().any(|p| p.name == name) {
                continue;
            }
            let diagnostic = sink.report(
                cx.span(entry.key),
                format!(
                    "`{name}` is not a parameter of `{}`, the template this environment is given with",
                    template.file_name()
                ),
            );
            let heat = format!("Heat: `The Parameter ({name}) was not defined in template.`");
            let names = facts.parameters.iter().map(|p| p.name.as_str());
            match did_you_mean(&name, names) {
                Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
                None => diagnostic.help(format!(
                    "`parameter_defaults` may set parameters of nested templates; {heat}"
                )),
            };
        }
    }
}
