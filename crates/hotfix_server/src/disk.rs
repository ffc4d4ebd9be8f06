//! The project of the files an editor opens, read from disk: each resolved once as `hotfix lint`
//! resolves its run's ([`hotfix_workspace::Project`]), asked the same questions
//! ([`Project::plan`]), and read again when its configuration or one of its environments
//! changes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use hotfix_linter::Settings;
use hotfix_stack::FileSource;
use hotfix_workspace::config::{Config, Configs, Overrides};
use hotfix_workspace::kind::{Kind, SNIFF, classify, has_template_extension, sniff};
use hotfix_workspace::{Asked, DiskSource, Plan, Project, read};

use crate::Context;

/// The projects of the files the editor opens, each resolved once, as `hotfix lint` resolves
/// its run's, and read again when its configuration or one of its environments changes.
pub struct DiskProject {
    cwd: PathBuf,
    /// `--config`: the configuration file of every file, instead of each one's nearest.
    config: Option<PathBuf>,
    /// The command line's rule selection and release, over every configuration.
    overrides: Overrides,
    /// Each project met, by the folders it spans.
    projects: Mutex<Vec<Arc<Resolved>>>,
}

impl std::fmt::Debug for DiskProject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let projects = self.projects.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("DiskProject")
            .field("cwd", &self.cwd)
            .field("config", &self.config)
            .field("projects", &projects.len())
            .finish_non_exhaustive()
    }
}

/// One project of the editor: what `hotfix lint` resolves before linting the files of a run
/// over its root, and the configurations of its files.
struct Resolved {
    project: Project,
    configs: Mutex<Configs>,
}

impl Resolved {
    /// The configuration of the file at `path`.
    fn config(&self, path: &Path) -> Result<Arc<Config>, String> {
        self.configs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .for_file(path)
            .map_err(|err| format!("{err:#}"))
    }
}

impl DiskProject {
    /// The projects of the editor's files under the working folder `cwd`, each file's
    /// configuration its nearest `hotfix.toml` (or `config`, for every file), with the command
    /// line's `overrides`. A configuration file given that cannot be read fails here, not at
    /// each request.
    ///
    /// # Errors
    ///
    /// When `config` cannot be read.
    pub fn new(
        cwd: PathBuf,
        config: Option<PathBuf>,
        overrides: Overrides,
    ) -> Result<DiskProject, String> {
        let config = config.map(|path| cwd.join(path));
        if let Some(path) = &config {
            Configs::new(false, Some(path), &cwd, overrides.clone(), Arc::default())
                .map_err(|err| format!("{err:#}"))?;
        }
        Ok(DiskProject {
            cwd,
            config,
            overrides,
            projects: Mutex::default(),
        })
    }

    /// The project of the file at `path` (absolute, from the editor), given the editor's
    /// workspace folders: resolved on first need, then kept.
    fn resolved(&self, path: &Path, workspace: &[PathBuf]) -> Result<Arc<Resolved>, String> {
        let scope = hotfix_workspace::scope(&[path.to_path_buf()], &self.cwd, workspace);
        let mut projects = self.projects.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = projects.iter().find(|r| *r.project.scope() == scope) {
            return Ok(Arc::clone(known));
        }
        // The files change while the server runs: nothing read of them is kept but the
        // project's environments, read again when one changes.
        let disk = Arc::new(DiskSource::live());
        let mut configs = Configs::new(
            false,
            self.config.as_deref(),
            &self.cwd,
            self.overrides.clone(),
            disk.prefixes(),
        )
        .map_err(|err| format!("{err:#}"))?;
        // The file's configuration first: its `[paths]` say where install prefixes lie before
        // any environment is read.
        configs.for_file(path).map_err(|err| format!("{err:#}"))?;
        let project = Project::resolve(&[path.to_path_buf()], &[], &self.cwd, workspace, disk)
            .map_err(|err| err.to_string())?;
        let resolved = Arc::new(Resolved {
            project,
            configs: Mutex::new(configs),
        });
        projects.push(Arc::clone(&resolved));
        Ok(resolved)
    }
}

impl crate::Project for DiskProject {
    fn settings(&self, path: &Path) -> Result<Option<Settings>, String> {
        let config = self.resolved(path, &[])?.config(path)?;
        if config.excluded(path) || !config.included(path) {
            return Ok(None);
        }
        Ok(Some(config.settings_for(path)))
    }

