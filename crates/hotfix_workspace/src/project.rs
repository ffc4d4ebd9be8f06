//! The project of a run, resolved once before any file is linted: the folders it spans, the
//! disk source its files are read through, the environments given with `-e` and the stack they
//! are for, each configuration's `[[stacks]]` and the registry of the tree's environments.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use hotfix_stack::{FileFacts, FileKind, FileSource, LazyRegistry, Registry, StackPath};

use crate::blueprint::Blueprints;
use crate::disk::DiskSource;
use crate::root::Scope;
use crate::tree::Walked;
use crate::{read, stack_path};

/// Why a project cannot be resolved: an environment given with `-e` that cannot be read, or is
/// not one.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An environment given with `-e`: what is wrong with it, naming it.
    #[error("{0}")]
    Environment(String),
}

/// A `[[stacks]]` entry of a configuration, its files named as the run names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackEntry {
    /// The top template.
    pub template: StackPath,
    /// Its environment files, in the order `-e` would give them.
    pub environments: Vec<StackPath>,
}

/// The project of one run: what every file's checks ask about the files around it. Built by
/// [`Project::resolve`] before any file is linted, then only read (the registries it builds on
/// first use are built once, whichever file asks first).
#[derive(Debug)]
pub struct Project {
    scope: Scope,
    disk: Arc<DiskSource>,
    /// The paths given, and the environments given with them (`-e`).
    paths: Vec<PathBuf>,
    environments: Vec<PathBuf>,
    /// The registry of the environments given with `-e`, when some were.
    given: Option<Arc<LazyRegistry>>,
    /// The templates of the stack the environments given with `-e` are for: the template files
    /// named and every nested template they lead to (`None` when no template file is named:
    /// the environments then apply to every template of the run).
    given_stack: Option<BTreeSet<StackPath>>,
    /// Each configuration's `[[stacks]]` (by the configuration's folder), each entry read on
    /// first use (`None`: not yet, or again after a template of its stack changed).
    stacks: Mutex<Vec<(PathBuf, Stacks)>>,
    /// The registry of the tree's environments, built on first use.
    tree: Arc<LazyRegistry>,
    /// For a run over several roots, the registry of each root's environments alone, by root
    /// (taken from the walk that builds `tree`): what a template of that root is read against.
    tree_by_root: Vec<Arc<LazyRegistry>>,
    /// Which root holds a file (for `tree_by_root`, and whether the run spans it).
    root_index: crate::root::RootIndex,
    /// What the walk for the tree's environments did, once it ran.
    walked: Arc<OnceLock<Walked>>,
    /// What that walk learnt of the files the lint skips, once it ran.
    told: Arc<OnceLock<crate::tree::Told>>,
    /// The Cloudify blueprints read for their local imports.
    pub(crate) blueprints: Blueprints,
    /// The files the walk for the tree's environments listed for the lint.
    listing: Arc<Listed>,
}

/// Whether the walk for the tree's environments is to list the tree's files for the lint, and
/// what it listed (taken by the lint).
#[derive(Debug, Default)]
struct Listed {
    wanted: AtomicBool,
    files: Mutex<Option<crate::tree::Listing>>,
}

/// A configuration's `[[stacks]]` entries, each read on first use (`None`: not yet, or to be
/// read again).
type Stacks = Vec<Option<Arc<StackOf>>>;

/// A `[[stacks]]` entry, read: its registry (or why its environments cannot be read) and the
/// templates of its stack (its template and every nested template its resources lead to
/// through that registry).
#[derive(Debug)]
struct StackOf {
    registry: Result<Arc<LazyRegistry>, String>,
    templates: BTreeSet<StackPath>,
    /// Whether every nested template was followed: when one was not (missing, not yet a
    /// template), a change to any template may add to the stack.
    whole: bool,
}

