use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports a file that Heat cannot load as a template at all: invalid YAML (with the
    /// position of the problem), a value PyYAML cannot construct, an empty document, a top
    /// level that is not a mapping, a template over Heat's 524,288-character limit, a binary
    /// or non-UTF-8 file, or an alias bomb.
    ///
    /// ## Why is this bad?
    /// Heat rejects the template before looking at its contents, with messages such as
    /// `The template is not a JSON object or YAML mapping.` or `Error parsing template`;
    /// nothing else in the file can be checked either.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources: [
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources: {}
    /// ```
    pub(crate) static INVALID_TEMPLATE = {
        code: "H001",
        name: "invalid-template",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// Reported by the checker when loading fails; a loaded document has nothing to report.
fn check(_cx: &Context<'_>, _sink: &mut Sink<'_>) {}
