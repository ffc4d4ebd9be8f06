//! What a resource type stands for, by the environments of a stack: Heat's `ResourceRegistry`
//! (`heat/engine/environment.py`) over the `resource_registry` sections of the environment
//! files, with their file paths resolved as python-heatclient resolves them.
//!
//! Two kinds of knowledge:
//! - **given** environments (`hotfix lint TEMPLATE -e ENV…`, a `[[stacks]]` entry): merged in
//!   order exactly as Heat merges them (a later entry replaces an earlier one, a null removes it,
//!   a null glob removes every entry it covers), then looked up as Heat looks up: the resource's
//!   own override first, then the type, then globs, each candidate followed through aliases; the
//!   first that leads somewhere wins. What the lookup says is what Heat does.
//! - the **tree**'s environments, when the user named none: any of them may be part of a
//!   deployment, so a type stands for everything any of them maps it to ([`Registry::lookup`]),
//!   and a type counts as mapped when it is named in a `*.j2.yaml` environment source (rendered
//!   at deployment). No rule may say that a type is unmapped unless no environment of the tree
//!   could map it. What a type stands for *in one template* ([`Registry::lookup_for`]) is said
//!   by the environments closest to it (those under the template's folder, then under its
//!   parents): a repository of independent examples, each folder with its own environment,
//!   maps one type to each example's own file. Where several environments are as close and
//!   map it differently, each answer is one a deployment may use: a rule reports a mistake only
//!   when every answer makes it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use hotfix_hot::environment::{EntryKind, Environment};
use hotfix_yaml::{Document, Span};

use crate::{FileSource, StackPath, Target, resolve_reference};

/// How much the registry knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knowledge {
    /// The environments the user named: exactly what Heat will use.
    Given,
    /// Every environment of the tree: any of them may apply.
    Tree,
}

/// One `resource_registry` entry, as Heat registers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `["My::Type"]`, or `["resources", "server", "My::Type"]` for a per-resource override.
    pub path: Vec<Arc<str>>,
    /// The type name or template path it maps to; `None` for a null (a removal).
    pub value: Option<Arc<str>>,
    /// Where the value (or, for a null, the key) is written.
    pub span: Span,
    /// For a template value: where python-heatclient finds it.
    pub target: Option<Target>,
}

impl Entry {
    fn name(&self) -> &str {
        self.path.last().map_or("", |name| &**name)
    }
}

/// What one environment file says that matters across files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvironmentFacts {
    pub path: Option<StackPath>,
    pub entries: Vec<Entry>,
    /// The names under `parameter_defaults` (a registry moves them into its own index).
    pub parameter_defaults: Vec<Box<str>>,
}

/// One copy of each text that environments' facts hold (type names, registry values, the
/// files they lead to): a tree's environments map the same types to the same files again and
/// again, and its registry keeps every entry for the whole run. Each thread reading
/// environments keeps one ([`EnvironmentFacts::of_sharing`]).
#[derive(Debug, Default)]
pub struct Texts(std::collections::HashSet<Arc<str>>);

impl Texts {
    /// The kept copy of `text`, made on first use.
    pub fn text(&mut self, text: &str) -> Arc<str> {
        if let Some(kept) = self.0.get(text) {
            return Arc::clone(kept);
        }
        let kept: Arc<str> = Arc::from(text);
        self.0.insert(Arc::clone(&kept));
        kept
    }

    /// The kept copy of `text` (`text` itself, kept, when it is the first).
    pub(crate) fn shared(&mut self, text: &Arc<str>) -> Arc<str> {
        if let Some(kept) = self.0.get(&**text) {
            return Arc::clone(kept);
        }
        self.0.insert(Arc::clone(text));
        Arc::clone(text)
    }
}

impl EnvironmentFacts {
    /// Reads an environment document (`path`: its file, for its registry's relative paths).
    pub fn of(
        source: &dyn FileSource,
        roots: &[StackPath],
        path: &StackPath,
        doc: &Document,
    ) -> Self {
        Self::of_sharing(source, roots, path, doc, &mut Texts::default())
    }

    /// [`EnvironmentFacts::of`], its texts shared with the other environments read through
    /// `texts`.
    pub fn of_sharing(
        source: &dyn FileSource,
        roots: &[StackPath],
        path: &StackPath,
        doc: &Document,
        texts: &mut Texts,
    ) -> Self {
        let env = Environment::new(doc);
        let names = |section: &str| -> Vec<Box<str>> {
            env.section(section)
                .map(|s| {
                    doc.entries(s.value)
                        .iter()
                        .map(|e| hotfix_hot::key_name(doc, e.key).into_boxed_str())
                        .collect()
                })
                .unwrap_or_default()
        };
        let base = |node| {
            doc.get(node, "base_url")
                .and_then(|n| doc.str_value(n))
                .map(str::to_owned)
        };
        let top_base = env.section("resource_registry").and_then(|s| base(s.value));
        // The resources' mappings by name, found in one pass: looking each up with `get` would
        // scan the `resources` mapping once per entry.
        let resources = env
            .section("resource_registry")
            .and_then(|s| doc.get(s.value, "resources"))
            .map(|r| doc.str_key_values(r))
            .unwrap_or_default();
        let mut entries = Vec::new();
        for entry in &env.registry {
            let value = match entry.kind {
                EntryKind::Mapping => doc.str_value(entry.value).map(str::to_owned),
                EntryKind::Removal => None,
                _ => continue,
            };
            let leaf = entry.path.last().map_or("", String::as_str);
            if matches!(leaf, "base_url" | "hooks" | "restricted_actions") {
                continue;
            }
            let base_url = match entry.path.as_slice() {
                [_] => top_base.clone(),
                [resources_key, resource, _] if resources_key == "resources" => resources
                    .get(resource.as_str())
                    .copied()
                    .and_then(base)
                    .or_else(|| top_base.clone()),
                _ => continue,
            };
            let target = value
                .as_deref()
                .filter(|v| is_template_name(v) && !v.contains("::"))
                .map(|v| resolve_reference(source, roots, path, v, base_url.as_deref()));
            let span = if value.is_some() {
                doc.node(entry.value).span
            } else {
                doc.node(entry.key).span
            };
            entries.push(Entry {
                path: entry.path.iter().map(|part| texts.text(part)).collect(),
                value: value.map(|value| texts.text(&value)),
                span,
                target: target.map(|target| target.shared_in(texts)),
            });
        }
        // Kept for the whole run (a tree's registry holds every environment's): no spare room.
        entries.shrink_to_fit();
        EnvironmentFacts {
            path: Some(path.clone()),
            entries,
            parameter_defaults: names("parameter_defaults"),
        }
    }
}

