//! Small helpers shared by rules.

use hotfix_diagnostics::Span;
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};

use crate::rule::Context;
use crate::rules::py::Arg;

pub(crate) use hotfix_hot::suggest::closest;
pub use hotfix_hot::suggest::did_you_mean;

pub(in crate::rules) use crate::rules::py::{is_falsy, python_type};

/// The call `node` makes (through aliases), if Heat's parser calls it, whatever its status.
pub(crate) fn call_at<'c>(cx: &Context<'c>, node: NodeId) -> Option<&'c hotfix_hot::Call> {
    cx.semantic.call_at(cx.doc.resolve(node))
}

/// The span to point at for a node: the node itself, or `fallback` when the node is empty
/// (an implicit null such as `type:` has no text).
pub(crate) fn span_or(cx: &Context<'_>, node: NodeId, fallback: NodeId) -> Span {
    let span = cx.span(node);
    if span.is_empty() {
        cx.span(fallback)
    } else {
        span
    }
}

/// What a loaded value is, in words: "a string", "a list", "null".
pub(crate) fn kind_name(doc: &Document, id: NodeId) -> &'static str {
    match Arg::of(doc, id) {
        Arg::Map(_) | Arg::Call(_) => "a mapping",
        Arg::List(_) => "a list",
        Arg::Null => "null",
        Arg::Bool(_) => "a boolean",
        Arg::Int(_) => "an integer",
        Arg::Float(_) => "a float",
        Arg::Bytes(_) => "binary data",
        Arg::Str(_) => "a string",
    }
}

/// User text for a one-line message: control characters (a newline from a block scalar)
/// escaped.
pub(crate) fn esc(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// Whether the node is a mapping (through aliases).
pub(crate) fn is_mapping(doc: &Document, id: NodeId) -> bool {
    matches!(doc.node(doc.resolve(id)).kind, NodeKind::Mapping { .. })
}

/// Whether the node is a sequence (through aliases).
pub(crate) fn is_sequence(doc: &Document, id: NodeId) -> bool {
    matches!(doc.node(doc.resolve(id)).kind, NodeKind::Sequence { .. })
}

/// Whether the node loads as `None`.
pub(crate) fn is_null(doc: &Document, id: NodeId) -> bool {
    doc.scalar(id).is_some_and(|s| s.value == ScalarValue::Null)
}

/// Whether the resource is an external one: it has an `external_id` (Heat reads the key from
/// `heat_template_version` 2016-10-14) that is not null. Heat adopts such a resource instead of
/// creating it, and `Stack.validate` checks only that it exists (`validate_external`, a lookup
/// in the cloud): none of its properties, its `update_policy`, the functions in its definition
/// or whether its type can take a `Snapshot`. Its key names, field types, `deletion_policy`
/// value, references and the attributes others take from it are checked as for any resource.
pub(crate) fn is_external(cx: &Context<'_>, resource: &hotfix_hot::Named) -> bool {
    cx.version()
        .is_some_and(|v| v >= hotfix_hot::Version::V2016_10_14)
        && cx
            .template
            .field(resource, "external_id")
            .is_some_and(|id| !is_null(cx.doc, cx.doc.resolve(id)))
}

/// Every `get_attr` of a resource of the template with a literal attribute name: the resource
/// (the last of that name, as Heat keeps it), the attribute's node, its name, and whether the
/// call is in an output's value (which Heat resolves only when the output is shown).
pub(crate) fn attribute_uses<'c>(
    cx: &'c crate::rule::Context<'_>,
) -> impl Iterator<Item = (&'c hotfix_hot::Named, hotfix_yaml::NodeId, &'c str, bool)> + 'c {
    let doc = cx.doc;
    calls_of_attributes(cx).filter_map(move |(reference, resource, args)| {
        let &attribute = args.get(1)?;
        let shown = crate::rules::references::shared::in_output_value(reference);
        Some((resource, attribute, doc.str_value(attribute)?, shown))
    })
}

/// Every `get_attr` of a resource of the template written as a list: the resource (the last of
/// that name, as Heat keeps it) and the call's arguments (the resource's name, the attribute,
/// the path into it).
pub(crate) fn attribute_calls<'c>(
    cx: &'c crate::rule::Context<'_>,
) -> impl Iterator<Item = (&'c hotfix_hot::Named, &'c [hotfix_yaml::NodeId])> + 'c {
    calls_of_attributes(cx).map(|(_, resource, args)| (resource, args))
}

/// [`attribute_calls`], each with its reference.
fn calls_of_attributes<'c>(
    cx: &'c crate::rule::Context<'_>,
) -> impl Iterator<
    Item = (
        &'c hotfix_hot::Reference,
        &'c hotfix_hot::Named,
        &'c [hotfix_yaml::NodeId],
    ),
