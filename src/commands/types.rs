//! `hotfix types` and `hotfix type NAME`: the resource types hotfix knows from Heat.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use anyhow::anyhow;
use hotfix_hot::heat_release::HeatRelease;
use hotfix_hot::resource_types::{
    self, ResourceType, ResourceTypes, RuleKind, Schema, Status, SupportStatus, TranslationRule,
};
use serde_json::{Value, json};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Text for people.
    #[value(alias = "text")]
    Human,
    /// JSON, for scripts.
    Json,
}

/// `hotfix types` (its help is on `Command::Types` in main.rs).
#[derive(Debug, clap::Args)]
pub(crate) struct TypesArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    release: ShownRelease,
}

/// `hotfix type NAME` (its help is on `Command::Type` in main.rs).
#[derive(Debug, clap::Args)]
pub(crate) struct TypeArgs {
    /// A resource type, e.g. `OS::Nova::Server`.
    name: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    release: ShownRelease,
}

/// `--heat-release` of `hotfix type` and `hotfix types`.
#[derive(Debug, clap::Args)]
struct ShownRelease {
    /// The OpenStack release whose Heat to show: a series (`wallaby`) or a release number
    /// (`2023.1`); without it, the `heat-release` of the `hotfix.toml` that applies to the
    /// working directory, else the newest Heat hotfix has data for. Releases before rocky show
    /// rocky's Heat, the oldest there is.
    #[arg(
        long,
        value_name = "RELEASE",
        value_parser = crate::complete::heat_releases(),
        hide_possible_values = true
    )]
    heat_release: Option<HeatRelease>,
}

impl ShownRelease {
    /// The release to show: `--heat-release`, else the `heat-release` of the configuration
    /// that `hotfix lint` applies to the templates of the working directory (the nearest
    /// `hotfix.toml` in it or above), else none (the newest).
    fn release(&self) -> anyhow::Result<Option<HeatRelease>> {
        if self.heat_release.is_some() {
            return Ok(self.heat_release);
        }
        let cwd = crate::paths::current_dir()?;
        let mut configs = hotfix_workspace::config::Configs::new(
            false,
            None,
            &cwd,
            hotfix_workspace::config::Overrides::default(),
            std::sync::Arc::default(),
        )?;
        Ok(configs.for_folder(&cwd)?.settings.heat_release)
    }
}

