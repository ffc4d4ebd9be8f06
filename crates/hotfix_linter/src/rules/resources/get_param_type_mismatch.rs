use std::collections::BTreeMap;

use hotfix_hot::resource_types::{PropertyType, RuleKind, Schema, TranslationRule};
use hotfix_yaml::NodeId;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{self, Num, Parsed, Value};
use crate::rules::resources::param_ref::{ParamRef, get_param};
use crate::rules::resources::shared::{
    Registered, call_at, literal_properties, validated_resources,
};
use hotfix_hot::parameter_schema::ParameterType;

declare_rule! {
    /// ## What it does
    /// Checks a property whose value is exactly `{get_param: NAME}` (at the top of a
    /// registered type's `properties`, or inside the maps and lists its schema describes)
    /// against the parameter's type: it reports a parameter type that Heat cannot convert to
    /// the property's type whatever its value, and a default that Heat cannot convert.
    ///
    /// | parameter ↓ property → | string | integer | number | boolean | map | list |
    /// | --- | --- | --- | --- | --- | --- | --- |
    /// | `string` | ✓ | default | default | default | never | never |
    /// | `number` | default | ✓ | ✓ | default | never | never |
    /// | `comma_delimited_list` | never | never | never | never | never | ✓ |
    /// | `json` | default | default | default | default | default | default |
    /// | `boolean` | ✓ | ✓ | ✓ | ✓ | never | never |
    ///
    /// *never*: every value fails. *default*: some values fail (`'abc'` for an integer, `1.5`
    /// for a string, `1` for a boolean, a list for a map), and the rule reports the default
    /// when it is one of them. (A `number` parameter given `true` holds a boolean, which a
    /// boolean property takes; a `json` value may be a string or a number.) A property of
    /// type `any` takes everything.
    ///
    /// ## Why is this bad?
    /// `openstack orchestration template validate` passes, and the stack create fails when
    /// Heat converts the property: `Property error: resources.volume.properties.metadata:
    /// "{}" is not a map`, `Value must be a string; got ['a', 'b']`, `int() argument must be
    /// a string, a bytes-like object or a real number, not 'list'`. With a default that
    /// fails, the stack create fails unless a value is given.
    ///
    /// Not checked: a `get_param` with a path, any other function, the items a list
    /// parameter gives to a list of maps, a default whose parameter has other constraints than
    /// `allowed_values` (Heat checks those first), a `json` default written as a string, and
    /// the properties of template resources (the only ones that convert strings to maps and
    /// lists). A resource whose `condition` is false is not created, so Heat does not
    /// convert its properties.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   volume_metadata:
    ///     type: string
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties:
    ///       size: 1
    ///       metadata: {get_param: volume_metadata}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   volume_metadata:
    ///     type: json
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties:
    ///       size: 1
    ///       metadata: {get_param: volume_metadata}
    /// ```
    pub(crate) static RULE = {
        code: "H616",
        name: "get-param-type-mismatch",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// How deep nested maps and lists are followed.
const MAX_DEPTH: usize = 32;

/// The resource a property belongs to.
struct Owner<'a> {
    type_name: &'a str,
    /// Its type's translation rules.
    rules: &'static [TranslationRule],
}

impl Owner<'_> {
    /// Whether Heat drops the property at `path` (`tasks[2].policies`) before it checks the
    /// properties, without converting its value: a Delete rule's, that no rule moves with its
    /// own type (`value_path`, or a value of an Add rule). Mistral's `policies`, read through
    /// `custom_value_path` and dropped, takes any value.
    fn dropped_unconverted(&self, path: &str) -> bool {
        let names: Vec<&str> = path
            .split('.')
            .map(|n| n.split_once('[').map_or(n, |(name, _)| name))
            .collect();
        let here = |p: &[String]| p.iter().map(String::as_str).eq(names.iter().copied());
        self.rules
            .iter()
            .any(|r| r.rule == RuleKind::Delete && here(&r.path))
            && !self.rules.iter().any(|r| {
                r.value_path.as_deref().is_some_and(here)
                    || (r.rule == RuleKind::Add && names.len() == 1 && r.value.is_some())
            })
    }
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    for Registered {
        resource,
        type_name,
        schema,
        ..
    } in validated_resources(cx)
    {
        if schema.none_resource {
            continue;
        }
        let Some(properties) = literal_properties(cx, resource) else {
            continue;
        };
        let owner = Owner {
            type_name,
            rules: &schema.translation,
        };
        check_map(cx, sink, &owner, properties, &schema.properties, "", 0);
    }
}

