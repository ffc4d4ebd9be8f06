//! `H6xx`: resource definitions.

use crate::rule::Rule;

mod conflicting_properties;
mod deprecated_property;
mod deprecated_resource_type;
mod external_id_with_depends_on;
mod field_from_function;
mod get_param_type_mismatch;
mod invalid_deletion_policy;
mod invalid_property_type;
mod invalid_property_value;
mod invalid_resource_field_type;
mod missing_required_property;
mod missing_resource_type;
mod param_ref;
mod property_values;
mod resource_not_mapping;
pub(crate) mod shared;
mod slash_in_resource_name;
mod snapshot_unsupported;
mod unavailable_in_release;
mod unknown_attribute;
mod unknown_property;
mod unknown_resource_key;
mod unknown_resource_type;

pub(crate) const RULES: &[&Rule] = &[
    &resource_not_mapping::RULE,
    &missing_resource_type::RULE,
    &unknown_resource_key::RULE,
    &invalid_resource_field_type::RULE,
    &invalid_deletion_policy::RULE,
    &slash_in_resource_name::RULE,
    &external_id_with_depends_on::RULE,
    &unknown_resource_type::RULE,
    &unknown_property::RULE,
    &unknown_attribute::RULE,
    &deprecated_resource_type::RULE,
    &deprecated_property::RULE,
    &missing_required_property::RULE,
    &invalid_property_type::RULE,
    &invalid_property_value::RULE,
    &get_param_type_mismatch::RULE,
    &field_from_function::RULE,
    &snapshot_unsupported::RULE,
    &unavailable_in_release::RULE,
    &conflicting_properties::RULE,
];

pub(in crate::rules) use property_values::{Literal, literal};
