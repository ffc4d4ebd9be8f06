//! What the command-line tests have in common: copying a tree of files, reading one back, and
//! finding the shared folder.

#![allow(
    dead_code,
    unused_imports,
    reason = "each test file uses part of this module"
)]

use std::path::{Path, PathBuf};

/// Copies a folder and everything in it (writable copies).
pub(crate) use hotfix_testkit::copy_tree;

/// Every file below `dir` with its bytes, sorted by path (relative to `dir`).
pub(crate) fn snapshot_tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).expect("file system") {
            let path = entry.expect("file system").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(dir).expect("inside").to_path_buf();
                out.push((relative, std::fs::read(&path).expect("file system")));
            }
        }
    }
    out.sort();
    out
}

/// The shared folder: `HOTFIX_SHARED`, or `../shared` beside the repository.
pub(crate) use hotfix_testkit::shared;

/// The template corpus in the shared folder; a test that needs it fails loudly without it.
pub(crate) fn corpus() -> PathBuf {
    let corpus = shared().join("corpus");
    assert!(
        corpus.is_dir(),
        "this test needs the corpus at {} (set HOTFIX_SHARED)",
        corpus.display()
    );
    corpus
}
