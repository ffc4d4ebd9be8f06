use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::key_name;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::outputs::shared::{
    NEWTON, esc, function_as_definition, mapping_outputs, misspelt_value, replace_scalar,
};
use crate::rules::util::{did_you_mean, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that every key of an output is one the declared version knows: `description`,
    /// `value`, and from 2016-10-14 (newton) `condition`.
    ///
    /// ## Why is this bad?
    /// Heat silently ignores unknown output keys when it creates a stack, so a misspelt
    /// `description` or `condition` is simply lost. When the template is used as a nested or
    /// provider template, Heat refuses it: `"desc" is not a valid keyword inside a output
    /// definition`.
    ///
    /// ## Fix safety
    /// The fix renames the key to the output key it most likely misspells or abbreviates
    /// (`desc` → `description`, `conditon` → `condition`). It is unsafe: Heat ignored the key,
    /// and with the fix it uses it: a `condition` decides whether the output has a value (and
    /// an undefined condition name makes Heat refuse the template), a `description` is shown.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// outputs:
    ///   server_id:
    ///     desc: the server's id
    ///     value: {get_resource: server}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// outputs:
    ///   server_id:
    ///     description: the server's id
    ///     value: {get_resource: server}
    /// ```
    pub(crate) static RULE = {
        code: "H703",
        name: "unknown-output-key",
        severity: Warning,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    let keys = version.output_keys();
    for output in mapping_outputs(cx) {
        let skip = misspelt_value(cx, output).or_else(|| function_as_definition(cx, output));
        for entry in doc.entries(output.value) {
            let text = doc.str_value(entry.key);
            if text.is_some_and(|t| keys.contains(&t)) {
                continue;
            }
            // `condition` before newton is `output-condition-ignored`'s; a misspelt `value`,
            // or a call written in place of the definition, is `output-without-value`'s.
            if (text == Some("condition") && version < NEWTON) || skip == Some(entry.key) {
                continue;
            }
            let name = esc(&key_name(doc, entry.key)).into_owned();
            let heat = format!(
                "As a nested or provider template, Heat refuses it: `\"{name}\" is not a valid keyword inside a output definition`"
            );
            let diagnostic = sink.report(
                cx.span(entry.key),
                format!("{} is not an output key: Heat ignores it", shown(&name)),
            );
            if text.is_none() {
                diagnostic.help(format!(
                    "this key loads as a {}, not a string (YAML 1.1 reads `on`, `yes`, `no` as booleans). {heat}",
                    python_type(doc, entry.key)
                ));
                continue;
            }
            // `desc` → `description`: an abbreviation is as likely as a typo.
            let abbreviation = || {
                keys.iter()
                    .copied()
                    .find(|k| name.len() >= 3 && k.starts_with(name.as_str()))
            };
            match did_you_mean(&name, keys.iter().copied()).or_else(abbreviation) {
                Some(suggestion) => {
                    diagnostic.help(format!("did you mean `{suggestion}`? {heat}"));
                    let taken = doc.get(output.value, suggestion).is_some();
                    if let (false, Some(edit)) = (taken, replace_scalar(cx, entry.key, suggestion))
                    {
                        diagnostic.fix(Fix {
                            message: format!("Rename `{name}` to `{suggestion}`"),
                            edits: vec![edit],
                            applicability: Applicability::Unsafe,
                        });
                    }
                }
                None => {
                    diagnostic.help(format!(
                        "output keys in {version}: {}; remove it, or move the information to `description`. {heat}",
                        keys.join(", ")
                    ));
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
