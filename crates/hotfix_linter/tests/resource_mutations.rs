//! The resource-type rules find what Heat's real resource plugins find.
//!
//! The HOT templates of `../shared/corpus` that Heat accepts are mutated the ways a property or
//! a type goes wrong: a misspelt property (at the top and inside a nested schema), a deleted
//! required property (the same), a literal of a type Heat cannot convert, a literal outside the
//! allowed values (range, length, pattern), a misspelt attribute in `get_attr`, a misspelt type.
//! One mutant per kind and template, the first candidate in document order (a type or
//! constraint mutation inserts the property when the template writes no literal it applies
//! to). Each mutant goes to the shared oracle (`../shared/oracles/heat/resolve.py`, `validate`
//! with the real plugins) twice: as `openstack orchestration template validate` checks it
//! (plain), and as a stack create checks it (`strict`, `no_cloud`). For every mutant Heat
//! rejects, hotfix must report a new error of the rule that covers the mutation. Conversions
//! Heat makes (a quoted number, a float for an integer, `true` for a number, a number for a
//! string, `yes` for a boolean) are mutated too: Heat accepts those, and no resource rule may
//! report a new error; nor for `null`, which Heat replaces by the default or an empty value,
//! unless Heat rejects that, nor for a property written under the deprecated name Heat's
//! translation rules accept. Heat skips the constraints and nested keys of a property that
//! uses a resource (`get_resource`, `get_attr`) until it creates the resource: mutants there go
//! to a third mode (`create`), strict on the template with those values given as strings.
//!
//! A second test runs the unmutated corpus through both modes: a template Heat accepts gets no
//! error of the resource rules (unless the oracle confirms it as a create-time problem), and
//! one Heat rejects for a property or type reason gets at least one.
//!
//! Heat's oracle stubs the types it does not register (`stubbed_types`); a stubbed type in a
//! namespace Heat owns (`OS::Nova::Servr`), which the default environment does not map, is
//! what Heat itself rejects as `The Resource Type (…) could not be found.`, so it counts as a
//! rejection here. Stubbed types of other namespaces (`OS::TripleO::…`) are an environment's
//! business and are fine. Template-file types (`type: nova.yaml`) reach the oracle as a
//! custom type, so that Heat judges the rest of the template instead of failing to fetch the
//! file (see `heat_view`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use hotfix_diagnostics::{Diagnostic, Severity};
use hotfix_hot::resource_types::{self, Constraint, PropertyType, ResourceType, Schema};
use hotfix_hot::{Function, Semantic, Template};
use hotfix_linter::{Settings, lint};
use hotfix_yaml::{Document, Int, NodeId, NodeKind, ScalarStyle, ScalarValue, Style};
use serde_json::{Value, json};

mod common;

use common::{Heat, files, insert_entry, shared};

/// The codes of the rules that check resources against Heat's registry: unknown type, property
/// and attribute, missing required property, value type, value, a parameter's type for a
/// property, Snapshot on a type that cannot snapshot, properties given whole by a function.
/// Not `conflicting-properties` (H619): the no-cloud validation used here skips the plugins' own
/// checks it encodes (`plugin_checks_oracle.rs` proves it against them); nor H618, which needs a
/// `heat-release`.
const RESOURCE_CODES: &[&str] = &[
    "H608", "H609", "H610", "H613", "H614", "H615", "H616", "H617", "H620",
];

// ---------------------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------------------

/// How Heat is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mode {
    /// `openstack orchestration template validate`: real plugins, not strict.
    Plain,
    /// The checks of a stack create, with no cloud (`strict`, `no_cloud`).
    Strict,
    /// Strict, on the template with the values of one property that use resources
    /// (`get_resource`, `get_attr`) given as strings: what Heat checks when it creates the
    /// resource, once those resources exist (before, it skips that property's constraints and
    /// nested keys).
    Create,
}

impl Mode {
    const ALL: [Mode; 2] = [Mode::Plain, Mode::Strict];

    fn name(self) -> &'static str {
        match self {
            Mode::Plain => "plain",
            Mode::Strict => "strict",
            Mode::Create => "create",
        }
    }
}

/// Heat's shared oracle with real resource plugins.
struct Oracle {
    heat: Heat,
    /// `OS::Nova`, `AWS::EC2`, …: the namespaces of the registered types.
    namespaces: BTreeSet<String>,
    requests: usize,
    /// Heat's verdict on a mutation (`mutation_key`) in another template, by key.
    verdicts: std::collections::HashMap<String, Option<String>>,
    /// `HOTFIX_MUTATE_ASK_EVERY=1`: Heat is asked about every mutant, and a shared verdict
    /// that differs from Heat's own fails the test.
    every: bool,
    /// Mutants judged by a shared verdict.
    shared: usize,
    /// Where a shared verdict differed from Heat's own (`every` only).
    differed: Vec<String>,
}

impl Oracle {
    fn start() -> Oracle {
        let namespaces = resource_types::all()
            .iter()
            .filter_map(|(name, _)| namespace(name))
            .map(str::to_owned)
            .collect();
        Oracle {
            heat: Heat::start_shared(),
            namespaces,
            requests: 0,
            verdicts: std::collections::HashMap::new(),
            every: std::env::var_os("HOTFIX_MUTATE_ASK_EVERY").is_some_and(|v| v == "1"),
            shared: 0,
            differed: Vec::new(),
        }
    }

    /// Heat's verdict on a mutant whose mutation (`key`) Heat has judged in another template
    /// already: that verdict, whether Heat rejects it or not (its error names the other
    /// template's resource). Hotfix is still asked about every mutant; only Heat's answer is
    /// shared. With `every`, Heat is asked all the same and must agree.
    fn shared_verdict(
        &mut self,
        key: String,
        template: &str,
        mode: Mode,
        params: &Value,
    ) -> Option<String> {
        if let Some(known) = self.verdicts.get(&key).cloned() {
            if !self.every {
                self.shared += 1;
                return known;
            }
            let own = self.validate(template, mode, params);
            if own.is_some() != known.is_some() {
                self.differed.push(format!(
                    "{key}\n    shared: {}\n    Heat on this template: {}",
                    known.as_deref().unwrap_or("accepts"),
                    own.as_deref().unwrap_or("accepts")
                ));
            }
            return own;
        }
        let verdict = self.validate(template, mode, params);
        self.verdicts.insert(key, verdict.clone());
        verdict
    }

    /// `None` when Heat accepts the template in that mode, else its error (a stubbed type of a
    /// Heat namespace is Heat's `could not be found`). `params` are given in strict mode only,
    /// where every parameter needs a value. In `Create` mode, the caller gives the template
    /// with the values that use resources replaced (`create_view`).
    fn validate(&mut self, template: &str, mode: Mode, params: &Value) -> Option<String> {
        let mut request = json!({
            "cmd": "validate", "template": heat_view(template), "types": "real",
            "strict": mode != Mode::Plain, "no_cloud": mode != Mode::Plain,
        });
        if mode != Mode::Plain {
            request["params"] = params.clone();
        }
        self.requests += 1;
        let response = self.heat.request(&request);
        let unknown: Vec<&str> = response["stubbed_types"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|t| self.heat_owns(t))
            .collect();
        if let Some(t) = unknown.first() {
            return Some(format!("The Resource Type ({t}) could not be found."));
        }
        if response["valid"] == json!(true) {
            return None;
        }
        Some(
            response["error"]
                .as_str()
                .or_else(|| response["request_error"].as_str())
                .unwrap_or("(no message)")
                .to_owned(),
        )
    }

    /// Whether Heat's error is `The Resource Type (X) could not be found.` for a type of a
    /// namespace Heat does not own (a nested template's `OS::TripleO::Compute`, which an
    /// environment maps): not the resource rules' business.
    fn custom_type(&self, error: &str) -> bool {
        error
            .split_once("The Resource Type (")
            .and_then(|(_, rest)| rest.split_once(')'))
            .is_some_and(|(name, _)| !self.heat_owns(name))
    }

    /// Whether Heat would reject `name` as an unknown type: a namespace of its own, not a
    /// template file, not mapped by the default environment.
    fn heat_owns(&self, name: &str) -> bool {
        namespace(name).is_some_and(|ns| self.namespaces.contains(ns))
            && resource_types::all()
                .default_environment_target(name)
                .is_none()
    }
}

/// The template as the oracle is given it: each resource whose type is a template file
/// (`type: ../deployment/nova.yaml`, which Heat would fetch, and the oracle cannot) is given a
/// custom type instead (`Hotfix::Template::File`), which the oracle stubs permissively. The
/// resource rules judge neither kind, and Heat then checks the rest of the template instead of
/// stopping at `Could not fetch remote template`.
fn heat_view(text: &str) -> String {
    let Ok(doc) = hotfix_yaml::parse(text) else {
        return text.to_owned();
    };
    let template = Template::new(&doc);
    let mut spans: Vec<(hotfix_yaml::Span, String)> = template
        .resources
        .iter()
        .filter_map(|r| {
            let node = doc.get(doc.resolve(r.value), "type")?;
            let name = doc.str_value(node)?;
            #[allow(
                clippy::case_sensitive_file_extension_comparisons,
                reason = "Heat's test: `resource_type.endswith(('.yaml', '.template'))`"
            )]
            let file = name.ends_with(".yaml") || name.ends_with(".template");
            let n = doc.node(node);
            let quoted = match doc.scalar(node)?.style {
                ScalarStyle::Plain => "Hotfix::Template::File",
                ScalarStyle::SingleQuoted => "'Hotfix::Template::File'",
                ScalarStyle::DoubleQuoted => "\"Hotfix::Template::File\"",
                ScalarStyle::Literal | ScalarStyle::Folded => return None,
            };
            (file && n.anchor.is_none() && n.tag.is_none()).then(|| (n.span, quoted.to_owned()))
        })
        .collect();
    spans.sort();
    let mut out = text.to_owned();
    for (span, with) in spans.iter().rev() {
        out.replace_range(span.range(), with);
    }
    out
}

/// `OS::Nova` of `OS::Nova::Server`: every part but the last, when there are three or more.
fn namespace(name: &str) -> Option<&str> {
    let (namespace, last) = name.rsplit_once("::")?;
    (!last.is_empty() && namespace.contains("::")).then_some(namespace)
}

