//! Every upgrade rule, one file each, grouped by the version step it belongs to.
//!
//! Codes: `U1xx` 2013-05-23 → 2014-10-16 (the CloudFormation functions go: `cfn/`), `U3xx`
//! 2015-04-30 → 2015-10-15 (`Fn::Select` goes, `list_join`/`str_replace` widen: `select/`),
//! `U5xx`, `U7xx`, `U9xx`: syntax whose meaning changes with the version (`meaning/`).

use std::sync::LazyLock;

use crate::upgrade::UpgradeRule;

mod cfn;
mod meaning;
mod select;

pub(crate) static REGISTRY: LazyLock<Vec<&'static UpgradeRule>> = LazyLock::new(|| {
    let mut all: Vec<&'static UpgradeRule> = [cfn::RULES, select::RULES, meaning::RULES].concat();
    all.sort_by_key(|rule| rule.code);
    all
});
