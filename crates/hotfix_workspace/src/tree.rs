//! The tree's environments: every environment file under the folders a run spans, found by
//! content, and the registry they make.

use std::cell::OnceCell;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use hotfix_stack::{FileSource, Rendered, StackPath, Texts};

use crate::root::Scope;

/// How many files the walk for the tree's environments meets (of any kind, read or not) before
/// it stops: the tree's registry is then incomplete, no type is called unmapped, and a warning
/// says so. A real project's tree is far smaller; a home folder is not.
const TREE_BOUND: usize = 100_000;

/// How many files of a folder outside any project (a named file's own) are listed at most: a
/// folder of templates has far fewer; a downloads folder may have far more, and listing each
/// would cost more than the lint. Past it the registry is incomplete, as past [`TREE_BOUND`].
const SHALLOW_BOUND: usize = 10_000;

/// How many files the walk for the tree's environments lists for the lint at most ([`Listing`]):
/// about 1.5 MB of paths. A larger tree is walked again by the lint, a folder at a time, so
/// that its memory does not grow with the number of its files.
pub(crate) const LISTING_BOUND: usize = 10_000;

/// What the walk for the tree's environments learnt of the files it read that the lint skips
/// whatever it finds in them: a file of a template's extension that is neither a template, an
/// environment nor a blueprint by its content ([`crate::kind::classify`]: other YAML, a Jinja
/// source), and a file of another extension whose first bytes show it is not one either
/// ([`crate::kind::sniff`]). The lint of a folder then does not open them a second time
/// ([`Told::kind`]).
///
/// Each file is known by a 64-bit hash of its path as the system resolves it, under a seed
/// drawn for the run (two paths of a tree of 100,000 files share one with a chance of about
/// one in 10^9, and no file can be named to match another's): the path's parts as they are
/// (bytes, not text: a name with `\` or one that is not UTF-8 is itself), a relative path's
/// after the working folder's (the system's, symbolic links resolved, so that a leading `..`
/// is its parent). A path with `..` after a name (`link/../a.yaml`, which the system resolves
/// through the link) has no key. A tree's files hold 16 bytes each, not their paths, in a list
/// sorted by hash.
#[derive(Debug)]
pub struct Told {
    seed: foldhash::quality::RandomState,
    /// The parts of the working folder (its drive and names), as the system resolves
    /// relative paths from it.
    cwd: Option<Vec<OsString>>,
    kinds: Vec<(u64, crate::kind::Kind)>,
}

impl Default for Told {
    fn default() -> Told {
        Told {
            seed: foldhash::quality::RandomState::default(),
            cwd: std::env::current_dir().ok().map(|cwd| {
                cwd.components()
                    .filter_map(|c| match c {
                        std::path::Component::Prefix(prefix) => Some(prefix.as_os_str().to_owned()),
                        std::path::Component::Normal(name) => Some(name.to_owned()),
                        _ => None,
                    })
                    .collect()
            }),
            kinds: Vec::new(),
        }
    }
}

impl Told {
    /// What the walk found the file at `path` to be, when it was one the lint skips.
    pub fn kind(&self, path: &Path) -> Option<crate::kind::Kind> {
        if self.kinds.is_empty() {
            return None;
        }
        let key = self.key(path)?;
        let at = self.kinds.binary_search_by_key(&key, |&(k, _)| k).ok()?;
        Some(self.kinds[at].1)
    }

    #[cfg(unix)]
    fn key(&self, path: &Path) -> Option<u64> {
        use std::hash::{BuildHasher as _, Hasher as _};
        // The parts of a path are its bytes between separators, as the system reads them
        // (an empty part or `.` is none).
        let bytes = path.as_os_str().as_encoded_bytes();
        let parts = || {
            bytes
                .split(|&b| b == b'/')
                .filter(|part| !part.is_empty() && *part != b".")
        };
        // The working folder's parts kept: a `..` before any name is its parent.
        let base = if bytes.first() == Some(&b'/') {
            &[]
        } else {
            self.cwd.as_deref()?
        };
        let mut kept = base.len();
        let mut named = false;
        for part in parts() {
            if part != b".." {
                named = true;
            } else if named {
                return None;
            } else {
                kept = kept.checked_sub(1)?;
            }
        }
        let mut hasher = self.seed.build_hasher();
        let base = base[..kept].iter().map(|p| p.as_encoded_bytes());
        for part in base.chain(parts().filter(|part| *part != b"..")) {
            hasher.write(part);
            hasher.write_u8(0);
        }
        Some(hasher.finish())
    }

    #[cfg(not(unix))]
    fn key(&self, path: &Path) -> Option<u64> {
        self.key_by_parts(path)
    }

    /// [`Told::key`] by the system's own reading of a path's parts (a drive included),
    /// gathered one by one: the key where a path is not bytes between `/`.
    #[cfg(any(not(unix), test))]
    fn key_by_parts(&self, path: &Path) -> Option<u64> {
        use std::hash::{BuildHasher as _, Hasher as _};
        use std::path::Component;
        let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
        if path.is_relative() {
            parts.extend(self.cwd.as_deref()?.iter().map(OsString::as_os_str));
        }
        let mut named = false;
        for component in path.components() {
            match component {
                Component::Prefix(prefix) => parts.push(prefix.as_os_str()),
                Component::RootDir | Component::CurDir => {}
                // Only before any name: the working folder's parent, as the system has it.
                Component::ParentDir if !named => {
                    parts.pop()?;
                }
                Component::ParentDir => return None,
                Component::Normal(name) => {
                    named = true;
                    parts.push(name);
                }
            }
        }
        let mut hasher = self.seed.build_hasher();
        for part in parts {
            hasher.write(part.as_encoded_bytes());
            hasher.write_u8(0);
        }
        Some(hasher.finish())
    }
}

