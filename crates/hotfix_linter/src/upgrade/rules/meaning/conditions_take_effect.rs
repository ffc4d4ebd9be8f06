use hotfix_diagnostics::Severity;
use hotfix_hot::Version;

use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Reports a `conditions` section, and a resource's `condition` key, when leaving
    /// 2016-04-08: up to 2016-04-08 Heat refuses the template for either (`The template section
    /// is invalid: conditions`, `Invalid keyword(s) inside a resource definition: condition`);
    /// from 2016-10-14 it evaluates the conditions and creates a resource only when its
    /// condition is true.
    ///
    /// ## Why is this bad?
    /// The upgrade keeps the text and turns a template Heat refused into one it runs, with
    /// conditional resources no version of the template ever had: a `condition: false` written
    /// as a placeholder, or a condition on the wrong resource, silently leaves the resource
    /// out of the stack. Heat's engine shows it: `{type: OS::Heat::None, condition: false}` is
    /// refused at 2016-04-08 and, at 2016-10-14, accepted and never created.
    ///
    /// The finding is an error: it blocks the step, and the template stays at the version it
    /// declares. Read each condition; when they say what you mean, upgrade with
    /// `--unsafe-fixes`, which takes the step and reports each finding as a warning. There is
    /// no rewrite: removing the conditions would drop what the author wrote, keeping them is
    /// the change itself. An output's `condition` is `output-condition-honoured`'s (U501):
    /// 2016-04-08 ignores it rather than refusing it.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-04-08
    /// resources:
    ///   debug_server:
    ///     type: OS::Heat::None
    ///     condition: false
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   debug_server:
    ///     type: OS::Heat::None
    ///     condition: false
    /// ```
    pub(crate) static RULE = {
        code: "U502",
        name: "conditions-take-effect",
        step: Some((Version::V2016_04_08, Version::V2016_10_14)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    let (from, to) = (ucx.from, ucx.to);
    let mut report = |key, message: String, meaning: &str| {
        let diagnostic = sink.report(cx.span(key), message);
        if ucx.unsafe_fixes {
            diagnostic.severity = Severity::Warning;
            diagnostic.help(format!(
                "taken with --unsafe-fixes: {meaning}; check that this is what you mean"
            ));
        } else {
            diagnostic.help(format!(
                "{meaning}; read it, then upgrade with --unsafe-fixes to keep it, or remove it"
            ));
        }
    };
    if let Some(section) = cx.template.section("conditions") {
        report(
            section.key,
            format!(
                "`conditions`: Heat {from} refuses the section (`The template section is invalid: \
                 conditions`); from {to} it evaluates it"
            ),
            "the resources and outputs that name these conditions become conditional",
        );
    }
    for resource in &cx.template.resources {
        if !cx.template.is_mapping(resource.value) {
            continue;
        }
        let Some(key) = doc.get_key(doc.resolve(resource.value), "condition") else {
            continue;
        };
        report(
            key,
            format!(
                "resource `{}`: Heat {from} refuses its `condition` (`Invalid keyword(s) inside a \
                 resource definition: condition`); from {to} it creates the resource only when \
                 the condition is true",
                resource.name
            ),
            "the resource becomes conditional",
        );
    }
}
