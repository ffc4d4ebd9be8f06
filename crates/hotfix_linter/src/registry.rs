//! Every rule, once, sorted by code; and how users name them.

use crate::rule::{Rule, Selector};
use crate::rules;

/// All rules, sorted by code. Codes are never reused; a renamed rule keeps its code.
pub fn all_rules() -> &'static [&'static Rule] {
    rules::REGISTRY.as_slice()
}

/// The rule with exactly this code (`H301`) or name (`undefined-parameter`).
pub fn rule_by_code(code: &str) -> Option<&'static Rule> {
    all_rules()
        .iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code) || r.name == code)
}

/// The rule code or name (of a lint or an upgrade rule) that a misspelt one most likely meant:
/// `undefined-paramter` -> `undefined-parameter`, `H3011` -> `H301`.
pub fn suggest_rule(text: &str) -> Option<&'static str> {
    let text = text.trim();
    let upgrades = crate::upgrade::all_upgrade_rules();
    let candidates = all_rules()
        .iter()
        .flat_map(|r| [r.code, r.name])
        .chain(upgrades.iter().flat_map(|r| [r.code, r.name]));
    hotfix_hot::suggest::did_you_mean(text, candidates)
}

/// The rules a selector names.
pub fn rule_by_selector(selector: &Selector) -> Vec<&'static Rule> {
    all_rules()
        .iter()
        .copied()
        .filter(|r| selector.matches(r))
        .collect()
}

impl Selector {
    /// Parses a selector; `None` when it names no rule at all.
    pub fn parse(text: &str) -> Option<Selector> {
        let text = text.trim();
        let selector = if text.eq_ignore_ascii_case("ALL") {
            Selector::All
        } else if text.starts_with(['H', 'h', 'C', 'c', 'E', 'e', 'K', 'k', 'X', 'x'])
            && text[1..].bytes().all(|b| b.is_ascii_digit())
        {
            Selector::Prefix(text.to_ascii_uppercase())
        } else {
            Selector::Name(text.to_owned())
        };
        all_rules()
            .iter()
            .any(|r| selector.matches(r))
            .then_some(selector)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_are_unique_and_sorted() {
        let rules = all_rules();
        for pair in rules.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{:?} before {:?}",
                pair[0],
                pair[1]
            );
        }
        let mut names: Vec<_> = rules.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), rules.len(), "rule names repeat");
        for rule in rules {
            assert!(
                rule.code.len() == 4
                    && rule.code.starts_with(['H', 'C', 'E', 'K', 'X'])
                    && (rule.code.starts_with('E')
                        == (rule.scope == crate::rule::Scope::Environment))
                    && (rule.code.starts_with('C')
                        == (rule.scope == crate::rule::Scope::Blueprint)),
                "{rule:?}"
            );
            assert!(
                rule.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{rule:?} is not kebab-case"
            );
            let doc = rule.documentation();
            for heading in [
                "## What it does",
                "## Why is this bad?",
                "## Example",
                "Use instead:",
            ] {
                assert!(doc.contains(heading), "{rule:?} docs lack {heading:?}");
            }
        }
    }
}
