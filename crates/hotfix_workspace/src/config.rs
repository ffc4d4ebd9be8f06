//! `hotfix.toml`: for each linted file, the nearest one in its folder or above, up to the root
//! of its version control checkout (`.git`, `.hg`, `.svn`); or the one `--config` names for
//! every file.
//!
//! ```toml
//! select = ["H"]                 # rules to run (codes, prefixes, names, "ALL"), instead of the default set
//! extend-select = ["H408"]       # rules to run besides those
//! ignore = ["H408"]              # rules not to run (extend-ignore is the same)
//! include = ["**/*.yaml"]        # which files a directory walk considers (default: every file, told by content)
//! exclude = ["vendor/**"]        # files and folders a directory walk skips
//! heat-release = "wallaby"       # the OpenStack release the templates are deployed to
//! k2hr3-templates = ["k2hr3/**"] # K2HR3 templates (also recognised by their {{#!k2hr3template }} header)
//!
//! [per-file-ignores]
//! "environments/**" = ["H101"]
//!
//! [severity]
//! H408 = "info"                  # error, warning or info
//!
//! [paths]                        # an install prefix and the folder of this tree it stands for
//! "/usr/share/openstack-tripleo-heat-templates" = "."
//!
//! [[stacks]]                     # a template and the environments it is created with
//! template = "overcloud.yaml"
//! environments = ["environments/base.yaml", "environments/prod.yaml"]
//! ```
//!
//! Unknown keys, unknown rule codes, unknown releases and bad globs are errors that point into
//! the file. The
//! schema of this file, for editors, is `hotfix.schema.json` at the repository root, generated
//! from [`RawConfig`] (a test fails when it is stale).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::{Prefixes, StackEntry};
use globset::{Glob, GlobSet, GlobSetBuilder};
use hotfix_diagnostics::{Diagnostic, RenderOptions, Severity, Span, render_human};
use hotfix_hot::heat_release::HeatRelease;
use hotfix_linter::{Selector, Settings};
use hotfix_stack::StackPath;
use serde::Deserialize;

pub const FILE_NAME: &str = crate::CONFIG_FILE;

/// Why a configuration cannot be used: it cannot be read, or it is not a valid one (the
/// message then renders a code frame into the file), or a `hotfix.toml` is not a file.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

/// What a configuration's functions return.
pub type Result<T, E = ConfigError> = std::result::Result<T, E>;

/// The message for a rule selector that names no rule, with the rule it most likely means.
pub fn unknown_rule(text: &str) -> String {
    format!(
        "`{text}` is not a hotfix rule code, prefix or name{}",
        did_you_mean_rule(text)
    )
}

/// `; did you mean `CODE`?` for a misspelt rule code or name, else nothing.
pub fn did_you_mean_rule(text: &str) -> String {
    hotfix_linter::suggest_rule(text)
        .map(|rule| format!("; did you mean `{rule}`?"))
        .unwrap_or_default()
}