> + 'c {
    let doc = cx.doc;
    cx.semantic.references.iter().filter_map(move |reference| {
        let (hotfix_hot::RefKind::Attribute, Some(call)) = (reference.kind, reference.call) else {
            return None;
        };
        // Heat resolves nothing in a resource it never creates.
        if in_never_created(cx, reference.owner) {
            return None;
        }
        let resource = cx
            .template
            .resources
            .iter()
            .rev()
            .find(|r| r.name == reference.name)?;
        let args = cx.semantic.calls[call].args;
        Some((reference, resource, doc.items(doc.resolve(args))?))
    })
}

/// Whether a reference is written in a resource that is never created
/// ([`Context::never_created`]).
pub(crate) fn in_never_created(cx: &Context<'_>, owner: hotfix_hot::Owner) -> bool {
    match owner {
        hotfix_hot::Owner::Resource(index) => cx
            .template
            .resources
            .get(index)
            .is_some_and(|resource| cx.never_created(resource)),
        hotfix_hot::Owner::Output(_) | hotfix_hot::Owner::Condition(_) => false,
    }
}

impl Context<'_> {
    /// Whether the resource is never created, whatever the stack's inputs: its `condition` is
    /// `false`, names a condition defined (through other names) as `false`, or folds to false
    /// from literals alone (`{equals: [a, b]}`). Heat leaves such a resource out of the stack
    /// without looking at its type, properties, attributes or dependencies.
    pub(crate) fn never_created(&self, resource: &hotfix_hot::Named) -> bool {
        let never = self.once(|| NeverCreated(never_created(self)));
        !never.0.is_empty() && never.0.contains(&resource.key)
    }
}

/// The keys of the resources never created ([`Context::never_created`]), found once per
/// template.
struct NeverCreated(Vec<NodeId>);

/// The keys of the template's resources that are never created whatever the stack's inputs
/// ([`Context::never_created`]).
fn never_created(cx: &Context<'_>) -> Vec<NodeId> {
    let Some(version) = cx.version() else {
        return Vec::new();
    };
    cx.template
        .resources
        .iter()
        .filter(|resource| {
            cx.template
                .field(resource, "condition")
                .is_some_and(|node| certainly_false(cx, version, node, 0))
        })
        .map(|resource| resource.key)
        .collect()
}

/// Whether an output's `condition` is false whatever the stack's inputs: Heat leaves such an
/// output out without validating its value, or resolving it.
pub(crate) fn output_never_shown(cx: &Context<'_>, owner: hotfix_hot::Owner) -> bool {
    let (Some(version), hotfix_hot::Owner::Output(index)) = (cx.version(), owner) else {
        return false;
    };
    cx.template.outputs.get(index).is_some_and(|output| {
        cx.template
            .field(output, "condition")
            .is_some_and(|node| certainly_false(cx, version, node, 0))
    })
}

/// Whether a condition (a resource's `condition`, or a definition of the `conditions`
/// section) is false whatever the stack's inputs: a name is followed to its definition.
fn certainly_false(
    cx: &Context<'_>,
    version: hotfix_hot::Version,
    node: NodeId,
    depth: usize,
) -> bool {
    if depth > 16 {
        return false;
    }
    if let Some(name) = cx.doc.str_value(node) {
        return cx
            .template
            .conditions
            .iter()
            .find(|c| c.name == name)
            .is_some_and(|c| certainly_false(cx, version, c.value, depth + 1));
    }
    hotfix_eval::fold_condition(cx.doc, version, node) == Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_misses_only() {
        let versions = ["2016-10-14", "newton", "2017-02-24"];
        assert_eq!(did_you_mean("2016-10-15", versions), Some("2016-10-14"));
        assert_eq!(did_you_mean("Newton", versions), Some("newton"));
        assert_eq!(did_you_mean("2020-08-07", versions), None);
        assert_eq!(hotfix_hot::suggest::levenshtein("kitten", "sitting"), 3);
    }

    #[test]
    fn lists_every_candidate_tied_for_closest() {
        let versions = ["2014-10-16", "2015-10-15", "2016-10-14"];
        // One edit from two of them; the longer shared prefix decides.
        assert_eq!(closest("2016-10-15", versions), ["2016-10-14"]);
        // Two edits from all three, sharing the same prefix with each.
        assert_eq!(
            closest("2010-10-13", versions),
            ["2014-10-16", "2015-10-15", "2016-10-14"]
        );
        assert!(closest("1999-01-01", versions).is_empty());
    }
}
