//! hotfix's rules and the checker that runs them.
//!
//! [`lint`] takes a file's bytes and returns every finding, sorted: load failures (as Heat
//! would report them), then what the enabled rules find, less what inline comments suppress.

pub mod docs;
pub mod fix;
mod k2hr3;
mod registry;
mod rule;
mod rules;
mod settings;
mod suppression;
pub mod upgrade;

use hotfix_diagnostics::{Applicability, Diagnostic, Span};
use hotfix_hot::{Semantic, Template};
use rule::{in_order, run_rule};

pub use fix::{FixError, FixOutcome, fix_file, fix_file_with_files};
pub use k2hr3::lint as lint_k2hr3;
pub use registry::{all_rules, rule_by_code, rule_by_selector, suggest_rule};
pub use rule::{Context, Files, FixAvailability, Rule, Scope, Selector, Sink};
pub use rules::crossfile::heat_has as heat_has_type;
pub use rules::k2hr3::is_k2hr3;
pub use rules::util::did_you_mean;
pub use settings::Settings;

/// The code of the finding reported when a file cannot be loaded at all.
pub const LOAD_ERROR: &str = "H001";

/// The finding for a file Heat cannot load at all (`H001`), when that rule is enabled.
pub fn load_failure(err: hotfix_yaml::LoadError, settings: &Settings) -> Vec<Diagnostic> {
    if !settings.enabled(&rules::load::INVALID_TEMPLATE) {
        return Vec::new();
    }
    let span = err.span.unwrap_or(Span::new(0, 0));
    let mut diagnostic = Diagnostic::new(
        rules::load::INVALID_TEMPLATE.code,
        rules::load::INVALID_TEMPLATE.name,
        settings.severity(&rules::load::INVALID_TEMPLATE),
        err.message,
        span,
    );
    diagnostic.help("Heat rejects this file before looking at its contents");
    vec![diagnostic]
}

/// Lints one file: its bytes as read from disk. A K2HR3 template (one that starts with an
/// engine header `{{#!…}}`) gets the `K` rules ([`lint_k2hr3`]).
pub fn lint(path: &str, bytes: &[u8], settings: &Settings) -> Vec<Diagnostic> {
    lint_with_files(path, bytes, settings, None)
}

/// Lints one template; with `files`, the checks that read other files (nested templates,
/// `get_file` targets) run too.
pub fn lint_with_files(
    path: &str,
    bytes: &[u8],
    settings: &Settings,
    files: Option<&Files<'_>>,
) -> Vec<Diagnostic> {
    if is_k2hr3(bytes)
        && let Ok(text) = hotfix_yaml::check_bytes(bytes)
    {
        return lint_k2hr3(text, settings);
    }
    let loaded = hotfix_yaml::check_bytes(bytes).and_then(hotfix_yaml::parse);
    match loaded {
        Ok(doc) => lint_document(path, &doc, settings, files),
        Err(err) => {
            let mut diagnostics = load_failure(err, settings);
            let text = String::from_utf8_lossy(bytes);
            if text.contains("tosca_definitions_version") && text.contains("cloudify_dsl_") {
                for diagnostic in &mut diagnostics {
                    diagnostic
                        .help("Cloudify rejects this blueprint before looking at its contents");
                }
            }
            diagnostics
        }
    }
}

/// The code of the finding reported when an environment file cannot be loaded at all.
pub const ENVIRONMENT_LOAD_ERROR: &str = "E001";

/// Lints one environment file: its bytes as read from disk. With `files`, the checks that look
/// at other files (a `resource_registry` target that does not exist) run too.
pub fn lint_environment(
    path: &str,
    bytes: &[u8],
    settings: &Settings,
    files: Option<&Files<'_>>,
) -> Vec<Diagnostic> {
    let loaded = hotfix_yaml::check_bytes(bytes).and_then(hotfix_yaml::parse_environment);
    let doc = match loaded {
        Ok(Some(doc)) => doc,
        // An empty file is an empty environment, which Heat accepts.
        Ok(None) => return Vec::new(),
        Err(err) => return rules::environment::load_failure(err, settings),
    };
    let template = Template::new(&doc);
    let semantic = Semantic::default();
    let environment = hotfix_hot::environment::Environment::new(&doc);
    let cx = Context {
        environment: Some(&environment),
        files,
        ..Context::new(path, &doc, &template, &semantic)
    };
    let mut diagnostics = Vec::new();
    for rule in all_rules() {
        let rule::Check::Hot(check) = rule.check else {
            continue;
        };
        if !rule.scope.environments() || !settings.enabled(rule) {
            continue;
        }
        run_rule(rule, settings.severity(rule), &mut diagnostics, |sink| {
            check(&cx, sink);
        });
    }
    let mut diagnostics = suppression::apply(&doc, diagnostics, settings);
    in_order(&mut diagnostics);
    diagnostics
}