/// The files the walk for the tree's environments met under its one folder (when a run spans
/// one), in the order of their paths: the lint's list of the files of that folder, so that the
/// tree is walked once, not a second time to list what to lint ([`crate::walk::Walker`]).
#[derive(Debug)]
pub struct Listing {
    /// The folder, as the walk named it (each file's path begins with it).
    root: PathBuf,
    files: Vec<PathBuf>,
    /// The largest files the lint reads (at most [`LARGEST`], of [`LARGE`] bytes or more), the
    /// largest first.
    largest: Vec<PathBuf>,
}

/// How many of the largest files a listing names ([`Listing::largest`]).
const LARGEST: usize = 8;

/// How large a file a listing names among the largest is at least, in bytes: one that takes a
/// core a few milliseconds to lint.
const LARGE: usize = 32 * 1024;

impl Listing {
    /// A listing of `files` (in the order of their paths) under `root`.
    #[cfg(test)]
    pub(crate) fn new(root: PathBuf, files: Vec<PathBuf>) -> Listing {
        Listing {
            root,
            files,
            largest: Vec::new(),
        }
    }

    /// The folder listed, as the walk named it.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The largest files the walk read that the lint reads too (at most 8, of 32 KB or more),
    /// the largest first: the lint starts them before the others, so that no core is left
    /// alone with one of them at the end of the run.
    pub fn largest(&self) -> &[PathBuf] {
        &self.largest
    }

    /// Its files, in the order of their paths.
    pub fn into_files(self) -> Vec<PathBuf> {
        self.files
    }
}

/// The path a walk is given for the folder `root`: a folder named `-` as `./-`, which the walk
/// would read as standard input (meeting no file, and saying nothing).
fn walk_root(root: &str) -> PathBuf {
    if root == "-" {
        PathBuf::from("./-")
    } else {
        PathBuf::from(root)
    }
}

/// Paths in the order of their parts (a folder's files follow it, before the names that sort
/// after its own), as a walk sorted by name meets them: byte order, with a separator before any
/// byte of a name.
fn path_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    // The common beginning, eight bytes at a time: paths of one tree share long ones.
    let shorter = a.len().min(b.len());
    let mut same = 0;
    while same + 8 <= shorter && a[same..same + 8] == b[same..same + 8] {
        same += 8;
    }
    while same < shorter && a[same] == b[same] {
        same += 1;
    }
    let part = |byte: u8| {
        if std::path::is_separator(char::from(byte)) {
            0
        } else {
            byte
        }
    };
    match (a.get(same), b.get(same)) {
        (Some(&x), Some(&y)) => part(x).cmp(&part(y)),
        _ => a.len().cmp(&b.len()),
    }
}

/// What a walk for the tree's environments did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// The files it met.
    pub visited: usize,
    /// Whether it stopped at [`TREE_BOUND`] (or a folder outside any project at
    /// [`SHALLOW_BOUND`]).
    pub stopped: bool,
    /// When only folders outside any project stopped at their own bound, which: the others'
    /// environments were all read (empty when the run's bound stopped it).
    pub stopped_in: Vec<StackPath>,
}

impl Walked {
    /// The one-line warning for a walk that stopped at its bound, naming where it walked.
    pub fn warning(&self, scope: &Scope) -> Option<String> {
        const NAME_THEM: &str =
            "name the environments with `-e` or in a `[[stacks]]` entry of `hotfix.toml`";
        if !self.stopped {
            return None;
        }
        if self.stopped_in.is_empty() {
            return Some(format!(
                "hotfix: warning: stopped looking for environments after {} files under {}: \
                 `unmapped-resource-type` (X007) is not checked; {NAME_THEM}",
                self.visited,
                places(scope)
            ));
        }
        let only = Scope {
            roots: self.stopped_in.clone(),
            ..scope.clone()
        };
        Some(format!(
            "hotfix: warning: stopped looking for environments in {} after {SHALLOW_BOUND} \
             files: `unmapped-resource-type` (X007) is not checked there; {NAME_THEM}",
            places(&only)
        ))
    }

    /// What `--verbose` says of the walk.
    pub fn describe(&self, scope: &Scope) -> String {
        format!(
            "looked for environments among {} {} under {}",
            self.visited,
            if self.visited == 1 { "file" } else { "files" },
            places(scope)
        )
    }
}

