//! `X0xx`: what is wrong between files: a template and the nested templates and files it names
//! (relative to itself, as python-heatclient resolves them). These rules run where hotfix reads
//! files (the CLI gives them a file source); a file that exists only in a deployment's layout
//! (an absolute path, one rendered from a `*.j2.yaml` or `NAME.yaml.j2` source, one in a folder
//! that is not there, one whose name a subfolder holds) is never called missing; one the tree
//! holds elsewhere (the same path from a folder above, or its name in a folder beside) is a
//! warning that says where.

use std::sync::Arc;

use hotfix_diagnostics::{Diagnostic, Severity};
use hotfix_stack::{
    FileFacts, LinkKind, Mapped, StackPath, Target, found_elsewhere, resolve_reference,
};

use crate::rule::{Context, Files, Rule};

mod invalid_nested_property_value;
mod missing_get_file;
mod missing_nested_parameter;
mod missing_nested_template;
mod nested_template_cycle;
mod unknown_nested_output;
mod unknown_nested_property;
mod unmapped_resource_type;

pub(crate) const RULES: &[&Rule] = &[
    &missing_nested_template::RULE,
    &missing_get_file::RULE,
    &unknown_nested_property::RULE,
    &nested_template_cycle::RULE,
    &missing_nested_parameter::RULE,
    &unknown_nested_output::RULE,
    &unmapped_resource_type::RULE,
    &invalid_nested_property_value::RULE,
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
        if let Some(found) = found_elsewhere(files.source, files.roots, files.path, &link.reference)
        {
            assembled_elsewhere(diagnostic, &found, &heat);
            continue;
        }
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

/// A missing file that the tree holds elsewhere, where a deployment tool that assembles files
/// may put it (`hotfix_stack::found_elsewhere`): a warning, since the template works only with
/// such a tool, and the help says where the file is.
pub(crate) fn assembled_elsewhere(diagnostic: &mut Diagnostic, found: &StackPath, heat: &str) {
    diagnostic.severity = Severity::Warning;
    diagnostic.help(format!(
        "the tree has it at `{found}`: a deployment tool that copies files into place or sends \
         them by name may put it there; as written, {heat}"
    ));
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

/// A nested template a resource stands for, with how it was found.
pub(crate) struct Nested {
    pub(crate) path: StackPath,
    pub(crate) facts: Arc<FileFacts>,
    /// The type as written: a template path, or a type an environment maps.
    pub(crate) type_name: String,
    /// For a mapped type: the environment that maps it.
    pub(crate) env: Option<StackPath>,
}

impl Nested {
    /// How a finding names the nested template: the path as written, or `file` (mapped by
    /// the environment at `env`, named by its path as the run names files).
    pub(crate) fn describe(&self) -> String {
        match &self.env {
            None => format!("`{}`", self.type_name),
            Some(env) => format!(
                "`{}` (`{}` as `{env}` maps it)",
                self.path.file_name(),
                self.type_name,
            ),
        }
    }

    /// How a finding names the candidates that all make the mistake: the first, and how many
    /// others environments as close to the template map the type to.
    pub(crate) fn describe_all(nested: &[Nested]) -> String {
        let Some(first) = nested.first() else {
            return String::new();
        };
        match nested.len() {
            1 => first.describe(),
            2 => format!(
                "{}, nor of the other template that an environment as close maps it to",
                first.describe()
            ),
            n => format!(
                "{}, nor of the {} other templates that environments as close map it to",
                first.describe(),
                n - 1
            ),
        }
    }
}

impl Nested {
    /// The nested template's file as a help names it: as written in `type`, or its name.
    pub(crate) fn file(&self) -> &str {
        match &self.env {
            None => &self.type_name,
            Some(_) => self.path.file_name(),
        }
    }
}

/// Whether Heat itself has `type_name` (its registry, or its default environment's mappings).
pub fn heat_has(type_name: &str) -> bool {
    let types = hotfix_hot::resource_types::all();
    types.get(type_name).is_some() || types.default_environment_target(type_name).is_some()
}

/// Each resource whose written properties are checked against a nested template: one with a
/// `type`, no `condition` (Heat does not validate it when the condition is false), no
/// `external_id` (Heat checks none of an external resource's properties), and `properties` written as a non-empty mapping (not a call, which Heat resolves first); with
/// its type and its `properties` node.
pub(crate) fn passed_properties<'c>(
    cx: &'c Context<'_>,
) -> impl Iterator<Item = (&'c hotfix_hot::Named, &'c str, hotfix_yaml::NodeId)> + 'c {
    let doc = cx.doc;
    cx.template.resources.iter().filter_map(move |resource| {
        let type_name = cx.template.resource_type(resource)?;
        if doc.get(resource.value, "condition").is_some()
            || crate::rules::util::is_external(cx, resource)
        {
            return None;
        }
        let properties = doc.get(resource.value, "properties")?;
        if doc.raw_entries(properties)?.is_empty()
            || cx.semantic.call_at(doc.resolve(properties)).is_some()
        {
            return None;
        }
        Some((resource, type_name, properties))
    })
}