impl EnvironmentFacts {
    /// Reads the text of a file given as an environment (`-e`, `[[stacks]]`): it must load, and
    /// not be a template (a template given as one is a mistake of the command). Any other
    /// file is read as an environment, as Heat's client reads it: its sections Heat does not
    /// know (`parameter_default`) are the lint of the environment file to report.
    pub fn given(
        source: &dyn FileSource,
        roots: &[StackPath],
        path: &StackPath,
        text: &str,
    ) -> Result<EnvironmentFacts, String> {
        // Read as Heat's `environment_format.parse` reads it: an empty (or null) document is an
        // empty environment, which Heat accepts.
        let doc = match hotfix_yaml::parse_environment(text) {
            Ok(Some(doc)) => doc,
            Ok(None) => hotfix_yaml::parse_unlimited("{}")
                .map_err(|err| format!("{path}: {}", err.message))?,
            Err(err) => {
                return Err(format!(
                    "{path}: not an environment that loads: {}",
                    err.message
                ));
            }
        };
        if crate::FileFacts::of_document(&doc).kind == crate::FileKind::Template {
            // Heat's client names the first key that is not an environment's section.
            let wrong = doc
                .entries(doc.root())
                .iter()
                .map(|e| hotfix_hot::key_name(&doc, e.key))
                .find(|k| !hotfix_hot::environment::SECTIONS.contains(&k.as_str()))
                .unwrap_or_default();
            return Err(format!(
                "{path}: not an environment file but a template (Heat: `environment has wrong \
                 section \"{wrong}\"`)"
            ));
        }
        Ok(EnvironmentFacts::of(source, roots, path, &doc))
    }
}

/// Whether Heat reads a registry value (or a `type`) as a template: `…yaml` or `…template`.
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "Heat's test is `endswith(('.yaml', '.template'))`"
)]
pub fn is_template_name(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".template")
}

/// What a resource type stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mapped<'r> {
    /// A nested template, by an entry of the environment `env`.
    Template {
        target: &'r Target,
        env: Option<&'r StackPath>,
        entry: &'r Entry,
    },
    /// A type that is not mapped further: Heat's own, or one Heat does not have.
    Type(String),
    /// Something hotfix cannot follow (a value rendered at deployment, a registry entry whose
    /// key names a template): known, not checked.
    Unknown,
}

/// The environments of a stack, ready to answer what a type stands for.
#[derive(Debug, Default)]
pub struct Registry {
    knowledge: Option<Knowledge>,
    environments: Vec<EnvironmentFacts>,
    /// Given: the merged entries, by path.
    merged: BTreeMap<Vec<Arc<str>>, (usize, usize)>,
    /// Tree: each `*.j2.yaml` environment source.
    rendered: Vec<StackPath>,
    /// Tree: each word of the rendered sources' texts, with the sources (indices into
    /// `rendered`, ascending) that hold it; indexed on first use ([`Registry::rendered_words`]),
    /// by a linting thread, not while every thread waits for the registry.
    rendered_words: OnceLock<foldhash::HashMap<String, Vec<usize>>>,
    /// Tree: the words of each rendered source, until they are indexed.
    rendered_pending: Mutex<Vec<Vec<Box<str>>>>,
    /// Tree: the walk stopped early, so a type may be mapped where it did not look.
    incomplete: bool,
    /// Tree: the entries by the type they map (the last part of their path), and the globs.
    by_type: foldhash::HashMap<Arc<str>, Vec<(usize, usize)>>,
    globs: Vec<(usize, usize)>,
    /// Tree: the files some template names as a nested template (`type:` paths).
    nested: BTreeSet<StackPath>,
    /// The names some environment sets in `parameter_defaults`, moved out of each
    /// environment's facts: one copy of a name however many environments set it.
    parameter_defaults: std::collections::HashSet<Box<str>>,
    /// The resource names (or patterns) the environments' `resources` sections name, found on
    /// first use ([`Registry::names_resource`]).
    resource_names: std::sync::OnceLock<ResourceNames>,
    /// The names the entries map, each once, found on first use ([`Registry::mapped_names`]).
    mapped_names: OnceLock<Vec<Arc<str>>>,
}

/// The names under the environments' `resources` sections.
#[derive(Debug, Default)]
struct ResourceNames {
    names: std::collections::HashSet<Arc<str>>,
    /// Whether one is a pattern (`*`, `?`, `[`), which may match any name.
    pattern: bool,
}

/// The `parameter_defaults` names of `environments`, moved out of them into one set.
fn take_parameter_defaults(
    environments: &mut [EnvironmentFacts],
) -> std::collections::HashSet<Box<str>> {
    environments
        .iter_mut()
        .flat_map(|env| std::mem::take(&mut env.parameter_defaults))
        .collect()
}

/// How many aliases a lookup follows (Heat has no bound; a cycle would recurse forever there).
const MAX_ALIASES: usize = 32;

impl Registry {
    /// The registry of the environments the user named, in order.
    pub fn given(mut environments: Vec<EnvironmentFacts>) -> Registry {
        let parameter_defaults = take_parameter_defaults(&mut environments);
        let mut merged: BTreeMap<Vec<Arc<str>>, (usize, usize)> = BTreeMap::new();
        for (e, env) in environments.iter().enumerate() {
            for (i, entry) in env.entries.iter().enumerate() {
                if entry.value.is_some() {
                    merged.insert(entry.path.clone(), (e, i));
                    continue;
                }
                // A null removes the entry, and a null glob every entry it covers, at its level.
                let name = entry.name();
                let level = &entry.path[..entry.path.len() - 1];
                match name.strip_suffix('*') {
                    Some(prefix) => merged.retain(|path, _| {
                        !(path.len() == entry.path.len()
                            && path.starts_with(level)
                            && path.last().is_some_and(|n| n.starts_with(prefix)))
                    }),
                    None => {
                        merged.remove(&entry.path);
                    }
                }
            }
        }
        Registry {
            knowledge: Some(Knowledge::Given),
            environments,
            merged,
            parameter_defaults,
            ..Registry::default()
        }
    }