/// The roots of a scope as a list for a message (`a, b (its files only)`).
fn places(scope: &Scope) -> String {
    scope
        .roots
        .iter()
        .map(|root| {
            let name = crate::paths::escaped(Path::new(root.as_str()));
            if scope.shallow.contains(root) {
                format!("{name} (its files only)")
            } else {
                name
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every environment file under the scope's roots (and the words of each `*.j2.yaml` or
/// `*.yaml.j2` environment source, which a deployment renders), found by content: a file of any
/// extension whose text names one of Heat's environment sections, read as Heat reads it. The
/// shallow roots (folders outside any project) are read one level deep, and only their files
/// of a template's extension, at most [`SHALLOW_BOUND`] of each ([`read_shallow`]); at most
/// [`TREE_BOUND`] files are met in all.
///
/// With `list`, and when the scope is one folder, the walk also keeps the path of every file
/// it meets, for the lint ([`Listing`]): none when it met a folder it could not read, stopped
/// at its bound, or met more than [`LISTING_BOUND`] files (the lint then walks the folder
/// itself, and says what it could not read). With it, the registry of each root's environments
/// alone, for a run over several roots ([`by_root`]).
pub fn tree_registry(
    scope: &Scope,
    source: &dyn FileSource,
    list: bool,
) -> (
    hotfix_stack::Registry,
    Vec<hotfix_stack::Registry>,
    Walked,
    Told,
    Option<Listing>,
) {
    let whole: Vec<PathBuf> = scope
        .roots
        .iter()
        .filter(|r| !scope.shallow.contains(r) && Path::new(r.as_str()).is_dir())
        .map(|r| walk_root(r.as_str()))
        .collect();
    let listed_root = match whole.as_slice() {
        [root] if list => Some(root.clone()),
        _ => None,
    };
    let readers = Readers {
        told: Told::default(),
        roots: &scope.roots,
        source,
        seen: AtomicUsize::new(0),
        incomplete: AtomicBool::new(false),
        found: Mutex::new(Gathered::default()),
        list: listed_root.is_some(),
        unlisted: AtomicBool::new(false),
        listed: AtomicUsize::new(0),
    };
    let mut whole = whole.into_iter();
    if let Some(first) = whole.next() {
        let mut builder = ignore::WalkBuilder::new(first);
        for root in whole {
            builder.add(root);
        }
        // Folders listed and files read on threads of the walk's own, each reading what it
        // lists: the linting threads that asked for the registry wait for it (they cannot help
        // a parallel iterator while they wait), and a listing on one thread before the reading
        // would leave the other cores idle. As many as the lint has (`RAYON_NUM_THREADS` limits
        // both): a run held to one thread uses one.
        // The lint's walk's rules: hidden files skipped, `.gitignore` honoured even outside a
        // git repository.
        let threads = walk_threads();
        builder
            .hidden(true)
            .git_ignore(true)
            .require_git(false)
            .threads(threads)
            .build_parallel()
            .visit(&mut &readers);
    }
    let shallow_stopped = read_shallow_roots(scope, &readers);
    let Readers {
        found,
        incomplete,
        seen,
        mut told,
        unlisted,
        ..
    } = readers;
    let Gathered {
        mut environments,
        mut rendered,
        mut nested,
        skipped,
        mut listed,
        large,
    } = found.into_inner().unwrap_or_else(PoisonError::into_inner);
    told.kinds = skipped;
    told.kinds.sort_unstable_by_key(|&(key, _)| key);
    told.kinds.shrink_to_fit();
    let run_stopped = incomplete.into_inner();
    let incomplete = run_stopped || !shallow_stopped.is_empty();
    let listing = listed_root
        .filter(|_| !incomplete && !unlisted.into_inner())
        .map(|root| {
            // Sorted runs, one a thread, which the stable sort finds and merges.
            listed.sort_by(|a, b| path_order(a, b));
            Listing {
                root,
                files: listed,
                largest: large.into_iter().map(|(_, path)| path).collect(),
            }
        });
    let walked = Walked {
        visited: seen.into_inner().min(TREE_BOUND),
        stopped: incomplete,
        stopped_in: if run_stopped || scope.roots.len() < 2 {
            Vec::new()
        } else {
            shallow_stopped.clone()
        },
    };
    // A root above the working folder finds the files under it by `..`: named as the run
    // names them.
    if scope.roots.iter().any(|r| r.as_str().starts_with("..")) {
        for environment in &mut environments {
            rename_environment(scope, environment);
        }
        for source in &mut rendered {
            source.path = scope.name(source.path.clone());
        }
        for (from, path) in &mut nested {
            *from = scope.name(from.clone());
            *path = scope.name(path.clone());
        }
    }
    // In path order, whatever order the folders were listed in: the findings that name an
    // environment name the first.
    environments.sort_by(|a, b| a.path.cmp(&b.path));
    rendered.sort_by(|a: &Rendered, b| a.path.cmp(&b.path));
    let stopped = Stopped {
        run: run_stopped,
        roots: &shallow_stopped,
    };
    let by_root = by_root(scope, &environments, &rendered, &nested, &stopped);
    let registry = hotfix_stack::Registry::tree(environments, rendered, incomplete)
        .with_nested(nested.into_iter().map(|(_, path)| path));
    (registry, by_root, walked, told, listing)
}

/// Where the walk for the tree's environments stopped at a bound: the run's (every root's
/// registry is then incomplete), and the roots outside any project that stopped at their own.
struct Stopped<'s> {
    run: bool,
    roots: &'s [StackPath],
}

/// In a run over several roots (folders outside one project), the registry of each root's
/// environments alone, in the order of the roots: a template is read against those of its own
/// root, as a run over that folder alone reads it (another folder's environments neither map
/// its types nor make a type they leave unmapped an error). A template is known as nested by
/// the root of the file that names it (`nested`: each with the file naming it), and a root is
/// incomplete when the run or that root stopped at a bound. None for a run over one root.
fn by_root(
    scope: &Scope,
    environments: &[hotfix_stack::EnvironmentFacts],
    rendered: &[Rendered],
    nested: &[(StackPath, StackPath)],
    stopped: &Stopped<'_>,
) -> Vec<hotfix_stack::Registry> {
    if scope.roots.len() < 2 {
        return Vec::new();
    }
    // Each file's root found once, by its folders (a run over files named one by one may span
    // thousands of roots).
    let roots = crate::root::RootIndex::new(scope);
    let mut parts: Vec<(Vec<_>, Vec<_>, Vec<_>)> =
        scope.roots.iter().map(|_| Default::default()).collect();
    for environment in environments {
        if let Some(root) = environment.path.as_ref().and_then(|p| roots.of(p)) {
            parts[root].0.push(environment.clone());
        }
    }
    for source in rendered {
        if let Some(root) = roots.of(&source.path) {
            parts[root].1.push(source.clone());
        }
    }
    for (from, path) in nested {
        if let Some(root) = roots.of(from) {
            parts[root].2.push(path.clone());
        }
    }
    parts
        .into_iter()
        .zip(&scope.roots)
        .map(|((environments, rendered, nested), root)| {
            let incomplete = stopped.run || stopped.roots.contains(root);
            hotfix_stack::Registry::tree(environments, rendered, incomplete).with_nested(nested)
        })
        .collect()
}

/// The registry of the environments among files held in memory (`files`: each file's path
/// and text, read through `source` too), found as [`tree_registry`] finds them on disk: the
/// playground's tree.
pub fn memory_registry<'a>(
    files: impl IntoIterator<Item = (&'a StackPath, &'a str)>,
    roots: &[StackPath],
    source: &dyn FileSource,
) -> hotfix_stack::Registry {
    let mut environments = Vec::new();
    let mut rendered = Vec::new();
    let mut nested = Vec::new();
    let mut texts = Texts::default();
    let searches = Searches::new();
    for (path, text) in files {
        let found = environment_in(
            Path::new(path.as_str()),
            &path.clone().into(),
            text,
            roots,
            source,
            &mut texts,
            &searches,
        );
        environments.extend(found.environment);
        rendered.extend(found.rendered);
        nested.extend(found.nested);
    }
    environments.sort_by(|a, b| a.path.cmp(&b.path));
    rendered.sort_by(|a: &Rendered, b| a.path.cmp(&b.path));
    hotfix_stack::Registry::tree(environments, rendered, false).with_nested(nested)
}

/// An environment found under a root above the working folder, with its path and the files its
/// registry names as the run names them.
fn rename_environment(scope: &Scope, environment: &mut hotfix_stack::EnvironmentFacts) {
    use hotfix_stack::Target;
    if let Some(path) = &mut environment.path {
        *path = scope.name(path.clone());
    }
    for entry in &mut environment.entries {
        let Some(target) = &mut entry.target else {
            continue;
        };
        match target {
            Target::File(p)
            | Target::Missing(p)
            | Target::Generated(p)
            | Target::Outside(p)
            | Target::Relocated(p) => *p = scope.name(p.clone()),
            Target::Url(_) => {}
        }
    }
}

/// Reads the shallow roots (folders outside any project, [`read_shallow`]): those that stopped
/// at their own bound, whose registry alone is incomplete (the run's bound stops every root's).
fn read_shallow_roots(scope: &Scope, readers: &Readers<'_>) -> Vec<StackPath> {
    scope
        .roots
        .iter()
        .filter(|r| scope.shallow.contains(r) && Path::new(r.as_str()).is_dir())
        .filter(|r| read_shallow(&walk_root(r.as_str()), readers))
        .cloned()
        .collect()
}

/// Reads the files directly in `folder`, a folder outside any project (a named file's own): it
/// is listed on this thread, and of its files (hidden ones skipped, as in a project) only those
/// of a template's extension and the Jinja sources of one are read. Such a folder is often a
/// downloads or home folder of many unrelated files, and opening each to tell what it is would
/// cost far more than the lint (`hotfix lint t.yaml` beside 100,000 files: 3 s instead of
/// 0.02 s); a file of another extension is found by its content inside a project only. Every
/// file listed counts against [`TREE_BOUND`], and at most [`SHALLOW_BOUND`] are listed.
fn read_shallow(folder: &Path, readers: &Readers<'_>) -> bool {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return false;
    };
    let mut stopped = false;
    let mut buffer = Vec::new();
    let mut texts = Texts::default();
    let searches = Searches::new();
    let mut mine = Gathered::default();
    let mut listed = 0;
    for entry in entries.flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let name = entry.file_name();
        if name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        listed += 1;
        if listed > SHALLOW_BOUND {
            stopped = true;
            break;
        }
        if readers.seen.fetch_add(1, Ordering::Relaxed) >= TREE_BOUND {
            readers.incomplete.store(true, Ordering::Relaxed);
            break;
        }
        // Told by the name alone: no path is made for the files not read.
        let named = Path::new(&name);
        if !(crate::kind::has_template_extension(named) || is_jinja_source(named)) {
            continue;
        }
        let path = entry.path();
        if let Some((found, _)) = environment_of(
            &path,
            readers.roots,
            readers.source,
            &mut buffer,
            &mut texts,
            &searches,
        ) {
            mine.take(found);
        }
    }
    readers
        .found
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .append(mine);
    stopped
}

