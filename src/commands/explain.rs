//! `hotfix rules`, `hotfix rule CODE`, `hotfix versions`: what hotfix knows, on demand.

use std::io::Write;
use std::process::ExitCode;

use anyhow::anyhow;
use hotfix_hot::{Function, Version};
use hotfix_linter::all_rules;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
}

/// List every rule: code, name, default severity, whether it can fix, what it checks.
#[derive(Debug, clap::Args)]
pub(crate) struct RulesArgs {
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Show a rule's documentation: what it does, why, an example, what to write instead.
#[derive(Debug, clap::Args)]
pub(crate) struct RuleArgs {
    /// A rule code (`H301`) or name (`undefined-parameter`).
    code: String,
}

/// List the HOT versions, oldest first, with the functions each adds and removes.
#[derive(Debug, clap::Args)]
pub(crate) struct VersionsArgs {
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub(crate) fn rules(args: &RulesArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    match args.format {
        Format::Json => {
            let rules: Vec<_> = all_rules()
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "code": r.code,
                        "name": r.name,
                        "severity": r.severity.as_str(),
                        "fix": r.fix.as_str(),
                        "default": r.default,
                        "summary": r.summary(),
                        "documentation": r.documentation().trim(),
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &rules)?;
            writeln!(out)?;
        }
        Format::Text => {
            let width = crate::pipe::term_width();
            for r in all_rules() {
                let head = format!("{}  {:<36} {:<8}", r.code, r.name, r.severity.as_str());
                let opt_in = if r.default { "" } else { "(opt-in) " };
                write_row(out, &head, &format!("{opt_in}{}", r.summary()), width)?;
            }
            writeln!(out, "\nupgrade rules (hotfix upgrade):")?;
            let upgrades = hotfix_linter::upgrade::all_upgrade_rules();
            let steps: Vec<String> = upgrades
                .iter()
                .map(|r| hotfix_linter::docs::upgrade_step(r))
                .collect();
            let step_width = steps.iter().map(|s| s.chars().count()).max().unwrap_or(0);
            for (r, step) in upgrades.iter().zip(&steps) {
                let head = format!("{}  {:<36} {step:<step_width$}", r.code, r.name);
                write_row(
                    out,
                    &head,
                    &hotfix_linter::docs::upgrade_rule_summary(r),
                    width,
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The narrowest summary column worth keeping beside the code, name and severity; below it the
/// summary goes on its own indented lines.
const MIN_SUMMARY_WIDTH: usize = 30;

/// Indentation of a summary on its own lines (a narrow terminal).
const NARROW_INDENT: usize = 6;

/// One row of `hotfix rules`: `head` (code, name, severity), then `summary` wrapped at spaces to
/// `width`, beside the head where it leaves room, else on its own indented lines. A word longer
/// than the line is never broken (a code or a name stays whole, and copyable).
fn write_row(out: &mut impl Write, head: &str, summary: &str, width: usize) -> std::io::Result<()> {
    let column = head.chars().count() + 1;
    if width >= column + MIN_SUMMARY_WIDTH {
        let lines = wrap(summary, width - column);
        let mut lines = lines.iter();
        writeln!(out, "{head} {}", lines.next().map_or("", String::as_str))?;
        for line in lines {
            writeln!(out, "{:column$}{line}", "")?;
        }
    } else {
        // The columns' padding would waste the narrow line: single gaps.
        // (code, name, severity or step), on one line where it fits, else the last indented.
        let head: Vec<&str> = head
            .split("  ")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let line = head.join("  ");
        match head.split_last() {
            Some((last, first)) if line.chars().count() > width => {
                writeln!(out, "{}", first.join("  "))?;
                writeln!(out, "{:NARROW_INDENT$}{last}", "")?;
            }
            _ => writeln!(out, "{line}")?,
        }
        for line in wrap(summary, width.saturating_sub(NARROW_INDENT)) {
            writeln!(out, "{:NARROW_INDENT$}{line}", "")?;
        }
    }
    Ok(())
}

/// `    + a, b, c` under a version of `hotfix versions`, wrapped to `width` below itself.
fn write_list(out: &mut impl Write, sign: &str, list: &str, width: usize) -> std::io::Result<()> {
    const INDENT: usize = 6;
    for (i, line) in wrap(list, width.saturating_sub(INDENT)).iter().enumerate() {
        if i == 0 {
            writeln!(out, "    {sign} {line}")?;
        } else {
            writeln!(out, "{:INDENT$}{line}", "")?;
        }
    }
    Ok(())
}

/// `text` in lines of at most `width` characters, broken at spaces only.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

pub(crate) fn rule(args: &RuleArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    if let Some(rule) = hotfix_linter::rule_by_code(&args.code) {
        write!(out, "{}", hotfix_linter::docs::rule_page(rule))?;
        return Ok(ExitCode::SUCCESS);
    }
    let upgrade = hotfix_linter::upgrade::all_upgrade_rules()
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(&args.code) || r.name == args.code)
        .ok_or_else(|| {
            anyhow!(
                "`{}` is not a hotfix rule{} (see `hotfix rules`)",
                args.code,
                hotfix_workspace::config::did_you_mean_rule(&args.code)
            )
        })?;
    write!(out, "{}", hotfix_linter::docs::upgrade_rule_page(upgrade))?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn versions(args: &VersionsArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let mut rows = Vec::new();
    let mut previous: Option<Version> = None;
    for version in Version::ALL {
        let now: Vec<Function> = version.functions();
        let before: Vec<Function> = previous.map(Version::functions).unwrap_or_default();
        let added: Vec<&str> = now
            .iter()
            .filter(|f| !before.contains(f))
            .map(|f| f.name())
            .collect();
        let removed: Vec<&str> = Function::all()
            .filter(|f| f.removed_in() == Some(version))
            .map(Function::name)
            .collect();
        rows.push((version, added, removed));
        previous = Some(version);
    }
    match args.format {
        Format::Json => {
            let json: Vec<_> = rows
                .iter()
                .map(|(v, added, removed)| {
                    serde_json::json!({
                        "date": v.date(),
                        "name": v.name(),
                        "release": v.release(),
                        "functions": v.functions().iter().map(|f| f.name()).collect::<Vec<_>>(),
                        "condition_functions": v.condition_functions().iter().map(|f| f.name()).collect::<Vec<_>>(),
                        "added": added,
                        "removed": removed,
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &json)?;
            writeln!(out)?;
        }
        Format::Text => {
            let width = crate::pipe::term_width();
            writeln!(
                out,
                "{:<10}  {:<8} {:<9} functions",
                "version", "name", "release"
            )?;
            for (v, added, removed) in &rows {
                let name = v.name().unwrap_or("");
                writeln!(
                    out,
                    "{}  {:<8} {:<9} {}",
                    v.date(),
                    name,
                    v.release(),
                    v.functions().len()
                )?;
                if !added.is_empty() {
                    write_list(out, "+", &added.join(", "), width)?;
                }
                if !removed.is_empty() {
                    write_list(
                        out,
                        "-",
                        &format!("{} (now an error)", removed.join(", ")),
                        width,
                    )?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