    /// The registry of the environment files at `paths`, in order, read through `source`
    /// (an error names a file that cannot be read or is a template).
    pub fn given_files(
        source: &dyn FileSource,
        roots: &[StackPath],
        paths: &[StackPath],
    ) -> Result<Registry, String> {
        let mut environments = Vec::new();
        for path in paths {
            let text = source
                .read(path)
                .ok_or_else(|| format!("{path}: cannot be read"))?;
            environments.push(EnvironmentFacts::given(source, roots, path, &text)?);
        }
        Ok(Registry::given(environments))
    }

    /// The registry of every environment of a tree (`rendered`: each `*.j2.yaml` environment
    /// source, in the order of their paths; `incomplete`: the tree was not read whole).
    pub fn tree(
        mut environments: Vec<EnvironmentFacts>,
        rendered: Vec<Rendered>,
        incomplete: bool,
    ) -> Registry {
        let parameter_defaults = take_parameter_defaults(&mut environments);
        let (sources, words) = rendered
            .into_iter()
            .map(|source| (source.path, source.words))
            .unzip();
        let mut by_type: foldhash::HashMap<Arc<str>, Vec<(usize, usize)>> =
            foldhash::HashMap::default();
        let mut globs = Vec::new();
        for (e, env) in environments.iter().enumerate() {
            for (i, entry) in env.entries.iter().enumerate() {
                match entry.path.as_slice() {
                    [name] if name.ends_with('*') => globs.push((e, i)),
                    [.., name] => by_type.entry(name.clone()).or_default().push((e, i)),
                    [] => {}
                }
            }
        }
        Registry {
            knowledge: Some(Knowledge::Tree),
            environments,
            parameter_defaults,
            rendered: sources,
            rendered_pending: Mutex::new(words),
            incomplete,
            by_type,
            globs,
            ..Registry::default()
        }
    }

    /// The registry with `paths` known as nested templates (files some template of the tree
    /// names in a `type:`).
    #[must_use]
    pub fn with_nested(mut self, paths: impl IntoIterator<Item = StackPath>) -> Registry {
        self.nested.extend(paths);
        self
    }

    /// Whether the file at `path` is used as a nested template: some environment maps a type to
    /// it, or (for the tree's registry) some template names it in a `type:`.
    pub fn is_nested(&self, path: &StackPath) -> bool {
        self.nested.contains(path)
            || self.environments.iter().any(|env| {
                env.entries
                    .iter()
                    .any(|e| matches!(&e.target, Some(Target::File(p)) if p == path))
            })
    }

    pub fn knowledge(&self) -> Option<Knowledge> {
        self.knowledge
    }

    /// The environments, in order.
    pub fn environments(&self) -> &[EnvironmentFacts] {
        &self.environments
    }

    /// Whether an environment maps the type `type_name` of the resource `name` itself
    /// (`resources: {name: {type_name: …}}`), which gives that one resource another
    /// implementation. A tree's registry answers from its entries by type: a tree of thousands
    /// of environments is not searched for each resource.
    pub fn maps_resource_type(&self, name: &str, type_name: &str) -> bool {
        let is = |entry: &Entry| matches!(entry.path.as_slice(), [r, n, t] if &**r == "resources" && &**n == name && &**t == type_name);
        if self.knowledge == Some(Knowledge::Tree) {
            // Every entry of a path of more than one part is indexed by its last part.
            return self.by_type.get(type_name).is_some_and(|found| {
                found
                    .iter()
                    .any(|&(e, i)| is(&self.environments[e].entries[i]))
            });
        }
        self.environments
            .iter()
            .any(|env| env.entries.iter().any(is))
    }

    /// Whether an environment's `resources` section names the resource `name` (or a pattern
    /// that may match it): what it says under that name is the registry of the resource's
    /// nested stack (a group's members' implementations).
    pub fn names_resource(&self, name: &str) -> bool {
        let known = self.resource_names.get_or_init(|| {
            let mut known = ResourceNames::default();
            for entry in self.environments.iter().flat_map(|env| &env.entries) {
                if let [section, key, ..] = entry.path.as_slice()
                    && &**section == "resources"
                {
                    known.pattern |= key.contains(['*', '?', '[']);
                    known.names.insert(Arc::clone(key));
                }
            }
            known
        });
        known.pattern || known.names.contains(name)
    }

    /// The names the environments' entries map (the last part of each entry's path; globs
    /// left out), each once, in the order of their first entry: the candidates of a "did you
    /// mean" (a tree of thousands of environments names most types many times).
    pub fn mapped_names(&self) -> &[Arc<str>] {
        self.mapped_names.get_or_init(|| {
            let mut seen: foldhash::HashSet<&str> = foldhash::HashSet::default();
            self.environments
                .iter()
                .flat_map(|env| &env.entries)
                .filter_map(|entry| entry.path.last())
                .filter(|name| !name.ends_with('*') && seen.insert(name))
                .cloned()
                .collect()
        })
    }

    /// Whether the tree registry may miss mappings (a walk cut short).
    pub fn is_incomplete(&self) -> bool {
        self.incomplete
    }

    /// Whether a word is written in an environment source rendered at deployment.
    pub fn rendered_mentions(&self, word: &str) -> bool {
        self.rendered_words().contains_key(word)
    }

    /// The index of the words of the rendered sources, made on first use.
    fn rendered_words(&self) -> &foldhash::HashMap<String, Vec<usize>> {
        self.rendered_words.get_or_init(|| {
            let pending = std::mem::take(
                &mut *self
                    .rendered_pending
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            );
            let mut index: foldhash::HashMap<String, Vec<usize>> = foldhash::HashMap::default();
            for (n, words) in pending.into_iter().enumerate() {
                // Each word once per source: the holders of a word are ascending.
                for word in words {
                    match index.get_mut(&*word) {
                        Some(holders) => holders.push(n),
                        None => {
                            index.insert(String::from(word), vec![n]);
                        }
                    }
                }
            }
            index
        })
    }

    /// Whether some environment sets `name` in `parameter_defaults` (given: the merged ones;
    /// tree: any, or a rendered source that names it).
    pub fn has_parameter_default(&self, name: &str) -> bool {
        self.parameter_defaults.contains(name) || self.rendered_mentions(name)
    }

