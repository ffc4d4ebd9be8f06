//! Which files to lint: walking folders, and telling templates from other YAML.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{Config, Configs};

/// A file found on the command line or by walking a folder.
#[derive(Debug)]
pub(crate) struct Candidate {
    pub(crate) path: PathBuf,
    /// Named on the command line: always linted.
    pub(crate) explicit: bool,
    /// The configuration that applies to it.
    pub(crate) config: Arc<Config>,
}

/// What a file is, judged by its name and content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A HOT template (a top-level `heat_template_version`).
    Template,
    /// A Cloudify blueprint (a top-level `tosca_definitions_version: cloudify_dsl_…`).
    Blueprint,
    /// A Heat environment file (`resource_registry`, `parameter_defaults`, …).
    Environment,
    /// A Jinja2 source, which is not YAML until rendered.
    Jinja,
    /// Some other YAML or JSON file.
    Other,
}

impl Kind {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Kind::Template => "a template",
            Kind::Blueprint => "a Cloudify blueprint",
            Kind::Environment => "an environment file",
            Kind::Jinja => "a Jinja2 source (not YAML until rendered)",
            Kind::Other => "not a HOT template (no top-level heat_template_version)",
        }
    }
}

const EXTENSIONS: [&str; 4] = ["yaml", "yml", "json", "template"];

/// What a walk meets: a file to consider, or a folder it could not read.
#[derive(Debug)]
pub(crate) enum Found {
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
pub(crate) struct Walker<'c> {
    configs: &'c mut Configs,
    /// The paths still to walk.
    roots: std::vec::IntoIter<PathBuf>,
    /// The walk of the current folder.
    folder: Option<ignore::Walk>,
    /// What a collected walk found, in order.
    collected: std::vec::IntoIter<Found>,
}

impl<'c> Walker<'c> {
    /// Walks `paths` (as [`crate::config::paths`] gives them: existing, without duplicates).
    pub(crate) fn new(paths: &[PathBuf], configs: &'c mut Configs) -> anyhow::Result<Walker<'c>> {
        let mut roots = paths.to_vec();
        roots.sort_by_cached_key(|root| crate::paths::normalize(root));
        if overlap(&roots) {
            return Walker::collected(paths, configs);
        }
        Ok(Walker {
            configs,
            roots: roots.into_iter(),
            folder: None,
            collected: Vec::new().into_iter(),
        })
    }

    /// Everything found under `paths`, collected, sorted and without duplicates.
    fn collected(paths: &[PathBuf], configs: &'c mut Configs) -> anyhow::Result<Walker<'c>> {
        let roots: Vec<PathBuf> = paths.to_vec();
        let mut walker = Walker {
            configs,
            roots: roots.into_iter(),
            folder: None,
            collected: Vec::new().into_iter(),
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

    /// The next entry of the current folder's walk that is a file to consider.
    fn next_in_folder(&mut self) -> Option<anyhow::Result<Found>> {
        let folder = self.folder.as_mut()?;
        for entry in folder.by_ref() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => return Some(Ok(Found::Error(walk_error(&err)))),
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let file = entry.path();
            let config = match self.configs.for_file(file) {
                Ok(config) => config,
                Err(err) => return Some(Err(err)),
            };
            let wanted = if config.is_k2hr3(file) {
                true
            } else if config.include.is_some() {
                config.included(file)
            } else {
                file.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| EXTENSIONS.contains(&e))
            };
            if wanted && !config.excluded(file) {
                return Some(Ok(Found::Candidate(Candidate {
                    path: entry.into_path(),
                    explicit: false,
                    config,
                })));
            }
        }
        self.folder = None;
        None
    }
}

impl Iterator for Walker<'_> {
    type Item = anyhow::Result<Found>;

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

/// A first walk: how many files there are, and whether a report (`--output`,
/// `--write-baseline`) would replace one of them (refused, before anything is written).
pub(crate) fn prescan(
    paths: &[PathBuf],
    configs: &mut Configs,
    reports: &[(&str, Option<&Path>)],
) -> anyhow::Result<usize> {
    let reports: Vec<(&str, Identity)> = reports
        .iter()
        .filter_map(|(flag, path)| Some((*flag, Identity::of(path.as_ref()?)?)))
        .collect();
    let mut total = 0;
    for found in Walker::new(paths, configs)? {
        let Found::Candidate(candidate) = found? else {
            continue;
        };
        total += 1;
        for (flag, report) in &reports {
            if report.is(&candidate.path) {
                return Err(anyhow::anyhow!(
                    "{flag} {} is one of the files hotfix reads; write it elsewhere",
                    candidate.display()
                ));
            }
        }
    }
    Ok(total)
}

/// What a file is on disk, whatever path leads to it (a symbolic link, `..`).
#[derive(Debug)]
pub(crate) struct Identity {
    #[cfg(unix)]
    id: (u64, u64),
    #[cfg(not(unix))]
    id: PathBuf,
}

impl Identity {
    /// The identity of an existing file.
    pub(crate) fn of(path: &Path) -> Option<Identity> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let metadata = std::fs::metadata(path).ok()?;
            Some(Identity {
                id: (metadata.dev(), metadata.ino()),
            })
        }
        #[cfg(not(unix))]
        {
            Some(Identity {
                id: std::fs::canonicalize(path).ok()?,
            })
        }
    }