/// What the threads of the walk for the tree's environments share.
struct Readers<'r> {
    /// The seed of the keys of the files the lint skips (filled once the walk is done).
    told: Told,
    roots: &'r [StackPath],
    /// Where registry targets are looked for.
    source: &'r dyn FileSource,
    /// Files met so far, against [`TREE_BOUND`].
    seen: AtomicUsize,
    incomplete: AtomicBool,
    found: Mutex<Gathered>,
    /// Whether every file met is kept for the lint ([`Listing`]).
    list: bool,
    /// Whether the listing is given up: the walk met an error (a folder it could not read; the
    /// lint then walks the tree itself, and reports it as its own walk does), or more than
    /// [`LISTING_BOUND`] files.
    unlisted: AtomicBool,
    /// The files listed so far.
    listed: AtomicUsize,
}

impl<'s> ignore::ParallelVisitorBuilder<'s> for &'s Readers<'s> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(Reader {
            shared: self,
            buffer: Vec::new(),
            head: Vec::new(),
            texts: Texts::default(),
            searches: Searches::new(),
            mine: Gathered::default(),
        })
    }
}

/// One thread of the walk for the tree's environments: it reads what it lists, into a buffer
/// of its own, and hands what it found over when the walk is done with it.
struct Reader<'r> {
    shared: &'r Readers<'r>,
    buffer: Vec<u8>,
    /// The first bytes of a file of another extension, apart from `buffer`, which keeps its
    /// length between files (cut short here, it would be grown and zeroed again).
    head: Vec<u8>,
    /// The texts of the environments this thread read, one copy of each.
    texts: Texts,
    searches: Searches,
    mine: Gathered,
}

impl ignore::ParallelVisitor for Reader<'_> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> ignore::WalkState {
        let Ok(entry) = entry else {
            self.shared.unlisted.store(true, Ordering::Relaxed);
            return ignore::WalkState::Continue;
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            return ignore::WalkState::Continue;
        }
        if self.shared.seen.fetch_add(1, Ordering::Relaxed) >= TREE_BOUND {
            self.shared.incomplete.store(true, Ordering::Relaxed);
            return ignore::WalkState::Quit;
        }
        self.read(entry.path());
        if self.shared.list {
            self.list(entry.into_path());
        }
        ignore::WalkState::Continue
    }
}

