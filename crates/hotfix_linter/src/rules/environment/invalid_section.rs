use hotfix_yaml::{NodeKind, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{a_type, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that each section of an environment file has a value of the shape Heat reads:
    /// not empty (a section whose entries are all commented out is null), and a mapping for
    /// `parameters`, `parameter_defaults` and `resource_registry`.
    ///
    /// ## Why is this bad?
    /// Heat's engine refuses an empty section: `environment has empty section
    /// "parameter_defaults"`. A list or a scalar where a mapping belongs fails inside Heat
    /// (`'list' object has no attribute 'items'` for parameters, `'list' object has no
    /// attribute 'get'` for the registry, in the client), with no word of where.
    ///
    /// ## Example
    /// ```yaml
    /// parameter_defaults:
    /// #  NtpServer: pool.ntp.org
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// parameter_defaults: {}
    /// #  NtpServer: pool.ntp.org
    /// ```
    pub(crate) static RULE = {
        code: "E003",
        name: "invalid-environment-section",
        severity: Error,
        fix: None,
        scope: Environment,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(env) = cx.environment else {
        return;
    };
    for section in &env.sections {
        let value = cx.doc.resolve(section.value);
        let name = section.name.as_str();
        match &cx.doc.node(value).kind {
            NodeKind::Scalar(s) if s.value == ScalarValue::Null => {
                sink.report(
                    cx.span(section.key),
                    format!("`{name}` is empty"),
                )
                .help(format!(
                    "give it `{{}}`, or remove it; Heat: `environment has empty section \"{name}\"`"
                ));
            }
            NodeKind::Mapping { .. } => {}
            _ => {
                let attribute = match name {
                    "parameters" | "parameter_defaults" => "items",
                    "resource_registry" => "get",
                    _ => continue,
                };
                let kind = python_type(cx.doc, value);
                sink.report(
                    cx.span(section.value),
                    format!("`{name}` must be a mapping, not {}", a_type(kind)),
                )
                .help(format!(
                    "Heat fails with `'{kind}' object has no attribute '{attribute}'`"
                ));
            }
        }
    }
}
