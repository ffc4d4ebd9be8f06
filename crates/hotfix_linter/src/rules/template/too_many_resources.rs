use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks that a template defines at most 1,000 resources, Heat's default
    /// `max_resources_per_stack`.
    ///
    /// ## Why is this bad?
    /// Heat refuses the stack: `Request limit exceeded: Maximum resources per stack
    /// exceeded.` Split the template into nested stacks, or use a resource group.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// # imagine 1,001 resources here
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   servers:
    ///     type: OS::Heat::ResourceGroup
    ///     properties: {count: 1001, resource_def: {type: OS::Heat::None}}
    /// ```
    pub(crate) static RULE = {
        code: "H105",
        name: "too-many-resources",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// `max_resources_per_stack` in `heat/common/config.py`.
const MAX_RESOURCES: usize = 1000;

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let count = cx.template.resources.len();
    if count <= MAX_RESOURCES {
        return;
    }
    let Some(section) = cx.template.section("resources") else {
        return;
    };
    sink.report(
        cx.span(section.key),
        format!("{count} resources: more than Heat's limit of {MAX_RESOURCES} per stack"),
    )
    .help("split the template into nested stacks; Heat: `Request limit exceeded: Maximum resources per stack exceeded.`");
}
