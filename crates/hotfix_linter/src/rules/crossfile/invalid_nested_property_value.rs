use hotfix_hot::parameter_schema::{ParameterSchema, ParameterType};
use hotfix_yaml::{NodeId, NodeKind};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::crossfile::{Nested, declared_in, nested_of, passed_properties};
use crate::rules::py::{self, Value};
use crate::rules::resources::{Literal, literal};

declare_rule! {
    /// ## What it does
    /// Checks each literal property value given to a resource whose `type` is a nested
    /// template (a template path, or a type an environment maps to a template) against the
    /// nested template's parameter of that name, as Heat checks it: Heat makes each parameter
    /// a property (`Schema.from_parameter`) of the parameter's type, with its constraints.
    ///
    /// - a `string` parameter takes a string, an integer or a boolean (`1` becomes `"1"`), not a
    ///   float, a list or a map;
    /// - a `number` parameter takes a number, a boolean or a string of one (`"1.5"`);
    /// - a `boolean` parameter takes `true`/`false` or the strings `"true"`/`"false"` in any
    ///   case, and nothing else: not `1`, not `"yes"` or `"on"` (which the parameter itself
    ///   would take as a stack input; a plain `yes` is YAML's `true`);
    /// - a `comma_delimited_list` parameter takes a list, or a string that Heat splits at its
    ///   commas; Heat then joins the list into one string for the nested stack, so its items
    ///   must be strings (or null), or all maps;
    /// - a `json` parameter takes a map, a list, or a string, which must be JSON (an empty one
    ///   is taken as it is);
    /// - the converted value must meet the parameter's constraints (`allowed_values`, `range`,
    ///   `length`, `modulo`, `allowed_pattern`; not `custom_constraint`, which asks the cloud),
    ///   and Heat's error is the constraint's `description` when it has one.
    ///
    /// An explicit null is what Heat makes of it (`""`, `0`, `false`, `[]`, `{}`) and is checked
    /// the same way. Values given by a function (`get_param`, `get_attr`, …), and lists and
    /// maps with a function anywhere in them, are not checked; nor is a resource with a
    /// `condition` (Heat does not validate it when the condition is false), an external
    /// resource (with an `external_id`: Heat checks none of its properties), or a parameter
    /// whose definition Heat refuses (other rules report it there). The environments are those
    /// of `unknown-nested-property` (X003): with the tree's environments, a value is reported
    /// when every template the environments closest to the template map the type to refuses
    /// it.
    ///
    /// ## Why is this bad?
    /// `openstack orchestration template validate` accepts the template, but Heat refuses the
    /// stack when it creates it, e.g. `Property error: resources.server.properties.flavor:
    /// Value must be a string; got ['m1.small']`; for a list item that is not a string,
    /// `TypeError: …: sequence item 0: expected str instance, int found`. A `json` parameter
    /// given a string that is not JSON fails later, when Heat creates the nested stack:
    /// `Parameter 'config' is invalid: Value must be valid JSON: Expecting value: line 1
    /// column 1 (char 0)`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: nested/server.yaml
    ///     properties: {flavor: [m1.small]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: nested/server.yaml
    ///     properties: {flavor: m1.small}
    /// ```
    pub(crate) static RULE = {
        code: "X008",
        name: "invalid-nested-property-value",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// How deep a value is searched for a function call.
const MAX_DEPTH: usize = 64;

/// Characters of a value shown in a message.
const MAX_SHOWN: usize = 60;

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(files) = cx.files else {
        return;
    };
    let doc = cx.doc;
    for (resource, type_name, properties) in passed_properties(cx) {
        let nested = nested_of(cx, files, resource, type_name);
        if nested.is_empty() {
            continue;
        }
        for entry in doc.entries(properties) {
            let Some(name) = doc.str_value(entry.key) else {
                continue;
            };
            if holds_call(cx, entry.value, 0) {
                continue;
            }
            let Some(value) = py::load(doc, entry.value) else {
                continue;
            };
            // With several candidate templates (environments of the tree as close to this file
            // that map the type differently), a mistake only when every one refuses it: the
            // first one's refusal is reported.
            let schema_of = |n: &Nested| {
                let parameter = n.facts.parameters.iter().find(|p| p.name == name)?;
                parameter.schema.clone()
            };
            let refuses = |n: &Nested| {
                let at = Given {
                    cx,
                    node: entry.value,
                    resource: &resource.name,
                    name,
                };
                refusal(&at, &schema_of(n)?, value.clone(), n)
            };
            let Some(first) = nested.first() else {
                continue;
            };
            let (Some(schema), Some(refusal)) = (schema_of(first), refuses(first)) else {
                continue;
            };
            if !nested.iter().skip(1).all(|n| refuses(n).is_some()) {
                continue;
            }
            let (nested, schema) = (first, &schema);
            let diagnostic = sink
                .report(
                    cx.span(refusal.node.unwrap_or(entry.value)),
                    refusal.message,
                )
                .help(refusal.help);
            if let Some(at) = declared_in(files, &nested.path, &["parameters", name])
                && at.found
            {
                let label = if refusal.constraint {
                    format!("`{name}` declared here, with its constraints")
                } else {
                    format!("`{name}` declared here, of type `{}`", schema.kind.name())
                };
                diagnostic.file_label(at.path.as_str(), at.text.clone(), at.span, label);
            }
        }
    }
}

/// The value given for the parameter `name` of a resource.
struct Given<'a, 'c> {
    cx: &'a Context<'c>,
    node: NodeId,
    resource: &'a str,
    name: &'a str,
}

/// Why Heat refuses a value.
struct Refusal {
    message: String,
    /// What to do, and Heat's words.
    help: String,
    /// Whether a constraint refuses it (else its type).
    constraint: bool,
    /// The part of the value to point at (a list's item), when not the whole value.
    node: Option<NodeId>,
}

/// How Heat refuses `value` for the parameter of `schema` in `nested`, if it does.
fn refusal(
    at: &Given<'_, '_>,
    schema: &ParameterSchema,
    value: Value,
    nested: &Nested,
) -> Option<Refusal> {
    let name = at.name;
    let path = format!("resources.{}.properties.{name}", at.resource);
    let kind = schema.kind;
    let property = schema.property_schema(false);
    let original = value.clone();
    match literal(&property, value, name) {
        Literal::WrongType(heat) => Some(Refusal {
            message: format!(
                "Heat cannot convert {} to the type of `{name}`, a `{}` parameter of {}",
                shown(at.cx, at.node),
                kind.name(),
                nested.describe()
            ),
            help: format!(
                "pass {}; Heat refuses the stack when it creates it: `Property error: {path}: \
                 {heat}`",
                takes(kind)
            ),
            constraint: false,
            node: None,
        }),
        Literal::Breaks {
            value,
            index,
            message,
            help,
            heat,
        } => {
            let heat = schema
                .constraints
                .get(index)
                .and_then(|c| c.description.clone())
                .unwrap_or(heat);
            let parameter = format!("a `{}` parameter of {}", kind.name(), nested.describe());
            let message = if matches!(original, Value::None) {
                format!(
                    "Heat takes null as `{}` for `{name}` ({parameter}), and its constraints \
                     refuse that",
                    value.json_dumps(false)
                )
            } else {
                format!("{message} ({parameter})")
            };
            Some(Refusal {
                message,
                node: None,
                help: format!(
                    "{help}; Heat refuses the stack when it creates it: `Property error: \
                     {path}: {heat}`"
                ),
                constraint: true,
            })
        }
        Literal::Accepted(converted) => match kind {
            ParameterType::CommaDelimitedList => unjoinable(at, &converted, nested),
            ParameterType::Json => not_json(at, &original, nested),
            _ => None,
        },
        Literal::Unknown => None,
    }
}

/// A list Heat cannot join into the nested stack's comma-delimited string
/// (`TemplateResource.child_params`): a first item that is a map makes every item one (each is
/// flattened to `.member.N.key=value`); otherwise every item must be a string or null.
fn unjoinable(at: &Given<'_, '_>, list: &Value, nested: &Nested) -> Option<Refusal> {
    let Value::List(items) = list else {
        return None;
    };
    let name = at.name;
    let heat_at = format!(
        "resources.{}<file://…/{}>",
        at.resource,
        nested.path.file_name()
    );
    let (item, message, heat) = if let Some(Value::Map(_)) = items.first() {
        let (i, item) = items
            .iter()
            .enumerate()
            .find(|(_, item)| !matches!(item, Value::Map(_)))?;
        (
            i,
            format!(
                "item {i} of `{name}` is not a map, though the first is: Heat cannot join the \
                 list for `{name}`, a `comma_delimited_list` parameter of {}",
                nested.describe()
            ),
            format!(
                "AttributeError: {heat_at}: '{}' object has no attribute 'items'",
                item.type_name()
            ),
        )
    } else {
        let (i, item) = items
            .iter()
            .enumerate()
            .find(|(_, item)| !matches!(item, Value::Str(_) | Value::None))?;
        (
            i,
            format!(
                "item {i} of `{name}` is {}, not a string: Heat cannot join the list for \
                 `{name}`, a `comma_delimited_list` parameter of {}",
                a_python(item),
                nested.describe()
            ),
            format!(
                "TypeError: {heat_at}: sequence item {i}: expected str instance, {} found",
                item.type_name()
            ),
        )
    };
    let advice = match items.get(item) {
        _ if matches!(items.first(), Some(Value::Map(_))) => "make every item a map",
        Some(Value::Int(_) | Value::BigInt(_) | Value::Float(_) | Value::Bool(_)) => "quote it",
        _ => "make every item a string",
    };
    let doc = at.cx.doc;
    Some(Refusal {
        message,
        help: format!("{advice}; Heat refuses the stack when it creates it: `{heat}`"),
        constraint: false,
        node: doc
            .items(at.node)
            .and_then(|nodes| nodes.get(item))
            .copied(),
    })
}

/// A string given for a `json` parameter that is not JSON: Heat passes it on as it is, and the
/// nested stack's parameter refuses it (`JsonParam.parse`) when Heat creates the nested stack.
fn not_json(at: &Given<'_, '_>, value: &Value, nested: &Nested) -> Option<Refusal> {
    let Value::Str(text) = value else {
        return None;
    };
    if text.is_empty() {
        return None;
    }
    let error = crate::rules::parameters::pyjson::loads(text)?.err()?;
    let name = at.name;
    Some(Refusal {
        message: format!(
            "`{name}` is a `json` parameter of {}, and this string is not JSON",
            nested.describe()
        ),
        help: format!(
            "pass a map or a list, or a string of JSON; Heat refuses it when it creates the \
             nested stack: `Parameter '{name}' is invalid: Value must be valid JSON: {error}`"
        ),
        constraint: false,
        node: None,
    })
}

/// What a parameter of this type takes, for a help.
fn takes(kind: ParameterType) -> &'static str {
    match kind {
        ParameterType::String => "a string",
        ParameterType::Number => "a number",
        ParameterType::CommaDelimitedList => "a list of strings, or a comma-delimited string",
        ParameterType::Json => "a map, a list, or a string of JSON",
        ParameterType::Boolean => "`true` or `false`",
    }
}

