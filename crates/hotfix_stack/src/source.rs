//! Where the analysis gets file text from: the seam between the libraries and the disk.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::{FileFacts, StackPath};

/// Answers the analysis' questions about files. The CLI answers from disk; a language server
/// would answer from the editor's unsaved buffers first. Library crates never read files
/// themselves.
pub trait FileSource: Sync {
    /// The text of the file at `path`, or `None` when there is no such file or it is not text.
    fn read(&self, path: &StackPath) -> Option<Arc<str>>;

    /// Whether a file exists at `path` (text or not). The default reads it.
    fn exists(&self, path: &StackPath) -> bool {
        self.read(path).is_some()
    }

    /// The names of the entries of the folder `dir` (empty when it cannot be listed), used to
    /// tell a file that a deployment generates (from a `*.j2.yaml` source beside it).
    fn list(&self, dir: &StackPath) -> Vec<String>;

    /// The facts of the file at `path` ([`FileFacts::of`] its text). A source that is asked
    /// often (the CLI: every template that names a nested one) keeps them, by path.
    fn facts(&self, path: &StackPath) -> Option<Arc<FileFacts>> {
        self.read(path).map(|text| Arc::new(FileFacts::of(&text)))
    }

    /// Where an absolute path of a deployment layout lies in the tree: a configuration's
    /// `[paths]` maps an install prefix (`/usr/share/openstack-tripleo-heat-templates`) to a
    /// folder. `None`: not mapped (the default).
    fn map_prefix(&self, _path: &StackPath) -> Option<StackPath> {
        None
    }

    /// The run's record of nested-template cycles, for a source whose files do not change
    /// while it is used (the CLI's): every template then asks it, and the graph is searched
    /// once in all. `None` (the default): each template searches from itself.
    fn cycles(&self) -> Option<&crate::Cycles> {
        None
    }

    /// Whether the source keeps facts ([`FileSource::remember`] is worth calling).
    fn keeps_facts(&self) -> bool {
        false
    }

    /// Keeps the facts of `path`, found by a caller that loaded the file anyway (the linter,
    /// for each template it lints), so that [`FileSource::facts`] need not load it again.
    fn remember(&self, _path: &StackPath, _facts: Arc<FileFacts>) {}
}

/// Files held in memory: for tests, and for sources that are not a disk.
#[derive(Debug, Default, Clone)]
pub struct MemorySource {
    files: BTreeMap<StackPath, Arc<str>>,
}

impl MemorySource {
    pub fn new() -> MemorySource {
        MemorySource::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: &str, text: &str) -> &mut MemorySource {
        self.files.insert(StackPath::new(path), Arc::from(text));
        self
    }

    /// Every file, in path order.
    pub fn paths(&self) -> impl Iterator<Item = &StackPath> {
        self.files.keys()
    }
}

impl FileSource for MemorySource {
    fn read(&self, path: &StackPath) -> Option<Arc<str>> {
        self.files.get(path).cloned()
    }

    fn list(&self, dir: &StackPath) -> Vec<String> {
        // Files and folders directly inside `dir`, as a disk lists them.
        let mut names: Vec<String> = self
            .files
            .keys()
            .filter(|p| p.starts_with(dir) && p != &dir)
            .filter_map(|p| {
                let rest = if dir.as_str() == "." {
                    p.as_str()
                } else {
                    p.as_str()
                        .get(dir.as_str().len()..)?
                        .trim_start_matches('/')
                };
                rest.split('/').next().map(str::to_owned)
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }
}