/// Lints a loaded file: what the enabled rules find, less what inline comments suppress
/// ([`lint_with_files`] once the bytes are loaded; a front end that loaded them already gives
/// the document).
pub fn lint_document(
    path: &str,
    doc: &hotfix_yaml::Document,
    settings: &Settings,
    files: Option<&Files<'_>>,
) -> Vec<Diagnostic> {
    if let Some(blueprint) = hotfix_blueprint::Blueprint::new(doc) {
        return lint_blueprint(&blueprint, settings);
    }
    let mut template = Template::new(doc);
    // Other templates may name this one as a nested template: its facts, from the document
    // already loaded (and its template as read, before any version is assumed below), spare
    // the source a second load.
    let facts = files
        .filter(|files| files.source.keeps_facts())
        .map(|files| {
            let facts = std::sync::Arc::new(hotfix_stack::FileFacts::of_template(doc, &template));
            files.source.remember(files.path, facts.clone());
            facts
        });
    // A misspelt version with one clear correction: H102 reports it, and the rest of the
    // template is linted as that version instead of not at all (H102 says so).
    if settings.enabled(&rules::template::INVALID_VERSION)
        && let Some(version) = rules::template::assumed_version(&template)
    {
        template.assume_version(version);
    }
    let semantic = Semantic::new(&template);
    let cx = Context {
        heat_release: settings.heat_release,
        files,
        ..Context::new(path, doc, &template, &semantic)
    };
    if let Some(facts) = facts {
        // The same walk the cross-file rules would make.
        let _ = cx.links.set(facts.links.clone());
    }
    let mut diagnostics = Vec::new();
    for rule in all_rules() {
        let rule::Check::Hot(check) = rule.check else {
            continue;
        };
        if !rule.scope.templates() || !settings.enabled(rule) {
            continue;
        }
        run_rule(rule, settings.severity(rule), &mut diagnostics, |sink| {
            check(&cx, sink);
        });
    }
    if template.version_assumed().is_some() {
        // Fixes computed for a version the template does not declare: the user opts in.
        for diagnostic in &mut diagnostics {
            if diagnostic.code == rules::template::INVALID_VERSION.code {
                continue;
            }
            if let Some(fix) = diagnostic.fix.as_mut()
                && fix.applicability == Applicability::Safe
            {
                fix.applicability = Applicability::Unsafe;
            }
        }
    }
    let mut diagnostics = suppression::apply(doc, diagnostics, settings);
    in_order(&mut diagnostics);
    diagnostics
}

/// Lints a blueprint: what the enabled blueprint rules find, less what inline comments
/// suppress.
fn lint_blueprint(
    blueprint: &hotfix_blueprint::Blueprint<'_>,
    settings: &Settings,
) -> Vec<Diagnostic> {
    let cx = rule::BlueprintContext {
        doc: blueprint.doc,
        blueprint,
        imported: settings.blueprint_imports.as_deref(),
    };
    let mut diagnostics = Vec::new();
    for rule in crate::all_rules() {
        let rule::Check::Blueprint(check) = rule.check else {
            continue;
        };
        if !settings.enabled(rule) {
            continue;
        }
        run_rule(rule, settings.severity(rule), &mut diagnostics, |sink| {
            check(&cx, sink);
        });
    }
    let mut diagnostics = suppression::apply(blueprint.doc, diagnostics, settings);
    in_order(&mut diagnostics);
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes `lint` reports for `text`, a template.
    fn codes(text: &str) -> Vec<String> {
        lint("t.yaml", text.as_bytes(), &Settings::default())
            .into_iter()
            .map(|d| d.code.to_string())
            .collect()
    }

    /// A template of `hostile` parameters whose pattern backtracks for long on their default
    /// (Python's `re` too), then one whose default breaks a plain pattern.
    fn template(hostile: usize) -> String {
        let mut text = String::from("heat_template_version: 2018-08-31\nparameters:\n");
        let default = "a".repeat(40);
        for i in 0..hostile {
            text.push_str(&["  p", &i.to_string(), ":\n    type: string\n"].concat());
            text.push_str(&["    default: ", &default, "!\n"].concat());
            text.push_str("    constraints: [{allowed_pattern: '(a+)+$'}]\n");
        }
        text.push_str(
            "  last:\n    type: string\n    default: B\n    constraints: [{allowed_pattern: '[a-z]+'}]\nresources: {}\n",
        );
        text
    }

    /// `default-violates-constraint`'s patterns (its own test, here: a rule's file imports no
    /// more than what a rule is).
    #[test]
    fn the_patterns_of_a_template_share_one_budget_of_steps() {
        let code = all_rules()
            .iter()
            .find(|rule| rule.name == "default-violates-constraint")
            .expect("a rule")
            .code;
        // Within the budget, the plain pattern's failure is found.
        assert!(codes(&template(3)).iter().any(|c| c == code));
        // Past it (as many backtracking patterns as the budget has matches), it is not looked
        // for: the lint of thousands of such parameters ends, and guesses nothing.
        let spent = hotfix_eval::regex::FILE_STEPS / hotfix_eval::regex::MAX_STEPS;
        assert!(!codes(&template(spent)).iter().any(|c| c == code));
    }
}