pub(crate) fn types(args: &TypesArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let all = resource_types::for_release(args.release.release()?);
    match args.format {
        Format::Json => {
            let types: Vec<Value> = all
                .iter()
                .map(|(name, t)| {
                    json!({
                        "name": name,
                        "support_status": t.support_status,
                        "hidden": t.is_hidden(),
                        "none_resource": t.none_resource,
                        "snapshot": t.snapshot,
                        "dynamic_attributes": t.dynamic_attributes,
                    })
                })
                .collect();
            let environment: serde_json::Map<String, Value> = all
                .default_environment()
                .map(|(from, to)| (from.to_owned(), json!(to)))
                .collect();
            let doc = json!({
                "heat": {"package": "openstack-heat", "version": all.heat_version()},
                "types": types,
                "default_environment": environment,
            });
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)?;
        }
        Format::Human => write!(out, "{}", types_text(all))?,
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn resource_type(args: &TypeArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let all = resource_types::for_release(args.release.release()?);
    let Some(t) = all.get(&args.name) else {
        return Err(unknown(all, &args.name));
    };
    match args.format {
        Format::Json => {
            let doc = json!({
                "name": args.name,
                "heat_version": all.heat_version(),
                "support_status": t.support_status,
                "hidden": t.is_hidden(),
                "none_resource": t.none_resource,
                "snapshot": t.snapshot,
                "dynamic_attributes": t.dynamic_attributes,
                "properties": t.properties,
                "attributes": t.attributes,
                "update_policy": t.update_policy,
                "translation": t.translation,
            });
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)?;
        }
        Format::Human => write!(out, "{}", type_text(&args.name, t, all.heat_version()))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The error for a name that is not registered: what it may have meant.
fn unknown(all: &ResourceTypes, name: &str) -> anyhow::Error {
    let release = all.heat_version();
    if let Some(target) = all.default_environment_target(name) {
        return anyhow!(
            "`{name}` is not a resource type of Heat {release}; Heat's default environment \
             (environment.d/default.yaml, where a deployment installs it) maps it to `{target}`"
        );
    }
    match hotfix_linter::did_you_mean(name, all.iter().map(|(n, _)| n)) {
        Some(suggestion) => anyhow!(
            "`{name}` is not a resource type of Heat {release}; did you mean `{suggestion}`? \
             (`hotfix types` lists them)"
        ),
        None => {
            anyhow!("`{name}` is not a resource type of Heat {release} (`hotfix types` lists them)")
        }
    }
}

fn types_text(all: &ResourceTypes) -> String {
    let hidden = all.iter().filter(|(_, t)| t.is_hidden()).count();
    let mut text = format!(
        "Heat {} (openstack-heat): {} resource types, {hidden} of them hidden\n\n",
        all.heat_version(),
        all.len()
    );
    let width = all.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    for (name, t) in all.iter() {
        let mut line = format!("{name:<width$}  {}", status_text(&t.support_status));
        if t.is_removed_placeholder() {
            line.push_str("; removed: a no-op placeholder, like OS::Heat::None");
        }
        let _ = writeln!(text, "{}", line.trim_end());
    }
    let environment: Vec<(&str, &str)> = all.default_environment().collect();
    if !environment.is_empty() {
        text.push_str(
            "\nAliases in Heat's default environment (environment.d/default.yaml; they work \
             only where a deployment installs it):\n",
        );
        let width = environment
            .iter()
            .map(|(from, _)| from.len())
            .max()
            .unwrap_or(0);
        for (from, to) in environment {
            let _ = writeln!(text, "  {from:<width$}  -> {to}");
        }
    }
    text
}

fn type_text(name: &str, t: &ResourceType, release: &str) -> String {
    let mut text = format!("{name} (Heat {release})\n");
    let _ = writeln!(text, "status: {}", status_text(&t.support_status));
    if t.is_removed_placeholder() {
        text.push_str(
            "removed: Heat keeps it as a placeholder that accepts any property and attribute and \
             does nothing, like OS::Heat::None\n",
        );
    }
    let _ = writeln!(
        text,
        "deletion_policy Snapshot: {}",
        if t.snapshot { "accepted" } else { "rejected" }
    );
    if t.dynamic_attributes {
        text.push_str("attributes: computed at run time; get_attr may name any attribute\n");
    }
    if t.none_resource && t.properties.is_empty() {
        text.push_str("\nproperties: any (Heat ignores them)\n");
    } else {
        section(&mut text, "properties", &t.properties);
    }
    text.push_str("\nattributes:\n");
    for (attribute, a) in &t.attributes {
        let mut line = format!("  {attribute}");
        if let Some(kind) = a.kind {
            let _ = write!(line, ": {}", kind.as_str());
        }
        if let Some(status) = property_status(&a.support_status) {
            let _ = write!(line, "; {status}");
        }
        let _ = writeln!(text, "{line}");
    }
    section(&mut text, "update_policy", &t.update_policy);
    if !t.translation.is_empty() {
        text.push_str("\ntranslation (how Heat rewrites older properties before using them):\n");
        for rule in &t.translation {
            let _ = writeln!(text, "  {}", rule_text(rule));
        }
    }
    text
}

fn section(text: &mut String, title: &str, schemas: &std::collections::BTreeMap<String, Schema>) {
    if title == "properties" && schemas.is_empty() {
        text.push_str("\nproperties: none\n");
        return;
    }
    if schemas.is_empty() {
        return;
    }
    let _ = writeln!(text, "\n{title}:");
    for (name, schema) in schemas {
        schema_lines(text, name, schema, 1);
    }
}

/// `name: type, flags; constraints; status`, then the nested schema one level in.
fn schema_lines(text: &mut String, name: &str, schema: &Schema, depth: usize) {
    let mut line = format!(
        "{:indent$}{name}: {}",
        "",
        kind_text(schema),
        indent = depth * 2
    );
    if schema.required {
        line.push_str(", required");
    }
    if let Some(default) = &schema.default {
        let _ = write!(line, ", default {default}");
    }
    if schema.update_allowed {
        line.push_str(", update_allowed");
    }
    if schema.immutable {
        line.push_str(", immutable");
    }
    if !schema.implemented {
        line.push_str(", not implemented (any value is rejected)");
    }
    for constraint in &schema.constraints {
        let _ = write!(line, "; {constraint}");
    }
    if let Some(status) = property_status(&schema.support_status) {
        let _ = write!(line, "; {status}");
    }
    let _ = writeln!(text, "{line}");
    let mut nested = schema;
    while let Some(items) = &nested.items {
        nested = items;
    }
    for (key, inner) in &nested.schema {
        schema_lines(text, key, inner, depth + 1);
    }
}

/// `list of map` for a list of maps; the item's own constraints are not shown.
fn kind_text(schema: &Schema) -> String {
    let mut text = schema.kind.as_str().to_owned();
    let mut nested = schema;
    while let Some(items) = &nested.items {
        let _ = write!(text, " of {}", items.kind.as_str());
        nested = items;
    }
    text
}

/// `supported since 2014.1`, `hidden since 10.0.0 (deprecated since 8.0.0, supported since
/// 5.0.0); use OS::X`.
fn status_text(status: &SupportStatus) -> String {
    let mut chain = status.chain().map(ToString::to_string);
    let mut text = chain.next().unwrap_or_default();
    let before: Vec<String> = chain.collect();
    if !before.is_empty() {
        let _ = write!(text, " (before: {})", before.join(", "));
    }
    if let Some(substitute) = status.chain().find_map(|s| s.substitute.as_deref()) {
        let _ = write!(text, "; use {substitute}");
    }
    text
}

/// A property's or attribute's status, or nothing when it is Heat's default; `since 9.0.0`
/// when it is supported with no history.
fn property_status(status: &SupportStatus) -> Option<String> {
    if status.is_default() {
        return None;
    }
    if status.status == Status::Supported
        && status.previous.is_none()
        && let Some(version) = &status.version
    {
        return Some(format!("since {version}"));
    }
    Some(status_text(status))
}

fn rule_text(rule: &TranslationRule) -> String {
    let target = rule.path.join(".");
    match rule.rule {
        RuleKind::Delete => format!("{target}: deleted"),
        RuleKind::Add => match &rule.value {
            Some(value) => format!("{target}: add {}", value_text(value)),
            None => format!("{target}: add {}", source(rule).unwrap_or_default()),
        },
        RuleKind::Replace => match (source(rule), &rule.value) {
            (Some(from), _) => {
                format!("{from} -> {target} (giving both is an error)")
            }
            (None, Some(value)) => format!("{target}: set to {}", value_text(value)),
            (None, None) => format!("{target}: replaced"),
        },
    }
}

/// Where a rule's value comes from, as a dotted property path.
fn source(rule: &TranslationRule) -> Option<String> {
    let mut path: Vec<&str> = if let Some(name) = &rule.value_name {
        let mut path: Vec<&str> = rule.path.iter().map(String::as_str).collect();
        path.pop();
        path.push(name);
        path
    } else {
        rule.value_path
            .as_ref()?
            .iter()
            .map(String::as_str)
            .collect()
    };
    if let Some(extra) = &rule.custom_value_path {
        path.extend(extra.iter().map(String::as_str));
    }
    Some(path.join("."))
}

/// JSON, with a value read from the template (`{"property": [path]}`) as `(value of path)`.
fn value_text(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            if let (1, Some(Value::Array(path))) = (map.len(), map.get("property")) {
                let path: Vec<String> = path
                    .iter()
                    .map(|p| p.as_str().map_or_else(|| p.to_string(), str::to_owned))
                    .collect();
                return format!("(value of {})", path.join("."));
            }
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", json!(k), value_text(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(value_text).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}