/// Values for the parameters without a default, which a strict validation needs: the first
/// allowed value, a number within the range, a string of an allowed length, else by type.
fn strict_params(doc: &Document) -> Value {
    let template = Template::new(doc);
    let mut out = serde_json::Map::new();
    for p in &template.parameters {
        if doc.get(p.value, "default").is_some() {
            continue;
        }
        let ty = doc
            .get(p.value, "type")
            .and_then(|t| doc.str_value(t))
            .unwrap_or("string");
        let mut value = match ty {
            "number" => json!(1),
            "json" => json!({"key": "value"}),
            "comma_delimited_list" => json!("a,b,c"),
            "boolean" => json!(true),
            _ => json!("value"),
        };
        for c in doc
            .get(p.value, "constraints")
            .and_then(|c| doc.items(c))
            .unwrap_or_default()
        {
            if let Some(first) = doc
                .get(*c, "allowed_values")
                .and_then(|v| doc.items(v))
                .and_then(|items| items.first())
                .and_then(|&v| doc.scalar(v))
            {
                value = match (&first.value, ty) {
                    (ScalarValue::Int(n), "number") => json!(n.to_string().parse::<i64>().ok()),
                    (ScalarValue::Float(f), "number") => json!(f),
                    _ => json!(first.text.as_str()),
                };
            }
            if let Some(range) = doc.get(*c, "range") {
                let bound = |k| {
                    doc.get(range, k)
                        .and_then(|b| doc.scalar(b))
                        .and_then(|s| s.text.parse::<f64>().ok())
                };
                if let Some(n) = bound("min").or_else(|| bound("max")) {
                    #[allow(clippy::cast_possible_truncation, reason = "a small bound")]
                    let whole = n.ceil() as i64;
                    value = json!(whole);
                }
            }
            if let Some(length) = doc.get(*c, "length")
                && let Some(min) = doc
                    .get(length, "min")
                    .and_then(|b| doc.scalar(b))
                    .and_then(|s| s.text.parse::<usize>().ok())
                && ty == "string"
            {
                value = json!("v".repeat(min.max(1)));
            }
        }
        out.insert(p.name.clone(), value);
    }
    Value::Object(out)
}

// ---------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------

/// A HOT template of the corpus that hotfix parses.
struct Source {
    display: String,
    text: String,
    doc: Document,
}

fn sources(root: &Path) -> (Vec<Source>, usize) {
    let mut paths: Vec<PathBuf> = Vec::new();
    files(root, &mut paths);
    paths.sort();
    let mut suppressed = 0;
    let mut out = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(doc) = hotfix_yaml::parse(&text) else {
            continue;
        };
        if Template::new(&doc).version().is_none() {
            continue;
        }
        // A suppression comment hides, as asked, the error a mutant gives its line.
        if text.contains("hotfix: ignore") {
            suppressed += 1;
            continue;
        }
        let display = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        out.push(Source { display, text, doc });
    }
    (out, suppressed)
}

