//! The generated rule reference (`rules/` at the repository root).

use std::fmt::Write as _;

use crate::registry::all_rules;
use crate::rule::Rule;
use crate::upgrade::{UpgradeRule, all_upgrade_rules};

/// Where a rule's page lives, relative to the repository root.
pub fn rule_page_path(rule: &Rule) -> String {
    format!("rules/{}-{}.md", rule.code, rule.name)
}

/// One rule's page.
pub fn rule_page(rule: &Rule) -> String {
    let mut page = format!("# {} `{}`\n\n", rule.code, rule.name);
    let _ = writeln!(
        page,
        "Default severity: **{}**. Fix: {}.\n",
        rule.severity.as_str(),
        rule.fix.as_str()
    );
    if !rule.default {
        let _ = writeln!(
            page,
            "Not in the default set: select it with `--extend-select {}` (or `extend-select` in \
             `hotfix.toml`).\n",
            rule.code
        );
    }
    page.push_str(rule.documentation().trim());
    page.push('\n');
    page
}

/// A rule's default severity, and `(opt-in)` for a rule outside the default set.
pub fn severity_cell(rule: &Rule) -> String {
    if rule.default {
        rule.severity.as_str().to_owned()
    } else {
        format!("{} (opt-in)", rule.severity.as_str())
    }
}

/// Where an upgrade rule's page lives, relative to the repository root.
pub fn upgrade_rule_page_path(rule: &UpgradeRule) -> String {
    format!("rules/{}-{}.md", rule.code, rule.name)
}

/// The version step an upgrade rule belongs to, in words.
pub fn upgrade_step(rule: &UpgradeRule) -> String {
    match rule.step {
        Some((from, to)) => format!("{from} → {to}"),
        None => "every step".to_owned(),
    }
}

/// One upgrade rule's page.
pub fn upgrade_rule_page(rule: &UpgradeRule) -> String {
    let mut page = format!(
        "# {} `{}` (upgrade)

",
        rule.code, rule.name
    );
    let kind = match rule.severity {
        hotfix_diagnostics::Severity::Error => "Must be rewritten: the step is blocked otherwise",
        _ => "Reports a change of meaning",
    };
    let _ = writeln!(page, "Step: **{}**. {kind}.\n", upgrade_step(rule));
    page.push_str(rule.documentation().trim());
    page.push('\n');
    page
}

/// The first sentence of an upgrade rule's "What it does".
pub fn upgrade_rule_summary(rule: &UpgradeRule) -> String {
    rule.summary()
}

/// The index page, a table of every rule.
pub fn index_page() -> String {
    let mut page = String::from(
        "# Rule reference\n\n<!-- Generated from the rules' doc comments by `HOTFIX_UPDATE_DOCS=1 cargo test -p hotfix_linter --test rules`; do not edit. -->\n\n| code | name | severity | fix | what it does |\n| --- | --- | --- | --- | --- |\n",
    );
    for rule in all_rules() {
        let _ = writeln!(
            page,
            "| [{}]({}-{}.md) | `{}` | {} | {} | {} |",
            rule.code,
            rule.code,
            rule.name,
            rule.name,
            severity_cell(rule),
            rule.fix.as_str(),
            rule.summary().replace('|', "\\|")
        );
    }
    page.push_str(
        "\n## Upgrade rules\n\nWhat `hotfix upgrade` rewrites, blocks on, or warns about, step by step.\n\n| code | name | step | what it does |\n| --- | --- | --- | --- |\n",
    );
    for rule in all_upgrade_rules() {
        let _ = writeln!(
            page,
            "| [{}]({}-{}.md) | `{}` | {} | {} |",
            rule.code,
            rule.code,
            rule.name,
            rule.name,
            upgrade_step(rule),
            upgrade_rule_summary(rule).replace('|', "\\|")
        );
    }
    page
}

/// Every generated file: `(path relative to the repository root, content)`.
pub fn generated_files() -> Vec<(String, String)> {
    let mut files = vec![("rules/README.md".to_owned(), index_page())];
    for rule in all_rules() {
        files.push((rule_page_path(rule), rule_page(rule)));
    }
    for rule in all_upgrade_rules() {
        files.push((upgrade_rule_page_path(rule), upgrade_rule_page(rule)));
    }
    files
}

/// The YAML (or K2HR3) blocks of a rule's "## Example" and "Use instead:" sections.
pub fn doc_examples(rule: &Rule) -> (Option<String>, Option<String>) {
    examples_of(&rule.documentation())
}

/// The YAML blocks of an upgrade rule's "## Example" and "Use instead:" sections.
pub fn upgrade_doc_examples(rule: &UpgradeRule) -> (Option<String>, Option<String>) {
    examples_of(&rule.documentation())
}

fn examples_of(doc: &str) -> (Option<String>, Option<String>) {
    let block_after = |marker: &str| -> Option<String> {
        let rest = &doc[doc.find(marker)? + marker.len()..];
        // A YAML block, or a K2HR3 template for the `K` rules.
        let start = ["```yaml\n", "```k2hr3\n"]
            .iter()
            .filter_map(|fence| rest.find(fence).map(|at| at + fence.len()))
            .min()?;
        let end = rest[start..].find("```")?;
        Some(rest[start..start + end].to_owned())
    };
    (block_after("## Example"), block_after("Use instead:"))
}
