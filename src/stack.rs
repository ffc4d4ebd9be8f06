//! The file source of the cross-file checks, answered from disk: the libraries ask, the binary
//! reads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use hotfix_stack::{FileFacts, FileSource, StackPath};

use crate::project::Scope;

/// Reads files from disk (paths as the run names them: relative to the working folder), and
/// keeps each file's facts once read: many templates name the same nested ones.
#[derive(Debug, Default)]
pub(crate) struct DiskSource {
    facts: Mutex<HashMap<StackPath, Option<Arc<FileFacts>>>>,
    /// Whether each file asked about exists (the cycle search asks again and again).
    exists: Mutex<HashMap<StackPath, bool>>,
    /// Each folder's entries, once listed (a missing target's folder is listed for every
    /// environment entry and resource that names a file in it).
    listed: Mutex<HashMap<StackPath, Arc<[String]>>>,
    /// The configurations' `[paths]`: install prefixes and the folders they stand for.
    prefixes: Mutex<Vec<(StackPath, StackPath)>>,
    /// The nested-template cycles found so far (the files do not change during a run).
    cycles: hotfix_stack::Cycles,
}

impl DiskSource {
    /// Reads paths under the absolute `prefix` in `folder` (a configuration's `[paths]`).
    pub(crate) fn add_prefix(&self, prefix: StackPath, folder: StackPath) {
        if let Ok(mut prefixes) = self.prefixes.lock()
            && !prefixes.iter().any(|(p, _)| *p == prefix)
        {
            prefixes.push((prefix, folder));
            // The longest prefix first.
            prefixes.sort_by_key(|(p, _)| std::cmp::Reverse(p.as_str().len()));
        }
    }
}

/// The names in a folder, sorted (none when it cannot be listed).
pub(crate) fn list_folder(dir: &StackPath) -> Vec<String> {
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

/// The run's one disk source (its cache lives as long as the run).
pub(crate) fn disk() -> &'static DiskSource {
    static DISK: OnceLock<DiskSource> = OnceLock::new();
    DISK.get_or_init(DiskSource::default)
}

impl FileSource for DiskSource {
    fn read(&self, path: &StackPath) -> Option<Arc<str>> {
        crate::read::text_within(Path::new(path.as_str()), crate::read::BOUND)
            .ok()
            .map(Arc::from)
    }

    fn exists(&self, path: &StackPath) -> bool {
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
        true
    }

    fn cycles(&self) -> Option<&hotfix_stack::Cycles> {
        Some(&self.cycles)
    }

