//! `hotfix server`: the language server (crate `hotfix_server`) over standard input and output,
//! reading each file's configuration the way `hotfix lint` does.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};

use hotfix_linter::Settings;
use hotfix_stack::{FileFacts, FileSource, LazyRegistry, StackPath};
use hotfix_workspace::blueprint::Blueprints;
use hotfix_workspace::{Prefixes, Scope};

use hotfix_hot::heat_release::HeatRelease;

use crate::config::{Configs, Overrides};
use crate::discover::{self, Kind};

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
Each file uses its nearest hotfix.toml (read again after every change), as `hotfix lint` does;
templates, environment files, Cloudify blueprints and K2HR3 templates are linted, as `hotfix lint`
tells them apart; other files get no findings.";

/// The files' settings and kinds, from disk, as `hotfix lint` reads them.
struct DiskProject {
    cwd: std::path::PathBuf,
    /// `--config`: the configuration file of every file, instead of each one's nearest.
    config: Option<PathBuf>,
    /// The command line's rule selection and release, over every configuration.
    overrides: Overrides,
    /// The files, read from disk, under the `[paths]` of the configuration last read.
    disk: Disk,
    /// The Cloudify blueprints read for their imports, forgotten when a file is saved.
    blueprints: Mutex<Arc<Blueprints>>,
    /// The template of the `[[stacks]]` entry the file whose settings were read last is an
    /// environment of (the server lints one file at a time, its settings read first).
    stack_template: Mutex<Option<PathBuf>>,
    /// The registry of each tree's environments (by the folders a lint spans), read on first
    /// need and forgotten when a file is saved.
    registries: Mutex<HashMap<Scope, Arc<LazyRegistry>>>,
}

impl hotfix_server::Project for DiskProject {
    fn settings(&self, path: &Path) -> Result<Option<Settings>, String> {
        // Read anew for each request: a changed hotfix.toml applies at once.
        // Its `[paths]` too: the files a template names are read through the install
        // prefixes of its configuration, as `hotfix lint` reads them.
        let prefixes = Arc::new(Prefixes::default());
        let mut configs = Configs::new(
            false,
            self.config.as_deref(),
            &self.cwd,
            self.overrides.clone(),
            Arc::clone(&prefixes),
        )
        .map_err(|err| err.to_string())?;
        let config = configs.for_file(path).map_err(|err| format!("{err:#}"))?;
        *self
            .disk
            .prefixes
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = prefixes;
        *self
            .stack_template
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = match config.stack_of(path) {
            Some((index, false)) => Some(config.path_of(&config.stacks[index].template)),
            _ => None,
        };
        if config.excluded(path) || (config.include.is_some() && !config.included(path)) {
            return Ok(None);
        }
        Ok(Some(config.settings_for(path)))
    }

    fn stack_templates(&self, path: &Path) -> Vec<(StackPath, Arc<FileFacts>)> {
        let Some(template) = self
            .stack_template
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
        else {
            return Vec::new();
        };
        let name = hotfix_workspace::stack_path(&template);
        if name == hotfix_workspace::stack_path(path) {
            return Vec::new();
        }
        // As `hotfix lint` takes them: a template (by content), read as it is on disk.
        self.disk
            .read(&name)
            .map(|text| Arc::new(FileFacts::of(&text)))
            .filter(|facts| facts.kind == hotfix_stack::FileKind::Template)
            .map(|facts| vec![(name, facts)])
            .unwrap_or_default()
    }

    fn files(&self) -> Option<&dyn FileSource> {
        Some(&self.disk)
    }

    fn roots(&self, path: &Path, workspace: &[PathBuf]) -> Vec<StackPath> {
        self.scope(path, workspace).roots
    }

    fn registry(&self, path: &Path, workspace: &[PathBuf]) -> Option<Arc<LazyRegistry>> {
        let scope = self.scope(path, workspace);
        let mut registries = self
            .registries
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // Read under the `[paths]` of the file's configuration (its settings are read first).
        let prefixes = Arc::clone(
            &self
                .disk
                .prefixes
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        let registry = registries.entry(scope.clone()).or_insert_with(|| {
            Arc::new(LazyRegistry::new(move || {
                let disk = Disk {
                    prefixes: Mutex::new(Arc::clone(&prefixes)),
                };
                let (registry, walked) = hotfix_workspace::tree_registry(&scope, &disk);
                if let Some(warning) = walked.warning(&scope) {
                    // The client shows the server's standard error in its log.
                    let _ = writeln!(crate::pipe::stderr(), "{warning}");
                }
                registry
            }))
        });
        Some(Arc::clone(registry))
    }

    fn blueprint_imports(
        &self,
        path: &Path,
        text: &str,
        workspace: &[PathBuf],
    ) -> Option<Arc<hotfix_blueprint::Imported>> {
        if discover::classify(path, text.as_bytes()) != Kind::Blueprint {
            return None;
        }
        let blueprints = Arc::clone(
            &self
                .blueprints
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        let roots = self.scope(path, workspace).roots;
        blueprints.local_imports(path, text.as_bytes(), &roots)
    }

    fn saved(&self, _path: &Path) {
        // Any saved file may be an environment, name a nested template or be a blueprint's
        // import: read the trees again when next needed.
        self.registries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        *self
            .blueprints
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Arc::default();
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
}

impl DiskProject {
    /// The folders a lint of the file at `path` (absolute, from the editor) spans: its project;
    /// outside any project, the workspace folder holding it, else its own folder. Never the
    /// server's working folder.
    fn scope(&self, path: &Path, workspace: &[PathBuf]) -> Scope {
        hotfix_workspace::scope(&[path.to_path_buf()], &self.cwd, workspace)
    }
}

/// Files read from disk each time they are asked for (the editor changes them while the
/// server runs; `hotfix lint`'s source keeps what it read for the run).
#[derive(Default)]
struct Disk {
    /// The `[paths]` of the configuration of the file linted last (the server lints one file
    /// at a time, its settings read first).
    prefixes: Mutex<Arc<Prefixes>>,
}

impl FileSource for Disk {
    fn read(&self, path: &StackPath) -> Option<Arc<str>> {
        crate::read::text_within(Path::new(path.as_str()), crate::read::BOUND)
            .ok()
            .map(Arc::from)
    }

    fn exists(&self, path: &StackPath) -> bool {
        Path::new(path.as_str()).is_file()
    }

    fn list(&self, dir: &StackPath) -> Vec<String> {
        hotfix_workspace::list_folder(dir)
    }

    fn map_prefix(&self, path: &StackPath) -> Option<StackPath> {
        self.prefixes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map(path)
    }
}

pub(crate) fn run(args: &ServerArgs) -> anyhow::Result<ExitCode> {
    let cwd = crate::paths::current_dir()?;
    let overrides = Overrides {
        select: crate::lint::selectors(&args.select)?,
        extend_select: Vec::new(),
        ignore: crate::lint::selectors(&args.ignore)?,
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
        disk: Disk::default(),
        blueprints: Mutex::default(),
        stack_template: Mutex::default(),
        registries: Mutex::new(HashMap::new()),
    };
    hotfix_server::run_stdio(&project).map_err(|err| anyhow::anyhow!("{err}"))?;
    Ok(ExitCode::SUCCESS)
}