    /// What the resource `resource` of type `type_name` stands for. Given: Heat's one answer
    /// (`None` when Heat finds nothing: `could not be found`), where `builtin` says which types
    /// Heat has itself. Tree: every answer some environment gives, Heat's own type included when
    /// `builtin` has it (empty: no environment maps it and Heat does not have it).
    pub fn lookup(
        &self,
        type_name: &str,
        resource: Option<&str>,
        builtin: &dyn Fn(&str) -> bool,
    ) -> Vec<Mapped<'_>> {
        match self.knowledge {
            Some(Knowledge::Given) => self
                .first(type_name, resource, builtin, 0)
                .into_iter()
                .collect(),
            Some(Knowledge::Tree) => self
                .answers(type_name, resource, builtin)
                .into_iter()
                .map(|(_, mapped)| mapped)
                .collect(),
            None if builtin(type_name) => vec![Mapped::Type(type_name.to_owned())],
            None => Vec::new(),
        }
    }

    /// What the resource `resource` of type `type_name`, written in the template `from`,
    /// stands for. Given: Heat's one answer, as [`Registry::lookup`]. Tree: the answers of the
    /// environments closest to `from` that map the type (and of the `*.j2.yaml` sources as
    /// close that name it): those under the template's folder first, then under each of its
    /// parents in turn; Heat's own type only when no environment maps it. Several answers are environments
    /// equally close that map it differently: any of them may be the one deployed.
    pub fn lookup_for(
        &self,
        from: &StackPath,
        type_name: &str,
        resource: Option<&str>,
        builtin: &dyn Fn(&str) -> bool,
    ) -> Vec<Mapped<'_>> {
        if self.knowledge != Some(Knowledge::Tree) {
            return self.lookup(type_name, resource, builtin);
        }
        let answers = self.answers(type_name, resource, builtin);
        // Each answer's closeness, worked out once.
        let close: Vec<Option<usize>> = answers
            .iter()
            .map(|(origin, _)| origin.map(|o| closeness(o, from)))
            .collect();
        let Some(closest) = close.iter().flatten().max().copied() else {
            return answers.into_iter().map(|(_, mapped)| mapped).collect();
        };
        answers
            .into_iter()
            .zip(close)
            .filter(|(_, close)| *close == Some(closest))
            .map(|((_, mapped), _)| mapped)
            .collect()
    }

    /// Every answer of the tree's environments, each with the file it comes from (the
    /// environment, or rendered source, whose entry the lookup took first; `None`: Heat's own).
    fn answers<'r>(
        &'r self,
        type_name: &str,
        resource: Option<&str>,
        builtin: &dyn Fn(&str) -> bool,
    ) -> Vec<(Option<&'r StackPath>, Mapped<'r>)> {
        let mut found = Vec::new();
        let mut seen = BTreeMap::new();
        self.every(type_name, resource, builtin, None, &mut seen, &mut found);
        found
    }

    fn entry(&self, (e, i): (usize, usize)) -> (&EnvironmentFacts, &Entry) {
        let env = &self.environments[e];
        (env, &env.entries[i])
    }

    /// Heat's `get_resource_info`: the candidates sorted as Heat sorts them (longer paths
    /// first, then by path), each followed; the first that leads somewhere.
    fn first(
        &self,
        type_name: &str,
        resource: Option<&str>,
        builtin: &dyn Fn(&str) -> bool,
        depth: usize,
    ) -> Option<Mapped<'_>> {
        if depth > MAX_ALIASES {
            return None;
        }
        let mut candidates: Vec<(usize, usize)> = Vec::new();
        if let Some(resource) = resource {
            let path: [Arc<str>; 3] = ["resources".into(), resource.into(), type_name.into()];
            candidates.extend(self.merged.get(&path[..]));
        }
        candidates.extend(self.merged.get(&[Arc::from(type_name)][..]));
        for (path, &at) in &self.merged {
            if let [name] = path.as_slice()
                && let Some(prefix) = name.strip_suffix('*')
                && type_name.starts_with(prefix)
                && self.entry(at).1.value.as_deref() != Some(type_name)
            {
                candidates.push(at);
            }
        }
        candidates.sort_by(|a, b| {
            let (pa, pb) = (&self.entry(*a).1.path, &self.entry(*b).1.path);
            pb.len().cmp(&pa.len()).then_with(|| pa.cmp(pb))
        });
        candidates.dedup();
        for at in candidates {
            let (env, entry) = self.entry(at);
            if let Some(found) = Self::follow(env, entry, type_name, |next| {
                self.first(next, resource, builtin, depth + 1)
            }) {
                return Some(found);
            }
        }
        builtin(type_name).then(|| Mapped::Type(type_name.to_owned()))
    }

    /// Every answer any environment of the tree gives, each with where it comes from
    /// (`origin`: the file of the entry an alias was followed from; `None` at the start).
    fn every<'r>(
        &'r self,
        type_name: &str,
        resource: Option<&str>,
        builtin: &dyn Fn(&str) -> bool,
        origin: Option<&'r StackPath>,
        seen: &mut BTreeMap<String, Option<std::ops::Range<usize>>>,
        found: &mut Vec<(Option<&'r StackPath>, Mapped<'r>)>,
    ) {
        if seen.contains_key(type_name) || seen.len() > MAX_ALIASES {
            return;
        }
        seen.insert(type_name.to_owned(), None);
        let start = found.len();
        if builtin(type_name) {
            found.push((origin, Mapped::Type(type_name.to_owned())));
        }
        for &n in self
            .rendered_words()
            .get(type_name)
            .map_or(&[][..], Vec::as_slice)
        {
            found.push((origin.or(Some(&self.rendered[n])), Mapped::Unknown));
        }
        let named = self.by_type.get(type_name).map_or(&[][..], Vec::as_slice);
        // Within one environment, an entry for the resource itself comes before the type's
        // (Heat looks the resource's own entries up first): that environment's other entries
        // for the type do not apply to it.
        let overridden: BTreeSet<usize> = named
            .iter()
            .filter(|&&(e, i)| {
                let entry = &self.environments[e].entries[i];
                entry.value.is_some()
                    && matches!(entry.path.as_slice(), [resources, name, ty]
                        if &**resources == "resources" && &**ty == type_name
                            && resource.is_some_and(|r| r == &**name))
            })
            .map(|&(e, _)| e)
            .collect();
        for &(e, i) in named.iter().chain(&self.globs) {
            let env = &self.environments[e];
            let entry = &env.entries[i];
            {
                let applies = match entry.path.as_slice() {
                    [_] if overridden.contains(&e) => false,
                    [name] => {
                        &**name == type_name
                            || name.strip_suffix('*').is_some_and(|prefix| {
                                type_name.starts_with(prefix)
                                    && entry.value.as_deref() != Some(type_name)
                            })
                    }
                    [resources, name, ty] => {
                        &**resources == "resources"
                            && &**ty == type_name
                            && resource.is_some_and(|r| r == &**name)
                    }
                    _ => false,
                };
                if !applies || entry.value.is_none() {
                    continue;
                }
                let from = origin.or(env.path.as_ref());
                let mut next = Vec::new();
                if let Some(mapped) = Self::follow(env, entry, type_name, |alias| {
                    next.push(alias.to_owned());
                    None
                }) {
                    found.push((from, mapped));
                }
                for alias in next {
                    let before = found.len();
                    if let Some(Some(answers)) = seen.get(&alias) {
                        // Followed already from another entry (two environments map the same
                        // glob onto the same types): its answers again, from this entry's file.
                        let again: Vec<_> = found[answers.clone()]
                            .iter()
                            .map(|(_, mapped)| (from, mapped.clone()))
                            .collect();
                        found.extend(again);
                    } else {
                        self.every(&alias, resource, builtin, from, seen, found);
                    }
                    if found.len() == before {
                        // An alias that leads nowhere in this tree: leads somewhere, maybe,
                        // in the deployment; not a type to call unmapped.
                        found.push((from, Mapped::Unknown));
                    }
                }
            }
        }
        seen.insert(type_name.to_owned(), Some(start..found.len()));
    }

    /// What one entry makes of `type_name`: a template, or (through `alias`) another type.
    fn follow<'r>(
        env: &'r EnvironmentFacts,
        entry: &'r Entry,
        type_name: &str,
        mut alias: impl FnMut(&str) -> Option<Mapped<'r>>,
    ) -> Option<Mapped<'r>> {
        let value = entry.value.as_deref()?;
        let name = entry.name();
        if is_template_name(name) {
            return Some(Mapped::Unknown);
        }
        if is_template_name(value) {
            return Some(match &entry.target {
                Some(target) => Mapped::Template {
                    target,
                    env: env.path.as_ref(),
                    entry,
                },
                None => Mapped::Unknown,
            });
        }
        match name.strip_suffix('*') {
            Some(prefix) => {
                let next = match value.strip_suffix('*') {
                    Some(stem) => format!("{stem}{}", type_name.get(prefix.len()..).unwrap_or("")),
                    None => value.to_owned(),
                };
                alias(&next)
            }
            None => alias(value),
        }
    }
}

