//! Cloudify blueprints' local imports: read here (the rules read no files), handed to the rules
//! as what they declare.
//!
//! A blueprint that another blueprint nearby imports (`includes/cloud-init.yaml`, say) is a
//! fragment: Cloudify merges it into its importer, whose inputs and node templates it uses. Such
//! a file is linted with the names of its importers (all of them, and their imports).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use hotfix_blueprint::{Blueprint, Imported};

/// Files read through imports of one blueprint, at most (a cycle or a huge tree stops here and
/// leaves the names incomplete, so that no rule guesses).
const MAX_FILES: usize = 64;

/// A run's roots as given and their canonical forms.
type CanonicalRoots = (Vec<hotfix_stack::StackPath>, Arc<Vec<PathBuf>>);

/// Where blueprints are read from: the disk (the command line, the editor) or the files of a
/// request held in memory (the playground, [`MemoryFiles`]). Paths are compared by what
/// [`BlueprintFiles::canonical`] makes of them.
pub trait BlueprintFiles: Send + Sync + std::fmt::Debug {
    /// The form in which a path is compared with others, when a file or folder is there (on
    /// disk, its canonical path: symbolic links followed).
    fn canonical(&self, path: &Path) -> Option<PathBuf>;
    /// Whether a file is at `path`.
    fn is_file(&self, path: &Path) -> bool;
    /// The entries of the folder `dir`, as `dir` joined with each name.
    fn files_in(&self, dir: &Path) -> Vec<PathBuf>;
    /// The text of the file at `path`, read up to [`crate::read::BOUND`].
    fn text(&self, path: &Path) -> Option<String>;
}

/// The disk.
#[derive(Debug, Default)]
struct Disk {
    /// The canonical form of each folder asked about (a blueprint's, its siblings', its
    /// imports'): the system resolves a path a part at a time (a question per part, for each
    /// of a folder's files), where a file's is its folder's and its name, once the file is
    /// known to be no symbolic link.
    folders: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
}

impl BlueprintFiles for Disk {
    fn canonical(&self, path: &Path) -> Option<PathBuf> {
        let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
            return path.canonicalize().ok();
        };
        // `a/..` and `a/.` end in no name; a bare name's folder is the working folder.
        let folder = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        if std::fs::symlink_metadata(path).ok()?.is_symlink() {
            return path.canonicalize().ok();
        }
        let known = self.folders.lock().ok()?.get(folder).cloned();
        let canonical = known.unwrap_or_else(|| {
            let canonical = folder.canonicalize().ok();
            if let Ok(mut folders) = self.folders.lock() {
                folders.insert(folder.to_path_buf(), canonical.clone());
            }
            canonical
        });
        Some(canonical?.join(name))
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn files_in(&self, dir: &Path) -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .collect()
    }

    fn text(&self, path: &Path) -> Option<String> {
        crate::read::text_within(path, crate::read::BOUND).ok()
    }
}

/// Files held in memory, by their paths relative to the top of the tree (`a/b.yaml`): the
/// playground's. A path's canonical form is the path made absolute from the top (`/a/b.yaml`),
/// `.` and `..` resolved by their text.
#[derive(Debug, Default)]
pub struct MemoryFiles {
    files: std::collections::BTreeMap<PathBuf, Arc<str>>,
}

impl MemoryFiles {
    /// The files given as paths and texts.
    pub fn new<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> MemoryFiles {
        let mut memory = MemoryFiles::default();
        for (path, text) in files {
            let key = from_top(Path::new(path));
            memory.files.insert(key, Arc::from(text));
        }
        memory
    }
}

/// A path of the tree made absolute from its top (`a/../b.yaml` → `/b.yaml`).
fn from_top(path: &Path) -> PathBuf {
    crate::paths::normalize(&Path::new("/").join(path))
}

impl BlueprintFiles for MemoryFiles {
    fn canonical(&self, path: &Path) -> Option<PathBuf> {
        let path = from_top(path);
        self.files
            .keys()
            .any(|file| file.starts_with(&path))
            .then_some(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&from_top(path))
    }

