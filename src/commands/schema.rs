//! `hotfix schema`: a JSON Schema (draft-07) of HOT templates, or of environment files, for
//! editors that validate and complete YAML from a schema (Red Hat's yaml-language-server, in
//! VS Code, the IDEs of `JetBrains`, Neovim and Helix).
//!
//! The schema is made from the data hotfix checks with: the sections and keys of
//! `heat_template_version` (`tables.rs`), the intrinsic functions of that version, and Heat's
//! resource types (`resource_types.json`), each type's properties and `update_policy` keys with
//! their types, `required`, allowed values, ranges, lengths and patterns. It says what Heat
//! says and nothing stricter: a value Heat converts (`"5"` for an integer, `true` for a string)
//! is accepted, `null` is accepted wherever Heat uses the default for it, an intrinsic function
//! of the version is accepted wherever a value may be one, and a property a translation rule
//! fills (an older name Heat renames) is not required. What a schema cannot see (other files,
//! references between resources, computed values) is left to `hotfix lint` and the server.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use hotfix_hot::PARAMETER_TYPES;
use hotfix_hot::heat_release::{
    HeatRelease, property_arrival, template_version_arrival, type_arrival,
};
use hotfix_hot::resource_types::{self, Constraint, PropertyType, ResourceType, Schema};
use hotfix_hot::{Version, environment};
use serde_json::{Map, Value, json};

/// `hotfix schema`.
#[derive(Debug, clap::Args)]
pub(crate) struct SchemaArgs {
    /// The OpenStack release whose Heat the templates are deployed to: a series (`wallaby`) or a
    /// release number (`2023.1`), liberty or later; the default is the newest. Resource types,
    /// properties and template versions that arrived in a later Heat are left out.
    #[arg(
        long,
        value_name = "RELEASE",
        value_parser = crate::complete::heat_releases(),
        hide_possible_values = true
    )]
    heat_release: Option<HeatRelease>,

    /// The `heat_template_version` (a date or a name) whose sections, keys and functions the
    /// schema accepts. The default accepts every version the Heat release has, with the
    /// functions of any of them.
    #[arg(
        long,
        value_name = "VERSION",
        value_parser = crate::complete::hot_versions(),
        hide_possible_values = true,
        conflicts_with = "environment"
    )]
    template_version: Option<String>,

    /// The schema of environment files (`-e FILE`) instead of templates.
    #[arg(long)]
    environment: bool,

    /// Write every release's schemas into this folder instead, as the release workflow
    /// publishes them: `hot-SERIES.schema.json` for each release from liberty on (any template
    /// version it has), `hot.schema.json` (the newest) and `environment.schema.json`.
    #[arg(
        long,
        value_name = "FOLDER",
        conflicts_with_all = ["heat_release", "template_version", "environment"]
    )]
    every_release: Option<std::path::PathBuf>,
}

pub(crate) fn run(args: &SchemaArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    if let Some(folder) = &args.every_release {
        every_release(folder)?;
        return Ok(ExitCode::SUCCESS);
    }
    let release = args.heat_release.unwrap_or(HeatRelease::LATEST);
    let schema = if args.environment {
        environment_schema(release)
    } else {
        let versions = template_versions(release, args.template_version.as_deref())?;
        template_schema(release, &versions)
    };
    serde_json::to_writer_pretty(&mut *out, &schema)?;
    writeln!(out)?;
    Ok(ExitCode::SUCCESS)
}

/// `--every-release FOLDER`: each file written whole or not at all (through a temporary file).
fn every_release(folder: &std::path::Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let write = |name: String, schema: &Value| -> anyhow::Result<()> {
        let path = folder.join(name);
        let mut text = serde_json::to_vec_pretty(schema)?;
        text.push(b'\n');
        crate::rewrite::replace(&path, &text)
            .with_context(|| format!("cannot write {}", path.display()))
    };
    for release in HeatRelease::all().filter(|r| r.is_checked()) {
        let versions = template_versions(release, None)?;
        write(
            format!("hot-{}.schema.json", release.series()),
            &template_schema(release, &versions),
        )?;
    }
    let latest = HeatRelease::LATEST;
    write(
        "hot.schema.json".into(),
        &template_schema(latest, &template_versions(latest, None)?),
    )?;
    write(
        "environment.schema.json".into(),
        &environment_schema(latest),
    )?;
    Ok(())
}

