//! `hotfix server`: the language server (crate `hotfix_server`) over standard input and output,
//! reading each file's configuration the way `hotfix lint` does.

use std::path::PathBuf;
use std::process::ExitCode;

use hotfix_hot::heat_release::HeatRelease;
use hotfix_server::DiskProject;
use hotfix_workspace::config::Overrides;

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

pub(crate) fn run(args: &ServerArgs) -> anyhow::Result<ExitCode> {
    let cwd = crate::paths::current_dir()?;
    let overrides = Overrides {
        select: crate::commands::lint::selectors(&args.select)?,
        extend_select: Vec::new(),
        ignore: crate::commands::lint::selectors(&args.ignore)?,
        heat_release: args.heat_release,
    };
    let project = DiskProject::new(cwd, args.config.clone(), overrides)
        .map_err(|err| anyhow::anyhow!("{err}"))?;
    hotfix_server::run_stdio(&project).map_err(|err| anyhow::anyhow!("{err}"))?;
    Ok(ExitCode::SUCCESS)
}