    fn files_in(&self, dir: &Path) -> Vec<PathBuf> {
        let dir = from_top(dir);
        self.files
            .keys()
            .filter(|file| file.parent() == Some(dir.as_path()))
            .cloned()
            .collect()
    }

    fn text(&self, path: &Path) -> Option<String> {
        let text = self.files.get(&from_top(path))?;
        (text.len() <= crate::read::BOUND).then(|| text.to_string())
    }
}

/// The blueprints a run has read for their local imports: each folder's importers and each
/// file's summary, read once per run (a project's, not the process's).
#[derive(Debug, Default)]
pub struct Blueprints {
    /// Where they are read from.
    files: Box<dyn BlueprintFiles>,
    /// The run's roots and their canonical forms, worked out at the first blueprint (the
    /// same roots come with every file of a run).
    roots: Mutex<Option<CanonicalRoots>>,
    /// Each folder's blueprints and the files their local imports name.
    folders: Mutex<HashMap<PathBuf, Arc<FolderImports>>>,
    /// Each file's [`Summary`] (at most [`SUMMARIES`]).
    summaries: Mutex<HashMap<PathBuf, Option<Arc<Summary>>>>,
    /// The documents [`Blueprints::summary`] loaded for files not yet linted (a blueprint's
    /// siblings, read to find its importers), by canonical path, until the lint of each takes
    /// its own ([`Blueprints::take_loaded`]): a sibling is then loaded once, not twice. At
    /// most [`LOADED_BYTES`] of their texts are held.
    loaded: Mutex<Loaded>,
}

/// The documents [`Blueprints::summary`] keeps for the lint, and the bytes of their texts.
#[derive(Debug, Default)]
struct Loaded {
    documents: HashMap<PathBuf, hotfix_yaml::Document>,
    bytes: usize,
}

impl Default for Box<dyn BlueprintFiles> {
    fn default() -> Self {
        Box::new(Disk::default())
    }
}

impl Blueprints {
    /// The blueprints of `files` (held in memory, say); [`Blueprints::default`] reads the disk.
    pub fn over(files: Box<dyn BlueprintFiles>) -> Blueprints {
        Blueprints {
            files,
            ..Blueprints::default()
        }
    }

    /// What the local imports of the blueprint at `path` declare; `None` when it has none (or is
    /// not a blueprint). An import that cannot be read or loaded leaves the result incomplete, and
    /// so does one outside the run's `roots` (the paths given and their projects): hotfix reads
    /// nothing outside them, whatever path an import names.
    pub fn local_imports(
        &self,
        path: &Path,
        bytes: &[u8],
        roots: &[hotfix_stack::StackPath],
    ) -> Option<Arc<Imported>> {
        let roots = self.canonical(roots);
        let roots = roots.as_slice();
        let target = self.files.canonical(path);
        let importers = target
            .as_deref()
            .map(|t| self.importers_of(t, roots))
            .unwrap_or_default();
        if !importers.is_empty() {
            // A fragment: the names of every importer and of everything they import.
            let mut imported = Imported::new();
            let mut seen = Vec::new();
            for importer in importers {
                let Some(summary) = self.summary(&importer) else {
                    imported.complete = false;
                    continue;
                };
                let base = importer.parent().unwrap_or(Path::new("")).to_path_buf();
                imported.merge(&summary.adds);
                seen.push(importer.clone());
                let pending = summary
                    .local
                    .iter()
                    .map(|n| (base.clone(), n.clone()))
                    .collect();
                self.gather(&base, pending, roots, &mut imported, &mut seen);
            }
            return Some(Arc::new(imported));
        }
        let text = std::str::from_utf8(bytes).ok()?;
        // Without the word, no `imports` section (and a blueprint is not loaded twice for nothing).
        if !text.contains("imports") {
            return None;
        }
        // The file as its folder's blueprints were read (to find its importers), when that is
        // what is linted: loaded once for both.
        let read = target
            .as_deref()
            .and_then(|t| self.summary(t))
            .filter(|s| s.text_hash == text_hash(text));
        let locals = match read {
            Some(summary) => summary.blueprint_locals.clone()?,
            None => blueprint_locals(&hotfix_yaml::parse_unlimited(text).ok()?)?,
        };
        let root = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let pending: Vec<(PathBuf, String)> = locals
            .into_iter()
            .map(|import| (root.clone(), import))
            .collect();
        if pending.is_empty() {
            return None;
        }
        let mut imported = Imported::new();
        self.gather(&root, pending, roots, &mut imported, &mut Vec::new());
        Some(Arc::new(imported))
    }

