//! `hotfix lint`: every problem in a tree of templates, at once.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context as _, anyhow};
use hotfix_diagnostics::Severity;
use hotfix_hot::heat_release::HeatRelease;
use hotfix_linter::Selector;
use hotfix_workspace::check::{Checked, Fixing, Options, Outcome};
use hotfix_workspace::{DiskSource, Project};

use crate::baseline::{self, Baseline};
use crate::discover::{self, Candidate, Found, Kind};
use crate::interrupt::{self, Interrupt};
use crate::output::{self, FileFindings, SourceRoot};
use crate::progress::Progress;
use crate::read;
use hotfix_workspace::config::{Configs, Overrides};

/// Lint HOT templates: every file given, and every template found in the folders given.
///
/// Folders are walked honouring `.gitignore` and skipping hidden files; a file of any
/// extension is linted when it has a top-level `heat_template_version`, or an environment
/// section; Jinja2 sources and other files are skipped (`--verbose` lists them, each with its
/// reason). Files named on the command line are linted unless nothing at their top level is a
/// template's.
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools, reason = "command-line flags")]
pub(crate) struct LintArgs {
    /// Files and folders to lint [default: the current folder]; `-` reads a template from
    /// standard input.
    paths: Vec<PathBuf>,

    /// An environment file the templates are given with, as `openstack stack create -e` takes
    /// them (repeatable; a later file overrides an earlier one, as Heat merges them). Its
    /// `resource_registry` then says what each custom resource type stands for (instead of the
    /// tree's environments closest to each template), and its `parameters` are checked against
    /// the template files named. It is read as an environment whatever it holds, and linted too.
    #[arg(long = "environment", short = 'e', value_name = "ENV")]
    environments: Vec<PathBuf>,

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

    /// The OpenStack release whose Heat the templates are deployed to: a series (`wallaby`) or
    /// a release number (`2023.1`), liberty or later. Replaces the configuration's
    /// `heat-release`; `unavailable-in-release` (H618) reports what arrived in a later Heat.
    #[arg(
        long,
        value_name = "RELEASE",
        value_parser = crate::complete::heat_releases(),
        hide_possible_values = true
    )]
    heat_release: Option<HeatRelease>,

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

    /// Also list the files that were skipped, and why, the configurations used, and how many
    /// files the search for the tree's environments met, under which folders.
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

/// The end of a run interrupted before `not_started` of `total` files.
fn interrupted(not_started: usize, total: usize) -> anyhow::Result<ExitCode> {
    writeln!(
        crate::pipe::stderr(),
        "hotfix: interrupted: {not_started} of {total} files not started, and left as they were"
    )?;
    Ok(ExitCode::from(interrupt::EXIT_CODE))
}

/// A checked file as the printers and the fix summary see it.
fn findings(file: &Checked) -> FileFindings<'_> {
    FileFindings {
        path: &file.path,
        source: &file.source,
        diagnostics: &file.diagnostics,
    }
}

fn fixed(file: &Checked) -> crate::fix::FixedFile<'_> {
    crate::fix::FixedFile {
        display: &file.display,
        diagnostics: &file.diagnostics,
        fixed: file.fixed.as_ref(),
    }
}

/// What the run has seen so far: everything the last lines and the exit code need, and
/// nothing of the files themselves (each is reported and dropped as it completes).
#[derive(Default)]
struct Tally {
    /// Files found (linted, skipped, failed or not started).
    seen: usize,
    linted: usize,
    /// Of those linted, the environment files.
    environments: usize,
    /// Findings by severity: errors, warnings, infos.
    counts: [usize; 3],
    /// How many files were skipped.
    skipped: usize,
    /// The files skipped (as displayed), and why: kept for `--verbose` only, since most files
    /// of a large tree are skipped and the run's memory must not grow with them.
    skipped_listed: Vec<(String, Kind)>,
    failures: Vec<String>,
    not_started: usize,
    fixes: crate::fix::Summary,
    /// The repository-relative paths linted (for the baseline's stale entries).
    linted_paths: std::collections::HashSet<String>,
}

impl Tally {
    fn count(&self, severity: Severity) -> usize {
        match severity {
            Severity::Error => self.counts[0],
            Severity::Warning => self.counts[1],
            Severity::Info => self.counts[2],
        }
    }
}

