use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_hot::PARAMETER_TYPES;
use hotfix_yaml::{ScalarValue, SourceFormat};

use super::shared::{py_str, same_quotes, span_in};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::a_type;
use crate::rules::util::{did_you_mean, is_mapping, python_type};
use hotfix_hot::parameter_schema::ParameterType;

declare_rule! {
    /// ## What it does
    /// Checks that every parameter is a mapping with a `type` that Heat knows: `string`,
    /// `number`, `json`, `comma_delimited_list` or `boolean`.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template. A parameter written as a scalar (`name: string`) or left
    /// empty gives `Invalid parameter (name), expected a mapping`; one without `type` gives
    /// `Missing parameter type for parameter: name`; any other type, including the
    /// CFN spellings (`String`, `Number`, `CommaDelimitedList`) and common guesses
    /// (`integer`, `list`, `bool`), gives `Invalid type (integer)`.
    ///
    /// ## Fix safety
    /// The fix writes the type Heat knows that the written one most likely means (`integer` →
    /// `number`, `list` → `comma_delimited_list`, `name: string` → `name: {type: string}`). It
    /// is unsafe: Heat refused the template, and with the fix it checks every value given for
    /// the parameter against that type, and `get_param` gives that type's value (a list for
    /// `comma_delimited_list`, a map for `json`), where the author may have meant another.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   count:
    ///     type: integer
    ///     default: 2
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   count:
    ///     type: number
    ///     default: 2
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H401",
        name: "invalid-parameter-type",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

/// Types people write for a HOT type, by what they usually mean.
const ALIASES: &[(&str, &str)] = &[
    ("integer", "number"),
    ("int", "number"),
    ("float", "number"),
    ("double", "number"),
    ("numeric", "number"),
    ("list", "comma_delimited_list"),
    ("array", "comma_delimited_list"),
    ("commadelimitedlist", "comma_delimited_list"),
    ("comma_separated_list", "comma_delimited_list"),
    ("comma-delimited-list", "comma_delimited_list"),
    ("bool", "boolean"),
    ("map", "json"),
    ("dict", "json"),
    ("object", "json"),
    ("str", "string"),
    ("text", "string"),
];

fn suggestion(written: &str) -> Option<&'static str> {
    let lower = written.to_lowercase();
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == lower)
        .map(|(_, ty)| *ty)
        .or_else(|| did_you_mean(written, PARAMETER_TYPES.iter().copied()))
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    let doc = cx.doc;
    for param in &cx.template.parameters {
        let name = &param.name;
        if !is_mapping(doc, param.value) {
            let value_span = cx.span(param.value);
            let span = if value_span.is_empty() {
                cx.span(param.key)
            } else {
                value_span
            };
            let what = if doc
                .scalar(param.value)
                .is_some_and(|s| s.value == ScalarValue::Null)
            {
                "is empty".to_owned()
            } else {
                format!(
                    "is {}, not a mapping",
                    a_type(python_type(doc, param.value))
                )
            };
            let diagnostic = sink.report(span, format!("parameter `{name}` {what}"));
            let heat = format!("Heat: `Invalid parameter ({name}), expected a mapping`");
            match doc
                .str_value(param.value)
                .and_then(|t| ParameterType::parse(t).map(|_| t))
            {
                Some(ty) => {
                    diagnostic.help(format!(
                        "write the type as a key: `{name}: {{type: {ty}}}`; {heat}"
                    ));
                    let mapping = if doc.format() == SourceFormat::Json {
                        format!("{{\"type\": \"{ty}\"}}")
                    } else {
                        format!("{{type: {ty}}}")
                    };
                    diagnostic.fix(Fix {
                        message: format!("Replace `{ty}` with `{mapping}`"),
                        edits: vec![Edit::replace(value_span, mapping)],
                        applicability: Applicability::Unsafe,
                    });
                }
                None => {
                    diagnostic.help(format!(
                        "define the parameter as a mapping with at least a `type`, e.g. `{name}: {{type: string}}`; {heat}"
                    ));
                }
            }
            continue;
        }
        let map = doc.resolve(param.value);
        let Some(ty) = doc.get(map, "type") else {
            sink.report(
                cx.span(param.key),
                format!("parameter `{name}` has no `type`"),
            )
            .help(format!(
                "add `type:` with one of {}; Heat: `Missing parameter type for parameter: {name}`",
                types_list()
            ));
            continue;
        };
        let written = doc.str_value(ty);
        if written.is_some_and(|t| ParameterType::parse(t).is_some()) {
            continue;
        }
        let shown = py_str(doc, ty);
        let heat = format!("Heat: `Invalid type ({shown})`");
        let diagnostic = sink.report(
            span_in(cx, param, ty),
            format!("parameter `{name}` has type `{shown}`, which Heat does not know"),
        );
        match written.and_then(suggestion) {
            Some(better) => {
                diagnostic.help(format!("did you mean `{better}`? {heat}"));
                if cx.span(ty) == span_in(cx, param, ty) {
                    diagnostic.fix(Fix {
                        message: format!("Replace `{shown}` with `{better}`"),
                        edits: vec![Edit::replace(cx.span(ty), same_quotes(doc, ty, better))],
                        applicability: Applicability::Unsafe,
                    });
                }
            }
            None => {
                diagnostic.help(format!("use one of {}; {heat}", types_list()));
            }
        }
    }
}

fn types_list() -> String {
    ParameterType::ALL
        .iter()
        .map(|t| format!("`{}`", t.name()))
        .collect::<Vec<_>>()
        .join(", ")
}