/// hotfix's configuration file, `hotfix.toml`.
///
/// Each linted file uses the nearest `hotfix.toml` in its folder or above, up to the root of
/// its repository (a folder with `.git`, `.hg` or `.svn`): one above the repository does not
/// apply. Settings are not merged across files; `--config FILE` names one for every file.
/// Rule selectors are codes (`H301`), code prefixes (`H3`), rule names (`undefined-parameter`)
/// or `ALL`; the most specific selector decides.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "hotfix.toml")]
pub struct RawConfig {
    /// The rules to run, instead of the default set (`hotfix rules` marks the rules outside it).
    #[serde(default)]
    #[schemars(with = "Vec<RuleSelector>")]
    select: Vec<toml::Spanned<String>>,
    /// Rules to run besides those `select` names (or the default set).
    #[serde(default)]
    #[schemars(with = "Vec<RuleSelector>")]
    extend_select: Vec<toml::Spanned<String>>,
    /// Rules not to run.
    #[serde(default)]
    #[schemars(with = "Vec<RuleSelector>")]
    ignore: Vec<toml::Spanned<String>>,
    /// Rules not to run, besides those `ignore` names (the same as `ignore`; for ruff users).
    #[serde(default)]
    #[schemars(with = "Vec<RuleSelector>")]
    extend_ignore: Vec<toml::Spanned<String>>,
    /// Globs (relative to this file's folder) of the files a folder walk considers; by default
    /// every file, each told by its content (a template or environment of any extension).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    include: Vec<toml::Spanned<String>>,
    /// Globs (relative to this file's folder) of files and folders to skip, also when named on
    /// the command line.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    exclude: Vec<toml::Spanned<String>>,
    /// Rules not to run in the files a glob (relative to this file's folder) matches.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, Vec<RuleSelector>>")]
    per_file_ignores: BTreeMap<toml::Spanned<String>, Vec<toml::Spanned<String>>>,
    /// A severity for the rules a selector names: `error`, `warning` or `info`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<RuleSelector, SeverityName>")]
    severity: BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
    /// The OpenStack release whose Heat the templates are deployed to: a series (`wallaby`) or
    /// a release number (`2023.1`), in any case; liberty or later. `unavailable-in-release`
    /// then reports the resource types, properties and attributes that arrived in a later
    /// Heat. By default no release is assumed.
    #[serde(default)]
    #[schemars(with = "Option<ReleaseName>")]
    heat_release: Option<toml::Spanned<String>>,
    /// Globs (relative to this file's folder) of K2HR3 templates: a folder walk considers them,
    /// and they are linted with the `K` rules even without an engine header `{{#!k2hr3template }}`
    /// (a file that starts with one is recognised anyway).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    k2hr3_templates: Vec<toml::Spanned<String>>,
    /// Stacks: a template (relative to this file's folder) and the environment files it is
    /// created with (`openstack stack create -t TEMPLATE -e ENV…`), in order. Their
    /// `resource_registry` then says what the template's custom resource types stand for
    /// (instead of the environments of the tree closest to the template), and their
    /// `parameters` are checked against the template's. `hotfix lint -e` replaces them.
    #[serde(default)]
    stacks: Vec<RawStack>,
    /// Deployment layouts: an absolute install prefix (`/usr/share/openstack-tripleo-heat-templates`)
    /// and the folder of this tree it stands for (relative to this file's folder). A registry
    /// entry, nested template or `get_file` under the prefix is then read there, and reported
    /// when missing, instead of being taken for a path only a deployment has.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    paths: BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
}

/// One `[[stacks]]` entry.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawStack {
    /// The top template, relative to the configuration's folder.
    #[schemars(with = "String")]
    template: toml::Spanned<String>,
    /// Its environment files, relative to the configuration's folder, in the order `-e` would
    /// give them.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    environments: Vec<toml::Spanned<String>>,
}

/// A stack of the configuration: its template and environments, relative to its folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    pub template: PathBuf,
    pub environments: Vec<PathBuf>,
}

/// An OpenStack release name, as the schema lists them for editors (lower case; hotfix reads
/// any case).
struct ReleaseName;

impl schemars::JsonSchema for ReleaseName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ReleaseName".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names = HeatRelease::accepted_names();
        // The same names in any case, for validation (JSON Schema patterns have no flag for it).
        let any_case: Vec<String> = names
            .iter()
            .map(|name| {
                name.chars()
                    .map(|c| match c {
                        '.' => "\\.".to_owned(),
                        c if c.is_ascii_alphabetic() => {
                            format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
                        }
                        c => c.to_string(),
                    })
                    .collect()
            })
            .collect();
        schemars::json_schema!({
            "description": "An OpenStack release, liberty or later: a series name or a release \
                            number (2023.1 on).",
            "anyOf": [
                {"type": "string", "enum": names},
                {"type": "string", "pattern": format!("^(?:{})$", any_case.join("|"))},
            ],
        })
    }
}

/// A rule selector, as the schema lists them for editors: `ALL`, every code prefix and code,
/// every rule name.
struct RuleSelector;

