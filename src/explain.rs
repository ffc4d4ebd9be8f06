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
            for r in all_rules() {
                writeln!(
                    out,
                    "{}  {:<36} {:<8} {}{}",
                    r.code,
                    r.name,
                    r.severity.as_str(),
                    if r.default { "" } else { "(opt-in) " },
                    r.summary()
                )?;
            }
            writeln!(out, "\nupgrade rules (hotfix upgrade):")?;
            for r in hotfix_linter::upgrade::all_upgrade_rules() {
                writeln!(
                    out,
                    "{}  {:<36} {:<8} {}",
                    r.code,
                    r.name,
                    hotfix_linter::docs::upgrade_step(r),
                    hotfix_linter::docs::upgrade_rule_summary(r)
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
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
                did_you_mean_rule(&args.code)
            )
        })?;
    write!(out, "{}", hotfix_linter::docs::upgrade_rule_page(upgrade))?;
    Ok(ExitCode::SUCCESS)
}

/// "`TEXT` is not a hotfix rule code, prefix or name", with the rule it most likely meant.
pub(crate) fn unknown_rule(text: &str) -> String {
    format!(
        "`{text}` is not a hotfix rule code, prefix or name{}",
        did_you_mean_rule(text)
    )
}

/// `; did you mean `CODE`?` for a misspelt rule code or name, else nothing.
pub(crate) fn did_you_mean_rule(text: &str) -> String {
    hotfix_linter::suggest_rule(text)
        .map(|rule| format!("; did you mean `{rule}`?"))
        .unwrap_or_default()
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
            for (v, added, removed) in &rows {
                let name = v.name().unwrap_or("");
                writeln!(
                    out,
                    "{}  {:<8} {:<9} functions: {}",
                    v.date(),
                    name,
                    v.release(),
                    v.functions().len()
                )?;
                if !added.is_empty() {
                    writeln!(out, "    + {}", added.join(", "))?;
                }
                if !removed.is_empty() {
                    writeln!(out, "    - {} (now an error)", removed.join(", "))?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