/// How close the environment (or rendered source) at `env` is to the template at `from`: how
/// many folders the two folders share from the top. An environment in the template's folder and
/// one in a subfolder of it are as close: TripleO's defaults at the top of the tree and the
/// `environments/*.yaml` given after them to override them are both for its templates.
fn closeness(env: &StackPath, from: &StackPath) -> usize {
    // Byte by byte and without allocating: this is asked for every answer of every lookup (in
    // a tree of thousands of environments, hundreds of thousands of times). Paths are
    // canonical (parts joined by single `/`, none empty or `.`), so the folders two paths share
    // are the whole parts of their longest common prefix.
    let (a, b) = (folder(env), folder(from));
    let common = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let whole = |folder: &[u8]| folder.get(common).is_none_or(|&byte| byte == b'/');
    let shared = if whole(a) && whole(b) {
        common
    } else {
        a[..common]
            .iter()
            .rposition(|&byte| byte == b'/')
            .unwrap_or(0)
    };
    if shared == 0 {
        return 0;
    }
    a[..shared].split(|&byte| byte == b'/').count()
}

/// The folder that holds the file at `path`, without the leading `/` of an absolute path.
fn folder(path: &StackPath) -> &[u8] {
    let text = path.as_str().as_bytes();
    let folder = text
        .iter()
        .rposition(|&byte| byte == b'/')
        .map_or(&text[..0], |at| &text[..at]);
    folder.strip_prefix(b"/").unwrap_or(folder)
}

/// An environment source rendered at deployment (`*.j2.yaml`, `*.yaml.j2`): its path, and
/// each word of its text once (what [`Registry::tree`] indexes), found where it was read (on
/// the threads of the walk for the tree's environments) and not where the registry is built.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub path: StackPath,
    words: Vec<Box<str>>,
}

impl Rendered {
    pub fn new(path: StackPath, text: &str) -> Rendered {
        let mut seen: foldhash::HashSet<&str> = foldhash::HashSet::default();
        let mut words = Vec::new();
        for word in text.split(|c: char| {
            !(c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-' | '.' | '*'))
        }) {
            let word = word.trim_matches(|c| matches!(c, ':' | '.' | '-'));
            if !word.is_empty() && seen.insert(word) {
                words.push(Box::from(word));
            }
        }
        Rendered { path, words }
    }
}

/// A registry built on first use (the tree's: the walk for environment files is paid only by
/// runs that meet a type no file path names).
pub struct LazyRegistry {
    cell: OnceLock<Registry>,
    build: Box<dyn Fn() -> Registry + Send + Sync>,
    /// Whether [`LazyRegistry::get`] was called: a registry built ahead
    /// ([`LazyRegistry::prefetch`]) that no check asked for is not reported as read.
    asked: AtomicBool,
}

impl LazyRegistry {
    pub fn new(build: impl Fn() -> Registry + Send + Sync + 'static) -> LazyRegistry {
        LazyRegistry {
            cell: OnceLock::new(),
            build: Box::new(build),
            asked: AtomicBool::new(false),
        }
    }

    /// One already built.
    pub fn ready(registry: Registry) -> LazyRegistry {
        let cell = OnceLock::new();
        let _ = cell.set(registry);
        LazyRegistry {
            cell,
            build: Box::new(Registry::default),
            asked: AtomicBool::new(true),
        }
    }

    pub fn get(&self) -> &Registry {
        self.asked.store(true, Ordering::Relaxed);
        self.cell.get_or_init(|| (self.build)())
    }

    /// Builds it now, before any check asks (on a thread of its own, while the run does
    /// other work): a check that asks later waits for this build or finds it done.
    pub fn prefetch(&self) {
        self.cell.get_or_init(|| (self.build)());
    }

    /// Whether a check asked for it ([`LazyRegistry::get`]).
    pub fn asked(&self) -> bool {
        self.asked.load(Ordering::Relaxed)
    }

    /// The registry, when it is built: nothing is read to answer.
    pub fn built(&self) -> Option<&Registry> {
        self.cell.get()
    }
}

impl std::fmt::Debug for LazyRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyRegistry")
            .field("built", &self.cell.get().is_some())
            .finish_non_exhaustive()
    }
}

/// The types whose members are given by a type of their own (`resource_def`, `resource`,
/// `resources`, a launch configuration).
const GROUPS: [&str; 4] = [
    "OS::Heat::ResourceGroup",
    "OS::Heat::AutoScalingGroup",
    "OS::Heat::ResourceChain",
    "AWS::AutoScaling::AutoScalingGroup",
];

