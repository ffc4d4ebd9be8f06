//! `make_url`, whose argument is a mapping.

use hotfix_hot::Call;

use super::{Bad, Phase, bad};
use crate::rules::functions::shared::View;

/// What Heat's `MakeURL.result()` raises beyond its `validate()` (which
/// [`hotfix_hot::function_args`] checks): a `scheme` with a `:`.
pub(super) fn make_url(v: &View<'_>, call: &Call) -> Option<Bad> {
    let scheme = v.doc.get(v.doc.resolve(call.args), "scheme")?;
    if !v.str(scheme).is_some_and(|s| s.contains(':')) {
        return None;
    }
    bad(
        Phase::Resolve,
        scheme,
        "the `scheme` of `make_url` contains `:`",
        "write the scheme alone, e.g. `https`",
        r#"URL "scheme" should not contain ':'"#,
    )
}
