//! What the test files of `hotfix_yaml` share: the workspace, Heat's Python, numbers from the
//! environment.
#![allow(dead_code, reason = "each test file uses part of this module")]

use std::path::PathBuf;

pub(crate) fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Heat's Python: `HOTFIX_PYTHON`, else `.venv-heat` (scripts/setup-oracle.sh).
pub(crate) fn python() -> PathBuf {
    let path = std::env::var_os("HOTFIX_PYTHON")
        .map_or_else(|| workspace().join(".venv-heat/bin/python"), PathBuf::from);
    assert!(
        path.exists(),
        "this test needs Heat's Python environment at {} (run scripts/setup-oracle.sh, or set HOTFIX_PYTHON)",
        path.display()
    );
    path
}

/// The number in the environment variable `name`, else `default`.
pub(crate) fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number"))
    })
}