/// Every parameter name the templates of a stack declare: the `top` templates and every nested
/// template their resources lead to (a template path, relative to its file, or a type `registry`
/// maps to a template), followed to any depth. `None` when some part of the stack cannot be
/// read (a target that is missing, rendered at deployment, outside the tree, a URL, a mapping
/// hotfix cannot follow): then no name can be called undeclared.
pub fn stack_parameters(
    source: &dyn FileSource,
    roots: &[StackPath],
    registry: &Registry,
    top: &[StackPath],
    builtin: &dyn Fn(&str) -> bool,
) -> Option<BTreeSet<String>> {
    let stack = stack_templates(source, roots, registry, top, builtin);
    if !stack.whole {
        return None;
    }
    let mut names = BTreeSet::new();
    for path in &stack.templates {
        names.extend(
            source
                .facts(path)?
                .parameters
                .iter()
                .map(|p| p.name.clone()),
        );
    }
    Some(names)
}

/// The templates of a stack: `top` and every nested template its resources lead to.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct StackTemplates {
    /// Every template found (that hotfix can read, with a version Heat knows).
    pub templates: BTreeSet<StackPath>,
    /// Whether nothing was left unfollowed (a target missing, rendered at deployment, outside
    /// the tree, a URL, a mapping hotfix cannot follow, a group's members).
    pub whole: bool,
}

