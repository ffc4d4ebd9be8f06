use crate::rule::{Context, Sink, declare_rule};
use crate::rules::outputs::shared::is_falsy;
use crate::rules::util::{is_mapping, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that `outputs` is a mapping from output names to definitions, and that every
    /// definition is itself a mapping.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template. A definition that is not a mapping (a bare value, or an
    /// empty `o:`) gives `Output validation error: outputs.o: Output definitions must be a
    /// map. Found a int instead`; an `outputs` section that is a list or a string fails with
    /// Python's own error, `'list' object has no attribute 'items'`. An empty `outputs:` is
    /// fine.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// outputs:
    ///   greeting: hello
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// outputs:
    ///   greeting:
    ///     value: hello
    /// ```
    pub(crate) static RULE = {
        code: "H701",
        name: "output-not-mapping",
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
    if let Some(section) = cx.template.section("outputs") {
        // Heat reads a false section (`outputs:`, `[]`, `''`) as `{}`.
        if !is_mapping(doc, section.value) && !is_falsy(doc, section.value) {
            let ty = python_type(doc, section.value);
            sink.report(
                cx.span(section.value),
                format!("`outputs` is {}, not a mapping of output definitions", words(ty)),
            )
            .help(format!(
                "write `outputs` as a mapping from output names to definitions with a `value`; Heat: `'{ty}' object has no attribute 'items'`"
            ));
            return;
        }
    }
    for output in &cx.template.outputs {
        if is_mapping(doc, output.value) {
            continue;
        }
        let ty = python_type(doc, output.value);
        let span = cx.span(output.value);
        let span = if span.is_empty() {
            cx.span(output.key)
        } else {
            span
        };
        let what = if ty == "NoneType" {
            "empty".to_owned()
        } else {
            format!("{}, not a mapping", words(ty))
        };
        sink.report(span, format!("output `{}` is {what}", output.name))
            .help(format!(
                "an output is a mapping with a `value` (and optionally a `description`), e.g. `value: {{get_attr: [server, first_address]}}`; Heat: `Output validation error: outputs.{}: Output definitions must be a map. Found a {ty} instead`",
                output.name
            ));
    }
}

/// A Python type name in words, with its article.
fn words(ty: &str) -> String {
    match ty {
        "str" => "a string".to_owned(),
        "int" => "an integer".to_owned(),
        "bool" => "a boolean".to_owned(),
        "dict" => "a mapping".to_owned(),
        "bytes" => "binary data".to_owned(),
        "NoneType" => "null".to_owned(),
        other => format!("a {other}"),
    }
}