/// `an int`, `a float`, … (Python's type name, with its article).
fn a_python(value: &Value) -> String {
    let name = value.type_name();
    match name {
        "int" => "an int".to_owned(),
        _ => format!("a {name}"),
    }
}

/// The value as a message shows it: a scalar's source text, clipped; `a list` or `a map`.
fn shown(cx: &Context<'_>, node: NodeId) -> String {
    let doc = cx.doc;
    match &doc.node(doc.resolve(node)).kind {
        NodeKind::Sequence { .. } => "a list".to_owned(),
        NodeKind::Mapping { .. } => "a map".to_owned(),
        _ => {
            let text = doc
                .scalar(node)
                .map_or_else(|| doc.text(node).to_owned(), |s| s.text.as_str().to_owned());
            let line = text.lines().next().unwrap_or_default();
            let mut out: String = line.chars().take(MAX_SHOWN).collect();
            if out.len() < text.len() {
                out.push('…');
            }
            format!("`{out}`")
        }
    }
}

/// Whether a function call is anywhere in the value (bounded: a value too deep counts as one).
fn holds_call(cx: &Context<'_>, node: NodeId, depth: usize) -> bool {
    let doc = cx.doc;
    let node = doc.resolve(node);
    if depth > MAX_DEPTH || cx.semantic.call_at(node).is_some() {
        return true;
    }
    match &doc.node(node).kind {
        NodeKind::Sequence { items, .. } => items.iter().any(|&i| holds_call(cx, i, depth + 1)),
        NodeKind::Mapping { .. } => doc
            .entries(node)
            .iter()
            .any(|e| holds_call(cx, e.value, depth + 1)),
        NodeKind::Scalar(_) | NodeKind::Alias { .. } => false,
    }
}
