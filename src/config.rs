//! `hotfix.toml`: found upward from the working directory, or named with `--config`.
//!
//! ```toml
//! select = ["H"]                 # rules to run (codes, prefixes, names, "ALL")
//! ignore = ["H408"]              # rules not to run
//! include = ["**/*.yaml"]        # which files a directory walk considers (default: YAML and JSON)
//! exclude = ["vendor/**"]        # files and folders a directory walk skips
//!
//! [per-file-ignores]
//! "environments/**" = ["H101"]
//!
//! [severity]
//! H408 = "info"                  # error, warning or info
//! ```
//!
//! Unknown keys, unknown rule codes and bad globs are errors that point into the file.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, anyhow};
use globset::{Glob, GlobSet, GlobSetBuilder};
use hotfix_diagnostics::{Diagnostic, RenderOptions, Severity, Span, render_human};
use hotfix_linter::{Selector, Settings};
use serde::Deserialize;

pub(crate) const FILE_NAME: &str = "hotfix.toml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    #[serde(default)]
    select: Vec<toml::Spanned<String>>,
    #[serde(default)]
    ignore: Vec<toml::Spanned<String>>,
    #[serde(default)]
    include: Vec<toml::Spanned<String>>,
    #[serde(default)]
    exclude: Vec<toml::Spanned<String>>,
    #[serde(default)]
    per_file_ignores: std::collections::BTreeMap<toml::Spanned<String>, Vec<toml::Spanned<String>>>,
    #[serde(default)]
    severity: std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
}

/// The configuration, resolved: selectors parsed, globs compiled.
#[derive(Debug, Default)]
pub(crate) struct Config {
    /// The folder globs are relative to (the config file's folder, or the working directory).
    pub(crate) root: PathBuf,
    pub(crate) path: Option<PathBuf>,
    pub(crate) settings: Settings,
    pub(crate) include: Option<GlobSet>,
    pub(crate) exclude: Option<GlobSet>,
    per_file_ignores: Vec<(GlobSet, Vec<Selector>)>,
}

impl Config {
    /// No configuration: every rule, default severities, globs relative to `root`.
    pub(crate) fn empty(root: PathBuf) -> Config {
        Config {
            root,
            ..Config::default()
        }
    }

    /// The settings for one file: the base settings plus its per-file ignores.
    pub(crate) fn settings_for(&self, path: &Path) -> Settings {
        let relative = self.relative(path);
        let mut settings = self.settings.clone();
        for (globs, selectors) in &self.per_file_ignores {
            if globs.is_match(&relative) {
                settings.ignore.extend(selectors.iter().cloned());
            }
        }
        settings
    }

    /// A path relative to the configuration's folder, for glob matching.
    pub(crate) fn relative(&self, path: &Path) -> PathBuf {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        absolute
            .strip_prefix(&self.root)
            .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
    }

    pub(crate) fn excluded(&self, path: &Path) -> bool {
        let relative = self.relative(path);
        self.exclude.as_ref().is_some_and(|g| g.is_match(&relative))
    }

    pub(crate) fn included(&self, path: &Path) -> bool {
        let relative = self.relative(path);
        self.include.as_ref().is_none_or(|g| g.is_match(&relative))
    }
}

/// The configuration a command uses: none with `--no-config`, the file `--config` names, or
/// `hotfix.toml` found from `cwd` upward.
pub(crate) fn resolve(
    no_config: bool,
    explicit: Option<&Path>,
    cwd: &Path,
) -> anyhow::Result<Config> {
    if no_config {
        return Ok(Config::empty(cwd.to_path_buf()));
    }
    if let Some(path) = explicit {
        return load(path);
    }
    match find(cwd) {
        Some(path) => load(&path),
        None => Ok(Config::empty(cwd.to_path_buf())),
    }
}

/// The paths a command works on (the current folder when none is given), all of which exist.
pub(crate) fn paths(given: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let paths = if given.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        given.to_vec()
    };
    for path in &paths {
        if !path.exists() {
            return Err(anyhow!("{}: no such file or folder", path.display()));
        }
    }
    Ok(paths)
}

/// Finds `hotfix.toml` in `start` or the nearest folder above it.
pub(crate) fn find(start: &Path) -> Option<PathBuf> {
    let start = std::path::absolute(start).ok()?;
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
}

/// Loads a configuration file. Errors are rendered with a code frame into the file.
pub(crate) fn load(path: &Path) -> anyhow::Result<Config> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the configuration {}", path.display()))?;
    let display = path.display().to_string();
    let fail = |message: String, span: Option<std::ops::Range<usize>>| -> anyhow::Error {
        let span = span.map_or(Span::new(0, 0), |r| Span::new(r.start, r.end));
        let diagnostic = Diagnostic::new(
            "config",
            "invalid-configuration",
            Severity::Error,
            message,
            span,
        );
        let rendered = render_human(&diagnostic, &display, &text, RenderOptions::default());
        anyhow!("invalid configuration {display}\n{rendered}")
    };
    let raw: RawConfig =
        toml::from_str(&text).map_err(|err| fail(err.message().to_owned(), err.span()))?;
    let selectors = |items: &[toml::Spanned<String>]| -> anyhow::Result<Vec<Selector>> {
        items
            .iter()
            .map(|item| {
                Selector::parse(item.get_ref()).ok_or_else(|| {
                    fail(
                        format!(
                            "`{}` is not a hotfix rule code, prefix or name",
                            item.get_ref()
                        ),
                        Some(item.span()),
                    )
                })
            })
            .collect()
    };
    let globs = |items: &[toml::Spanned<String>]| -> anyhow::Result<Option<GlobSet>> {
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
    let root = std::path::absolute(path)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    Ok(Config {
        root,
        path: Some(path.to_path_buf()),
        settings: Settings {
            select: selectors(&raw.select)?,
            ignore: selectors(&raw.ignore)?,
            severities,
        },
        include: globs(&raw.include)?,
        exclude: globs(&raw.exclude)?,
        per_file_ignores,
    })
}
