//! A file of a project checked: read, told what it is ([`Project::plan`]), linted, and fixed in
//! memory when asked. `hotfix lint` hands every file it walks to [`Project::check_all`] and
//! only prints what comes back (and writes a fixed text): a file goes from its path to its
//! findings inside this crate, on every core, with the project resolved once before.

use std::path::{Path, PathBuf};

use hotfix_diagnostics::Diagnostic;
use hotfix_linter::Settings;
use hotfix_linter::fix::{Applied, Segments};

use crate::kind::Kind;
use crate::plan::{Asked, Plan};
use crate::read::Input;
use crate::walk::{Candidate, kind_of_large};
use crate::{Project, stack_path};

/// How every file of a run is checked.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// Which fixes are applied to the text (in memory: writing it is the caller's).
    pub fixing: Fixing,
    /// `--templates-only`: a file named is told by content, and environments are not linted.
    pub templates_only: bool,
    /// The environments given with `-e`, as the user wrote them.
    pub environments: &'a [PathBuf],
}

/// Which fixes are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixing {
    /// None: the file is linted as it is.
    No,
    /// The Safe fixes, until nothing applies.
    Safe,
    /// The Safe and the Unsafe fixes.
    Unsafe,
}

/// What became of one file.
#[derive(Debug)]
pub enum Outcome {
    Checked(Box<Checked>),
    /// Not a file hotfix lints: what it is.
    Skipped(Kind),
    /// It could not be checked (read, or fixed): why, as the run reports it.
    Failed(String),
    /// The run was stopped before this file was started.
    NotStarted,
}

/// A file checked.
#[derive(Debug)]
pub struct Checked {
    pub path: PathBuf,
    /// Its path as the user would write it.
    pub display: String,
    /// The text its findings are placed in (the fixed text when fixing changed it). Empty for a
    /// file with no findings when not fixing: a clean file's text is not kept, so that a run's
    /// memory follows its findings, not the size of the tree.
    pub source: String,
    pub diagnostics: Vec<Diagnostic>,
    /// What fixing changed, when it changed the text.
    pub fixed: Option<Fixed>,
    /// An environment file, not a template.
    pub environment: bool,
}

/// A text that fixing changed.
#[derive(Debug)]
pub struct Fixed {
    /// The text as read.
    pub original: String,
    /// The fixed text.
    pub text: String,
    pub applied: Vec<Applied>,
    /// Where the original's bytes went in the fixed text.
    pub segments: Segments,
}

impl Project {
    /// Checks every candidate on every core and hands each outcome to `handle`, in the
    /// candidates' order, on the calling thread (see [`crate::ordered`]). `first` are
    /// candidates started before the others (the largest files), which `candidates` hold too
    /// (the same paths, as bytes): each is checked once, and handed over at its place. Once
    /// `stop` says so, no file is started ([`Outcome::NotStarted`]); the files in flight are
    /// finished. Stops at the first error of `handle`.
    pub fn check_all<E>(
        &self,
        first: Vec<Candidate>,
        candidates: impl IntoIterator<Item = Candidate>,
        options: &Options<'_>,
        stop: &(dyn Fn() -> bool + Sync),
        handle: impl FnMut(Candidate, Outcome) -> Result<(), E>,
    ) -> Result<(), E> {
        let first_paths: Vec<std::ffi::OsString> = first
            .iter()
            .map(|candidate| candidate.path.clone().into_os_string())
            .collect();
        crate::ordered::for_each_in_order_first(
            first,
            |candidate| {
                let path = candidate.path.as_os_str();
                first_paths.iter().position(|first| first == path)
            },
            candidates,
            |candidate| {
                if stop() {
                    Outcome::NotStarted
                } else {
                    self.check_walked(candidate, options)
                }
            },
            handle,
        )
    }

