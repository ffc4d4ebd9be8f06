//! What the output rules share.

use hotfix_diagnostics::Edit;
use hotfix_hot::{Availability, Named, Version};
use hotfix_yaml::{NodeId, NodeKind, ScalarStyle};

use crate::rule::Context;
use crate::rules::util::did_you_mean;

pub(super) use crate::rules::util::{esc, is_falsy};

/// The first version whose outputs accept `condition`.
pub(super) const NEWTON: Version = Version::V2016_10_14;

/// The outputs whose definition is a mapping (the others are `output-not-mapping`'s).
pub(super) fn mapping_outputs<'t>(cx: &'t Context<'_>) -> impl Iterator<Item = &'t Named> {
    cx.template
        .outputs
        .iter()
        .filter(|o| cx.template.is_mapping(o.value))
}

/// In an output without `value`, the key that looks like a misspelt `value` (`Value`,
/// `vaule`): `output-without-value` reports it, so `unknown-output-key` does not.
pub(super) fn misspelt_value(cx: &Context<'_>, output: &Named) -> Option<NodeId> {
    let doc = cx.doc;
    if doc.get(output.value, "value").is_some() {
        return None;
    }
    doc.entries(output.value)
        .into_iter()
        .map(|e| e.key)
        .find(|&key| {
            doc.str_value(key)
                .is_some_and(|k| did_you_mean(k, ["value"]).is_some())
        })
}

/// An edit that replaces the string scalar `node` with `text` written the same way (plain,
/// single- or double-quoted). `None` for aliases, tagged and block scalars. `text` must be
/// safe as a plain scalar.
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

/// In an output without `value`, the single key that is a function name: the author wrote
/// the value itself (`o: {get_attr: [server, name]}`). `output-without-value` reports it, so
/// `unknown-output-key` does not.
pub(super) fn function_as_definition(cx: &Context<'_>, output: &Named) -> Option<NodeId> {
    let doc = cx.doc;
    let version = cx.version()?;
    let entries = doc.entries(output.value);
    let [entry] = entries.as_slice() else {
        return None;
    };
    let name = doc.str_value(entry.key)?;
    (name != "value" && !matches!(version.function(name), Availability::Data)).then_some(entry.key)
}