/// The template versions the schema accepts: the one named, else every one the release's Heat
/// has.
fn template_versions(release: HeatRelease, named: Option<&str>) -> anyhow::Result<Vec<Version>> {
    let has = |v: Version| template_version_arrival(v).is_none_or(|arrived| arrived <= release);
    let Some(name) = named else {
        return Ok(Version::ALL.into_iter().filter(|v| has(*v)).collect());
    };
    let Some(version) = Version::parse(name) else {
        bail!(
            "`{name}` is not a heat_template_version; Heat accepts {}",
            Version::accepted_strings().join(", ")
        );
    };
    if !has(version) {
        bail!(
            "heat_template_version {version} arrived after the Heat of {release}: name a later \
             --heat-release or an earlier --template-version"
        );
    }
    Ok(vec![version])
}

/// The names a `heat_template_version` may be written with, in these versions.
fn version_names(versions: &[Version]) -> Vec<&'static str> {
    let mut names: Vec<&str> = versions
        .iter()
        .flat_map(|v| std::iter::once(v.date()).chain(v.name()))
        .collect();
    names.sort_unstable();
    names
}

/// Every key of `keys` in any of the versions, in the first version's order then the rest.
fn union(versions: &[Version], keys: fn(Version) -> &'static [&'static str]) -> Vec<&'static str> {
    let mut all: Vec<&str> = Vec::new();
    for version in versions {
        for key in keys(*version) {
            if !all.contains(key) && *key != "__undefined__" {
                all.push(key);
            }
        }
    }
    all
}

/// The schema of templates of these versions (one, or every one the release has).
fn template_schema(release: HeatRelease, versions: &[Version]) -> Value {
    let heat = resource_types::all().heat_version();
    let version_text = match versions {
        [one] => format!("heat_template_version {one}"),
        _ => "any heat_template_version".to_owned(),
    };
    let mut functions: BTreeSet<&str> = BTreeSet::new();
    let mut condition_functions: BTreeSet<&str> = BTreeSet::new();
    for version in versions {
        functions.extend(version.functions().iter().map(|f| f.name()));
        condition_functions.extend(version.condition_functions().iter().map(|f| f.name()));
    }
    let types = available_types(release);
    let mut definitions = Map::new();
    definitions.insert(
        "function".into(),
        function_schema(&functions, "An intrinsic function"),
    );
    definitions.insert(
        "condition_function".into(),
        function_schema(&condition_functions, "A condition function"),
    );
    definitions.insert("parameter".into(), parameter_schema(versions));
    definitions.insert("resource".into(), resource_schema(versions, &types));
    definitions.insert("resource_type".into(), resource_type_schema(&types));
    definitions.insert("output".into(), output_schema(versions));
    for (name, t) in &types {
        definitions.insert(
            format!("{name} properties"),
            properties_schema(name, t, release),
        );
        if !t.update_policy.is_empty() {
            definitions.insert(
                format!("{name} update_policy"),
                update_policy_schema(name, t, release),
            );
        }
    }
    let mut properties = Map::new();
    for section in union(versions, Version::sections) {
        properties.insert(section.to_owned(), section_schema(section, versions));
    }
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$comment": format!(
            "Generated by hotfix {} (`hotfix schema`) from Heat {heat}'s resource types.",
            env!("CARGO_PKG_VERSION")
        ),
        "title": "OpenStack Heat Orchestration Template (HOT)",
        "description": format!(
            "A Heat Orchestration Template, {version_text}, for the Heat of {release} \
             (resource types of Heat {heat})."
        ),
        "type": "object",
        "required": ["heat_template_version"],
        "properties": properties,
        "additionalProperties": false,
        "definitions": definitions,
    })
}