impl Reader<'_> {
    /// Reads the walked file at `path`, when it may be an environment (or a Jinja source of
    /// one), and keeps what it gives.
    fn read(&mut self, path: &Path) {
        // A file of a template's extension, a Jinja source of one, or a file of another
        // extension whose first bytes show a template or an environment (as the lint's walk
        // tells them).
        let templated = crate::kind::has_template_extension(path);
        let wanted = templated
            || is_jinja_source(path)
            || match sniffed(path, &mut self.head) {
                Sniffed::Not(kind) => {
                    self.skip(path, kind);
                    false
                }
                Sniffed::Maybe => true,
                Sniffed::Unreadable => false,
            };
        if !wanted {
            return;
        }
        // Only what a file gives is kept: most files give nothing, and a tree of tens of
        // thousands of files must not hold a record of each (a file the lint skips leaves
        // 16 bytes, not its path: see `Told`), beyond the lint's listing when it asked for one.
        if let Some((found, text)) = environment_of(
            path,
            self.shared.roots,
            self.shared.source,
            &mut self.buffer,
            &mut self.texts,
            &self.searches,
        ) {
            let skipped = if templated {
                skipped_kind(path, text)
            } else {
                None
            };
            let length = text.len();
            self.mine.take(found);
            if let Some(kind) = skipped {
                self.skip(path, kind);
            } else if self.shared.list && length >= LARGE {
                self.mine.keep_large(length, path);
            }
        }
    }

    /// Keeps the path of a file met for the lint's listing, unless the listing is given up
    /// (past [`LISTING_BOUND`], or a folder that could not be read): then what this thread
    /// kept is let go.
    fn list(&mut self, path: PathBuf) {
        let shared = self.shared;
        if !shared.unlisted.load(Ordering::Relaxed)
            && shared.listed.fetch_add(1, Ordering::Relaxed) < LISTING_BOUND
        {
            self.mine.listed.push(path);
        } else {
            shared.unlisted.store(true, Ordering::Relaxed);
            self.mine.listed = Vec::new();
        }
    }

    /// Remembers that the lint skips the file at `path`, as `kind`.
    fn skip(&mut self, path: &Path, kind: crate::kind::Kind) {
        if let Some(key) = self.shared.told.key(path) {
            self.mine.skipped.push((key, kind));
        }
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        // Each thread orders what it listed, on its own: what is left is a merge of sorted runs.
        self.mine.listed.sort_unstable_by(|a, b| path_order(a, b));
        self.shared
            .found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .append(std::mem::take(&mut self.mine));
    }
}

/// What the first bytes of a file of another extension than a template's say.
enum Sniffed {
    /// It cannot be read.
    Unreadable,
    /// They may show a template, an environment or a blueprint: the file is read whole.
    Maybe,
    /// They show it is none of them, but this ([`crate::kind::sniff`]).
    Not(crate::kind::Kind),
}

/// What the first bytes of the file at `path` say, read into `buffer`.
fn sniffed(path: &Path, buffer: &mut Vec<u8>) -> Sniffed {
    use std::io::Read as _;
    let Ok(file) = crate::read::open_listed(path) else {
        return Sniffed::Unreadable;
    };
    buffer.clear();
    if (&file)
        .take(crate::kind::SNIFF as u64)
        .read_to_end(buffer)
        .is_err()
    {
        return Sniffed::Unreadable;
    }
    let kind = crate::kind::sniff(path, buffer);
    // What a file that has become a FIFO or a device since it was listed reads as (nothing,
    // or NUL bytes): asked what it is then, so that the lint reports it instead of skipping it.
    if (buffer.is_empty() || kind == Some(crate::kind::Kind::Binary)) && !is_regular(&file) {
        return Sniffed::Unreadable;
    }
    match kind {
        Some(kind) => Sniffed::Not(kind),
        None => Sniffed::Maybe,
    }
}

/// Whether the open `file` is a regular file.
fn is_regular(file: &std::fs::File) -> bool {
    file.metadata().is_ok_and(|metadata| metadata.is_file())
}

/// What the walk for the tree's environments finds in one file.
#[derive(Default)]
struct Found {
    environment: Option<hotfix_stack::EnvironmentFacts>,
    /// A `*.j2.yaml` or `*.yaml.j2` environment source: its path and the words of its text.
    rendered: Option<Rendered>,
    /// The nested templates it names in a `type:` (read from the text, line by line).
    nested: Vec<StackPath>,
    /// The file, as the tree names it, when it names nested templates (the walk's reading,
    /// [`environment_of`], sets it: each root's registry takes what its own files name).
    from: Option<StackPath>,
}

/// What the walk for the tree's environments keeps of the files it read: most files give
/// nothing, and a tree of tens of thousands of files must not hold a record of each.
#[derive(Default)]
struct Gathered {
    environments: Vec<hotfix_stack::EnvironmentFacts>,
    rendered: Vec<Rendered>,
    /// The nested templates named, each with the file that names it.
    nested: Vec<(StackPath, StackPath)>,
    /// The files the lint skips ([`Told`]).
    skipped: Vec<(u64, crate::kind::Kind)>,
    /// Every file met, when the walk lists them ([`Listing`]).
    listed: Vec<PathBuf>,
    /// The largest files met that the lint reads, with their sizes, the largest first (at
    /// most [`LARGEST`]), when the walk lists them.
    large: Vec<(usize, PathBuf)>,
}

impl Gathered {
    /// Keeps what one file gave.
    fn take(&mut self, found: Found) {
        self.environments.extend(found.environment);
        self.rendered.extend(found.rendered);
        if let Some(from) = found.from {
            self.nested
                .extend(found.nested.into_iter().map(|path| (from.clone(), path)));
        }
    }

    /// Keeps what another thread gathered.
    fn append(&mut self, mut other: Gathered) {
        self.environments.append(&mut other.environments);
        self.rendered.append(&mut other.rendered);
        self.nested.append(&mut other.nested);
        self.skipped.append(&mut other.skipped);
        self.listed.append(&mut other.listed);
        for (length, path) in other.large {
            self.keep_large(length, &path);
        }
    }

