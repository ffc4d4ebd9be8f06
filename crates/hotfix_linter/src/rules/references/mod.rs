//! `H3xx`: references to parameters, resources and conditions, and cycles among them.

use crate::rule::Rule;

mod condition_cycle;
mod condition_logic;
mod dependency_cycle;
mod parameter_resource_name_clash;
mod reference_to_conditional_resource;
pub(crate) mod shared;
mod undefined_condition;
mod undefined_parameter;
mod undefined_resource;

pub(crate) const RULES: &[&Rule] = &[
    &undefined_parameter::RULE,
    &undefined_resource::RULE,
    &reference_to_conditional_resource::RULE,
    &dependency_cycle::RULE,
    &undefined_condition::RULE,
    &condition_cycle::RULE,
    &parameter_resource_name_clash::RULE,
];