/// The schema of a top-level section of templates of these versions.
fn section_schema(section: &str, versions: &[Version]) -> Value {
    match section {
        "heat_template_version" => json!({
            "description": "The template's version: the functions, sections and keys Heat \
                            accepts in it.",
            "enum": version_names(versions),
        }),
        "description" => json!({
            "type": ["string", "null"],
            "description": "What the template does.",
        }),
        "parameter_groups" => json!({
            "type": ["array", "null"],
            "description": "How a user interface groups and orders the parameters.",
            "items": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "description": {"type": "string"},
                    "parameters": {"type": "array", "items": {"type": "string"}},
                },
            },
        }),
        "parameters" => json!({
            "type": ["object", "null"],
            "description": "The template's inputs, by name.",
            "additionalProperties": {"$ref": "#/definitions/parameter"},
        }),
        "resources" => json!({
            "type": ["object", "null"],
            "description": "The resources of the stack, by name.",
            "additionalProperties": {"$ref": "#/definitions/resource"},
        }),
        "outputs" => json!({
            "type": ["object", "null"],
            "description": "The template's outputs, by name.",
            "additionalProperties": {"$ref": "#/definitions/output"},
        }),
        // Null is refused here only: `Condition definitions must be a map`.
        "conditions" => json!({
            "type": "object",
            "description": "Named conditions: each a boolean, a condition function, or \
                            another condition's name.",
            "additionalProperties": {
                "anyOf": [
                    {"type": ["boolean", "string"]},
                    {"$ref": "#/definitions/condition_function"},
                ],
            },
        }),
        _ => json!({}),
    }
}

/// The resource types the release's Heat has, as far as their support statuses say.
fn available_types(release: HeatRelease) -> Vec<(&'static str, &'static ResourceType)> {
    resource_types::all()
        .iter()
        .filter(|(_, t)| type_arrival(t).is_none_or(|arrived| arrived <= release))
        .collect()
}

/// A call of one of these functions: a map with one key, the function's name.
fn function_schema(names: &BTreeSet<&str>, what: &str) -> Value {
    json!({
        "description": format!("{what}: {}.", names.iter().copied().collect::<Vec<_>>().join(", ")),
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": {"enum": names},
    })
}

/// `schema`, or a call of an intrinsic function.
fn or_function(schema: &Value) -> Value {
    json!({"anyOf": [schema, {"$ref": "#/definitions/function"}]})
}

/// A parameter's definition.
fn parameter_schema(versions: &[Version]) -> Value {
    let mut keys = Map::new();
    for key in union(versions, Version::parameter_keys) {
        let schema = match key {
            "type" => json!({"enum": PARAMETER_TYPES}),
            "description" | "label" => json!({"type": ["string", "null"]}),
            "hidden" | "immutable" => json!({"type": ["boolean", "string"]}),
            "tags" => json!({"type": "array", "items": {"type": "string"}}),
            "constraints" => json!({
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "length": {"type": "object"},
                        "range": {"type": "object"},
                        "modulo": {"type": "object"},
                        "allowed_values": {"type": "array"},
                        "allowed_pattern": {"type": "string"},
                        "custom_constraint": {"type": "string"},
                        "description": {"type": "string"},
                    },
                    "additionalProperties": false,
                },
            }),
            _ => json!({}),
        };
        keys.insert(key.to_owned(), schema);
    }
    json!({
        "type": "object",
        "required": ["type"],
        "properties": keys,
        "additionalProperties": false,
    })
}

/// An output's definition.
fn output_schema(versions: &[Version]) -> Value {
    let mut keys = Map::new();
    for key in union(versions, Version::output_keys) {
        let schema = match key {
            "description" => json!({"type": ["string", "null"]}),
            "condition" => condition_reference(),
            _ => json!({}),
        };
        keys.insert(key.to_owned(), schema);
    }
    json!({"type": "object", "properties": keys, "additionalProperties": false})
}