impl Project {
    /// The project of a run over `paths` (relative to `cwd`, or absolute) with the
    /// `environments` given with `-e`, whose files are read through `disk` (the configurations
    /// of the paths given loaded first: their `[paths]` say where install prefixes lie).
    ///
    /// The environments given are read in order: each must be an environment file that loads
    /// (a template or a broken file given as an environment is an error of the command).
    /// `workspace` holds the folders an editor opened (none for the command line): outside any
    /// project, a file in one spans it ([`crate::root::scope`]).
    pub fn resolve(
        paths: &[PathBuf],
        environments: &[PathBuf],
        cwd: &Path,
        workspace: &[PathBuf],
        disk: Arc<DiskSource>,
    ) -> Result<Project, Error> {
        let scope = crate::root::scope(paths, cwd, workspace);
        let walked = Arc::new(OnceLock::new());
        let told = Arc::new(OnceLock::new());
        let listing = Arc::new(Listed::default());
        // Each root's registry, once the walk made them (a run over several roots).
        let made: Arc<Mutex<Vec<Option<Registry>>>> = Arc::default();
        let tree = {
            let (scope, disk, walked, told, listing, made) = (
                scope.clone(),
                Arc::clone(&disk),
                Arc::clone(&walked),
                Arc::clone(&told),
                Arc::clone(&listing),
                Arc::clone(&made),
            );
            Arc::new(LazyRegistry::new(move || {
                let list = listing.wanted.load(Ordering::Relaxed);
                let (registry, by_root, done, skipped, listed) =
                    crate::tree::tree_registry(&scope, &*disk, list);
                let _ = walked.set(done);
                let _ = told.set(skipped);
                *listing.files.lock().unwrap_or_else(PoisonError::into_inner) = listed;
                *made.lock().unwrap_or_else(PoisonError::into_inner) =
                    by_root.into_iter().map(Some).collect();
                registry
            }))
        };
        let tree_by_root = if scope.roots.len() > 1 {
            (0..scope.roots.len())
                .map(|root| {
                    let (tree, made) = (Arc::clone(&tree), Arc::clone(&made));
                    Arc::new(LazyRegistry::new(move || {
                        tree.get();
                        made.lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .get_mut(root)
                            .and_then(Option::take)
                            .unwrap_or_default()
                    }))
                })
                .collect()
        } else {
            Vec::new()
        };
        let root_index = crate::root::RootIndex::new(&scope);
        let mut project = Project {
            scope,
            disk,
            paths: paths.to_vec(),
            environments: environments.to_vec(),
            given: None,
            given_stack: None,
            stacks: Mutex::new(Vec::new()),
            tree,
            root_index,
            tree_by_root,
            walked,
            told,
            listing,
            blueprints: Blueprints::default(),
        };
        project.give()?;
        Ok(project)
    }

    /// Reads the environments given with `-e`, and finds the stack they are for.
    fn give(&mut self) -> Result<(), Error> {
        if self.environments.is_empty() {
            return Ok(());
        }
        let roots = &self.scope.roots;
        let mut facts = Vec::new();
        for env in &self.environments {
            let fail = |why: String| Error::Environment(format!("{}: {why}", env.display()));
            let text = match read::file(env) {
                Ok(read::Input::Whole(bytes)) => String::from_utf8(bytes)
                    .map_err(|_| fail("not UTF-8 text: an environment must be".to_owned()))?,
                Ok(read::Input::TooLarge { .. }) => {
                    return Err(fail("too large for an environment".to_owned()));
                }
                Err(err) => return Err(fail(format!("cannot be read: {err}"))),
            };
            facts.push(
                hotfix_stack::EnvironmentFacts::given(&*self.disk, roots, &stack_path(env), &text)
                    .map_err(Error::Environment)?,
            );
        }
        let registry = Registry::given(facts);
        let named: Vec<PathBuf> = self.paths.iter().filter(|p| p.is_file()).cloned().collect();
        let tops: Vec<StackPath> = self
            .templates_among(&named)
            .into_iter()
            .map(|(path, _)| path)
            .collect();
        if !tops.is_empty() {
            let stack = hotfix_stack::stack_templates(
                &*self.disk,
                roots,
                &registry,
                &tops,
                &hotfix_linter::heat_has_type,
            );
            self.given_stack = Some(stack.templates.iter().map(|p| self.absolute(p)).collect());
        }
        self.given = Some(Arc::new(LazyRegistry::ready(registry)));
        Ok(())
    }