fn errors(path: &str, text: &str) -> Vec<Diagnostic> {
    lint(path, text.as_bytes(), &Settings::default())
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

fn count(found: &[Diagnostic], code: &str) -> usize {
    found.iter().filter(|d| d.code == code).count()
}

/// Whether the mutation changed text inside the second or third argument of an `if` call.
fn in_if_branch(doc: &Document, before: &str, after: &str) -> bool {
    let at = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let template = Template::new(doc);
    let semantic = Semantic::new(&template);
    semantic.calls_to(Function::If).any(|call| {
        doc.items(call.args).is_some_and(|items| {
            items
                .iter()
                .skip(1)
                .any(|&i| doc.node(i).span.range().contains(&at))
        })
    })
}

/// The lines a mutation changed, `-` before and `+` after (at most three of each), with the
/// number of the first.
fn changed_lines(before: &str, after: &str) -> String {
    let prefix = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let suffix = before
        .bytes()
        .rev()
        .zip(after.bytes().rev())
        .take_while(|(a, b)| a == b)
        .count()
        .min(before.len().min(after.len()) - prefix);
    let lines = |text: &str, end: usize| {
        let start = text[..prefix].rfind('\n').map_or(0, |i| i + 1);
        let end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        text[start..end.max(start)]
            .lines()
            .take(3)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let line = before[..prefix].matches('\n').count() + 1;
    let mut out = format!("line {line}:");
    for l in lines(before, before.len() - suffix) {
        let _ = write!(out, "\n      - {l}");
    }
    for l in lines(after, after.len() - suffix) {
        let _ = write!(out, "\n      + {l}");
    }
    out
}

fn shown(found: &[&Diagnostic]) -> String {
    if found.is_empty() {
        return "none".to_owned();
    }
    found
        .iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect::<Vec<_>>()
        .join("; ")
}

// ---------------------------------------------------------------------------------------------
// Where properties are written
// ---------------------------------------------------------------------------------------------

/// A property value written in a template, with the schema Heat checks it against.
struct Site {
    resource: String,
    /// `flavor`, `networks[0].port`.
    path: String,
    /// The key, for an entry of a mapping; none for an item of a list.
    key: Option<NodeId>,
    /// For an entry: the mapping that holds it, and the schemas of that mapping's keys.
    holder: Option<(NodeId, &'static BTreeMap<String, Schema>)>,
    value: NodeId,
    schema: &'static Schema,
    /// Inside a top-level property (a key of a nested schema, or a list item).
    nested: bool,
    /// Its top-level property uses a resource (`get_resource`, `get_attr`): Heat then checks
    /// neither its constraints nor its nested keys before the stack is created.
    depends: bool,
}

/// A resource whose type Heat registers, with its written `properties` mapping.
struct Resource {
    name: String,
    /// The resource's definition (a mapping).
    node: NodeId,
    type_node: NodeId,
    schema: &'static ResourceType,
    properties: Option<NodeId>,
}

struct Walker<'a> {
    doc: &'a Document,
    semantic: &'a Semantic,
}

impl Walker<'_> {
    fn resources(&self, template: &Template<'_>) -> Vec<Resource> {
        let doc = self.doc;
        let mut out = Vec::new();
        for r in &template.resources {
            if !template.is_mapping(r.value) {
                continue;
            }
            let Some(type_node) = doc.get(r.value, "type") else {
                continue;
            };
            let Some(schema) = doc.str_value(type_node).and_then(resource_types::get) else {
                continue;
            };
            let properties = template
                .field(r, "properties")
                .filter(|&p| self.literal_mapping(p));
            out.push(Resource {
                name: r.name.clone(),
                node: doc.resolve(r.value),
                type_node,
                schema,
                properties,
            });
        }
        out
    }

    /// A mapping written as data (not an alias, not a call), whose keys are written once and
    /// without merges: one that text edits can change safely.
    fn literal_mapping(&self, node: NodeId) -> bool {
        let doc = self.doc;
        if !matches!(doc.node(node).kind, NodeKind::Mapping { .. })
            || self.semantic.call_at(node).is_some()
        {
            return false;
        }
        let raw = doc.raw_entries(node).unwrap_or_default();
        raw.len() == doc.entries(node).len()
            && raw.iter().all(|e| {
                doc.scalar(e.key)
                    .is_some_and(|s| s.value != ScalarValue::Merge)
            })
    }

    /// Whether anything under `node` calls a function that depends on a resource.
    fn uses_resource(&self, node: NodeId) -> bool {
        let doc = self.doc;
        let node = doc.resolve(node);
        if let Some(call) = self.semantic.call_at(node)
            && matches!(
                call.status.function(),
                Function::GetResource | Function::GetAttr | Function::Ref
            )
        {
            return true;
        }
        match &doc.node(node).kind {
            NodeKind::Mapping { entries, .. } => {
                entries.iter().any(|e| self.uses_resource(e.value))
            }
            NodeKind::Sequence { items, .. } => items.iter().any(|&i| self.uses_resource(i)),
            _ => false,
        }
    }

    /// Whether `node` or anything under it defines an anchor or is an alias (an edit could
    /// break another reference) or has a tag.
    fn plain_tree(&self, node: NodeId) -> bool {
        let n = self.doc.node(node);
        if n.anchor.is_some() || n.tag.is_some() {
            return false;
        }
        match &n.kind {
            NodeKind::Alias { .. } => false,
            NodeKind::Mapping { entries, .. } => entries
                .iter()
                .all(|e| self.plain_tree(e.key) && self.plain_tree(e.value)),
            NodeKind::Sequence { items, .. } => items.iter().all(|&i| self.plain_tree(i)),
            NodeKind::Scalar(_) => true,
        }
    }

    /// Every written property value of the registered resources, in document order.
    fn sites(&self, resources: &[Resource]) -> Vec<Site> {
        let mut out = Vec::new();
        for r in resources {
            if r.schema.none_resource {
                continue;
            }
            if let Some(properties) = r.properties {
                self.entries(
                    &r.name,
                    properties,
                    &r.schema.properties,
                    "",
                    None,
                    &mut out,
                );
            }
        }
        out
    }

    fn entries(
        &self,
        resource: &str,
        map: NodeId,
        schemas: &'static BTreeMap<String, Schema>,
        prefix: &str,
        depends: Option<bool>,
        out: &mut Vec<Site>,
    ) {
        let doc = self.doc;
        for e in doc.raw_entries(map).unwrap_or_default() {
            let Some(name) = doc.str_value(e.key) else {
                continue;
            };
            let Some(schema) = schemas.get(name) else {
                continue;
            };
            let path = if prefix.is_empty() {
                name.to_owned()
            } else {
                format!("{prefix}.{name}")
            };
            let depends = depends.unwrap_or_else(|| self.uses_resource(e.value));
            out.push(Site {
                resource: resource.to_owned(),
                path: path.clone(),
                key: Some(e.key),
                holder: Some((map, schemas)),
                value: e.value,
                schema,
                nested: !prefix.is_empty(),
                depends,
            });
            self.descend(resource, e.value, schema, &path, depends, out);
        }
    }

    fn descend(
        &self,
        resource: &str,
        value: NodeId,
        schema: &'static Schema,
        path: &str,
        depends: bool,
        out: &mut Vec<Site>,
    ) {
        match schema.kind {
            PropertyType::Map if !schema.schema.is_empty() && self.literal_mapping(value) => {
                self.entries(resource, value, &schema.schema, path, Some(depends), out);
            }
            PropertyType::List => {
                let Some(items) = &schema.items else { return };
                let NodeKind::Sequence { items: nodes, .. } = &self.doc.node(value).kind else {
                    return;
                };
                for (i, &item) in nodes.iter().enumerate() {
                    let path = format!("{path}[{i}]");
                    out.push(Site {
                        resource: resource.to_owned(),
                        path: path.clone(),
                        key: None,
                        holder: None,
                        value: item,
                        schema: items,
                        nested: true,
                        depends,
                    });
                    self.descend(resource, item, items, &path, depends, out);
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------

/// A way to mutate a template, and what Heat and hotfix should make of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    PropertyTypo,
    NestedPropertyTypo,
    /// A nested key misspelt in a property that uses a resource (checked at create).
    NestedPropertyTypoAtCreate,
    RequiredDeleted,
    NestedRequiredDeleted,
    NotANumber,
    NotABoolean,
    NotAString,
    NotAMap,
    NotAList,
    NotAllowedValue,
    OutOfRange,
    BadLength,
    PatternMismatch,
    /// Constraint mutations in a property that uses a resource (checked at create).
    NotAllowedValueAtCreate,
    OutOfRangeAtCreate,
    UnknownAttribute,
    MisspeltType,
    /// Conversions Heat does not make.
    FloatForString,
    IntegerForBoolean,
    QuotedFloatForInteger,
    PaddedBoolean,
    QuotedOnForBoolean,
    ExponentForInteger,
    NanForString,
    /// `null`: Heat uses the default (or an empty value), which a constraint may refuse.
    NullValue,
    NullConstrained,
    /// Conversions Heat makes: no new error is right.
    QuotedScalar,
    FloatForInteger,
    BooleanForNumber,
    IntegerForString,
    YesForBoolean,
    PaddedInteger,
    HexInteger,
    UnderscoreInteger,
    OnForBoolean,
    DateForString,
    /// The deprecated name that Heat's translation rules turn into the property.
    DeprecatedAlias,
    /// An `update_policy` added with a key the type does not have (`rolling_update` where
    /// the type has none, `rolling_updates` where it has `rolling_update`).
    UpdatePolicyUnknownKey,
    /// An `update_policy` added with a nested integer given a word.
    UpdatePolicyNotAnInteger,
    /// An `update_policy` added with a nested integer below its minimum.
    UpdatePolicyOutOfRange,
    /// An `update_policy` added with a nested integer given as a quoted number (Heat converts).
    UpdatePolicyQuotedInteger,
}

impl Kind {
    const ALL: [Kind; 42] = [
        Kind::PropertyTypo,
        Kind::NestedPropertyTypo,
        Kind::NestedPropertyTypoAtCreate,
        Kind::RequiredDeleted,
        Kind::NestedRequiredDeleted,
        Kind::NotANumber,
        Kind::NotABoolean,
        Kind::NotAString,
        Kind::NotAMap,
        Kind::NotAList,
        Kind::NotAllowedValue,
        Kind::OutOfRange,
        Kind::BadLength,
        Kind::PatternMismatch,
        Kind::NotAllowedValueAtCreate,
        Kind::OutOfRangeAtCreate,
        Kind::UnknownAttribute,
        Kind::MisspeltType,
        Kind::FloatForString,
        Kind::IntegerForBoolean,
        Kind::QuotedFloatForInteger,
        Kind::PaddedBoolean,
        Kind::QuotedOnForBoolean,
        Kind::ExponentForInteger,
        Kind::NanForString,
        Kind::NullValue,
        Kind::NullConstrained,
        Kind::QuotedScalar,
        Kind::FloatForInteger,
        Kind::BooleanForNumber,
        Kind::IntegerForString,
        Kind::YesForBoolean,
        Kind::PaddedInteger,
        Kind::HexInteger,
        Kind::UnderscoreInteger,
        Kind::OnForBoolean,
        Kind::DateForString,
        Kind::DeprecatedAlias,
        Kind::UpdatePolicyUnknownKey,
        Kind::UpdatePolicyNotAnInteger,
        Kind::UpdatePolicyOutOfRange,
        Kind::UpdatePolicyQuotedInteger,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::PropertyTypo => "property typo",
            Kind::NestedPropertyTypo => "nested property typo",
            Kind::NestedPropertyTypoAtCreate => "nested typo, uses a resource",
            Kind::NotAllowedValueAtCreate => "value not allowed, uses a resource",
            Kind::OutOfRangeAtCreate => "out of range, uses a resource",
            Kind::RequiredDeleted => "required property deleted",
            Kind::NestedRequiredDeleted => "nested required deleted",
            Kind::NotANumber => "type: not a number",
            Kind::NotABoolean => "type: not a boolean",
            Kind::NotAString => "type: not a string",
            Kind::NotAMap => "type: not a map",
            Kind::NotAList => "type: not a list",
            Kind::NotAllowedValue => "value not allowed",
            Kind::OutOfRange => "value out of range",
            Kind::BadLength => "length out of range",
            Kind::PatternMismatch => "pattern not matched",
            Kind::UnknownAttribute => "unknown attribute",
            Kind::MisspeltType => "misspelt type",
            Kind::FloatForString => "type: float for string",
            Kind::IntegerForBoolean => "type: integer for boolean",
            Kind::QuotedFloatForInteger => "type: quoted float for integer",
            Kind::QuotedScalar => "ok: quoted number/boolean",
            Kind::FloatForInteger => "ok: float for integer",
            Kind::BooleanForNumber => "ok: boolean for number",
            Kind::IntegerForString => "ok: integer for string",
            Kind::YesForBoolean => "ok: yes/no for boolean",
            Kind::PaddedBoolean => "type: \" true\" for boolean",
            Kind::NullValue => "null value",
            Kind::NullConstrained => "null for a constrained value",
            Kind::PaddedInteger => "ok: \" 5 \" for integer",
            Kind::QuotedOnForBoolean => "type: \"on\" for boolean",
            Kind::ExponentForInteger => "type: 1e3 for integer",
            Kind::NanForString => "type: .nan for string",
            Kind::HexInteger => "ok: 0x1f for integer",
            Kind::UnderscoreInteger => "ok: \"1_024\" for integer",
            Kind::OnForBoolean => "ok: on/off for boolean",
            Kind::DateForString => "ok: a date for string",
            Kind::DeprecatedAlias => "ok: deprecated alias",
            Kind::UpdatePolicyUnknownKey => "update_policy: unknown key",
            Kind::UpdatePolicyNotAnInteger => "update_policy: not an integer",
            Kind::UpdatePolicyOutOfRange => "update_policy: out of range",
            Kind::UpdatePolicyQuotedInteger => "ok: update_policy quoted integer",
        }
    }

    /// The modes the mutant is checked in.
    /// The mutations of the issue go to both modes; the finer conversions and `null` only to
    /// strict (plain validation checks no value), the create-time ones to `Create`.
    fn modes(self) -> &'static [Mode] {
        match self {
            Kind::PropertyTypo
            | Kind::NestedPropertyTypo
            | Kind::RequiredDeleted
            | Kind::NestedRequiredDeleted
            | Kind::NotANumber
            | Kind::NotABoolean
            | Kind::NotAString
            | Kind::NotAMap
            | Kind::NotAList
            | Kind::NotAllowedValue
            | Kind::OutOfRange
            | Kind::BadLength
            | Kind::PatternMismatch
            | Kind::UnknownAttribute
            | Kind::MisspeltType
            | Kind::UpdatePolicyUnknownKey
            | Kind::UpdatePolicyNotAnInteger
            | Kind::UpdatePolicyOutOfRange => &[Mode::Plain, Mode::Strict],
            Kind::NestedPropertyTypoAtCreate
            | Kind::NotAllowedValueAtCreate
            | Kind::OutOfRangeAtCreate => &[Mode::Create],
            _ => &[Mode::Strict],
        }
    }

    /// Whether plain validation (`openstack orchestration template validate`) checks what the
    /// mutation breaks; the other kinds only a stack create (strict) checks.
    fn plain_checks(self) -> bool {
        // Heat checks `update_policy` whole, values included, when it validates a template.
        matches!(
            self,
            Kind::PropertyTypo
                | Kind::UnknownAttribute
                | Kind::MisspeltType
                | Kind::UpdatePolicyUnknownKey
                | Kind::UpdatePolicyNotAnInteger
                | Kind::UpdatePolicyOutOfRange
        )
    }

    /// What Heat and hotfix should make of the mutant.
    fn expect(self) -> Expect {
        match self {
            Kind::PropertyTypo
            | Kind::NestedPropertyTypo
            | Kind::NestedPropertyTypoAtCreate
            | Kind::UpdatePolicyUnknownKey => Expect::Code("H609"),
            Kind::RequiredDeleted | Kind::NestedRequiredDeleted => Expect::Code("H613"),
            Kind::NotANumber
            | Kind::NotABoolean
            | Kind::NotAString
            | Kind::NotAMap
            | Kind::NotAList
            | Kind::FloatForString
            | Kind::IntegerForBoolean
            | Kind::QuotedFloatForInteger
            | Kind::PaddedBoolean
            | Kind::QuotedOnForBoolean
            | Kind::ExponentForInteger
            | Kind::NanForString
            | Kind::UpdatePolicyNotAnInteger => Expect::Code("H614"),
            Kind::NotAllowedValue
            | Kind::OutOfRange
            | Kind::BadLength
            | Kind::PatternMismatch
            | Kind::NotAllowedValueAtCreate
            | Kind::OutOfRangeAtCreate
            | Kind::UpdatePolicyOutOfRange => Expect::Code("H615"),
            Kind::UnknownAttribute => Expect::Code("H610"),
            Kind::MisspeltType => Expect::Code("H608"),
            Kind::NullValue | Kind::NullConstrained => Expect::Either,
            Kind::QuotedScalar
            | Kind::FloatForInteger
            | Kind::BooleanForNumber
            | Kind::IntegerForString
            | Kind::YesForBoolean
            | Kind::PaddedInteger
            | Kind::HexInteger
            | Kind::UnderscoreInteger
            | Kind::OnForBoolean
            | Kind::DateForString
            | Kind::DeprecatedAlias
            | Kind::UpdatePolicyQuotedInteger => Expect::Accept,
        }
    }
}

/// What Heat and hotfix should make of a kind of mutant.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Heat rejects it (in some mode), and hotfix reports a new error of this code.
    Code(&'static str),
    /// Heat accepts it, and no resource rule reports a new error.
    Accept,
    /// Either: a new resource error exactly when Heat rejects it.
    Either,
}

impl Expect {
    fn label(self) -> &'static str {
        match self {
            Expect::Code(code) => code,
            Expect::Accept => "none",
            Expect::Either => "any",
        }
    }
}

struct Mutant {
    kind: Kind,
    /// What was changed, for the report: `server.flavor deleted`.
    what: String,
    text: String,
    /// For the `Create` mode: the resource and top-level property whose values that use
    /// resources Heat is given.
    create: Option<(String, String)>,
}

/// Adds `entry` (`key: value`) as the last entry of a mapping: a new line at the column of its
/// first key (block, also in a list item: `- a: 1`), or before `}` (flow).
fn append_entry(doc: &Document, text: &str, map: NodeId, entry: &str) -> Option<String> {
    let NodeKind::Mapping { entries, style } = &doc.node(map).kind else {
        return None;
    };
    let first = doc.node(entries.first()?.key).span.start;
    let last = doc.node(entries.last()?.value).span.end;
    let mut out = text.to_owned();
    match style {
        Style::Flow => {
            let close = doc.node(map).span.end - 1;
            out.insert_str(close, &format!(", {entry}"));
        }
        Style::Block => {
            let line_start = text[..first].rfind('\n').map_or(0, |i| i + 1);
            let indent = " ".repeat(text[line_start..first].chars().count());
            let at = text[last..].find('\n').map_or(text.len(), |i| last + i);
            out.insert_str(at, &format!("\n{indent}{entry}"));
        }
    }
    Some(out)
}

/// The top-level property of a site's path: `networks` of `networks[0].port`.
fn top_property(path: &str) -> &str {
    path.split(['.', '[']).next().unwrap_or(path)
}

/// `text` with the values of `resource`'s property `property` that use resources replaced by
/// strings (`without_resources`): the template as Heat checks that property at create.
fn create_view(text: &str, resource: &str, property: &str) -> Option<String> {
    let doc = hotfix_yaml::parse(text).ok()?;
    let template = Template::new(&doc);
    let semantic = Semantic::new(&template);
    let walker = Walker {
        doc: &doc,
        semantic: &semantic,
    };
    let r = template.resource(resource)?;
    let value = doc.get(template.field(r, "properties")?, property)?;
    walker
        .uses_resource(value)
        .then(|| without_resources(&walker, text, value))
}

/// A misspelling of `name` that `taken` does not know: without its last vowel (not the
/// first letter), else with its last two letters swapped, else with a letter doubled.
fn typo(name: &str, taken: impl Fn(&str) -> bool) -> Option<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut candidates = Vec::new();
    if let Some(i) = (1..chars.len())
        .rev()
        .find(|&i| "aeiouAEIOU".contains(chars[i]))
    {
        let mut c = chars.clone();
        c.remove(i);
        candidates.push(c.into_iter().collect::<String>());
    }
    if chars.len() >= 2 {
        let mut c = chars.clone();
        let n = c.len();
        c.swap(n - 1, n - 2);
        candidates.push(c.into_iter().collect());
    }
    if let Some(&last) = chars.last() {
        candidates.push(format!("{name}{last}"));
    }
    candidates
        .into_iter()
        .find(|c| !c.is_empty() && c != name && !taken(c))
}

/// `text` with the string scalar `node` replaced by `new`, written in the same style (plain or
/// quoted). `new` must be safe as a plain scalar.
fn replace_scalar(doc: &Document, text: &str, node: NodeId, new: &str) -> Option<String> {
    let n = doc.node(node);
    if n.tag.is_some() || n.anchor.is_some() {
        return None;
    }
    let NodeKind::Scalar(scalar) = &n.kind else {
        return None;
    };
    let content = match scalar.style {
        ScalarStyle::Plain => new.to_owned(),
        ScalarStyle::SingleQuoted => format!("'{new}'"),
        ScalarStyle::DoubleQuoted => format!("\"{new}\""),
        ScalarStyle::Literal | ScalarStyle::Folded => return None,
    };
    let mut out = text.to_owned();
    out.replace_range(n.span.range(), &content);
    Some(out)
}

/// `text` with a site's value replaced by `new` (a flow or plain scalar): the value's text for a
/// scalar or a list item, everything after the key's colon for a collection in a mapping (a
/// block list may sit at its key's indentation, where a scalar may not).
fn replace_value(doc: &Document, text: &str, site: &Site, new: &str) -> String {
    let value = doc.node(site.value);
    let mut out = text.to_owned();
    match (site.key, &value.kind) {
        (Some(key), NodeKind::Mapping { .. } | NodeKind::Sequence { .. }) => {
            let from = doc.node(key).span.end;
            out.replace_range(from..value.span.end, &format!(": {new}"));
        }
        _ => out.replace_range(value.span.range(), new),
    }
    out
}

/// `text` without the entry `index` of the mapping `map`, keeping the YAML valid: the entry's
/// lines (block), the entry up to the next key (the first entry of a list item), the entry and
/// one comma (flow); the sole entry leaves `{}`.
fn delete_entry(doc: &Document, text: &str, map: NodeId, index: usize) -> Option<String> {
    let NodeKind::Mapping { entries, style } = &doc.node(map).kind else {
        return None;
    };
    let entry = entries.get(index)?;
    let key = doc.node(entry.key).span;
    let value = doc.node(entry.value).span;
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut out = text.to_owned();
    if entries.len() == 1 {
        out.replace_range(doc.node(map).span.range(), "{}");
        return Some(out);
    }
    let next = entries.get(index + 1).map(|e| doc.node(e.key).span.start);
    let range = match style {
        Style::Block => {
            let start = line_start(key.start);
            if text[start..key.start].chars().all(|c| c == ' ') {
                let end = match next {
                    Some(next) => line_start(next),
                    None => text[value.end..]
                        .find('\n')
                        .map_or(text.len(), |i| value.end + i + 1),
                };
                start..end
            } else {
                key.start..next?
            }
        }
        Style::Flow => match (next, index.checked_sub(1)) {
            (Some(next), _) => key.start..next,
            (None, Some(prev)) => doc.node(entries[prev].value).span.end..value.end,
            (None, None) => key.start..value.end,
        },
    };
    out.replace_range(range, "");
    Some(out)
}

/// The type mutations: which property types each takes, and a literal Heat cannot convert to
/// them.
fn wrong_type(kind: Kind, schema: &Schema) -> Option<&'static str> {
    Some(match (kind, schema.kind) {
        (Kind::NotANumber, PropertyType::Integer | PropertyType::Number) => "notanumber",
        (Kind::NotABoolean, PropertyType::Boolean) => "notabool",
        (Kind::NotAString, PropertyType::String) => "[hotfix]",
        (Kind::NotAMap, PropertyType::Map) | (Kind::NotAList, PropertyType::List)
            if schema.allow_conversion =>
        {
            "42"
        }
        (Kind::NotAMap, PropertyType::Map) => "notamap",
        (Kind::NotAList, PropertyType::List) => "notalist",
        _ => return None,
    })
}