/// A `condition:` field: a condition's name, a boolean, or a condition function.
fn condition_reference() -> Value {
    json!({"anyOf": [
        {"type": ["string", "boolean"]},
        {"$ref": "#/definitions/condition_function"},
    ]})
}

/// A resource's `type`: a registered type, a template (a name or URL ending in `.yaml` or
/// `.template`, as Heat's registry tells them), or a name outside the namespaces Heat
/// registers types in (an environment may map it; the schema cannot see environments).
fn resource_type_schema(types: &[(&str, &ResourceType)]) -> Value {
    let names: Vec<&str> = types.iter().map(|(name, _)| *name).collect();
    let namespaces: BTreeSet<&str> = names
        .iter()
        .filter_map(|name| {
            let mut parts = name.match_indices("::");
            let (second, _) = parts.nth(1)?;
            Some(&name[..second])
        })
        .collect();
    let namespaces: Vec<String> = namespaces.iter().map(|n| regex_escape(n)).collect();
    // Shown beside each name by completion (an extension of yaml-language-server's).
    let statuses: Vec<String> = types
        .iter()
        .map(|(_, t)| {
            let chain: Vec<String> = t.support_status.chain().map(ToString::to_string).collect();
            chain.join(", ")
        })
        .collect();
    json!({
        "description": "A resource type of Heat, a template file (`.yaml`, `.template`), or a \
                        type an environment's resource_registry maps.",
        "anyOf": [
            {"enum": names, "enumDescriptions": statuses},
            {"type": "string", "pattern": "\\.(yaml|template)$"},
            {
                "type": "string",
                "not": {"pattern": format!("^(?:{})::", namespaces.join("|"))},
            },
        ],
    })
}

/// `text` with the characters a regular expression gives a meaning to escaped.
fn regex_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// A resource's definition: its keys, and for each registered type its properties and
/// `update_policy`.
fn resource_schema(versions: &[Version], types: &[(&str, &ResourceType)]) -> Value {
    // Heat refuses null for each of them (`Resource NAME properties type must be object`).
    let mut keys = Map::new();
    let deletion_policies = union(versions, Version::deletion_policies);
    for key in union(versions, Version::resource_keys) {
        let schema = match key {
            "type" => json!({"$ref": "#/definitions/resource_type"}),
            "properties" | "metadata" | "update_policy" => or_function(&json!({"type": "object"})),
            "depends_on" => json!({
                "anyOf": [
                    {"type": "string"},
                    {"type": "array", "items": {"type": "string"}},
                ],
            }),
            "deletion_policy" => or_function(&json!({"enum": deletion_policies})),
            "description" => json!({"type": "string"}),
            "external_id" => or_function(&json!({"type": "string"})),
            "condition" => condition_reference(),
            _ => json!({}),
        };
        keys.insert(key.to_owned(), schema);
    }
    let by_type: Vec<Value> = types
        .iter()
        .map(|(name, t)| {
            let mut then = Map::new();
            then.insert(
                "properties".into(),
                or_function(&json!({"$ref": format!("#/definitions/{name} properties")})),
            );
            let mut per_type = json!({"properties": then});
            if !t.update_policy.is_empty() {
                per_type["properties"]["update_policy"] =
                    or_function(&json!({"$ref": format!("#/definitions/{name} update_policy")}));
            }
            let must = t.properties.iter().any(|(key, schema)| {
                schema.required
                    && !t
                        .translation
                        .iter()
                        .any(|rule| rule.path.last().is_some_and(|last| last == key))
            });
            if must && !t.none_resource && !t.is_removed_placeholder() {
                per_type["required"] = json!(["properties"]);
            }
            json!({
                "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                "then": per_type,
            })
        })
        .collect();
    json!({
        "type": "object",
        "required": ["type"],
        "properties": keys,
        "additionalProperties": false,
        "allOf": by_type,
    })
}

/// What the schema of a value needs beyond the value's own schema: the resource type it belongs
/// to (its translation rules) and the release (to leave out keys that arrived later).
#[derive(Clone, Copy, Debug)]
struct Context<'a> {
    type_name: &'a str,
    /// The type, for its properties; none for its `update_policy` keys.
    resource_type: Option<&'a ResourceType>,
    release: HeatRelease,
}

