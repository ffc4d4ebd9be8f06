use hotfix_hot::Function;
use hotfix_yaml::{NodeKind, ScalarValue};

use super::shared::{literal_len, repeats, walk};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::call_at;

declare_rule! {
    /// ## What it does
    /// Checks that every placeholder (key) of a literal `for_each` map appears somewhere in the
    /// `template`: in a string value or a map key, at any depth.
    ///
    /// ## Why is this bad?
    /// Heat silently accepts it: it repeats the template once per value of the placeholder
    /// but has nothing to replace, so the result holds identical copies. Usually the
    /// placeholder is misspelled (`<%prot%>` for `<%port%>`) or the template lost it.
    /// Templates that take strings from outside (`get_param`, `get_attr`, `get_file`,
    /// `yaql`, `resource_facade`) are not checked: the placeholder may come from there.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       ports:
    ///         repeat:
    ///           for_each:
    ///             <%port%>: ['80', '443']
    ///           template: {port: <%prot%>}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       ports:
    ///         repeat:
    ///           for_each:
    ///             <%port%>: ['80', '443']
    ///           template: {port: <%port%>}
    /// ```
    pub(crate) static RULE = {
        code: "H906",
        name: "unused-repeat-placeholder",
        severity: Warning,
        fix: None,
        check: check,
    };
}

/// Functions whose results come from outside the template: their strings are unknown.
const EXTERNAL: &[Function] = &[
    Function::GetParam,
    Function::GetAttr,
    Function::GetFile,
    Function::Yaql,
    Function::ResourceFacade,
    Function::FnResourceFacade,
    Function::FnMemberListToMap,
    Function::Ref,
];

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    for repeat in repeats(cx) {
        let (Some(template), Some(entries)) = (repeat.template, repeat.for_each_entries(cx)) else {
            continue;
        };
        let mut strings: Vec<&str> = Vec::new();
        let mut external = false;
        walk(doc, template.value, |id| {
            if let Some(call) = call_at(cx, id) {
                external |= EXTERNAL.contains(&call.status.function());
            }
            if let NodeKind::Scalar(s) = &doc.node(id).kind
                && s.value == ScalarValue::Str
            {
                strings.push(&s.text);
            }
            true
        });
        if external {
            continue;
        }
        for entry in entries {
            let Some(placeholder) = doc.str_value(entry.key) else {
                continue;
            };
            if placeholder.is_empty() || strings.iter().any(|s| s.contains(placeholder)) {
                continue;
            }
            let effect = match literal_len(cx, version, entry.value) {
                Some(0 | 1) => "Heat has nothing to replace, so it does nothing".to_owned(),
                Some(n) => format!(
                    "Heat still iterates over its {n} values but has nothing to replace, so the result repeats identical items"
                ),
                None => "Heat still iterates over its values but has nothing to replace, so the result repeats identical items".to_owned(),
            };
            sink.report(
                cx.span(entry.key),
                format!("placeholder `{placeholder}` does not appear in the `template`"),
            )
            .label(cx.span(template.key), "the template")
            .help(format!(
                "{effect}; use the placeholder in the template, or remove it from `for_each`"
            ));
        }
    }
}
