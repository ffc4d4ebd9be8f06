//! Rules of this family (see `rules/mod.rs` for the code ranges).

use crate::rule::Rule;

pub(crate) const RULES: &[&Rule] = &[];
