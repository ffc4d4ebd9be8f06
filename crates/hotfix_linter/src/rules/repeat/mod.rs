//! `H9xx`: `repeat`.

use crate::rule::Rule;

mod for_each_not_mapping;
mod for_each_value_not_list;
mod integer_in_for_each;
mod permutations_ignored;
mod permutations_not_boolean;
mod permutations_unequal_lengths;
mod shared;
mod unused_repeat_placeholder;

pub(crate) const RULES: &[&Rule] = &[
    &for_each_not_mapping::RULE,
    &for_each_value_not_list::RULE,
    &permutations_ignored::RULE,
    &permutations_not_boolean::RULE,
    &permutations_unequal_lengths::RULE,
    &unused_repeat_placeholder::RULE,
    &integer_in_for_each::RULE,
];