impl schemars::JsonSchema for RuleSelector {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RuleSelector".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut names = std::collections::BTreeSet::new();
        for rule in hotfix_linter::all_rules() {
            for end in 1..=rule.code.len() {
                names.insert(rule.code[..end].to_owned());
            }
        }
        let mut names: Vec<String> = names.into_iter().collect();
        names.insert(0, "ALL".to_owned());
        names.extend(hotfix_linter::all_rules().iter().map(|r| r.name.to_owned()));
        schemars::json_schema!({
            "description": "A rule code (`H301`), code prefix (`H3`), rule name or `ALL`.",
            "type": "string",
            "enum": names,
        })
    }
}

/// A finding's severity.
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(
    dead_code,
    reason = "only its schema is used; the text is parsed by Severity::parse"
)]
enum SeverityName {
    Error,
    Warning,
    Info,
}

/// What the command line says about rules, applied on top of every configuration file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--select`: replaces the configuration's `select`.
    pub select: Vec<Selector>,
    /// `--extend-select`: added to it.
    pub extend_select: Vec<Selector>,
    /// `--ignore` and `--extend-ignore`: added to the configuration's `ignore`.
    pub ignore: Vec<Selector>,
    /// `--heat-release`: replaces the configuration's `heat-release`.
    pub heat_release: Option<HeatRelease>,
}

impl Overrides {
    fn apply(&self, settings: &mut Settings) {
        if !self.select.is_empty() {
            settings.select.clone_from(&self.select);
        }
        settings
            .extend_select
            .extend(self.extend_select.iter().cloned());
        settings.ignore.extend(self.ignore.iter().cloned());
        if self.heat_release.is_some() {
            settings.heat_release = self.heat_release;
        }
    }
}

/// Which configuration applies to which file: the one `--config` names, none with
/// `--no-config`, or else the nearest `hotfix.toml` in the file's folder or above, up to the
/// root of its version control checkout (the defaults where there is none). Each file is
/// loaded once.
#[derive(Debug)]
pub struct Configs {
    /// The working directory, as [`crate::paths::current_dir`] gives it: relative paths start
    /// there, and a file's folders are looked in by the names the user sees.
    cwd: PathBuf,
    fixed: Option<Arc<Config>>,
    defaults: Arc<Config>,
    overrides: Overrides,
    /// Folder → the configuration found in it or above it (`None`: none up to the root).
    nearest: HashMap<PathBuf, Option<Arc<Config>>>,
    /// Each folder's absolute name, worked out once.
    resolver: crate::paths::Resolver,
    /// Where each configuration loaded puts its `[paths]`: the run's disk source reads through
    /// them.
    prefixes: Arc<Prefixes>,
    /// How many times a file's or folder's configuration was asked for.
    asked: usize,
}

impl Configs {
    /// The configurations of a run in `cwd`; each one loaded adds its `[paths]` to `prefixes`.
    pub fn new(
        no_config: bool,
        explicit: Option<&Path>,
        cwd: &Path,
        overrides: Overrides,
        prefixes: Arc<Prefixes>,
    ) -> Result<Configs> {
        let mut defaults = Config::empty(cwd.to_path_buf());
        overrides.apply(&mut defaults.settings);
        let fixed = if no_config {
            Some(Arc::new(defaults.clone()))
        } else {
            explicit
                .map(|path| load(path, &overrides, cwd).map(Arc::new))
                .transpose()?
        };
        if let Some(fixed) = &fixed {
            fixed.add_prefixes(&prefixes);
        }
        Ok(Configs {
            cwd: cwd.to_path_buf(),
            fixed,
            defaults: Arc::new(defaults),
            overrides,
            nearest: HashMap::new(),
            resolver: crate::paths::Resolver::default(),
            prefixes,
            asked: 0,
        })
    }

    /// The configuration for a file (or, for a folder, the files directly in it).
    pub fn for_file(&mut self, path: &Path) -> Result<Arc<Config>> {
        self.asked += 1;
        if let Some(fixed) = &self.fixed {
            return Ok(Arc::clone(fixed));
        }
        let absolute = self.resolver.absolute(&self.cwd, path);
        let folder = if absolute.is_dir() {
            absolute.as_path()
        } else {
            absolute.parent().unwrap_or(Path::new("/"))
        };
        let found = self.nearest(folder)?;
        Ok(found.unwrap_or_else(|| Arc::clone(&self.defaults)))
    }

