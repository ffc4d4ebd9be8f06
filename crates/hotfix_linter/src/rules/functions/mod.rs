//! `H2xx`: intrinsic functions: removed, not yet available, not called, not HOT, misspelt, or
//! called with arguments Heat rejects.

use crate::rule::Rule;

mod args;
mod cfn_function_not_in_hot;
mod function_not_available_yet;
mod function_with_sibling_keys;
mod invalid_function_arguments;
mod invalid_function_in_condition;
mod misspelt_function;
mod non_literal_get_file;
mod removed_function;
mod shared;

pub(in crate::rules) use args::{Refused, refusal};

pub(crate) const RULES: &[&Rule] = &[
    &removed_function::RULE,
    &function_not_available_yet::RULE,
    &function_with_sibling_keys::RULE,
    &cfn_function_not_in_hot::RULE,
    &invalid_function_arguments::RULE,
    &invalid_function_in_condition::RULE,
    &non_literal_get_file::RULE,
    &misspelt_function::RULE,
];