/// The templates of the stack of `top`: each nested template its resources lead to (a
/// template path, relative to its file, or a type `registry` maps to a template), followed to
/// any depth.
pub fn stack_templates(
    source: &dyn FileSource,
    roots: &[StackPath],
    registry: &Registry,
    top: &[StackPath],
    builtin: &dyn Fn(&str) -> bool,
) -> StackTemplates {
    let mut found = StackTemplates {
        whole: true,
        ..StackTemplates::default()
    };
    let mut queue: Vec<StackPath> = top.to_vec();
    while let Some(path) = queue.pop() {
        if found.templates.contains(&path) {
            continue;
        }
        if found.templates.len() >= 10_000 {
            found.whole = false;
            break;
        }
        let Some(facts) = source.facts(&path).filter(|f| f.versioned) else {
            found.whole = false;
            continue;
        };
        found.templates.insert(path.clone());
        // Nested templates named anywhere (a group's `resource_def` included).
        for link in &facts.links {
            if link.kind == crate::LinkKind::NestedType {
                match resolve_reference(source, roots, &path, &link.reference, None) {
                    Target::File(nested) => queue.push(nested),
                    _ => found.whole = false,
                }
            }
        }
        for (resource, type_name) in &facts.resources {
            // A group's members given by a function are not known.
            if GROUPS.contains(&type_name.as_str())
                && !facts
                    .resources
                    .iter()
                    .any(|(r, t)| r == resource && t != type_name)
            {
                found.whole = false;
            }
            if is_template_name(type_name) {
                // Followed above, as a link.
                continue;
            }
            for mapped in registry.lookup(type_name, Some(resource), builtin) {
                match mapped {
                    Mapped::Type(_) => {}
                    Mapped::Template {
                        target: Target::File(nested),
                        ..
                    } => queue.push(nested.clone()),
                    Mapped::Template { .. } | Mapped::Unknown => found.whole = false,
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registry_built_ahead_is_asked_for_only_when_a_check_gets_it() {
        let lazy = LazyRegistry::new(Registry::default);
        lazy.prefetch();
        assert!(lazy.built().is_some());
        assert!(!lazy.asked());
        lazy.get();
        assert!(lazy.asked());
        assert!(LazyRegistry::ready(Registry::default()).asked());
    }
    use crate::MemorySource;

    fn env(source: &MemorySource, path: &str) -> EnvironmentFacts {
        let path = StackPath::new(path);
        let text = source.read(&path).expect("a file");
        let doc = hotfix_yaml::parse_unlimited(&text).expect("yaml");
        EnvironmentFacts::of(source, &[StackPath::new("repo")], &path, &doc)
    }

    fn builtin(name: &str) -> bool {
        name.starts_with("OS::Nova::") || name == "OS::Heat::None"
    }

    fn describe(found: &[Mapped<'_>]) -> Vec<String> {
        found
            .iter()
            .map(|m| match m {
                Mapped::Template { target, .. } => {
                    format!("template {}", target.path().map_or("?", |p| p.as_str()))
                }
                Mapped::Type(t) => format!("type {t}"),
                Mapped::Unknown => "unknown".to_owned(),
            })
            .collect()
    }

    fn source() -> MemorySource {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/env/a.yaml",
                "resource_registry:\n  My::Server: ../nested/server.yaml\n  My::Alias: My::Server\n  \
                 My::Gone: ../nested/server.yaml\n  Old::*: My::*\n  My::Off: OS::Heat::None\n  \
                 resources:\n    special:\n      My::Server: ../nested/special.yaml\n\
                 parameter_defaults:\n  Flavor: m1.small\n",
            )
            .insert(
                "repo/env/b.yaml",
                "resource_registry:\n  My::Gone: null\n  My::Server: OS::Nova::Server\n",
            )
            .insert("repo/nested/server.yaml", "heat_template_version: rocky\n")
            .insert("repo/nested/special.yaml", "heat_template_version: rocky\n");
        source
    }

    #[test]
    fn given_environments_merge_and_resolve_as_heat_does() {
        let source = source();
        let only_a = Registry::given(vec![env(&source, "repo/env/a.yaml")]);
        let lookup =
            |r: &Registry, t: &str, res: Option<&str>| describe(&r.lookup(t, res, &builtin));
        assert_eq!(
            lookup(&only_a, "My::Server", None),
            ["template repo/nested/server.yaml"]
        );
        assert_eq!(
            lookup(&only_a, "My::Alias", None),
            ["template repo/nested/server.yaml"]
        );
        assert_eq!(
            lookup(&only_a, "Old::Server", None),
            ["template repo/nested/server.yaml"]
        );
        assert_eq!(
            lookup(&only_a, "My::Server", Some("special")),
            ["template repo/nested/special.yaml"],
            "a per-resource override comes first"
        );
        assert_eq!(lookup(&only_a, "My::Off", None), ["type OS::Heat::None"]);
        assert!(lookup(&only_a, "My::Unmapped", None).is_empty());
        assert_eq!(
            lookup(&only_a, "OS::Nova::Server", None),
            ["type OS::Nova::Server"]
        );

        let both = Registry::given(vec![
            env(&source, "repo/env/a.yaml"),
            env(&source, "repo/env/b.yaml"),
        ]);
        assert_eq!(
            lookup(&both, "My::Server", None),
            ["type OS::Nova::Server"],
            "the later file wins"
        );
        assert!(
            lookup(&both, "My::Gone", None).is_empty(),
            "a null removes the entry"
        );
        assert!(both.has_parameter_default("Flavor"));
    }

    #[test]
    fn the_tree_gives_every_mapping_some_environment_makes() {
        let source = source();
        let tree = Registry::tree(
            vec![
                env(&source, "repo/env/a.yaml"),
                env(&source, "repo/env/b.yaml"),
            ],
            vec![Rendered::new(
                StackPath::new("repo/env/rendered.j2.yaml"),
                "resource_registry:\n  OS::TripleO::{{role}}::Net: x.yaml\n  My::Rendered: y.yaml\n",
            )],
            false,
        );
        let lookup = |t: &str| describe(&tree.lookup(t, None, &builtin));
        assert_eq!(
            lookup("My::Server"),
            ["template repo/nested/server.yaml", "type OS::Nova::Server"]
        );
        assert_eq!(lookup("My::Gone"), ["template repo/nested/server.yaml"]);
        assert_eq!(lookup("My::Rendered"), ["unknown"]);
        assert!(lookup("My::Nothing").is_empty());
    }

    #[test]
    fn the_names_mapped_are_each_given_once_in_the_order_of_their_first_entry() {
        let source = source();
        let tree = Registry::tree(
            vec![
                env(&source, "repo/env/a.yaml"),
                env(&source, "repo/env/b.yaml"),
                env(&source, "repo/env/a.yaml"),
            ],
            Vec::new(),
            false,
        );
        let names: Vec<&str> = tree.mapped_names().iter().map(|n| &**n).collect();
        // `Old::*` is a glob; `resources: {special: {My::Server: …}}` and the second and third
        // environments map names the first one does.
        assert_eq!(names, ["My::Server", "My::Alias", "My::Gone", "My::Off"]);
    }

    #[test]
    fn closeness_counts_the_folders_two_files_share_from_the_top() {
        // What it counted before it read bytes: the folders as `str::split` gives them.
        fn folders(path: &StackPath) -> Vec<&str> {
            let folder = path.as_str().rsplit_once('/').map_or("", |(f, _)| f);
            folder
                .split('/')
                .filter(|c| !c.is_empty() && *c != ".")
                .collect()
        }
        fn by_split(env: &StackPath, from: &StackPath) -> usize {
            let (a, b) = (folders(env), folders(from));
            a.iter().zip(&b).take_while(|(x, y)| x == y).count()
        }
        let paths = [
            "t.yaml",
            "a/t.yaml",
            "a/b/t.yaml",
            "a/bc/t.yaml",
            "a/b/c/t.yaml",
            "ab/t.yaml",
            "/a/b/t.yaml",
            "/t.yaml",
            "../a/t.yaml",
            "../../a/b/t.yaml",
            "é/ü/t.yaml",
            "é/ü/v/t.yaml",
            "é/üx/t.yaml",
            "a/b/cd/t.yaml",
            "a/b/c/d/t.yaml",
            "a/bc/d/t.yaml",
            "/a/bc/t.yaml",
            "/ab/t.yaml",
            "..",
            "../t.yaml",
            "../../t.yaml",
            "../..a/t.yaml",
            "../ab/t.yaml",
            "x/a/b/t.yaml",
            ".",
        ];
        for env in paths {
            for from in paths {
                let (env, from) = (StackPath::new(env), StackPath::new(from));
                assert_eq!(
                    closeness(&env, &from),
                    by_split(&env, &from),
                    "{env} {from}"
                );
            }
        }
        assert_eq!(
            closeness(
                &StackPath::new("a/b/env.yaml"),
                &StackPath::new("a/b/c/t.yaml")
            ),
            2
        );
    }

    #[test]
    fn a_resource_s_own_type_mapping_is_found_in_a_tree_as_in_given_environments() {
        let source = source();
        let envs = || {
            vec![
                env(&source, "repo/env/a.yaml"),
                env(&source, "repo/env/b.yaml"),
            ]
        };
        let tree = Registry::tree(envs(), Vec::new(), false);
        let given = Registry::given(envs());
        for registry in [&tree, &given] {
            assert!(registry.maps_resource_type("special", "My::Server"));
            for (name, type_name) in [
                ("other", "My::Server"),
                ("special", "My::Gone"),
                ("resources", "special"),
                ("My::Server", "special"),
            ] {
                assert!(
                    !registry.maps_resource_type(name, type_name),
                    "{name} {type_name}"
                );
            }
        }
    }

    /// Two independent examples, each with its own registry mapping `My::LB` to its own
    /// `lb.yaml`, a shared environment at the top, and a third example whose two environments
    /// map the type differently.
    fn examples() -> MemorySource {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/one/registry.yaml",
                "resource_registry:\n  My::LB: ./lb.yaml\n",
            )
            .insert("repo/one/lb.yaml", "heat_template_version: rocky\n")
            .insert(
                "repo/two/env/registry.yaml",
                "resource_registry:\n  My::LB: ../lb.yaml\n",
            )
            .insert("repo/two/lb.yaml", "heat_template_version: rocky\n")
            .insert(
                "repo/common.yaml",
                "resource_registry:\n  My::LB: one/lb.yaml\n  My::Shared: one/lb.yaml\n",
            )
            .insert(
                "repo/three/a.yaml",
                "resource_registry:\n  My::LB: ../one/lb.yaml\n",
            )
            .insert(
                "repo/three/b.yaml",
                "resource_registry:\n  My::LB: OS::Nova::Server\n",
            )
            .insert(
                "repo/three/deeper/c.yaml",
                "resource_registry:\n  My::LB: ../../two/lb.yaml\n",
            );
        source
    }

    fn examples_registry(source: &MemorySource) -> Registry {
        let paths = [
            "repo/common.yaml",
            "repo/one/registry.yaml",
            "repo/three/a.yaml",
            "repo/three/b.yaml",
            "repo/three/deeper/c.yaml",
            "repo/two/env/registry.yaml",
        ];
        Registry::tree(
            paths.iter().map(|p| env(source, p)).collect(),
            Vec::new(),
            false,
        )
    }

    #[test]
    fn the_closest_environment_decides_what_a_type_stands_for_in_a_template() {
        let source = examples();
        let tree = examples_registry(&source);
        let lookup = |from: &str, t: &str| {
            describe(&tree.lookup_for(&StackPath::new(from), t, None, &builtin))
        };
        assert_eq!(
            lookup("repo/one/top.yaml", "My::LB"),
            ["template repo/one/lb.yaml"]
        );
        assert_eq!(
            lookup("repo/one/nested/deep.yaml", "My::LB"),
            ["template repo/one/lb.yaml"],
            "the environment of a parent folder"
        );
        assert_eq!(
            lookup("repo/two/top.yaml", "My::LB"),
            ["template repo/two/lb.yaml"],
            "an environment in a subfolder of the template's folder"
        );
        assert_eq!(
            lookup("repo/top.yaml", "My::LB").len(),
            6,
            "at the top, every environment of the tree is as close"
        );
        assert_eq!(
            lookup("repo/three/top.yaml", "My::LB"),
            [
                "template repo/one/lb.yaml",
                "type OS::Nova::Server",
                "template repo/two/lb.yaml"
            ],
            "environments as close (one in a subfolder too): every answer"
        );
        assert_eq!(
            lookup("repo/three/deeper/top.yaml", "My::LB"),
            ["template repo/two/lb.yaml"]
        );
        assert_eq!(
            lookup("repo/two/top.yaml", "My::Shared"),
            ["template repo/one/lb.yaml"],
            "a type only a farther environment maps"
        );
        assert_eq!(
            lookup("repo/two/top.yaml", "OS::Nova::Server"),
            ["type OS::Nova::Server"]
        );
        assert_eq!(
            tree.lookup("My::LB", None, &builtin).len(),
            6,
            "without a template, every answer"
        );
    }

    #[test]
    fn the_closest_decides_among_rendered_sources_too() {
        let source = examples();
        let environments = vec![env(&source, "repo/one/registry.yaml")];
        let tree = Registry::tree(
            environments,
            vec![Rendered::new(
                StackPath::new("repo/one/registry.j2.yaml"),
                "resource_registry:\n  My::LB: {{ lb }}\n",
            )],
            false,
        );
        let lookup = |from: &str| {
            describe(&tree.lookup_for(&StackPath::new(from), "My::LB", None, &builtin))
        };
        assert_eq!(
            lookup("repo/one/top.yaml"),
            ["unknown", "template repo/one/lb.yaml"]
        );
        let given = Registry::given(vec![env(&source, "repo/two/env/registry.yaml")]);
        assert_eq!(
            describe(&given.lookup_for(
                &StackPath::new("repo/one/top.yaml"),
                "My::LB",
                None,
                &builtin
            )),
            ["template repo/two/lb.yaml"],
            "given environments are what Heat uses, wherever the template is"
        );
    }

    /// Two environments of a folder that map the same glob onto Heat's types (a copy kept for
    /// each deployment): both answer that type, not "unknown", so the type's checks apply. When
    /// both are given, the later one's entry is the one Heat keeps (`-e a -e b`).
    #[test]
    fn environments_that_alias_the_same_glob_agree_on_its_type() {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/site/a.yaml",
                "resource_registry:\n  \"Old::*\": \"OS::Nova::*\"\n",
            )
            .insert(
                "repo/site/b.yaml",
                "resource_registry:\n  \"Old::*\": \"OS::Nova::*\"\n",
            )
            .insert(
                "repo/site/c.yaml",
                "resource_registry:\n  \"Old::*\": \"OS::Gone::*\"\n",
            );
        let from = StackPath::new("repo/site/top.yaml");
        let same = Registry::tree(
            vec![
                env(&source, "repo/site/a.yaml"),
                env(&source, "repo/site/b.yaml"),
            ],
            Vec::new(),
            false,
        );
        assert_eq!(
            describe(&same.lookup_for(&from, "Old::Server", None, &builtin)),
            ["type OS::Nova::Server", "type OS::Nova::Server"]
        );
        let differ = Registry::tree(
            vec![
                env(&source, "repo/site/a.yaml"),
                env(&source, "repo/site/c.yaml"),
            ],
            Vec::new(),
            false,
        );
        assert_eq!(
            describe(&differ.lookup_for(&from, "Old::Server", None, &builtin)),
            ["type OS::Nova::Server", "unknown"],
            "one of them leads nowhere here: no claim"
        );
        let given = |paths: [&str; 2]| {
            let registry = Registry::given(paths.iter().map(|p| env(&source, p)).collect());
            describe(&registry.lookup("Old::Server", None, &builtin))
        };
        assert_eq!(
            given(["repo/site/c.yaml", "repo/site/a.yaml"]),
            ["type OS::Nova::Server"]
        );
        assert!(
            given(["repo/site/a.yaml", "repo/site/c.yaml"]).is_empty(),
            "the later environment's entry replaces the earlier's"
        );
    }

    #[test]
    fn a_stack_declares_the_parameters_of_every_template_it_leads_to() {
        let mut source = source();
        source
            .insert(
                "repo/top.yaml",
                "heat_template_version: rocky\nparameters:\n  Top: {type: string}\n\
                 resources:\n  s: {type: My::Server}\n  d: {type: nested/disk.yaml}\n",
            )
            .insert(
                "repo/nested/disk.yaml",
                "heat_template_version: rocky\nparameters:\n  Size: {type: number}\n",
            )
            .insert(
                "repo/nested/server.yaml",
                "heat_template_version: rocky\nparameters:\n  Flavor: {type: string}\n",
            )
            .insert(
                "repo/grouped.yaml",
                "heat_template_version: rocky\nresources:\n  g: {type: OS::Heat::ResourceGroup}\n",
            );
        let registry = Registry::given(vec![env(&source, "repo/env/a.yaml")]);
        let roots = [StackPath::new("repo")];
        let names = stack_parameters(
            &source,
            &roots,
            &registry,
            &[StackPath::new("repo/top.yaml")],
            &builtin,
        );
        assert_eq!(
            names.map(|n| n.into_iter().collect::<Vec<_>>()),
            Some(vec![
                "Flavor".to_owned(),
                "Size".to_owned(),
                "Top".to_owned()
            ])
        );
        let grouped = stack_parameters(
            &source,
            &roots,
            &registry,
            &[StackPath::new("repo/grouped.yaml")],
            &builtin,
        );
        assert_eq!(
            grouped, None,
            "a group's members are not followed: no claim"
        );
    }
}