    /// The configuration for the files directly in `folder` (as a walk names it): what
    /// [`Configs::for_file`] gives each of them, asked once for them all.
    pub fn for_folder(&mut self, folder: &Path) -> Result<Arc<Config>> {
        self.asked += 1;
        if let Some(fixed) = &self.fixed {
            return Ok(Arc::clone(fixed));
        }
        let absolute = crate::paths::absolute(&self.cwd, folder);
        let found = self.nearest(&absolute)?;
        Ok(found.unwrap_or_else(|| Arc::clone(&self.defaults)))
    }

    /// How many times a file's or folder's configuration was asked for: what a walk costs.
    pub fn asked(&self) -> usize {
        self.asked
    }

    /// Every configuration file loaded so far, sorted.
    pub fn loaded(&self) -> Vec<&Path> {
        let mut paths: Vec<&Path> = self
            .fixed
            .iter()
            .chain(self.nearest.values().flatten())
            .filter_map(|c| c.path.as_deref())
            .collect();
        paths.sort_unstable();
        paths.dedup();
        paths
    }

    fn nearest(&mut self, folder: &Path) -> Result<Option<Arc<Config>>> {
        if let Some(found) = self.nearest.get(folder) {
            return Ok(found.clone());
        }
        let candidate = folder.join(FILE_NAME);
        let found = match std::fs::metadata(&candidate) {
            Ok(meta) if meta.is_file() => {
                let config = load(&candidate, &self.overrides, &self.cwd)?;
                config.add_prefixes(&self.prefixes);
                Some(Arc::new(config))
            }
            Ok(_) => {
                return Err(ConfigError(format!(
                    "{} is not a file: a configuration must be a TOML file",
                    candidate.display()
                )));
            }
            // A configuration above the checkout is another project's.
            Err(_) if crate::is_version_control_root(folder) => None,
            Err(_) => match folder.parent() {
                Some(parent) => self.nearest(parent)?,
                None => None,
            },
        };
        self.nearest.insert(folder.to_path_buf(), found.clone());
        Ok(found)
    }
}

/// The configuration, resolved: selectors parsed, globs compiled.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The folder globs are relative to (the config file's folder, or the working directory),
    /// as the user's shell names it (see [`crate::paths`]).
    pub root: PathBuf,
    /// The working directory, as the shell names it: relative paths start there.
    cwd: PathBuf,
    pub path: Option<PathBuf>,
    pub settings: Settings,
    pub include: Option<GlobSet>,
    pub exclude: Option<GlobSet>,
    /// `k2hr3-templates`.
    pub k2hr3: Option<GlobSet>,
    /// `[[stacks]]`.
    pub stacks: Vec<Stack>,
    /// `[[stacks]]`, each file named as the run names files.
    pub stack_entries: Vec<StackEntry>,
    /// `[paths]`: absolute install prefixes and the folders they stand for, as the run names
    /// them.
    prefixes: Vec<(StackPath, StackPath)>,
    per_file_ignores: Vec<(GlobSet, Vec<Selector>)>,
    /// Each folder's place relative to `root`, worked out once.
    resolver: crate::paths::Resolver,
}

impl Config {
    /// Tells the run's disk source this configuration's `[paths]`.
    fn add_prefixes(&self, table: &Prefixes) {
        for (prefix, folder) in &self.prefixes {
            table.add(prefix.clone(), folder.clone());
        }
    }

    /// No configuration: every rule, default severities, globs relative to the working
    /// directory `cwd`.
    pub fn empty(cwd: PathBuf) -> Config {
        Config {
            root: cwd.clone(),
            cwd,
            ..Config::default()
        }
    }

    /// The settings for one file: the base settings plus its per-file ignores.
    pub fn settings_for(&self, path: &Path) -> Settings {
        let mut settings = self.settings.clone();
        if self.per_file_ignores.is_empty() {
            return settings;
        }
        let relative = self.relative(path);
        for (globs, selectors) in &self.per_file_ignores {
            if globs.is_match(&relative) {
                settings.ignore.extend(selectors.iter().cloned());
            }
        }
        settings
    }

