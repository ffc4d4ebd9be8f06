use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_hot::key_name;
use hotfix_yaml::{NodeId, NodeKind, SourceFormat, Style};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::outputs::shared::{
    esc, function_as_definition, mapping_outputs, misspelt_value, replace_scalar,
};

declare_rule! {
    /// ## What it does
    /// Checks that every output has a `value`.
    ///
    /// ## Why is this bad?
    /// An output exists to show a value; Heat refuses an output without one:
    /// `Output validation error: outputs.o: Each output definition must contain a value key.`
    ///
    /// ## Fix safety
    /// The fix renames a misspelt `value` key (`valeu` → `value`), or puts a function call
    /// written as the whole definition under `value:` (`{get_attr: [s, a]}` →
    /// `{value: {get_attr: [s, a]}}`). It is unsafe: Heat refused the template, and with the
    /// fix it validates the value and shows what it computes; if the key meant something else,
    /// the output shows what the author did not ask for.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// outputs:
    ///   server_id:
    ///     description: the server's id
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
        code: "H702",
        name: "output-without-value",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for output in mapping_outputs(cx) {
        if doc.get(output.value, "value").is_some() {
            continue;
        }
        let heat = format!(
            "Heat: `Output validation error: outputs.{}: Each output definition must contain a value key.`",
            output.name
        );
        let diagnostic = sink.report(
            cx.span(output.key),
            format!("output `{}` has no `value`", output.name),
        );
        if let Some(function) = function_as_definition(cx, output) {
            let name = key_name(doc, function);
            diagnostic.help(format!(
                "the `{name}` call is the output's value: put it under `value:`; {heat}"
            ));
            if let Some(fix) = wrap_in_value(cx, output.value) {
                diagnostic.fix(fix);
            }
            continue;
        }
        match misspelt_value(cx, output) {
            Some(key) => {
                let text = esc(&key_name(cx.doc, key)).into_owned();
                diagnostic
                    .label(cx.span(key), "misspelt `value`?")
                    .help(format!("did you mean `value` for `{text}`? {heat}"));
                if let Some(edit) = replace_scalar(cx, key, "value") {
                    diagnostic.fix(Fix {
                        message: format!("Rename `{text}` to `value`"),
                        edits: vec![edit],
                        applicability: Applicability::Unsafe,
                    });
                }
            }
            None => {
                diagnostic.help(format!(
                    "add `value:` with what the output shows, or remove the output; {heat}"
                ));
            }
        }
    }
}

/// `{get_attr: [s, a]}` → `{value: {get_attr: [s, a]}}`, for a flow mapping written in place.
fn wrap_in_value(cx: &Context<'_>, definition: NodeId) -> Option<Fix> {
    let node = cx.doc.node(definition);
    if node.tag.is_some()
        || !matches!(
            node.kind,
            NodeKind::Mapping {
                style: Style::Flow,
                ..
            }
        )
    {
        return None;
    }
    let key = match cx.doc.format() {
        SourceFormat::Json => "\"value\"",
        SourceFormat::Yaml => "value",
    };
    Some(Fix {
        message: "Put the call under `value:`".to_owned(),
        edits: vec![
            Edit::insert(node.span.start, format!("{{{key}: ")),
            Edit::insert(node.span.end, "}"),
        ],
        applicability: Applicability::Unsafe,
    })
}