    /// Whether `path` leads to this file.
    pub(crate) fn is(&self, path: &Path) -> bool {
        Identity::of(path).is_some_and(|other| other.id == self.id)
    }
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

/// Tells a template from an environment file, a Jinja2 source or other YAML, cheaply: by the
/// file name and the top-level keys at the start of lines.
pub(crate) fn classify(path: &Path, bytes: &[u8]) -> Kind {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("j2"))
        || name.contains(".j2.")
    {
        return Kind::Jinja;
    }
    // A K2HR3 template (`hotfix_linter::lint` gives it the `K` rules).
    if hotfix_linter::is_k2hr3(bytes) {
        return Kind::Template;
    }
    // Heat refuses a template that is not UTF-8, but it is still a template: it is told by its
    // keys in whatever encoding it has, so that lint reports it instead of skipping it.
    let text = sniffable_text(bytes);
    // A byte-order mark is not part of the first key.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut environment = false;
    // Line ends as YAML knows them: LF, CRLF, and a lone CR.
    for line in text.split(['\n', '\r']) {
        let key = top_level_key(line);
        match key {
            Some("heat_template_version") => {
                return if text.contains("{%") {
                    Kind::Jinja
                } else {
                    Kind::Template
                };
            }
            Some("tosca_definitions_version") if is_cloudify_version(line) => {
                return Kind::Blueprint;
            }
            Some(
                "resource_registry"
                | "parameter_defaults"
                | "event_sinks"
                | "encrypted_param_names"
                | "parameter_merge_strategies",
            ) => environment = true,
            _ => {}
        }
    }
    // JSON templates: the key anywhere (JSON has no other way to write it).
    if text.trim_start().starts_with('{') && text.contains("\"heat_template_version\"") {
        return Kind::Template;
    }
    if environment {
        Kind::Environment
    } else {
        Kind::Other
    }
}

/// Whether a `tosca_definitions_version:` line names a Cloudify DSL version.
fn is_cloudify_version(line: &str) -> bool {
    line.split_once(':').is_some_and(|(_, value)| {
        value
            .trim()
            .trim_matches(['"', '\''])
            .starts_with("cloudify_dsl_")
    })
}