fn number_text(n: &serde_json::Number, delta: i64) -> String {
    if let Some(i) = n.as_i64() {
        return (i + delta).to_string();
    }
    #[allow(clippy::cast_precision_loss, reason = "delta is ±1")]
    let f = n.as_f64().unwrap_or(0.0) + delta as f64;
    format!("{f:?}")
}

/// The constraint mutations: a literal of the schema's type that a constraint of that kind
/// refuses (a value not allowed, one past the range, one too long or too short, one the
/// pattern does not match).
fn not_allowed(kind: Kind, schema: &Schema) -> Option<String> {
    let numeric = matches!(schema.kind, PropertyType::Integer | PropertyType::Number);
    let string = matches!(schema.kind, PropertyType::String);
    schema.constraints.iter().find_map(|c| match (kind, c) {
        (Kind::NotAllowedValue, Constraint::AllowedValues(values)) if numeric => {
            let max = values.iter().filter_map(Value::as_i64).max().unwrap_or(0);
            Some((max + 1000).to_string())
        }
        (Kind::NotAllowedValue, Constraint::AllowedValues(values)) if string => {
            let candidate = "hotfix-not-allowed";
            (!values.contains(&json!(candidate))).then(|| format!("\"{candidate}\""))
        }
        (Kind::OutOfRange, Constraint::Range(bounds)) if numeric => {
            match (&bounds.max, &bounds.min) {
                (Some(max), _) => Some(number_text(max, 1)),
                (None, Some(min)) => Some(number_text(min, -1)),
                (None, None) => None,
            }
        }
        (Kind::BadLength, Constraint::Length(bounds))
            if matches!(schema.kind, PropertyType::List | PropertyType::Map)
                && bounds.min.as_ref().and_then(serde_json::Number::as_u64) >= Some(1) =>
        {
            Some(
                if schema.kind == PropertyType::List {
                    "[]"
                } else {
                    "{}"
                }
                .to_owned(),
            )
        }
        (Kind::BadLength, Constraint::Length(bounds)) if string => {
            match (&bounds.max, &bounds.min) {
                (Some(max), _) => {
                    let max = usize::try_from(max.as_u64()?).ok().filter(|&m| m < 5000)?;
                    Some(format!("\"{}\"", "x".repeat(max + 1)))
                }
                (None, Some(min)) if min.as_u64()? >= 1 => Some("\"\"".to_owned()),
                _ => None,
            }
        }
        (Kind::PatternMismatch, Constraint::AllowedPattern(_)) if string => {
            Some("\"?! hotfix !?\"".to_owned())
        }
        _ => None,
    })
}

/// The conversion mutations: what Heat converts (`str(5)`, `int(2.5)`, `int(True)`,
/// `int(" 5 ")`, the strings `"true"`/`"false"`, YAML's `yes`/`no`), and what it does not
/// (`str(1.5)`, `bool` of an integer, `int("1.5")`, `" true"` for a boolean). `written` is the plain scalar
/// the site has (none for an inserted property): the quoted and float mutations rewrite it.
/// A value that changes is given only where no constraint could refuse it.
fn conversion(
    kind: Kind,
    schema: &Schema,
    written: Option<&hotfix_yaml::Scalar>,
) -> Option<String> {
    let constrained = schema
        .constraints
        .iter()
        .any(|c| !matches!(c, Constraint::CustomConstraint(_)));
    let number = matches!(schema.kind, PropertyType::Integer | PropertyType::Number);
    let value = written.map(|w| &w.value);
    let text = written.map_or("", |w| w.text.as_str());
    Some(match (kind, schema.kind, value) {
        (Kind::QuotedScalar, _, Some(ScalarValue::Int(_) | ScalarValue::Float(_))) if number => {
            format!("\"{text}\"")
        }
        (Kind::QuotedScalar, PropertyType::Boolean, Some(ScalarValue::Bool(_))) => {
            format!("\"{text}\"")
        }
        (Kind::FloatForInteger, PropertyType::Integer, Some(ScalarValue::Int(n))) => {
            format!("{n}.5")
        }
        (Kind::QuotedFloatForInteger, PropertyType::Integer, Some(ScalarValue::Int(n))) => {
            format!("\"{n}.5\"")
        }
        (Kind::YesForBoolean, PropertyType::Boolean, Some(ScalarValue::Bool(false))) => {
            "no".to_owned()
        }
        (Kind::YesForBoolean, PropertyType::Boolean, Some(ScalarValue::Bool(true)) | None) => {
            "yes".to_owned()
        }
        (Kind::IntegerForBoolean, PropertyType::Boolean, _) => "1".to_owned(),
        (Kind::PaddedBoolean, PropertyType::Boolean, Some(ScalarValue::Bool(_))) => {
            format!("\" {text}\"")
        }
        (Kind::PaddedBoolean, PropertyType::Boolean, None) => "\" true\"".to_owned(),
        (Kind::PaddedInteger, _, Some(ScalarValue::Int(_))) if number => {
            format!("\" {text} \"")
        }
        (Kind::PaddedInteger, _, None) if number && !constrained => "\" 1 \"".to_owned(),
        (Kind::FloatForString, PropertyType::String, _) => "1.5".to_owned(),
        (Kind::QuotedOnForBoolean, PropertyType::Boolean, _) => "\"on\"".to_owned(),
        (Kind::ExponentForInteger, PropertyType::Integer, _) => "1e3".to_owned(),
        (Kind::NanForString, PropertyType::String, _) => ".nan".to_owned(),
        (Kind::HexInteger, PropertyType::Integer, Some(ScalarValue::Int(Int::Small(n))))
            if *n >= 0 =>
        {
            format!("0x{n:x}")
        }
        (Kind::UnderscoreInteger, PropertyType::Integer, Some(ScalarValue::Int(Int::Small(n))))
            if *n >= 10 =>
        {
            let digits = n.to_string();
            format!("\"{}_{}\"", &digits[..1], &digits[1..])
        }
        (Kind::OnForBoolean, PropertyType::Boolean, Some(ScalarValue::Bool(false))) => {
            "off".to_owned()
        }
        (Kind::OnForBoolean, PropertyType::Boolean, Some(ScalarValue::Bool(true)) | None) => {
            "on".to_owned()
        }
        (Kind::DateForString, PropertyType::String, _) if !constrained => "2016-10-14".to_owned(),
        (Kind::BooleanForNumber, _, _) if number && !constrained => "true".to_owned(),
        (Kind::IntegerForString, PropertyType::String, _) if !constrained => "42".to_owned(),
        _ => return None,
    })
}

