//! The files a run considers: the paths named on the command line as given, folders walked
//! (hidden files skipped, `.gitignore` honoured), each with the configuration that applies to
//! it, and how much of each is read to tell what it is.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{Config, Configs, Result};
use crate::kind::{Kind, SNIFF, classify, has_template_extension, sniff};

/// A file found on the command line or by walking a folder.
#[derive(Debug)]
pub struct Candidate {
    pub path: PathBuf,
    /// Named on the command line: always linted.
    pub explicit: bool,
    /// The configuration that applies to it.
    pub config: Arc<Config>,
}

impl Candidate {
    /// Its path as the user would write it: relative, without a leading `./`.
    pub fn display(&self) -> String {
        let text = crate::paths::escaped(&self.path);
        text.strip_prefix("./").unwrap_or(&text).to_owned()
    }

    /// What it is by content ([`crate::kind_of`]): with `prove`, a file of another extension
    /// than a template's must load as a YAML mapping.
    pub fn kind(&self, bytes: &[u8], prove: bool) -> Kind {
        crate::kind_of(Some(&self.config), &self.path, bytes, prove)
    }
}

/// A candidate's bytes, or why it is not read past its first [`SNIFF`] bytes (a walked file of
/// another extension than a template's, see [`sniff`]).
pub fn read(candidate: &Candidate) -> std::io::Result<Result<crate::read::Input, Kind>> {
    if candidate.explicit {
        return crate::read::file(&candidate.path).map(Ok);
    }
    if has_template_extension(&candidate.path) || candidate.config.is_k2hr3(&candidate.path) {
        return crate::read::regular(&candidate.path).map(Ok);
    }
    crate::read::file_unless(&candidate.path, SNIFF, |head| sniff(&candidate.path, head))
}

/// What a walked file too large to read whole is, by its first bytes: with a template's
/// extension, what they show (a template is then reported with Heat's size message); of
/// another extension, never a template, which it cannot be proved to be without loading it.
pub fn kind_of_large(candidate: &Candidate, head: &[u8]) -> Kind {
    let kind = classify(&candidate.path, head);
    if has_template_extension(&candidate.path)
        || !matches!(kind, Kind::Template | Kind::Environment | Kind::Blueprint)
    {
        kind
    } else {
        Kind::Large
    }
}

/// What a walk meets: a file to consider, or a folder it could not read.
#[derive(Debug)]
pub enum Found {
    Candidate(Candidate),
    /// `cannot read folder …`: never a silent pass over what could not be read.
    Error(String),
}

/// The files to consider: explicit paths as given (files, and also FIFOs, `/dev/stdin` or a
/// process substitution: anything that is not a folder), folders walked (hidden files skipped,
/// `.gitignore` honoured even outside a git repository), sorted, without duplicates. Each
/// file's configuration (its nearest `hotfix.toml`) decides: its `exclude` applies to both,
/// its `include` to walked files.
///
/// They are found as they are needed: a run holds one file name at a
/// time, not a list of every file in the tree. The walk of one folder
/// visits each folder's entries sorted by name, depth first, which is the order of their
/// paths; disjoint paths are walked in the order of their names. When paths overlap (a folder
/// and a folder or file inside it), the files are collected first and then sorted without
/// duplicates.
pub struct Walker<'c> {
    configs: &'c mut Configs,
    /// The paths still to walk.
    roots: std::vec::IntoIter<PathBuf>,
    /// The walk of the current folder.
    folder: Option<ignore::Walk>,
    /// The files of a folder as the walk for the tree's environments listed them, for the
    /// folder it listed ([`Walker::listed`]).
    listing: Option<crate::tree::Listing>,
    /// The files of the current folder, so listed: the folder as the run names it, the
    /// folder as the listing names it, and the files still to consider.
    listed: Option<(PathBuf, PathBuf, std::vec::IntoIter<PathBuf>)>,
    /// What a collected walk found, in order.
    collected: std::vec::IntoIter<Found>,
    /// The folder of the last file walked, and its configuration: a walk meets a folder's
    /// files together, and its configuration is asked for once for them.
    last: Option<(PathBuf, Arc<Config>)>,
}

impl std::fmt::Debug for Walker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walker")
            .field("roots", &self.roots)
            .field("walking", &self.folder.is_some())
            .finish_non_exhaustive()
    }
}