    fn map_prefix(&self, path: &StackPath) -> Option<StackPath> {
        let prefixes = self.prefixes.lock().ok()?;
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

    fn remember(&self, path: &StackPath, facts: Arc<FileFacts>) {
        if let Ok(mut known) = self.facts.lock()
            && !known.contains_key(path)
        {
            keep(&mut known, path.clone(), Some(facts), KEPT_FACTS);
        }
    }

    fn list(&self, dir: &StackPath) -> Vec<String> {
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

/// The path of a file of the run as the cross-file checks name it.
pub(crate) fn stack_path(path: &Path) -> StackPath {
    StackPath::new(&path.to_string_lossy())
}

/// The folders a run spans ([`crate::project::scope`] of the paths given).
pub(crate) fn roots(paths: &[PathBuf]) -> &'static [StackPath] {
    &scope(paths).roots
}

/// The scope of the run over `paths`: for each, its project (the nearest folder at or above it
/// with `hotfix.toml` or a version control root); outside any project, a folder named, or a
/// named file's own folder. A missing file outside them is a deployment layout path.
pub(crate) fn scope(paths: &[PathBuf]) -> &'static Scope {
    // One run (one process) has one set of paths.
    static SCOPE: OnceLock<Scope> = OnceLock::new();
    SCOPE.get_or_init(|| {
        let cwd = crate::paths::current_dir().unwrap_or_default();
        crate::project::scope(paths, &cwd, &[])
    })
}

/// The registry of the environments given with `-e`, when some were (set once, by `given`).
static GIVEN: OnceLock<Arc<hotfix_stack::LazyRegistry>> = OnceLock::new();

/// The templates of the stack the environments given with `-e` are for: the template files
/// named and every nested template they lead to (unset when no template file is named: the
/// environments then apply to every template of the run).
static GIVEN_STACK: OnceLock<std::collections::BTreeSet<StackPath>> = OnceLock::new();

/// Reads the environments given with `-e`, in order: each must be an environment file that
/// loads (a template or a broken file given as an environment is an error of the command).
pub(crate) fn given(paths: &[PathBuf], environments: &[PathBuf]) -> anyhow::Result<()> {
    if environments.is_empty() {
        return Ok(());
    }
    let roots = roots(paths);
    let mut facts = Vec::new();
    for env in environments {
        let text = match crate::read::file(env) {
            Ok(crate::read::Input::Whole(bytes)) => String::from_utf8(bytes).map_err(|_| {
                anyhow::anyhow!("{}: not UTF-8 text: an environment must be", env.display())
            })?,
            Ok(crate::read::Input::TooLarge { .. }) => {
                return Err(anyhow::anyhow!(
                    "{}: too large for an environment",
                    env.display()
                ));
            }
            Err(err) => return Err(anyhow::anyhow!("{}: cannot be read: {err}", env.display())),
        };
        facts.push(
            hotfix_stack::EnvironmentFacts::given(disk(), roots, &stack_path(env), &text)
                .map_err(|err| anyhow::anyhow!(err))?,
        );
    }
    let registry = hotfix_stack::Registry::given(facts);
    let tops: Vec<StackPath> = templates_among(paths.iter().filter(|p| p.is_file()))
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    if !tops.is_empty() {
        let stack = hotfix_stack::stack_templates(
            disk(),
            roots,
            &registry,
            &tops,
            &hotfix_linter::heat_has_type,
        );
        let _ = GIVEN_STACK.set(stack.templates);
    }
    let _ = GIVEN.set(Arc::new(hotfix_stack::LazyRegistry::ready(registry)));
    Ok(())
}

/// The nested templates of the stack given with `-e` (linted with it, as Heat validates them
/// with it), as the run names files.
pub(crate) fn given_stack_files() -> Vec<PathBuf> {
    GIVEN_STACK
        .get()
        .map(|stack| stack.iter().map(|p| PathBuf::from(p.as_str())).collect())
        .unwrap_or_default()
}

/// What custom resource types stand for where the file `path` is linted: by the environments
/// given with `-e`; else, for the template of a `[[stacks]]` entry of its configuration, by
/// that entry's environments; else by the environments of the tree (read on first use), those
/// closest to the template deciding ([`hotfix_stack::Registry::lookup_for`]).
pub(crate) fn registry(
    scope: &'static Scope,
    config: &crate::config::Config,
    path: &Path,
) -> Result<Arc<hotfix_stack::LazyRegistry>, String> {
    let roots = &scope.roots;
    if let Some(given) = GIVEN.get() {
        // The environments given are for their stack; another template of the run is read
        // as any template of the tree.
        let of_the_stack = GIVEN_STACK
            .get()
            .is_none_or(|stack| stack.contains(&stack_path(path)));
        if of_the_stack {
            return Ok(given.clone());
        }
        return Ok(tree(scope));
    }
    if !config.stacks.is_empty() {
        let stacks = configured_stacks(roots, config)?;
        let file = stack_path(path);
        if let Some((registry, _)) = stacks
            .iter()
            .find(|(_, templates)| templates.contains(&file))
        {
            return registry.clone();
        }
    }
    Ok(tree(scope))
}

/// A configuration's `[[stacks]]`, read once: each entry's registry (or why its environments
/// cannot be read) and the templates of its stack (its template and every nested template
/// its resources lead to through that registry).
type Stacks = Vec<(
    Result<Arc<hotfix_stack::LazyRegistry>, String>,
    std::collections::BTreeSet<StackPath>,
)>;

fn configured_stacks(
    roots: &'static [StackPath],
    config: &crate::config::Config,
) -> Result<Arc<Stacks>, String> {
    static KNOWN: Mutex<Vec<(PathBuf, Arc<Stacks>)>> = Mutex::new(Vec::new());
    let mut known = KNOWN.lock().map_err(|_| "a thread failed".to_owned())?;
    if let Some((_, stacks)) = known.iter().find(|(root, _)| *root == config.root) {
        return Ok(stacks.clone());
    }
    let mut stacks = Stacks::new();
    for stack in &config.stacks {
        let template = stack_path(&config.path_of(&stack.template));
        let environments: Vec<StackPath> = stack
            .environments
            .iter()
            .map(|e| stack_path(&config.path_of(e)))
            .collect();
        match hotfix_stack::Registry::given_files(disk(), roots, &environments) {
            Ok(registry) => {
                let templates = hotfix_stack::stack_templates(
                    disk(),
                    roots,
                    &registry,
                    std::slice::from_ref(&template),
                    &hotfix_linter::heat_has_type,
                )
                .templates;
                stacks.push((
                    Ok(Arc::new(hotfix_stack::LazyRegistry::ready(registry))),
                    templates,
                ));
            }
            Err(err) => stacks.push((
                Err(format!("the environments of its [[stacks]] entry: {err}")),
                [template].into_iter().collect(),
            )),
        }
    }
    let stacks = Arc::new(stacks);
    known.push((config.root.clone(), stacks.clone()));
    Ok(stacks)
}

/// The registry of the tree's environments (built on first use).
fn tree(scope: &'static Scope) -> Arc<hotfix_stack::LazyRegistry> {
    static TREE: OnceLock<Arc<hotfix_stack::LazyRegistry>> = OnceLock::new();
    TREE.get_or_init(|| {
        Arc::new(hotfix_stack::LazyRegistry::new(move || {
            let (registry, walked) = tree_registry(scope, disk());
            let _ = WALKED.set(walked);
            registry
        }))
    })
    .clone()
}

/// What the walk for the tree's environments of the run did, once it ran.
static WALKED: OnceLock<Walked> = OnceLock::new();

/// What the walk for the tree's environments of this run did, when it ran (a run whose
/// templates need no environment does not walk).
pub(crate) fn walked() -> Option<Walked> {
    WALKED.get().copied()
}

/// For an environment given with `-e`: the template files named on the command line, which
/// it is given with; for one of a `[[stacks]]` entry, that entry's template.
pub(crate) fn templates_given_with(
    env: &StackPath,
    paths: &[PathBuf],
    environments: &[PathBuf],
    config: &crate::config::Config,
    file: &Path,
) -> Vec<(StackPath, Arc<FileFacts>)> {
    let templates: Vec<PathBuf> = if environments.iter().any(|e| &stack_path(e) == env) {
        paths.iter().filter(|p| p.is_file()).cloned().collect()
    } else if environments.is_empty()
        && let Some((index, false)) = config.stack_of(file)
    {
        vec![config.path_of(&config.stacks[index].template)]
    } else {
        Vec::new()
    };
    let mut found = templates_among(&templates);
    found.retain(|(p, _)| p != env);
    found
}

/// The templates among `files` (by content), with their facts: the top templates of a stack.
fn templates_among<'p>(
    files: impl IntoIterator<Item = &'p PathBuf>,
) -> Vec<(StackPath, Arc<FileFacts>)> {
    files
        .into_iter()
        .map(|p| stack_path(p))
        .filter_map(|p| {
            let facts = disk().facts(&p)?;
            (facts.kind == hotfix_stack::FileKind::Template).then_some((p, facts))
        })
        .collect()
}