/// The entries of a written map whose keys its schema knows.
fn check_map(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    owner: &Owner<'_>,
    map: NodeId,
    schemas: &BTreeMap<String, Schema>,
    path: &str,
    depth: usize,
) {
    let doc = cx.doc;
    for entry in doc.entries(map) {
        let Some(key) = doc.str_value(entry.key) else {
            continue;
        };
        let Some(schema) = schemas.get(key) else {
            continue;
        };
        let path = if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        };
        if owner.dropped_unconverted(&path) {
            continue;
        }
        check_value(cx, sink, owner, entry.value, schema, &path, depth);
    }
}

fn check_value(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    owner: &Owner<'_>,
    value: NodeId,
    schema: &Schema,
    path: &str,
    depth: usize,
) {
    // Heat rejects any value of a property it does not implement (another finding), and
    // converts strings for a property with `allow_conversion`, which only template resources
    // have.
    if depth > MAX_DEPTH || !schema.implemented || schema.allow_conversion {
        return;
    }
    if let Some(param) = get_param(cx, value) {
        check_param(cx, sink, owner, value, schema, path, &param);
        return;
    }
    if call_at(cx, value).is_some() {
        return;
    }
    let doc = cx.doc;
    match schema.kind {
        PropertyType::Map if !schema.schema.is_empty() && cx.template.is_mapping(value) => {
            let map = doc.resolve(value);
            check_map(cx, sink, owner, map, &schema.schema, path, depth + 1);
        }
        PropertyType::List => {
            let (Some(items), Some(item_schema)) = (doc.items(value), schema.items.as_deref())
            else {
                return;
            };
            for (i, &item) in items.iter().enumerate() {
                let path = format!("{path}[{i}]");
                check_value(cx, sink, owner, item, item_schema, &path, depth + 1);
            }
        }
        _ => {}
    }
}

fn check_param(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    owner: &Owner<'_>,
    value: NodeId,
    schema: &Schema,
    path: &str,
    param: &ParamRef<'_>,
) {
    let kind = schema.kind;
    let name = &param.param.name;
    let ty = param.ty.name();
    let default = param.default.as_ref();
    let property = format!("`{path}` ({}) of {}", kind.as_str(), owner.type_name);
    if never_converts(param.ty, kind) {
        let shown = default.map_or_else(|| Shown::form(param.ty), |(d, _)| Shown::of(d));
        sink.report(
            cx.span(value),
            format!("{property} cannot take the {ty} parameter `{name}`"),
        )
        .label(cx.span(param.type_node), format!("declared as {ty} here"))
        .help(format!(
            "Heat fails at stack create whatever the value (template validate passes); {}; Heat: `{}`",
            advice(param.ty, schema, name),
            heat_error(kind, &shown)
        ));
        return;
    }
    let Some((default, node)) = default else {
        return;
    };
    if !fails(kind, default) {
        return;
    }
    sink.report(
        cx.span(value),
        format!(
            "{property} cannot take the default {} of parameter `{name}`",
            shown_value(default)
        ),
    )
    .label(cx.span(*node), "the default")
    .help(format!(
        "the stack create fails unless a value is given for `{name}` (template validate passes); change the default, or declare `{name}` as {}; Heat: `{}`",
        suitable(schema),
        heat_error(kind, &Shown::of(default))
    ));
}

/// Whether Heat's conversion fails for every value of the parameter type.
fn never_converts(ty: ParameterType, kind: PropertyType) -> bool {
    use ParameterType as T;
    use PropertyType as P;
    matches!(
        (ty, kind),
        // A string, a number (or boolean) or a boolean is neither a map nor a list; a list is
        // none of the others.
        (T::String | T::Number | T::Boolean, P::Map | P::List)
            | (
                T::CommaDelimitedList,
                P::String | P::Integer | P::Number | P::Boolean | P::Map
            )
    )
}

/// Whether `Property.get_value` fails for this value (`heat/engine/properties.py`: the
/// `_get_string`, `_get_integer`, … of the property's type). `None` is the property's own
/// default; `bytes`, integers too large to model and infinite floats are not judged.
fn fails(kind: PropertyType, value: &Value) -> bool {
    if matches!(value, Value::None | Value::Bytes) {
        return false;
    }
    match kind {
        PropertyType::Any => false,
        PropertyType::String => matches!(value, Value::Float(_) | Value::List(_) | Value::Map(_)),
        // `int(value)`: a float converts (`int(1.5)` is 1), a string must be an integer.
        PropertyType::Integer => match value {
            Value::Str(s) => matches!(
                py::str_to_num(s),
                Parsed::Num(Num::Float(_)) | Parsed::Error(_)
            ),
            Value::List(_) | Value::Map(_) => true,
            _ => false,
        },
        // `str_to_num`: `int()`, then `float()`.
        PropertyType::Number => match value {
            Value::Str(s) => matches!(py::str_to_num(s), Parsed::Error(_)),
            Value::List(_) | Value::Map(_) => true,
            _ => false,
        },
        PropertyType::Boolean => match value {
            Value::Bool(_) => false,
            Value::Str(s) => !matches!(s.to_lowercase().as_str(), "true" | "false"),
            _ => true,
        },
        PropertyType::Map => !matches!(value, Value::Map(_)),
        PropertyType::List => !matches!(value, Value::List(_)),
    }
}