/// A property the first registered resource that can take one does not have, inserted with
/// the value `value` gives for its schema: the fallback of the type and constraint mutations,
/// for templates that write no literal they apply to. Deprecated and hidden properties are
/// left out (Heat's translation rules may rewrite them).
fn insertion(
    doc: &Document,
    text: &str,
    resources: &[Resource],
    value: impl Fn(&Schema) -> Option<String>,
) -> Option<(String, String)> {
    resources.iter().find_map(|r| {
        if r.schema.none_resource {
            return None;
        }
        let map = r.properties?;
        r.schema.properties.iter().find_map(|(name, schema)| {
            if doc.get(map, name).is_some()
                || !schema.implemented
                || matches!(
                    schema.support_status.status,
                    resource_types::Status::Hidden | resource_types::Status::Deprecated
                )
            {
                return None;
            }
            let new = value(schema)?;
            let text = insert_entry(doc, text, map, &format!("{name}: {new}"))?;
            Some((format!("{}.{name}: {new} inserted", r.name), text))
        })
    })
}

/// One mutant of each kind, each the first candidate in document order.
#[allow(
    clippy::too_many_lines,
    reason = "one flat list of mutations reads best in one place"
)]
fn mutants(doc: &Document, text: &str) -> Vec<Mutant> {
    let template = Template::new(doc);
    let semantic = Semantic::new(&template);
    let walker = Walker {
        doc,
        semantic: &semantic,
    };
    let resources = walker.resources(&template);
    let sites = walker.sites(&resources);
    let mut out = Vec::new();
    let mut created: Vec<Mutant> = Vec::new();
    let mut push = |kind: Kind, found: Option<(String, String)>| {
        if let Some((what, text)) = found {
            out.push(Mutant {
                kind,
                what,
                text,
                create: None,
            });
        }
    };
    let literal = |s: &Site| {
        walker.plain_tree(s.value)
            && semantic.call_at(s.value).is_none()
            && !doc
                .scalar(s.value)
                .is_some_and(|v| v.value == ScalarValue::Null)
    };

    // A property misspelt: at the top; in a nested schema, where Heat checks it before create.
    for (kind, nested) in [
        (Kind::PropertyTypo, false),
        (Kind::NestedPropertyTypo, true),
    ] {
        push(
            kind,
            sites.iter().find_map(|s| {
                let key = s
                    .key
                    .filter(|_| s.nested == nested && !(nested && s.depends))?;
                let name = doc.str_value(key)?;
                let (map, holder) = s.holder?;
                let new = typo(name, |t| {
                    holder.contains_key(t) || doc.get(map, t).is_some()
                })?;
                let text = replace_scalar(doc, text, key, &new)?;
                Some((format!("{}.{} → {new}", s.resource, s.path), text))
            }),
        );
    }

    // A required property deleted: at the top, in a nested schema.
    for (kind, nested) in [
        (Kind::RequiredDeleted, false),
        (Kind::NestedRequiredDeleted, true),
    ] {
        push(
            kind,
            sites.iter().find_map(|s| {
                if s.nested != nested || !s.schema.required || !walker.plain_tree(s.value) {
                    return None;
                }
                let (map, _) = s.holder?;
                let key = s.key?;
                let index = doc.raw_entries(map)?.iter().position(|e| e.key == key)?;
                let text = delete_entry(doc, text, map, index)?;
                Some((format!("{}.{} deleted", s.resource, s.path), text))
            }),
        );
    }

    // A literal of a type Heat cannot convert.
    for kind in [
        Kind::NotANumber,
        Kind::NotABoolean,
        Kind::NotAString,
        Kind::NotAMap,
        Kind::NotAList,
    ] {
        push(
            kind,
            sites
                .iter()
                .find_map(|s| {
                    let new = wrong_type(kind, s.schema).filter(|_| literal(s))?;
                    Some((
                        format!("{}.{} → {new}", s.resource, s.path),
                        replace_value(doc, text, s, new),
                    ))
                })
                .or_else(|| {
                    insertion(doc, text, &resources, |schema| {
                        wrong_type(kind, schema).map(str::to_owned)
                    })
                }),
        );
    }

    // A literal that a constraint refuses, where Heat checks it before create.
    for kind in [
        Kind::NotAllowedValue,
        Kind::OutOfRange,
        Kind::BadLength,
        Kind::PatternMismatch,
    ] {
        push(
            kind,
            sites
                .iter()
                .find_map(|s| {
                    if s.depends || !literal(s) {
                        return None;
                    }
                    let new = not_allowed(kind, s.schema)?;
                    Some((
                        format!("{}.{} → {new}", s.resource, s.path),
                        replace_value(doc, text, s, &new),
                    ))
                })
                .or_else(|| insertion(doc, text, &resources, |schema| not_allowed(kind, schema))),
        );
    }

    // Literals Heat converts, and some it does not.
    for kind in [
        Kind::FloatForString,
        Kind::IntegerForBoolean,
        Kind::QuotedFloatForInteger,
        Kind::QuotedScalar,
        Kind::FloatForInteger,
        Kind::BooleanForNumber,
        Kind::IntegerForString,
        Kind::YesForBoolean,
        Kind::PaddedBoolean,
        Kind::PaddedInteger,
        Kind::QuotedOnForBoolean,
        Kind::ExponentForInteger,
        Kind::NanForString,
        Kind::HexInteger,
        Kind::UnderscoreInteger,
        Kind::OnForBoolean,
        Kind::DateForString,
    ] {
        push(
            kind,
            sites
                .iter()
                .find_map(|s| {
                    if !literal(s) {
                        return None;
                    }
                    let written = doc
                        .scalar(s.value)
                        .filter(|w| w.style == ScalarStyle::Plain);
                    let new = conversion(kind, s.schema, Some(written?))?;
                    Some((
                        format!("{}.{} → {new}", s.resource, s.path),
                        replace_value(doc, text, s, &new),
                    ))
                })
                .or_else(|| {
                    insertion(doc, text, &resources, |schema| {
                        conversion(kind, schema, None)
                    })
                }),
        );
    }

    // The same in a property that uses a resource, which Heat checks only at create.
    let sites_at_create = || sites.iter().filter(|s| s.depends);
    if let Some((s, what, text)) = sites_at_create().find_map(|s| {
        let key = s.key.filter(|_| s.nested)?;
        let name = doc.str_value(key)?;
        let (map, holder) = s.holder?;
        let new = typo(name, |t| {
            holder.contains_key(t) || doc.get(map, t).is_some()
        })?;
        let text = replace_scalar(doc, text, key, &new)?;
        Some((s, format!("{}.{} → {new}", s.resource, s.path), text))
    }) {
        created.push(Mutant {
            kind: Kind::NestedPropertyTypoAtCreate,
            what,
            text,
            create: Some((s.resource.clone(), top_property(&s.path).to_owned())),
        });
    }
    for (kind, like) in [
        (Kind::NotAllowedValueAtCreate, Kind::NotAllowedValue),
        (Kind::OutOfRangeAtCreate, Kind::OutOfRange),
    ] {
        let replaced = sites_at_create().find_map(|s| {
            if !literal(s) || doc.scalar(s.value).is_none() {
                return None;
            }
            let new = not_allowed(like, s.schema)?;
            Some((
                s,
                format!("{}.{} → {new}", s.resource, s.path),
                replace_value(doc, text, s, &new),
            ))
        });
        // Else a nested key the mapping does not have, added with a refused value.
        let added = || {
            sites_at_create().find_map(|s| {
                let (map, holder) = s.holder.filter(|_| s.nested)?;
                holder.iter().find_map(|(name, schema)| {
                    if doc.get(map, name).is_some() || !schema.implemented {
                        return None;
                    }
                    let new = not_allowed(like, schema)?;
                    let text = append_entry(doc, text, map, &format!("{name}: {new}"))?;
                    let (parent, _) = s.path.rsplit_once('.')?;
                    Some((
                        s,
                        format!("{}.{parent}.{name}: {new} added", s.resource),
                        text,
                    ))
                })
            })
        };
        if let Some((s, what, text)) = replaced.or_else(added) {
            created.push(Mutant {
                kind,
                what,
                text,
                create: Some((s.resource.clone(), top_property(&s.path).to_owned())),
            });
        }
    }

    // A literal replaced by null: Heat uses the default, or an empty value (`''`, 0, `[]`, …),
    // which a constraint may refuse. Where Heat checks constraints before create.
    for (kind, constrained) in [(Kind::NullValue, false), (Kind::NullConstrained, true)] {
        push(
            kind,
            sites.iter().find_map(|s| {
                if s.depends || !literal(s) || doc.scalar(s.value).is_none() {
                    return None;
                }
                if constrained
                    && !s
                        .schema
                        .constraints
                        .iter()
                        .any(|c| !matches!(c, Constraint::CustomConstraint(_)))
                {
                    return None;
                }
                Some((
                    format!("{}.{} → null", s.resource, s.path),
                    replace_value(doc, text, s, "null"),
                ))
            }),
        );
    }

    // A property written under the deprecated name Heat's translation rules replace.
    push(
        Kind::DeprecatedAlias,
        sites.iter().find_map(|s| {
            let key = s.key?;
            let (map, holder) = s.holder?;
            let r = resources.iter().find(|r| r.name == s.resource)?;
            let alias = r.schema.translation.iter().find_map(|rule| {
                if rule.rule != resource_types::RuleKind::Replace {
                    return None;
                }
                match (rule.path.as_slice(), &rule.value_path, &rule.value_name) {
                    ([name], Some(from), None) if !s.nested && s.path == *name => {
                        from.first().filter(|_| from.len() == 1)
                    }
                    ([parent, name], None, Some(from)) if s.nested => {
                        let (head, leaf) = s.path.rsplit_once('.')?;
                        let index = head.strip_prefix(parent.as_str())?;
                        (leaf == name
                            && index.starts_with('[')
                            && index.ends_with(']')
                            && !index[1..].contains('['))
                        .then_some(from)
                    }
                    _ => None,
                }
            })?;
            if !holder.contains_key(alias) || doc.get(map, alias).is_some() {
                return None;
            }
            let text = replace_scalar(doc, text, key, alias)?;
            Some((format!("{}.{} → {alias}", s.resource, s.path), text))
        }),
    );

    // An attribute of a registered type, misspelt in get_attr.
    push(
        Kind::UnknownAttribute,
        semantic.calls_to(Function::GetAttr).find_map(|call| {
            let args = doc.items(call.args)?;
            let (&target, &attr) = (args.first()?, args.get(1)?);
            let target = doc.str_value(target)?;
            let r = resources.iter().find(|r| r.name == target)?;
            if r.schema.none_resource || r.schema.dynamic_attributes {
                return None;
            }
            let name = doc.str_value(attr)?;
            if !r.schema.attributes.contains_key(name) {
                return None;
            }
            let new = typo(name, |t| r.schema.accepts_attribute(t))?;
            let text = replace_scalar(doc, text, attr, &new)?;
            Some((format!("get_attr [{target}, {name} → {new}]"), text))
        }),
    );

    update_policy_mutants(&walker, &resources, text, &mut push);

    // A registered type, misspelt.
    let types = resource_types::all();
    push(
        Kind::MisspeltType,
        resources.iter().find_map(|r| {
            let name = doc.str_value(r.type_node)?;
            let (ns, last) = name.rsplit_once("::")?;
            let new = typo(last, |t| {
                let full = format!("{ns}::{t}");
                types.get(&full).is_some() || types.default_environment_target(&full).is_some()
            })?;
            let text = replace_scalar(doc, text, r.type_node, &format!("{ns}::{new}"))?;
            Some((format!("{}: {name} → {ns}::{new}", r.name), text))
        }),
    );
    out.extend(created);
    out
}