/// How many files the walk for the tree's environments meets (of any kind, read or not) before
/// it stops: the tree's registry is then incomplete, no type is called unmapped, and a warning
/// says so. A real project's tree is far smaller; a home folder is not.
const TREE_BOUND: usize = 100_000;

/// What a walk for the tree's environments did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Walked {
    /// The files it met.
    pub(crate) visited: usize,
    /// Whether it stopped at [`TREE_BOUND`].
    pub(crate) stopped: bool,
}

impl Walked {
    /// The one-line warning for a walk that stopped at its bound, naming where it walked.
    pub(crate) fn warning(&self, scope: &Scope) -> Option<String> {
        self.stopped.then(|| {
            format!(
                "hotfix: warning: stopped looking for environments after {TREE_BOUND} files \
                 under {}: `unmapped-resource-type` (X007) is not checked; name the \
                 environments with `-e` or in a `[[stacks]]` entry of `hotfix.toml`",
                places(scope)
            )
        })
    }

    /// What `--verbose` says of the walk.
    pub(crate) fn describe(&self, scope: &Scope) -> String {
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

/// Every environment file under the scope's roots (and the text of each `*.j2.yaml` or
/// `*.yaml.j2` environment source, which a deployment renders), found by content: a file of any
/// extension whose text names one of Heat's environment sections, read as Heat reads it. The
/// shallow roots are read one level deep; at most [`TREE_BOUND`] files are met in all.
pub(crate) fn tree_registry(
    scope: &Scope,
    source: &dyn FileSource,
) -> (hotfix_stack::Registry, Walked) {
    let folders = |shallow: bool| -> Vec<PathBuf> {
        scope
            .roots
            .iter()
            .filter(|r| scope.shallow.contains(r) == shallow)
            .filter(|r| Path::new(r.as_str()).is_dir())
            .map(|r| PathBuf::from(r.as_str()))
            .collect()
    };
    let readers = Readers {
        roots: &scope.roots,
        source,
        seen: AtomicUsize::new(0),
        incomplete: AtomicBool::new(false),
        found: Mutex::new(Vec::new()),
    };
    for (folders, depth) in [(folders(false), None), (folders(true), Some(1))] {
        let mut walk = folders.into_iter();
        let Some(first) = walk.next() else {
            continue;
        };
        let mut builder = ignore::WalkBuilder::new(first);
        for root in walk {
            builder.add(root);
        }
        // Folders listed and files read on threads of the walk's own, each reading what it
        // lists: the linting threads that asked for the registry wait for it (they cannot help
        // a parallel iterator while they wait), and a listing on one thread before the reading
        // would leave the other cores idle.
        let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        builder
            .max_depth(depth)
            .threads(threads)
            .build_parallel()
            .visit(&mut &readers);
    }
    let Readers {
        found,
        incomplete,
        seen,
        ..
    } = readers;
    let found = found.into_inner().unwrap_or_else(PoisonError::into_inner);
    let incomplete = incomplete.into_inner();
    let walked = Walked {
        visited: seen.into_inner().min(TREE_BOUND),
        stopped: incomplete,
    };
    let mut environments = Vec::new();
    let mut rendered = Vec::new();
    let mut nested = Vec::new();
    for one in found {
        environments.extend(one.environment);
        rendered.extend(one.rendered);
        nested.extend(one.nested);
    }
    // A root above the working folder finds the files under it by `..`: named as the run
    // names them.
    if scope.roots.iter().any(|r| r.as_str().starts_with("..")) {
        for environment in &mut environments {
            rename_environment(scope, environment);
        }
        for (path, _) in &mut rendered {
            *path = scope.name(path.clone());
        }
        for path in &mut nested {
            *path = scope.name(path.clone());
        }
    }
    // In path order, whatever order the folders were listed in: the findings that name an
    // environment name the first.
    environments.sort_by(|a, b| a.path.cmp(&b.path));
    rendered.sort_by(|a: &(StackPath, Arc<str>), b| a.0.cmp(&b.0));
    let registry =
        hotfix_stack::Registry::tree(environments, &rendered, incomplete).with_nested(nested);
    (registry, walked)
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

/// What the threads of the walk for the tree's environments share.
struct Readers<'r> {
    roots: &'r [StackPath],
    /// Where registry targets are looked for.
    source: &'r dyn FileSource,
    /// Files met so far, against [`TREE_BOUND`].
    seen: AtomicUsize,
    incomplete: AtomicBool,
    found: Mutex<Vec<Found>>,
}

impl<'s> ignore::ParallelVisitorBuilder<'s> for &'s Readers<'s> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(Reader {
            shared: self,
            buffer: Vec::new(),
            mine: Vec::new(),
        })
    }
}

