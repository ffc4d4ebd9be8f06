//! What Heat checks a value passed for a parameter against when the template is a nested one
//! (the `type` of a resource, or a type an environment maps to it): `HOTParamSchema.from_dict`
//! (`heat/engine/hot/parameters.py`) builds the parameter's type and constraints, and
//! `Schema.from_parameter` (`heat/engine/properties.py`) turns them into the schema of the
//! resource's property of the same name, which Heat checks before it creates the resource.
//!
//! ```
//! use hotfix_hot::parameter_schema::{ParameterSchema, ParameterType};
//! use hotfix_hot::resource_types::PropertyType;
//! use hotfix_hot::{Template, Version};
//!
//! let doc = hotfix_yaml::parse(
//!     "heat_template_version: rocky\nparameters:\n  \
//!      names: {type: comma_delimited_list, constraints: [{length: {max: 3}}]}\n",
//! )
//! .unwrap();
//! let template = Template::new(&doc);
//! let names = &template.parameters[0];
//! let schema = ParameterSchema::of(&doc, names.value, Version::V2018_08_31).unwrap();
//! assert_eq!(schema.kind, ParameterType::CommaDelimitedList);
//! let property = schema.property_schema(true);
//! assert_eq!(property.kind, PropertyType::List);
//! assert!(property.allow_conversion && property.required);
//! assert_eq!(property.constraints.len(), 1);
//! ```

use std::collections::BTreeMap;

use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};
use serde_json::{Number, Value};

use crate::Version;
use crate::resource_types::{Bounds, Constraint, Modulo, PropertyType, Schema, SupportStatus};

/// A HOT parameter type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterType {
    String,
    Number,
    CommaDelimitedList,
    Json,
    Boolean,
}

impl ParameterType {
    /// The type of that name, as a template writes it (`comma_delimited_list`).
    pub fn parse(name: &str) -> Option<ParameterType> {
        Some(match name {
            "string" => ParameterType::String,
            "number" => ParameterType::Number,
            "comma_delimited_list" => ParameterType::CommaDelimitedList,
            "json" => ParameterType::Json,
            "boolean" => ParameterType::Boolean,
            _ => return None,
        })
    }

    /// Its name, as a template writes it.
    pub fn name(self) -> &'static str {
        match self {
            ParameterType::String => "string",
            ParameterType::Number => "number",
            ParameterType::CommaDelimitedList => "comma_delimited_list",
            ParameterType::Json => "json",
            ParameterType::Boolean => "boolean",
        }
    }

    /// The type of the property Heat makes of it (`Schema.from_parameter`'s map).
    pub fn property_type(self) -> PropertyType {
        match self {
            ParameterType::String => PropertyType::String,
            ParameterType::Number => PropertyType::Number,
            ParameterType::CommaDelimitedList => PropertyType::List,
            ParameterType::Json => PropertyType::Map,
            ParameterType::Boolean => PropertyType::Boolean,
        }
    }

    /// Every type, in the order Heat's `TYPES` lists them.
    pub const ALL: [ParameterType; 5] = [
        ParameterType::String,
        ParameterType::Number,
        ParameterType::CommaDelimitedList,
        ParameterType::Json,
        ParameterType::Boolean,
    ];

    /// Whether a constraint applies to a parameter of this type; Heat refuses the template
    /// otherwise.
    fn accepts(self, constraint: &Constraint) -> bool {
        ConstraintKind::of(constraint).applies_to(self)
    }
}

/// A kind of parameter constraint: a key of a constraint item and the class Heat builds of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintKind {
    Modulo,
    Range,
    Length,
    AllowedValues,
    AllowedPattern,
    CustomConstraint,
}

impl ConstraintKind {
    /// Heat's order of precedence within one item (`_constraint_from_def`): the first the
    /// version reads is the item's constraint.
    pub const ORDER: [ConstraintKind; 6] = [
        ConstraintKind::Modulo,
        ConstraintKind::Range,
        ConstraintKind::Length,
        ConstraintKind::AllowedValues,
        ConstraintKind::AllowedPattern,
        ConstraintKind::CustomConstraint,
    ];