    /// [`Project::check`] for a file of the run's walk: one that the walk for the tree's
    /// environments read and found the lint skips whatever it holds ([`crate::tree::Told`])
    /// is skipped as that, not opened again, unless it is named, its configuration says what
    /// it is (a K2HR3 template, a `[[stacks]]` environment), or `-e` gives it.
    fn check_walked(&self, candidate: &Candidate, options: &Options<'_>) -> Outcome {
        if !candidate.explicit
            && let Some(kind) = self.told_kind(&candidate.path)
            && !candidate.config.is_k2hr3(&candidate.path)
            && candidate.config.stack_of(&candidate.path).is_none()
            && !given_environment(options.environments, &candidate.path)
        {
            return Outcome::Skipped(kind);
        }
        self.check(candidate, options)
    }

    /// Reads and checks one candidate.
    pub fn check(&self, candidate: &Candidate, options: &Options<'_>) -> Outcome {
        match crate::walk::read(candidate) {
            Ok(Ok(input)) => self.check_input(candidate, input, options),
            Ok(Err(kind)) => Outcome::Skipped(kind),
            Err(err) => Outcome::Failed(format!("cannot read {}: {err}", candidate.display())),
        }
    }

    /// Checks what was read of one candidate (a file, or standard input under a name). A file
    /// over the read bound is reported with Heat's size message, when its first bytes show it
    /// is a template.
    pub fn check_input(
        &self,
        candidate: &Candidate,
        input: Input,
        options: &Options<'_>,
    ) -> Outcome {
        let (head, chars, exact) = match input {
            Input::Whole(bytes) => return self.check_bytes(candidate, &bytes, options),
            Input::TooLarge { head, chars, exact } => (head, chars, exact),
        };
        let kind = if candidate.explicit && !options.templates_only {
            Kind::Template
        } else {
            kind_of_large(candidate, &head)
        };
        if kind != Kind::Template && kind != Kind::Blueprint {
            return Outcome::Skipped(kind);
        }
        let settings = candidate.config.settings_for(&candidate.path);
        let err = hotfix_yaml::too_large(chars, exact);
        Outcome::Checked(Box::new(Checked {
            path: candidate.path.clone(),
            display: candidate.display(),
            source: String::new(),
            diagnostics: hotfix_linter::load_failure(err, &settings),
            fixed: None,
            environment: false,
        }))
    }

    /// Checks the bytes of one candidate: what it is and what its checks are given is
    /// [`Project::plan`]'s answer, as the language server gets it.
    pub fn check_bytes(
        &self,
        candidate: &Candidate,
        bytes: &[u8],
        options: &Options<'_>,
    ) -> Outcome {
        let asked = Asked {
            path: &candidate.path,
            bytes,
            named: candidate.explicit,
            given_environment: given_environment(options.environments, &candidate.path),
            templates_only: options.templates_only,
        };
        let display = candidate.display();
        let path = stack_path(&candidate.path);
        let checked = |source: String, diagnostics: Vec<Diagnostic>, environment: bool| Checked {
            path: candidate.path.clone(),
            display: display.clone(),
            source,
            diagnostics,
            fixed: None,
            environment,
        };
        let plan = match self.plan(&candidate.config, &asked) {
            Ok(plan) => plan,
            Err(message) => return Outcome::Failed(message),
        };
        let (settings, registry, document) = match plan {
            Plan::Skip(kind) => return Outcome::Skipped(kind),
            Plan::K2hr3(settings) => {
                // Text that cannot be read as a template is reported as any template's would be.
                let (source, diagnostics) = match hotfix_yaml::check_bytes(bytes) {
                    Ok(text) => {
                        let diagnostics = hotfix_linter::lint_k2hr3(text, &settings);
                        (findings_text(bytes, &diagnostics), diagnostics)
                    }
                    Err(err) => (String::new(), hotfix_linter::load_failure(err, &settings)),
                };
                return Outcome::Checked(Box::new(checked(source, diagnostics, false)));
            }
            Plan::Environment {
                settings,
                registry,
                stack_templates,
                stack_environments,
            } => {
                // The `E` rules and the rules that check any YAML document, with the files beside
                // it read from disk.
                let files = hotfix_linter::Files {
                    source: self.source(),
                    path: &path,
                    roots: self.roots(),
                    registry: registry.as_deref(),
                    stack_templates: &stack_templates,
                    stack_environments: &stack_environments,
                };
                let diagnostics =
                    hotfix_linter::lint_environment(&display, bytes, &settings, Some(&files));
                let source = findings_text(bytes, &diagnostics);
                return Outcome::Checked(Box::new(checked(source, diagnostics, true)));
            }
            Plan::Template {
                settings,
                registry,
                document,
            } => (settings, registry, document),
        };
        let others = hotfix_linter::Files {
            source: self.source(),
            path: &path,
            roots: self.roots(),
            registry: Some(&registry),
            stack_templates: &[],
            stack_environments: &[],
        };
        if let Some(doc) = document.filter(|_| options.fixing == Fixing::No) {
            // Loaded once already (a blueprint, for what it imports).
            let diagnostics =
                hotfix_linter::lint_document(&display, &doc, &settings, Some(&others));
            drop(doc);
            let source = findings_text(bytes, &diagnostics);
            return Outcome::Checked(Box::new(checked(source, diagnostics, false)));
        }
        match fix_template(&display, bytes, &settings, &others, options.fixing) {
            Ok((source, diagnostics, fixed)) => Outcome::Checked(Box::new(Checked {
                path: candidate.path.clone(),
                display,
                source,
                diagnostics,
                fixed,
                environment: false,
            })),
            Err(message) => Outcome::Failed(message),
        }
    }
}