    /// The canonical forms of `roots` (those that exist), asked of the system once per run.
    fn canonical(&self, roots: &[hotfix_stack::StackPath]) -> Arc<Vec<PathBuf>> {
        if let Some((known, canonical)) = self.roots.lock().ok().as_deref().and_then(Option::as_ref)
            && known.as_slice() == roots
        {
            return Arc::clone(canonical);
        }
        let canonical: Arc<Vec<PathBuf>> = Arc::new(
            roots
                .iter()
                .filter_map(|r| self.files.canonical(Path::new(r.as_str())))
                .collect(),
        );
        if let Ok(mut cache) = self.roots.lock() {
            *cache = Some((roots.to_vec(), Arc::clone(&canonical)));
        }
        canonical
    }

    /// Reads the local imports `pending` (import text and the folder of the file naming it), and
    /// theirs, into `imported`; those outside `roots` (canonical) are not read.
    fn gather(
        &self,
        root: &Path,
        mut pending: Vec<(PathBuf, String)>,
        roots: &[PathBuf],
        imported: &mut Imported,
        seen: &mut Vec<PathBuf>,
    ) {
        while let Some((base, import)) = pending.pop() {
            if seen.len() >= MAX_FILES {
                imported.complete = false;
                break;
            }
            // Relative to the importing file, else to the blueprint's own folder.
            let Some(file) = [base.join(&import), root.join(&import)]
                .into_iter()
                .find(|p| self.files.is_file(p))
            else {
                imported.complete = false;
                continue;
            };
            let Some(file) = self.files.canonical(&file).filter(|f| inside(f, roots)) else {
                imported.complete = false;
                continue;
            };
            if seen.contains(&file) {
                continue;
            }
            seen.push(file.clone());
            let Some(summary) = self.summary(&file) else {
                imported.complete = false;
                continue;
            };
            let base = file.parent().unwrap_or(Path::new("")).to_path_buf();
            imported.merge(&summary.adds);
            for next in &summary.local {
                pending.push((base.clone(), next.clone()));
            }
        }
    }

    /// The blueprints in the folder of `path`, its parent and its grandparent that import it (of
    /// those folders, the ones inside `roots`, canonical).
    fn importers_of(&self, target: &Path, roots: &[PathBuf]) -> Vec<PathBuf> {
        let mut importers = Vec::new();
        for dir in target
            .ancestors()
            .skip(1)
            .take(3)
            .filter(|dir| inside(dir, roots))
        {
            for (file, imports) in self.folder_imports(dir).iter() {
                if file != target && imports.iter().any(|i| i == target) {
                    importers.push(file.clone());
                }
            }
        }
        importers
    }

