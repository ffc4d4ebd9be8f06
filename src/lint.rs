//! `hotfix lint`: every problem in a tree of templates, at once.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, anyhow};
use hotfix_diagnostics::{
    Diagnostic, RenderOptions, Severity, location, render_concise, render_human,
};
use hotfix_linter::Selector;
use hotfix_yaml::LineIndex;
use rayon::prelude::*;

use crate::baseline::{self, Baseline};
use crate::config::{self, Configs, Overrides};
use crate::discover::{self, Candidate, Kind};
use crate::interrupt::{self, Interrupt};
use crate::output::{self, FileFindings, SourceRoot};
use crate::progress::Progress;
use crate::read;

/// Lint HOT templates: every file given, and every template found in the folders given.
///
/// Folders are walked in parallel, honouring `.gitignore` and skipping hidden files; a YAML
/// or JSON file is linted when it has a top-level `heat_template_version`. Environment files
/// and Jinja2 sources are skipped (`--verbose` lists them). Files named on the command line are
/// always linted.
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools, reason = "command-line flags")]
pub(crate) struct LintArgs {
    /// Files and folders to lint [default: the current folder]; `-` reads a template from
    /// standard input.
    paths: Vec<PathBuf>,

    /// The file name a template read from standard input is reported under (its
    /// `hotfix.toml` is found from there).
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<PathBuf>,

    /// Output format [default: github under GitHub Actions (`GITHUB_ACTIONS=true`), else
    /// human].
    #[arg(long, value_enum)]
    format: Option<Format>,

    /// Write the output to this file (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Report only the findings that this baseline (written by `--write-baseline`) does not
    /// record; say on stderr how many of its entries no longer occur.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,

    /// Record every current finding in this baseline file and exit with 0.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    write_baseline: Option<PathBuf>,

    /// Only these rules: codes (`H301`), prefixes (`H3`), names (`undefined-parameter`) or
    /// `ALL`; comma-separated, repeatable. Replaces the configuration's `select` (by default,
    /// the default set: `hotfix rules` marks the rules outside it).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    select: Vec<String>,

    /// These rules too, besides the selected ones (same forms as `--select`).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    extend_select: Vec<String>,

    /// Not these rules (same forms as `--select`); added to the configuration's `ignore`.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    ignore: Vec<String>,

    /// The same as `--ignore` (for ruff users).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    extend_ignore: Vec<String>,

    /// Exit with 0 even when findings remain (hotfix failures still exit with 2).
    #[arg(long)]
    exit_zero: bool,

    /// The lowest severity that makes the exit code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,

    /// Use this configuration file for every file instead of each file's nearest
    /// `hotfix.toml` (in its folder or above).
    #[arg(long, conflicts_with = "no_config")]
    config: Option<PathBuf>,

    /// Ignore any `hotfix.toml`.
    #[arg(long)]
    no_config: bool,

    /// Also list the files that were skipped, and why.
    #[arg(long, short, conflicts_with_all = ["quiet", "silent"])]
    verbose: bool,

    /// Print only the findings: no summary line, no progress bar, no notes.
    #[arg(long, short)]
    quiet: bool,

    /// Print nothing but hotfix's own failures; the exit code tells the result. A file named
    /// by `--output` is still written.
    #[arg(long, short)]
    silent: bool,

    /// Count the findings of each rule instead of listing them (a table, or JSON with
    /// `--format json`). The exit code is the same as without.
    #[arg(long)]
    statistics: bool,

    /// Lint only HOT templates, judged by content, even among files named on the command line
    /// (the pre-commit hook passes every staged YAML file).
    #[arg(long)]
    templates_only: bool,

    /// Colours in human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,

    #[command(flatten)]
    fix: crate::fix::FixArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Code frames with labels and help.
    Human,
    /// One line per finding: `path:line:col: CODE message`.
    Concise,
    /// A JSON list of findings.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// GitHub Actions workflow commands: annotations on the files and lines.
    Github,
    /// JUnit XML: a test suite per file, a failing test case per finding.
    Junit,
    /// GitLab Code Quality report (JSON), for merge requests.
    Gitlab,
}

