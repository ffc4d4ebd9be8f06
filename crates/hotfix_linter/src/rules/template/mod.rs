//! `H1xx`: the template as a whole.

use crate::rule::Rule;

mod ambiguous_version;
mod invalid_version;
mod missing_version;
mod too_many_resources;
mod unknown_section;

pub(crate) use invalid_version::{RULE as INVALID_VERSION, assumed_version};

pub(crate) const RULES: &[&Rule] = &[
    &missing_version::RULE,
    &invalid_version::RULE,
    &ambiguous_version::RULE,
    &unknown_section::RULE,
    &too_many_resources::RULE,
];
