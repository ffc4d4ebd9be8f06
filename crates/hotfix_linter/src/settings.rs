//! Which rules run, and how severe their findings are.

use hotfix_diagnostics::Severity;
use hotfix_hot::heat_release::HeatRelease;

use crate::rule::Rule;
use crate::rule::Selector;

/// Rule selection and what the rules assume, for one file, already resolved from the command line
/// and the configuration.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Rules to run (codes, code prefixes, names, or `ALL`); empty means the default set.
    pub select: Vec<Selector>,
    /// Rules to run besides those `select` (or the default set) names.
    pub extend_select: Vec<Selector>,
    /// Rules not to run; wins over `select` when it is at least as specific.
    pub ignore: Vec<Selector>,
    /// Severity overrides, most specific first wins.
    pub severities: Vec<(Selector, Severity)>,
    /// The OpenStack release whose Heat the templates are deployed to (`heat-release`), for
    /// `unavailable-in-release`; none: no release is assumed.
    pub heat_release: Option<HeatRelease>,
    /// What a Cloudify blueprint's local imports declare, read by the caller (the library reads
    /// no files); none: the blueprint's local imports are unknown.
    pub blueprint_imports: Option<std::sync::Arc<hotfix_blueprint::Imported>>,
    /// The variables a K2HR3 template is given (the keys of its variables file):
    /// `k2hr3-unset-variable` does not report them.
    pub k2hr3_variables: Vec<String>,
}

impl Settings {
    /// Whether a rule runs: the most specific matching selector decides (ruff's rule); with no
    /// `select`, the rules of the default set are selected (as if by `ALL`).
    pub fn enabled(&self, rule: &Rule) -> bool {
        let base = if self.select.is_empty() {
            rule.default.then_some(0)
        } else {
            most_specific(&self.select, rule)
        };
        let selected = base.max(most_specific(&self.extend_select, rule));
        let ignored = most_specific(&self.ignore, rule);
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

/// The specificity of the most specific selector that matches the rule.
fn most_specific(selectors: &[Selector], rule: &Rule) -> Option<usize> {
    selectors
        .iter()
        .filter(|s| s.matches(rule))
        .map(Selector::specificity)
        .max()
}
