use hotfix_hot::{Function, NEVER_HOT_FUNCTIONS, Named, PARAMETER_TYPES, Version, key_name};
use hotfix_yaml::{NodeKind, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::conditions::shared::{NEWTON, call_at, esc, kind_name, py_str, span_or};
use crate::rules::util::{is_mapping, python_type};

declare_rule! {
    /// ## What it does
    /// Checks that `conditions` is a mapping, and that every condition is defined as a
    /// boolean or a call to a condition function (`equals`, `not`, `and`, `or`, `get_param`,
    /// and from 2017-09-01 `contains` and `yaql`). A `get_param` definition must name a
    /// `boolean` parameter.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template. A `conditions` section that is not a mapping (even an empty
    /// `conditions:`, which is null) gives `Conditions validation error: Condition definitions
    /// must be a map. Found a list instead`. A definition that is a bare name (even another
    /// condition's name, although names are fine inside `not`, `and`, `or` and `if`), a
    /// number, a quoted `"true"` or a mapping that is not a call gives `Condition validation
    /// error: The definition of condition "b" is invalid: a`. A `get_param` of a string,
    /// number or list parameter fails the same way once the condition is used.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    ///   monitored: production
    /// resources:
    ///   server: {type: OS::Heat::None, condition: monitored}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   production: true
    ///   monitored: {and: [production, true]}
    /// resources:
    ///   server: {type: OS::Heat::None, condition: monitored}
    /// ```
    pub(crate) static RULE = {
        code: "H802",
        name: "invalid-condition-definition",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    // Before newton the section itself is `conditions-before-newton`'s.
    if version < NEWTON {
        return;
    }
    let doc = cx.doc;
    let Some(section) = cx.template.section("conditions") else {
        return;
    };
    if !is_mapping(doc, section.value) {
        let ty = python_type(doc, section.value);
        let what = match ty {
            "NoneType" => "empty (null)".to_owned(),
            "list" => "a list, not a mapping".to_owned(),
            "str" => "a string, not a mapping".to_owned(),
            other => format!("a {other}, not a mapping"),
        };
        let advice = if ty == "NoneType" {
            "write `conditions: {}` or remove the section"
        } else {
            "write `conditions` as a mapping from condition names to definitions"
        };
        sink.report(
            span_or(cx, section.value, section.key),
            format!("`conditions` is {what}"),
        )
        .help(format!(
            "{advice}; Heat: `Conditions validation error: Condition definitions must be a map. Found a {ty} instead`"
        ));
        return;
    }
    for condition in &cx.template.conditions {
        check_definition(cx, sink, version, condition);
    }
}

fn check_definition(cx: &Context<'_>, sink: &mut Sink<'_>, version: Version, condition: &Named) {
    let doc = cx.doc;
    let value = condition.value;
    if doc
        .scalar(value)
        .is_some_and(|s| matches!(s.value, ScalarValue::Bool(_)))
    {
        return;
    }
    if let Some(call) = call_at(cx, value) {
        if call.status.function() == Function::GetParam {
            check_get_param(cx, sink, condition, call.args);
        }
        return;
    }
    let shown = py_str(cx, value);
    let heat = format!(
        "Heat: `Condition validation error: The definition of condition \"{}\" is invalid: {shown}`",
        condition.name
    );
    let scalar = doc.scalar(value);
    let (what, advice) = match scalar.map(|s| (&s.value, s.text.as_str())) {
        Some((ScalarValue::Str, text)) if cx.template.condition(text).is_some() => (
            format!("the name of condition `{text}`"),
            format!(
                "a definition cannot be just a name (names work inside `not`, `and`, `or` and `if`); to reuse `{text}`, write `{{and: [{text}, true]}}`"
            ),
        ),
        Some((ScalarValue::Str, text))
            if matches!(text.trim().to_lowercase().as_str(), "true" | "false") =>
        {
            (
                format!("the string `{}`", esc(text)),
                format!(
                    "write the boolean `{}` without quotes",
                    text.trim().to_lowercase()
                ),
            )
        }
        Some((ScalarValue::Null, _)) => (
            "empty (null)".to_owned(),
            "write `true`, `false` or a condition function such as `equals`".to_owned(),
        ),
        Some((ScalarValue::Str, text)) => (
            format!("the string `{}`", esc(text)),
            "write `true`, `false` or a condition function such as `equals`".to_owned(),
        ),
        Some(_) => (
            format!(
                "the {} `{}`",
                kind_name(cx.doc, value)
                    .trim_start_matches("an ")
                    .trim_start_matches("a "),
                key_name(doc, value)
            ),
            "write `true`, `false` or a condition function such as `equals`".to_owned(),
        ),
        None => data_map_advice(cx, version, value),
    };
    let diagnostic = sink.report(
        span_or(cx, value, condition.key),
        format!(
            "condition `{}` is defined as {what}, not a boolean or a condition function",
            condition.name
        ),
    );
    diagnostic.help(format!("{advice}; {heat}"));
}

/// What a collection that is not a call is, and what to write instead.
fn data_map_advice(
    cx: &Context<'_>,
    version: Version,
    value: hotfix_yaml::NodeId,
) -> (String, String) {
    let doc = cx.doc;
    let generic = "write `true`, `false` or a condition function such as `equals`".to_owned();
    if !matches!(doc.node(doc.resolve(value)).kind, NodeKind::Mapping { .. }) {
        return ("a list".to_owned(), generic);
    }
    let entries = doc.entries(value);
    let [entry] = entries.as_slice() else {
        return (
            "a mapping".to_owned(),
            "a condition function call is a mapping with exactly one key, e.g. `{equals: [a, b]}`"
                .to_owned(),
        );
    };
    let Some(name) = doc.str_value(entry.key) else {
        return ("a mapping".to_owned(), generic);
    };
    if NEVER_HOT_FUNCTIONS.contains(&name) {
        let hot = name.trim_start_matches("Fn::").to_lowercase();
        let advice = if matches!(hot.as_str(), "equals" | "not" | "and" | "or") {
            format!("`{name}` is CloudFormation, not HOT: use `{hot}`")
        } else {
            format!("`{name}` is CloudFormation, not a HOT condition function")
        };
        return (format!("a `{name}` mapping"), advice);
    }
    if let Some(since) = Function::from_name(name).and_then(Function::condition_since)
        && version < since
    {
        return (
            format!("a `{name}` mapping"),
            format!(
                "`{name}` is a condition function from heat_template_version {since}; upgrade, or use `equals`"
            ),
        );
    }
    (format!("a `{name}` mapping"), generic)
}

/// `get_param: p` must give a boolean: Heat converts the value by the parameter's type.
fn check_get_param(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    condition: &Named,
    args: hotfix_yaml::NodeId,
) {
    let doc = cx.doc;
    let Some(name) = doc.str_value(args) else {
        return;
    };
    let Some(parameter) = cx.template.parameter(name) else {
        return;
    };
    let Some(ty) = doc
        .get(parameter.value, "type")
        .and_then(|t| doc.str_value(t))
    else {
        return;
    };
    // `json` may hold a boolean; `boolean` is right; unknown types are another rule's.
    if !PARAMETER_TYPES.contains(&ty) || matches!(ty, "boolean" | "json") {
        return;
    }
    // A string parameter's value is `str(default)`; others are converted first.
    let shown = doc
        .get(parameter.value, "default")
        .filter(|&d| ty == "string" && doc.scalar(d).is_some())
        .map_or_else(|| "…".to_owned(), |d| key_name(doc, d));
    sink.report(
        cx.span(args),
        format!(
            "condition `{}` is the value of `{name}`, a {ty} parameter, which is never a boolean",
            condition.name
        ),
    )
    .label(cx.span(parameter.key), format!("`{name}` is declared here"))
    .help(format!(
        "declare `{name}` with `type: boolean`, or compare it: `{{equals: [{{get_param: {name}}}, …]}}`; once the condition is used, Heat: `Condition validation error: The definition of condition \"{}\" is invalid: {shown}`",
        condition.name
    ));
}