/// What a run writes: the report in its format, a baseline, or a diff.
enum Product<'a> {
    Report(output::report::Report<'a>),
    Baseline(baseline::Recorder),
    Diff(&'a mut dyn Write),
}

impl<'a> Product<'a> {
    /// What the arguments ask for, to be written on `out`.
    fn start(
        args: &LintArgs,
        format: Format,
        root: &'a SourceRoot,
        out: &'a mut dyn Write,
    ) -> std::io::Result<Product<'a>> {
        Ok(if args.write_baseline.is_some() {
            Product::Baseline(baseline::Recorder::default())
        } else if args.fix.diff {
            Product::Diff(out)
        } else {
            let report = output::report::Report::start(style(args, format), root, out)?;
            Product::Report(report)
        })
    }
}

/// Where the report goes: `--output` (a file replaced at the end), standard output (around
/// the progress bar), or nowhere (`--silent`).
enum Destination<'p, W: Write> {
    File(crate::rewrite::Replacement),
    Stdout(AroundBar<'p, W>),
    Nowhere(std::io::Sink),
}

impl<W: Write> Destination<'_, W> {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Destination::File(file) => file,
            Destination::Stdout(stdout) => stdout,
            Destination::Nowhere(sink) => sink,
        }
    }
}

/// Standard output while a progress bar may be drawn on stderr (the same terminal, often):
/// what is written is held until a flush, which clears the bar, writes, and draws it again.
struct AroundBar<'p, W: Write> {
    progress: &'p Progress,
    inner: W,
    held: Vec<u8>,
}

impl<W: Write> Write for AroundBar<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.held.extend_from_slice(buf);
        if self.held.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.held.is_empty() {
            return self.inner.flush();
        }
        let (inner, held) = (&mut self.inner, &mut self.held);
        self.progress.suspend(|| {
            inner.write_all(held)?;
            held.clear();
            inner.flush()
        })
    }
}

