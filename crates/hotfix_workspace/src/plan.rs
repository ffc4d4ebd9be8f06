//! What a file of a project is and what its checks are given: one answer for every front end.
//! `hotfix lint` asks it for each file it reads, the language server for each file the editor
//! shows, so that both tell a template from an environment, a blueprint or a K2HR3 template
//! alike, with the same settings, registry and stack.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hotfix_linter::Settings;
use hotfix_stack::{FileFacts, LazyRegistry, StackPath};

use crate::config::Config;
use crate::kind::{Kind, classify, has_template_extension, named_kind};
use crate::{Project, stack_path};

/// A file a front end asks about, as it met it.
#[derive(Clone, Copy, Debug)]
pub struct Asked<'a> {
    pub path: &'a Path,
    /// Its bytes, whole.
    pub bytes: &'a [u8],
    /// Named on the command line, not met by a walk: a template unless its content says
    /// otherwise (a walked file of another extension than a template's must prove it loads).
    pub named: bool,
    /// Given with `-e`: an environment whatever it holds.
    pub given_environment: bool,
    /// `--templates-only`: an environment or a file named is told by content, and an
    /// environment is not linted.
    pub templates_only: bool,
}

/// What a file is to the checks, and what they are given.
#[derive(Debug)]
pub enum Plan {
    /// Not a file hotfix lints: what it is.
    Skip(Kind),
    /// A K2HR3 template (an engine header, or `k2hr3-templates` names it); its settings hold
    /// the variables its variables file gives.
    K2hr3(Settings),
    /// An environment file.
    Environment {
        settings: Settings,
        /// The registry it is read with (`None`: its `[[stacks]]` entry's environments cannot
        /// be read; that entry's template reports it).
        registry: Option<Arc<LazyRegistry>>,
        /// The templates it is given with (`-e`, or its `[[stacks]]` entry's).
        stack_templates: Vec<(StackPath, Arc<FileFacts>)>,
        /// The environments given with it (itself included), in order.
        stack_environments: Vec<StackPath>,
    },
    /// A Heat template or a Cloudify blueprint (its settings then hold what its imports
    /// declare).
    Template {
        settings: Settings,
        registry: Arc<LazyRegistry>,
        /// The file loaded, when planning it loaded it (a blueprint, for what it imports): its
        /// checks need not load it again.
        document: Option<Box<hotfix_yaml::Document>>,
    },
}

impl Project {
    /// What the file `asked` is in this project, whose configuration `config` applies to it,
    /// and what its checks are given. An `Err` says why it cannot be linted: the variables
    /// file of a K2HR3 template that cannot be read, or the environments of the template's
    /// `[[stacks]]` entry.
    pub fn plan(&self, config: &Config, asked: &Asked<'_>) -> Result<Plan, String> {
        let path = asked.path;
        let bytes = asked.bytes;
        let mut settings = config.settings_for(path);
        match lint_kind(Some(config), asked) {
            LintKind::K2hr3 => {
                settings.k2hr3_variables = crate::k2hr3::given_variables(path)?;
                Ok(Plan::K2hr3(settings))
            }
            LintKind::Environment => {
                // The template of the `[[stacks]]` entry the file is an environment of.
                let index = match config.stack_of(path) {
                    Some((index, false)) => Some(index),
                    _ => None,
                };
                let stack_template: Option<PathBuf> =
                    index.map(|i| config.path_of(&config.stacks[i].template));
                Ok(Plan::Environment {
                    settings,
                    registry: self
                        .registry(path, &config.root, &config.stack_entries)
                        .ok(),
                    stack_templates: self
                        .templates_given_with(&stack_path(path), stack_template.as_deref()),
                    stack_environments: self.environments_given_with(
                        &stack_path(path),
                        index.and_then(|i| config.stack_entries.get(i)),
                    ),
                })
            }
            LintKind::Skip(kind) => Ok(Plan::Skip(kind)),
            kind @ (LintKind::Template | LintKind::Blueprint) => {
                let mut document = None;
                if kind == LintKind::Blueprint {
                    document = self.load_blueprint(path, bytes).map(Box::new);
                    settings.blueprint_imports = self.blueprint_imports(path, bytes);
                }
                let registry = self.registry(path, &config.root, &config.stack_entries)?;
                Ok(Plan::Template {
                    settings,
                    registry,
                    document,
                })
            }
        }
    }
}

