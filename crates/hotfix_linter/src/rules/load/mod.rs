//! `H0xx`: findings about the file itself, reported by the checker rather than a check.

use crate::rule::Rule;

mod invalid_template;
mod unused_suppression;

pub(crate) use invalid_template::INVALID_TEMPLATE;
pub(crate) use unused_suppression::UNUSED_SUPPRESSION;

pub(crate) const RULES: &[&Rule] = &[&INVALID_TEMPLATE, &UNUSED_SUPPRESSION];
