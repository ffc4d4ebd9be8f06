//! `hotfix k2hr3 …`: K2HR3 templates.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, anyhow, bail};
use hotfix_diagnostics::{Diagnostic, RenderOptions, Severity, Span, render_human};
use hotfix_k2hr3::{Limits, Variables};

use crate::read;

#[derive(Debug, clap::Args)]
pub(crate) struct K2hr3Args {
    #[command(subcommand)]
    command: K2hr3Command,
}

#[derive(Debug, clap::Subcommand)]
enum K2hr3Command {
    /// Expand a template as the K2HR3 Template Engine does, printing the result.
    #[command(long_about = EXPAND_ABOUT)]
    Expand(ExpandArgs),
}

const EXPAND_ABOUT: &str = "\
Expand a K2HR3 template (RESOURCE data with {{ … }} statements) as the K2HR3 Template Engine \
(the API server's k2hr3template module) does, and print the result on standard output, byte \
for byte, with nothing added.

The template may start with the engine header {{#!k2hr3template }}, removed with the line \
breaks after it; any other engine name there is refused. Statements vanish and the text around \
them stays, line breaks included; {{= … }} prints a value; {{{ and }}} print {{ and }}. Numbers \
are JavaScript's (7 / 2 is 3.5). A template the engine refuses to load is refused here too.

Variables come from --vars, a JSON object whose keys are the variable names without the % \
signs (\"yrn:yahoo:::tenant:role:name/hosts/ip\" for %yrn:yahoo:::tenant:role:name/hosts/ip%) \
and whose values are any JSON values. A variable neither given nor assigned reads as null \
(it prints nothing).

The engine sets no bound on loops: hotfix stops with an error after --max-iterations loop \
iterations (all loops together) or when the output would pass --max-output bytes. Where the \
engine fails while expanding, hotfix stops with the error and prints nothing; the engine would \
keep the output before the failing statement and go on.

Exit codes: 0 expanded; 2 the template, the variables or the expansion failed (the error on \
standard error, with a code frame into the template).";

#[derive(Debug, clap::Args)]
struct ExpandArgs {
    /// The template file (`-` for standard input).
    file: PathBuf,
    /// The variables: a JSON object, variable name (without the `%` signs) → value.
    #[arg(long, value_name = "VARS.json")]
    vars: Option<PathBuf>,
    /// Loop iterations (all loops together) after which expansion stops with an error.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_iterations)]
    max_iterations: u64,
    /// Bytes of output (and of any string built) past which expansion stops with an error.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_output)]
    max_output: usize,
}

pub(crate) fn run(args: &K2hr3Args, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    match &args.command {
        K2hr3Command::Expand(expand) => run_expand(expand, out),
    }
}

fn run_expand(args: &ExpandArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let display = args.file.display().to_string();
    let source = read_text(&args.file).with_context(|| format!("cannot read {display}"))?;
    let vars = match &args.vars {
        Some(path) => hotfix_workspace::k2hr3::variables(path).map_err(anyhow::Error::msg)?,
        None => Variables::new(),
    };
    let template = hotfix_k2hr3::parse(&source).map_err(|err| {
        framed(
            &display,
            &source,
            "invalid K2HR3 template",
            &err.to_string(),
            err.span,
        )
    })?;
    let limits = Limits {
        max_iterations: args.max_iterations,
        max_output: args.max_output,
    };
    let output = hotfix_k2hr3::expand(&template, &vars, limits).map_err(|err| {
        framed(
            &display,
            &source,
            "cannot expand the K2HR3 template",
            &err.to_string(),
            err.span,
        )
    })?;
    out.write_all(output.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The error with a code frame into the template.
fn framed(
    display: &str,
    source: &str,
    what: &str,
    message: &str,
    span: hotfix_k2hr3::Span,
) -> anyhow::Error {
    let diagnostic = Diagnostic::new(
        "k2hr3",
        "k2hr3-template",
        Severity::Error,
        message,
        Span::new(span.start, span.end),
    );
    let rendered = render_human(&diagnostic, display, source, RenderOptions::default());
    anyhow!("{what} {display}: {message}\n{}", rendered.trim_end())
}

/// A file's (or standard input's) text: UTF-8, no NUL byte, within the read bound.
fn read_text(path: &Path) -> anyhow::Result<String> {
    let input = if path == Path::new("-") {
        read::stdin()?
    } else {
        read::file(path)?
    };
    let bytes = match input {
        read::Input::Whole(bytes) => bytes,
        read::Input::TooLarge { .. } => {
            bail!("it is larger than {} bytes", read::BOUND)
        }
    };
    if bytes.contains(&0) {
        bail!("it is a binary file (it holds NUL bytes), not a template");
    }
    String::from_utf8(bytes).map_err(|err| {
        anyhow!(
            "it is not UTF-8 text (invalid byte at offset {})",
            err.utf8_error().valid_up_to()
        )
    })
}