/// An `update_policy` added to the first resource (of a registered type, without one, whose
/// definition text edits can change safely): with a key its type does not have; and, on the
/// first whose type has update policies, with a nested integer given a word, a value below its
/// minimum, a quoted number.
fn update_policy_mutants(
    walker: &Walker<'_>,
    resources: &[Resource],
    text: &str,
    push: &mut impl FnMut(Kind, Option<(String, String)>),
) {
    let doc = walker.doc;
    let free = |r: &&Resource| {
        doc.get(r.node, "update_policy").is_none()
            && walker.literal_mapping(r.node)
            && walker.plain_tree(r.node)
    };
    let add = |r: &Resource, policy: &str| {
        let text = append_entry(doc, text, r.node, &format!("update_policy: {policy}"))?;
        Some((format!("{}.update_policy: {policy}", r.name), text))
    };
    push(
        Kind::UpdatePolicyUnknownKey,
        resources.iter().find(free).and_then(|r| {
            let key = if r.schema.update_policy.contains_key("rolling_update") {
                "rolling_updates"
            } else {
                "rolling_update"
            };
            add(r, &format!("{{{key}: {{max_batch_size: 1}}}}"))
        }),
    );
    // The first nested integer of the first type with update policies, and its minimum.
    let Some((r, key, nested, schema)) = resources.iter().filter(free).find_map(|r| {
        r.schema.update_policy.iter().find_map(|(key, policy)| {
            policy
                .schema
                .iter()
                .find(|(_, s)| s.kind == PropertyType::Integer)
                .map(|(nested, s)| (r, key, nested, s))
        })
    }) else {
        return;
    };
    push(
        Kind::UpdatePolicyNotAnInteger,
        add(r, &format!("{{{key}: {{{nested}: many}}}}")),
    );
    push(
        Kind::UpdatePolicyQuotedInteger,
        add(r, &format!("{{{key}: {{{nested}: \"2\"}}}}")),
    );
    let min = schema.constraints.iter().find_map(|c| match c {
        Constraint::Range(bounds) => bounds.min.as_ref().and_then(serde_json::Number::as_i64),
        _ => None,
    });
    push(
        Kind::UpdatePolicyOutOfRange,
        min.and_then(|min| add(r, &format!("{{{key}: {{{nested}: {}}}}}", min - 1))),
    );
}

// ---------------------------------------------------------------------------------------------
// Mutants: Heat against hotfix
// ---------------------------------------------------------------------------------------------

/// Per kind and mode: mutants sent, rejected by Heat, with a new hotfix error of the kind's
/// code among those, missed (rejected, no such error), and reported by hotfix though Heat
/// accepts them in that mode.
#[derive(Default, Clone, Copy)]
struct Counts {
    generated: usize,
    rejected: usize,
    reported: usize,
    missed: usize,
    hotfix_only: usize,
}

#[derive(Default)]
struct Mutations {
    /// Templates each mode accepts (which were mutated).
    originals: BTreeMap<Mode, usize>,
    counts: BTreeMap<(Kind, Mode), Counts>,
    missed: Vec<String>,
    /// Mutants that no mode rejects, with a new error of the expected code.
    hotfix_only: Vec<String>,
    /// Mutants Heat should accept and does, with a new resource error.
    false_alarms: Vec<String>,
    /// Mutants Heat should accept but rejects (a conversion Heat does not make).
    unexpected: Vec<String>,
    /// The first mutant of each kind, as Heat and hotfix saw it.
    examples: BTreeMap<Kind, String>,
    /// Mutants of the kinds Heat should reject that it rejects in some mode, and those of them
    /// with a new hotfix error of the expected code (the catch rate).
    rejected: usize,
    caught: usize,
}

impl Mutations {
    fn table(&self, templates: usize) -> String {
        let mut out = format!(
            "resource mutations: {templates} HOT templates; accepted by Heat (real plugins): {} \
             plain, {} strict no-cloud\n  {:<38} {:<7} {:>9} {:>9} {:>9} {:>7} {:>12}\n",
            self.originals.get(&Mode::Plain).unwrap_or(&0),
            self.originals.get(&Mode::Strict).unwrap_or(&0),
            "mutation",
            "mode",
            "generated",
            "rejected",
            "reported",
            "missed",
            "hotfix only",
        );
        out.push_str(
            "  (hotfix only: Heat accepts the mutant in that mode; plain validation checks \
             top-level property names, attributes and types only)\n",
        );
        for kind in Kind::ALL {
            for &mode in kind.modes() {
                let c = self.counts.get(&(kind, mode)).copied().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {:<38} {:<7} {:>9} {:>9} {:>9} {:>7} {:>12}",
                    format!("{} ({})", kind.name(), kind.expect().label()),
                    mode.name(),
                    c.generated,
                    c.rejected,
                    c.reported,
                    c.missed,
                    c.hotfix_only
                );
            }
        }
        #[allow(clippy::cast_precision_loss, reason = "a percentage")]
        let rate = 100.0 * self.caught as f64 / self.rejected.max(1) as f64;
        let _ = writeln!(
            out,
            "  caught: {} of the {} mutants Heat rejects ({rate:.1} %)",
            self.caught, self.rejected
        );
        out
    }

    /// Counts a mutant of a kind Heat should reject that it rejects, and whether hotfix caught it.
    fn tally(&mut self, expect: Expect, rejected: bool, reported: bool) {
        if rejected && matches!(expect, Expect::Code(_)) {
            self.rejected += 1;
            self.caught += usize::from(reported);
        }
    }

    /// Mutates one template in the modes Heat accepts it in, and asks Heat and hotfix about
    /// each mutant.
    fn mutate(&mut self, oracle: &mut Oracle, source: &Source) {
        let params = strict_params(&source.doc);
        let accepted: Vec<Mode> = Mode::ALL
            .into_iter()
            .filter(|&mode| oracle.validate(&source.text, mode, &params).is_none())
            .collect();
        if accepted.is_empty() {
            return;
        }
        for &mode in &accepted {
            *self.originals.entry(mode).or_default() += 1;
        }
        let before = errors(&source.display, &source.text);
        for mutant in mutants(&source.doc, &source.text) {
            let after = errors(&source.display, &mutant.text);
            // The expected code, or any resource rule's.
            let expect = mutant.kind.expect();
            let reported = match expect {
                Expect::Code(code) => count(&after, code) > count(&before, code),
                Expect::Accept | Expect::Either => RESOURCE_CODES
                    .iter()
                    .any(|code| count(&after, code) > count(&before, code)),
            };
            let new: Vec<&Diagnostic> = after
                .iter()
                .filter(|d| {
                    !before
                        .iter()
                        .any(|b| b.code == d.code && b.message == d.message)
                })
                .collect();
            let line = |mode: Mode, heat: &str| {
                format!(
                    "{} [{}, {}] {}\n    {}\n    Heat: {heat}\n    hotfix new errors: {}",
                    source.display,
                    mutant.kind.name(),
                    mode.name(),
                    mutant.what,
                    changed_lines(&source.text, &mutant.text),
                    shown(&new)
                )
            };
            let Some((modes, heat_text)) = heat_modes(oracle, source, &mutant, &accepted, &params)
                .filter(|(modes, _)| !modes.is_empty())
            else {
                continue;
            };
            let mut rejected_by_any = false;
            for &mode in &modes {
                let c = self.counts.entry((mutant.kind, mode)).or_default();
                c.generated += 1;
                let verdict = match mutation_key(&source.doc, &mutant, mode) {
                    Some(key) => oracle.shared_verdict(key, &heat_text, mode, &params),
                    None => oracle.validate(&heat_text, mode, &params),
                };
                // The example of a kind: one Heat rejects (or, for a conversion, accepts).
                let typical = match expect {
                    Expect::Code(_) => verdict.is_some(),
                    Expect::Accept => verdict.is_none(),
                    Expect::Either => mode != Mode::Plain,
                };
                if typical {
                    self.examples
                        .entry(mutant.kind)
                        .or_insert_with(|| line(mode, verdict.as_deref().unwrap_or("accepts")));
                }
                match verdict {
                    Some(heat) => {
                        rejected_by_any = true;
                        c.rejected += 1;
                        if reported {
                            c.reported += 1;
                        } else if expect != Expect::Accept {
                            c.missed += 1;
                            self.missed.push(line(mode, &heat));
                        } else {
                            self.unexpected.push(line(mode, &heat));
                        }
                    }
                    None if reported => c.hotfix_only += 1,
                    None => {}
                }
            }
            self.tally(expect, rejected_by_any, reported);
            // Plain validation checks only top-level property names, attributes and types:
            // a mutant of another kind that it alone accepts is not judged.
            let judged = !modes.contains(&Mode::Plain)
                || modes.contains(&Mode::Strict)
                || mutant.kind.plain_checks();
            if reported && !rejected_by_any && judged {
                let mode = *modes.last().unwrap_or(&Mode::Plain);
                if matches!(expect, Expect::Code(_)) {
                    let heat = if in_if_branch(&source.doc, &source.text, &mutant.text) {
                        "accepts (the change is in a branch of `if`, which Heat validates only \
                         when its condition takes it)"
                    } else {
                        "accepts"
                    };
                    self.hotfix_only.push(line(mode, heat));
                } else {
                    self.false_alarms.push(line(mode, "accepts"));
                }
            }
        }
    }
}

