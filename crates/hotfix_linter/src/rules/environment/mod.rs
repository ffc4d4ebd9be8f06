//! `E0xx`: environment files (`-e` of `openstack stack create`), checked on their own as Heat's
//! client (python-heatclient) and engine read them.

use hotfix_diagnostics::{Diagnostic, Span};
use hotfix_yaml::{Document, NodeId};

use crate::rule::Rule;
use crate::rules::py::str_repr;
use crate::settings::Settings;

mod invalid_environment;
mod invalid_event_sink;
mod invalid_merge_strategy;
mod invalid_parameter_value;
mod invalid_registry_entry;
mod invalid_section;
mod missing_registry_target;
mod undeclared_parameter;
mod unknown_parameter_default;
mod unknown_section;

pub(crate) use invalid_environment::INVALID_ENVIRONMENT;

pub(crate) const RULES: &[&Rule] = &[
    &INVALID_ENVIRONMENT,
    &unknown_section::RULE,
    &invalid_section::RULE,
    &invalid_registry_entry::RULE,
    &invalid_merge_strategy::RULE,
    &invalid_event_sink::RULE,
    &missing_registry_target::RULE,
    &undeclared_parameter::RULE,
    &unknown_parameter_default::RULE,
    &invalid_parameter_value::RULE,
];

/// The finding for an environment file Heat cannot load at all (`E001`), when enabled.
pub(crate) fn load_failure(err: hotfix_yaml::LoadError, settings: &Settings) -> Vec<Diagnostic> {
    if !settings.enabled(&INVALID_ENVIRONMENT) {
        return Vec::new();
    }
    let span = err.span.unwrap_or(Span::new(0, 0));
    let mut diagnostic = Diagnostic::new(
        INVALID_ENVIRONMENT.code,
        INVALID_ENVIRONMENT.name,
        settings.severity(&INVALID_ENVIRONMENT),
        err.message,
        span,
    );
    diagnostic.help("Heat rejects this environment before looking at its contents");
    vec![diagnostic]
}

/// How Python's `str()` prints a string, or a list of strings (`['a', 'b']`); `None` for other
/// values, whose text the rules do not quote.
pub(crate) fn python_str(doc: &Document, id: NodeId) -> Option<String> {
    let id = doc.resolve(id);
    if let Some(text) = doc.str_value(id) {
        return Some(text.to_owned());
    }
    let items = doc.items(id)?;
    let mut out = Vec::new();
    for &item in items {
        out.push(str_repr(doc.str_value(item)?));
    }
    Some(format!("[{}]", out.join(", ")))
}

/// A Python tuple of strings as `str()` prints it.
pub(crate) fn python_tuple(items: &[&str]) -> String {
    let inner: Vec<String> = items.iter().map(|s| str_repr(s)).collect();
    format!("({})", inner.join(", "))
}