impl<'c> Walker<'c> {
    /// Walks `paths` (as the command line's paths gives them: existing, without duplicates).
    pub fn new(paths: &[PathBuf], configs: &'c mut Configs) -> Result<Walker<'c>> {
        Walker::listed(paths, configs, None)
    }

    /// [`Walker::new`], with the files of a folder as the walk for the tree's environments
    /// listed them: the walk of that folder (named by any of the paths, as the system resolves
    /// it) takes them instead of listing the folder again. It walks with the same rules (hidden
    /// files skipped, `.gitignore` honoured even outside a git repository) and lists only when
    /// it read every folder, so the files and their order are those of a walk.
    pub fn listed(
        paths: &[PathBuf],
        configs: &'c mut Configs,
        listing: Option<crate::tree::Listing>,
    ) -> Result<Walker<'c>> {
        let mut roots = paths.to_vec();
        roots.sort_by_cached_key(|root| crate::paths::normalize(root));
        if overlap(&roots) {
            return Walker::collected(paths, configs);
        }
        Ok(Walker {
            configs,
            roots: roots.into_iter(),
            folder: None,
            listing,
            listed: None,
            collected: Vec::new().into_iter(),
            last: None,
        })
    }

    /// Everything found under `paths`, collected, sorted and without duplicates.
    fn collected(paths: &[PathBuf], configs: &'c mut Configs) -> Result<Walker<'c>> {
        let roots: Vec<PathBuf> = paths.to_vec();
        let mut walker = Walker {
            configs,
            roots: roots.into_iter(),
            folder: None,
            listing: None,
            listed: None,
            collected: Vec::new().into_iter(),
            last: None,
        };
        let mut out = Vec::new();
        let mut errors = Vec::new();
        for found in walker.by_ref() {
            match found? {
                Found::Candidate(candidate) => out.push(candidate),
                Found::Error(error) => errors.push(error),
            }
        }
        // One file once, however it was reached (`t.yaml` named and `./t.yaml` walked): two
        // runs on one file would print it twice, and could write it from two threads.
        out.sort_by_cached_key(|c| crate::paths::normalize(&c.path));
        out.dedup_by(|later, kept| {
            let same = crate::paths::normalize(&later.path) == crate::paths::normalize(&kept.path);
            if same {
                kept.explicit |= later.explicit;
            }
            same
        });
        errors.sort();
        errors.dedup();
        let found: Vec<Found> = out
            .into_iter()
            .map(Found::Candidate)
            .chain(errors.into_iter().map(Found::Error))
            .collect();
        walker.collected = found.into_iter();
        Ok(walker)
    }

    /// The configuration of the files directly in `folder`: the last one's, when the file
    /// before was in the same folder.
    fn folder_config(
        last: &mut Option<(PathBuf, Arc<Config>)>,
        configs: &mut Configs,
        folder: &Path,
    ) -> Result<Arc<Config>> {
        if let Some((known, config)) = last.as_ref()
            && known == folder
        {
            return Ok(Arc::clone(config));
        }
        let config = configs.for_folder(folder)?;
        *last = Some((folder.to_path_buf(), Arc::clone(&config)));
        Ok(config)
    }

    /// The next entry of the current folder's walk that is a file to consider.
    fn next_in_folder(&mut self) -> Option<Result<Found>> {
        loop {
            let path = if let Some((named, as_listed, files)) = self.listed.as_mut() {
                if let Some(file) = files.next() {
                    as_named(named, as_listed, file)
                } else {
                    self.listed = None;
                    return None;
                }
            } else {
                let folder = self.folder.as_mut()?;
                match folder.next() {
                    Some(Ok(entry)) if entry.file_type().is_some_and(|t| t.is_file()) => {
                        entry.into_path()
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(err)) => return Some(Ok(Found::Error(walk_error(&err)))),
                    None => {
                        self.folder = None;
                        return None;
                    }
                }
            };
            let folder_of = path.parent().unwrap_or(Path::new(""));
            let config = match Walker::folder_config(&mut self.last, self.configs, folder_of) {
                Ok(config) => config,
                Err(err) => return Some(Err(err)),
            };
            if let Some(candidate) = walked_candidate(config, path) {
                return Some(Ok(Found::Candidate(candidate)));
            }
        }
    }

    /// The candidates among the largest files of `listing` ([`crate::tree::Listing::largest`]),
    /// as a walk of `named` (the folder it lists, as the run names it) finds them: the lint
    /// starts them first. A file whose configuration cannot be loaded is left to the walk,
    /// which reports it at its place.
    pub fn largest(
        configs: &mut Configs,
        named: &Path,
        listing: &crate::tree::Listing,
    ) -> Vec<Candidate> {
        let mut found = Vec::new();
        for file in listing.largest() {
            let path = as_named(named, listing.root(), file.clone());
            if let Ok(config) = configs.for_folder(path.parent().unwrap_or(Path::new(""))) {
                found.extend(walked_candidate(config, path));
            }
        }
        found
    }
}

/// The walked file at `path`, of the folder whose configuration is `config`, as a candidate:
/// every file is considered (told by content as it is read), unless the configuration's
/// `include` says which.
fn walked_candidate(config: Arc<Config>, path: PathBuf) -> Option<Candidate> {
    let file = path.as_path();
    let wanted = config.is_k2hr3(file) || config.included(file);
    (wanted && !config.excluded(file)).then_some(Candidate {
        path,
        explicit: false,
        config,
    })
}

impl Iterator for Walker<'_> {
    type Item = Result<Found>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(found) = self.collected.next() {
            return Some(Ok(found));
        }
        loop {
            if let Some(found) = self.next_in_folder() {
                return Some(found);
            }
            let path = self.roots.next()?;
            if path.is_dir() {
                if let Some(listing) = self.listing.take_if(|listing| lists(listing, &path)) {
                    let as_listed = listing.root().to_path_buf();
                    self.listed = Some((path, as_listed, listing.into_files().into_iter()));
                    continue;
                }
                self.folder = Some(
                    ignore::WalkBuilder::new(&path)
                        .hidden(true)
                        .git_ignore(true)
                        .require_git(false)
                        .sort_by_file_name(std::cmp::Ord::cmp)
                        .build(),
                );
                continue;
            }
            let config = match self.configs.for_file(&path) {
                Ok(config) => config,
                Err(err) => return Some(Err(err)),
            };
            if !config.excluded(&path) {
                return Some(Ok(Found::Candidate(Candidate {
                    path,
                    explicit: true,
                    config,
                })));
            }
        }
    }
}

