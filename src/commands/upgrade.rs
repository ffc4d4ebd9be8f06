//! `hotfix upgrade`: rewrite templates for a later `heat_template_version`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, anyhow};
use hotfix_diagnostics::{Applicability, RenderOptions, render_human};
use hotfix_hot::Version;
use hotfix_hot::heat_release::{HeatRelease, newest_template_version};
use hotfix_linter::upgrade::{
    Upgrade, UpgradeError, UpgradeOptions, UpgradeStatus, VersionStyle, upgrade,
};
use hotfix_linter::{Selector, Settings, fix_file};

use crate::discover::{self, Candidate, Found, Kind};
use crate::interrupt::{self, Interrupt};

/// Upgrade templates to a later `heat_template_version`, with minimal edits.
///
/// CloudFormation-style functions (`Fn::Join`, `Ref`, `Fn::Select`, …) are rewritten into
/// their exact HOT forms, one version step at a time; what cannot be rewritten exactly blocks
/// the step, and the file keeps the last version its content meets. Comments and formatting
/// outside the rewritten nodes stay byte for byte. Files are rewritten in place (atomically)
/// unless `--diff` or `--check` is given.
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools, reason = "command-line flags")]
pub(crate) struct UpgradeArgs {
    /// The version to upgrade to: a date (`2017-09-01`) or a name (`pike`) [default with
    /// `--heat-release`: the newest version that release's Heat accepts].
    #[arg(
        long = "to",
        value_name = "VERSION",
        value_parser = crate::complete::hot_versions(),
        required_unless_present = "heat_release"
    )]
    to: Option<String>,

    /// The OpenStack release whose Heat the templates move to: a series (`wallaby`) or a
    /// release number (`2023.1`), liberty or later. Also fixes what that Heat deprecated
    /// (`deprecated-property` H612, `deprecated-resource-type` H611: the Safe fixes, and the
    /// Unsafe ones with `--unsafe-fixes`), where the release has the name the fix writes.
    #[arg(
        long,
        value_name = "RELEASE",
        value_parser = crate::complete::heat_releases(),
        hide_possible_values = true
    )]
    heat_release: Option<HeatRelease>,

    /// Files and folders to upgrade [default: the current folder].
    paths: Vec<PathBuf>,

    /// Print a unified diff of what would change; write nothing.
    #[arg(long, conflicts_with = "check")]
    diff: bool,

    /// Exit with 1 if anything would change; write nothing.
    #[arg(long)]
    check: bool,

    /// Also apply rewrites that may change what Heat computes (each is reported).
    #[arg(long)]
    unsafe_fixes: bool,

    /// How to spell the new version: `keep` (a date stays a date, a name becomes the target's
    /// name), `date`, or `name` (the target's name where it has one).
    #[arg(long, value_enum, default_value_t = Style::Keep)]
    version_style: Style,

    /// Use this configuration file for every file instead of each file's nearest `hotfix.toml`
    /// (its `exclude` applies).
    #[arg(long, conflicts_with = "no_config")]
    config: Option<PathBuf>,

    /// Ignore any `hotfix.toml`.
    #[arg(long)]
    no_config: bool,

    /// Also list files that are not templates, and warnings in full.
    #[arg(long, short)]
    verbose: bool,

    /// `text`: one line per file; `sarif`: the findings as SARIF 2.1.0 (for code scanning, with
    /// `--check`), located in the files as they are on disk.
    #[arg(long, value_enum, default_value_t = UpgradeFormat::Text)]
    format: UpgradeFormat,

    /// Write the SARIF (or the diff) to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum UpgradeFormat {
    Text,
    Sarif,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Style {
    Keep,
    Date,
    Name,
}

