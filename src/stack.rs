//! The file source of the cross-file checks, answered from disk: the libraries ask, the binary
//! reads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use hotfix_stack::{FileFacts, FileSource, StackPath};

/// Reads files from disk (paths as the run names them: relative to the working folder), and
/// keeps each file's facts once read: many templates name the same nested ones.
#[derive(Debug, Default)]
pub(crate) struct DiskSource {
    facts: Mutex<HashMap<StackPath, Option<Arc<FileFacts>>>>,
    /// Whether each file asked about exists (the cycle search asks again and again).
    exists: Mutex<HashMap<StackPath, bool>>,
}

/// The run's one disk source (its cache lives as long as the run).
pub(crate) fn disk() -> &'static DiskSource {
    static DISK: OnceLock<DiskSource> = OnceLock::new();
    DISK.get_or_init(DiskSource::default)
}

impl FileSource for DiskSource {
    fn read(&self, path: &StackPath) -> Option<Arc<str>> {
        std::fs::read_to_string(path.as_str()).ok().map(Arc::from)
    }

    fn exists(&self, path: &StackPath) -> bool {
        if let Some(&known) = self.exists.lock().ok().as_ref().and_then(|m| m.get(path)) {
            return known;
        }
        let exists = Path::new(path.as_str()).is_file();
        if let Ok(mut known) = self.exists.lock() {
            known.insert(path.clone(), exists);
        }
        exists
    }

    fn facts(&self, path: &StackPath) -> Option<Arc<FileFacts>> {
        if let Some(known) = self.facts.lock().ok()?.get(path) {
            return known.clone();
        }
        // Read outside the lock: other threads go on meanwhile (two may read one file once
        // each; the facts are the same).
        let facts = self.read(path).map(|text| Arc::new(FileFacts::of(&text)));
        self.facts.lock().ok()?.insert(path.clone(), facts.clone());
        facts
    }

    fn keeps_facts(&self) -> bool {
        true
    }

    fn remember(&self, path: &StackPath, facts: Arc<FileFacts>) {
        if let Ok(mut known) = self.facts.lock() {
            known.entry(path.clone()).or_insert(Some(facts));
        }
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
    static ROOTS: OnceLock<Vec<StackPath>> = OnceLock::new();
    ROOTS.get_or_init(|| find_roots(paths))
}

/// [`roots`] of these paths, worked out anew (the language server asks for each file).
pub(crate) fn find_roots(paths: &[PathBuf]) -> Vec<StackPath> {
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
