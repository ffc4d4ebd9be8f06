use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports a `# hotfix: ignore[…]` or `# hotfix: ignore-file[…]` comment that suppresses
    /// nothing: the finding it names does not occur on its line or the next (or anywhere in
    /// the file), the code is not a hotfix rule, or the comment is malformed. Environment
    /// files are checked too.
    ///
    /// ## Why is this bad?
    /// A stale suppression hides nothing today but will silently hide a real problem that
    /// appears on that line later, and it misleads readers about what is wrong there.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None  # hotfix: ignore[H602]
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    /// ```
    pub(crate) static UNUSED_SUPPRESSION = {
        code: "H010",
        name: "unused-suppression",
        severity: Warning,
        fix: None,
        scope: Any,
        check: check,
    };
}

/// Reported while suppressions are applied, after every other rule has run.
fn check(_cx: &Context<'_>, _sink: &mut Sink<'_>) {}
