use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::{CallStatus, Function, Version, key_name};
use hotfix_yaml::{NodeId, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{
    NEWTON, call_at, esc, mapping_resources, replace_scalar, version_label,
};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that a literal `deletion_policy` (or a literal branch of an `if` that chooses
    /// one) is a policy the declared version knows: `Delete`, `Retain` or `Snapshot`, and
    /// from 2016-10-14 (newton) also `delete`, `retain` and `snapshot`.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `Invalid deletion policy "retain"` (lower case before
    /// 2016-10-14). Inside an `if`, Heat only complains when the invalid branch is chosen.
    ///
    /// ## Fix safety
    /// The fix writes the policy in the spelling Heat accepts (`retain` → `Retain`), or the
    /// policy a misspelling is one edit from (`Retian` → `Retain`). It is unsafe: Heat refused
    /// the template, and with the fix it applies the policy when the resource is deleted
    /// (`Retain` keeps the resource, `Snapshot` a snapshot of it, `Delete` nothing); a
    /// misspelling taken for the wrong policy decides whether data survives.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-04-08
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     deletion_policy: retain
    ///     properties: {size: 1}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-04-08
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     deletion_policy: Retain
    ///     properties: {size: 1}
    /// ```
    pub(crate) static RULE = {
        code: "H605",
        name: "invalid-deletion-policy",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

/// The spellings every version accepts.
const CAPITALISED: [&str; 3] = ["Delete", "Retain", "Snapshot"];

/// How deep nested `if`s are followed.
const MAX_DEPTH: usize = 64;

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    for resource in mapping_resources(cx) {
        if let Some(value) = cx.template.field(resource, "deletion_policy") {
            check_value(cx, sink, version, value, 0, false);
        }
    }
}

fn check_value(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    version: Version,
    value: NodeId,
    depth: usize,
    in_if: bool,
) {
    let doc = cx.doc;
    if let Some(call) = call_at(cx, value) {
        // Heat resolves the field, then looks the result up: follow `if` to its branches.
        if call.status == CallStatus::Active(Function::If)
            && depth < MAX_DEPTH
            && let Some(items) = doc.items(call.args)
        {
            for &branch in items.iter().skip(1) {
                check_value(cx, sink, version, branch, depth + 1, true);
            }
        }
        return;
    }
    let Some(scalar) = doc.scalar(value) else {
        return;
    };
    match scalar.value {
        ScalarValue::Str => {}
        // A null branch leaves the policy unset; any other non-string literal outside an
        // `if` is `invalid-resource-field-type`'s.
        ScalarValue::Null => return,
        _ if !in_if => return,
        _ => {}
    }
    let policies = version.deletion_policies();
    let text = esc(&key_name(doc, value)).into_owned();
    if matches!(scalar.value, ScalarValue::Str) && policies.contains(&text.as_str()) {
        return;
    }
    let heat = format!("Heat: `Invalid deletion policy \"{text}\"`");
    let shown = if text.is_empty() {
        "the empty string".to_owned()
    } else {
        format!("`{text}`")
    };
    let diagnostic = sink.report(
        cx.span(value),
        format!("{shown} is not a deletion policy in {version}"),
    );
    if !matches!(scalar.value, ScalarValue::Str) {
        diagnostic.help(format!("use one of {}; {heat}", policies.join(", ")));
        return;
    }
    let lower = text.to_lowercase();
    let same_but_case = CAPITALISED.iter().find(|p| p.to_lowercase() == lower);
    if let Some(&canonical) = same_but_case {
        let why = if version < NEWTON && text == lower {
            format!(
                "lower-case policies need heat_template_version {} or later; write `{canonical}`",
                version_label(NEWTON)
            )
        } else {
            format!("policies are case-sensitive: write `{canonical}`")
        };
        diagnostic.help(format!("{why}; {heat}"));
        if let Some(edit) = replace_scalar(cx, value, canonical) {
            // From 2016-10-14 Heat maps both spellings to the same policy, so the capitalised
            // form is what the author meant; but Heat rejects the template as written, and a
            // Safe fix must not change what Heat does, so the user opts in.
            diagnostic.fix(Fix {
                message: format!("Replace `{text}` with `{canonical}`"),
                edits: vec![edit],
                applicability: Applicability::Unsafe,
            });
        }
        return;
    }
    match did_you_mean(&text, policies.iter().copied()) {
        Some(suggestion) => {
            diagnostic.help(format!("did you mean `{suggestion}`? {heat}"));
            if let Some(edit) = replace_scalar(cx, value, suggestion) {
                diagnostic.fix(Fix {
                    message: format!("Replace `{text}` with `{suggestion}`"),
                    edits: vec![edit],
                    applicability: Applicability::Unsafe,
                });
            }
        }
        None => {
            diagnostic.help(format!("use one of {}; {heat}", policies.join(", ")));
        }
    }
}