    /// Keeps the file at `path`, of `length` bytes, among the largest, when it is one of
    /// them (the order of the paths decides between files of one size).
    fn keep_large(&mut self, length: usize, path: &Path) {
        let larger =
            |(l, p): &(usize, PathBuf)| *l > length || (*l == length && p.as_path() < path);
        let at = self.large.partition_point(larger);
        if at < LARGEST {
            self.large.insert(at, (length, path.to_path_buf()));
            self.large.truncate(LARGEST);
        }
    }
}

/// What the lint skips the walked file of a template's extension at `path`, whose text is
/// `text`, as, whatever it holds: by its content ([`crate::kind::classify`]) other YAML or a
/// Jinja source, and no K2HR3 template (which [`crate::lint_kind`] tells first).
fn skipped_kind(path: &Path, text: &str) -> Option<crate::kind::Kind> {
    use crate::kind::Kind;
    if hotfix_linter::is_k2hr3(text.as_bytes()) {
        return None;
    }
    Some(crate::kind::classify(path, text.as_bytes()))
        .filter(|kind| matches!(kind, Kind::Other | Kind::Jinja))
}

/// The facts of the environment file at `path`, the text of a `*.j2.yaml` or `*.yaml.j2`
/// environment source, and the nested templates any file names; with the file's text, read
/// into `buffer`.
fn environment_of<'b>(
    path: &Path,
    roots: &[StackPath],
    source: &dyn FileSource,
    buffer: &'b mut Vec<u8>,
    texts: &mut Texts,
    searches: &Searches,
) -> Option<(Found, &'b str)> {
    // One buffer a thread, no size asked first: most files are read by one `read`.
    let length = read_into(path, buffer).ok()?;
    let text = std::str::from_utf8(&buffer[..length]).ok()?;
    let stack = OnceCell::new();
    let mut found = environment_in(path, &stack, text, roots, source, texts, searches);
    if !found.nested.is_empty() {
        found.from = Some(stack.get_or_init(|| crate::stack_path(path)).clone());
    }
    Some((found, text))
}

/// What the text of the file at `path` gives the tree's registry ([`environment_of`] once
/// read; [`memory_registry`] for files held in memory). `stack` holds the path as the tree
/// names it, when it is known; else it is made when needed (most files name no nested
/// template and are no environment).
fn environment_in(
    path: &Path,
    stack: &OnceCell<StackPath>,
    text: &str,
    roots: &[StackPath],
    source: &dyn FileSource,
    texts: &mut Texts,
    searches: &Searches,
) -> Found {
    let stack = || stack.get_or_init(|| crate::stack_path(path));
    let mut found = Found {
        nested: nested_types_with(stack, text, &searches.types),
        ..Found::default()
    };
    // Only a file with one of them as a key (or in flow style) is loaded: a template that
    // merely mentions `parameter_defaults` in a description is not parsed for nothing.
    if !(text.trim_start().starts_with('{')
        || keyed_with(text, &searches.registry)
        || keyed_with(text, &searches.defaults))
    {
        return found;
    }
    let stack = stack();
    if path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with(".j2.yaml"))
        || is_jinja_source(path)
    {
        // Its registry values, as far as the text shows them (`Type: path.yaml`), are nested
        // templates too.
        let folder = stack.parent();
        for line in text.lines() {
            let Some((_, value)) = line.split_once(": ") else {
                continue;
            };
            let value = value.trim().trim_matches(['"', '\'']);
            if hotfix_stack::is_template_name(value)
                && !value.contains("://")
                && !value.contains("{{")
            {
                found.nested.push(folder.join(value));
            }
        }
        found.rendered = Some(Rendered::new(stack.clone(), text));
        return found;
    }
    let Ok(doc) = hotfix_yaml::parse_unlimited(text) else {
        return found;
    };
    if hotfix_stack::FileFacts::of_document(&doc).kind == hotfix_stack::FileKind::Environment {
        found.environment = Some(hotfix_stack::EnvironmentFacts::of_sharing(
            source, roots, stack, &doc, texts,
        ));
    }
    found
}

/// The searches each file of the walk is read with, set up once per thread: a `memmem`
/// searcher costs more to set up than to run over most files.
struct Searches {
    registry: memchr::memmem::Finder<'static>,
    defaults: memchr::memmem::Finder<'static>,
    types: memchr::memmem::Finder<'static>,
}

impl Searches {
    fn new() -> Searches {
        Searches {
            registry: memchr::memmem::Finder::new("resource_registry"),
            defaults: memchr::memmem::Finder::new("parameter_defaults"),
            types: memchr::memmem::Finder::new("type:"),
        }
    }
}

/// Whether `key` is written as a mapping key at the start of a line of `text`
/// ([`keyed_with`]).
#[cfg(test)]
fn keyed(text: &str, key: &str) -> bool {
    keyed_with(text, &memchr::memmem::Finder::new(key))
}

/// Whether the key `finder` searches for is written as a mapping key at the start of a line
/// of `text` (after blanks and an opening quote; a quote, blanks and a `:` after it). Found by
/// searching the whole text for the word, then looking at its line around each place: most
/// texts hold the word nowhere.
fn keyed_with(text: &str, finder: &memchr::memmem::Finder<'_>) -> bool {
    let key_length = finder.needle().len();
    let bytes = text.as_bytes();
    // Lines as `str::lines` ends them: at `\n` (a `\r` before it is a blank). The start of
    // the line of each place is looked for from the place before, not from the text's start:
    // a long line with the word many times is not searched again for each.
    // Only the first place of a line can be at its start: the line of a place is checked once.
    let (mut line_start, mut searched, mut checked) = (0, 0, None);
    finder.find_iter(bytes).any(|at| {
        if let Some(i) = memchr::memrchr(b'\n', &bytes[searched..at]) {
            line_start = searched + i + 1;
        }
        searched = at;
        if checked == Some(line_start) {
            return false;
        }
        checked = Some(line_start);
        // What precedes it on its line: blanks, then at most opening quotes.
        let before = text[line_start..at]
            .trim_start()
            .trim_start_matches(['"', '\'']);
        before.is_empty()
            && text[at + key_length..]
                .trim_start_matches(['"', '\'', ' '])
                .starts_with(':')
    })
}