/// Lints a template, fixing it in memory first when asked: the text its findings are placed in
/// (empty for a clean file not fixed), the findings, and what fixing changed. `Err` is a fix
/// that does not converge or breaks the file: a bug, reported as a failure of the run.
fn fix_template(
    display: &str,
    bytes: &[u8],
    settings: &Settings,
    others: &hotfix_linter::Files<'_>,
    fixing: Fixing,
) -> Result<(String, Vec<Diagnostic>, Option<Fixed>), String> {
    let as_is = || {
        let diagnostics = hotfix_linter::lint_with_files(display, bytes, settings, Some(others));
        let source = findings_text(bytes, &diagnostics);
        (source, diagnostics, None)
    };
    if fixing == Fixing::No {
        return Ok(as_is());
    }
    // A file that is not text is reported as it is: there is nothing to fix.
    let Ok(source) = hotfix_yaml::check_bytes(bytes) else {
        return Ok(as_is());
    };
    let outcome = hotfix_linter::fix_file_with_files(
        display,
        source,
        settings,
        fixing == Fixing::Unsafe,
        Some(others),
    )
    .map_err(|err| format!("cannot fix {display}: {err}"))?;
    if outcome.text == source {
        return Ok((source.to_owned(), outcome.diagnostics, None));
    }
    let fixed = Fixed {
        original: source.to_owned(),
        text: outcome.text.clone(),
        applied: outcome.applied,
        segments: outcome.segments,
    };
    Ok((outcome.text, outcome.diagnostics, Some(fixed)))
}

