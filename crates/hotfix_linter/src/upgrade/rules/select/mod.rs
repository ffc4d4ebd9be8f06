//! Upgrade rules of this family (see `upgrade/rules/mod.rs`).

use crate::upgrade::UpgradeRule;

pub(crate) const RULES: &[&UpgradeRule] = &[];