    /// A file of the run named absolutely (lexically, from the working folder): the one name
    /// the run's sets of files are kept by.
    fn absolute(&self, path: &StackPath) -> StackPath {
        self.scope.absolute(path)
    }

    /// A `[[stacks]]` entry with its files named as the run names files: a file above the
    /// working folder (named absolutely by its configuration) by `..` where the run's folders
    /// are named relative to it.
    fn named_as_run(&self, entry: &StackEntry) -> StackEntry {
        StackEntry {
            template: self.name_as_run(&entry.template),
            environments: entry
                .environments
                .iter()
                .map(|p| self.name_as_run(p))
                .collect(),
        }
    }

    /// A file named absolutely, named as the run names files: relative to the working folder
    /// (by `..` above it) where the run names its folders so.
    fn name_as_run(&self, path: &StackPath) -> StackPath {
        let relative = self.scope.roots.iter().any(|root| !root.is_absolute());
        if relative && path.is_absolute() {
            crate::root::relative_to(&self.scope.cwd, path)
        } else {
            path.clone()
        }
    }

    /// Builds the registry of the tree's environments now, unless the environments given
    /// with `-e` stand for it: for a run about to lint the files of a folder (whose templates
    /// nearly all ask for it), before any file is linted. Built on first use instead, by a
    /// linting thread, the memory the tree's reading takes is mixed with the lint's: a lint of
    /// ten copies of the corpus peaked 3.5 MB higher (30.6 MB instead of 34.1).
    pub fn prepare_tree(&self) {
        if self.given.is_none() {
            self.tree.get();
        }
    }

    /// Whether the registry of the tree's environments is built (or not needed: the
    /// environments given with `-e` stand for it).
    pub fn tree_ready(&self) -> bool {
        self.given.is_some() || self.tree.built().is_some()
    }

    /// Starts building the registry of the tree's environments on a thread of its own (which
    /// walks the tree on as many threads as the lint has), unless the environments given with
    /// `-e` stand for it: for a run over files named one by one (a pre-commit hook), whose
    /// templates mostly ask for it once read and parsed, so that the walk overlaps the reading,
    /// the parsing and the loading of Heat's resource types instead of following them; for a
    /// run over folders, so that the files to lint are listed meanwhile (by the walk itself
    /// for one folder: [`Project::want_listing`]), and [`Project::prepare_tree`] then waits
    /// for it. A run that never asks for it reports no
    /// walk ([`Project::walked`]).
    pub fn prefetch_tree(&self) {
        if self.given.is_none() && self.tree.built().is_none() {
            let tree = Arc::clone(&self.tree);
            // Detached: the process may end before it does, when nothing asks for it.
            let _ = std::thread::Builder::new()
                .name("hotfix-tree".to_owned())
                .spawn(move || tree.prefetch());
        }
    }

    /// Asks the walk for the tree's environments, when it is yet to start, to list the files of
    /// the tree for the lint too ([`Project::listing`]), when the folder `folder` the lint walks
    /// is the one folder that walk spans (not a folder inside a project, whose walk lists the
    /// whole project): whether it asked.
    pub fn want_listing(&self, folder: &Path) -> bool {
        let spans_only = self.scope.shallow.is_empty()
            && self.scope.roots.len() == 1
            && std::env::current_dir().is_ok_and(|cwd| {
                crate::paths::absolute(&cwd, Path::new(self.scope.roots[0].as_str()))
                    == crate::paths::absolute(&cwd, folder)
            });
        if spans_only {
            self.listing.wanted.store(true, Ordering::Relaxed);
        }
        spans_only
    }

