//! `H7xx`: outputs.

use crate::rule::Rule;

mod output_condition_ignored;
mod output_not_mapping;
mod output_without_value;
mod shared;
mod unknown_output_key;

pub(crate) const RULES: &[&Rule] = &[
    &output_not_mapping::RULE,
    &output_without_value::RULE,
    &unknown_output_key::RULE,
    &output_condition_ignored::RULE,
];
