use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks that no resource name contains a `/`.
    ///
    /// ## Why is this bad?
    /// Heat uses `/` to build resource paths and identifiers, and refuses the template:
    /// `Resource name may not contain "/"`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   web/server:
    ///     type: OS::Heat::None
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   web_server:
    ///     type: OS::Heat::None
    /// ```
    pub(crate) static RULE = {
        code: "H606",
        name: "slash-in-resource-name",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    for resource in &cx.template.resources {
        if !resource.name.contains('/') {
            continue;
        }
        sink.report(
            cx.span(resource.key),
            format!("resource name `{}` contains `/`", resource.name),
        )
        .help(format!(
            "rename it (e.g. `{}`) and every reference to it; Heat: `Resource name may not contain \"/\"`",
            resource.name.replace('/', "_")
        ));
    }
}
