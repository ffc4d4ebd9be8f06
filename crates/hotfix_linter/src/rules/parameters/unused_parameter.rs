use foldhash::HashSet;
use hotfix_hot::{Function, RefKind};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::is_mapping;

declare_rule! {
    /// ## What it does
    /// Checks that every declared parameter is used by a `get_param` (or, in 2013-05-23, a
    /// `Ref`) somewhere in the resources, outputs or conditions.
    ///
    /// The rule stays silent for a template that calls `get_param` with a name that is not
    /// a literal string (`get_param: {get_param: which}`, `get_param: [{if: …}, …]`): any
    /// parameter may then be the one used.
    ///
    /// Not reported for a template used as a nested (provider) template: where hotfix reads
    /// files (the CLI), a template that some template of the tree names in a `type:`, or that
    /// an environment's `resource_registry` maps a type to (the environments given with `-e`,
    /// else any of the tree's). Its parameters are its interface, which its parents pass as
    /// properties or an environment sets; removing one makes Heat reject every parent that
    /// passes it (`Unknown Property`). hotfix does not ask whether some parent passes each one:
    /// a parent it cannot read (a `*.j2.yaml` source a deployment renders) may.
    ///
    /// Not in the default set: a template linted alone (the language server, standard input)
    /// cannot be told from a nested one. Select the rule (`--extend-select H408`).
    ///
    /// ## Why is this bad?
    /// Heat silently accepts an unused parameter. In a top-level template it is usually left
    /// over from an edit, or the `get_param` that should use it is misspelled; users are still
    /// asked for a value.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   image: {type: string}
    ///   flavor: {type: string}
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       image: {get_param: image}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   image: {type: string}
    ///   flavor: {type: string}
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       image: {get_param: image}
    ///       flavor: {get_param: flavor}
    /// ```
    pub(crate) static RULE = {
        code: "H408",
        name: "unused-parameter",
        severity: Warning,
        fix: None,
        default: false,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    // A `get_param` whose name is computed could use any parameter.
    let dynamic = cx.semantic.calls_to(Function::GetParam).any(|call| {
        let name = match doc.items(call.args) {
            Some(items) => items.first().copied(),
            None => Some(call.args),
        };
        name.is_some_and(|n| is_mapping(doc, n))
    });
    if dynamic {
        return;
    }
    // A nested template's parameters are its interface.
    if let Some(files) = cx.files
        && let Some(registry) = files.registry
        && registry.get().is_nested(files.path)
    {
        return;
    }
    let used: HashSet<&str> = cx
        .semantic
        .references
        .iter()
        .filter(|r| matches!(r.kind, RefKind::Parameter | RefKind::CfnRef))
        .map(|r| r.name.as_str())
        .collect();
    for param in &cx.template.parameters {
        if used.contains(param.name.as_str()) {
            continue;
        }
        sink.report(
            cx.span(param.key),
            format!("parameter `{}` is never used", param.name),
        )
        .help(
            "use it with `get_param`; remove it only if no parent template or environment sets \
             it (a parent passing a parameter the template lacks fails with `Unknown Property`)",
        );
    }
}
