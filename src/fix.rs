//! `hotfix lint --fix`, `--unsafe-fixes`, `--diff` and `--show-fixes`: applying the fixes the
//! rules offer.
//!
//! The project fixes one file at a time in memory ([`hotfix_workspace::check`], with
//! [`hotfix_linter::fix_file`]: the Safe fixes, and the Unsafe ones on request, re-linting
//! until nothing applies); `hotfix lint` writes the fixed text back (atomically, as `hotfix
//! upgrade` does) and this module prints it as a diff, lists the fixes, and counts what was
//! fixed and what could be.

use std::io::Write;

use hotfix_diagnostics::{Applicability, Diagnostic};
use hotfix_linter::fix::{Applied, is_applied};
use hotfix_workspace::check::{Fixed, Fixing};
use hotfix_yaml::LineIndex;

/// The fix flags of `hotfix lint`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("fixing").args(["fix", "diff"]).multiple(true)))]
#[allow(clippy::struct_excessive_bools, reason = "command-line flags")]
pub(crate) struct FixArgs {
    /// Apply the Safe fixes (those that keep what Heat computes) in place, then report what
    /// remains. Files are rewritten atomically, keeping their permissions; read-only files are
    /// refused.
    #[arg(long, conflicts_with = "write_baseline")]
    pub(crate) fix: bool,

    /// Also apply the Unsafe fixes, which may change what Heat computes (read each one with
    /// `--show-fixes` or `--diff`). Without `--fix` or `--diff`, only counts them as fixable.
    #[arg(long)]
    pub(crate) unsafe_fixes: bool,

    /// Print a unified diff of what `--fix` would change and write nothing; exit with 1 when
    /// there is something to change.
    #[arg(long, conflicts_with_all = ["write_baseline", "format"])]
    pub(crate) diff: bool,

    /// List every fix applied (or, with `--diff`, that would be) on stderr, one line each.
    #[arg(long, requires = "fixing")]
    pub(crate) show_fixes: bool,
}

impl FixArgs {
    /// Whether files are fixed (in place, or as a diff).
    fn fixing(&self) -> bool {
        self.fix || self.diff
    }

    /// The fixes a file's check applies to its text.
    pub(crate) fn applied(&self) -> Fixing {
        match (self.fixing(), self.unsafe_fixes) {
            (false, _) => Fixing::No,
            (true, false) => Fixing::Safe,
            (true, true) => Fixing::Unsafe,
        }
    }

    /// Whether the fixed texts replace the files (`--fix` without `--diff`).
    pub(crate) fn writes(&self) -> bool {
        self.fix && !self.diff
    }
}

/// One linted file, as this module sees it.
pub(crate) struct FixedFile<'a> {
    pub(crate) display: &'a str,
    pub(crate) diagnostics: &'a [Diagnostic],
    /// What fixing changed, when it changed the text.
    pub(crate) fixed: Option<&'a Fixed>,
}

/// `--diff`: the diff of one file, when fixing would change it.
pub(crate) fn write_diff(out: &mut dyn Write, file: &FixedFile<'_>) -> std::io::Result<()> {
    let Some(fixed) = file.fixed else {
        return Ok(());
    };
    let unified = similar::TextDiff::from_lines(&fixed.original, &fixed.text)
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("a/{}", file.display),
            &format!("b/{}", file.display),
        )
        .to_string();
    out.write_all(crate::pipe::for_stdout(&unified).as_bytes())
}

/// What fixing did and could do, gathered one file at a time for the run's last lines.
#[derive(Debug, Default)]
pub(crate) struct Summary {
    /// The `--show-fixes` lines.
    listed: Vec<u8>,
    /// Findings left whose fix these flags would apply.
    fixable: usize,
    /// Findings left with an Unsafe fix these flags would not apply.
    hidden: usize,
    applied: usize,
    unsafe_applied: usize,
    /// Files fixing changed (or, with `--diff`, would change).
    pub(crate) changed: usize,
}