    /// A path relative to the configuration's folder, for glob matching (the path as given
    /// when it lies elsewhere).
    pub fn relative(&self, path: &Path) -> PathBuf {
        self.resolver
            .under(&self.root, &self.cwd, path)
            .unwrap_or_else(|| path.to_path_buf())
    }

    pub fn excluded(&self, path: &Path) -> bool {
        self.exclude
            .as_ref()
            .is_some_and(|g| g.is_match(self.relative(path)))
    }

    /// Whether `k2hr3-templates` names the file.
    pub fn is_k2hr3(&self, path: &Path) -> bool {
        self.k2hr3
            .as_ref()
            .is_some_and(|g| g.is_match(self.relative(path)))
    }

    /// The `[[stacks]]` entry whose template is the file, and the one whose environments
    /// include it: (stack index, the file is its template).
    pub fn stack_of(&self, path: &Path) -> Option<(usize, bool)> {
        if self.stacks.is_empty() {
            return None;
        }
        let relative = normal(&self.relative(path));
        self.stacks.iter().enumerate().find_map(|(i, stack)| {
            if normal(&stack.template) == relative {
                Some((i, true))
            } else if stack.environments.iter().any(|e| normal(e) == relative) {
                Some((i, false))
            } else {
                None
            }
        })
    }

    /// A path of the configuration (relative to its folder) as the run names files.
    pub fn path_of(&self, relative: &Path) -> PathBuf {
        let full = self.root.join(relative);
        match full.strip_prefix(&self.cwd) {
            Ok(inside) if !inside.as_os_str().is_empty() => inside.to_path_buf(),
            _ => full,
        }
    }

    pub fn included(&self, path: &Path) -> bool {
        self.include
            .as_ref()
            .is_none_or(|g| g.is_match(self.relative(path)))
    }
}

/// A relative path without `.` components, for comparing paths of the configuration.
fn normal(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect()
}

/// A configuration file's text: a regular file of at most 1 MiB (no real one comes near).
fn read_config(path: &Path) -> std::io::Result<String> {
    crate::read::text_within(path, 1024 * 1024)
}

/// The error for a mistake at `span` of the configuration `display` whose text is `text`: the
/// message with a code frame into the file.
fn invalid<'a>(
    display: &'a str,
    text: &'a str,
) -> impl Fn(String, Option<std::ops::Range<usize>>) -> ConfigError + 'a {
    move |message, span| {
        let span = span.map_or(Span::new(0, 0), |r| Span::new(r.start, r.end));
        let diagnostic = Diagnostic::new(
            "config",
            "invalid-configuration",
            Severity::Error,
            message,
            span,
        );
        let rendered = render_human(&diagnostic, display, text, RenderOptions::default());
        ConfigError(format!(
            "invalid configuration {display}\n{}",
            rendered.trim_end()
        ))
    }
}

