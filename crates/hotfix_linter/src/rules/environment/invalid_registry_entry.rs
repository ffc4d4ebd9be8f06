use hotfix_hot::environment::{EntryKind, HOOK_TYPES, RESTRICTED_ACTIONS};
use hotfix_hot::key_name;
use hotfix_yaml::{NodeId, NodeKind, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::environment::{python_str, python_tuple};
use crate::rules::py::{a_type, python_type};

declare_rule! {
    /// ## What it does
    /// Checks the entries of `resource_registry` as python-heatclient and Heat's engine read
    /// them: each value is a type name or a template path (a string), or a mapping that nests
    /// entries; `resources:` maps resource names to mappings of per-resource entries; `hooks`
    /// names hook types (`pre-create`, `pre-update`, `pre-delete`, `post-create`,
    /// `post-update`, `post-delete`), one or a list; `restricted_actions` names `update` or
    /// `replace`, one or a list.
    ///
    /// ## Why is this bad?
    /// The client fails on a null or numeric value (`argument of type 'NoneType' is not
    /// iterable`: a null does not remove a mapping when the environment is sent with `-e`), on
    /// a list (`Cannot mix str and non-str arguments`) and on a `resources` entry that is not a
    /// mapping (`'str' object has no attribute 'get'`). The engine refuses a hook or action it
    /// does not know: `Invalid hook type "pre-creat" for resource breakpoint, acceptable hook
    /// types are: (...)`.
    ///
    /// ## Example
    /// ```yaml
    /// resource_registry:
    ///   resources:
    ///     server:
    ///       hooks: pre-creat
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// resource_registry:
    ///   resources:
    ///     server:
    ///       hooks: pre-create
    /// ```
    pub(crate) static RULE = {
        code: "E004",
        name: "invalid-registry-entry",
        severity: Error,
        fix: None,
        scope: Environment,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(env) = cx.environment else {
        return;
    };
    let doc = cx.doc;
    let Some(registry) = env.section("resource_registry") else {
        return;
    };
    if !matches!(
        doc.node(doc.resolve(registry.value)).kind,
        NodeKind::Mapping { .. }
    ) {
        // E003 reports it.
        return;
    }
    // What the client walks: the registry's own entries, and each `resources: {name: {…}}`.
    client_entries(cx, sink, registry.value, true);
    if let Some(resources) = doc.get(registry.value, "resources") {
        match doc.raw_entries(resources) {
            Some(_) => {
                for entry in doc.entries(resources) {
                    let value = doc.resolve(entry.value);
                    if matches!(doc.node(value).kind, NodeKind::Mapping { .. }) {
                        client_entries(cx, sink, value, false);
                    } else if !is_null(cx, value) {
                        let name = key_name(doc, entry.key);
                        let kind = python_type(doc, value);
                        sink.report(
                            cx.span(entry.value),
                            format!(
                                "the entries of resource `{name}` must be a mapping, not {}",
                                a_type(kind)
                            ),
                        )
                        .help(format!(
                            "write `{name}: {{TYPE: TARGET}}`; python-heatclient fails with \
                             `'{kind}' object has no attribute 'get'`"
                        ));
                    }
                }
            }
            None if !is_null(cx, resources) => {
                let kind = python_type(doc, resources);
                // The client's walk of the registry's own entries meets it first.
                let heat = match kind {
                    "str" => "`'str' object has no attribute 'items'`".to_owned(),
                    "list" => "`Cannot mix str and non-str arguments`".to_owned(),
                    _ => format!("`argument of type '{kind}' is not iterable`"),
                };
                sink.report(
                    cx.span(resources),
                    format!(
                        "`resources` must be a mapping of resource names, not {}",
                        a_type(kind)
                    ),
                )
                .help(format!("python-heatclient fails with {heat}"));
            }
            None => {}
        }
    }
    // What the engine checks at any depth.
    for entry in &env.registry {
        match entry.kind {
            EntryKind::Hooks => check_names(cx, sink, entry.value, "hooks", &HOOK_TYPES),
            EntryKind::RestrictedActions => check_names(
                cx,
                sink,
                entry.value,
                "restricted_actions",
                &RESTRICTED_ACTIONS,
            ),
            _ => {}
        }
    }
}

fn is_null(cx: &Context<'_>, id: NodeId) -> bool {
    matches!(&cx.doc.node(cx.doc.resolve(id)).kind, NodeKind::Scalar(s) if s.value == ScalarValue::Null)
}

/// The entries of one mapping the client walks (`ignore_if` of `resolve_environment_urls`):
/// `base_url` and mappings are skipped; any other value is tested with `'::' in value`, which
/// fails on what is not iterable, and then, unless the key is `hooks` or
/// `restricted_actions`, joined to the base URL, which fails on what is not a string.
fn client_entries(cx: &Context<'_>, sink: &mut Sink<'_>, mapping: NodeId, top: bool) {
    let doc = cx.doc;
    for entry in doc.entries(mapping) {
        let key = key_name(doc, entry.key);
        // `resources` is checked on its own (above).
        if key == "base_url" || (key == "resources" && top) {
            continue;
        }
        let value = doc.resolve(entry.value);
        let kind = python_type(doc, value);
        match &doc.node(value).kind {
            NodeKind::Mapping { .. } => {}
            NodeKind::Scalar(s) if s.value == ScalarValue::Str => {}
            NodeKind::Scalar(s) if s.value == ScalarValue::Null => {
                sink.report(cx.span(entry.key), format!("`{key}` is mapped to null"))
                    .help(
                        "remove the entry (to leave a resource out, map its type to \
                         `OS::Heat::None`); python-heatclient fails with `argument of type \
                         'NoneType' is not iterable`",
                    );
            }
            NodeKind::Sequence { .. } if key == "hooks" || key == "restricted_actions" => {}
            NodeKind::Sequence { .. } => {
                sink.report(
                    cx.span(entry.value),
                    format!("`{key}` is mapped to a list, not a type name or template path"),
                )
                .help("python-heatclient fails with `Cannot mix str and non-str arguments`");
            }
            _ => {
                sink.report(
                    cx.span(entry.value),
                    format!(
                        "`{key}` is mapped to {}, not a type name or template path",
                        a_type(kind)
                    ),
                )
                .help(format!(
                    "quote it if it is a name; python-heatclient fails with `argument of type \
                     '{kind}' is not iterable`"
                ));
            }
        }
    }
}

/// `hooks` or `restricted_actions`: a known name, or a list of them (Heat's
/// `is_hook_definition`, `is_valid_restricted_action`).
fn check_names(cx: &Context<'_>, sink: &mut Sink<'_>, value: NodeId, key: &str, known: &[&str]) {
    let doc = cx.doc;
    let value = doc.resolve(value);
    if is_null(cx, value) {
        // A removal in the engine; where the client walks, it fails there (reported above).
        return;
    }
    let valid = match &doc.node(value).kind {
        NodeKind::Scalar(s) if s.value == ScalarValue::Str => {
            doc.str_value(value).is_some_and(|v| known.contains(&v))
        }
        NodeKind::Sequence { items, .. } => items
            .iter()
            .all(|&i| doc.str_value(i).is_some_and(|v| known.contains(&v))),
        _ => false,
    };
    if valid {
        return;
    }
    let (what, text) = if key == "hooks" {
        (
            "hook type",
            "for resource breakpoint, acceptable hook types are",
        )
    } else {
        (
            "restricted action",
            "for resource, acceptable restricted_action types are",
        )
    };
    let label = if key == "hooks" {
        "hook"
    } else {
        "restricted_action"
    };
    let shown = python_str(doc, value);
    let message = match doc.str_value(value) {
        Some(name) => format!("`{name}` is not a {what}"),
        None => format!("`{key}` names something that is not a {what}"),
    };
    let diagnostic = sink.report(cx.span(value), message);
    match shown {
        Some(shown) => diagnostic.help(format!(
            "{what}s: {}; Heat: `Invalid {label} type \"{shown}\" {text}: {}`",
            known.join(", "),
            python_tuple(known)
        )),
        None => diagnostic.help(format!("{what}s: {}", known.join(", "))),
    };
}