/// As many threads as the lint's pool has (`RAYON_NUM_THREADS`, else one per core, as rayon
/// reads them), asked without starting that pool: started before the walk, its idle threads
/// would take the C allocator's first arenas and the walk's threads others, each keeping what
/// it freed (a lint of ten copies of the corpus peaked 4 MB higher).
fn walk_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, std::num::NonZero::get))
}

/// Whether the file at `path` is a Jinja source of a YAML file (`env.yaml.j2`), which a
/// deployment tool renders into `env.yaml` (`*.j2.yaml`, TripleO's convention, is a YAML file
/// by its extension).
fn is_jinja_source(path: &Path) -> bool {
    let ends = |name: &[u8]| name.ends_with(b".yaml.j2") || name.ends_with(b".yml.j2");
    if let Some(name) = crate::kind::plain_file_name(path) {
        return ends(name);
    }
    path.file_name()
        .is_some_and(|n| ends(n.to_string_lossy().as_bytes()))
}

/// Reads the file at `path`, listed as a regular file, into the start of `buffer`, and says how
/// many bytes it has: no question about what it is ([`crate::read::open_listed`]: one that has
/// become a FIFO since reads as empty or fails, and is then asked and refused; a device stops
/// at the bound), then nothing but `read` calls (not the questions about its position
/// `read_to_end` asks, which for thousands of small files cost more than the reading). The
/// buffer keeps its length (and grows for a larger file), so that it is cleared once, not per
/// file. A file over [`crate::read::BOUND`] is not read to its end (an error).
fn read_into(path: &Path, buffer: &mut Vec<u8>) -> std::io::Result<usize> {
    use std::io::Read as _;
    let mut file = crate::read::open_listed(path)?;
    let mut filled = 0;
    loop {
        if filled > crate::read::BOUND {
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                "larger than a template can be",
            ));
        }
        if filled == buffer.len() {
            buffer.resize(buffer.len().max(32 * 1024) * 2, 0);
        }
        match file.read(&mut buffer[filled..]) {
            // Empty: asked what it is (one that has become a FIFO since it was listed reads
            // so), so that the lint reports it instead of skipping it.
            Ok(0) if filled == 0 && !is_regular(&file) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "not a regular file",
                ));
            }
            Ok(0) => return Ok(filled),
            Ok(n) => filled += n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}

/// [`nested_types_with`] a searcher of its own.
#[cfg(test)]
fn nested_types(file: &StackPath, text: &str) -> Vec<StackPath> {
    nested_types_with(|| file, text, &memchr::memmem::Finder::new("type:"))
}

/// The template paths a file's text names after `type:` (block or flow style; `finder`
/// searches for it), relative to the file (whose path `file` gives, asked only when there is
/// one): what tells a nested template from a top-level one, for `unused-parameter`. Read from
/// the text, not parsed: it may take a comment for a `type:`, which only makes
/// `unused-parameter` quieter.
fn nested_types_with<'s>(
    file: impl FnOnce() -> &'s StackPath,
    text: &str,
    finder: &memchr::memmem::Finder<'_>,
) -> Vec<StackPath> {
    let mut found = Vec::new();
    // One search of the whole text (not one per line): the value is what follows on its line.
    let mut at_each = finder.find_iter(text.as_bytes()).peekable();
    if at_each.peek().is_none() {
        return found;
    }
    let folder = file().parent();
    for at in at_each {
        let value = type_value(&text[at + 5..]);
        if hotfix_stack::is_template_name(value) && !value.contains("://") {
            found.push(folder.join(value));
        }
    }
    found
}

/// The value after a `type:` whose text follows is `rest`: the first word after it on its line
/// (after blanks; up to a blank, `,`, `}` or `#`), without quotes, read no further than the
/// word (the end of a long line is not looked for at each `type:` on it). Byte by byte while
/// the text is ASCII, as [`type_value_by_chars`] reads it: a non-ASCII character (which may be
/// a blank) hands the whole reading over to it.
fn type_value(rest: &str) -> &str {
    let bytes = rest.as_bytes();
    // ASCII blanks as `char::is_whitespace` has them, less the line breaks.
    let mut start = 0;
    while let Some(&byte) = bytes.get(start) {
        match byte {
            b' ' | b'\t' | 0x0b | 0x0c => start += 1,
            0x80.. => return type_value_by_chars(rest),
            _ => break,
        }
    }
    let mut end = start;
    while let Some(&byte) = bytes.get(end) {
        match byte {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | b',' | b'}' | b'#' => break,
            0x80.. => return type_value_by_chars(rest),
            _ => end += 1,
        }
    }
    rest[start..end].trim_matches(['"', '\''])
}

