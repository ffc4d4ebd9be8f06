//! Linting a K2HR3 template: the enabled `K` rules' checks of it (`rules::k2hr3`), less what
//! its suppression comments name.

use hotfix_diagnostics::Diagnostic;

use crate::rule::Selector;
use crate::rules::k2hr3::{CHECKS, K2hr3Context};
use crate::settings::Settings;

/// Lints a K2HR3 template: what the enabled `K` rules find, less what suppression comments
/// suppress, sorted.
pub fn lint(source: &str, settings: &Settings) -> Vec<Diagnostic> {
    let parsed = hotfix_k2hr3::parse(source);
    let cx = K2hr3Context {
        settings,
        parsed: &parsed,
    };
    let mut diagnostics = Vec::new();
    for (rule, check) in CHECKS {
        if !settings.enabled(rule) {
            continue;
        }
        crate::rule::run_rule(rule, settings.severity(rule), &mut diagnostics, |sink| {
            check(&cx, sink);
        });
    }
    let mut diagnostics = suppress(source, diagnostics);
    crate::rule::in_order(&mut diagnostics);
    diagnostics
}

/// Drops the findings that `{{# hotfix: ignore[…] }}` (its line and the next) or
/// `{{# hotfix: ignore-file[…] }}` names.
fn suppress(source: &str, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let line_of = |offset: usize| source[..offset.min(source.len())].matches('\n').count();
    let mut suppressions: Vec<(Option<usize>, Vec<Selector>)> = Vec::new();
    let mut rest = source;
    let mut base = 0;
    while let Some(at) = rest.find("{{#") {
        let start = base + at;
        let Some(end) = source[start..].find("}}") else {
            break;
        };
        let body = source[start + 3..start + end].trim();
        let (file, list) = if let Some(list) = body.strip_prefix("hotfix: ignore-file[") {
            (true, list)
        } else if let Some(list) = body.strip_prefix("hotfix: ignore[") {
            (false, list)
        } else {
            base = start + end + 2;
            rest = &source[base..];
            continue;
        };
        let selectors = list
            .trim_end_matches(']')
            .split(',')
            .filter_map(Selector::parse)
            .collect();
        suppressions.push(((!file).then(|| line_of(start)), selectors));
        base = start + end + 2;
        rest = &source[base..];
    }
    if suppressions.is_empty() {
        return diagnostics;
    }
    diagnostics
        .into_iter()
        .filter(|d| {
            let line = line_of(d.span.start);
            let Some(rule) = crate::registry::rule_by_code(d.code) else {
                return true;
            };
            !suppressions.iter().any(|(at, selectors)| {
                at.is_none_or(|l| line == l || line == l + 1)
                    && selectors.iter().any(|s| s.matches(rule))
            })
        })
        .collect()
}
