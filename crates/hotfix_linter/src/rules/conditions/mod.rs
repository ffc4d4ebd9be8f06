//! `H8xx`: conditions and `if`.

use crate::rule::Rule;

mod and_or_too_few_arguments;
mod conditions_before_newton;
mod if_arguments;
mod invalid_condition_definition;
mod not_given_list;
mod shared;

pub(crate) const RULES: &[&Rule] = &[
    &conditions_before_newton::RULE,
    &invalid_condition_definition::RULE,
    &if_arguments::RULE,
    &not_given_list::RULE,
    &and_or_too_few_arguments::RULE,
];