    /// The blueprints of one folder and the files their local imports name (resolved against the
    /// blueprint's folder), read once per folder and run.
    fn folder_imports(&self, dir: &Path) -> Arc<FolderImports> {
        if let Some(found) = self.folders.lock().ok().and_then(|c| c.get(dir).cloned()) {
            return found;
        }
        let mut found = Vec::new();
        for file in self.files.files_in(dir) {
            let is_yaml = file
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
            if !is_yaml || !self.files.is_file(&file) {
                continue;
            }
            let Some(text) = self.files.text(&file) else {
                continue;
            };
            if !text.contains("cloudify_dsl_") || !text.contains("imports") {
                continue;
            }
            let Some(summary) = self.summary(&file) else {
                continue;
            };
            let Some(locals) = &summary.blueprint_locals else {
                continue;
            };
            let imports: Vec<PathBuf> = locals
                .iter()
                .filter_map(|i| self.files.canonical(&dir.join(i)))
                .collect();
            if !imports.is_empty() {
                let file = self.files.canonical(&file).unwrap_or(file);
                found.push((file, imports));
            }
        }
        let found = Arc::new(found);
        if let Ok(mut cache) = self.folders.lock() {
            cache.insert(dir.to_path_buf(), Arc::clone(&found));
        }
        found
    }

    /// Remembers what the blueprint at `path`, whose text `text` a front end loaded as `doc`
    /// for its own checks, declares and imports: its [`Summary`], as reading it again would
    /// make it (when its importers or its own imports are looked for, it is not loaded twice).
    pub fn remember(&self, path: &Path, text: &str, doc: &hotfix_yaml::Document) {
        let Some(target) = self.files.canonical(path) else {
            return;
        };
        if self
            .summaries
            .lock()
            .map_or(true, |cache| cache.contains_key(&target))
        {
            return;
        }
        // Linted: no document loaded for it before is wanted any more.
        self.take(&target);
        // Made without the lock, which every thread linting a blueprint takes: held while
        // the summary was made, it kept the other threads waiting (the corpus's Cloudify
        // blueprints were linted on 1.2 cores of two, 1.5 without it).
        let mut adds = Imported::new();
        let local = adds.add(doc);
        let summary = Summary {
            adds,
            local,
            blueprint_locals: blueprint_locals(doc),
            text_hash: text_hash(text),
        };
        let Ok(mut cache) = self.summaries.lock() else {
            return;
        };
        if cache.len() >= SUMMARIES {
            cache.clear();
        }
        // Another thread may have made it meanwhile, from the same text: either will do.
        cache.entry(target).or_insert(Some(Arc::new(summary)));
    }

    /// The [`Summary`] of the file at `path`, from what was read before when it was; `None` when
    /// it cannot be read or loaded. A file imported by many blueprints (a shared `includes/`) is
    /// then loaded once, not once per blueprint and per fragment beside it.
    fn summary(&self, path: &Path) -> Option<Arc<Summary>> {
        if let Some(found) = self
            .summaries
            .lock()
            .ok()
            .and_then(|c| c.get(path).cloned())
        {
            return found;
        }
        let found = self.files.text(path).and_then(|text| {
            let doc = hotfix_yaml::parse_unlimited(&text).ok()?;
            let mut adds = Imported::new();
            let local = adds.add(&doc);
            let summary = Arc::new(Summary {
                adds,
                local,
                blueprint_locals: blueprint_locals(&doc),
                text_hash: text_hash(&text),
            });
            if summary.blueprint_locals.is_some() {
                self.keep(path, doc);
            }
            Some(summary)
        });
        if let Ok(mut cache) = self.summaries.lock() {
            if cache.len() >= SUMMARIES {
                cache.clear();
            }
            cache.insert(path.to_path_buf(), found.clone());
        }
        found
    }
}

impl Blueprints {
    /// The document of the blueprint at `path` as [`Blueprints::summary`] loaded it, when its
    /// text is `text` (the file did not change in between): the lint's load of it, done.
    /// Taken once: the next caller loads the file itself.
    pub fn take_loaded(&self, path: &Path, text: &str) -> Option<hotfix_yaml::Document> {
        if self.loaded.lock().ok()?.documents.is_empty() {
            return None;
        }
        let doc = self.take(&self.files.canonical(path)?)?;
        (doc.source() == text).then_some(doc)
    }

    /// Removes the document kept for the canonical `path`.
    fn take(&self, path: &Path) -> Option<hotfix_yaml::Document> {
        let mut loaded = self.loaded.lock().ok()?;
        let doc = loaded.documents.remove(path)?;
        loaded.bytes -= doc.source().len();
        Some(doc)
    }

