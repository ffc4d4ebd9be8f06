//! Which rules run, and how severe their findings are.

use hotfix_diagnostics::Severity;

use crate::registry::Selector;
use crate::rule::Rule;

/// Rule selection for one file, already resolved from the command line and the configuration.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Rules to run (codes, code prefixes, names, or `ALL`); empty means all.
    pub select: Vec<Selector>,
    /// Rules not to run; wins over `select` when it is at least as specific.
    pub ignore: Vec<Selector>,
    /// Severity overrides, most specific first wins.
    pub severities: Vec<(Selector, Severity)>,
}

impl Settings {
    /// Whether a rule runs: the most specific matching selector decides (ruff's rule); with no
    /// `select`, every rule is selected.
    pub fn enabled(&self, rule: &Rule) -> bool {
        let selected = if self.select.is_empty() {
            Some(0)
        } else {
            self.select
                .iter()
                .filter(|s| s.matches(rule))
                .map(Selector::specificity)
                .max()
        };
        let ignored = self
            .ignore
            .iter()
            .filter(|s| s.matches(rule))
            .map(Selector::specificity)
            .max();
        match (selected, ignored) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(selected), Some(ignored)) => selected > ignored,
        }
    }

    /// The rule's severity after overrides.
    pub fn severity(&self, rule: &Rule) -> Severity {
        self.severities
            .iter()
            .filter(|(s, _)| s.matches(rule))
            .max_by_key(|(s, _)| s.specificity())
            .map_or(rule.severity, |(_, severity)| *severity)
    }
}
