use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_hot::{Call, CallStatus, Function};
use hotfix_yaml::{NodeId, NodeKind, ScalarStyle, ScalarValue};

use super::shared::{a_type, literal_len, quoted, repeats, span};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::{call_at, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that every item of a literal `for_each` list (and every key of a literal
    /// `for_each` map, from 2016-10-14) is a string: not a number, boolean, null, list or
    /// map, nor a `get_param` of a `number`, `boolean` or `comma_delimited_list` parameter.
    /// Other function calls are not checked.
    ///
    /// ## Why is this bad?
    /// Heat replaces each placeholder with Python's `str.replace`, which takes only strings,
    /// so an unquoted number (`[80, 443]`), boolean or null crashes the `repeat` when the
    /// stack is created: `replace() argument 2 must be str, not int`. Template validation
    /// does not catch it. The crash needs a string somewhere in the `template` and a value for
    /// every placeholder; both are almost always there.
    ///
    /// ## Fix safety
    /// The fix quotes the value as it was written (`80` → `'80'`), almost certainly what was
    /// meant, but it is marked unsafe: it turns a failing template into a working one, and for
    /// YAML 1.1 surprises (`012`, `1:20`) the text and the number Heat would load differ.
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
    ///             <%port%>: ['80', 443]
    ///           template: {port: <%port%>}
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
        code: "H907",
        name: "integer-in-for-each",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

/// Functions that always resolve to strings (or lists of strings).
const STRING_RESULTS: &[Function] = &[
    Function::ListJoin,
    Function::StrReplace,
    Function::StrReplaceStrict,
    Function::StrReplaceVstrict,
    Function::StrSplit,
    Function::Digest,
    Function::GetResource,
    Function::MakeUrl,
    Function::FnJoin,
    Function::FnReplace,
    Function::FnBase64,
    Function::FnSplit,
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
        // Without a string to replace in, or with an empty loop, nothing is replaced.
        if !has_string(cx, template.value)
            || entries
                .iter()
                .any(|e| literal_len(cx, version, e.value) == Some(0))
        {
            continue;
        }
        let maps_iterated = version.repeat_accepts_maps() && !repeat.zipped(doc, version);
        for entry in entries {
            if call_at(cx, entry.value).is_some() {
                continue;
            }
            let name = hotfix_hot::key_name(doc, entry.key);
            let resolved = doc.resolve(entry.value);
            match &doc.node(resolved).kind {
                NodeKind::Sequence { items, .. } => {
                    for &item in items {
                        match call_at(cx, item) {
                            Some(call) => report_parameter(cx, sink, &name, item, call),
                            None if doc.str_value(item).is_none() => {
                                report(cx, sink, &name, item, "item");
                            }
                            None => {}
                        }
                    }
                }
                NodeKind::Mapping { .. } if maps_iterated => {
                    for e in doc.entries(resolved) {
                        if doc.str_value(e.key).is_none() {
                            report(cx, sink, &name, e.key, "key");
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

fn report(cx: &Context<'_>, sink: &mut Sink<'_>, name: &str, node: NodeId, what: &str) {
    let doc = cx.doc;
    let message = if doc.scalar(node).is_some() {
        format!(
            "`for_each` {what} `{}` of `{name}` is {}, not a string",
            cx.text(node),
            a_type(doc, node)
        )
    } else {
        format!(
            "a `for_each` {what} of `{name}` is {}, not a string",
            a_type(doc, node)
        )
    };
    let diagnostic = sink.report(span(cx, node), message);
    let type_name = match python_type(doc, node) {
        "NoneType" => "None",
        other => other,
    };
    let heat = format!("Heat: `replace() argument 2 must be str, not {type_name}`");
    let written = doc.node(node);
    let quotable = match &written.kind {
        NodeKind::Scalar(s) if s.style == ScalarStyle::Plain && written.tag.is_none() => {
            matches!(
                s.value,
                ScalarValue::Int(_) | ScalarValue::Float(_) | ScalarValue::Bool(_)
            )
        }
        _ => false,
    };
    if quotable {
        let fixed = quoted(doc, cx.text(node));
        diagnostic
            .help(format!(
                "Heat substitutes placeholders with strings only and fails when it resolves this `repeat`: quote it (`{fixed}`); {heat}"
            ))
            .fix(Fix {
                message: format!("Quote `{}`", cx.text(node)),
                edits: vec![Edit::replace(cx.span(node), fixed)],
                applicability: Applicability::Unsafe,
            });
    } else {
        diagnostic.help(format!(
            "Heat substitutes placeholders with strings only and fails when it resolves this `repeat`: use a string, or remove it; {heat}"
        ));
    }
}

/// An item `{get_param: name}` naming a parameter whose value is never a string.
fn report_parameter(cx: &Context<'_>, sink: &mut Sink<'_>, name: &str, item: NodeId, call: &Call) {
    let doc = cx.doc;
    if call.status != CallStatus::Active(Function::GetParam) {
        return;
    }
    let Some(parameter) = doc.str_value(call.args) else {
        return;
    };
    let Some(definition) = cx.template.parameter(parameter) else {
        return;
    };
    let Some(kind) = cx
        .template
        .field(definition, "type")
        .and_then(|t| doc.str_value(t))
    else {
        return;
    };
    let (python, todo) = match kind {
        "number" => (
            "int` (or `float`)",
            format!("declare `{parameter}` with `type: string`"),
        ),
        "boolean" => (
            "bool`",
            format!("declare `{parameter}` with `type: string`"),
        ),
        "comma_delimited_list" => (
            "list`",
            format!(
                "make the parameter the whole value (`{name}: {{get_param: {parameter}}}`), not one item"
            ),
        ),
        _ => return,
    };
    sink.report(
        span(cx, item),
        format!(
            "`for_each` item of `{name}` is the {kind} parameter `{parameter}`, not a string"
        ),
    )
    .label(cx.span(definition.key), format!("declared as {kind} here"))
    .help(format!(
        "Heat substitutes placeholders with strings only and fails when it resolves this `repeat`: {todo}; Heat: `replace() argument 2 must be str, not {python}"
    ));
}

/// Whether the resolved template certainly holds a string for `str.replace` to work on: a
/// literal string (a value or a map key) outside function calls, or the result of a function
/// that always returns strings.
fn has_string(cx: &Context<'_>, template: NodeId) -> bool {
    let doc = cx.doc;
    let mut found = false;
    super::shared::walk(doc, template, |id| {
        if found {
            return false;
        }
        if let Some(call) = call_at(cx, id) {
            found = STRING_RESULTS.contains(&call.status.function());
            return false;
        }
        if doc.str_value(id).is_some() {
            found = true;
        }
        true
    });
    found
}