    /// The files of the tree, in the order of their paths, as the walk for its environments
    /// listed them when asked to ([`Project::want_listing`]): once, to the first to ask.
    pub fn listing(&self) -> Option<crate::tree::Listing> {
        self.listing
            .files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// What the walk for the tree's environments found the file at `path` to be, when it is
    /// one the lint skips whatever it holds ([`crate::tree::Told`]).
    pub(crate) fn told_kind(&self, path: &Path) -> Option<crate::kind::Kind> {
        self.told.get()?.kind(path)
    }

    /// The folders the run spans.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The roots of the folders the run spans: a missing file outside them is a deployment
    /// layout path, not a mistake.
    pub fn roots(&self) -> &[StackPath] {
        &self.scope.roots
    }

    /// Where the run's files are read.
    pub fn source(&self) -> &DiskSource {
        &self.disk
    }

    /// Where the run's files are read, to be held beside the project.
    pub fn shared_source(&self) -> Arc<DiskSource> {
        Arc::clone(&self.disk)
    }

    /// Whether the file or folder `path` (named as the run names files) lies in a folder the
    /// run spans.
    pub fn spans(&self, path: &Path) -> bool {
        self.root_index.of(&stack_path(path)).is_some()
    }

    /// What the walk for the tree's environments did, when it ran (a run whose templates need
    /// no environment does not walk).
    pub fn walked(&self) -> Option<Walked> {
        self.walked.get().cloned().filter(|_| self.tree.asked())
    }

    /// What the local imports of the Cloudify blueprint at `path` (whose text is `bytes`)
    /// declare; for a fragment that blueprints nearby import, what its importers and their
    /// imports declare. Nothing outside the run's roots is read. `None` when it has no local
    /// import and no importer.
    pub fn blueprint_imports(
        &self,
        path: &Path,
        bytes: &[u8],
    ) -> Option<Arc<hotfix_blueprint::Imported>> {
        self.blueprints
            .local_imports(path, bytes, &self.scope.roots)
    }

    /// The nested templates of the stack given with `-e` (linted with it, as Heat validates
    /// them with it), as the run names files.
    pub fn given_stack_files(&self) -> Vec<PathBuf> {
        // Kept absolute (`nested.yaml` beside `top.yaml`, not `/home/me/stack/nested.yaml`).
        self.given_stack
            .iter()
            .flatten()
            .map(|p| PathBuf::from(self.name_as_run(p).as_str()))
            .collect()
    }

    /// What custom resource types stand for where the file `path` is linted: by the
    /// environments given with `-e`; else, for a template of a `[[stacks]]` entry of its
    /// configuration (whose folder is `config`), by that entry's environments; else by the
    /// environments of the tree (read on first use; of its own root in a run over several
    /// roots), those closest to the template deciding ([`hotfix_stack::Registry::lookup_for`]).
    /// An `Err` says why the environments of its `[[stacks]]` entry cannot be read.
    pub fn registry(
        &self,
        path: &Path,
        config: &Path,
        stacks: &[StackEntry],
    ) -> Result<Arc<LazyRegistry>, String> {
        if let Some(given) = &self.given {
            // The environments given are for their stack; another template of the run is read
            // as any template of the tree.
            let of_the_stack = self
                .given_stack
                .as_ref()
                .is_none_or(|stack| stack.contains(&self.absolute(&stack_path(path))));
            if of_the_stack {
                return Ok(Arc::clone(given));
            }
            return Ok(self.tree_for(path));
        }
        if !stacks.is_empty() {
            let stacks = self.configured_stacks(config, stacks)?;
            // However the file is named (`top.yaml`, `../w/top.yaml`, `/abs/top.yaml`).
            let file = self.absolute(&stack_path(path));
            if let Some(stack) = stacks.iter().find(|stack| stack.templates.contains(&file)) {
                return stack.registry.clone();
            }
        }
        Ok(self.tree_for(path))
    }

    /// The registry of the tree's environments a file at `path` is read against: in a run over
    /// several roots, its own root's ([`crate::tree::tree_registry`]); else the tree's.
    fn tree_for(&self, path: &Path) -> Arc<LazyRegistry> {
        if self.tree_by_root.is_empty() {
            return Arc::clone(&self.tree);
        }
        self.root_index
            .of(&stack_path(path))
            .and_then(|root| self.tree_by_root.get(root))
            .map_or_else(|| Arc::clone(&self.tree), Arc::clone)
    }

    /// The `[[stacks]]` of the configuration whose folder is `config`, each entry read once
    /// (and again after a template of its stack changed, see [`Project::template_changed`]).
    fn configured_stacks(
        &self,
        config: &Path,
        entries: &[StackEntry],
    ) -> Result<Vec<Arc<StackOf>>, String> {
        let mut known = self
            .stacks
            .lock()
            .map_err(|_| "a thread failed".to_owned())?;
        let index = if let Some(index) = known.iter().position(|(root, _)| root == config) {
            index
        } else {
            known.push((config.to_path_buf(), Vec::new()));
            known.len() - 1
        };
        let read = &mut known[index].1;
        read.resize(entries.len(), None);
        for (entry, slot) in entries.iter().zip(read.iter_mut()) {
            if slot.is_none() {
                *slot = Some(Arc::new(self.read_stack(entry)));
            }
        }
        Ok(read.iter().flatten().cloned().collect())
    }

    /// One `[[stacks]]` entry's registry and the templates of its stack.
    fn read_stack(&self, entry: &StackEntry) -> StackOf {
        let roots = &self.scope.roots;
        let entry = self.named_as_run(entry);
        match Registry::given_files(&*self.disk, roots, &entry.environments) {
            Ok(registry) => {
                let found = hotfix_stack::stack_templates(
                    &*self.disk,
                    roots,
                    &registry,
                    std::slice::from_ref(&entry.template),
                    &hotfix_linter::heat_has_type,
                );
                StackOf {
                    registry: Ok(Arc::new(LazyRegistry::ready(registry))),
                    templates: found.templates.iter().map(|p| self.absolute(p)).collect(),
                    whole: found.whole,
                }
            }
            Err(err) => StackOf {
                registry: Err(format!("the environments of its [[stacks]] entry: {err}")),
                templates: [self.absolute(&entry.template)].into_iter().collect(),
                whole: true,
            },
        }
    }

    /// The template at `path` changed (its text, or it came or went): the `[[stacks]]` entries
    /// whose stack it may change are read again on next use, and only those (an entry whose
    /// stack holds it, or one that left a nested template unfollowed). Returns how many
    /// entries are to be read again.
    pub fn template_changed(&self, path: &Path) -> usize {
        let file = self.absolute(&stack_path(path));
        let mut known = self.stacks.lock().unwrap_or_else(PoisonError::into_inner);
        let mut dropped = 0;
        for (_, entries) in known.iter_mut() {
            for slot in entries.iter_mut() {
                if slot
                    .as_ref()
                    .is_some_and(|stack| !stack.whole || stack.templates.contains(&file))
                {
                    *slot = None;
                    dropped += 1;
                }
            }
        }
        dropped
    }

    /// Whether the file at `path` is one of the environments the project has read: given with
    /// `-e`, of a `[[stacks]]` entry read, or of the tree, once walked (nothing is read to
    /// answer).
    pub fn reads_environment(&self, path: &Path) -> bool {
        let file = self.absolute(&stack_path(path));
        let holds = |registry: &Registry| {
            registry
                .environments()
                .iter()
                .any(|env| env.path.as_ref().is_some_and(|p| self.absolute(p) == file))
        };
        if self
            .given
            .iter()
            .chain([&self.tree])
            .filter_map(|registry| registry.built())
            .any(holds)
        {
            return true;
        }
        let known = self.stacks.lock().unwrap_or_else(PoisonError::into_inner);
        known
            .iter()
            .flat_map(|(_, entries)| entries.iter().flatten())
            .filter_map(|stack| stack.registry.as_ref().ok()?.built())
            .any(holds)
    }

    /// The templates an environment file `env` is given with: for one given with `-e`, the
    /// template files named on the command line; else the template of its `[[stacks]]` entry
    /// (`stack_template`, as the run names it), when it is one of an entry's environments.
    pub fn templates_given_with(
        &self,
        env: &StackPath,
        stack_template: Option<&Path>,
    ) -> Vec<(StackPath, Arc<FileFacts>)> {
        let templates: Vec<PathBuf> = if self.environments.iter().any(|e| &stack_path(e) == env) {
            self.paths.iter().filter(|p| p.is_file()).cloned().collect()
        } else if self.environments.is_empty()
            && let Some(template) = stack_template
        {
            vec![template.to_path_buf()]
        } else {
            Vec::new()
        };
        let mut found = self.templates_among(&templates);
        found.retain(|(p, _)| p != env);
        found
    }

    /// The environments the environment `env` is given with, itself included, in order: those
    /// given with `-e` when it is one of them, else those of its `[[stacks]]` entry
    /// (`stack`), named as the run names files, else none.
    pub fn environments_given_with(
        &self,
        env: &StackPath,
        stack: Option<&StackEntry>,
    ) -> Vec<StackPath> {
        // The file itself is named as the run names it, whatever its entry's spelling.
        let same = |path: &StackPath| {
            let whole =
                |p: &StackPath| crate::paths::normalize(Path::new(self.absolute(p).as_str()));
            whole(path) == whole(env)
        };
        let named = |paths: Vec<StackPath>| -> Vec<StackPath> {
            paths
                .into_iter()
                .map(|p| if same(&p) { env.clone() } else { p })
                .collect()
        };
        if self.environments.iter().any(|e| &stack_path(e) == env) {
            return named(self.environments.iter().map(|e| stack_path(e)).collect());
        }
        match stack {
            Some(entry) if self.environments.is_empty() => {
                named(self.named_as_run(entry).environments)
            }
            _ => Vec::new(),
        }
    }

    /// The templates among `files` (by content), with their facts: the top templates of a
    /// stack.
    fn templates_among(&self, files: &[PathBuf]) -> Vec<(StackPath, Arc<FileFacts>)> {
        files
            .iter()
            .map(|p| stack_path(p))
            .filter_map(|p| {
                let facts = self.disk.facts(&p)?;
                (facts.kind == FileKind::Template).then_some((p, facts))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_template_drops_only_the_stacks_entries_whose_stack_it_may_change() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        let write = |name: &str, text: &str| std::fs::write(root.join(name), text).expect("write");
        write(
            "a.yaml",
            "heat_template_version: rocky\nresources:\n  n: {type: My::Nested}\n",
        );
        write(
            "env_a.yaml",
            "resource_registry:\n  My::Nested: nested.yaml\n",
        );
        write("nested.yaml", "heat_template_version: rocky\n");
        write(
            "b.yaml",
            "heat_template_version: rocky\nresources:\n  s: {type: OS::Heat::None}\n",
        );
        write("env_b.yaml", "parameter_defaults: {}\n");
        write("c.yaml", "heat_template_version: rocky\n");
        let file = |name: &str| stack_path(&root.join(name));
        let entries = [
            StackEntry {
                template: file("a.yaml"),
                environments: vec![file("env_a.yaml")],
            },
            StackEntry {
                template: file("b.yaml"),
                environments: vec![file("env_b.yaml")],
            },
        ];
        let project = Project::resolve(
            &[root.to_path_buf()],
            &[],
            root,
            &[],
            Arc::new(DiskSource::live()),
        )
        .expect("project");
        let registry = |name: &str| {
            project
                .registry(&root.join(name), root, &entries)
                .expect("registry")
        };
        let (a, b, nested) = (
            registry("a.yaml"),
            registry("b.yaml"),
            registry("nested.yaml"),
        );
        // The nested template is of `a.yaml`'s stack, read with its entry's environments.
        assert!(Arc::ptr_eq(&a, &nested));
        assert!(!Arc::ptr_eq(&a, &b));
        // A template of no stack changes nothing; one of `a.yaml`'s stack, that entry only.
        assert_eq!(project.template_changed(&root.join("c.yaml")), 0);
        assert!(Arc::ptr_eq(&registry("a.yaml"), &a));
        assert_eq!(project.template_changed(&root.join("nested.yaml")), 1);
        let again = registry("a.yaml");
        assert!(!Arc::ptr_eq(&again, &a));
        assert!(Arc::ptr_eq(&registry("b.yaml"), &b));
        // Read again, the entry sees what changed: `nested.yaml` leaves its stack.
        write(
            "a.yaml",
            "heat_template_version: rocky\nresources:\n  s: {type: OS::Heat::None}\n",
        );
        assert_eq!(project.template_changed(&root.join("a.yaml")), 1);
        assert!(Arc::ptr_eq(&registry("a.yaml"), &registry("a.yaml")));
        assert!(!Arc::ptr_eq(&registry("nested.yaml"), &registry("a.yaml")));
    }
}
