//! `U3xx`: 2015-04-30 → 2015-10-15, where `Fn::Select` goes and `list_join`/`str_replace`
//! start accepting lists and maps.

use crate::upgrade::UpgradeRule;

mod edit;
mod fn_select;
mod join_replace_non_string;

pub(crate) const RULES: &[&UpgradeRule] = &[&fn_select::RULE, &join_replace_non_string::RULE];
