//! `U1xx`: 2013-05-23 → 2014-10-16, where the CloudFormation-style functions go.

use crate::upgrade::UpgradeRule;

mod fn_base64;
mod fn_get_azs;
mod fn_join;
mod fn_member_list_to_map;
mod fn_ref;
mod fn_replace;
mod fn_resource_facade;
mod fn_split;
mod group_get_attr_path;
mod util;

pub(crate) const RULES: &[&UpgradeRule] = &[
    &fn_ref::RULE,
    &fn_join::RULE,
    &fn_replace::RULE,
    &fn_base64::RULE,
    &fn_resource_facade::RULE,
    &fn_split::RULE,
    &fn_get_azs::RULE,
    &fn_member_list_to_map::RULE,
    &group_get_attr_path::RULE,
];
