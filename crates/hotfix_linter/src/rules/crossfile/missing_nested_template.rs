use hotfix_stack::LinkKind;

use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks that every nested template a template names as a `type` (a path ending in
    /// `.yaml` or `.template`, at any depth, a group's `resource_def` included) exists,
    /// relative to the template, as python-heatclient resolves it.
    ///
    /// A path that exists only where the templates are deployed is not reported: an absolute
    /// path, a URL, a file of a folder that is not there or that holds a `*.j2.yaml` source, a
    /// file beside a Jinja source of its own name (`lb.yaml.j2` or `lb.j2.yaml` for `lb.yaml`: a
    /// deployment renders it), a file whose name a subfolder holds (a tool such as tacker sends
    /// nested files by name), or one outside the folders linted. A file the tree holds
    /// elsewhere, where a deployment tool that assembles files may put it (the same path read
    /// from a folder above, or its name in a folder beside the template's), is a warning that
    /// says where. It runs where hotfix reads
    /// files (the CLI).
    ///
    /// ## Why is this bad?
    /// The client reads every nested template before it sends the stack, and fails: `Could
    /// not fetch contents for file:///…/nested/servr.yaml`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server: {type: nested/servr.yaml}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server: {type: nested/server.yaml}
    /// ```
    pub(crate) static RULE = {
        code: "X001",
        name: "missing-nested-template",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    super::report_missing(cx, sink, &LinkKind::NestedType, "the nested template");
}
