//! `H5xx`: parameter groups.

use crate::rule::Rule;

mod group_without_parameters;
mod parameter_groups_not_list;
mod parameter_in_two_groups;
mod shared;
mod unknown_grouped_parameter;

pub(crate) const RULES: &[&Rule] = &[
    &parameter_groups_not_list::RULE,
    &group_without_parameters::RULE,
    &unknown_grouped_parameter::RULE,
    &parameter_in_two_groups::RULE,
];
