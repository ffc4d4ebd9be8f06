use hotfix_stack::{Target, found_elsewhere, resolve_reference};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every file a `resource_registry` entry names exists, relative to the
    /// environment file (or to its `base_url`), as python-heatclient resolves it. A value is a
    /// file to the client when it is a string without `::` (whatever its extension).
    ///
    /// Paths that exist only where the templates are deployed are not reported: absolute
    /// paths (an install prefix such as `/usr/share/openstack-tripleo-heat-templates`), paths
    /// that leave the linted tree, files of a folder that does not exist either (a sibling
    /// checkout, a folder the deployment makes), URLs, files of a folder that holds a
    /// `*.j2.yaml` source (a deployment renders them there, as TripleO renders
    /// `network/ports/*.yaml`), files beside a Jinja source of their own name (`lb.yaml.j2` or
    /// `lb.j2.yaml` for `lb.yaml`, which a deployment tool renders), and files whose name a
    /// subfolder holds. A file the tree holds elsewhere, where a deployment tool that
    /// assembles files may put it (the same path read from a folder above, or its name in a
    /// folder beside the environment's), is a warning that says where. It runs where hotfix
    /// reads files (the CLI).
    ///
    /// ## Why is this bad?
    /// The client reads every registry target before it sends the stack, used or not, so one
    /// renamed file fails every stack created with this environment: `Could not fetch contents
    /// for file:///…/nested/servr.yaml`.
    ///
    /// ## Example
    /// ```yaml
    /// resource_registry:
    ///   My::Server: ../nested/servr.yaml
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// resource_registry:
    ///   My::Server: ../nested/server.yaml
    /// ```
    pub(crate) static RULE = {
        code: "E007",
        name: "missing-registry-target",
        severity: Error,
        fix: None,
        scope: Environment,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(files) = cx.files else {
        return;
    };
    for link in hotfix_stack::environment_links(cx.doc) {
        let target = resolve_reference(
            files.source,
            files.roots,
            files.path,
            &link.reference,
            link.base_url.as_deref(),
        );
        let Target::Missing(path) = target else {
            continue;
        };
        let diagnostic = sink.report(link.span, format!("`{}` does not exist", link.reference));
        let heat = format!(
            "python-heatclient reads every registry target, used or not: `Could not fetch \
             contents for file://…/{}`",
            path.file_name()
        );
        if link.base_url.is_none()
            && let Some(found) =
                found_elsewhere(files.source, files.roots, files.path, &link.reference)
        {
            crate::rules::crossfile::assembled_elsewhere(diagnostic, &found, &heat);
            continue;
        }
        let folder = path.parent();
        let names = files.source.list(&folder);
        match did_you_mean(path.file_name(), names.iter().map(String::as_str)) {
            Some(name) => {
                let written = match link.reference.rsplit_once('/') {
                    Some((dir, _)) => format!("{dir}/{name}"),
                    None => name.to_owned(),
                };
                diagnostic.help(format!("did you mean `{written}`? {heat}"));
            }
            None => {
                diagnostic.help(heat);
            }
        }
    }
}