/// The path of a `file` of a [`crate::tree::Listing`] as the run names it: `named` is the
/// folder as the run names it, `as_listed` as the walk for the environments named it.
fn as_named(named: &Path, as_listed: &Path, file: PathBuf) -> PathBuf {
    if named.as_os_str() == as_listed.as_os_str() {
        return file;
    }
    match file.strip_prefix(as_listed) {
        Ok(inside) => named.join(inside),
        Err(_) => file,
    }
}

/// Whether `listing` lists the folder at `path`: the same folder, as the system resolves both.
fn lists(listing: &crate::tree::Listing, path: &Path) -> bool {
    let Ok(cwd) = std::env::current_dir() else {
        return false;
    };
    crate::paths::absolute(&cwd, listing.root()) == crate::paths::absolute(&cwd, path)
}

/// Whether one of these paths is inside another (sorted by their normalized form).
fn overlap(roots: &[PathBuf]) -> bool {
    let Ok(cwd) = std::env::current_dir() else {
        return roots.len() > 1;
    };
    let mut absolute: Vec<PathBuf> = roots
        .iter()
        .map(|root| crate::paths::normalize(&cwd.join(root)))
        .collect();
    absolute.sort();
    absolute
        .windows(2)
        .any(|pair| pair[1].starts_with(&pair[0]))
}

