use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::key_name;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    NEWTON, esc, mapping_resources, registered, replace_scalar, version_label,
};
use crate::rules::util::{did_you_mean, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that every key of a resource definition is one the declared version accepts:
    /// `type`, `properties`, `metadata`, `depends_on`, `deletion_policy`, `update_policy`,
    /// `description`, and from 2016-10-14 (newton) `external_id` and `condition`.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template. It checks resource keys twice, with different texts: a key
    /// no version knows (a typo) gives `"propertes" is not a valid keyword inside a resource
    /// definition`; a key of a later version (`condition`, `external_id` before 2016-10-14),
    /// and `value`, which only outputs have, give `Invalid keyword(s) inside a resource
    /// definition: condition`.
    ///
    /// ## Fix safety
    /// The fix renames the key to the resource key it most likely misspells (`propertes` →
    /// `properties`). It is unsafe: Heat refused the template, and with the fix it reads the
    /// key: the properties are validated and given to the resource, a `depends_on` orders it,
    /// a `deletion_policy` decides what a delete keeps. If another key was meant, the resource
    /// gets what the author did not write.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     propertes: {size: 1}
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
        code: "H603",
        name: "unknown-resource-key",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

/// Every key Heat's first check allows, in every version: `_RESOURCE_HOT_TO_CFN_ATTRS`, a
/// dict shared by all versions and extended at import with `value`, `external_id` and
/// `condition`.
const FIRST_CHECK_KEYS: [&str; 10] = [
    "type",
    "properties",
    "metadata",
    "depends_on",
    "deletion_policy",
    "update_policy",
    "description",
    "value",
    "external_id",
    "condition",
];

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    let keys = version.resource_keys();
    for resource in mapping_resources(cx) {
        let entries = doc.entries(resource.value);
        for entry in &entries {
            let text = doc.str_value(entry.key);
            if text.is_some_and(|t| keys.contains(&t)) {
                continue;
            }
            let name = esc(&key_name(doc, entry.key)).into_owned();
            let span = cx.span(entry.key);
            match text {
                Some("value") => {
                    sink.report(span, "`value` is not a resource key")
                        .help("only outputs have a `value`; pass values to a resource in its `properties`; Heat: `Invalid keyword(s) inside a resource definition: value`");
                }
                Some(later) if FIRST_CHECK_KEYS.contains(&later) => {
                    sink.report(
                        span,
                        format!("`{later}` is not a resource key in {version}"),
                    )
                    .help(format!(
                        "`{later}` needs heat_template_version {} or later; Heat: `Invalid keyword(s) inside a resource definition: {later}`",
                        version_label(NEWTON)
                    ));
                }
                _ => {
                    let heat = format!(
                        "Heat: `\"{name}\" is not a valid keyword inside a resource definition`"
                    );
                    let diagnostic = sink.report(
                        span,
                        format!("{} is not a valid resource key", shown(&name)),
                    );
                    if text.is_none() {
                        diagnostic.help(format!(
                            "this key loads as a {}, not a string (YAML 1.1 reads `on`, `yes`, `no` as booleans); {heat}",
                            python_type(doc, entry.key)
                        ));
                        continue;
                    }
                    if let Some(suggestion) = did_you_mean(&name, keys.iter().copied()) {
                        diagnostic.help(format!("did you mean `{suggestion}`? {heat}"));
                        let taken = doc.get(resource.value, suggestion).is_some();
                        let edit = replace_scalar(cx, entry.key, suggestion);
                        if let (false, Some(edit)) = (taken, edit) {
                            diagnostic.fix(Fix {
                                message: format!("Rename `{name}` to `{suggestion}`"),
                                edits: vec![edit],
                                applicability: Applicability::Unsafe,
                            });
                        }
                    } else if let Some(type_name) = registered(cx, resource)
                        .filter(|r| r.schema.properties.contains_key(name.as_str()))
                        .map(|r| r.type_name)
                    {
                        diagnostic.help(format!(
                            "`{name}` is a property of {type_name}: move it under `properties`; {heat}"
                        ));
                    } else if let Some(later) = did_you_mean(&name, ["external_id", "condition"]) {
                        // `conditon` before newton: the key it misspells is newer still.
                        diagnostic.help(format!(
                            "did you mean `{later}`? It needs heat_template_version {} or later; {heat}",
                            version_label(NEWTON)
                        ));
                    } else {
                        diagnostic.help(format!(
                            "valid keys in {version}: {}; {heat}",
                            keys.join(", ")
                        ));
                    }
                }
            }
        }
    }
}

/// A key for a message: in backticks, or "the empty key".
fn shown(name: &str) -> String {
    if name.is_empty() {
        "the empty key".to_owned()
    } else {
        format!("`{name}`")
    }
}