/// One thread of the walk for the tree's environments: it reads what it lists, into a buffer
/// of its own, and hands what it found over when the walk is done with it.
struct Reader<'r> {
    shared: &'r Readers<'r>,
    buffer: Vec<u8>,
    mine: Vec<Found>,
}

impl ignore::ParallelVisitor for Reader<'_> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> ignore::WalkState {
        let Ok(entry) = entry else {
            return ignore::WalkState::Continue;
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            return ignore::WalkState::Continue;
        }
        if self.shared.seen.fetch_add(1, Ordering::Relaxed) >= TREE_BOUND {
            self.shared.incomplete.store(true, Ordering::Relaxed);
            return ignore::WalkState::Quit;
        }
        // A file of a template's extension, a Jinja source of one, or a file of another
        // extension whose first bytes show a template or an environment (as the lint's walk
        // tells them).
        let wanted = crate::discover::has_template_extension(entry.path())
            || is_jinja_source(entry.path())
            || shows_template_or_environment(entry.path(), &mut self.buffer);
        if !wanted {
            return ignore::WalkState::Continue;
        }
        // Only what a file gives is kept: most files give nothing, and a tree of tens of
        // thousands of files must not hold a record of each.
        self.mine.extend(
            environment_of(
                entry.path(),
                self.shared.roots,
                self.shared.source,
                &mut self.buffer,
            )
            .filter(|found| {
                found.environment.is_some() || found.rendered.is_some() || !found.nested.is_empty()
            }),
        );
        ignore::WalkState::Continue
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        self.shared
            .found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .append(&mut self.mine);
    }
}

/// Whether the first bytes of the file at `path` show a template, an environment or a
/// blueprint ([`crate::discover::sniff`]), read into `buffer`.
fn shows_template_or_environment(path: &Path, buffer: &mut Vec<u8>) -> bool {
    use std::io::Read as _;
    let Ok((file, _)) = crate::read::open_regular(path) else {
        return false;
    };
    buffer.clear();
    let read = file
        .take(crate::discover::SNIFF as u64)
        .read_to_end(buffer)
        .is_ok();
    read && crate::discover::sniff(buffer).is_none()
}

