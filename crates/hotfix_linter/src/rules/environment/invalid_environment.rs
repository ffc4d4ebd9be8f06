use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports an environment file that Heat cannot load at all: invalid YAML or JSON (with the
    /// position of the problem), a value PyYAML cannot construct, a top level that is not a
    /// mapping, a binary or non-UTF-8 file, or an alias bomb. An empty file is an empty
    /// environment, which Heat accepts.
    ///
    /// ## Why is this bad?
    /// Heat rejects the environment before looking at its contents (`The environment is not a
    /// valid YAML mapping data type.`, or the YAML error), so no stack using it can be created.
    ///
    /// ## Example
    /// ```yaml
    /// - parameter_defaults
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// parameter_defaults: {}
    /// ```
    pub(crate) static INVALID_ENVIRONMENT = {
        code: "E001",
        name: "invalid-environment",
        severity: Error,
        fix: None,
        scope: Environment,
        check: check,
    };
}

/// Reported by the checker when loading fails; a loaded document has nothing to report.
fn check(_cx: &Context<'_>, _sink: &mut Sink<'_>) {}