/// Loads a configuration file (a path relative to the working directory `cwd`, or absolute).
/// Errors are rendered with a code frame into the file.
pub fn load(path: &Path, overrides: &Overrides, cwd: &Path) -> Result<Config> {
    let text = read_config(path).map_err(|err| {
        ConfigError(format!(
            "cannot read the configuration {}: {err}",
            path.display()
        ))
    })?;
    let display = path.display().to_string();
    let fail = invalid(&display, &text);
    let raw: RawConfig =
        toml::from_str(&text).map_err(|err| fail(with_suggestion(err.message()), err.span()))?;
    let selectors = |items: &[toml::Spanned<String>]| -> Result<Vec<Selector>> {
        items
            .iter()
            .map(|item| {
                Selector::parse(item.get_ref())
                    .ok_or_else(|| fail(unknown_rule(item.get_ref()), Some(item.span())))
            })
            .collect()
    };
    let globs = |items: &[toml::Spanned<String>]| -> Result<Option<GlobSet>> {
        if items.is_empty() {
            return Ok(None);
        }
        let mut builder = GlobSetBuilder::new();
        for item in items {
            let glob = Glob::new(item.get_ref())
                .map_err(|err| fail(format!("invalid glob: {err}"), Some(item.span())))?;
            builder.add(glob);
        }
        builder
            .build()
            .map(Some)
            .map_err(|err| fail(format!("invalid globs: {err}"), None))
    };
    let mut per_file_ignores = Vec::new();
    for (pattern, codes) in &raw.per_file_ignores {
        let set = globs(std::slice::from_ref(pattern))?.unwrap_or_else(GlobSet::empty);
        per_file_ignores.push((set, selectors(codes)?));
    }
    let mut severities = Vec::new();
    for (code, level) in &raw.severity {
        let selector = selectors(std::slice::from_ref(code))?.remove(0);
        let severity = Severity::parse(level.get_ref()).ok_or_else(|| {
            fail(
                format!(
                    "`{}` is not a severity: use error, warning or info",
                    level.get_ref()
                ),
                Some(level.span()),
            )
        })?;
        severities.push((selector, severity));
    }
    let ignore = [selectors(&raw.ignore)?, selectors(&raw.extend_ignore)?].concat();
    let heat_release = raw
        .heat_release
        .as_ref()
        .map(|name| {
            HeatRelease::parse(name.get_ref())
                .map_err(|err| fail(err.to_string(), Some(name.span())))
        })
        .transpose()?;
    let mut settings = Settings {
        select: selectors(&raw.select)?,
        extend_select: selectors(&raw.extend_select)?,
        ignore,
        severities,
        heat_release,
        ..Settings::default()
    };
    overrides.apply(&mut settings);
    let root = folder_of(cwd, path);
    let stacks = stacks(&raw.stacks, &root, &fail)?;
    let prefixes = map_prefixes(&raw.paths, &root, cwd, &fail)?;
    Ok(with_stack_entries(Config {
        root,
        cwd: cwd.to_path_buf(),
        path: Some(path.to_path_buf()),
        settings,
        include: globs(&raw.include)?,
        exclude: globs(&raw.exclude)?,
        k2hr3: globs(&raw.k2hr3_templates)?,
        stacks,
        stack_entries: Vec::new(),
        prefixes,
        per_file_ignores,
        resolver: crate::paths::Resolver::default(),
    }))
}

/// The configuration with its `[[stacks]]` named as the run names files.
fn with_stack_entries(mut config: Config) -> Config {
    config.stack_entries = config
        .stacks
        .iter()
        .map(|stack| StackEntry {
            template: crate::stack_path(&config.path_of(&stack.template)),
            environments: stack
                .environments
                .iter()
                .map(|e| crate::stack_path(&config.path_of(e)))
                .collect(),
        })
        .collect();
    config
}

/// The `[paths]` of a configuration whose folder is `root`, the folders as the run names
/// them: each prefix must be absolute, each folder one that is there.
fn map_prefixes(
    paths: &BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
    root: &Path,
    cwd: &Path,
    fail: &dyn Fn(String, Option<std::ops::Range<usize>>) -> ConfigError,
) -> Result<Vec<(StackPath, StackPath)>> {
    let mut mapped = Vec::new();
    for (prefix, folder) in paths {
        if !prefix.get_ref().starts_with('/') {
            return Err(fail(
                format!(
                    "`{}` is not an absolute path: `[paths]` maps install prefixes",
                    prefix.get_ref()
                ),
                Some(prefix.span()),
            ));
        }
        let relative = PathBuf::from(folder.get_ref());
        if relative.is_absolute() || !root.join(&relative).is_dir() {
            return Err(fail(
                format!(
                    "`{}` is not a folder (relative to this configuration's folder)",
                    folder.get_ref()
                ),
                Some(folder.span()),
            ));
        }
        let local = {
            let full = root.join(&relative);
            match full.strip_prefix(cwd) {
                Ok(inside) if !inside.as_os_str().is_empty() => inside.to_path_buf(),
                Ok(_) => PathBuf::from("."),
                Err(_) => full,
            }
        };
        mapped.push((StackPath::new(prefix.get_ref()), crate::stack_path(&local)));
    }
    Ok(mapped)
}

