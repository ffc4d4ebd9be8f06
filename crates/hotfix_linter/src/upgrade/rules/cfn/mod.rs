//! `U1xx`: 2013-05-23 → 2014-10-16, where the CloudFormation-style functions go.

use crate::upgrade::UpgradeRule;

mod fn_join;

pub(crate) const RULES: &[&UpgradeRule] = &[&fn_join::RULE];