/// [`type_value`], character by character (what it falls back to for non-ASCII text).
fn type_value_by_chars(rest: &str) -> &str {
    rest.trim_start_matches(|c: char| c.is_whitespace() && !matches!(c, '\n' | '\r'))
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '}' | '#'))
        .next()
        .unwrap_or("")
        .trim_matches(['"', '\''])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_value_is_read_by_bytes_as_by_characters() {
        let parts = [
            "",
            " ",
            "\t",
            "\u{b}",
            "\u{c}",
            "\n",
            "\r",
            "\u{85}",
            "\u{a0}",
            "\u{2003}",
            "\u{3000}",
            ",",
            "}",
            "#",
            "\"",
            "'",
            "a",
            "x.yaml",
            "é",
            "://",
            "OS::Nova::Server",
        ];
        let mut checked = 0;
        for a in parts {
            for b in parts {
                for c in parts {
                    for d in parts {
                        let rest = format!("{a}{b}{c}{d}");
                        assert_eq!(type_value(&rest), type_value_by_chars(&rest), "{rest:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, parts.len().pow(4));
    }

    #[cfg(unix)]
    #[test]
    fn a_listed_file_that_is_no_longer_regular_is_read_without_waiting_or_without_end() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("t.yaml");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        )
        .expect("mkfifo");
        let mut buffer = Vec::new();
        // No writer: empty, at once (a blocking open would wait for one forever), and then
        // refused as what it is, not taken for an empty file that the lint may skip.
        let err = read_into(&fifo, &mut buffer).expect_err("not regular");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        let mut head = Vec::new();
        assert!(matches!(sniffed(&fifo, &mut head), Sniffed::Unreadable));
        assert!(head.is_empty());
        // A device that never ends: read up to the bound, then refused; its first bytes are
        // NULs, and it is no binary file to skip either.
        let err = read_into(Path::new("/dev/zero"), &mut buffer).expect_err("bounded");
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        assert!(matches!(
            sniffed(Path::new("/dev/zero"), &mut head),
            Sniffed::Unreadable
        ));
        // Regular files, empty or binary, are read as before.
        let empty = dir.path().join("empty.yaml");
        std::fs::write(&empty, "").expect("write");
        assert_eq!(read_into(&empty, &mut buffer).ok(), Some(0));
        assert!(matches!(
            sniffed(&empty, &mut head),
            Sniffed::Not(_) | Sniffed::Maybe
        ));
        let binary = dir.path().join("blob.bin");
        std::fs::write(&binary, b"\0\x01\x02").expect("write");
        assert!(matches!(
            sniffed(&binary, &mut head),
            Sniffed::Not(crate::kind::Kind::Binary)
        ));
    }

    #[test]
    fn a_path_s_key_is_that_of_its_parts_gathered_one_by_one() {
        let told = Told::default();
        let depth = told.cwd.as_ref().map_or(0, Vec::len);
        let up = "../".repeat(depth + 1);
        for path in [
            "a.yaml",
            "./a.yaml",
            "sub/./a.yaml",
            "sub//a.yaml",
            "sub/a.yaml/",
            "sub/.",
            ".//../a.yaml",
            "..//..",
            "../a.yaml",
            "../../x/a.yaml",
            "./../a.yaml",
            "link/../a.yaml",
            "/abs/a.yaml",
            "/../a.yaml",
            "/abs/../a.yaml",
            ".",
            "..",
            "",
            &up,
        ] {
            let path = Path::new(path);
            assert_eq!(told.key(path), told.key_by_parts(path), "{path:?}");
        }
        assert_eq!(told.key(Path::new(&up)), None);
        assert_ne!(told.key(Path::new("a.yaml")), told.key(Path::new("b.yaml")));
    }

    #[test]
    fn a_folder_named_dash_is_walked_as_a_folder_not_standard_input() {
        assert_eq!(walk_root("-"), Path::new("./-"));
        assert_eq!(walk_root("./-"), Path::new("./-"));
        assert_eq!(walk_root("a/-"), Path::new("a/-"));
        assert_eq!(walk_root("."), Path::new("."));
    }

    #[test]
    fn paths_are_ordered_part_by_part_as_a_sorted_walk_meets_them() {
        let names = [
            "a",
            "a/b",
            "a/b/c",
            "a-b",
            "a.b",
            "a b",
            "a/b-c",
            "a/bc",
            "ab",
            "a\u{e9}",
            "b",
            "a/b/c/d/e/f/g/h/i",
            "a/b/c/d/e/f/g/h-i",
            "a/b/c/d/e/f/g/h/j",
            "long/same/start/x",
            "long/same/start-x",
            "",
        ];
        for x in names {
            for y in names {
                let (x, y) = (Path::new(x), Path::new(y));
                assert_eq!(path_order(x, y), x.cmp(y), "{x:?} {y:?}");
            }
        }
    }

    /// What `keyed` answered when it read the text line by line: the reference it must agree
    /// with.
    fn keyed_by_lines(text: &str, key: &str) -> bool {
        text.lines().any(|line| {
            line.trim_start()
                .trim_start_matches(['"', '\''])
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start_matches(['"', '\'', ' ']).starts_with(':'))
        })
    }

    #[test]
    fn a_key_is_found_at_the_start_of_a_line_as_line_by_line_reading_finds_it() {
        let pieces = [
            "resource_registry",
            ":",
            " ",
            "\t",
            "\"",
            "'",
            "\n",
            "\r",
            "\r\n",
            "x",
            "\u{a0}",
            "\u{2028}",
            "#",
        ];
        // Every text of up to five pieces.
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
            texts.extend(longer);
            texts.sort();
            texts.dedup();
        }
        assert!(texts.len() > 100_000);
        for text in &texts {
            assert_eq!(
                keyed(text, "resource_registry"),
                keyed_by_lines(text, "resource_registry"),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_long_line_naming_many_types_is_read_once() {
        let text = format!(
            "a: {}\n  type: b.yaml\ntype:\n  c.yaml\n",
            "type: x.yaml ".repeat(20_000)
        );
        let found = nested_types(&StackPath::new("t/top.yaml"), &text);
        assert_eq!(found.len(), 20_001);
        assert_eq!(found[0].as_str(), "t/x.yaml");
        assert_eq!(found[20_000].as_str(), "t/b.yaml");
        // On its own line, a key without a value names nothing.
        let line = "x: \"y\"\n  type: \u{a0}'n.yaml'}\n  type:\t# z.yaml\n";
        let names: Vec<String> = nested_types(&StackPath::new("top.yaml"), line)
            .iter()
            .map(|p| p.as_str().to_owned())
            .collect();
        assert_eq!(names, ["n.yaml"]);
    }
}