/// What the walk for the tree's environments finds in one file.
#[derive(Default)]
struct Found {
    environment: Option<hotfix_stack::EnvironmentFacts>,
    /// The path and text of a `*.j2.yaml` or `*.yaml.j2` environment source.
    rendered: Option<(StackPath, Arc<str>)>,
    /// The nested templates it names in a `type:` (read from the text, line by line).
    nested: Vec<StackPath>,
}

/// The facts of the environment file at `path`, the text of a `*.j2.yaml` or `*.yaml.j2`
/// environment source, and the nested templates any file names.
fn environment_of(
    path: &Path,
    roots: &[StackPath],
    source: &dyn FileSource,
    buffer: &mut Vec<u8>,
) -> Option<Found> {
    // One buffer a thread, no size asked first: most files are read by one `read`.
    let length = read_into(path, buffer).ok()?;
    let text = std::str::from_utf8(&buffer[..length]).ok()?;
    let stack = stack_path(path);
    let mut found = Found {
        nested: nested_types(&stack, text),
        ..Found::default()
    };
    if !(text.contains("resource_registry") || text.contains("parameter_defaults")) {
        return Some(found);
    }
    // Only a file with one of them as a key (or in flow style) is loaded: a template that
    // merely mentions `parameter_defaults` in a description is not parsed for nothing.
    let keyed = |line: &str| {
        let line = line.trim_start().trim_start_matches(['"', '\'']);
        ["resource_registry", "parameter_defaults"]
            .iter()
            .any(|key| {
                line.strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start_matches(['"', '\'', ' ']).starts_with(':'))
            })
    };
    if !text.trim_start().starts_with('{') && !text.lines().any(keyed) {
        return Some(found);
    }
    if path.file_name()?.to_string_lossy().ends_with(".j2.yaml") || is_jinja_source(path) {
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
        found.rendered = Some((stack.clone(), Arc::from(text)));
        return Some(found);
    }
    let Ok(doc) = hotfix_yaml::parse_unlimited(text) else {
        return Some(found);
    };
    if hotfix_stack::FileFacts::of_document(&doc).kind == hotfix_stack::FileKind::Environment {
        found.environment = Some(hotfix_stack::EnvironmentFacts::of(
            source, roots, &stack, &doc,
        ));
    }
    Some(found)
}

/// Whether the file at `path` is a Jinja source of a YAML file (`env.yaml.j2`), which a
/// deployment tool renders into `env.yaml` (`*.j2.yaml`, TripleO's convention, is a YAML file
/// by its extension).
fn is_jinja_source(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy());
    name.is_some_and(|n| [".yaml.j2", ".yml.j2"].iter().any(|s| n.ends_with(s)))
}

/// Reads the file at `path` into the start of `buffer`, and says how many bytes it has: one
/// question, whether it is a regular file ([`crate::read::open_regular`]: it may have become a
/// FIFO since the walk listed it), then nothing but `read` calls (not the questions about its
/// position `read_to_end` asks, which for thousands of small files cost more than the reading).
/// The buffer keeps its length (and grows for a larger file), so that it is cleared once, not
/// per file. A file over [`crate::read::BOUND`] is not read to its end (an error).
fn read_into(path: &Path, buffer: &mut Vec<u8>) -> std::io::Result<usize> {
    use std::io::Read as _;
    let (mut file, _) = crate::read::open_regular(path)?;
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
            Ok(0) => return Ok(filled),
            Ok(n) => filled += n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}

/// The template paths a file's text names after `type:` (block or flow style), relative to
/// the file: what tells a nested template from a top-level one, for `unused-parameter`. Read
/// from the text, not parsed: it may take a comment for a `type:`, which only makes
/// `unused-parameter` quieter.
fn nested_types(file: &StackPath, text: &str) -> Vec<StackPath> {
    let mut found = Vec::new();
    if !text.contains("type:") {
        return found;
    }
    let folder = file.parent();
    // One search of the whole text (not one per line): the value is what follows on its line.
    for (at, _) in text.match_indices("type:") {
        let rest = &text[at + 5..];
        let line = &rest[..rest.find(['\n', '\r']).unwrap_or(rest.len())];
        let value = line
            .trim_start()
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | '}' | '#'))
            .next()
            .unwrap_or("")
            .trim_matches(['"', '\'']);
        if hotfix_stack::is_template_name(value) && !value.contains("://") {
            found.push(folder.join(value));
        }
    }
    found
}