impl Format {
    /// The format asked for, or the default for where hotfix runs (statistics are a table
    /// unless JSON is asked for, also under GitHub Actions).
    fn resolve(asked: Option<Format>, statistics: bool) -> Format {
        asked.unwrap_or_else(|| {
            if !statistics && std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true") {
                Format::Github
            } else {
                Format::Human
            }
        })
    }

    /// Formats read by programs: never a progress bar.
    fn is_machine(self) -> bool {
        matches!(
            self,
            Format::Json | Format::Sarif | Format::Github | Format::Junit | Format::Gitlab
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// What became of one file: linted, not a template to lint (`Ok(Err)`), or a failure of hotfix
/// (`Err`, its message).
type FileResult = Result<Result<Box<Linted>, Kind>, String>;

/// Lints (or fixes) every candidate on every core, or the one read from standard input.
fn lint_all(
    args: &LintArgs,
    candidates: &[Candidate],
    stdin: bool,
    progress: &Progress,
) -> anyhow::Result<Vec<FileResult>> {
    if stdin {
        let input = read::stdin().map_err(|err| anyhow!("cannot read standard input: {err}"))?;
        return Ok(vec![lint_input(&candidates[0], input, args)]);
    }
    // `--fix` writes files: Ctrl-C finishes those in flight and starts no other.
    let interrupt = if args.fix.fix {
        Interrupt::install()
    } else {
        Interrupt::default()
    };
    Ok(candidates
        .par_iter()
        .map(|candidate| {
            if interrupt.is_set() {
                return Err(NOT_STARTED.to_owned());
            }
            let result = lint_candidate(candidate, args);
            progress.inc();
            result
        })
        .collect())
}

/// The end of a run interrupted before `not_started` of `total` files.
fn interrupted(not_started: usize, total: usize) -> anyhow::Result<ExitCode> {
    writeln!(
        crate::pipe::stderr(),
        "hotfix: interrupted: {not_started} of {total} files not started, and left as they were"
    )?;
    Ok(ExitCode::from(interrupt::EXIT_CODE))
}

/// The result of a file the run did not start, once interrupted.
const NOT_STARTED: &str = "\0not started";

/// One linted file (boxed in the results, which hold an entry for every file the walk found).
struct Linted {
    path: PathBuf,
    display: String,
    source: String,
    diagnostics: Vec<Diagnostic>,
    fixes: crate::fix::FileFixes,
}

pub(crate) fn run(args: &LintArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let cwd = crate::paths::current_dir()?;
    let mut configs = Configs::new(
        args.no_config,
        args.config.as_deref(),
        &cwd,
        overrides(args)?,
    )?;
    let format = Format::resolve(args.format, args.statistics);
    if args.statistics && !matches!(format, Format::Human | Format::Concise | Format::Json) {
        return Err(anyhow!(
            "--statistics prints a table or JSON: use it with --format human, concise or json"
        ));
    }
    let root = SourceRoot::discover(&cwd);
    let mut baseline = args.baseline.as_deref().map(Baseline::load).transpose()?;
    let stdin = reads_stdin(args)?;
    let walk = find(args, stdin.as_deref(), &cwd, &mut configs)?;
    let candidates = walk.candidates;
    discover::refuse_writing_onto_input("--output", args.output.as_deref(), &candidates)?;
    discover::refuse_writing_onto_input(
        "--write-baseline",
        args.write_baseline.as_deref(),
        &candidates,
    )?;
    let mut failures = walk.errors;
    let mut skipped = Vec::new();
    let progress = Progress::start(
        candidates.len(),
        !format.is_machine() && !args.quiet && !args.silent,
    );
    let results = lint_all(args, &candidates, stdin.is_some(), &progress)?;
    progress.finish();
    let mut linted = Vec::new();
    let mut not_started = 0;
    for (candidate, result) in candidates.iter().zip(results) {
        match result {
            Ok(Ok(file)) => linted.push(*file),
            Ok(Err(kind)) => skipped.push((candidate, kind)),
            Err(message) if message == NOT_STARTED => not_started += 1,
            Err(message) => failures.push(message),
        }
    }
    if not_started > 0 {
        // What was fixed is said (the summary), then the run ends as interrupted.
        report(
            args, format, &configs, &linted, &skipped, &failures, started,
        )?;
        return interrupted(not_started, candidates.len());
    }
    linted.sort_by(|a, b| a.path.cmp(&b.path));

    if let Some(path) = &args.write_baseline {
        return write_baseline(path, &root, &linted, &failures, args.quiet || args.silent);
    }
    let mut stale = 0;
    if let Some(baseline) = &mut baseline {
        for file in &mut linted {
            baseline.remove_known(&root, &file.path, &file.source, &mut file.diagnostics);
        }
        let linted_paths = linted.iter().map(|f| root.relative(&f.path)).collect();
        stale = baseline.unmatched(&root, &linted_paths);
    }

    if args.fix.diff {
        let (files, output) = (fixed(&linted), args.output.as_deref());
        return crate::fix::write_diff(&args.fix, &files, &failures, args.exit_zero, output, out);
    }
    emit(args, format, &root, &linted, out)?;
    // The findings before the summary, where both streams go to one terminal.
    out.flush()?;
    report(
        args, format, &configs, &linted, &skipped, &failures, started,
    )?;
    if stale > 0 && !args.quiet && !args.silent {
        writeln!(
            crate::pipe::stderr(),
            "hotfix: {stale} baseline {} no longer {} (run with --write-baseline to drop {})",
            plural(stale, "entry", "entries"),
            plural(stale, "occurs", "occur"),
            plural(stale, "it", "them"),
        )?;
    }
    if !failures.is_empty() {
        return Ok(ExitCode::from(2));
    }
    let threshold = match args.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
    };
    let failing = linted
        .iter()
        .flat_map(|f| &f.diagnostics)
        .any(|d| d.severity >= threshold);
    Ok(if failing && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the findings in `format` to `--output` (atomically) or to `out`.
fn emit(
    args: &LintArgs,
    format: Format,
    root: &SourceRoot,
    linted: &[Linted],
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none()
        }
    };
    if let Some(path) = &args.output {
        let mut buffer = Vec::new();
        write_output(&mut buffer, args, format, root, linted, color)?;
        output::write_atomically(path, &buffer)
            .with_context(|| format!("cannot write {}", path.display()))?;
    } else if !args.silent {
        write_output(out, args, format, root, linted, color)?;
    }

    Ok(())
}

/// The findings, or with `--statistics` their counts.
fn write_output(
    out: &mut impl Write,
    args: &LintArgs,
    format: Format,
    root: &SourceRoot,
    linted: &[Linted],
    color: bool,
) -> anyhow::Result<()> {
    if args.statistics {
        write_statistics(out, format, linted)
    } else {
        write_findings(out, format, root, linted, color)
    }
}

fn write_findings(
    out: &mut impl Write,
    format: Format,
    root: &SourceRoot,
    linted: &[Linted],
    color: bool,
) -> anyhow::Result<()> {
    match format {
        Format::Human => write_human(out, linted, color),
        Format::Concise => write_concise(out, linted),
        Format::Json => write_json(out, linted),
        Format::Sarif => {
            let sarif = output::sarif::build(root, &findings(linted));
            warn_past_code_scanning_limit(&sarif)?;
            serde_json::to_writer_pretty(&mut *out, &sarif)?;
            writeln!(out)?;
            Ok(())
        }
        Format::Github => Ok(output::github::write(out, root, &findings(linted))?),
        Format::Junit => Ok(output::junit::write(out, root, &findings(linted))?),
        Format::Gitlab => {
            let report = output::gitlab::build(root, &findings(linted));
            serde_json::to_writer_pretty(&mut *out, &report)?;
            writeln!(out)?;
            Ok(())
        }
    }
}

/// `--statistics`: counts per rule, as a table or as JSON.
fn write_statistics(out: &mut impl Write, format: Format, linted: &[Linted]) -> anyhow::Result<()> {
    let files = findings(linted);
    if format == Format::Json {
        output::statistics::write_json(out, &files)?;
    } else {
        output::statistics::write_text(out, &files)?;
    }
    Ok(())
}

/// GitHub code scanning rejects a SARIF run with more than 25,000 results: say so, and how to
/// get through (the upload would otherwise fail far from here).
fn warn_past_code_scanning_limit(sarif: &serde_json::Value) -> std::io::Result<()> {
    const LIMIT: usize = 25_000;
    let results = sarif["runs"][0]["results"].as_array().map_or(0, Vec::len);
    if results <= LIMIT {
        return Ok(());
    }
    writeln!(
        crate::pipe::stderr(),
        "hotfix: warning: {results} SARIF results: GitHub code scanning accepts at most {LIMIT} \
         per run and would reject this upload; split the run (by rule family, `--select H3`, or \
         by folder), each uploaded with its own `category`, or adopt a baseline first \
         (`--write-baseline`)"
    )
}

fn findings(linted: &[Linted]) -> Vec<FileFindings<'_>> {
    linted
        .iter()
        .map(|file| FileFindings {
            path: &file.path,
            source: &file.source,
            diagnostics: &file.diagnostics,
        })
        .collect()
}