/// The nested templates the resource `name` with type `type_name` stands for, each a template
/// hotfix can read (with a version Heat knows): the template file a path names (relative to
/// the linted file), or each template the stack's environments map the type to (one when the
/// user named the environments; with the tree's environments, every one that the environments
/// closest to the linted file map it to, [`hotfix_stack::Registry::lookup_for`]). A rule
/// reports a mistake only when every one of them makes it. Empty when the type is Heat's own
/// or unknown, or when any answer is not a template hotfix can read (Heat's own type, a file
/// that is missing or rendered at deployment, a mapping it cannot follow): what that answer
/// would accept is not known.
///
/// Asked of the template's resource `resource` (of type `type_name`, as
/// [`hotfix_hot::Template::resource_type`] gives it) by several rules: worked out once.
pub(crate) fn nested_of(
    cx: &crate::rule::Context<'_>,
    files: &Files<'_>,
    resource: &hotfix_hot::Named,
    type_name: &str,
) -> std::rc::Rc<Vec<Nested>> {
    cx.memo(resource.key, || {
        std::rc::Rc::new(nested_templates(files, type_name, &resource.name))
    })
}

/// The nested templates the member of the group `group` stands for (its definition's type
/// `member.type_name`), as [`nested_of`] finds a resource's. Empty (nothing known) when an
/// environment's `resources` section names the group (or a pattern that may match it): what
/// it says under the group's name is the registry of the group's nested stack, and may give
/// its members (`0`, `1`, …, or an autoscaling group's random names) an implementation of
/// their own.
pub(crate) fn nested_of_member(
    cx: &crate::rule::Context<'_>,
    files: &Files<'_>,
    group: &hotfix_hot::Named,
    member: &crate::rules::resources::shared::GroupMember,
) -> std::rc::Rc<Vec<Nested>> {
    cx.memo(member.type_node, || {
        let per_resource = files
            .registry
            .is_some_and(|registry| registry.get().names_resource(&group.name));
        std::rc::Rc::new(if per_resource {
            Vec::new()
        } else {
            nested_templates(files, &member.type_name, &group.name)
        })
    })
}

/// [`nested_of`]'s answer, worked out.
fn nested_templates(files: &Files<'_>, type_name: &str, name: &str) -> Vec<Nested> {
    if is_template_path(type_name) {
        // An environment may give this one resource another implementation.
        if files
            .registry
            .is_some_and(|registry| registry.get().maps_resource_type(name, type_name))
        {
            return Vec::new();
        }
        return nested_template(files, type_name)
            .map(|facts| Nested {
                path: resolve_path(files, type_name),
                facts,
                type_name: type_name.to_owned(),
                env: None,
            })
            .into_iter()
            .collect();
    }
    let Some(registry) = files.registry else {
        return Vec::new();
    };
    let mut found: Vec<Nested> = Vec::new();
    for mapped in registry
        .get()
        .lookup_for(files.path, type_name, Some(name), &heat_has)
    {
        let Mapped::Template {
            target: Target::File(path),
            env,
            ..
        } = mapped
        else {
            return Vec::new();
        };
        if found.iter().any(|n| &n.path == path) {
            continue;
        }
        let Some(facts) = files.source.facts(path).filter(|f| f.versioned) else {
            return Vec::new();
        };
        found.push(Nested {
            path: path.clone(),
            facts,
            type_name: type_name.to_owned(),
            env: env.cloned(),
        });
    }
    found
}

fn resolve_path(files: &Files<'_>, reference: &str) -> StackPath {
    resolve_reference(files.source, files.roots, files.path, reference, None)
        .path()
        .cloned()
        .unwrap_or_else(|| StackPath::new(reference))
}

/// Where something is written in another file, for a label there.
pub(crate) struct Declared {
    pub(crate) path: StackPath,
    pub(crate) text: Arc<str>,
    /// The deepest of the keys found, or (without the first) the file's first line.
    pub(crate) span: hotfix_diagnostics::Span,
    /// Whether every key was found.
    pub(crate) found: bool,
}

/// Where the keys `keys` (from the top: `["parameters", "flavor"]`) are written in the file at
/// `path`, read again: only when a finding is reported.
pub(crate) fn declared_in(files: &Files<'_>, path: &StackPath, keys: &[&str]) -> Option<Declared> {
    let text = files.source.read(path)?;
    let doc = hotfix_yaml::parse_unlimited(&text).ok()?;
    let first_line = text.find(['\r', '\n']).unwrap_or(text.len());
    let mut span = hotfix_diagnostics::Span::new(0, first_line);
    let mut node = doc.root();
    let mut found = true;
    for key in keys {
        let Some(entry) = doc
            .entries(node)
            .into_iter()
            .rev()
            .find(|e| hotfix_hot::key_name(&doc, e.key) == *key)
        else {
            found = false;
            break;
        };
        span = doc.node(entry.key).span;
        node = doc.resolve(entry.value);
    }
    Some(Declared {
        path: path.clone(),
        text,
        span,
        found,
    })
}

/// Whether a `type` names a template file to python-heatclient.
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "python-heatclient's test is `value.endswith(('.yaml', '.template'))`"
)]
pub(crate) fn is_template_path(type_name: &str) -> bool {
    type_name.ends_with(".yaml") || type_name.ends_with(".template")
}
