//! What the test files of `hotfix_yaml` share: the workspace and Heat's Python (those of
//! `hotfix_testkit`), numbers from the environment.
#![allow(
    dead_code,
    unused_imports,
    reason = "each test file uses part of this module"
)]

pub(crate) use hotfix_testkit::{python, workspace};

/// The number in the environment variable `name`, else `default`.
pub(crate) fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number"))
    })
}
