//! What the condition rules share: finding calls, and values as Python prints them (Heat's
//! messages interpolate them with `%s`).

use hotfix_hot::Version;
use hotfix_yaml::NodeId;

use crate::rule::Context;
use crate::rules::py::{Arg, View};

pub(super) use crate::rules::util::{call_at, esc, kind_name, span_or};

/// The first version with conditions.
pub(super) const NEWTON: Version = Version::V2016_10_14;

/// How many characters of a value a message shows.
const MAX_SHOWN: usize = 80;

/// How deep nested collections are printed.
const MAX_DEPTH: usize = 16;

/// Python's `str()` of the loaded value: a string as it is, anything else as its `repr()`.
/// Calls (which Heat would have resolved) print as `…`; long values are cut.
pub(super) fn py_str(cx: &Context<'_>, id: NodeId) -> String {
    let view = View::new(cx.doc, cx.semantic);
    let text = match view.arg(id) {
        Arg::Str(text) => text.to_owned(),
        _ => view.repr_within(id, MAX_DEPTH, MAX_SHOWN),
    };
    let mut text = esc(&text).into_owned();
    if let Some((at, _)) = text.char_indices().nth(MAX_SHOWN) {
        text.truncate(at);
        text.push('…');
    }
    text
}