/// The deprecation fixes applied to an upgraded text (`--heat-release`).
#[derive(Default)]
struct Deprecations {
    /// The text to write: the upgraded text, fixed.
    text: String,
    /// Each fix applied: code, message, whether Unsafe.
    applied: Vec<(&'static str, String, bool)>,
    /// The deprecation findings left.
    left: usize,
}

/// What happened to one file.
enum Outcome {
    Skipped(Kind),
    /// The file cannot be upgraded as it is (invalid YAML, no valid version): exit code 1.
    Refused(String),
    /// hotfix could not do its job (unreadable or unwritable file, an internal error): 2.
    Failed(String),
    /// The upgrade, the source, and what the deprecation fixes made of the upgraded text.
    Done(Upgrade, String, Deprecations),
    /// Not started: the run was interrupted.
    Interrupted,
    /// A folder the walk could not read: exit code 2.
    Unreadable(String),
}

pub(crate) fn run(args: &UpgradeArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let options = options(args)?;
    let deprecations = deprecation_settings(args);
    let cwd = crate::paths::current_dir()?;
    let overrides = hotfix_workspace::config::Overrides::default();
    let mut configs = hotfix_workspace::config::Configs::new(
        args.no_config,
        args.config.as_deref(),
        &cwd,
        overrides,
        std::sync::Arc::default(),
    )?;
    let paths = crate::discover::paths(&args.paths)?;
    if args.output.is_some() {
        discover::prescan(
            &paths,
            &mut configs,
            &[("--output", args.output.as_deref())],
        )?;
    }
    let write = !args.diff && !args.check;
    // Writing runs finish the files in flight on Ctrl-C; read-only runs just end.
    let interrupt = if write {
        Interrupt::install()
    } else {
        Interrupt::default()
    };
    let root = crate::output::SourceRoot::discover(&cwd);
    let mut sarif = if args.format == UpgradeFormat::Sarif {
        Some(crate::output::sarif::Sarif::new(&root)?)
    } else {
        None
    };
    // The report goes to a temporary file beside `--output`, put in place at the end, or to
    // standard output, as each file completes.
    let mut report_file = match args.output.as_deref() {
        Some(path) => Some(
            crate::rewrite::Replacement::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        ),
        None => None,
    };
    let out: &mut dyn Write = match &mut report_file {
        Some(file) => file,
        None => out,
    };
    let mut stderr = crate::pipe::stderr();
    let mut tally = Tally::new(args.heat_release.is_some());
    let mut fatal = None;
    let found = discover::Walker::new(&paths, &mut configs)?.map_while(|found| match found {
        Ok(found) => Some(found),
        Err(err) => {
            fatal = Some(err);
            None
        }
    });
    // Each file's line is printed as soon as it and every file before it are done, so that an
    // interrupted run leaves a record of what it did.
    let work = |found: &Found| match found {
        Found::Error(error) => Outcome::Unreadable(error.clone()),
        Found::Candidate(_) if interrupt.is_set() => Outcome::Interrupted,
        Found::Candidate(candidate) => process(candidate, &options, deprecations.as_ref(), write),
    };
    let mut taken = Taken {
        args,
        target: options.target,
        out,
        stderr: &mut stderr,
        sarif: sarif.as_mut(),
        tally: &mut tally,
        seen: 0,
        interrupted: 0,
    };
    hotfix_workspace::ordered::for_each_in_order(found, work, |found, outcome| {
        taken.take(&found, &outcome)
    })?;
    let (seen, interrupted) = (taken.seen, taken.interrupted);
    if let Some(err) = fatal {
        return Err(err.into());
    }
    writeln!(stderr, "{}", tally.closing(args, options.target))?;
    if let Some(sarif) = sarif {
        sarif.finish(out)?;
    }
    // The report is written also when the run was interrupted: it is the record of what was done.
    if let (Some(file), Some(path)) = (report_file, &args.output) {
        file.commit()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if interrupted > 0 {
        writeln!(
            stderr,
            "hotfix: interrupted: {interrupted} of {seen} files not started, and left as they were"
        )?;
        return Ok(ExitCode::from(interrupt::EXIT_CODE));
    }
    Ok(if tally.failed > 0 {
        ExitCode::from(2)
    } else if tally.blocked > 0 || tally.refused > 0 || (args.check && tally.changed) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where each file's outcome goes as it completes, in the files' order.
struct Taken<'r, 's> {
    args: &'r UpgradeArgs,
    target: Version,
    out: &'r mut dyn Write,
    stderr: &'r mut dyn Write,
    sarif: Option<&'r mut crate::output::sarif::Sarif<'s>>,
    tally: &'r mut Tally,
    /// Files met, and those not started once interrupted.
    seen: usize,
    interrupted: usize,
}

impl Taken<'_, '_> {
    /// Counts and reports one outcome.
    fn take(&mut self, found: &Found, outcome: &Outcome) -> anyhow::Result<()> {
        let (args, tally, stderr) = (self.args, &mut *self.tally, &mut *self.stderr);
        let Found::Candidate(candidate) = found else {
            if let Outcome::Unreadable(error) = outcome {
                tally.failed += 1;
                writeln!(stderr, "hotfix: error: {error}")?;
            }
            return Ok(());
        };
        self.seen += 1;
        let display = candidate.display();
        match outcome {
            Outcome::Skipped(kind) => {
                tally.skipped += 1;
                if args.verbose || candidate.explicit {
                    writeln!(stderr, "{display}: skipped: {}", kind.describe())?;
                }
            }
            Outcome::Refused(message) => {
                tally.refused += 1;
                writeln!(stderr, "{display}: error: {message}")?;
            }
            Outcome::Failed(message) | Outcome::Unreadable(message) => {
                tally.failed += 1;
                writeln!(stderr, "{display}: error: {message}")?;
            }
            Outcome::Interrupted => self.interrupted += 1,
            Outcome::Done(result, source, deprecations) => {
                tally.count(result, source, self.target, deprecations);
                let line = report_done(
                    args,
                    &display,
                    result,
                    source,
                    deprecations,
                    self.out,
                    stderr,
                )?;
                self.out.flush()?;
                if let Some(sarif) = &mut self.sarif {
                    let diagnostics = on_disk(result, source, &deprecations.text, &line);
                    sarif.file(&crate::output::FileFindings {
                        path: &candidate.path,
                        source,
                        diagnostics: &diagnostics,
                    })?;
                }
            }
        }
        Ok(())
    }
}

/// With `--heat-release`, the settings of the deprecation fixes applied after the upgrade.
fn deprecation_settings(args: &UpgradeArgs) -> Option<Settings> {
    let release = args.heat_release?;
    Some(Settings {
        select: ["H611", "H612"]
            .iter()
            .filter_map(|c| Selector::parse(c))
            .collect(),
        heat_release: Some(release),
        ..Settings::default()
    })
}

/// What the arguments ask of the upgrade engine.
fn options(args: &UpgradeArgs) -> anyhow::Result<UpgradeOptions> {
    let newest = args.heat_release.map(|release| {
        (
            release,
            newest_template_version(release).unwrap_or(Version::LATEST),
        )
    });
    let target = match (&args.to, newest) {
        (Some(to), _) => Version::parse(to).ok_or_else(|| {
            anyhow!(
                "`{to}` is not a HOT version; use one of: {}",
                Version::accepted_strings().join(", ")
            )
        })?,
        (None, Some((_, newest))) => newest,
        (None, None) => return Err(anyhow!("give --to VERSION or --heat-release RELEASE")),
    };
    if let Some((release, newest)) = newest
        && target > newest
    {
        return Err(anyhow!(
            "`--to {}` is newer than {}'s Heat accepts: its newest version is {}",
            target.date(),
            release.series(),
            newest.date()
        ));
    }
    Ok(UpgradeOptions {
        target,
        unsafe_fixes: args.unsafe_fixes,
        version_style: match args.version_style {
            Style::Keep => VersionStyle::Keep,
            Style::Date => VersionStyle::Date,
            Style::Name => VersionStyle::Name,
        },
    })
}

/// Reports one upgraded (or blocked) file: the diff with `--diff`, its status line (on
/// standard output, or standard error when standard output holds the diff or SARIF), its
/// blockers and findings on standard error. Returns the status line.
fn report_done(
    args: &UpgradeArgs,
    display: &str,
    result: &Upgrade,
    source: &str,
    deprecations: &Deprecations,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<String> {
    let mut line = status_line(
        result,
        args.check || args.diff,
        args.verbose,
        args.unsafe_fixes,
    );
    if args.heat_release.is_some() {
        let would = if args.check || args.diff {
            "would be "
        } else {
            ""
        };
        let fixed = deprecations.applied.len();
        let noun = if fixed == 1 {
            "deprecation"
        } else {
            "deprecations"
        };
        let _ = write!(line, "; {fixed} {noun} {would}fixed");
        if deprecations.left > 0 {
            let _ = write!(line, ", {} left", deprecations.left);
        }
    }
    if args.diff && deprecations.text != source {
        write_diff(out, display, source, &deprecations.text)?;
    }
    if args.diff || args.format == UpgradeFormat::Sarif {
        writeln!(stderr, "{display}: {line}")?;
    } else {
        writeln!(out, "{display}: {line}")?;
    }
    report_blockers(stderr, display, result, args.verbose)?;
    report_findings(stderr, display, result, args.verbose)?;
    for (code, message, _) in deprecations.applied.iter().filter(|(_, _, u)| *u) {
        writeln!(stderr, "  {display}: {code} unsafe fix applied: {message}")?;
    }
    Ok(line)
}

/// How many files ended how: the closing summary and the exit code.
#[derive(Default)]
struct Tally {
    upgraded: usize,
    /// At the target, or above it: whether any is above.
    current: usize,
    above: bool,
    blocked: usize,
    /// Blocked after some steps went through.
    partly: usize,
    /// Cannot be upgraded as they are (invalid YAML, no valid version): exit code 1.
    refused: usize,
    /// hotfix could not do its job: exit code 2.
    failed: usize,
    skipped: usize,
    /// Whether any file changes (or would).
    changed: bool,
    /// Deprecation fixes applied (of them Unsafe), and deprecation findings left
    /// (`--heat-release`).
    deprecations: Option<(usize, usize, usize)>,
}

impl Tally {
    /// An empty tally; `deprecations` when the run fixes them (`--heat-release`).
    fn new(deprecations: bool) -> Self {
        Self {
            deprecations: deprecations.then_some((0, 0, 0)),
            ..Self::default()
        }
    }

    /// The closing summary of the run `args` asked for, upgrading to `target`.
    fn closing(&self, args: &UpgradeArgs, target: Version) -> String {
        self.summary(
            args.to.as_deref().unwrap_or(target.date()),
            args.check || args.diff,
            args.verbose,
        )
    }

    fn count(
        &mut self,
        result: &Upgrade,
        source: &str,
        target: Version,
        deprecations: &Deprecations,
    ) {
        self.changed |= deprecations.text != source;
        if let Some((fixed, unsafe_fixed, left)) = &mut self.deprecations {
            *fixed += deprecations.applied.len();
            *unsafe_fixed += deprecations.applied.iter().filter(|(_, _, u)| *u).count();
            *left += deprecations.left;
        }
        match &result.status {
            UpgradeStatus::AlreadyAtTarget { version } => {
                self.current += 1;
                self.above |= *version > target;
            }
            UpgradeStatus::Upgraded { .. } => self.upgraded += 1,
            UpgradeStatus::Blocked { .. } => {
                self.blocked += 1;
                if result.text != source {
                    self.partly += 1;
                }
            }
        }
    }

    /// `12 upgraded, 3 already at wallaby, 1 blocked, 0 failed`, or `12 would be upgraded, …`
    /// for `--check` and `--diff`; with `--verbose`, the skipped files too.
    fn summary(&self, spelled: &str, dry_run: bool, verbose: bool) -> String {
        let would = if dry_run { "would be " } else { "" };
        let or_later = if self.above { " or later" } else { "" };
        let partly = match self.partly {
            0 => String::new(),
            n => format!(" ({n} {would}upgraded part of the way)"),
        };
        let mut out = format!(
            "{} {would}upgraded, {} already at {spelled}{or_later}, {} blocked{partly}, {} failed",
            self.upgraded,
            self.current,
            self.blocked,
            self.refused + self.failed
        );
        if let Some((fixed, unsafe_fixed, left)) = self.deprecations {
            let noun = if fixed == 1 {
                "deprecation"
            } else {
                "deprecations"
            };
            let _ = write!(out, "; {fixed} {noun} {would}fixed");
            if unsafe_fixed > 0 {
                let _ = write!(out, " ({unsafe_fixed} unsafe)");
            }
            let _ = write!(out, ", {left} left");
        }
        if verbose {
            let _ = write!(out, ", {} skipped (not templates)", self.skipped);
        }
        out
    }
}

/// Every finding that blocks a step, each with its help, on stderr (`--verbose`; otherwise the
/// status line names the first and counts the others), and what `--unsafe-fixes` would
/// rewrite.
fn report_blockers(
    stderr: &mut (impl Write + ?Sized),
    display: &str,
    result: &Upgrade,
    verbose: bool,
) -> std::io::Result<()> {
    let UpgradeStatus::Blocked { blocked, .. } = &result.status else {
        return Ok(());
    };
    if !verbose {
        return Ok(());
    }
    for blocker in blocked.blockers() {
        let d = &blocker.diagnostic;
        writeln!(
            stderr,
            "  {display}:{}:{}: {} blocks step {} → {}: {}",
            blocker.line, blocker.column, d.code, blocked.step.0, blocked.step.1, d.message
        )?;
        if let Some(help) = &d.help {
            writeln!(stderr, "    help: {help}")?;
        }
    }
    if let Some(reach) = &blocked.unsafe_fixes {
        for (code, message) in &reach.rewrites {
            writeln!(
                stderr,
                "  {display}: {code} --unsafe-fixes would apply: {message}"
            )?;
        }
    }
    Ok(())
}

/// The applied Unsafe rewrites and the findings of one file, on stderr: one line each, or
/// code frames with `--verbose`.
fn report_findings(
    stderr: &mut (impl Write + ?Sized),
    display: &str,
    result: &Upgrade,
    verbose: bool,
) -> std::io::Result<()> {
    for (code, message) in &result.unsafe_applied {
        writeln!(
            stderr,
            "  {display}: {code} unsafe rewrite applied: {message}"
        )?;
    }
    let lines = hotfix_yaml::LineIndex::new(&result.text);
    for diagnostic in &result.diagnostics {
        if verbose {
            let rendered =
                render_human(diagnostic, display, &result.text, RenderOptions::default());
            write!(stderr, "{rendered}")?;
        } else {
            let (start, _) = hotfix_diagnostics::location(&lines, &result.text, diagnostic.span);
            writeln!(
                stderr,
                "  {display}:{}:{}: {} {}",
                start.line, start.column, diagnostic.code, diagnostic.message
            )?;
        }
    }
    Ok(())
}

fn process(
    candidate: &Candidate,
    options: &UpgradeOptions,
    deprecations: Option<&Settings>,
    write: bool,
) -> Outcome {
    let bytes = match discover::read(candidate) {
        Ok(Ok(crate::read::Input::Whole(bytes))) => bytes,
        Ok(Ok(crate::read::Input::TooLarge { head, chars, exact })) => {
            let kind = discover::kind_of_large(candidate, &head);
            if kind != Kind::Template {
                return Outcome::Skipped(kind);
            }
            return Outcome::Refused(hotfix_yaml::too_large(chars, exact).message);
        }
        Ok(Err(kind)) => return Outcome::Skipped(kind),
        Err(err) => return Outcome::Failed(format!("cannot read it: {err}")),
    };
    let kind = candidate.kind(&bytes, true);
    if kind != Kind::Template {
        return Outcome::Skipped(kind);
    }
    let source = match hotfix_yaml::check_bytes(&bytes) {
        Ok(text) => text.to_owned(),
        Err(err) => return Outcome::Refused(err.message),
    };
    let result = match upgrade(&source, options) {
        Ok(result) => result,
        Err(err @ (UpgradeError::Load(_) | UpgradeError::NoVersion)) => {
            return Outcome::Refused(err.to_string());
        }
        Err(err) => return Outcome::Failed(err.to_string()),
    };
    let fixed = match deprecations {
        None => Deprecations {
            text: result.text.clone(),
            ..Deprecations::default()
        },
        Some(settings) => {
            let display = candidate.display();
            match fix_file(&display, &result.text, settings, options.unsafe_fixes) {
                Ok(outcome) => Deprecations {
                    applied: outcome
                        .applied
                        .iter()
                        .map(|a| {
                            let unsafe_fix = a.applicability == Applicability::Unsafe;
                            (a.code, a.message.clone(), unsafe_fix)
                        })
                        .collect(),
                    left: outcome
                        .diagnostics
                        .iter()
                        .filter(|d| d.code == "H611" || d.code == "H612")
                        .count(),
                    text: outcome.text,
                },
                Err(err) => return Outcome::Failed(err.to_string()),
            }
        }
    };
    if write
        && fixed.text != source
        && let Err(err) = crate::rewrite::rewrite(&candidate.path, &bytes, fixed.text.as_bytes())
    {
        return Outcome::Failed(format!("not rewritten: {err}"));
    }
    Outcome::Done(result, source, fixed)
}

/// The upgrade's findings located in the file as it is on disk: that it would change (at its
/// `heat_template_version`), why it is blocked (there too), and each warning, mapped back from
/// the upgraded text to the original.
fn on_disk(
    result: &Upgrade,
    source: &str,
    text: &str,
    line: &str,
) -> Vec<hotfix_diagnostics::Diagnostic> {
    use hotfix_diagnostics::{Diagnostic, Severity, Span};
    let version_span = hotfix_yaml::parse(source)
        .ok()
        .and_then(|doc| match hotfix_hot::Template::new(&doc).version {
            hotfix_hot::VersionDecl::Valid { value, .. } => Some(doc.node(value).span),
            _ => None,
        })
        .unwrap_or(Span::new(0, 0));
    let mut out = Vec::new();
    if let UpgradeStatus::Blocked { blocked, .. } = &result.status {
        let blocker = &blocked.blocker.diagnostic;
        let mut d = Diagnostic::new(
            blocker.code,
            blocker.name,
            Severity::Error,
            format!("hotfix upgrade: {line}"),
            version_span,
        );
        d.help.clone_from(&blocker.help);
        out.push(d);
    } else if text != source {
        out.push(Diagnostic::new(
            "U000",
            "upgrade-available",
            Severity::Info,
            format!("hotfix upgrade: {line}"),
            version_span,
        ));
    }
    for warning in &result.diagnostics {
        let mut d = warning.clone();
        let start = result.segments.to_original(warning.span.start);
        let end = result.segments.to_original(warning.span.end).max(start);
        d.span = Span::new(start, end);
        d.labels.clear();
        d.fix = None;
        out.push(d);
    }
    out
}

fn status_line(result: &Upgrade, dry_run: bool, verbose: bool, unsafe_fixes: bool) -> String {
    let would = if dry_run { "would be " } else { "" };
    match &result.status {
        UpgradeStatus::AlreadyAtTarget { version } => {
            format!("already at {version}, at or above the target")
        }
        UpgradeStatus::Upgraded { from, to } => {
            let rewrites = match result.fixes {
                1 => "1 rewrite".to_owned(),
                n => format!("{n} rewrites"),
            };
            format!("{would}upgraded {from} → {to} ({rewrites})")
        }
        UpgradeStatus::Blocked {
            from,
            reached,
            blocked,
        } => {
            let progress = if reached > from {
                format!("{would}upgraded {from} → {reached}, then ")
            } else {
                String::new()
            };
            let first = &blocked.blocker;
            let mut line = format!(
                "{progress}blocked at step {} → {} by {} at {}:{}: {}",
                blocked.step.0,
                blocked.step.1,
                first.diagnostic.code,
                first.line,
                first.column,
                first.diagnostic.message
            );
            let mut notes = Vec::new();
            match (blocked.more.len(), verbose) {
                (0, _) => {}
                (n, true) => notes.push(format!("and {n} more, listed below")),
                (n, false) => notes.push(format!("and {n} more; --verbose lists them")),
            }
            if let Some(reach) = &blocked.unsafe_fixes {
                notes.push(unsafe_note(reach, verbose));
            } else if !unsafe_fixes
                && first
                    .diagnostic
                    .fix
                    .as_ref()
                    .is_some_and(|f| f.applicability == Applicability::Unsafe)
            {
                notes.push(
                    "its rewrite is Unsafe, but --unsafe-fixes alone would not get the file further"
                        .to_owned(),
                );
            }
            if !notes.is_empty() {
                let _ = write!(line, " ({})", notes.join("; "));
            }
            line
        }
    }
}

/// What `--unsafe-fixes` would do for a blocked file: how far it would get, and with which
/// Unsafe rewrites.
fn unsafe_note(reach: &hotfix_linter::upgrade::UnsafeReach, verbose: bool) -> String {
    let mut note = if reach.blocked {
        format!(
            "--unsafe-fixes would rewrite it up to {}, where it is blocked again",
            reach.reached
        )
    } else {
        format!("--unsafe-fixes would rewrite it up to {}", reach.reached)
    };
    match (reach.rewrites.as_slice(), verbose) {
        ([], _) => {}
        ([(code, message)], _) => {
            let _ = write!(note, ": {code} {message}");
        }
        ([(code, message), rest @ ..], false) => {
            let rewrites = if rest.len() == 1 {
                "rewrite"
            } else {
                "rewrites"
            };
            let _ = write!(
                note,
                ": {code} {message}, and {} more Unsafe {rewrites}",
                rest.len()
            );
        }
        (all, true) => {
            let _ = write!(note, " with the {} Unsafe rewrites listed below", all.len());
        }
    }
    note
}

fn write_diff(out: &mut dyn Write, display: &str, old: &str, new: &str) -> std::io::Result<()> {
    let diff = similar::TextDiff::from_lines(old, new);
    let unified = diff
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{display}"), &format!("b/{display}"))
        .to_string();
    out.write_all(crate::pipe::for_stdout(&unified).as_bytes())
}