/// `cannot read folder PATH: REASON` for an error of the walk.
fn walk_error(err: &ignore::Error) -> String {
    let mut path = None;
    let mut inner = err;
    loop {
        match inner {
            ignore::Error::WithPath { path: p, err } => {
                path.get_or_insert_with(|| p.clone());
                inner = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                inner = err;
            }
            _ => break,
        }
    }
    match path {
        Some(path) => format!("cannot read folder {}: {inner}", path.display()),
        None => format!("cannot walk the folders: {inner}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a collected walk finds, as a list.
    fn walk(paths: &[PathBuf], configs: &mut Configs) -> Result<Vec<Candidate>> {
        let mut candidates = Vec::new();
        for found in Walker::collected(paths, configs)? {
            if let Found::Candidate(candidate) = found? {
                candidates.push(candidate);
            }
        }
        Ok(candidates)
    }

    /// The configurations of a run with `--no-config` from `cwd`.
    fn no_config(cwd: &Path) -> Configs {
        Configs::new(
            true,
            None,
            cwd,
            crate::config::Overrides::default(),
            Arc::default(),
        )
        .expect("configs")
    }

    /// The paths of the files `walker` finds (none of its folders failing).
    fn paths_of(walker: Walker<'_>) -> Vec<PathBuf> {
        walker
            .map(|found| match found.expect("found") {
                Found::Candidate(candidate) => candidate.path,
                Found::Error(error) => panic!("{error}"),
            })
            .collect()
    }

    /// The paths of what a walk finds, and whether it streamed (did not collect first).
    fn found(paths: &[PathBuf]) -> (Vec<PathBuf>, bool) {
        let mut configs = no_config(&std::env::current_dir().expect("cwd"));
        let walker = Walker::new(paths, &mut configs).expect("walker");
        let streamed = walker.collected.len() == 0;
        (paths_of(walker), streamed)
    }

    #[test]
    fn a_streamed_walk_finds_what_a_collected_one_does_in_the_same_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for file in [
            "a/x.yaml",
            "a/sub/y.yaml",
            "a/sub-z/y.yaml",
            "a b/w.yaml",
            "a.yaml",
            "b/z.json",
            "b/.hidden.yaml",
            "b/notes.txt",
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "heat_template_version: pike\n").expect("write");
        }
        let (a, b, a_b, a_yaml) = (
            root.join("a"),
            root.join("b"),
            root.join("a b"),
            root.join("a.yaml"),
        );
        for paths in [
            vec![b.clone(), a.clone()],
            vec![a_yaml.clone(), a_b.clone(), b.clone(), a.clone()],
            vec![root.to_path_buf()],
        ] {
            let (streamed, did_stream) = found(&paths);
            assert!(did_stream, "{paths:?}");
            let mut configs = no_config(root);
            let collected: Vec<PathBuf> = walk(&paths, &mut configs)
                .expect("walk")
                .into_iter()
                .map(|c| c.path)
                .collect();
            assert_eq!(streamed, collected, "{paths:?}");
        }
        let (all, _) = found(&[root.to_path_buf()]);
        let names: Vec<String> = all
            .iter()
            .map(|p| p.strip_prefix(root).expect("inside").display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "a/sub/y.yaml",
                "a/sub-z/y.yaml",
                "a/x.yaml",
                "a b/w.yaml",
                "a.yaml",
                "b/notes.txt",
                "b/z.json"
            ]
        );
        // A folder and a file or folder inside it: collected, each file once.
        let (overlapping, did_stream) = found(&[a.join("x.yaml"), root.to_path_buf(), a]);
        assert!(!did_stream);
        assert_eq!(overlapping, all);
    }

    #[test]
    fn a_folder_listed_by_the_walk_for_environments_is_not_walked_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::write(root.join("on-disk.yaml"), "a: 1\n").expect("write");
        let mut configs = no_config(root);
        // What the listing holds is what the walk finds (here a file not on disk, to tell).
        let listing = |files: &[&str]| {
            Some(crate::tree::Listing::new(
                root.to_path_buf(),
                files.iter().map(|f| root.join(f)).collect(),
            ))
        };
        let walker = Walker::listed(&[root.to_path_buf()], &mut configs, listing(&["x.yaml"]));
        assert_eq!(paths_of(walker.expect("walker")), [root.join("x.yaml")]);
        // The folder named otherwise: its files named as the walk of that name would.
        let named = root.join(".");
        let walker = Walker::listed(
            std::slice::from_ref(&named),
            &mut configs,
            listing(&["s/x.yaml"]),
        );
        assert_eq!(paths_of(walker.expect("walker")), [named.join("s/x.yaml")]);
        // Another folder: walked.
        let other = root.join("sub");
        std::fs::create_dir(&other).expect("mkdir");
        std::fs::write(other.join("y.yaml"), "a: 1\n").expect("write");
        let walker = Walker::listed(
            std::slice::from_ref(&other),
            &mut configs,
            listing(&["x.yaml"]),
        );
        assert_eq!(paths_of(walker.expect("walker")), [other.join("y.yaml")]);
    }

    #[test]
    fn a_walk_asks_for_a_folder_s_configuration_once_not_for_each_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        for folder in ["a", "b", "b/c"] {
            std::fs::create_dir_all(root.join(folder)).expect("mkdir");
            for i in 0..30 {
                std::fs::write(root.join(format!("{folder}/t{i:02}.yaml")), "x: 1\n")
                    .expect("write");
            }
        }
        std::fs::write(root.join("b/hotfix.toml"), "ignore = [\"H101\"]\n").expect("write");
        let mut configs = Configs::new(
            false,
            None,
            root,
            crate::config::Overrides::default(),
            Arc::default(),
        )
        .expect("configs");
        let candidates: Vec<Candidate> = Walker::new(&[root.to_path_buf()], &mut configs)
            .expect("walker")
            .map(|found| match found.expect("found") {
                Found::Candidate(candidate) => candidate,
                Found::Error(error) => panic!("{error}"),
            })
            .collect();
        // Every file, `b/hotfix.toml` too (each is told by content when read).
        assert_eq!(candidates.len(), 91);
        // Once for each folder: `a`, `b/c`, `b` (whose files sort after `c`).
        assert_eq!(configs.asked(), 3);
        // Each file has the configuration it would have been given alone.
        for candidate in &candidates {
            let alone = configs.for_file(&candidate.path).expect("config");
            assert!(
                Arc::ptr_eq(&alone, &candidate.config),
                "{}",
                candidate.display()
            );
        }
        let from_b = candidates
            .iter()
            .filter(|c| c.config.path.as_deref() == Some(root.join("b/hotfix.toml").as_path()))
            .count();
        assert_eq!(from_b, 61);
    }
}