/// The `[[stacks]]` entries, each file checked to exist (relative to the configuration's
/// folder `root`).
fn stacks(
    raw: &[RawStack],
    root: &Path,
    fail: &dyn Fn(String, Option<std::ops::Range<usize>>) -> ConfigError,
) -> Result<Vec<Stack>> {
    let mut stacks = Vec::new();
    for stack in raw {
        let exists = |item: &toml::Spanned<String>| -> Result<PathBuf> {
            let relative = PathBuf::from(item.get_ref());
            if relative.is_absolute() || !root.join(&relative).is_file() {
                return Err(fail(
                    format!(
                        "`{}` is not a file (relative to this configuration's folder)",
                        item.get_ref()
                    ),
                    Some(item.span()),
                ));
            }
            Ok(relative)
        };
        stacks.push(Stack {
            template: exists(&stack.template)?,
            environments: stack
                .environments
                .iter()
                .map(exists)
                .collect::<Result<_>>()?,
        });
    }
    Ok(stacks)
}

/// The folder of a configuration file, as the user's shell names it.
fn folder_of(cwd: &Path, path: &Path) -> PathBuf {
    crate::paths::absolute(cwd, path)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The JSON schema of `hotfix.toml`, as committed in `hotfix.schema.json`.
#[cfg(test)]
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(RawConfig);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// serde's "unknown field `selct`, expected one of `select`, …" with the key it most likely
/// meant: "…; did you mean `select`?".
fn with_suggestion(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_owned();
    };
    let Some((key, expected)) = rest.split_once('`') else {
        return message.to_owned();
    };
    let candidates = expected.split('`').skip(1).step_by(2);
    match hotfix_linter::did_you_mean(key, candidates) {
        Some(suggestion) => format!("{message}; did you mean `{suggestion}`?"),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed_schema_path() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../hotfix.schema.json")
    }

    #[test]
    fn the_committed_json_schema_is_current() {
        let path = committed_schema_path();
        let fresh = json_schema();
        if std::env::var_os("HOTFIX_UPDATE_SCHEMA").is_some() {
            std::fs::write(&path, &fresh).expect("write hotfix.schema.json");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "hotfix.schema.json is stale: run `HOTFIX_UPDATE_SCHEMA=1 cargo test -p hotfix_workspace \
             the_committed_json_schema_is_current` and commit it"
        );
    }

    #[test]
    fn the_schema_names_every_key_the_parser_accepts() {
        let schema: serde_json::Value =
            serde_json::from_str(&json_schema()).expect("the schema is JSON");
        let properties = schema["properties"].as_object().expect("properties");
        let mut keys: Vec<&str> = properties.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "exclude",
                "extend-ignore",
                "extend-select",
                "heat-release",
                "ignore",
                "include",
                "k2hr3-templates",
                "paths",
                "per-file-ignores",
                "select",
                "severity",
                "stacks"
            ]
        );
        assert_eq!(schema["additionalProperties"], serde_json::json!(false));
        let every_key = r#"
            select = ["ALL"]
            extend-select = ["H408"]
            ignore = ["H4"]
            extend-ignore = ["H101"]
            include = ["**/*.yaml"]
            exclude = ["vendor/**"]
            heat-release = "Wallaby"
            [per-file-ignores]
            "env/**" = ["H101"]
            [severity]
            H408 = "info"
            [[stacks]]
            template = "top.yaml"
            environments = ["env.yaml"]
            [paths]
            "/usr/share/openstack-tripleo-heat-templates" = "."
        "#;
        let raw: RawConfig = toml::from_str(every_key).expect("every key parses");
        assert_eq!(raw.severity.len(), 1);
    }

    #[test]
    fn command_line_selection_applies_on_top_of_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(FILE_NAME);
        std::fs::write(
            &path,
            "select = [\"H3\"]\nextend-select = [\"H408\"]\nextend-ignore = [\"H302\"]\n",
        )
        .expect("write");
        let rule = |code| hotfix_linter::rule_by_code(code).expect("a rule");
        let plain = load(&path, &Overrides::default(), dir.path()).expect("loads");
        assert!(plain.settings.enabled(rule("H301")));
        assert!(plain.settings.enabled(rule("H408")));
        assert!(!plain.settings.enabled(rule("H302")));
        assert!(!plain.settings.enabled(rule("H401")));
        let overrides = Overrides {
            select: vec![Selector::parse("H4").expect("selector")],
            extend_select: vec![Selector::parse("H302").expect("selector")],
            ignore: vec![Selector::parse("H408").expect("selector")],
            ..Overrides::default()
        };
        let overridden = load(&path, &overrides, dir.path()).expect("loads");
        assert!(!overridden.settings.enabled(rule("H301")));
        assert!(overridden.settings.enabled(rule("H401")));
        assert!(!overridden.settings.enabled(rule("H408")));
        // The file's `extend-ignore = ["H302"]` and the command line's `--extend-select H302`
        // are equally specific: ignoring wins, as in ruff.
        assert!(!overridden.settings.enabled(rule("H302")));
    }

    #[test]
    fn the_heat_release_is_read_in_any_case_and_the_command_line_replaces_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, "heat-release = \"Wallaby\"\n").expect("write");
        let release = |name| HeatRelease::parse(name).expect("a release");
        let plain = load(&path, &Overrides::default(), dir.path()).expect("loads");
        assert_eq!(plain.settings.heat_release, Some(release("wallaby")));
        let overrides = Overrides {
            heat_release: Some(release("2023.1")),
            ..Overrides::default()
        };
        let overridden = load(&path, &overrides, dir.path()).expect("loads");
        assert_eq!(overridden.settings.heat_release, Some(release("antelope")));
        // Without the key (or a configuration), no release is assumed.
        std::fs::write(&path, "select = [\"H6\"]\n").expect("write");
        let without = load(&path, &Overrides::default(), dir.path()).expect("loads");
        assert_eq!(without.settings.heat_release, None);
        assert_eq!(
            Config::empty(dir.path().to_path_buf())
                .settings
                .heat_release,
            None
        );
    }

    #[test]
    fn an_unknown_heat_release_is_an_error_that_points_at_it_and_lists_the_known_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, "select = [\"H6\"]\nheat-release = \"wallabee\"\n").expect("write");
        let err = load(&path, &Overrides::default(), dir.path()).expect_err("not a release");
        let text = err.to_string();
        assert!(
            text.contains(
                "`wallabee` is not an OpenStack release hotfix knows: did you mean `wallaby`? use one of"
            ),
            "{text}"
        );
        assert!(text.contains("2:16"), "points at the value: {text}");
        std::fs::write(&path, "heat-release = \"kilo\"\n").expect("write");
        let err = load(&path, &Overrides::default(), dir.path()).expect_err("too old");
        assert!(err.to_string().contains("before liberty"), "{err}");
        std::fs::write(&path, "heat-release = 16\n").expect("write");
        let err = load(&path, &Overrides::default(), dir.path()).expect_err("not a string");
        assert!(err.to_string().contains("invalid type"), "{err}");
    }

    #[test]
    fn each_file_uses_its_nearest_configuration() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b")).expect("mkdir");
        std::fs::create_dir_all(root.join("c")).expect("mkdir");
        std::fs::write(root.join(FILE_NAME), "ignore = [\"H408\"]\n").expect("write");
        std::fs::write(root.join("a").join(FILE_NAME), "select = [\"H3\"]\n").expect("write");
        let mut configs = Configs::new(false, None, root, Overrides::default(), Arc::default())
            .expect("no config yet");
        let for_file = |configs: &mut Configs, rel: &str| {
            configs
                .for_file(&root.join(rel))
                .expect("loads")
                .path
                .clone()
                .expect("a file")
        };
        assert_eq!(
            for_file(&mut configs, "a/b/t.yaml"),
            root.join("a").join(FILE_NAME)
        );
        assert_eq!(
            for_file(&mut configs, "a/t.yaml"),
            root.join("a").join(FILE_NAME)
        );
        assert_eq!(for_file(&mut configs, "c/t.yaml"), root.join(FILE_NAME));
        assert_eq!(configs.loaded().len(), 2);
    }

    #[test]
    fn a_folder_named_hotfix_toml_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(FILE_NAME)).expect("mkdir");
        let mut configs = Configs::new(
            false,
            None,
            dir.path(),
            Overrides::default(),
            Arc::default(),
        )
        .expect("configs");
        let err = configs
            .for_file(&dir.path().join("t.yaml"))
            .expect_err("a folder is not a configuration");
        assert!(err.to_string().contains("is not a file"), "{err}");
    }
}