    /// Its key in a constraint item.
    pub fn key(self) -> &'static str {
        match self {
            ConstraintKind::Modulo => "modulo",
            ConstraintKind::Range => "range",
            ConstraintKind::Length => "length",
            ConstraintKind::AllowedValues => "allowed_values",
            ConstraintKind::AllowedPattern => "allowed_pattern",
            ConstraintKind::CustomConstraint => "custom_constraint",
        }
    }

    /// The class name Heat prints (`AllowedPattern constraint invalid for number`).
    pub fn class_name(self) -> &'static str {
        match self {
            ConstraintKind::Modulo => "Modulo",
            ConstraintKind::Range => "Range",
            ConstraintKind::Length => "Length",
            ConstraintKind::AllowedValues => "AllowedValues",
            ConstraintKind::AllowedPattern => "AllowedPattern",
            ConstraintKind::CustomConstraint => "CustomConstraint",
        }
    }

    /// Whether it applies to a parameter of type `ty` (the class's `valid_types`).
    pub fn applies_to(self, ty: ParameterType) -> bool {
        use ParameterType::{Boolean, CommaDelimitedList, Json, Number, String};
        match self {
            ConstraintKind::Range | ConstraintKind::Modulo => ty == Number,
            ConstraintKind::Length => matches!(ty, String | CommaDelimitedList | Json),
            ConstraintKind::AllowedValues | ConstraintKind::CustomConstraint => {
                matches!(ty, String | Number | CommaDelimitedList | Boolean)
            }
            ConstraintKind::AllowedPattern => ty == String,
        }
    }

    /// Whether a template of `version` reads it (`modulo` from 2017-02-24).
    pub fn read_by(self, version: Version) -> bool {
        self != ConstraintKind::Modulo || version.has_modulo_constraint()
    }

    /// The kind of a built constraint.
    pub fn of(constraint: &Constraint) -> ConstraintKind {
        match constraint {
            Constraint::Range(_) => ConstraintKind::Range,
            Constraint::Length(_) => ConstraintKind::Length,
            Constraint::Modulo(_) => ConstraintKind::Modulo,
            Constraint::AllowedValues(_) => ConstraintKind::AllowedValues,
            Constraint::AllowedPattern(_) => ConstraintKind::AllowedPattern,
            Constraint::CustomConstraint(_) => ConstraintKind::CustomConstraint,
        }
    }
}

/// A parameter's type and constraints, as Heat builds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterSchema {
    pub kind: ParameterType,
    /// In the order written.
    pub constraints: Vec<ParameterConstraint>,
}

/// One constraint of a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterConstraint {
    pub constraint: Constraint,
    /// The `description`, when it is a string that is not empty: Heat's error is then this text
    /// instead of its own.
    pub description: Option<String>,
}

/// The keys of a constraint item (`PARAM_CONSTRAINTS`).
pub const CONSTRAINT_KEYS: [&str; 7] = [
    "description",
    "length",
    "range",
    "modulo",
    "allowed_values",
    "allowed_pattern",
    "custom_constraint",
];

/// How deep an allowed value is read.
const MAX_DEPTH: usize = 32;

impl ParameterSchema {
    /// The schema of the parameter whose definition is `definition`, in a HOT template of
    /// `version`. `None` when Heat refuses the definition (other findings say why) and when a
    /// part of it is beyond what this module models (a bound that is not a plain number, an
    /// allowed value with no JSON form, a description that is not a string).
    pub fn of(doc: &Document, definition: NodeId, version: Version) -> Option<ParameterSchema> {
        let kind = ParameterType::parse(doc.str_value(doc.get(definition, "type")?)?)?;
        let mut constraints = Vec::new();
        if let Some(list) = doc.get(definition, "constraints") {
            let list = doc.resolve(list);
            if !is_null(doc, list) {
                for &item in doc.items(list)? {
                    let built = constraint(doc, item, version)?;
                    if !kind.accepts(&built.constraint) {
                        return None;
                    }
                    constraints.push(built);
                }
            }
        }
        Some(ParameterSchema { kind, constraints })
    }

    /// `Schema.from_parameter`: the schema of the property of a resource whose type is this
    /// parameter's template. `required` when the parameter has no default. A `json` or
    /// `comma_delimited_list` parameter allows conversion (a string for a map, a string or list
    /// for a list); the parameter's default is not the property's.
    pub fn property_schema(&self, required: bool) -> Schema {
        Schema {
            kind: self.kind.property_type(),
            required,
            default: None,
            constraints: self
                .constraints
                .iter()
                .map(|c| c.constraint.clone())
                .collect(),
            update_allowed: true,
            immutable: false,
            implemented: true,
            allow_conversion: matches!(
                self.kind,
                ParameterType::Json | ParameterType::CommaDelimitedList
            ),
            support_status: SupportStatus::default(),
            schema: BTreeMap::new(),
            items: None,
        }
    }
}

