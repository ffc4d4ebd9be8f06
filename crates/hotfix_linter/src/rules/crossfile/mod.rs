//! `X0xx`: what is wrong between files: a template and the nested templates and files it names
//! (relative to itself, as python-heatclient resolves them). These rules run where hotfix reads
//! files (the CLI gives them a file source); a file that exists only in a deployment's layout
//! (an absolute path, one rendered from a `*.j2.yaml` source, one in a folder that is not
//! there, one whose name a subfolder holds) is never called missing.

use hotfix_stack::{LinkKind, Target, resolve_reference};

use crate::rule::{Context, Files, Rule};

mod missing_get_file;
mod missing_nested_template;
mod nested_template_cycle;
mod unknown_nested_property;

pub(crate) const RULES: &[&Rule] = &[
    &missing_nested_template::RULE,
    &missing_get_file::RULE,
    &unknown_nested_property::RULE,
    &nested_template_cycle::RULE,
];

/// Reports every link of `kind` whose file is missing, with python-heatclient's text.
fn report_missing(cx: &Context<'_>, sink: &mut crate::rule::Sink<'_>, kind: &LinkKind, what: &str) {
    let Some(files) = cx.files else {
        return;
    };
    for link in cx.links() {
        if &link.kind != kind {
            continue;
        }
        let Target::Missing(path) =
            resolve_reference(files.source, files.roots, files.path, &link.reference, None)
        else {
            continue;
        };
        let diagnostic = sink.report(
            link.span,
            format!("{what} `{}` does not exist", link.reference),
        );
        let heat = format!(
            "python-heatclient fails before it sends the stack: `Could not fetch contents for \
             file://…/{}`",
            path.file_name()
        );
        let names = files.source.list(&path.parent());
        match crate::rules::util::did_you_mean(path.file_name(), names.iter().map(String::as_str)) {
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

/// The facts of the nested template a resource's `type` names (relative to the linted file),
/// when it exists and loads as a template with a version Heat knows.
pub(crate) fn nested_template(
    files: &Files<'_>,
    reference: &str,
) -> Option<std::sync::Arc<hotfix_stack::FileFacts>> {
    let Target::File(path) =
        resolve_reference(files.source, files.roots, files.path, reference, None)
    else {
        return None;
    };
    let facts = files.source.facts(&path)?;
    facts.versioned.then_some(facts)
}

/// Whether a `type` names a template file to python-heatclient.
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "python-heatclient's test is `value.endswith(('.yaml', '.template'))`"
)]
pub(crate) fn is_template_path(type_name: &str) -> bool {
    type_name.ends_with(".yaml") || type_name.ends_with(".template")
}
