//! What the command-line tests have in common: copying a tree of files, reading one back, and
//! finding the shared folder.

#![allow(dead_code, reason = "each test file uses part of this module")]

use std::path::{Path, PathBuf};

/// Copies a folder and everything in it; the copies are writable (the shared corpus is
/// read-only on disk, and the tests rewrite their copies).
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("file system");
    for entry in std::fs::read_dir(from).expect("file system") {
        let entry = entry.expect("file system");
        let target = to.join(entry.file_name());
        let kind = entry.file_type().expect("file system");
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("file system");
            let mut permissions = std::fs::metadata(&target)
                .expect("file system")
                .permissions();
            #[allow(clippy::permissions_set_readonly_false, reason = "a private test copy")]
            permissions.set_readonly(false);
            std::fs::set_permissions(&target, permissions).expect("file system");
        }
    }
}

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