/// `_constraint_from_def` of one item: the first kind the version reads (`modulo`, from
/// 2017-02-24, then `range`, `length`, `allowed_values`, `allowed_pattern`,
/// `custom_constraint`).
fn constraint(doc: &Document, item: NodeId, version: Version) -> Option<ParameterConstraint> {
    let item = doc.resolve(item);
    doc.raw_entries(item)?;
    let entries = doc.entries(item);
    if entries.iter().any(|e| {
        doc.str_value(e.key)
            .is_none_or(|k| !CONSTRAINT_KEYS.contains(&k))
    }) {
        return None;
    }
    let description = match doc.get(item, "description").map(|d| doc.resolve(d)) {
        None => None,
        Some(d) if is_null(doc, d) => None,
        Some(d) => Some(doc.str_value(d)?.to_owned()).filter(|d| !d.is_empty()),
    };
    let value = |key: &str| doc.get(item, key).map(|v| doc.resolve(v));
    let constraint =
        if let Some(modulo) = value("modulo").filter(|_| version.has_modulo_constraint()) {
            build_modulo(doc, modulo)?
        } else if let Some(range) = value("range") {
            Constraint::Range(bounds(doc, range, false)?)
        } else if let Some(length) = value("length") {
            Constraint::Length(bounds(doc, length, true)?)
        } else if let Some(allowed) = value("allowed_values") {
            let items = doc.items(allowed)?;
            Constraint::AllowedValues(
                items
                    .iter()
                    .map(|&i| to_json(doc, i, 0))
                    .collect::<Option<_>>()?,
            )
        } else if let Some(pattern) = value("allowed_pattern") {
            Constraint::AllowedPattern(doc.str_value(pattern)?.to_owned())
        } else if let Some(name) = value("custom_constraint") {
            Constraint::CustomConstraint(doc.str_value(name)?.to_owned())
        } else {
            return None;
        };
    Some(ParameterConstraint {
        constraint,
        description,
    })
}

/// A `range` or `length` mapping (`min`, `max`, at least one); a length's bounds are integers.
fn bounds(doc: &Document, map: NodeId, integral: bool) -> Option<Bounds> {
    let (min, max) = (num(doc, map, "min").ok()?, num(doc, map, "max").ok()?);
    if only_keys(doc, map, &["min", "max"])
        && (min.is_some() || max.is_some())
        && (!integral || [&min, &max].into_iter().flatten().all(Number::is_i64))
    {
        return Some(Bounds { min, max });
    }
    None
}

/// A `modulo` mapping: a non-zero integer `step`, an integer `offset` smaller by absolute value
/// and of the same sign.
fn build_modulo(doc: &Document, map: NodeId) -> Option<Constraint> {
    if !only_keys(doc, map, &["step", "offset"]) {
        return None;
    }
    let (step, offset) = (num(doc, map, "step").ok()??, num(doc, map, "offset").ok()??);
    let integral = |n: &Number| match n.as_i64() {
        Some(i) => Some(i),
        #[allow(
            clippy::cast_possible_truncation,
            reason = "a whole float within i64, as Python's int() of it"
        )]
        None => n
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
            .map(|f| f as i64),
    };
    let (s, o) = (integral(&step)?, integral(&offset)?);
    if s == 0 || o.unsigned_abs() >= s.unsigned_abs() || (s < 0 && o > 0) || (s > 0 && o < 0) {
        return None;
    }
    Some(Constraint::Modulo(Modulo {
        step: Some(step),
        offset: Some(offset),
    }))
}

/// Whether `map` is a mapping with no key but these.
fn only_keys(doc: &Document, map: NodeId, keys: &[&str]) -> bool {
    doc.raw_entries(map).is_some()
        && doc
            .entries(map)
            .iter()
            .all(|e| doc.str_value(e.key).is_some_and(|k| keys.contains(&k)))
}

/// A bound Heat refuses, or one this module does not model.
struct NotANumber;

/// `Schema.get_num`: the number under `key` (`None` when absent or null), a string read as
/// Python's `int()` or else `float()` reads it. An error for what this module does not model
/// (a boolean, a huge integer, `inf`, `1_000`) or Heat refuses.
fn num(doc: &Document, map: NodeId, key: &str) -> Result<Option<Number>, NotANumber> {
    let Some(node) = doc.get(map, key) else {
        return Ok(None);
    };
    let scalar = doc.scalar(node).ok_or(NotANumber)?;
    let number = match &scalar.value {
        ScalarValue::Null => return Ok(None),
        ScalarValue::Int(hotfix_yaml::Int::Small(n)) => Some(Number::from(*n)),
        ScalarValue::Float(f) => Number::from_f64(*f),
        ScalarValue::Str => parse_num(scalar.text.as_str()),
        _ => None,
    };
    number.map(Some).ok_or(NotANumber)
}

/// A plain decimal integer or float, as Python's `int()` and `float()` read it (surrounding
/// whitespace allowed); `None` for anything else.
fn parse_num(text: &str) -> Option<Number> {
    let text = text.trim();
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() {
        return None;
    }
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse::<i64>().ok().map(Number::from);
    }
    let plain = digits
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !plain || !digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    text.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
        .and_then(Number::from_f64)
}

