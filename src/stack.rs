//! The file source of the cross-file checks, answered from disk: the libraries ask, the binary
//! reads.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hotfix_stack::{FileSource, StackPath};

/// Reads files from disk (paths as the run names them: relative to the working folder).
#[derive(Debug, Default)]
pub(crate) struct DiskSource;

impl FileSource for DiskSource {
    fn read(&self, path: &StackPath) -> Option<Arc<str>> {
        std::fs::read_to_string(path.as_str()).ok().map(Arc::from)
    }

    fn exists(&self, path: &StackPath) -> bool {
        Path::new(path.as_str()).is_file()
    }

    fn list(&self, dir: &StackPath) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(dir.as_str()) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

/// The path of a file of the run as the cross-file checks name it.
pub(crate) fn stack_path(path: &Path) -> StackPath {
    StackPath::new(&path.to_string_lossy())
}

/// The folders a run spans: each folder named on the command line; for each file named, its
/// project (the nearest folder above it with `.git` or `hotfix.toml`, else the working folder)
/// and its own folder. A missing file outside them is a deployment layout path, not a mistake.
pub(crate) fn roots(paths: &[PathBuf]) -> &'static [StackPath] {
    // One run (one process) has one set of paths.
    static ROOTS: std::sync::OnceLock<Vec<StackPath>> = std::sync::OnceLock::new();
    ROOTS.get_or_init(|| find_roots(paths))
}

fn find_roots(paths: &[PathBuf]) -> Vec<StackPath> {
    if paths.is_empty() {
        return vec![StackPath::new(".")];
    }
    let mut roots = Vec::new();
    for path in paths {
        if path.is_dir() {
            roots.push(stack_path(path));
            continue;
        }
        let project = path
            .ancestors()
            .skip(1)
            .take_while(|dir| !dir.as_os_str().is_empty())
            .find(|dir| dir.join(".git").exists() || dir.join("hotfix.toml").is_file())
            .map_or_else(|| StackPath::new("."), stack_path);
        roots.push(project);
        roots.push(stack_path(path).parent());
    }
    roots.sort();
    roots.dedup();
    roots
}
