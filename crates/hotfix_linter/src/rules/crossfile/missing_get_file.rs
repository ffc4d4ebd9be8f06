use hotfix_stack::LinkKind;

use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks that every file named by `get_file` with a literal path exists, relative to the
    /// template, as python-heatclient resolves it.
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
    /// The client reads every `get_file` target before it sends the stack, and fails: `Could
    /// not fetch contents for file:///…/scripts/instal.sh`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   config:
    ///     type: OS::Heat::SoftwareConfig
    ///     properties:
    ///       config: {get_file: nested/instal.sh}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   config:
    ///     type: OS::Heat::SoftwareConfig
    ///     properties:
    ///       config: {get_file: nested/install.sh}
    /// ```
    pub(crate) static RULE = {
        code: "X002",
        name: "missing-get-file",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    super::report_missing(cx, sink, &LinkKind::GetFile, "the file");
}
