//! Every upgrade rule, one file each, grouped by the version step it belongs to.
//!
//! Codes: `U1xx` 2013-05-23 → 2014-10-16 (the CloudFormation functions go), `U3xx`
//! 2015-04-30 → 2015-10-15 (`Fn::Select` goes, `list_join`/`str_replace` widen), `U5xx`
//! 2016-04-08 → 2016-10-14 (conditions arrive), `U7xx` 2017-02-24 → 2017-09-01 (`repeat`
//! honours `permutations`), `U9xx` any step.

use std::sync::LazyLock;

use crate::upgrade::UpgradeRule;

mod fn_join;

pub(crate) static REGISTRY: LazyLock<Vec<&'static UpgradeRule>> = LazyLock::new(|| {
    let mut all: Vec<&'static UpgradeRule> = vec![&fn_join::RULE];
    all.sort_by_key(|rule| rule.code);
    all
});
