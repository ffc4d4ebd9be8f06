//! `hotfix`: lint and upgrade OpenStack Heat Orchestration Templates.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

mod baseline;
mod commands;
mod complete;
mod discover;
mod fix;
mod interrupt;
mod output;
mod pipe;
mod progress;
mod rewrite;

use hotfix_workspace::{paths, read};

/// Lint and upgrade OpenStack Heat Orchestration Templates (HOT), offline.
///
/// Exit codes: 0 success, 1 findings (or a blocked upgrade), 2 hotfix itself failed
/// (bad arguments, unreadable or invalid input).
#[derive(Debug, Parser)]
#[command(name = "hotfix", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Lint templates: every problem, each with its place and what to do.
    #[command(visible_alias = "check")]
    Lint(commands::lint::LintArgs),
    /// Upgrade templates to a later `heat_template_version`, with minimal edits.
    Upgrade(commands::upgrade::UpgradeArgs),
    /// Show a template as Heat loads it.
    Inspect(commands::inspect::InspectArgs),
    /// Evaluate a template as Heat would at stack create: parameters, conditions, resources,
    /// outputs, offline.
    #[command(long_about = commands::eval::LONG_ABOUT)]
    Eval(commands::eval::EvalArgs),
    /// Draw templates, environments, nested templates and resources as a graph (DOT or
    /// JSON).
    #[command(long_about = commands::graph::LONG_ABOUT)]
    Graph(commands::graph::GraphArgs),
    /// List the rules.
    Rules(commands::explain::RulesArgs),
    /// Explain one rule.
    Rule(commands::explain::RuleArgs),
    /// List the HOT versions and what each adds and removes.
    Versions(commands::explain::VersionsArgs),
    /// List Heat's resource types, with their support status.
    ///
    /// The data comes from Heat's own resource registry (the openstack-heat release named in
    /// the first line). Hidden types are listed too: Heat leaves them out of `openstack
    /// orchestration resource type list`, and most of them are removed; a removed type that
    /// Heat keeps as a placeholder accepts any property and does nothing, like `OS::Heat::None`.
    /// The aliases of the default environment file that Heat ships follow; they work only where
    /// a deployment installs that file.
    Types(commands::types::TypesArgs),
    /// Show a resource type: properties, attributes, support status.
    ///
    /// Each property with its type, `required`, default, `update_allowed` (a change is made in
    /// place; otherwise it replaces the resource), `immutable` (a change fails), constraints and
    /// the Heat release it appeared in; the keys of nested maps and list items indented below.
    /// Then the attributes `get_attr` may name, the `update_policy` keys, and the translation
    /// rules by which Heat renames older properties. Names are case-sensitive, as in Heat.
    Type(commands::types::TypeArgs),
    /// Write a JSON Schema of templates (or environment files) for editors that validate YAML
    /// from one.
    ///
    /// Draft-07, as Red Hat's yaml-language-server applies it (in VS Code, the IDEs of
    /// `JetBrains`, Neovim, Helix): sections, parameters, resources with `type` as an enum and, per type, its
    /// properties (types, `required`, allowed values, ranges, lengths, patterns; descriptions with
    /// the support status) and its `update_policy`, outputs, conditions; an intrinsic function of
    /// the version wherever a value may be one. A schema sees one file: `hotfix lint` and `hotfix
    /// server` check the rest (references, other files, computed values).
    Schema(commands::schema::SchemaArgs),
    /// Run the language server, for editors: findings as you type, fixes, navigation, hover.
    Server(commands::server::ServerArgs),
    /// K2HR3 templates: expand one as the K2HR3 Template Engine does.
    K2hr3(commands::k2hr3::K2hr3Args),
    /// Print a shell completion script.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
}

const COMPLETIONS_HELP: &str = "\
Install the script where the shell looks for it, for example:
  bash:        hotfix completions bash > ~/.local/share/bash-completion/completions/hotfix
  zsh:         hotfix completions zsh > ~/.zfunc/_hotfix
               (with `fpath+=~/.zfunc` before `compinit` in ~/.zshrc)
  fish:        hotfix completions fish > ~/.config/fish/completions/hotfix.fish
  PowerShell:  hotfix completions powershell | Out-String | Invoke-Expression
               (in $PROFILE)";

#[derive(Debug, clap::Args)]
struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

fn main() -> ExitCode {
    let mut command = Cli::command().term_width(pipe::term_width());
    // The Heat release of the resource-type data is read from the data, which only
    // `--version` needs parsed (`-V` prints the version alone, for scripts).
    if std::env::args_os().any(|arg| arg == "--version") {
        command = command.long_version(long_version());
    }
    let parsed = command
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { 2 } else { 0 };
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    // The server's own threads read and write the standard streams: no lock on them here.
    if let Command::Server(args) = &cli.command {
        return commands::server::run(args).unwrap_or_else(|err| {
            report_failure(&err);
            ExitCode::from(2)
        });
    }
    let mut stdout = pipe::Tolerant::new(io::stdout().lock());
    let result = match cli.command {
        Command::Lint(args) => commands::lint::run(&args, &mut stdout),
        Command::Upgrade(args) => commands::upgrade::run(&args, &mut stdout),
        Command::Inspect(args) => commands::inspect::run(&args, &mut stdout),
        Command::Eval(args) => commands::eval::run(&args, &mut stdout),
        Command::Graph(args) => commands::graph::run(&args, &mut stdout),
        Command::Rules(args) => commands::explain::rules(&args, &mut stdout),
        Command::Rule(args) => commands::explain::rule(&args, &mut stdout),
        Command::Versions(args) => commands::explain::versions(&args, &mut stdout),
        Command::Types(args) => commands::types::types(&args, &mut stdout),
        Command::Type(args) => commands::types::resource_type(&args, &mut stdout),
        Command::Schema(args) => commands::schema::run(&args, &mut stdout),
        Command::Server(_) => unreachable!("handled above"),
        Command::K2hr3(args) => commands::k2hr3::run(&args, &mut stdout),
        Command::Completions(args) => completions(&args, &mut stdout),
    };
    match result.and_then(|code| stdout.flush().map(|()| code).map_err(Into::into)) {
        Ok(code) => code,
        Err(err) => {
            report_failure(&err);
            ExitCode::from(2)
        }
    }
}

/// `hotfix --version`: the version, and on a second line the Heat release whose resource types
/// it checks against (`resource types: Heat 27.0.1, OpenStack 2026.2 hibiscus`).
fn long_version() -> &'static str {
    let release = hotfix_hot::heat_release::HeatRelease::LATEST;
    let number = release
        .number()
        .map(|number| format!("{number} "))
        .unwrap_or_default();
    let text = format!(
        "{}\nresource types: Heat {}, OpenStack {number}{} (--heat-release names an older one)",
        env!("CARGO_PKG_VERSION"),
        hotfix_hot::resource_types::all().heat_version(),
        release.series()
    );
    // Once per process, for clap, which keeps the text for the life of the command.
    text.leak()
}

/// `hotfix completions SHELL`. `clap_complete` panics when a write fails, so the script is made
/// in memory and then written, where a closed pipe is an error like any other.
fn completions(args: &CompletionsArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "hotfix", &mut script);
    out.write_all(&script)?;
    Ok(ExitCode::SUCCESS)
}

/// What failed and why, on stderr: one line, or a line and the code frame a configuration
/// error carries.
fn report_failure(err: &anyhow::Error) {
    let mut message = format!("hotfix: error: {err}");
    for cause in err.chain().skip(1) {
        let _ = write!(message, ": {cause}");
    }
    let _ = writeln!(pipe::stderr(), "{message}");
}
