//! What the resource rules share: finding calls, Python truthiness, and names for versions.

use hotfix_diagnostics::Edit;
use hotfix_hot::{Call, Named, Version};
use hotfix_yaml::{NodeId, NodeKind, ScalarStyle};

use crate::rule::Context;

pub(super) use crate::rules::util::{esc, is_falsy, kind_name, span_or};

/// The first version whose resources accept `external_id` and `condition`.
pub(super) const NEWTON: Version = Version::V2016_10_14;

/// The call `node` makes (through aliases), if Heat's parser calls it, whatever its status.
pub(super) fn call_at<'c>(cx: &Context<'c>, node: NodeId) -> Option<&'c Call> {
    cx.semantic.call_at(cx.doc.resolve(node))
}

/// The resources whose definition is a mapping (the others are `resource-not-mapping`'s).
pub(super) fn mapping_resources<'t>(cx: &'t Context<'_>) -> impl Iterator<Item = &'t Named> {
    cx.template
        .resources
        .iter()
        .filter(|r| cx.template.is_mapping(r.value))
}

/// `heat_template_version 2016-10-14 (newton)`.
pub(super) fn version_label(version: Version) -> String {
    match version.name() {
        Some(name) => format!("{} ({name})", version.date()),
        None => version.date().to_owned(),
    }
}

/// An edit that replaces the string scalar `node` with `text` written the same way (plain,
/// single- or double-quoted). `None` for aliases, tagged and block scalars, where a textual
/// replacement could change more than this one value. `text` must be safe as a plain scalar.
pub(super) fn replace_scalar(cx: &Context<'_>, node: NodeId, text: &str) -> Option<Edit> {
    let n = cx.doc.node(node);
    if n.tag.is_some() {
        return None;
    }
    let NodeKind::Scalar(scalar) = &n.kind else {
        return None;
    };
    let content = match scalar.style {
        ScalarStyle::Plain => text.to_owned(),
        ScalarStyle::SingleQuoted => format!("'{text}'"),
        ScalarStyle::DoubleQuoted => format!("\"{text}\""),
        ScalarStyle::Literal | ScalarStyle::Folded => return None,
    };
    Some(Edit::replace(n.span, content))
}
