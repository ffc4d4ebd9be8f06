//! The file source of the cross-file checks, answered from disk: the libraries ask, the
//! project reads.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use hotfix_stack::{FileFacts, FileSource, StackPath};

/// Reads files from disk (paths as the run names them: relative to the working folder), and
/// keeps each file's facts once read: many templates name the same nested ones.
#[derive(Debug, Default)]
pub struct DiskSource {
    facts: Mutex<HashMap<StackPath, Option<Arc<FileFacts>>>>,
    /// Whether each file asked about exists (the cycle search asks again and again).
    exists: Mutex<HashMap<StackPath, bool>>,
    /// Each folder's entries, once listed (a missing target's folder is listed for every
    /// environment entry and resource that names a file in it).
    listed: Mutex<HashMap<StackPath, Arc<[String]>>>,
    /// The configurations' `[paths]`: install prefixes and the folders they stand for (shared
    /// with the configurations, which add theirs as they are loaded).
    prefixes: Arc<Prefixes>,
    /// The nested-template cycles found so far (the files do not change during a run).
    cycles: hotfix_stack::Cycles,
    /// Whether files may change while the source is used (the editor's): nothing read is
    /// kept, only the `[paths]`.
    live: bool,
}

impl DiskSource {
    /// A source for files that change while it is used (the language server's): each question
    /// is answered from disk anew.
    pub fn live() -> DiskSource {
        DiskSource {
            live: true,
            ..DiskSource::default()
        }
    }

    /// The table of install prefixes this source reads paths under: the configurations of the
    /// run add their `[paths]` to it as they are loaded.
    pub fn prefixes(&self) -> Arc<Prefixes> {
        Arc::clone(&self.prefixes)
    }
}

/// The configurations' `[paths]`: absolute install prefixes and the folders of the tree they
/// stand for, the longest prefix first.
#[derive(Debug, Default)]
pub struct Prefixes(Mutex<Vec<(StackPath, StackPath)>>);

impl Prefixes {
    /// Reads paths under the absolute `prefix` in `folder` (the first folder given for a
    /// prefix is kept).
    pub fn add(&self, prefix: StackPath, folder: StackPath) {
        if let Ok(mut prefixes) = self.0.lock()
            && !prefixes.iter().any(|(p, _)| *p == prefix)
        {
            prefixes.push((prefix, folder));
            // The longest prefix first.
            prefixes.sort_by_key(|(p, _)| std::cmp::Reverse(p.as_str().len()));
        }
    }

    /// The path of the tree that `path` (under an install prefix) stands for.
    pub fn map(&self, path: &StackPath) -> Option<StackPath> {
        let prefixes = self.0.lock().ok()?;
        let (prefix, folder) = prefixes.iter().find(|(p, _)| path.starts_with(p))?;
        let rest = path
            .as_str()
            .get(prefix.as_str().len()..)?
            .trim_start_matches('/');
        Some(if rest.is_empty() {
            folder.clone()
        } else {
            folder.join(rest)
        })
    }
}

/// The names in a folder, sorted (none when it cannot be listed).
pub fn list_folder(dir: &StackPath) -> Vec<String> {
    match std::fs::read_dir(dir.as_str()) {
        Ok(entries) => {
            let mut names: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
        Err(_) => Vec::new(),
    }
}

/// How many files' facts (and answers about existence) the disk source keeps: enough for the
/// nested templates a tree's parents share, bounded so that memory does not grow with the tree
/// (full, it starts again).
const KEPT_FACTS: usize = 1024;

/// Inserts into a cache of at most `bound` entries (emptied when full).
fn keep<K: std::hash::Hash + Eq, V>(cache: &mut HashMap<K, V>, key: K, value: V, bound: usize) {
    if cache.len() >= bound {
        cache.clear();
    }
    cache.insert(key, value);
}

impl FileSource for DiskSource {
    fn read(&self, path: &StackPath) -> Option<Arc<str>> {
        crate::read::text_within(Path::new(path.as_str()), crate::read::BOUND)
            .ok()
            .map(Arc::from)
    }

    fn exists(&self, path: &StackPath) -> bool {
        if self.live {
            return Path::new(path.as_str()).is_file();
        }
        if let Some(&known) = self.exists.lock().ok().as_ref().and_then(|m| m.get(path)) {
            return known;
        }
        let exists = Path::new(path.as_str()).is_file();
        if let Ok(mut known) = self.exists.lock() {
            keep(&mut known, path.clone(), exists, 4 * KEPT_FACTS);
        }
        exists
    }

    fn facts(&self, path: &StackPath) -> Option<Arc<FileFacts>> {
        if self.live {
            return self.read(path).map(|text| Arc::new(FileFacts::of(&text)));
        }
        if let Some(known) = self.facts.lock().ok()?.get(path) {
            return known.clone();
        }
        // Read outside the lock: other threads go on meanwhile (two may read one file once
        // each; the facts are the same).
        let facts = self.read(path).map(|text| Arc::new(FileFacts::of(&text)));
        keep(
            &mut *self.facts.lock().ok()?,
            path.clone(),
            facts.clone(),
            KEPT_FACTS,
        );
        facts
    }

    fn keeps_facts(&self) -> bool {
        !self.live
    }

    fn cycles(&self) -> Option<&hotfix_stack::Cycles> {
        (!self.live).then_some(&self.cycles)
    }

    fn map_prefix(&self, path: &StackPath) -> Option<StackPath> {
        self.prefixes.map(path)
    }

    fn remember(&self, path: &StackPath, facts: Arc<FileFacts>) {
        if self.live {
            return;
        }
        if let Ok(mut known) = self.facts.lock()
            && !known.contains_key(path)
        {
            keep(&mut known, path.clone(), Some(facts), KEPT_FACTS);
        }
    }

    fn list(&self, dir: &StackPath) -> Vec<String> {
        if self.live {
            return list_folder(dir);
        }
        if let Some(known) = self
            .listed
            .lock()
            .ok()
            .as_ref()
            .and_then(|m| m.get(dir).cloned())
        {
            return known.to_vec();
        }
        let names: Arc<[String]> = list_folder(dir).into();
        if let Ok(mut listed) = self.listed.lock() {
            keep(&mut listed, dir.clone(), names.clone(), KEPT_FACTS / 4);
        }
        names.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_source_answers_from_disk_each_time_and_a_run_s_keeps_what_it_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("t.yaml");
        let path = crate::stack_path(&file);
        let folder = crate::stack_path(dir.path());
        let (live, run) = (DiskSource::live(), DiskSource::default());
        for source in [&live, &run] {
            assert!(!source.exists(&path));
            assert!(source.list(&folder).is_empty());
        }
        std::fs::write(&file, "heat_template_version: rocky\n").expect("write");
        assert!(live.exists(&path));
        assert_eq!(live.list(&folder), ["t.yaml"]);
        assert!(!run.exists(&path));
        assert!(run.list(&folder).is_empty());
        let kind = |source: &DiskSource| source.facts(&path).map(|facts| facts.kind.clone());
        assert_eq!(kind(&live), Some(hotfix_stack::FileKind::Template));
        assert_eq!(kind(&run), Some(hotfix_stack::FileKind::Template));
        std::fs::write(&file, "resource_registry: {}\n").expect("write");
        assert_eq!(kind(&live), Some(hotfix_stack::FileKind::Environment));
        assert_eq!(kind(&run), Some(hotfix_stack::FileKind::Template));
        assert!(live.cycles().is_none() && !live.keeps_facts());
    }
}