/// The `properties` of a resource of type `name`.
fn properties_schema(name: &str, t: &ResourceType, release: HeatRelease) -> Value {
    let status = t
        .support_status
        .chain()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let context = Context {
        type_name: name,
        resource_type: Some(t),
        release,
    };
    let mut schema = map_schema(context, &t.properties, &[]);
    schema["description"] = json!(format!("The properties of {name} ({status})."));
    if t.none_resource || t.is_removed_placeholder() {
        // Heat accepts any property and does nothing with it.
        schema["additionalProperties"] = json!(true);
        schema["required"] = json!([]);
    }
    schema
}

/// The `update_policy` keys a type takes.
fn update_policy_schema(name: &str, t: &ResourceType, release: HeatRelease) -> Value {
    let context = Context {
        type_name: name,
        resource_type: None,
        release,
    };
    map_schema(context, &t.update_policy, &[])
}

/// A map whose keys have schemas (the properties, or a map property's keys), `path` the names
/// leading to it (a list's items add none). Keys that arrived after the release are left out.
fn map_schema(context: Context<'_>, keys: &BTreeMap<String, Schema>, path: &[&str]) -> Value {
    let mut properties = Map::new();
    for (key, schema) in keys {
        let mut key_path = path.to_vec();
        key_path.push(key);
        if context.resource_type.is_some()
            && property_arrival(context.type_name, &key_path, schema)
                .is_some_and(|arrived| arrived > context.release)
        {
            continue;
        }
        properties.insert(
            key.clone(),
            value_schema(context, schema, &key_path, path.is_empty()),
        );
    }
    let required: Vec<&str> = keys
        .iter()
        .filter(|(key, schema)| {
            schema.required && properties.contains_key(*key) && !translated(context, key)
        })
        .map(|(key, _)| key.as_str())
        .collect();
    json!({
        "type": ["object", "null"],
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// Whether a translation rule of the type may fill a key of this name from another one (Heat
/// translates before it checks `required`).
fn translated(context: Context<'_>, key: &str) -> bool {
    context.resource_type.is_some_and(|t| {
        t.translation
            .iter()
            .any(|rule| rule.path.last().is_some_and(|last| last == key))
    })
}

/// The schema of a value: its type as Heat converts it, its constraints, or a function. `top`:
/// a property itself or an `update_policy` key, not a key of a map nor a list's item (whose
/// update follows its property's).
fn value_schema(context: Context<'_>, schema: &Schema, path: &[&str], top: bool) -> Value {
    let mut typed = match schema.kind {
        PropertyType::Map if !schema.schema.is_empty() => map_schema(context, &schema.schema, path),
        _ => json!({}),
    };
    if let (PropertyType::List, Some(items)) = (schema.kind, &schema.items) {
        typed["items"] = value_schema(context, items, path, false);
    }
    typed_value(schema, typed, top)
}

/// The regular expression of a string Python's `int()` reads.
const INTEGER_TEXT: &str = "^\\s*[-+]?[0-9](_?[0-9])*\\s*$";
/// The regular expression of a string Python's `int()` or `float()` reads.
const NUMBER_TEXT: &str = "^\\s*[-+]?([0-9](_?[0-9])*(\\.([0-9](_?[0-9])*)?)?|\\.[0-9](_?[0-9])*)\
                           ([eE][-+]?[0-9](_?[0-9])*)?\\s*$|^\\s*[-+]?([iI][nN][fF]([iI][nN][iI]\
                           [tT][yY])?|[nN][aA][nN])\\s*$";

/// `inner` (the keys of a map with a schema, or `{}`) with the type, constraints and description
/// of `schema`, or a function.
fn typed_value(schema: &Schema, inner: Value, top: bool) -> Value {
    let mut typed = inner;
    let set = |typed: &mut Value, key: &str, value: Value| {
        if let Value::Object(map) = typed {
            map.insert(key.to_owned(), value);
        }
    };
    // The types Heat converts to the property's type (`heat/engine/properties.py`), and null,
    // for which Heat uses the default.
    let mut alternatives: Vec<Value> = Vec::new();
    match schema.kind {
        PropertyType::String => set(
            &mut typed,
            "type",
            json!(["string", "integer", "boolean", "null"]),
        ),
        PropertyType::Integer => {
            set(&mut typed, "type", json!(["number", "boolean", "null"]));
            alternatives.push(json!({"type": "string", "pattern": INTEGER_TEXT}));
        }
        PropertyType::Number => {
            set(&mut typed, "type", json!(["number", "boolean", "null"]));
            alternatives.push(json!({"type": "string", "pattern": NUMBER_TEXT}));
        }
        PropertyType::Boolean => {
            set(&mut typed, "type", json!(["boolean", "null"]));
            alternatives.push(
                json!({"type": "string", "pattern": "^([tT][rR][uU][eE]|[fF][aA][lL][sS][eE])$"}),
            );
        }
        PropertyType::Map => {
            if typed.get("type").is_none() {
                set(&mut typed, "type", json!(["object", "null"]));
            }
            if schema.allow_conversion {
                alternatives.push(json!({"type": ["string", "array"]}));
            }
        }
        PropertyType::List => {
            set(&mut typed, "type", json!(["array", "null"]));
            if schema.allow_conversion {
                alternatives.push(json!({"type": "string"}));
            }
        }
        PropertyType::Any => {}
    }
    for constraint in &schema.constraints {
        match constraint {
            Constraint::AllowedValues(values) => {
                let mut allowed = values.clone();
                allowed.push(Value::Null);
                if schema.kind == PropertyType::List {
                    // Each item is one of them.
                    let items = typed.get("items").cloned().unwrap_or_else(|| json!({}));
                    set(
                        &mut typed,
                        "items",
                        json!({"allOf": [items], "anyOf": [
                            {"enum": allowed},
                            {"$ref": "#/definitions/function"},
                        ]}),
                    );
                } else {
                    set(&mut typed, "enum", Value::Array(allowed));
                    alternatives.clear();
                }
            }
            Constraint::Range(bounds) => {
                if let Some(min) = &bounds.min {
                    set(&mut typed, "minimum", json!(min));
                }
                if let Some(max) = &bounds.max {
                    set(&mut typed, "maximum", json!(max));
                }
            }
            Constraint::Length(bounds) => {
                let (min_key, max_key) = match schema.kind {
                    PropertyType::List => ("minItems", "maxItems"),
                    PropertyType::Map => ("minProperties", "maxProperties"),
                    _ => ("minLength", "maxLength"),
                };
                if let Some(min) = &bounds.min {
                    set(&mut typed, min_key, json!(min));
                }
                if let Some(max) = &bounds.max {
                    set(&mut typed, max_key, json!(max));
                }
            }
            // Heat matches the whole value.
            Constraint::AllowedPattern(pattern) if schema.kind == PropertyType::String => {
                set(&mut typed, "pattern", json!(format!("^(?:{pattern})$")));
            }
            _ => {}
        }
    }
    let mut any_of = vec![typed];
    any_of.extend(alternatives);
    any_of.push(json!({"$ref": "#/definitions/function"}));
    json!({"description": describe(schema, top), "anyOf": any_of})
}

/// One line on a property, as `hotfix type` says it: its type, whether it is required, its
/// default, what an update does (`top`: of a property itself), its constraints and support
/// status.
fn describe(schema: &Schema, top: bool) -> String {
    let mut parts = vec![schema.kind.as_str().to_owned()];
    if schema.required {
        parts.push("required".into());
    }
    if let Some(default) = &schema.default {
        parts.push(format!("default {default}"));
    }
    if top {
        parts.push(
            if schema.immutable {
                "immutable (an update may not change it)"
            } else if schema.update_allowed {
                "updated in place"
            } else {
                "a change replaces the resource"
            }
            .into(),
        );
    }
    if !schema.implemented {
        parts.push("not implemented: Heat rejects any value".into());
    }
    parts.extend(schema.constraints.iter().map(ToString::to_string));
    if !schema.support_status.is_default() {
        parts.extend(schema.support_status.chain().map(ToString::to_string));
    }
    let mut text = parts.join("; ");
    text.push('.');
    text
}

/// The schema of environment files.
fn environment_schema(release: HeatRelease) -> Value {
    let heat = resource_types::all().heat_version();
    let mut sections = Map::new();
    for section in environment::SECTIONS {
        let schema = match section {
            "parameters" => json!({
                "type": "object",
                "description": "Values of the template's parameters, by name.",
            }),
            "parameter_defaults" => json!({
                "type": "object",
                "description": "Defaults of parameters, by name, for the template and every \
                                nested template.",
            }),
            "resource_registry" => json!({
                "type": "object",
                "description": "Resource type names (or globs ending in `*`) mapped to types or \
                                template files; `resources` holds per-resource overrides, keyed by \
                                resource name.",
                "additionalProperties": {"type": ["string", "object", "null"]},
            }),
            "encrypted_param_names" => json!({"type": "array", "items": {"type": "string"}}),
            "event_sinks" => json!({"type": "array", "items": {"type": "object"}}),
            "parameter_merge_strategies" => json!({
                "type": "object",
                "additionalProperties": {"enum": environment::MERGE_STRATEGIES},
            }),
            _ => json!({}),
        };
        sections.insert(section.to_owned(), schema);
    }
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$comment": format!(
            "Generated by hotfix {} (`hotfix schema --environment`).",
            env!("CARGO_PKG_VERSION")
        ),
        "title": "OpenStack Heat environment file",
        "description": format!("A Heat environment file, for the Heat of {release} (Heat {heat})."),
        "type": "object",
        "properties": sections,
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(release: &str, version: Option<&str>) -> Value {
        let release = HeatRelease::parse(release).expect("a release");
        let versions = template_versions(release, version).expect("versions");
        template_schema(release, &versions)
    }

    fn snapshot(name: &str, value: &Value) {
        let text = serde_json::to_string_pretty(value).expect("JSON");
        insta::with_settings!({
            snapshot_path => "../../snapshots/cli",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, text);
        });
    }

    fn type_names(schema: &Value) -> Vec<&str> {
        schema["definitions"]["resource_type"]["anyOf"][0]["enum"]
            .as_array()
            .expect("the registered types")
            .iter()
            .map(|name| name.as_str().expect("a name"))
            .collect()
    }

    #[test]
    fn a_type_that_arrived_after_the_release_is_left_out() {
        // OS::Heat::Delay: SUPPORTED since 11.0.0, rocky.
        assert!(!type_names(&schema("queens", None)).contains(&"OS::Heat::Delay"));
        assert!(type_names(&schema("rocky", None)).contains(&"OS::Heat::Delay"));
        let rocky = schema("rocky", None);
        let names = type_names(&rocky);
        let statuses = &rocky["definitions"]["resource_type"]["anyOf"][0]["enumDescriptions"];
        let delay = names
            .iter()
            .position(|n| *n == "OS::Heat::Delay")
            .expect("listed");
        assert_eq!(statuses[delay], "supported since 11.0.0");
        let queens = schema("queens", None);
        assert!(
            queens["definitions"]
                .get("OS::Heat::Delay properties")
                .is_none()
        );
    }

    #[test]
    fn a_property_that_arrived_after_the_release_is_left_out() {
        // OS::Glance::WebImage's `active`: SUPPORTED since 16.0.0, wallaby.
        let properties = |release| {
            schema(release, None)["definitions"]["OS::Glance::WebImage properties"]["properties"]
                .clone()
        };
        assert!(properties("victoria").get("active").is_none());
        assert!(properties("wallaby").get("active").is_some());
    }

    #[test]
    fn the_template_versions_are_those_of_the_release() {
        let queens = schema("queens", None);
        let versions = queens["properties"]["heat_template_version"]["enum"].clone();
        assert!(
            versions
                .as_array()
                .expect("a list")
                .contains(&json!("queens"))
        );
        assert!(
            !versions
                .as_array()
                .expect("a list")
                .contains(&json!("rocky"))
        );
        let error = template_versions(
            HeatRelease::parse("queens").expect("a release"),
            Some("wallaby"),
        )
        .expect_err("wallaby arrived later");
        assert_eq!(
            error.to_string(),
            "heat_template_version 2021-04-16 arrived after the Heat of queens: name a later \
             --heat-release or an earlier --template-version"
        );
        let error =
            template_versions(HeatRelease::LATEST, Some("2016-10-15")).expect_err("not a version");
        assert!(
            error.to_string().starts_with(
                "`2016-10-15` is not a heat_template_version; Heat accepts 2013-05-23, "
            )
        );
    }

    #[test]
    fn one_version_has_its_own_sections_keys_and_functions() {
        let old = schema("2026.2", Some("2015-04-30"));
        assert!(old["properties"].get("conditions").is_none());
        assert!(
            old["definitions"]["resource"]["properties"]
                .get("condition")
                .is_none()
        );
        assert_eq!(
            old["properties"]["heat_template_version"]["enum"],
            json!(["2015-04-30"])
        );
        let names = &old["definitions"]["function"]["propertyNames"]["enum"];
        assert!(names.as_array().expect("a list").contains(&json!("repeat")));
        assert!(!names.as_array().expect("a list").contains(&json!("if")));
        assert!(
            !names
                .as_array()
                .expect("a list")
                .contains(&json!("Fn::Join"))
        );
        let new = schema("2026.2", Some("wallaby"));
        assert!(new["properties"].get("conditions").is_some());
        assert_eq!(
            new["properties"]["heat_template_version"]["enum"],
            json!(["2021-04-16", "wallaby"])
        );
    }

    #[test]
    fn a_property_a_translation_rule_fills_is_not_required() {
        // OS::Neutron::Port's `network` may be written `network_id` (hidden since 9.0.0).
        let latest = schema("2026.2", None);
        let port = &latest["definitions"]["OS::Neutron::Port properties"];
        assert_eq!(port["required"], json!([]));
        assert!(port["properties"].get("network_id").is_some());
        let server = &latest["definitions"]["OS::Nova::Server properties"];
        assert_eq!(server["required"], json!(["flavor"]));
    }

    #[test]
    fn a_placeholder_of_a_removed_type_accepts_any_property() {
        let latest = schema("2026.2", None);
        let record = &latest["definitions"]["OS::Designate::Record properties"];
        assert_eq!(record["additionalProperties"], json!(true));
        let volume = &latest["definitions"]["OS::Cinder::Volume properties"];
        assert_eq!(volume["additionalProperties"], json!(false));
    }

    #[test]
    fn values_are_what_heat_converts_or_a_function() {
        let latest = schema("2026.2", None);
        let volume = &latest["definitions"]["OS::Cinder::Volume properties"]["properties"];
        snapshot("schema_cinder_volume_size", &volume["size"]);
        let server = &latest["definitions"]["OS::Nova::Server properties"]["properties"];
        let network = &server["networks"]["anyOf"][0]["items"]["anyOf"][0];
        snapshot(
            "schema_nova_server_network_port",
            &network["properties"]["port"],
        );
        snapshot(
            "schema_nova_server_flavor_update_policy",
            &server["flavor_update_policy"],
        );
        snapshot(
            "schema_function_2015_04_30",
            &schema("2026.2", Some("2015-04-30"))["definitions"]["function"],
        );
    }

    #[test]
    fn the_environment_schema_has_heats_sections() {
        let schema = environment_schema(HeatRelease::LATEST);
        let sections: Vec<&String> = schema["properties"]
            .as_object()
            .expect("a map")
            .keys()
            .collect();
        assert_eq!(sections.len(), environment::SECTIONS.len());
        assert_eq!(schema["additionalProperties"], json!(false));
    }
}
