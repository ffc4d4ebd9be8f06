//! `H4xx`: parameter definitions, their constraints and defaults.

use crate::rule::Rule;

mod constraint_not_applicable;
mod default_type_mismatch;
mod default_violates_constraint;
mod hidden_as_string;
mod invalid_parameter_type;
mod malformed_constraint;
pub(in crate::rules) mod pyjson;
pub(in crate::rules) use hotfix_eval::regex;
pub(in crate::rules) mod shared;
mod unknown_parameter_key;
mod unused_parameter;

pub(crate) const RULES: &[&Rule] = &[
    &invalid_parameter_type::RULE,
    &unknown_parameter_key::RULE,
    &constraint_not_applicable::RULE,
    &malformed_constraint::RULE,
    &default_type_mismatch::RULE,
    &default_violates_constraint::RULE,
    &hidden_as_string::RULE,
    &unused_parameter::RULE,
];