pub(crate) fn run(args: &LintArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let cwd = crate::paths::current_dir()?;
    let (mut configs, project) = resolve(args, &cwd)?;
    let format = Format::resolve(args.format, args.statistics);
    if args.statistics && !matches!(format, Format::Human | Format::Concise | Format::Json) {
        return Err(anyhow!(
            "--statistics prints a table or JSON: use it with --format human, concise or json"
        ));
    }
    let root = SourceRoot::discover(&cwd);
    let mut baseline = args.baseline.as_deref().map(Baseline::load).transpose()?;
    let drawn = Progress::would_draw(!format.is_machine() && !args.quiet && !args.silent);
    let (stdin_candidate, paths, total) = inputs(args, &project, drawn, &cwd, &mut configs)?;
    let mut tally = Tally::default();
    let progress = Progress::start(total, drawn);

    // The report is written as files complete: to a temporary file beside `--output` (put in
    // place at the end), or to standard output.
    let report_file = if args.diff_or_report() {
        args.output.as_deref()
    } else {
        None
    };
    let mut destination = match report_file {
        Some(path) => Destination::File(
            crate::rewrite::Replacement::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        ),
        None if args.silent && !args.fix.diff => Destination::Nowhere(std::io::sink()),
        None => Destination::Stdout(AroundBar {
            progress: &progress,
            inner: &mut *out,
            held: Vec::new(),
        }),
    };
    let mut product = Product::start(args, format, &root, destination.writer())?;

    let mut sink = Sink {
        args,
        project: &project,
        options: args.check_options(),
        root: &root,
        baseline: baseline.as_mut(),
        tally: &mut tally,
        product: &mut product,
    };
    let walk_errors = match &stdin_candidate {
        Some(candidate) => {
            let input =
                read::stdin().map_err(|err| anyhow!("cannot read standard input: {err}"))?;
            let outcome = project.check_input(candidate, input, &sink.options);
            sink.take(candidate, outcome)?;
            Vec::new()
        }
        None => lint_walk(args, &project, &paths, &mut configs, &progress, &mut sink)?,
    };
    // The folders that could not be read first, as the walk met them.
    tally.failures.splice(0..0, walk_errors);

    // What only the end of the run knows.
    match product {
        Product::Report(report) => {
            let written = report.finish()?;
            warn_past_code_scanning_limit(written.sarif_results)?;
        }
        Product::Baseline(recorder) => {
            drop(destination);
            progress.finish();
            let path = args.write_baseline.as_deref().unwrap_or(Path::new(""));
            return write_baseline(path, recorder, &tally.failures, args.quiet || args.silent);
        }
        Product::Diff(_) => {}
    }
    match destination {
        Destination::File(file) => {
            let path = args.output.as_deref().unwrap_or(Path::new(""));
            file.commit()
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        // The findings before the summary, where both streams go to one terminal.
        Destination::Stdout(mut stdout) => stdout.flush()?,
        Destination::Nowhere(_) => {}
    }
    progress.finish();

    if args.fix.diff {
        return finish_diff(args, &tally);
    }
    report(args, &project, format, &configs, &tally, started)?;
    if tally.not_started > 0 {
        return interrupted(tally.not_started, tally.seen);
    }
    if !args.quiet && !args.silent {
        report_baseline(baseline.map(|b| b.outcome(&root, &tally.linted_paths)))?;
    }
    // The project's caches (the facts of every file read, the registries) are freed with the
    // process, which ends now: freeing them one by one took the last millisecond of a run.
    std::mem::forget(project);
    Ok(exit_code(args, &tally))
}

/// The configurations and the project, resolved once: every file's checks ask the project
/// about the files around them.
fn resolve(args: &LintArgs, cwd: &Path) -> anyhow::Result<(Configs, Project)> {
    let disk = Arc::new(DiskSource::default());
    let mut configs = Configs::new(
        args.no_config,
        args.config.as_deref(),
        cwd,
        overrides(args)?,
        disk.prefixes(),
    )?;
    // The configurations of the paths named are read first: their `[paths]` say where install
    // prefixes lie before any environment is read.
    for path in args.paths.iter().chain(&args.environments) {
        let inside = if path.is_dir() {
            path.join("hotfix.toml")
        } else {
            path.clone()
        };
        configs.for_file(&inside)?;
    }
    let project = Project::resolve(&args.paths, &args.environments, cwd, &[], disk)?;
    Ok((configs, project))
}

/// Says what became of the baseline's entries: matched (and of those, moved) and gone.
fn report_baseline(outcome: Option<baseline::Outcome>) -> std::io::Result<()> {
    let Some(baseline::Outcome {
        matched,
        moved,
        gone,
    }) = outcome
    else {
        return Ok(());
    };
    let found = matched + moved;
    let mut line = format!(
        "hotfix: baseline: {found} {} matched",
        plural(found, "entry", "entries")
    );
    if moved > 0 {
        let _ = write!(
            line,
            " ({moved} moved: {} line or the lines after it changed)",
            plural(moved, "its", "their")
        );
    }
    if gone > 0 {
        let _ = write!(
            line,
            ", {gone} no longer {} (run with --write-baseline to drop {})",
            plural(gone, "occurs", "occur"),
            plural(gone, "it", "them"),
        );
    }
    writeln!(crate::pipe::stderr(), "{line}")
}

/// The exit code of a run that was not interrupted.
fn exit_code(args: &LintArgs, tally: &Tally) -> ExitCode {
    if !tally.failures.is_empty() {
        return ExitCode::from(2);
    }
    let failing = match args.fail_on {
        FailOn::Error => tally.count(Severity::Error) > 0,
        FailOn::Warning => tally.counts[..2].iter().any(|&n| n > 0),
        FailOn::Info => tally.counts.iter().any(|&n| n > 0),
    };
    if failing && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Where each file's result goes as it completes: the tally, and the report, baseline or diff.
struct Sink<'r, 'a> {
    args: &'r LintArgs,
    project: &'r Project,
    options: Options<'r>,
    root: &'r SourceRoot,
    baseline: Option<&'r mut Baseline>,
    tally: &'r mut Tally,
    product: &'r mut Product<'a>,
}

impl Sink<'_, '_> {
    /// Takes one file's outcome: writes its fixed text (with `--fix`), counts it, and reports
    /// it.
    fn take(&mut self, candidate: &Candidate, outcome: Outcome) -> anyhow::Result<()> {
        let tally = &mut *self.tally;
        tally.seen += 1;
        let mut file = match outcome {
            Outcome::Checked(file) => file,
            Outcome::Skipped(kind) => {
                tally.skipped += 1;
                if self.args.verbose {
                    tally.skipped_listed.push((candidate.display(), kind));
                }
                return Ok(());
            }
            Outcome::NotStarted => {
                tally.not_started += 1;
                return Ok(());
            }
            Outcome::Failed(message) => {
                tally.failures.push(message);
                return Ok(());
            }
        };
        if self.args.fix.writes()
            && let Some(done) = &file.fixed
            && let Err(err) =
                crate::rewrite::rewrite(&file.path, done.original.as_bytes(), done.text.as_bytes())
        {
            // Refused (read-only, gone, changed on disk): the file is still checked, as it is
            // on disk.
            tally
                .failures
                .push(format!("cannot fix {}: not written: {err}", file.display));
            let as_read = Options {
                fixing: Fixing::No,
                ..self.options
            };
            match self
                .project
                .check_bytes(candidate, done.original.as_bytes(), &as_read)
            {
                Outcome::Checked(on_disk) => file = on_disk,
                Outcome::Failed(message) => {
                    tally.failures.push(message);
                    return Ok(());
                }
                Outcome::Skipped(_) | Outcome::NotStarted => return Ok(()),
            }
        }
        if let Some(baseline) = &mut self.baseline {
            baseline.remove_known(self.root, &file.path, &file.source, &mut file.diagnostics);
            tally.linted_paths.insert(self.root.relative(&file.path));
        }
        tally.linted += 1;
        tally.environments += usize::from(file.environment);
        for diagnostic in &file.diagnostics {
            tally.counts[match diagnostic.severity {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::Info => 2,
            }] += 1;
        }
        tally.fixes.add(&self.args.fix, &fixed(&file))?;
        match &mut *self.product {
            Product::Report(report) => {
                report.file(&file.display, &findings(&file))?;
                if !file.diagnostics.is_empty() {
                    report.flush()?;
                }
            }
            Product::Baseline(recorder) => recorder.add(self.root, &findings(&file)),
            Product::Diff(out) => {
                crate::fix::write_diff(&mut **out, &fixed(&file))?;
                out.flush()?;
            }
        }
        Ok(())
    }
}

/// How many files the walk of the paths finds, at most, while the registry of the tree's
/// environments is being built ([`lint_walk`]).
const WALKED_AHEAD: usize = 4096;

/// Lints (or fixes) every file the paths lead to, on every core, a chunk at a time as the walk
/// finds them, each result taken by `sink` in order; returns the walk's errors.
fn lint_walk(
    args: &LintArgs,
    project: &Project,
    paths: &[PathBuf],
    configs: &mut Configs,
    progress: &Progress,
    sink: &mut Sink<'_, '_>,
) -> anyhow::Result<Vec<String>> {
    // `--fix` writes files: Ctrl-C finishes those in flight and starts no other.
    let interrupt = if args.fix.fix {
        Interrupt::install()
    } else {
        Interrupt::default()
    };
    let mut walk_errors = Vec::new();
    let mut fatal = None;
    let reports = discover::Reports::new(&report_paths(args));
    // The templates of a folder nearly all ask for the registry of the tree's environments:
    // it is built on threads of its own from the start.
    let folders = paths.iter().any(|path| path.is_dir());
    // One folder, the project's: the walk for the environments lists its files too, and this
    // thread waits for it (loading Heat's resource types meanwhile) instead of walking the
    // folder a second time.
    let listed = folders && paths.len() == 1 && project.want_listing(&paths[0]);
    project.prefetch_tree();
    let listing = if listed {
        hotfix_hot::resource_types::all();
        project.prepare_tree();
        project.listing()
    } else {
        None
    };
    // The largest files of the listing, as its walk finds them: started first. One that a
    // report would replace is not (the walk stops the run at it, as before).
    let first: Vec<Candidate> = match &listing {
        Some(listing) => hotfix_workspace::walk::Walker::largest(configs, &paths[0], listing)
            .into_iter()
            .filter(|candidate| reports.check(candidate).is_ok())
            .collect(),
        None => Vec::new(),
    };
    let mut candidates = discover::Walker::listed(paths, configs, listing)?
        .map_while(|found| match found {
            Ok(Found::Candidate(candidate)) => match reports.check(&candidate) {
                Ok(()) => Some(Some(candidate)),
                Err(err) => {
                    fatal = Some(err);
                    None
                }
            },
            Ok(Found::Error(error)) => {
                walk_errors.push(error);
                Some(None)
            }
            Err(err) => {
                fatal = Some(err.into());
                None
            }
        })
        .flatten();
    // Meanwhile this thread walks the paths: the walk for the environments leaves a core idle
    // at times (between folders, at its end), which the listing fills. The files found are
    // linted once the registry is built (at most WALKED_AHEAD of them are held).
    let mut ahead = Vec::new();
    if folders && !listed {
        while ahead.len() < WALKED_AHEAD && !project.tree_ready() {
            match candidates.next() {
                Some(candidate) => ahead.push(candidate),
                None => break,
            }
        }
        // Heat's resource types are parsed once, on first use: here while the registry is
        // built, not by the first linting thread while the others wait for it.
        hotfix_hot::resource_types::all();
        project.prepare_tree();
    }
    let options = sink.options;
    project.check_all(
        first,
        ahead.into_iter().chain(candidates),
        &options,
        &|| interrupt.is_set(),
        |candidate, outcome| {
            progress.inc();
            sink.take(&candidate, outcome)
        },
    )?;
    match fatal {
        Some(err) => Err(err),
        None => Ok(walk_errors),
    }
}

/// The reports the run writes, by flag: none of them may replace a file the run reads.
fn report_paths(args: &LintArgs) -> [(&'static str, Option<&Path>); 2] {
    [
        ("--output", args.output.as_deref()),
        ("--write-baseline", args.write_baseline.as_deref()),
    ]
}

impl LintArgs {
    /// How every file of the run is checked.
    fn check_options(&self) -> Options<'_> {
        Options {
            fixing: self.fix.applied(),
            templates_only: self.templates_only,
            environments: &self.environments,
        }
    }

    /// Whether `--output` receives the report or the diff (not with `--write-baseline`).
    fn diff_or_report(&self) -> bool {
        self.write_baseline.is_none()
    }
}

/// The report's style for the format and flags.
fn style(args: &LintArgs, format: Format) -> output::report::Style {
    use output::report::Style;
    if args.statistics {
        return Style::Statistics {
            json: format == Format::Json,
        };
    }
    match format {
        Format::Human => {
            let color = match args.color {
                Color::Always => true,
                Color::Never => false,
                Color::Auto => {
                    args.output.is_none()
                        && std::io::stdout().is_terminal()
                        && std::env::var_os("NO_COLOR").is_none()
                }
            };
            Style::Human {
                color,
                width: crate::pipe::term_width(),
            }
        }
        Format::Concise => Style::Concise,
        Format::Json => Style::Json,
        Format::Sarif => Style::Sarif,
        Format::Github => Style::Github,
        Format::Junit => Style::Junit,
        Format::Gitlab => Style::Gitlab,
    }
}

/// The end of `--diff`: on stderr the fixes (with `--show-fixes`), the failures and a summary.
/// Exit code 1 when there is a diff (unless `--exit-zero`, as ruff does), 2 when a file failed.
fn finish_diff(args: &LintArgs, tally: &Tally) -> anyhow::Result<ExitCode> {
    let mut stderr = crate::pipe::stderr();
    for failure in &tally.failures {
        writeln!(stderr, "hotfix: error: {failure}")?;
    }
    tally.fixes.write(&args.fix, false, &mut stderr)?;
    Ok(if !tally.failures.is_empty() {
        ExitCode::from(2)
    } else if tally.fixes.changed > 0 && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// GitHub code scanning rejects a SARIF run with more than 25,000 results: say so, and how to
/// get through (the upload would otherwise fail far from here).
fn warn_past_code_scanning_limit(results: usize) -> std::io::Result<()> {
    const LIMIT: usize = 25_000;
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

/// `--write-baseline`: records every finding and exits with 0 (2 when a file could not be
/// read, and then writes nothing: the baseline would miss its findings).
fn write_baseline(
    path: &Path,
    recorder: baseline::Recorder,
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
    let count = recorder.len();
    let text = recorder.render()?;
    crate::rewrite::replace(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    if quiet {
        return Ok(ExitCode::SUCCESS);
    }
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
    project: &Project,
    format: Format,
    configs: &Configs,
    tally: &Tally,
    started: Instant,
) -> anyhow::Result<()> {
    let mut stderr = crate::pipe::stderr();
    if args.verbose {
        for path in configs.loaded() {
            writeln!(stderr, "using configuration {}", path.display())?;
        }
        for (display, kind) in &tally.skipped_listed {
            writeln!(stderr, "skipped {display}: {}", kind.describe())?;
        }
        if let Some(walked) = project.walked() {
            writeln!(stderr, "{}", walked.describe(project.scope()))?;
        }
    }
    if let Some(warning) = project
        .walked()
        .and_then(|walked| walked.warning(project.scope()))
        && !args.silent
    {
        writeln!(stderr, "{warning}")?;
    }
    for failure in &tally.failures {
        writeln!(stderr, "hotfix: error: {failure}")?;
    }
    let (errors, warnings, infos) = (
        tally.count(Severity::Error),
        tally.count(Severity::Warning),
        tally.count(Severity::Info),
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
            "{}{} checked ({} skipped): {errors} {}, {warnings} {}, {infos} info in {:.2}s",
            tally.linted - tally.environments,
            match tally.environments {
                0 => plural(tally.linted, " template", " templates").to_owned(),
                n => format!(
                    "{} and {n} environment {}",
                    plural(tally.linted - n, " template", " templates"),
                    plural(n, "file", "files")
                ),
            },
            tally.skipped,
            plural(errors, "error", "errors"),
            plural(warnings, "warning", "warnings"),
            started.elapsed().as_secs_f64()
        )?;
    }
    if !args.silent {
        let quiet = machine || args.quiet;
        tally.fixes.write(&args.fix, quiet, &mut stderr)?;
    }
    Ok(())
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// The rule selection of the command line: `--select` replaces each configuration's selection;
/// `--extend-select`, `--ignore` and `--extend-ignore` add to it; `--heat-release` replaces the
/// configuration's release.
fn overrides(args: &LintArgs) -> anyhow::Result<Overrides> {
    let mut ignore = selectors(&args.ignore)?;
    ignore.extend(selectors(&args.extend_ignore)?);
    Ok(Overrides {
        select: selectors(&args.select)?,
        extend_select: selectors(&args.extend_select)?,
        ignore,
        heat_release: args.heat_release,
    })
}

/// The rule selectors of `--select` and the like (blank items skipped).
pub(crate) fn selectors(items: &[String]) -> anyhow::Result<Vec<Selector>> {
    items
        .iter()
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            Selector::parse(s).ok_or_else(|| {
                anyhow!(
                    "{} (see `hotfix rules`)",
                    hotfix_workspace::config::unknown_rule(s)
                )
            })
        })
        .collect()
}

/// What the run reads: the candidate read from standard input, or the paths to walk; and how
/// many files there are, when a first walk was needed to know (else 0).
fn inputs(
    args: &LintArgs,
    project: &Project,
    drawn: bool,
    cwd: &Path,
    configs: &mut Configs,
) -> anyhow::Result<(Option<Candidate>, Vec<PathBuf>, usize)> {
    if let Some(name) = reads_stdin(args)? {
        return Ok((
            Some(stdin_candidate(args, &name, cwd, configs)?),
            Vec::new(),
            0,
        ));
    }
    let mut paths = crate::discover::paths(&args.paths)?;
    // The environments given are linted too.
    if !args.environments.is_empty() {
        // The environments given are linted too, and so are the nested templates of their
        // stack (Heat validates them with it).
        let mut extra = crate::discover::paths(&args.environments)?;
        extra.extend(project.given_stack_files());
        for file in extra {
            if !paths.contains(&file) {
                paths.push(file);
            }
        }
    }
    let paths = crate::rewrite::dedup_by_canonical(paths);
    // The files are found as they are linted. A first walk is made only for the total of a
    // progress bar (the proof that a report does not replace a file read is made as they are
    // found, and before anything is put in place).
    let total = if drawn {
        discover::prescan(&paths, configs, &report_paths(args))?
    } else {
        0
    };
    Ok((None, paths, total))
}

/// The candidate read from standard input, under the name it is linted as.
fn stdin_candidate(
    args: &LintArgs,
    name: &Path,
    cwd: &Path,
    configs: &mut Configs,
) -> anyhow::Result<Candidate> {
    if args.fix.fix {
        return Err(anyhow!(
            "--fix cannot rewrite standard input; use --diff to see the fixes"
        ));
    }
    Ok(Candidate {
        config: configs.for_file(&cwd.join(name))?,
        path: name.to_path_buf(),
        explicit: true,
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
