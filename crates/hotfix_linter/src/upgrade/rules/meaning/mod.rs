//! Upgrade rules of this family (see `upgrade/rules/mod.rs`).

use crate::upgrade::UpgradeRule;

mod conditions_take_effect;
mod data_becomes_function;
mod output_condition;
mod remove;
mod repeat_permutations;

pub(crate) const RULES: &[&UpgradeRule] = &[
    &output_condition::RULE,
    &conditions_take_effect::RULE,
    &repeat_permutations::RULE,
    &data_becomes_function::RULE,
];