/// What Heat's verdict on a mutant depends on, beside the rest of a template it accepts: the
/// kind of mutation, the mode, the resource's type and what was changed in it (`OS::Nova::Server
/// .flavor → flavour`). `None` where more counts: the `Create` mode (Heat is given the resource
/// values of that template), a change inside a branch of `if` (Heat validates the branch its
/// condition takes), and a misspelt attribute (where the `get_attr` stands decides whether
/// strict validation resolves it: `HOTFIX_MUTATE_ASK_EVERY=1` found 8 of them judged otherwise
/// in another template). Checked by `HOTFIX_MUTATE_ASK_EVERY=1` on the whole corpus: no shared
/// verdict differs from Heat's own.
fn mutation_key(doc: &Document, mutant: &Mutant, mode: Mode) -> Option<String> {
    if mode == Mode::Create || mutant.create.is_some() || mutant.kind == Kind::UnknownAttribute {
        return None;
    }
    if in_if_branch(doc, doc.source(), &mutant.text) {
        return None;
    }
    let what = mutant.what.as_str();
    let (prefix, name, rest) = if let Some(after) = what.strip_prefix("get_attr [") {
        let (name, rest) = after.split_once(',')?;
        ("get_attr [", name, rest)
    } else {
        let at = what.find(['.', ':'])?;
        ("", &what[..at], &what[at..])
    };
    let root = doc.root();
    let resource = doc.get(doc.get(root, "resources")?, name)?;
    // Heat checks nothing but the existence of an external resource.
    if doc.get(resource, "external_id").is_some() {
        return None;
    }
    let type_name = doc.str_value(doc.get(resource, "type")?)?;
    Some(format!(
        "{} {} {prefix}{type_name}{rest}",
        mutant.kind.name(),
        mode.name()
    ))
}

/// The modes a mutant goes to Heat in, and the text Heat is given: those of its kind that
/// accept the original, with the mutant as it is; for a create-time mutant, `Create` with the mutated
/// property's values that use resources given as strings, when Heat accepts the original so.
fn heat_modes(
    oracle: &mut Oracle,
    source: &Source,
    mutant: &Mutant,
    accepted: &[Mode],
    params: &Value,
) -> Option<(Vec<Mode>, String)> {
    let Some((resource, property)) = &mutant.create else {
        let modes = accepted
            .iter()
            .copied()
            .filter(|m| mutant.kind.modes().contains(m))
            .collect();
        return Some((modes, mutant.text.clone()));
    };
    let original = create_view(&source.text, resource, property)?;
    let mutated = create_view(&mutant.text, resource, property)?;
    oracle
        .validate(&original, Mode::Create, params)
        .is_none()
        .then(|| (vec![Mode::Create], mutated))
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's engine; run by scripts/test.sh beside ../shared"]
fn shared_hotfix_reports_every_resource_mutant_that_heat_rejects() {
    let started = Instant::now();
    let (root, outside) = mutation_root();
    let (sources, suppressed) = sources(&root);
    let mut oracle = Oracle::start();
    let mut outcome = Mutations::default();
    for source in &sources {
        outcome.mutate(&mut oracle, source);
    }
    eprint!("{}", outcome.table(sources.len()));
    eprintln!(
        "  ({suppressed} templates with a suppression comment skipped; {} Heat requests; {} \
         mutants judged by Heat's verdict on the same mutation in another template{}; {:.1} s)",
        oracle.requests,
        oracle.shared,
        if oracle.every {
            " (HOTFIX_MUTATE_ASK_EVERY=1: none, Heat asked about every mutant)"
        } else {
            ""
        },
        started.elapsed().as_secs_f64()
    );
    assert!(
        oracle.differed.is_empty(),
        "{} shared verdicts differ from Heat's own on the template (a mutation_key misses what \
         Heat's verdict depends on):\n{}",
        oracle.differed.len(),
        oracle.differed.join("\n")
    );
    let examples: Vec<String> = outcome.examples.values().cloned().collect();
    for (list, title) in [
        (
            &examples,
            "the first mutant of each kind that Heat rejects (accepts, for the conversions)",
        ),
        (
            &outcome.hotfix_only,
            "mutants hotfix reports that Heat accepts in every mode (true at create time, in \
             a branch Heat does not take, or a false alarm: to look at)",
        ),
        (
            &outcome.unexpected,
            "mutants Heat was expected to accept but rejects (the mutation is wrong)",
        ),
        (
            &outcome.false_alarms,
            "mutants Heat accepts in every mode, with a new hotfix resource error (false alarms)",
        ),
    ] {
        if !list.is_empty() {
            eprintln!("{title} ({}):\n{}", list.len(), list.join("\n"));
        }
    }
    if !outcome.missed.is_empty() {
        eprintln!(
            "mutants Heat rejects without a new hotfix error of the expected code ({}):\n{}",
            outcome.missed.len(),
            outcome.missed.join("\n")
        );
    }
    assert!(
        outcome.missed.is_empty(),
        "{} mutants Heat rejects without a new hotfix error of the expected code (listed above)",
        outcome.missed.len()
    );
    assert!(
        outcome.false_alarms.is_empty(),
        "{} mutants Heat accepts get a new hotfix resource error (listed above)",
        outcome.false_alarms.len()
    );
    if outside {
        return;
    }
    assert!(
        outcome.originals.get(&Mode::Strict).copied().unwrap_or(0) > 400,
        "too few corpus templates accepted by strict Heat: {:?}",
        outcome.originals
    );
    for (kind, mode, minimum) in MINIMUM {
        let c = outcome
            .counts
            .get(&(kind, mode))
            .copied()
            .unwrap_or_default();
        // A mutant Heat should accept counts when generated; the others when Heat rejects them.
        let counted = if matches!(kind.expect(), Expect::Code(_)) {
            c.rejected
        } else {
            c.generated
        };
        assert!(
            counted >= minimum,
            "too few `{}` mutants {} in {} mode: {counted} (expected at least {minimum})",
            kind.name(),
            if matches!(kind.expect(), Expect::Code(_)) {
                "rejected by Heat"
            } else {
                "generated"
            },
            mode.name()
        );
    }
}

/// The templates to mutate: the corpus, or with `HOTFIX_MUTATE_ROOT=DIR` those under DIR (a
/// measurement on templates outside the corpus: the minimum counts are the corpus's and are
/// not asserted there); and whether it is outside.
fn mutation_root() -> (PathBuf, bool) {
    match std::env::var_os("HOTFIX_MUTATE_ROOT") {
        Some(dir) => (PathBuf::from(dir), true),
        None => (shared().join("corpus"), false),
    }
}

/// The fewest mutants of each kind that Heat must reject (or, for those it should accept, that
/// must be generated), about 60 % of what the corpus gives, so that the test cannot pass by
/// generating nothing. The corpus has almost no literal that a length or pattern constraint
/// applies to (those two kinds are counted, not required); the deprecated aliases are counted
/// by the table.
const MINIMUM: [(Kind, Mode, usize); 44] = [
    (Kind::PropertyTypo, Mode::Plain, 300),
    (Kind::PropertyTypo, Mode::Strict, 200),
    (Kind::NestedPropertyTypo, Mode::Strict, 30),
    (Kind::NestedPropertyTypoAtCreate, Mode::Create, 60),
    (Kind::RequiredDeleted, Mode::Strict, 200),
    (Kind::NestedRequiredDeleted, Mode::Strict, 10),
    (Kind::NotANumber, Mode::Strict, 40),
    (Kind::NotABoolean, Mode::Strict, 100),
    (Kind::NotAString, Mode::Strict, 200),
    (Kind::NotAMap, Mode::Strict, 120),
    (Kind::NotAList, Mode::Strict, 120),
    (Kind::NotAllowedValue, Mode::Strict, 200),
    (Kind::OutOfRange, Mode::Strict, 40),
    (Kind::NotAllowedValueAtCreate, Mode::Create, 60),
    (Kind::OutOfRangeAtCreate, Mode::Create, 15),
    (Kind::UnknownAttribute, Mode::Plain, 100),
    (Kind::MisspeltType, Mode::Plain, 300),
    (Kind::MisspeltType, Mode::Strict, 200),
    (Kind::FloatForString, Mode::Strict, 200),
    (Kind::IntegerForBoolean, Mode::Strict, 100),
    (Kind::QuotedFloatForInteger, Mode::Strict, 40),
    (Kind::PaddedBoolean, Mode::Strict, 100),
    (Kind::QuotedOnForBoolean, Mode::Strict, 100),
    (Kind::ExponentForInteger, Mode::Strict, 40),
    (Kind::NanForString, Mode::Strict, 200),
    (Kind::NullValue, Mode::Strict, 200),
    (Kind::NullConstrained, Mode::Strict, 100),
    (Kind::QuotedScalar, Mode::Strict, 40),
    (Kind::FloatForInteger, Mode::Strict, 40),
    (Kind::BooleanForNumber, Mode::Strict, 6),
    (Kind::IntegerForString, Mode::Strict, 120),
    (Kind::YesForBoolean, Mode::Strict, 100),
    (Kind::PaddedInteger, Mode::Strict, 40),
    (Kind::HexInteger, Mode::Strict, 40),
    (Kind::UnderscoreInteger, Mode::Strict, 8),
    (Kind::OnForBoolean, Mode::Strict, 100),
    (Kind::DateForString, Mode::Strict, 120),
    (Kind::UpdatePolicyUnknownKey, Mode::Plain, 290),
    (Kind::UpdatePolicyUnknownKey, Mode::Strict, 220),
    (Kind::UpdatePolicyNotAnInteger, Mode::Plain, 10),
    (Kind::UpdatePolicyNotAnInteger, Mode::Strict, 4),
    (Kind::UpdatePolicyOutOfRange, Mode::Plain, 10),
    (Kind::UpdatePolicyOutOfRange, Mode::Strict, 4),
    (Kind::UpdatePolicyQuotedInteger, Mode::Strict, 4),
];

// ---------------------------------------------------------------------------------------------
// The corpus as it is: Heat against hotfix
// ---------------------------------------------------------------------------------------------

/// Whether Heat's error is about a property, an attribute or a type: what the resource rules
/// are for. Parameter errors and errors of functions (`get_file` without files) are not.
fn property_reason(error: &str) -> bool {
    const ANYWHERE: &[&str] = &[
        "Unknown Property",
        "The Resource Type (",
        "The Referenced Attribute (",
    ];
    const VALUES: &[&str] = &[
        "not assigned",
        "is not an integer",
        "is not a map",
        "is not a list",
        "is not a valid boolean",
        "could not convert string to float",
        "Value must be a string",
        "out of range",
        "not an allowed value",
        "does not match pattern",
        "length (",
    ];
    ANYWHERE.iter().any(|r| error.contains(r))
        || (error.contains("resources.")
            && !error.starts_with("Parameter ")
            && VALUES.iter().any(|r| error.contains(r)))
}

/// Where Heat's error points: the resource, and the property path under its `properties`
/// (`networks[0].port` as `["networks", "0", "port"]`, empty for `properties` itself and for
/// an error that names the resource alone).
fn error_path<'e>(template: &Template<'_>, error: &'e str) -> Option<(usize, Vec<&'e str>)> {
    let at = error.find("resources.")?;
    let rest = &error[at + "resources.".len()..];
    let (index, tail) = template.resources.iter().enumerate().find_map(|(i, r)| {
        let tail = rest.strip_prefix(r.name.as_str())?;
        match tail.strip_prefix(".properties") {
            Some(tail) => Some((i, tail)),
            None => tail.starts_with(':').then_some((i, "")),
        }
    })?;
    let path = tail.split(": ").next().unwrap_or_default();
    let parts = path
        .split(['.', '[', ']'])
        .filter(|p| !p.is_empty())
        .collect();
    Some((index, parts))
}