fn is_null(doc: &Document, node: NodeId) -> bool {
    doc.scalar(node)
        .is_some_and(|s| s.value == ScalarValue::Null)
}

/// A YAML value as JSON, when it has a JSON form that Python's equals (no huge integer, no
/// `inf`, no key that is not a string).
fn to_json(doc: &Document, node: NodeId, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    let node = doc.resolve(node);
    match &doc.node(node).kind {
        NodeKind::Scalar(scalar) => Some(match &scalar.value {
            ScalarValue::Null => Value::Null,
            ScalarValue::Bool(b) => Value::Bool(*b),
            ScalarValue::Int(hotfix_yaml::Int::Small(n)) => Value::from(*n),
            ScalarValue::Float(f) => Value::Number(Number::from_f64(*f)?),
            ScalarValue::Str => Value::String(scalar.text.as_str().to_owned()),
            _ => return None,
        }),
        NodeKind::Sequence { items, .. } => items
            .iter()
            .map(|&i| to_json(doc, i, depth + 1))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        NodeKind::Mapping { .. } => {
            let mut object = serde_json::Map::new();
            for entry in doc.entries(node) {
                let key = doc.str_value(entry.key)?.to_owned();
                object.insert(key, to_json(doc, entry.value, depth + 1)?);
            }
            Some(Value::Object(object))
        }
        NodeKind::Alias { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Template;

    fn schema(definition: &str, version: Version) -> Option<ParameterSchema> {
        let text = format!("heat_template_version: rocky\nparameters:\n  p: {definition}\n");
        let doc = hotfix_yaml::parse(&text).expect("parses");
        let template = Template::new(&doc);
        ParameterSchema::of(&doc, template.parameters[0].value, version)
    }

    fn constraints(definition: &str) -> Option<Vec<Constraint>> {
        schema(definition, Version::V2018_08_31)
            .map(|s| s.constraints.into_iter().map(|c| c.constraint).collect())
    }

    #[test]
    fn each_parameter_type_gives_heats_property_type() {
        for (name, kind, conversion) in [
            ("string", PropertyType::String, false),
            ("number", PropertyType::Number, false),
            ("comma_delimited_list", PropertyType::List, true),
            ("json", PropertyType::Map, true),
            ("boolean", PropertyType::Boolean, false),
        ] {
            let built = schema(&format!("{{type: {name}}}"), Version::V2018_08_31)
                .expect("a schema")
                .property_schema(false);
            assert_eq!(built.kind, kind, "{name}");
            assert_eq!(built.allow_conversion, conversion, "{name}");
        }
        assert!(schema("{type: integer}", Version::V2018_08_31).is_none());
    }

    #[test]
    fn constraints_are_built_as_heat_builds_them() {
        assert_eq!(
            constraints("{type: number, constraints: [{range: {min: \"1\", max: 5.5}}]}"),
            Some(vec![Constraint::Range(Bounds {
                min: Some(Number::from(1)),
                max: Number::from_f64(5.5),
            })])
        );
        // One kind an item: `range` before `allowed_values`.
        assert_eq!(
            constraints("{type: number, constraints: [{range: {min: 1}, allowed_values: [1]}]}")
                .map(|c| c.len()),
            Some(1)
        );
        let described = schema(
            "{type: string, constraints: [{allowed_pattern: '[a-z]+', description: lower}]}",
            Version::V2018_08_31,
        )
        .expect("a schema");
        assert_eq!(
            described.constraints[0].description.as_deref(),
            Some("lower")
        );
    }

    #[test]
    fn a_definition_heat_refuses_has_no_schema() {
        for refused in [
            "{type: string, constraints: [{range: {min: 1}}]}",
            "{type: number, constraints: [{length: {min: 1}}]}",
            "{type: string, constraints: [{length: {min: 1.5}}]}",
            "{type: string, constraints: [{range: {}}]}",
            "{type: string, constraints: {length: {min: 1}}}",
            "{type: string, constraints: [{nope: 1}]}",
            "{type: string, constraints: [{allowed_values: a}]}",
            "{type: json, constraints: [{allowed_values: [a]}]}",
            "{type: number, constraints: [{modulo: {step: 2, offset: 2}}]}",
        ] {
            assert!(constraints(refused).is_none(), "{refused}");
        }
    }

    #[test]
    fn modulo_counts_from_2017_02_24() {
        let definition = "{type: number, constraints: [{modulo: {step: 2, offset: 1}}]}";
        assert_eq!(constraints(definition).map(|c| c.len()), Some(1));
        // Before, an item with only `modulo` expresses no constraint.
        assert!(schema(definition, Version::V2016_10_14).is_none());
    }
}