impl Project {
    /// A blueprint loaded as its checks load it ([`hotfix_linter::lint_with_files`]), its
    /// imports remembered; `None` when it does not load, or its text is not its bytes as they
    /// are (then its checks and its importers read it themselves, as before).
    fn load_blueprint(&self, path: &Path, bytes: &[u8]) -> Option<hotfix_yaml::Document> {
        let text = hotfix_yaml::check_bytes(bytes).ok()?;
        if text.len() != bytes.len() {
            return None;
        }
        let doc = match self.blueprints.take_loaded(path, text) {
            // Loaded without Heat's size limit, which `parse` applies first.
            Some(doc) => {
                hotfix_yaml::check_size(text).ok()?;
                doc
            }
            None => hotfix_yaml::parse(text).ok()?,
        };
        self.blueprints.remember(path, text, &doc);
        Some(doc)
    }
}

/// What a file is to the lint: the one answer of every front end (the playground, which has no
/// configuration, included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LintKind {
    /// A K2HR3 template: an engine header, or `k2hr3-templates` names it.
    K2hr3,
    /// An environment file (given with `-e` or by a `[[stacks]]` entry, whatever it holds).
    Environment,
    /// A Heat template.
    Template,
    /// A Cloudify blueprint.
    Blueprint,
    /// Not a file hotfix lints: what it is.
    Skip(Kind),
}

/// What the file `asked` is to the lint, under the configuration `config` that applies to it
/// (when there is one).
pub fn lint_kind(config: Option<&Config>, asked: &Asked<'_>) -> LintKind {
    let (path, bytes) = (asked.path, asked.bytes);
    if config.is_some_and(|c| c.is_k2hr3(path)) || hotfix_linter::is_k2hr3(bytes) {
        return LintKind::K2hr3;
    }
    let stack_environment = config
        .and_then(|c| c.stack_of(path))
        .is_some_and(|(_, template)| !template);
    let kind = if asked.given_environment || stack_environment {
        // Whatever it holds: its mistakes are an environment's (`environment has wrong
        // section`), as Heat's client reads it.
        Kind::Environment
    } else {
        let named = asked.named && !asked.templates_only;
        match kind_of(config, path, bytes, !named) {
            // A file named on the command line is a template unless its content says
            // otherwise: nothing at its top level is a template's.
            Kind::Jinja | Kind::Other if named => named_kind(bytes),
            kind => kind,
        }
    };
    match kind {
        Kind::Environment if !asked.templates_only => LintKind::Environment,
        Kind::Template => LintKind::Template,
        Kind::Blueprint => LintKind::Blueprint,
        kind => LintKind::Skip(kind),
    }
}

/// What a file is by content: [`classify`], and, with `prove`, for a file of another
/// extension than a template's, the proof that it loads as a YAML mapping (a Python test, a
/// shell script or a README may hold a template at the start of its lines, inside a string or
/// a code block). Walked files are proved; files named on the command line are when they are
/// told by content (`--templates-only`, `upgrade`), not when named as templates to lint.
pub fn kind_of(config: Option<&Config>, path: &Path, bytes: &[u8], prove: bool) -> Kind {
    let kind = classify(path, bytes);
    if !prove
        || has_template_extension(path)
        || config.is_some_and(|c| c.is_k2hr3(path))
        || !matches!(kind, Kind::Template | Kind::Environment | Kind::Blueprint)
        || hotfix_linter::is_k2hr3(bytes)
    {
        return kind;
    }
    let loads = hotfix_yaml::check_bytes(bytes)
        .ok()
        .and_then(|text| hotfix_yaml::parse_unlimited(text).ok())
        .is_some();
    if loads { kind } else { Kind::NotYaml }
}
