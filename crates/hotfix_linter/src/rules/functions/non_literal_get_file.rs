use hotfix_hot::Function;

use super::shared::{Arg, View, is_active, unique_calls};
use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks that the argument of `get_file` is a literal string: a path or URL written in
    /// the template, not a function call, a list, a mapping, a number or null. This rule
    /// handles every argument of `get_file` that is not a string;
    /// `invalid-function-arguments` leaves `get_file` to it.
    ///
    /// ## Why is this bad?
    /// The client (`openstack stack create`, python-heatclient) reads the literal `get_file`
    /// paths of a template and uploads those files with it, before Heat resolves anything.
    /// A path computed by a function is never uploaded, so Heat finds nothing when it resolves
    /// the call: `No content found in the "files" section for get_file path: …`. An argument
    /// that is not a string at all fails with `Argument to "get_file" must be a string`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   script: {type: string, default: scripts/boot.sh}
    /// resources:
    ///   config:
    ///     type: OS::Heat::SoftwareConfig
    ///     properties:
    ///       config: {get_file: {get_param: script}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   config:
    ///     type: OS::Heat::SoftwareConfig
    ///     properties:
    ///       config: {get_file: scripts/boot.sh}
    /// ```
    pub(crate) static RULE = {
        code: "H207",
        name: "non-literal-get-file",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let view = View::new(cx.doc, version, cx.semantic, &cx.template.resources);
    let get_file = |c: &hotfix_hot::Call| is_active(c) && c.status.function() == Function::GetFile;
    for call in unique_calls(cx.semantic, get_file) {
        let arg = view.arg(call.args);
        let (message, help) = match arg {
            Arg::Str(_) | Arg::Bytes(_) => continue,
            Arg::Call(f) => (
                format!("the `get_file` path is computed by `{}`", f.name()),
                "write the path literally: the client uploads only the files named by literal `get_file` paths, so Heat will find no content for a computed one. To choose between files, use `if` around literal `get_file` calls, or pass the content in a parameter. Heat: `No content found in the \"files\" section for get_file path: …`".to_owned(),
            ),
            other => (
                format!("`get_file` takes a literal file path, not {}", other.describe()),
                "write the path or URL of the file as a string, e.g. `get_file: scripts/boot.sh`. Heat: `Argument to \"get_file\" must be a string`".to_owned(),
            ),
        };
        let span = cx.span(call.args);
        if span.is_empty() {
            sink.report(cx.span(call.key), message).help(help);
        } else {
            sink.report(span, message)
                .label(cx.span(call.key), "in this `get_file`")
                .help(help);
        }
    }
}