    fn kind(&self, path: &Path, text: &str) -> crate::FileKind {
        if hotfix_linter::is_k2hr3(text.as_bytes()) {
            return crate::FileKind::Template;
        }
        match classify(path, text.as_bytes()) {
            Kind::Template | Kind::Blueprint => crate::FileKind::Template,
            Kind::Environment => crate::FileKind::Environment,
            _ => crate::FileKind::Other,
        }
    }

    fn context(
        &self,
        path: &Path,
        text: &str,
        workspace: &[PathBuf],
    ) -> Result<Option<Context>, String> {
        let resolved = self.resolved(path, workspace)?;
        let config = resolved.config(path)?;
        if config.excluded(path) || !config.included(path) {
            return Ok(None);
        }
        let project = &resolved.project;
        let context = |kind, k2hr3, settings| Context {
            settings,
            kind,
            k2hr3,
            files: Some(project.shared_source() as Arc<dyn FileSource + Send + Sync>),
            roots: project.roots().to_vec(),
            registry: None,
            stack_templates: Vec::new(),
            stack_environments: Vec::new(),
        };
        // What `hotfix lint` makes of the file, met by its walk of the project.
        let asked = Asked {
            path,
            bytes: text.as_bytes(),
            named: false,
            given_environment: false,
            templates_only: false,
        };
        Ok(match project.plan(&config, &asked)? {
            Plan::Skip(_) => None,
            Plan::K2hr3(settings) => Some(context(crate::FileKind::Template, true, settings)),
            Plan::Environment {
                settings,
                registry,
                stack_templates,
                stack_environments,
            } => Some(Context {
                registry,
                stack_templates,
                stack_environments,
                ..context(crate::FileKind::Environment, false, settings)
            }),
            Plan::Template {
                settings, registry, ..
            } => Some(Context {
                registry: Some(registry),
                ..context(crate::FileKind::Template, false, settings)
            }),
        })
    }

    fn changed(&self, path: &Path, text: Option<&str>) {
        let mut projects = self.projects.lock().unwrap_or_else(PoisonError::into_inner);
        if path
            .file_name()
            .is_some_and(|name| name == hotfix_workspace::CONFIG_FILE)
        {
            // A configuration changed, came or went: every file's may be another now.
            projects.clear();
            return;
        }
        // A template is read anew at each lint; what a project keeps is its environments,
        // its blueprints' imports and its `[[stacks]]`' templates: a template changed drops
        // only the `[[stacks]]` entries whose stack it may change; a file that is no
        // environment, template or blueprint (of any name: the editor watches every file)
        // drops nothing, unless it was an environment the project read.
        if !projects.iter().any(|resolved| resolved.project.spans(path)) {
            // No project read it: nothing to read of it either.
            return;
        }
        let kind = kind_now(path, text);
        projects.retain(|resolved| {
            if !resolved.project.spans(path) {
                return true;
            }
            match kind {
                Some(Kind::Template) => {
                    resolved.project.template_changed(path);
                    true
                }
                Some(Kind::Other | Kind::Data | Kind::Binary | Kind::NotYaml | Kind::Large) => {
                    !resolved.project.reads_environment(path)
                }
                // An environment, a blueprint, a Jinja source, a K2HR3 template, or gone.
                _ => false,
            }
        });
    }
}

/// What a changed file is now, as a walk of the tree tells it (`text`: as saved in the
/// editor, else read from disk, only its first bytes when they tell): a K2HR3 template is no
/// template here, and a file that names an environment's registry or parameter defaults may
/// be an environment to the tree's walk; `None` when it cannot be read (gone).
fn kind_now(path: &Path, text: Option<&str>) -> Option<Kind> {
    let classify = |bytes: &[u8]| {
        if hotfix_linter::is_k2hr3(bytes) {
            return None;
        }
        let kind = classify(path, bytes);
        let named = |word: &[u8]| bytes.windows(word.len()).any(|w| w == word);
        if kind != Kind::Template && (named(b"resource_registry") || named(b"parameter_defaults")) {
            return Some(Kind::Environment);
        }
        Some(kind)
    };
    if let Some(text) = text {
        return classify(text.as_bytes());
    }
    let input = if has_template_extension(path) {
        read::file(path).map(Ok)
    } else {
        read::file_unless(path, SNIFF, |head| sniff(path, head))
    };
    match input {
        Ok(Ok(read::Input::Whole(bytes))) => classify(&bytes),
        Ok(Ok(read::Input::TooLarge { .. })) => Some(Kind::Large),
        Ok(Err(kind)) => Some(kind),
        Err(_) => None,
    }
}