impl Summary {
    /// Counts one file (and lists its fixes, with `--show-fixes`).
    pub(crate) fn add(&mut self, args: &FixArgs, file: &FixedFile<'_>) -> std::io::Result<()> {
        if args.show_fixes {
            let verb = if args.diff { "would fix" } else { "fixed" };
            list_fixes(file, verb, &mut self.listed)?;
        }
        for applicability in file
            .diagnostics
            .iter()
            .filter_map(|d| d.fix.as_ref().map(|f| f.applicability))
        {
            if is_applied(applicability, args.unsafe_fixes) {
                self.fixable += 1;
            }
            if applicability == Applicability::Unsafe && !args.unsafe_fixes {
                self.hidden += 1;
            }
        }
        let applied = file.fixed.map_or(&[][..], |fixed| &fixed.applied);
        self.applied += applied.len();
        self.unsafe_applied += applied
            .iter()
            .filter(|a| a.applicability == Applicability::Unsafe)
            .count();
        self.changed += usize::from(file.fixed.is_some());
        Ok(())
    }

    /// On stderr: each fix (with `--show-fixes`), then what was fixed (with `--fix` or
    /// `--diff`) and how many of the findings left could be fixed, as ruff counts them: the
    /// fixes these flags would apply, and the "hidden" Unsafe ones they would not. `quiet`
    /// (JSON or SARIF on stdout) keeps only the list and, when files changed, what was fixed.
    pub(crate) fn write(
        &self,
        args: &FixArgs,
        quiet: bool,
        stderr: &mut dyn Write,
    ) -> std::io::Result<()> {
        let verb = if args.diff { "would fix" } else { "fixed" };
        stderr.write_all(&self.listed)?;
        let mut parts = Vec::new();
        if args.fixing() {
            let with_unsafe = if self.unsafe_applied > 0 {
                format!(" ({} with unsafe fixes)", self.unsafe_applied)
            } else {
                String::new()
            };
            if quiet && self.changed == 0 {
                return Ok(());
            }
            parts.push(format!(
                "{verb} {} {} in {} {}{with_unsafe}",
                self.applied,
                plural(self.applied, "finding", "findings"),
                self.changed,
                plural(self.changed, "file", "files")
            ));
        } else if self.fixable > 0 {
            let flags = if args.unsafe_fixes {
                "--fix --unsafe-fixes"
            } else {
                "--fix"
            };
            parts.push(format!("{} fixable with `{flags}`", self.fixable));
        }
        if self.hidden > 0 && !quiet {
            let flags = if args.fixing() {
                "--unsafe-fixes"
            } else {
                "--fix --unsafe-fixes"
            };
            parts.push(format!(
                "{} hidden {} can be enabled with `{flags}`",
                self.hidden,
                plural(self.hidden, "fix", "fixes")
            ));
        }
        if parts.is_empty() || (quiet && !args.fixing()) {
            return Ok(());
        }
        writeln!(stderr, "{}", parts.join("; "))
    }
}

/// `path:line:col: fixed CODE (applicability): what the fix did`, at the fix's place in the
/// text as it is now on disk (the original with `--diff`, the fixed text with `--fix`).
fn list_fixes(file: &FixedFile<'_>, verb: &str, out: &mut dyn Write) -> std::io::Result<()> {
    let Some(fixed) = file.fixed else {
        return Ok(());
    };
    let written = verb == "fixed";
    let text = if written {
        &fixed.text
    } else {
        &fixed.original
    };
    let lines = LineIndex::new(text);
    let mut applied: Vec<(usize, &Applied)> = fixed
        .applied
        .iter()
        .map(|a| {
            let at = if written {
                fixed.segments.to_current(a.offset)
            } else {
                a.offset
            };
            (at, a)
        })
        .collect();
    applied.sort_by_key(|(at, a)| (*at, a.code));
    for (at, a) in applied {
        let position = lines.position(text, at);
        writeln!(
            out,
            "{}:{}:{}: {verb} {} ({}): {}",
            file.display,
            position.line,
            position.char_col,
            a.code,
            a.applicability.as_str(),
            a.message
        )?;
    }
    Ok(())
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}