/// Whether the value Heat's error is about is computed by a function (a `get_param` given the
/// oracle's dummy value, say): a call on the way from `properties` to it. Such values are not
/// literals, and the resource rules do not judge them.
fn computed(walker: &Walker<'_>, template: &Template<'_>, error: &str) -> bool {
    let doc = walker.doc;
    let Some((index, parts)) = error_path(template, error) else {
        return false;
    };
    let Some(mut node) = template.field(&template.resources[index], "properties") else {
        return false;
    };
    if parts.is_empty() && !error.contains(".properties") {
        // A group's own check names no property (`resources.group: Value '' is not an
        // integer`): the value is computed when no literal under `properties` is the one it
        // quotes.
        let quoted = error
            .split_once('\'')
            .and_then(|(_, rest)| rest.split_once('\''))
            .map(|(value, _)| value);
        return quoted.is_some_and(|value| !has_scalar(doc, node, value));
    }
    for part in std::iter::once(None).chain(parts.into_iter().map(Some)) {
        if let Some(part) = part {
            let next = match part.parse::<usize>() {
                Ok(i) => doc.items(node).and_then(|items| items.get(i).copied()),
                Err(_) => doc.get(node, part),
            };
            let Some(next) = next else { return false };
            node = next;
        }
        if walker.semantic.call_at(doc.resolve(node)).is_some() {
            return true;
        }
    }
    false
}

/// Whether a scalar under `node` is written `value`.
fn has_scalar(doc: &Document, node: NodeId, value: &str) -> bool {
    let node = doc.resolve(node);
    match &doc.node(node).kind {
        NodeKind::Scalar(s) => s.value != ScalarValue::Null && s.text == value,
        NodeKind::Mapping { entries, .. } => {
            entries.iter().any(|e| has_scalar(doc, e.value, value))
        }
        NodeKind::Sequence { items, .. } => items.iter().any(|&i| has_scalar(doc, i, value)),
        NodeKind::Alias { .. } => false,
    }
}

/// `text` with each call under `node` that uses a resource (`get_resource`, `get_attr`)
/// replaced by the string `"hotfix-ref"`, so that Heat checks the value before create.
fn without_resources(walker: &Walker<'_>, text: &str, node: NodeId) -> String {
    fn collect(walker: &Walker<'_>, node: NodeId, out: &mut Vec<hotfix_yaml::Span>) {
        let doc = walker.doc;
        if let Some(call) = walker.semantic.call_at(node)
            && matches!(
                call.status.function(),
                Function::GetResource | Function::GetAttr | Function::Ref
            )
        {
            out.push(doc.node(node).span);
            return;
        }
        match &doc.node(node).kind {
            NodeKind::Mapping { entries, .. } => {
                for e in entries {
                    collect(walker, e.value, out);
                }
            }
            NodeKind::Sequence { items, .. } => {
                for &i in items {
                    collect(walker, i, out);
                }
            }
            _ => {}
        }
    }
    let mut spans = Vec::new();
    collect(walker, node, &mut spans);
    let mut out = text.to_owned();
    for span in spans.iter().rev() {
        out.replace_range(span.range(), "\"hotfix-ref\"");
    }
    out
}

/// What the unmutated corpus showed.
#[derive(Default)]
struct Sweep {
    templates: usize,
    /// Accepted by plain and strict no-cloud Heat.
    accepted: usize,
    /// Errors there that strict Heat confirms once the resources' values are given.
    confirmed: Vec<String>,
    false_alarms: Vec<String>,
    /// Rejected for a property, attribute or type reason; of those, with a resource error
    /// from hotfix; about a computed value; missed.
    property: usize,
    reported: Vec<String>,
    computed: Vec<String>,
    missed: Vec<String>,
    /// Rejected for another reason (not judged), by reason.
    other: BTreeMap<String, usize>,
    /// Resource errors by code: in accepted templates, in rejected ones.
    codes: BTreeMap<&'static str, [usize; 2]>,
}

impl Sweep {
    fn check(&mut self, oracle: &mut Oracle, source: &Source) {
        self.templates += 1;
        let params = strict_params(&source.doc);
        let verdicts: Vec<(Mode, Option<String>)> = Mode::ALL
            .into_iter()
            .map(|mode| (mode, oracle.validate(&source.text, mode, &params)))
            .collect();
        let found: Vec<Diagnostic> = errors(&source.display, &source.text)
            .into_iter()
            .filter(|d| RESOURCE_CODES.contains(&d.code))
            .collect();
        let template = Template::new(&source.doc);
        let semantic = Semantic::new(&template);
        let walker = Walker {
            doc: &source.doc,
            semantic: &semantic,
        };
        let rejections: Vec<(Mode, &String)> = verdicts
            .iter()
            .filter_map(|(mode, error)| Some((*mode, error.as_ref()?)))
            .collect();
        let accepted = rejections.is_empty();
        for d in &found {
            self.codes.entry(d.code).or_default()[usize::from(!accepted)] += 1;
        }
        let heat = rejections
            .iter()
            .map(|(mode, error)| format!("{}: {error}", mode.name()))
            .collect::<Vec<_>>()
            .join("\n    Heat ");
        if accepted {
            self.accepted += 1;
            for d in &found {
                let line = format!(
                    "{} line {}: {} {}",
                    source.display,
                    source.doc.lines().position(&source.text, d.span.start).line + 1,
                    d.code,
                    d.message
                );
                match Self::confirm(oracle, &walker, &template, source, d, &params) {
                    Some(error) => self
                        .confirmed
                        .push(format!("{line}\n    Heat at create: {error}")),
                    None => self.false_alarms.push(line),
                }
            }
            return;
        }
        let property: Vec<&str> = rejections
            .iter()
            .map(|(_, e)| e.as_str())
            .filter(|e| property_reason(e) && !oracle.custom_type(e))
            .collect();
        if property.is_empty() {
            let (_, error) = rejections[0];
            let reason: String = error.chars().take(50).collect();
            *self.other.entry(reason).or_default() += 1;
            return;
        }
        self.property += 1;
        let line = format!(
            "{}\n    Heat {heat}\n    hotfix: {}",
            source.display,
            shown(&found.iter().collect::<Vec<_>>())
        );
        if !found.is_empty() {
            self.reported.push(line);
        } else if property.iter().all(|e| computed(&walker, &template, e)) {
            self.computed.push(line);
        } else {
            self.missed.push(line);
        }
    }

    /// Heat's strict error once the values that use a resource are given (as Heat has them
    /// at create), when it is about the resource and property the diagnostic points into.
    fn confirm(
        oracle: &mut Oracle,
        walker: &Walker<'_>,
        template: &Template<'_>,
        source: &Source,
        d: &Diagnostic,
        params: &Value,
    ) -> Option<String> {
        let doc = walker.doc;
        let at = d.span.start;
        let resource = template
            .resources
            .iter()
            .find(|r| doc.node(r.value).span.range().contains(&at))?;
        let properties = template
            .field(resource, "properties")
            .filter(|&p| walker.literal_mapping(p))?;
        // The top-level property the diagnostic points into, else all of them.
        let region = doc
            .raw_entries(properties)?
            .iter()
            .find(|e| (doc.node(e.key).span.start..=doc.node(e.value).span.end).contains(&at))
            .map_or(properties, |e| e.value);
        if !walker.uses_resource(region) {
            return None;
        }
        let variant = without_resources(walker, &source.text, region);
        let error = oracle.validate(&variant, Mode::Strict, params)?;
        (error.contains(&format!("resources.{}.properties", resource.name))
            && !error.contains("hotfix-ref"))
        .then_some(error)
    }

    fn table(&self) -> String {
        let mut out = format!(
            "resource rules on the corpus: {} HOT templates\n  accepted by Heat (plain and \
             strict no-cloud): {}; resource errors there: {} confirmed at create time, {} \
             false alarms\n  rejected for a property, attribute or type reason: {}; hotfix \
             reports {}, {} about a computed value (not a literal), {} missed\n  rejected for \
             another reason (not judged): {}\n",
            self.templates,
            self.accepted,
            self.confirmed.len(),
            self.false_alarms.len(),
            self.property,
            self.reported.len(),
            self.computed.len(),
            self.missed.len(),
            self.other.values().sum::<usize>(),
        );
        let mut other: Vec<(&String, &usize)> = self.other.iter().collect();
        other.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (reason, n) in other.iter().take(12) {
            let _ = writeln!(out, "    {n:>4}  {reason}…");
        }
        out.push_str("  resource errors by code (in accepted / rejected templates):\n");
        for (code, [a, r]) in &self.codes {
            let _ = writeln!(out, "    {code}  {a:>4} / {r:>4}");
        }
        out
    }
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's engine; run by scripts/test.sh beside ../shared"]
fn shared_resource_rules_agree_with_heat_on_every_corpus_template() {
    let started = Instant::now();
    let (sources, _) = sources(&shared().join("corpus"));
    let mut oracle = Oracle::start();
    let mut sweep = Sweep::default();
    for source in &sources {
        sweep.check(&mut oracle, source);
    }
    eprint!("{}", sweep.table());
    eprintln!(
        "  ({} Heat requests; {:.1} s)",
        oracle.requests,
        started.elapsed().as_secs_f64()
    );
    for (list, title) in [
        (
            &sweep.confirmed,
            "resource errors in templates Heat accepts, confirmed by strict Heat once the \
             values that use resources are given (true at create time)",
        ),
        (
            &sweep.reported,
            "templates Heat rejects for a property, attribute or type reason, with hotfix's \
             resource errors",
        ),
        (
            &sweep.computed,
            "templates Heat rejects about a computed value (the oracle's dummy parameters), \
             without a hotfix resource error: not the resource rules' business",
        ),
        (
            &sweep.false_alarms,
            "resource errors in templates Heat accepts (false alarms)",
        ),
        (
            &sweep.missed,
            "templates Heat rejects for a property, attribute or type reason without a hotfix \
             resource error (missed)",
        ),
    ] {
        if !list.is_empty() {
            eprintln!("{title} ({}):\n{}", list.len(), list.join("\n"));
        }
    }
    assert!(
        sweep.false_alarms.is_empty() && sweep.missed.is_empty(),
        "{} false alarms and {} misses (listed above)",
        sweep.false_alarms.len(),
        sweep.missed.len()
    );
    assert!(
        sweep.accepted > 400 && sweep.property > 25,
        "too few templates to judge: {} accepted, {} rejected for a property reason",
        sweep.accepted,
        sweep.property
    );
}
