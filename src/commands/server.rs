//! `hotfix server`: the language server (crate `hotfix_server`) over standard input and output,
//! reading each file's configuration the way `hotfix lint` does.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};

use hotfix_linter::Settings;
use hotfix_server::Context;
use hotfix_stack::FileSource;
use hotfix_workspace::{Asked, DiskSource, Plan, Project};

use hotfix_hot::heat_release::HeatRelease;

use crate::discover::{self, Kind};
use hotfix_workspace::config::{Config, Configs, Overrides};

/// Run the language server over standard input and output.
#[derive(Debug, clap::Args)]
#[command(after_help = SERVER_HELP)]
pub(crate) struct ServerArgs {
    /// Use this configuration file for every file instead of each file's nearest `hotfix.toml`.
    #[arg(long, value_name = "CONFIG")]
    config: Option<PathBuf>,

    /// Only these rules (as `hotfix lint --select`): replaces the configuration's `select`.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    select: Vec<String>,

    /// Not these rules (as `hotfix lint --ignore`): added to the configuration's `ignore`.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    ignore: Vec<String>,

    /// The OpenStack release whose Heat the templates are deployed to (as `hotfix lint
    /// --heat-release`): replaces the configuration's `heat-release`.
    #[arg(
        long,
        value_name = "RELEASE",
        value_parser = crate::complete::heat_releases(),
        hide_possible_values = true
    )]
    heat_release: Option<HeatRelease>,
}

const SERVER_HELP: &str = "\
The server speaks the Language Server Protocol over standard input and output. Editors start it
themselves; `docs/editors.md` shows the set-up for Neovim, Helix and VS Code. For example:
  Neovim (0.8+):  vim.lsp.start({ name = 'hotfix', cmd = { 'hotfix', 'server' },
                    root_dir = vim.fs.dirname(vim.fs.find({ 'hotfix.toml', '.git' },
                    { upward = true })[1]) })
  Helix:          [language-server.hotfix] command = \"hotfix\", args = [\"server\"]
                  in languages.toml, and `language-servers = [\"hotfix\"]` for yaml
Each file uses its nearest hotfix.toml (read again when it changes), as `hotfix lint` does;
templates, environment files, Cloudify blueprints and K2HR3 templates are linted, as `hotfix lint`
tells them apart; other files get no findings.";

/// The projects of the files the editor opens, each resolved once, as `hotfix lint` resolves
/// its run's, and read again when its configuration or one of its environments changes.
struct DiskProject {
    cwd: PathBuf,
    /// `--config`: the configuration file of every file, instead of each one's nearest.
    config: Option<PathBuf>,
    /// The command line's rule selection and release, over every configuration.
    overrides: Overrides,
    /// Each project met, by the folders it spans.
    projects: Mutex<Vec<Arc<Resolved>>>,
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

impl hotfix_server::Project for DiskProject {
    fn settings(&self, path: &Path) -> Result<Option<Settings>, String> {
        let config = self.resolved(path, &[])?.config(path)?;
        if config.excluded(path) || !config.included(path) {
            return Ok(None);
        }
        Ok(Some(config.settings_for(path)))
    }

    fn kind(&self, path: &Path, text: &str) -> hotfix_server::FileKind {
        if hotfix_linter::is_k2hr3(text.as_bytes()) {
            return hotfix_server::FileKind::Template;
        }
        match discover::classify(path, text.as_bytes()) {
            Kind::Template | Kind::Blueprint => hotfix_server::FileKind::Template,
            Kind::Environment => hotfix_server::FileKind::Environment,
            _ => hotfix_server::FileKind::Other,
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
            Plan::K2hr3(settings) => {
                Some(context(hotfix_server::FileKind::Template, true, settings))
            }
            Plan::Environment {
                settings,
                registry,
                stack_templates,
            } => Some(Context {
                registry,
                stack_templates,
                ..context(hotfix_server::FileKind::Environment, false, settings)
            }),
            Plan::Template { settings, registry } => Some(Context {
                registry: Some(registry),
                ..context(hotfix_server::FileKind::Template, false, settings)
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
        let kind = discover::classify(path, bytes);
        let named = |word: &[u8]| bytes.windows(word.len()).any(|w| w == word);
        if kind != Kind::Template && (named(b"resource_registry") || named(b"parameter_defaults")) {
            return Some(Kind::Environment);
        }
        Some(kind)
    };
    if let Some(text) = text {
        return classify(text.as_bytes());
    }
    let input = if discover::has_template_extension(path) {
        crate::read::file(path).map(Ok)
    } else {
        crate::read::file_unless(path, discover::SNIFF, |head| discover::sniff(path, head))
    };
    match input {
        Ok(Ok(crate::read::Input::Whole(bytes))) => classify(&bytes),
        Ok(Ok(crate::read::Input::TooLarge { .. })) => Some(Kind::Large),
        Ok(Err(kind)) => Some(kind),
        Err(_) => None,
    }
}

pub(crate) fn run(args: &ServerArgs) -> anyhow::Result<ExitCode> {
    let cwd = crate::paths::current_dir()?;
    let overrides = Overrides {
        select: crate::commands::lint::selectors(&args.select)?,
        extend_select: Vec::new(),
        ignore: crate::commands::lint::selectors(&args.ignore)?,
        heat_release: args.heat_release,
    };
    // A configuration file that cannot be read fails the start, not each request.
    let config = args.config.as_ref().map(|path| cwd.join(path));
    if let Some(path) = &config {
        Configs::new(false, Some(path), &cwd, overrides.clone(), Arc::default())?;
    }
    let project = DiskProject {
        cwd,
        config,
        overrides,
        projects: Mutex::default(),
    };
    hotfix_server::run_stdio(&project).map_err(|err| anyhow::anyhow!("{err}"))?;
    Ok(ExitCode::SUCCESS)
}