/// `--write-baseline`: records every finding and exits with 0 (2 when a file could not be
/// read, and then writes nothing: the baseline would miss its findings).
fn write_baseline(
    path: &Path,
    root: &SourceRoot,
    linted: &[Linted],
    failures: &[String],
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let mut stderr = crate::pipe::stderr();
    if !failures.is_empty() {
        for failure in failures {
            writeln!(stderr, "hotfix: error: {failure}")?;
        }
        writeln!(stderr, "hotfix: baseline not written")?;
        return Ok(ExitCode::from(2));
    }
    let text = baseline::render(root, &findings(linted))?;
    output::write_atomically(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    if quiet {
        return Ok(ExitCode::SUCCESS);
    }
    let count: usize = linted.iter().map(|f| f.diagnostics.len()).sum();
    writeln!(
        stderr,
        "hotfix: wrote {count} {} to the baseline {}",
        plural(count, "finding", "findings"),
        path.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// What goes to stderr: skipped files (with `--verbose`), failures, and the summary line.
fn report(
    args: &LintArgs,
    format: Format,
    configs: &Configs,
    linted: &[Linted],
    skipped: &[(&Candidate, Kind)],
    failures: &[String],
    started: Instant,
) -> anyhow::Result<()> {
    let mut stderr = crate::pipe::stderr();
    if args.verbose {
        for path in configs.loaded() {
            writeln!(stderr, "using configuration {}", path.display())?;
        }
        for (candidate, kind) in skipped {
            writeln!(
                stderr,
                "skipped {}: {}",
                candidate.display(),
                kind.describe()
            )?;
        }
    }
    for failure in failures {
        writeln!(stderr, "hotfix: error: {failure}")?;
    }
    let count = |severity: Severity| {
        linted
            .iter()
            .flat_map(|f| &f.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    };
    let (errors, warnings, infos) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    // JSON, SARIF, JUnit and GitLab reports on stdout stay quiet (their readers are programs)
    // unless asked; `--quiet` and `--silent` leave out the summary always.
    let machine = matches!(
        format,
        Format::Json | Format::Sarif | Format::Junit | Format::Gitlab
    ) && args.output.is_none();
    if args.verbose || !(machine || args.quiet || args.silent) {
        writeln!(
            stderr,
            "{} {} checked ({} skipped): {errors} {}, {warnings} {}, {infos} info in {:.2}s",
            linted.len(),
            plural(linted.len(), "template", "templates"),
            skipped.len(),
            plural(errors, "error", "errors"),
            plural(warnings, "warning", "warnings"),
            started.elapsed().as_secs_f64()
        )?;
    }
    if !args.silent {
        let quiet = machine || args.quiet;
        crate::fix::report(&args.fix, &fixed(linted), quiet, &mut stderr)?;
    }
    Ok(())
}

fn fixed(linted: &[Linted]) -> Vec<crate::fix::FixedFile<'_>> {
    linted
        .iter()
        .map(|file| crate::fix::FixedFile {
            display: &file.display,
            diagnostics: &file.diagnostics,
            fixes: &file.fixes,
        })
        .collect()
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// The rule selection of the command line: `--select` replaces each configuration's selection;
/// `--extend-select`, `--ignore` and `--extend-ignore` add to it.
fn overrides(args: &LintArgs) -> anyhow::Result<Overrides> {
    let parse = |items: &[String]| -> anyhow::Result<Vec<Selector>> {
        items
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| {
                Selector::parse(s).ok_or_else(|| {
                    anyhow!("`{s}` is not a hotfix rule code, prefix or name (see `hotfix rules`)")
                })
            })
            .collect()
    };
    let mut ignore = parse(&args.ignore)?;
    ignore.extend(parse(&args.extend_ignore)?);
    Ok(Overrides {
        select: parse(&args.select)?,
        extend_select: parse(&args.extend_select)?,
        ignore,
    })
}

/// The files to lint: the one read from standard input, or those the paths name.
fn find(
    args: &LintArgs,
    stdin: Option<&Path>,
    cwd: &Path,
    configs: &mut Configs,
) -> anyhow::Result<discover::Walk> {
    let Some(name) = stdin else {
        return discover::walk(&config::paths(&args.paths)?, configs);
    };
    if args.fix.fix {
        return Err(anyhow!(
            "--fix cannot rewrite standard input; use --diff to see the fixes"
        ));
    }
    Ok(discover::Walk {
        candidates: vec![Candidate {
            config: configs.for_file(&cwd.join(name))?,
            path: name.to_path_buf(),
            explicit: true,
        }],
        errors: Vec::new(),
    })
}

/// The name standard input is linted under, when the paths say to read it (`-`, or
/// `--stdin-filename` with no path).
fn reads_stdin(args: &LintArgs) -> anyhow::Result<Option<PathBuf>> {
    let dash = args.paths.iter().any(|p| p.as_os_str() == "-");
    if dash && args.paths.len() > 1 {
        return Err(anyhow!(
            "`-` (standard input) cannot be combined with other paths"
        ));
    }
    let named_only = args.paths.is_empty() && args.stdin_filename.is_some();
    if !(dash || named_only) {
        return Ok(None);
    }
    Ok(Some(
        args.stdin_filename
            .clone()
            .unwrap_or_else(|| PathBuf::from("-")),
    ))
}

/// Reads and lints (or fixes) one candidate; `Ok(Err(kind))` when it is not a template to lint.
fn lint_candidate(candidate: &Candidate, args: &LintArgs) -> FileResult {
    let input = read::file(&candidate.path)
        .map_err(|err| format!("cannot read {}: {err}", candidate.display()))?;
    lint_input(candidate, input, args)
}

/// Lints what was read of one candidate: a file over the read bound is reported with Heat's
/// size message, when its first bytes show it is a template.
fn lint_input(candidate: &Candidate, input: read::Input, args: &LintArgs) -> FileResult {
    let (head, chars, exact) = match input {
        read::Input::Whole(bytes) => return lint_bytes(candidate, &bytes, args),
        read::Input::TooLarge { head, chars, exact } => (head, chars, exact),
    };
    let kind = if candidate.explicit && !args.templates_only {
        Kind::Template
    } else {
        discover::classify(&candidate.path, &head)
    };
    if kind != Kind::Template {
        return Ok(Err(kind));
    }
    let settings = candidate.config.settings_for(&candidate.path);
    let err = hotfix_yaml::too_large(chars, exact);
    Ok(Ok(Box::new(Linted {
        path: candidate.path.clone(),
        display: candidate.display(),
        source: String::new(),
        diagnostics: hotfix_linter::load_failure(err, &settings),
        fixes: crate::fix::FileFixes::default(),
    })))
}

/// Lints (or fixes) the bytes of one candidate; `Ok(Err(kind))` when it is not a template to
/// lint.
fn lint_bytes(candidate: &Candidate, bytes: &[u8], args: &LintArgs) -> FileResult {
    let kind = if candidate.explicit && !args.templates_only {
        Kind::Template
    } else {
        discover::classify(&candidate.path, bytes)
    };
    if kind != Kind::Template {
        return Ok(Err(kind));
    }
    let display = candidate.display();
    let settings = candidate.config.settings_for(&candidate.path);
    let (mut source, diagnostics, fixes) =
        crate::fix::lint_file(&args.fix, &candidate.path, &display, bytes, &settings)?;
    if diagnostics.is_empty() {
        // The printers need a file's text only to place its findings: a clean file's text is
        // not kept, so that memory follows the findings, not the size of the tree.
        source = String::new();
    }
    Ok(Ok(Box::new(Linted {
        path: candidate.path.clone(),
        display,
        source,
        diagnostics,
        fixes,
    })))
}

fn write_human(out: &mut impl Write, files: &[Linted], color: bool) -> anyhow::Result<()> {
    let width = crate::term_width();
    for file in files {
        for diagnostic in &file.diagnostics {
            let rendered = render_human(
                diagnostic,
                &file.display,
                &file.source,
                RenderOptions { color, width },
            );
            writeln!(out, "{rendered}")?;
        }
    }
    Ok(())
}

fn write_concise(out: &mut impl Write, files: &[Linted]) -> anyhow::Result<()> {
    for file in files {
        let lines = LineIndex::new(&file.source);
        for diagnostic in &file.diagnostics {
            writeln!(
                out,
                "{}",
                render_concise(diagnostic, &file.display, &lines, &file.source)
            )?;
        }
    }
    Ok(())
}

fn write_json(out: &mut impl Write, files: &[Linted]) -> anyhow::Result<()> {
    let mut findings = Vec::new();
    for file in files {
        let lines = LineIndex::new(&file.source);
        for d in &file.diagnostics {
            let (start, end) = location(&lines, &file.source, d.span);
            let fix = d.fix.as_ref().map(|fix| {
                serde_json::json!({
                    "message": fix.message,
                    "applicability": fix.applicability.as_str(),
                    "edits": fix.edits.iter().map(|e| {
                        let (s, t) = location(&lines, &file.source, e.span);
                        serde_json::json!({
                            "start": {"line": s.line, "column": s.column, "offset": e.span.start},
                            "end": {"line": t.line, "column": t.column, "offset": e.span.end},
                            "content": e.content,
                        })
                    }).collect::<Vec<_>>(),
                })
            });
            findings.push(serde_json::json!({
                "code": d.code,
                "name": d.name,
                "severity": d.severity.as_str(),
                "message": d.message,
                "help": d.help,
                "path": file.display,
                "start": {"line": start.line, "column": start.column, "offset": d.span.start},
                "end": {"line": end.line, "column": end.column, "offset": d.span.end},
                "fix": fix,
            }));
        }
    }
    serde_json::to_writer_pretty(&mut *out, &findings)?;
    writeln!(out)?;
    Ok(())
}

impl Candidate {
    pub(crate) fn display(&self) -> String {
        display_path(&self.path)
    }
}

/// A path as the user would write it: relative, without a leading `./`.
fn display_path(path: &Path) -> String {
    let text = crate::paths::escaped(path);
    text.strip_prefix("./").unwrap_or(&text).to_owned()
}