    /// Keeps the document `doc` of the blueprint at the canonical `path` for its lint, while
    /// [`LOADED_BYTES`] allows.
    fn keep(&self, path: &Path, doc: hotfix_yaml::Document) {
        let Ok(mut loaded) = self.loaded.lock() else {
            return;
        };
        let bytes = doc.source().len();
        if loaded.bytes + bytes <= LOADED_BYTES && !loaded.documents.contains_key(path) {
            loaded.bytes += bytes;
            loaded.documents.insert(path.to_path_buf(), doc);
        }
    }
}

/// The most text, in bytes, of the documents kept for the lint ([`Blueprints::take_loaded`]):
/// a blueprint's siblings are linted soon after it, by the same walk; those a run never lints
/// (a folder above the paths given) must not hold much.
const LOADED_BYTES: usize = 1 << 20;

/// Whether the canonical `path` lies in one of the canonical `roots`.
fn inside(path: &Path, roots: &[PathBuf]) -> bool {
    roots.iter().any(|root| path.starts_with(root))
}

/// Each blueprint of a folder, with the files its local imports name.
type FolderImports = Vec<(PathBuf, Vec<PathBuf>)>;

/// What one file contributes where it is imported or imports, read once per run.
#[derive(Debug)]
struct Summary {
    /// What it declares and uses, as [`Imported::add`] adds it.
    adds: Imported,
    /// Its local imports as written (relative to it), as [`Imported::add`] gives them.
    local: Vec<String>,
    /// When it is a blueprint: its local imports, as [`Blueprint::new`] reads them.
    blueprint_locals: Option<Vec<String>>,
    /// What [`text_hash`] gives for the text read.
    text_hash: u64,
}

/// A hash of a file's text, to tell whether what is linted is what was read.
fn text_hash(text: &str) -> u64 {
    use std::hash::BuildHasher as _;
    // Compared within one run only: a fast hash of fixed seed, not SipHash's defence against
    // chosen keys (nothing is kept in a table by it).
    foldhash::fast::FixedState::with_seed(0).hash_one(text)
}

/// A blueprint's local imports as written; `None` when the document is not a blueprint.
fn blueprint_locals(doc: &hotfix_yaml::Document) -> Option<Vec<String>> {
    Blueprint::local_imports(doc)
}

