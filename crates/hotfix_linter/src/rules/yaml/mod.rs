//! `H002`–`H004`: what YAML 1.1 and PyYAML load differently from what the text suggests.

use crate::rule::Rule;

mod duplicate_key;
mod yaml_boolean_key;
mod yaml_implicit_number;

pub(crate) const RULES: &[&Rule] = &[
    &duplicate_key::RULE,
    &yaml_boolean_key::RULE,
    &yaml_implicit_number::RULE,
];