/// The text a file's findings are placed in: none for a file without findings; else its
/// bytes, when they are UTF-8 (checked by the standard library's fast validation, not the
/// slower one of `from_utf8_lossy`), each invalid sequence replaced by U+FFFD when not.
fn findings_text(bytes: &[u8], diagnostics: &[Diagnostic]) -> String {
    if diagnostics.is_empty() {
        return String::new();
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// Whether the file is one of the environments given with `-e` (its configuration's
/// `[[stacks]]` entry may make it one too: [`Project::plan`] knows).
fn given_environment(environments: &[PathBuf], path: &Path) -> bool {
    // However each is spelt: `env.yaml`, `./env.yaml`, `/abs/env.yaml`.
    let absolute = |path: &Path| {
        std::path::absolute(path)
            .ok()
            .map(|p| crate::paths::normalize(&p))
    };
    // Without `-e`, no path is made absolute (a question to the system per file).
    !environments.is_empty() && {
        let path = absolute(path);
        path.is_some() && environments.iter().any(|env| absolute(env) == path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::DiskSource;
    use crate::config::{Configs, Overrides};
    use crate::walk::{Found, Walker};

    /// What became of a file, as the run reports it.
    fn summary(outcome: &Outcome) -> String {
        match outcome {
            Outcome::Checked(checked) => format!(
                "checked {} (environment: {}) with {} findings",
                checked.display,
                checked.environment,
                checked.diagnostics.len()
            ),
            Outcome::Skipped(kind) => format!("skipped as {kind:?}"),
            Outcome::Failed(why) => format!("failed: {why}"),
            Outcome::NotStarted => "not started".to_owned(),
        }
    }

    /// Writes `text` to the file `name` under `root`, its folders made.
    fn write(root: &Path, name: impl AsRef<Path>, text: &[u8]) {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    /// Every candidate of a lint of `paths` (in the project at `root`) checked as the walk for
    /// the tree's environments tells it and by reading it again, with each list of
    /// `environments` given with `-e`: the same outcome. The project and the candidates.
    fn walked_as_read(
        root: &Path,
        paths: &[PathBuf],
        environments: &[&[PathBuf]],
    ) -> (Project, Vec<Candidate>) {
        let disk = Arc::new(DiskSource::default());
        let mut configs = Configs::new(false, None, root, Overrides::default(), disk.prefixes())
            .expect("configs");
        let project = Project::resolve(paths, &[], root, &[], Arc::clone(&disk)).expect("project");
        // Listed when the one folder linted is the project's (as a lint of it lists it).
        let wanted = matches!(paths, [folder] if project.want_listing(folder));
        project.prepare_tree();
        let listing = project.listing();
        assert_eq!(listing.is_some(), wanted, "{paths:?}");
        let candidates_of = |walker: Walker<'_>| -> Vec<Candidate> {
            walker
                .map(|found| match found.expect("walk") {
                    Found::Candidate(candidate) => candidate,
                    Found::Error(error) => panic!("{error}"),
                })
                .collect()
        };
        let candidates =
            candidates_of(Walker::listed(paths, &mut configs, listing).expect("walker"));
        // The files the walk for the environments listed are those a walk of the folder finds.
        let mut configs = Configs::new(false, None, root, Overrides::default(), disk.prefixes())
            .expect("configs");
        let walked = candidates_of(Walker::new(paths, &mut configs).expect("walker"));
        let path = |c: &Candidate| c.path.clone();
        assert_eq!(
            candidates.iter().map(path).collect::<Vec<_>>(),
            walked.iter().map(path).collect::<Vec<_>>()
        );
        for &environments in environments {
            let options = Options {
                fixing: Fixing::No,
                templates_only: false,
                environments,
            };
            for candidate in &candidates {
                assert_eq!(
                    summary(&project.check_walked(candidate, &options)),
                    summary(&project.check(candidate, &options)),
                    "{}",
                    candidate.display()
                );
            }
        }
        (project, candidates)
    }

    #[test]
    fn the_walk_for_environments_lists_the_files_a_walk_of_the_folder_finds() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        let write = |name: &str| write(root, name, b"heat_template_version: rocky\n");
        // Names that sort differently as paths and as text (`a/b` before `a-b`, `a b`, `a.b`),
        // hidden files, and a `.gitignore` outside any git repository, which both honour.
        for name in [
            "a/b.yaml",
            "a-b/c.yaml",
            "a b/c.yaml",
            "a.b/c.yaml",
            "a.yaml",
            "a/b/c/d.yaml",
            "a/b-c.yaml",
            "A/z.yaml",
            "_/z.yaml",
            "0/z.yaml",
            ".hidden/x.yaml",
            "z/.x.yaml",
            "built/out.yaml",
            "z/kept.yaml",
            "z/skip.tmp",
        ] {
            write(name);
        }
        std::fs::write(root.join(".gitignore"), "built/\n*.tmp\n").expect("write");
        let (project, candidates) = walked_as_read(root, &[root.to_path_buf()], &[&[]]);
        let names: Vec<String> = candidates
            .iter()
            .map(|c| {
                c.path
                    .strip_prefix(root)
                    .expect("inside")
                    .display()
                    .to_string()
            })
            .collect();
        assert_eq!(
            names,
            [
                "0/z.yaml",
                "A/z.yaml",
                "_/z.yaml",
                "a/b/c/d.yaml",
                "a/b-c.yaml",
                "a/b.yaml",
                "a b/c.yaml",
                "a-b/c.yaml",
                "a.b/c.yaml",
                "a.yaml",
                "z/kept.yaml"
            ]
        );
        // Taken once: a second walk lists the folder itself.
        assert!(project.listing().is_none());
    }

    #[test]
    fn the_listing_names_the_largest_files_the_lint_reads_the_largest_first() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        let template = |size: usize| {
            let head = "heat_template_version: rocky\ndescription: ";
            format!("{head}{}\n", "x".repeat(size - head.len() - 1))
        };
        // Ten templates of 32 KB or more (two of one size), a small one, and larger files
        // the lint skips: other YAML, and a file of another extension.
        let kb = 1024;
        for (name, size) in [
            ("a/t1.yaml", 40 * kb),
            ("a/t2.yaml", 50 * kb),
            ("b/t3.yaml", 33 * kb),
            ("b/t4.yaml", 32 * kb),
            ("c/t5.yaml", 60 * kb),
            ("c/t6.yaml", 45 * kb),
            ("d/t7.yaml", 45 * kb),
            ("d/t8.yaml", 70 * kb),
            ("e/t9.yaml", 36 * kb),
            ("e/t10.yaml", 34 * kb),
            ("small.yaml", 2 * kb),
        ] {
            write(root, name, template(size).as_bytes());
        }
        write(
            root,
            "other.yaml",
            format!("a: {}\n", "x".repeat(200 * kb)).as_bytes(),
        );
        write(root, "notes.txt", "x".repeat(300 * kb).as_bytes());
        let disk = Arc::new(DiskSource::default());
        let project = Project::resolve(&[root.to_path_buf()], &[], root, &[], Arc::clone(&disk))
            .expect("project");
        assert!(project.want_listing(root));
        project.prepare_tree();
        let listing = project.listing().expect("listed");
        let names = |paths: Vec<&Path>| -> Vec<String> {
            paths
                .iter()
                .map(|p| p.strip_prefix(root).expect("inside").display().to_string())
                .collect()
        };
        let largest = [
            "d/t8.yaml",
            "c/t5.yaml",
            "a/t2.yaml",
            "c/t6.yaml",
            "d/t7.yaml",
            "a/t1.yaml",
            "e/t9.yaml",
            "e/t10.yaml",
        ];
        assert_eq!(
            names(listing.largest().iter().map(PathBuf::as_path).collect()),
            largest
        );
        // As candidates, the very paths the walk of the listing gives them.
        let mut configs = Configs::new(false, None, root, Overrides::default(), disk.prefixes())
            .expect("configs");
        let first = Walker::largest(&mut configs, root, &listing);
        assert_eq!(
            names(first.iter().map(|c| c.path.as_path()).collect()),
            largest
        );
        let walked: Vec<PathBuf> =
            Walker::listed(&[root.to_path_buf()], &mut configs, Some(listing))
                .expect("walker")
                .filter_map(|found| match found.expect("walk") {
                    Found::Candidate(candidate) => Some(candidate.path),
                    Found::Error(_) => None,
                })
                .collect();
        for candidate in &first {
            assert!(
                walked
                    .iter()
                    .any(|p| p.as_os_str() == candidate.path.as_os_str()),
                "{}",
                candidate.display()
            );
        }
    }

    #[test]
    fn a_tree_of_more_files_than_the_listing_holds_is_not_listed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        for i in 0..=crate::tree::LISTING_BOUND / 100 {
            let folder = root.join(format!("f{i:03}"));
            std::fs::create_dir(&folder).expect("mkdir");
            for j in 0..100 {
                std::fs::write(folder.join(format!("{j:02}")), "").expect("write");
            }
        }
        let disk = Arc::new(DiskSource::default());
        let project =
            Project::resolve(&[root.to_path_buf()], &[], root, &[], disk).expect("project");
        assert!(project.want_listing(root));
        project.prepare_tree();
        assert!(project.listing().is_none());
    }

    #[cfg(unix)]
    #[test]
    fn no_two_files_share_what_the_walk_told_of_one() {
        use std::os::unix::ffi::OsStrExt as _;
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        let write = |name: &Path, text: &[u8]| write(root, name, text);
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        let template = b"heat_template_version: 2018-08-31\nresources: {}\n";
        let other = b"a: 1\n";
        // A name with `\\` is itself, not a path (`x\\..\\t.yaml` is not `t.yaml`).
        write(Path::new("x\\..\\t.yaml"), other);
        write(Path::new("t.yaml"), template);
        write(Path::new("sub\\u.yaml"), other);
        write(Path::new("sub/u.yaml"), template);
        // Names that are not UTF-8 are themselves, not one replacement character.
        write(Path::new(std::ffi::OsStr::from_bytes(b"\xff.yaml")), other);
        write(
            Path::new(std::ffi::OsStr::from_bytes(b"\xfe.yaml")),
            template,
        );
        // `link/..` is where the link leads's parent, not the folder holding the link.
        write(Path::new("sub/a.yaml"), other);
        write(Path::new("releases/sub/a.yaml"), template);
        std::fs::create_dir_all(root.join("releases/v2")).expect("mkdir");
        std::os::unix::fs::symlink("releases/v2", root.join("link")).expect("symlink");

        let (_, candidates) = walked_as_read(root, &[root.to_path_buf()], &[&[]]);
        assert_eq!(candidates.len(), 8);
        let (_, candidates) = walked_as_read(root, &[root.join("link/../sub")], &[&[]]);
        assert_eq!(candidates.len(), 1);
    }

    #[test]
    fn a_file_the_walk_for_environments_read_is_skipped_as_reading_it_again_would_skip_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        let write = |name: &str, text: &[u8]| write(root, name, text);
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        write(
            "hotfix.toml",
            b"k2hr3-templates = [\"k2hr3/**\"]\n\n[[stacks]]\ntemplate = \"top.yaml\"\n\
              environments = [\"stack/env.yaml\"]\n",
        );
        write("top.yaml", b"heat_template_version: rocky\n");
        write("env.yaml", b"parameter_defaults: {}\n");
        write("playbook.yaml", b"- hosts: all\n  tasks: []\n");
        write("roles.yaml", b"roles:\n  - name: x\n");
        write(
            "macro.j2.yaml",
            b"{% if x %}\nheat_template_version: rocky\n{% endif %}\n",
        );
        write("engine.j2.yaml", b"{{#!k2hr3template }}\n{{ x = 1 }}\n");
        write("k2hr3/plain.yaml", b"a: 1\n");
        write("stack/env.yaml", b"a: 1\n");
        write("run.sh", b"#!/bin/sh\necho hi\n");
        write("notes.md", b"heat_template_version: rocky\n");
        write("image.bin", b"\0\x01\x02");

        let given = [root.join("playbook.yaml")];
        let (project, candidates) = walked_as_read(root, &[root.to_path_buf()], &[&[], &given]);
        assert_eq!(candidates.len(), 12);
        // What the walk told: other YAML, a Jinja source, and files of other extensions whose
        // first bytes show what they are (what the configuration names among them is not
        // skipped, as compared above).
        let mut told: Vec<(String, Kind)> = candidates
            .iter()
            .filter_map(|c| {
                let name = c.path.strip_prefix(root).expect("under the root");
                Some((name.display().to_string(), project.told_kind(&c.path)?))
            })
            .collect();
        told.sort_by(|a, b| a.0.cmp(&b.0));
        let expected = [
            ("hotfix.toml", Kind::Other),
            ("image.bin", Kind::Binary),
            ("k2hr3/plain.yaml", Kind::Other),
            ("macro.j2.yaml", Kind::Jinja),
            ("playbook.yaml", Kind::Other),
            ("roles.yaml", Kind::Other),
            ("run.sh", Kind::Other),
            ("stack/env.yaml", Kind::Other),
        ];
        assert_eq!(told, expected.map(|(name, kind)| (name.to_owned(), kind)),);
    }

    /// The codes of what a lint of `paths` (from `cwd`, each walked) finds, by file, with
    /// `unused-parameter` (H408) selected too.
    fn codes_of(cwd: &Path, paths: &[PathBuf]) -> Vec<(PathBuf, Vec<&'static str>)> {
        let disk = Arc::new(DiskSource::default());
        let overrides = Overrides {
            extend_select: hotfix_linter::Selector::parse("H408").into_iter().collect(),
            ..Overrides::default()
        };
        let mut configs =
            Configs::new(false, None, cwd, overrides, disk.prefixes()).expect("configs");
        let project = Project::resolve(paths, &[], cwd, &[], disk).expect("project");
        project.prepare_tree();
        let options = Options {
            fixing: Fixing::No,
            templates_only: false,
            environments: &[],
        };
        Walker::new(paths, &mut configs)
            .expect("walker")
            .filter_map(|found| match found.expect("walk") {
                Found::Candidate(candidate) => match project.check(&candidate, &options) {
                    Outcome::Checked(checked) => Some((
                        candidate.path,
                        checked.diagnostics.iter().map(|d| d.code).collect(),
                    )),
                    _ => None,
                },
                Found::Error(error) => panic!("{error}"),
            })
            .collect()
    }

    #[test]
    fn each_root_s_templates_are_read_against_its_own_environments_as_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        let write = |name: &str, text: &str| write(root, name, text.as_bytes());
        let uses = "heat_template_version: rocky\nresources:\n  r:\n    type: Vendor::Thing\n    \
                    properties: {size: 1}\n";
        // `a` has environments of its own, which leave `Vendor::Thing` unmapped.
        write("a/top.yaml", uses);
        write(
            "a/env.yaml",
            "resource_registry:\n  Other::Type: other.yaml\n",
        );
        write("a/other.yaml", "heat_template_version: rocky\n");
        // `b` maps it, to a template with no `size`.
        write(
            "b/env.yaml",
            "resource_registry:\n  Vendor::Thing: thing.yaml\n",
        );
        write("b/thing.yaml", "heat_template_version: rocky\n");
        // `c` has no environment: its own are elsewhere.
        write("c/top.yaml", uses);
        // `a` names `d`'s template as a nested one, which `d` alone does not know: its unused
        // parameter is reported as when `d` is linted alone.
        write(
            "a/uses-d.yaml",
            "heat_template_version: rocky\nresources:\n  r:\n    type: ../d/unused.yaml\n",
        );
        write(
            "d/unused.yaml",
            "heat_template_version: rocky\nparameters:\n  p: {type: string}\n",
        );
        let folders: Vec<PathBuf> = ["a", "b", "c", "d"].iter().map(|f| root.join(f)).collect();
        let alone: Vec<_> = folders
            .iter()
            .flat_map(|folder| codes_of(root, std::slice::from_ref(folder)))
            .collect();
        let together = codes_of(root, &folders);
        assert_eq!(together, alone);
        let codes = |name: &str| {
            together
                .iter()
                .find(|(path, _)| path.ends_with(name))
                .map(|(_, codes)| codes.clone())
        };
        // Unmapped in its own tree, and not checked against `b`'s template.
        assert_eq!(codes("a/top.yaml"), Some(vec!["X007"]));
        assert_eq!(codes("c/top.yaml"), Some(vec![]));
        assert_eq!(codes("d/unused.yaml"), Some(vec!["H408"]));
    }
}