/// How many files' summaries are remembered (memory must not grow with the tree).
const SUMMARIES: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    const BLUEPRINT: &str = "tosca_definitions_version: cloudify_dsl_1_3\nimports:\n  - IMPORT\n";

    #[test]
    fn reads_no_import_outside_the_paths_given() {
        let dir = tempfile::tempdir().expect("temp dir");
        let project = dir.path().join("project");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&project).expect("mkdir");
        std::fs::create_dir_all(&outside).expect("mkdir");
        let fragment = "inputs:\n  size: {default: 1}\n";
        std::fs::write(project.join("inputs.yaml"), fragment).expect("write");
        std::fs::write(outside.join("inputs.yaml"), fragment).expect("write");
        let roots = [hotfix_stack::StackPath::new(&project.to_string_lossy())];
        let blueprint = project.join("blueprint.yaml");

        // An import inside the project is read.
        let text = BLUEPRINT.replace("IMPORT", "inputs.yaml");
        let blueprints = Blueprints::default();
        let imported = blueprints
            .local_imports(&blueprint, text.as_bytes(), &roots)
            .expect("imports");
        assert!(imported.complete);
        assert_eq!(imported.inputs, ["size"]);

        // One outside it, by a relative or an absolute path, is not: the names stay unknown.
        for import in [
            "../outside/inputs.yaml".to_owned(),
            outside.join("inputs.yaml").to_string_lossy().into_owned(),
        ] {
            let text = BLUEPRINT.replace("IMPORT", &import);
            let imported = blueprints
                .local_imports(&blueprint, text.as_bytes(), &roots)
                .expect("imports");
            assert!(!imported.complete, "{import}");
            assert!(imported.inputs.is_empty(), "{import}");
        }
    }

    #[test]
    fn looks_for_importers_only_inside_the_paths_given() {
        let dir = tempfile::tempdir().expect("temp dir");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project).expect("mkdir");
        // A blueprint in the folder above the project imports the fragment.
        let importer = BLUEPRINT.replace("IMPORT", "project/fragment.yaml");
        std::fs::write(dir.path().join("importer.yaml"), importer).expect("write");
        let fragment = project.join("fragment.yaml");
        std::fs::write(&fragment, "node_templates: {}\n").expect("write");
        let target = fragment.canonicalize().expect("canonical");
        let above = dir.path().canonicalize().expect("canonical");
        let blueprints = Blueprints::default();
        assert_eq!(blueprints.importers_of(&target, &[above]).len(), 1);
        let project = project.canonicalize().expect("canonical");
        assert!(blueprints.importers_of(&target, &[project]).is_empty());
    }

    #[test]
    fn a_sibling_loaded_to_find_importers_is_handed_to_its_lint_once_and_only_as_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("canonical");
        let fragment = root.join("fragment.yaml");
        std::fs::write(&fragment, "node_templates: {}\n").expect("write");
        let importer_text = BLUEPRINT.replace("IMPORT", "fragment.yaml");
        std::fs::write(root.join("importer.yaml"), &importer_text).expect("write");
        let roots = [hotfix_stack::StackPath::new(&root.to_string_lossy())];
        let blueprints = Blueprints::default();
        // The fragment's lint reads its importer, which is kept for the importer's lint.
        let imported = blueprints
            .local_imports(&fragment, b"node_templates: {}\n", &roots)
            .expect("imports");
        assert!(imported.complete);
        let doc = blueprints
            .take_loaded(&root.join("importer.yaml"), &importer_text)
            .expect("kept");
        assert_eq!(doc.source(), importer_text);
        // Taken once.
        assert!(
            blueprints
                .take_loaded(&root.join("importer.yaml"), &importer_text)
                .is_none()
        );
        // A text that changed since is loaded again by its lint.
        let blueprints = Blueprints::default();
        blueprints.local_imports(&fragment, b"node_templates: {}\n", &roots);
        let changed = format!("{importer_text}# changed\n");
        assert!(
            blueprints
                .take_loaded(&root.join("importer.yaml"), &changed)
                .is_none()
        );
        // A file linted before its siblings are read keeps nothing for itself.
        let blueprints = Blueprints::default();
        let doc = hotfix_yaml::parse(&importer_text).expect("parse");
        blueprints.remember(&root.join("importer.yaml"), &importer_text, &doc);
        blueprints.local_imports(&fragment, b"node_templates: {}\n", &roots);
        assert!(blueprints.loaded.lock().expect("lock").documents.is_empty());
    }

    #[test]
    fn files_in_memory_are_found_as_on_disk() {
        let files = MemoryFiles::new([("app/blueprint.yaml", "a"), ("app/parts/vm.yaml", "b")]);
        assert_eq!(
            files.canonical(Path::new("app/x/../parts/vm.yaml")),
            Some(PathBuf::from("/app/parts/vm.yaml"))
        );
        // A folder is there when a file is in it; nothing else is.
        assert_eq!(files.canonical(Path::new(".")), Some(PathBuf::from("/")));
        assert_eq!(files.canonical(Path::new("app/parts/none.yaml")), None);
        assert!(files.is_file(Path::new("./app/blueprint.yaml")));
        assert!(!files.is_file(Path::new("app")));
        assert_eq!(
            files.files_in(Path::new("app")),
            [PathBuf::from("/app/blueprint.yaml")]
        );
        assert_eq!(
            files.text(Path::new("app/parts/vm.yaml")).as_deref(),
            Some("b")
        );
    }
}