/// The text of a file for telling what it is: UTF-8 as it is; UTF-16 with a byte-order mark
/// decoded; anything else read as Latin-1 (every byte a character), which keeps ASCII keys.
fn sniffable_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return std::borrow::Cow::Borrowed(text);
    }
    let utf16 = |bytes: &[u8], decode: fn([u8; 2]) -> u16| {
        let units: Vec<u16> = bytes
            .chunks_exact(2)
            .map(|pair| decode([pair[0], pair[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    };
    let text = match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        _ => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    std::borrow::Cow::Owned(text)
}

/// The key of a top-level YAML mapping entry on this line (`key:` at column 0).
fn top_level_key(line: &str) -> Option<&str> {
    let first = line.chars().next()?;
    if first.is_whitespace() || first == '#' || first == '-' {
        return None;
    }
    let (key, _) = line.split_once(':')?;
    let key = key.trim_end().trim_matches(['"', '\'']);
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a collected walk finds, as a list.
    fn walk(paths: &[PathBuf], configs: &mut Configs) -> anyhow::Result<Vec<Candidate>> {
        let mut candidates = Vec::new();
        for found in Walker::collected(paths, configs)? {
            if let Found::Candidate(candidate) = found? {
                candidates.push(candidate);
            }
        }
        Ok(candidates)
    }

    #[test]
    fn tells_templates_from_environments_jinja_and_other_yaml() {
        let kind = |name: &str, text: &str| classify(Path::new(name), text.as_bytes());
        assert_eq!(
            kind("t.yaml", "# c\nheat_template_version: 2016-10-14\n"),
            Kind::Template
        );
        assert_eq!(
            kind("t.yaml", "'heat_template_version': pike\n"),
            Kind::Template
        );
        assert_eq!(
            kind("t.json", "{\"heat_template_version\": \"pike\"}"),
            Kind::Template
        );
        assert_eq!(
            kind("bom.yaml", "\u{feff}heat_template_version: pike\n"),
            Kind::Template
        );
        assert_eq!(
            kind("e.yaml", "resource_registry:\n  A: b.yaml\n"),
            Kind::Environment
        );
        assert_eq!(
            kind("o.j2.yaml", "heat_template_version: pike\n"),
            Kind::Jinja
        );
        assert_eq!(
            kind(
                "o.yaml",
                "heat_template_version: pike\n{% for r in roles %}\n"
            ),
            Kind::Jinja
        );
        assert_eq!(
            kind(".pre-commit-config.yaml", "repos:\n  - repo: x\n"),
            Kind::Other
        );
        assert_eq!(
            kind("n.yaml", "nested:\n  heat_template_version: pike\n"),
            Kind::Other
        );
        assert_eq!(
            kind(
                "b.yaml",
                "# c\ntosca_definitions_version: 'cloudify_dsl_1_4'\n"
            ),
            Kind::Blueprint
        );
        assert_eq!(
            kind(
                "t.yaml",
                "tosca_definitions_version: tosca_simple_yaml_1_3\n"
            ),
            Kind::Other
        );
    }

    #[test]
    fn tells_templates_in_any_encoding_and_line_end_heat_might_meet() {
        let kind = |bytes: &[u8]| classify(Path::new("t.yaml"), bytes);
        assert_eq!(
            kind(b"heat_template_version: pike\ndescription: caf\xe9\n"),
            Kind::Template
        );
        let little_endian: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "heat_template_version: pike\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        assert_eq!(kind(&little_endian), Kind::Template);
        let big_endian: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(
                "# c\nheat_template_version: pike\n"
                    .encode_utf16()
                    .flat_map(u16::to_be_bytes),
            )
            .collect();
        assert_eq!(kind(&big_endian), Kind::Template);
        assert_eq!(
            kind(b"# a comment\rheat_template_version: pike\rresources: {}\r"),
            Kind::Template
        );
        assert_eq!(kind(b"\x89PNG\r\n\x1a\n\x00\x00"), Kind::Other);
    }

    /// The paths of what a walk finds, and whether it streamed (did not collect first).
    fn found(paths: &[PathBuf]) -> (Vec<PathBuf>, bool) {
        let cwd = std::env::current_dir().expect("cwd");
        let mut configs =
            Configs::new(true, None, &cwd, crate::config::Overrides::default()).expect("configs");
        let walker = Walker::new(paths, &mut configs).expect("walker");
        let streamed = walker.collected.len() == 0;
        let found = walker
            .map(|found| match found.expect("found") {
                Found::Candidate(candidate) => candidate.path,
                Found::Error(error) => panic!("{error}"),
            })
            .collect();
        (found, streamed)
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
            let mut configs = Configs::new(true, None, root, crate::config::Overrides::default())
                .expect("configs");
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
                "b/z.json"
            ]
        );
        // A folder and a file or folder inside it: collected, each file once.
        let (overlapping, did_stream) = found(&[a.join("x.yaml"), root.to_path_buf(), a]);
        assert!(!did_stream);
        assert_eq!(overlapping, all);
    }
}