/// A value as Heat's messages show it: `str()`, `repr()` and the Python type; or, when the
/// value is not known, `…` in the shape of the parameter type.
struct Shown {
    str: String,
    repr: String,
    class: &'static str,
}

impl Shown {
    fn of(value: &Value) -> Shown {
        Shown {
            str: value.py_str(),
            repr: value.py_repr(),
            class: value.type_name(),
        }
    }

    fn form(ty: ParameterType) -> Shown {
        let (str, repr, class) = match ty {
            ParameterType::String => ("…", "'…'", "str"),
            ParameterType::Number => ("…", "…", "int"),
            ParameterType::Boolean => ("…", "…", "bool"),
            ParameterType::CommaDelimitedList => ("[…]", "[…]", "list"),
            ParameterType::Json => ("…", "…", "dict"),
        };
        Shown {
            str: str.to_owned(),
            repr: repr.to_owned(),
            class,
        }
    }
}

/// Heat's error text for a value the property's type refuses.
fn heat_error(kind: PropertyType, shown: &Shown) -> String {
    let container = matches!(shown.class, "list" | "dict");
    match kind {
        PropertyType::String => format!("Value must be a string; got {}", shown.repr),
        PropertyType::Integer | PropertyType::Number if container => format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            shown.class
        ),
        PropertyType::Integer => format!("Value '{}' is not an integer", shown.str),
        PropertyType::Number => format!("could not convert string to float: {}", shown.repr),
        PropertyType::Boolean if shown.class == "str" => {
            format!("\"{}\" is not a valid boolean", shown.str.to_lowercase())
        }
        PropertyType::Boolean => format!("\"{}\" is not a valid boolean", shown.str),
        PropertyType::Map => format!("\"{}\" is not a map", shown.str),
        PropertyType::List => format!("\"{}\" is not a list", shown.repr),
        PropertyType::Any => String::new(),
    }
}

/// The parameter type whose values suit a property.
fn suitable(schema: &Schema) -> &'static str {
    match schema.kind {
        PropertyType::String | PropertyType::Any => "a string",
        PropertyType::Integer | PropertyType::Number => "a number",
        PropertyType::Boolean => "a boolean",
        PropertyType::Map => "json",
        PropertyType::List => match schema.items.as_deref().map(|i| i.kind) {
            Some(PropertyType::Map | PropertyType::List) => "json",
            _ => "a comma_delimited_list",
        },
    }
}

fn advice(ty: ParameterType, schema: &Schema, name: &str) -> String {
    if ty == ParameterType::CommaDelimitedList && schema.kind == PropertyType::String {
        return format!(
            "join the items (`{{list_join: [',', {{get_param: {name}}}]}}`), or declare `{name}` as a string"
        );
    }
    format!("declare `{name}` as {}", suitable(schema))
}

/// A default as a message shows it: short values in backticks, long ones elided.
fn shown_value(value: &Value) -> String {
    let text = value.py_repr().replace('\n', "\\n");
    if text.chars().count() > 40 {
        let head: String = text.chars().take(37).collect();
        format!("`{head}…`")
    } else {
        format!("`{text}`")
    }
}

#[cfg(test)]
mod tests {
    use hotfix_hot::resource_types::{self, Schema};

    fn converts(schema: &Schema) -> bool {
        schema.allow_conversion
            || schema.schema.values().any(converts)
            || schema.items.as_deref().is_some_and(converts)
    }

    #[test]
    fn no_registered_property_converts_strings_to_maps_or_lists() {
        // Heat gives `allow_conversion` only to the properties of template resources
        // (`Schema.from_parameter`), which the rule does not check; were a registered type to
        // have one, the rule would skip it, and the oracle's table would need that column.
        let converting: Vec<&str> = resource_types::all()
            .iter()
            .filter(|(_, t)| t.properties.values().any(converts))
            .map(|(name, _)| name)
            .collect();
        assert!(converting.is_empty(), "{converting:?}");
    }
}
