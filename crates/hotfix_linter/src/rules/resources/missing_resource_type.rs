use hotfix_yaml::ScalarValue;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::span_or;
use crate::rules::util::{did_you_mean, is_mapping, is_null};

declare_rule! {
    /// ## What it does
    /// Checks that every resource has a `type`, and that it is not empty.
    ///
    /// ## Why is this bad?
    /// Heat cannot create a resource without knowing its type, and refuses the template:
    /// `Each resource must contain a type key.` (also for an empty definition such as
    /// `server:`). An empty or null `type` gives `Each Resource must contain a Type key.`
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   volume:
    ///     properties: {size: 1}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties: {size: 1}
    /// ```
    pub(crate) static RULE = {
        code: "H602",
        name: "missing-resource-type",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for resource in &cx.template.resources {
        if is_null(doc, resource.value) {
            sink.report(
                cx.span(resource.key),
                format!("resource `{}` is empty: it has no `type`", resource.name),
            )
            .help("give it a `type`, e.g. `type: OS::Heat::None`; Heat: `Each resource must contain a type key.`");
            continue;
        }
        if !is_mapping(doc, resource.value) {
            continue;
        }
        let Some(ty) = cx.template.field(resource, "type") else {
            // A misspelt `type` (`Type`, `typ`) is `unknown-resource-key`'s, with a fix.
            let misspelt = doc.entries(resource.value).iter().any(|e| {
                doc.str_value(e.key)
                    .is_some_and(|k| did_you_mean(k, ["type"]).is_some())
            });
            if misspelt {
                continue;
            }
            sink.report(
                cx.span(resource.key),
                format!("resource `{}` has no `type`", resource.name),
            )
            .help("add a `type`, e.g. `type: OS::Heat::None`; Heat: `Each resource must contain a type key.`");
            continue;
        };
        let empty = doc.scalar(ty).is_some_and(|s| match s.value {
            ScalarValue::Null => true,
            ScalarValue::Str => s.text.is_empty(),
            _ => false,
        });
        if empty {
            let key = doc.get_key(resource.value, "type").unwrap_or(resource.key);
            sink.report(
                span_or(cx, ty, key),
                format!("resource `{}` has an empty `type`", resource.name),
            )
            .help("name the resource type, e.g. `type: OS::Heat::None`; Heat: `Each Resource must contain a Type key.`");
        }
    }
}
