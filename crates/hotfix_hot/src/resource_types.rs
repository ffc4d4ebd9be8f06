//! Heat's resource types: every registered type with its support status, property schemas,
//! attributes, translation rules and a few behaviours, as Heat's own registry gives them.
//!
//! The data is `data/resource_types.json`, written by `scripts/gen-resource-types.py` from the
//! `openstack-heat` package (the release is in [`ResourceTypes::heat_version`]), embedded in the
//! binary and parsed once, on first use: a run that never asks about resource types never parses
//! it. `docs/resource-types.md` says how to regenerate it; a test fails when it is stale.
//!
//! ```
//! use hotfix_hot::resource_types;
//!
//! let server = resource_types::get("OS::Nova::Server").expect("registered");
//! assert!(server.properties["flavor"].required);
//! assert!(server.snapshot);
//! ```

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{LazyLock, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use crate::heat_release::HeatRelease;

/// The embedded data, as the script writes it.
pub const RESOURCE_TYPES_JSON: &str = include_str!("../data/resource_types.json");

/// The version of the data's format that this module reads (the script's `FORMAT`).
const FORMAT: u32 = 1;

static TYPES: LazyLock<ResourceTypes> = LazyLock::new(|| {
    let data: Data = serde_json::from_str(RESOURCE_TYPES_JSON)
        .expect("the embedded resource-type data parses (a unit test proves it)");
    assert_eq!(
        data.format, FORMAT,
        "the embedded resource-type data has the format this module reads"
    );
    ResourceTypes::new(data)
});

/// Heat's registered resource types, parsed on first use.
///
/// # Panics
///
/// Never in a build whose tests pass: the embedded data is fixed at compile time and the unit
/// tests parse it.
pub fn all() -> &'static ResourceTypes {
    &TYPES
}

/// The registered type of that name (case-sensitive, as in Heat): `all().get(name)`.
pub fn get(name: &str) -> Option<&'static ResourceType> {
    all().get(name)
}

/// The older releases' data, newest first: each a JSON merge patch (RFC 7386) that turns the
/// newest release's ([`RESOURCE_TYPES_JSON`]) into its own, merged down to [`PATCH_DEPTH`].
/// `scripts/gen-heat-releases.py` writes them from each release's Heat (built by
/// `scripts/setup-heat-release.sh`); its `ORDER` is this list's.
pub const RELEASE_PATCHES: &[(&str, &str)] = &[
    ("gazpacho", include_str!("../data/releases/gazpacho.json")),
    ("flamingo", include_str!("../data/releases/flamingo.json")),
    ("epoxy", include_str!("../data/releases/epoxy.json")),
    ("dalmatian", include_str!("../data/releases/dalmatian.json")),
    ("caracal", include_str!("../data/releases/caracal.json")),
    ("bobcat", include_str!("../data/releases/bobcat.json")),
    ("antelope", include_str!("../data/releases/antelope.json")),
    ("zed", include_str!("../data/releases/zed.json")),
    ("yoga", include_str!("../data/releases/yoga.json")),
    ("xena", include_str!("../data/releases/xena.json")),
    ("wallaby", include_str!("../data/releases/wallaby.json")),
    ("victoria", include_str!("../data/releases/victoria.json")),
    ("ussuri", include_str!("../data/releases/ussuri.json")),
    ("train", include_str!("../data/releases/train.json")),
    ("stein", include_str!("../data/releases/stein.json")),
    ("rocky", include_str!("../data/releases/rocky.json")),
];

static RELEASES: [OnceLock<ResourceTypes>; RELEASE_PATCHES.len()] =
    [const { OnceLock::new() }; RELEASE_PATCHES.len()];

/// The resource types of the Heat that `release` ships (`heat-release`); without one, the newest
/// ([`all`]). A release with no data of its own reads the next release that has some (before
/// rocky: the Python package registry has openstack-heat from 11.0.2 on): what arrived in
/// between is `unavailable-in-release`'s to report.
///
/// # Panics
///
/// Never in a build whose tests pass: every release's data is parsed by a unit test.
pub fn for_release(release: Option<HeatRelease>) -> &'static ResourceTypes {
    let Some(release) = release else {
        return all();
    };
    // The oldest release with data from `release` on (the list is newest first).
    let Some(index) = RELEASE_PATCHES
        .iter()
        .rposition(|(series, _)| HeatRelease::parse(series).is_ok_and(|r| r >= release))
    else {
        return all();
    };
    RELEASES[index].get_or_init(|| {
        let data: Data = serde_json::from_value(release_document(index))
            .expect("the embedded data of every release parses (a unit test proves it)");
        ResourceTypes::new(data)
    })
}

/// How deep a patch merges: a value at this depth (`types`, a type, `properties`, one property's
/// schema) is replaced whole, as the script's `DEPTH` says (Heat's data holds `null` inside some
/// property defaults, which a merge would read as deletions).
const PATCH_DEPTH: usize = 4;

/// The data of the release at `index` of [`RELEASE_PATCHES`] as the script writes it: the
/// newest release's with that release's patch applied.
fn release_document(index: usize) -> Value {
    let mut doc: Value = serde_json::from_str(RESOURCE_TYPES_JSON)
        .expect("the embedded resource-type data parses (a unit test proves it)");
    let patch: Value = serde_json::from_str(RELEASE_PATCHES[index].1)
        .expect("the embedded patches parse (a unit test proves it)");
    merge_patch(&mut doc, patch, 0);
    doc
}

/// The data of one release, as `scripts/gen-resource-types.py` writes it on that release's Heat
/// (for the test that compares them); `None` for a series with no data of its own.
pub fn release_json(series: &str) -> Option<Value> {
    if HeatRelease::parse(series).ok()? == HeatRelease::LATEST {
        return serde_json::from_str(RESOURCE_TYPES_JSON).ok();
    }
    let index = RELEASE_PATCHES.iter().position(|(s, _)| *s == series)?;
    Some(release_document(index))
}

/// RFC 7386 down to `PATCH_DEPTH`: a `null` removes the key, a map merges key by key, anything
/// else (and anything at that depth) replaces.
fn merge_patch(target: &mut Value, patch: Value, depth: usize) {
    if depth == PATCH_DEPTH {
        *target = patch;
        return;
    }
    let Value::Object(patch) = patch else {
        *target = patch;
        return;
    };
    if !target.is_object() {
        *target = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(map) = target {
        for (key, value) in patch {
            if value.is_null() {
                map.remove(&key);
            } else {
                merge_patch(map.entry(key).or_insert(Value::Null), value, depth + 1);
            }
        }
    }
}

/// Every resource type of one Heat release, by name.
#[derive(Debug)]
pub struct ResourceTypes {
    /// The data read, its `types` moved to `types` below.
    data: Data,
    /// Every type, sorted by name.
    types: Vec<(String, ResourceType)>,
    /// Where each name is in `types`: a lint asks for a type by name tens of thousands of
    /// times (each a dozen string comparisons in a sorted map of two hundred names).
    index: foldhash::HashMap<String, usize>,
}

impl ResourceTypes {
    fn new(mut data: Data) -> ResourceTypes {
        let types: Vec<(String, ResourceType)> =
            std::mem::take(&mut data.types).into_iter().collect();
        let index = types
            .iter()
            .enumerate()
            .map(|(at, (name, _))| (name.clone(), at))
            .collect();
        ResourceTypes { data, types, index }
    }

    /// The `openstack-heat` release the data was read from, e.g. `27.0.1`.
    pub fn heat_version(&self) -> &str {
        &self.data.heat.version
    }

    /// The registered type of that name (names are case-sensitive, as in Heat).
    pub fn get(&self, name: &str) -> Option<&ResourceType> {
        self.index.get(name).map(|&at| &self.types[at].1)
    }

    /// Every registered type, sorted by name; hidden ones included.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &ResourceType)> {
        self.types.iter().map(|(name, t)| (name.as_str(), t))
    }

    /// The number of registered types.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether there are none (never, for real data).
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// The `resource_registry` of the default environment file the package ships
    /// (`etc/heat/environment.d/default.yaml`): aliases such as `OS::Quantum*` → `OS::Neutron*`
    /// and `OS::Metering::Alarm` → `OS::Aodh::Alarm`. heat-engine loads it only when the
    /// deployment installs it in its `environment_dir`, so these names may or may not work on a
    /// given cloud; the registered types never depend on it.
    pub fn default_environment(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.data
            .default_environment
            .iter()
            .map(|(from, to)| (from.as_str(), to.as_str()))
    }

    /// What the default environment maps `name` to, as Heat's registry maps it: an exact entry
    /// first, else a wildcard entry (`OS::Quantum*`) whose prefix `name` starts with, the rest of
    /// the name carried over when the target ends in `*` too. A target may be a template URL.
    pub fn default_environment_target(&self, name: &str) -> Option<Cow<'_, str>> {
        let environment = &self.data.default_environment;
        if let Some(target) = environment.get(name) {
            return Some(Cow::Borrowed(target));
        }
        environment.iter().find_map(|(from, to)| {
            let prefix = from.strip_suffix('*')?;
            let rest = name.strip_prefix(prefix)?;
            if to == name {
                return None;
            }
            Some(match to.strip_suffix('*') {
                Some(target) => Cow::Owned(format!("{target}{rest}")),
                None => Cow::Borrowed(to.as_str()),
            })
        })
    }
}

/// One registered resource type.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceType {
    /// Its support status and the statuses before it.
    pub support_status: SupportStatus,
    /// Its properties, by name.
    pub properties: BTreeMap<String, Schema>,
    /// Its attributes, by name, `show` included (every resource has it).
    pub attributes: BTreeMap<String, Attribute>,
    /// The keys of its `update_policy` section, by name (empty when it takes none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub update_policy: BTreeMap<String, Schema>,
    /// How Heat rewrites older property names (or drops them) before using the properties.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub translation: Vec<TranslationRule>,
    /// Heat's `NoneResource` (`OS::Heat::None`) or a subclass: any property and any attribute
    /// are accepted, and nothing is made. The subclasses are removed types Heat keeps this way.
    #[serde(default, skip_serializing_if = "is_false")]
    pub none_resource: bool,
    /// Whether `deletion_policy: Snapshot` is accepted (Heat's `validate_deletion_policy`: the
    /// class has a `handle_snapshot_delete`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub snapshot: bool,
    /// Whether any attribute name passes validation, because the class computes attributes at
    /// run time (it overrides `get_attribute` or `FnGetAtt`; Heat's `Resource.node_data` then
    /// accepts every name before the resource exists).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dynamic_attributes: bool,
}

impl ResourceType {
    /// Whether Heat hides the type (its status is `HIDDEN`): not listed by
    /// `openstack orchestration resource type list`, and usually removed.
    pub fn is_hidden(&self) -> bool {
        self.support_status.status == Status::Hidden
    }

    /// A removed type that Heat keeps as a no-op placeholder: hidden, and a `NoneResource`.
    pub fn is_removed_placeholder(&self) -> bool {
        self.none_resource && self.is_hidden()
    }

    /// Whether `get_attr` on this type may name `attribute`, as Heat validates it: a declared
    /// attribute, or any name when the type's attributes are dynamic.
    pub fn accepts_attribute(&self, attribute: &str) -> bool {
        self.dynamic_attributes || self.attributes.contains_key(attribute)
    }
}

/// A support status and its history: `HIDDEN` since 10.0.0, `DEPRECATED` since 8.0.0 before
/// that, `SUPPORTED` since 5.0.0 before that.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SupportStatus {
    /// The status.
    pub status: Status,
    /// The Heat release it applies from (`2014.1`, `10.0.0`), when Heat says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The status before this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<Box<SupportStatus>>,
    /// The type Heat names as the replacement, when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub substitute: Option<String>,
    /// Heat's message for the status, where it gives one (recorded for a type's own status:
    /// `Use octavia instead.`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Default for SupportStatus {
    /// Heat's default: supported, with no release and no history.
    fn default() -> Self {
        Self {
            status: Status::Supported,
            version: None,
            previous: None,
            substitute: None,
            message: None,
        }
    }
}

/// This status alone, as Heat names it in lower case: `hidden since 10.0.0`, `deprecated`.
impl std::fmt::Display for SupportStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.status.as_str().to_lowercase())?;
        match &self.version {
            // Heat writes one release with a trailing space (`'2014.2 '`, Port's `subnet_id`).
            Some(version) => write!(f, " since {}", version.trim()),
            None => Ok(()),
        }
    }
}

impl SupportStatus {
    /// This status and every one before it, newest first.
    pub fn chain(&self) -> impl Iterator<Item = &SupportStatus> {
        std::iter::successors(Some(self), |s| s.previous.as_deref())
    }

    /// Heat's default (supported, no release, no history).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// Heat's support statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Status {
    Supported,
    Deprecated,
    Unsupported,
    Hidden,
    Unknown,
}

impl Status {
    /// Heat's name: `SUPPORTED`, `DEPRECATED`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Supported => "SUPPORTED",
            Self::Deprecated => "DEPRECATED",
            Self::Unsupported => "UNSUPPORTED",
            Self::Hidden => "HIDDEN",
            Self::Unknown => "UNKNOWN",
        }
    }
}

/// The schema of a property (or of an `update_policy` key, or of a nested value).
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "Heat's schema: independent yes-or-no facts, named as Heat names them"
)]
pub struct Schema {
    /// The value's type.
    #[serde(rename = "type")]
    pub kind: PropertyType,
    /// Whether a value must be given.
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// The value used when none is given, as Heat holds it (JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// The constraints on the value, in Heat's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<Constraint>,
    /// Whether a stack update may change it in place (otherwise a change replaces the resource).
    #[serde(default, skip_serializing_if = "is_false")]
    pub update_allowed: bool,
    /// Whether a stack update may not change it at all.
    #[serde(default, skip_serializing_if = "is_false")]
    pub immutable: bool,
    /// False when Heat declares the property but rejects any value for it (not implemented).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub implemented: bool,
    /// Whether Heat converts a string value to the map or list the type wants.
    #[serde(default, skip_serializing_if = "is_false")]
    pub allow_conversion: bool,
    /// Its support status.
    #[serde(default, skip_serializing_if = "SupportStatus::is_default")]
    pub support_status: SupportStatus,
    /// A map's keys and their schemas (empty when the map is free-form, or not a map).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub schema: BTreeMap<String, Schema>,
    /// A list's item schema (none when the items are free-form, or not a list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Schema>>,
}

impl Schema {
    /// A value of the schema's type that its allowed values (if any) accept: the first allowed
    /// value, else `"x"`, `1`, `true`, `{}` or `[]`. Other constraints (range, length,
    /// pattern) are not considered.
    pub fn example_value(&self) -> Value {
        let allowed = self.constraints.iter().find_map(|c| match c {
            Constraint::AllowedValues(values) => values.first(),
            _ => None,
        });
        if let Some(first) = allowed {
            return first.clone();
        }
        match self.kind {
            PropertyType::String | PropertyType::Any => Value::from("x"),
            PropertyType::Integer | PropertyType::Number => Value::from(1),
            PropertyType::Boolean => Value::from(true),
            PropertyType::Map => Value::Object(serde_json::Map::new()),
            PropertyType::List => Value::Array(Vec::new()),
        }
    }
}

/// The types of property values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PropertyType {
    String,
    Integer,
    Number,
    Boolean,
    Map,
    List,
    Any,
}

impl PropertyType {
    /// Heat's name, lower case: `string`, `integer`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Self::String => "string",
            Self::Integer => "integer",
            Self::Number => "number",
            Self::Boolean => "boolean",
            Self::Map => "map",
            Self::List => "list",
            Self::Any => "any",
        }
    }
}

/// A constraint on a value, as Heat writes it (without its description).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Constraint {
    /// The value (or each item of a list value) is one of these.
    AllowedValues(Vec<Value>),
    /// A number within these bounds (inclusive).
    Range(Bounds),
    /// A string, list or map whose length is within these bounds (inclusive).
    Length(Bounds),
    /// A number that is `offset` more than a multiple of `step`.
    Modulo(Modulo),
    /// A string that this (Python) regular expression matches in full.
    AllowedPattern(String),
    /// A value that a named check against the cloud accepts (`nova.flavor`, `glance.image`).
    CustomConstraint(String),
}

/// How `hotfix type` and the language server's hover show a constraint: `allowed values a, b`,
/// `range min 1 max 5`, `length min 1`, `modulo step 2 offset 1`, `pattern "[a-z]+"` (quoted as
/// JSON, so that any character stays visible), `custom constraint nova.flavor`.
impl std::fmt::Display for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bounds = |f: &mut std::fmt::Formatter<'_>, what: &str, b: &Bounds| {
            f.write_str(what)?;
            if let Some(min) = &b.min {
                write!(f, " min {min}")?;
            }
            if let Some(max) = &b.max {
                write!(f, " max {max}")?;
            }
            Ok(())
        };
        match self {
            Constraint::AllowedValues(values) => {
                f.write_str("allowed values ")?;
                for (i, value) in values.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{value}")?;
                }
                Ok(())
            }
            Constraint::Range(b) => bounds(f, "range", b),
            Constraint::Length(b) => bounds(f, "length", b),
            Constraint::Modulo(modulo) => {
                f.write_str("modulo")?;
                if let Some(step) = &modulo.step {
                    write!(f, " step {step}")?;
                }
                if let Some(offset) = &modulo.offset {
                    write!(f, " offset {offset}")?;
                }
                Ok(())
            }
            Constraint::AllowedPattern(pattern) => {
                write!(f, "pattern {}", Value::from(pattern.as_str()))
            }
            Constraint::CustomConstraint(name) => write!(f, "custom constraint {name}"),
        }
    }
}

/// The bounds of a range or length constraint.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<Number>,
}

/// A modulo constraint.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Modulo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<Number>,
}

/// An attribute.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Attribute {
    /// Its type, when Heat declares one.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<AttributeType>,
    /// Its support status.
    #[serde(default, skip_serializing_if = "SupportStatus::is_default")]
    pub support_status: SupportStatus,
}

/// The types Heat declares for attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AttributeType {
    String,
    Integer,
    Boolean,
    Map,
    List,
}

impl AttributeType {
    /// Heat's name, lower case.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::String => "string",
            Self::Integer => "integer",
            Self::Boolean => "boolean",
            Self::Map => "map",
            Self::List => "list",
        }
    }
}

/// One of Heat's translation rules: how a resource's properties are rewritten before use, such
/// as an older property name replaced by the current one.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TranslationRule {
    /// What the rule does to the property at `path`.
    pub rule: RuleKind,
    /// The property the rule changes: names from the top of `properties`, through the items of
    /// lists (`["networks", "uuid"]` is `uuid` in each item of `networks`).
    pub path: Vec<String>,
    /// Replace: the value comes from this sibling of the last name of `path`, in the same map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_name: Option<String>,
    /// Replace: the value comes from this property path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_path: Option<Vec<String>>,
    /// Replace: the path within the value, for a property that has no schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_value_path: Option<Vec<String>>,
    /// Add or Replace: the value, where a value read from the template is written
    /// `{"property": [path]}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

/// What a translation rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum RuleKind {
    /// Appends the value to the list property at `path`.
    Add,
    /// Sets the property at `path` from the value (then drops where it came from).
    Replace,
    /// Drops the property at `path`.
    Delete,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Data {
    format: u32,
    heat: Heat,
    default_environment: BTreeMap<String, String>,
    types: BTreeMap<String, ResourceType>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Heat {
    #[allow(
        dead_code,
        reason = "always openstack-heat; read to reject unknown fields"
    )]
    package: String,
    version: String,
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde passes a reference"
)]
fn is_false(value: &bool) -> bool {
    !*value
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde passes a reference"
)]
fn is_true(value: &bool) -> bool {
    *value
}

fn yes() -> bool {
    true
}

#[cfg(test)]
mod tests {
    //! Facts checked against Heat 27.0.1's source (`heat/engine/resources/...` in the oracle's
    //! virtual environment), not against memory.

    use super::*;

    #[test]
    fn every_release_has_its_own_heat_and_older_releases_read_the_oldest() {
        let mut seen = Vec::new();
        for (series, _) in RELEASE_PATCHES {
            let release = HeatRelease::parse(series).expect("a series of the release table");
            let types = for_release(Some(release));
            let major = types.heat_version().split('.').next().expect("a version");
            assert_eq!(
                HeatRelease::of_heat_version(&format!("{major}.0.0")),
                Some(release),
                "{series}: Heat {}",
                types.heat_version()
            );
            assert!(types.len() > 100, "{series}: {} types", types.len());
            seen.push(release);
        }
        assert!(
            seen.windows(2).all(|w| w[0] > w[1]),
            "newest first: {seen:?}"
        );
        let oldest = seen.last().copied().expect("some releases");
        let liberty = HeatRelease::parse("liberty").expect("a release");
        assert_eq!(
            for_release(Some(liberty)).heat_version(),
            for_release(Some(oldest)).heat_version()
        );
        // A release without data of its own reads the next one that has some.
        for release in HeatRelease::all().filter(|r| *r >= oldest) {
            let next = seen
                .iter()
                .rev()
                .find(|r| **r >= release)
                .map_or(all().heat_version(), |r| {
                    for_release(Some(*r)).heat_version()
                });
            assert_eq!(for_release(Some(release)).heat_version(), next, "{release}");
        }
        assert_eq!(for_release(None).heat_version(), all().heat_version());
        assert_eq!(
            for_release(Some(HeatRelease::LATEST)).heat_version(),
            all().heat_version()
        );
        assert_eq!(
            release_json("hibiscus").expect("the newest")["heat"]["version"],
            all().heat_version()
        );
        assert!(release_json("liberty").is_none());
    }

    #[test]
    fn a_merge_patch_removes_merges_and_replaces() {
        let mut doc = serde_json::json!({"a": {"b": 1, "c": [1]}, "d": 2});
        merge_patch(
            &mut doc,
            serde_json::json!({"a": {"b": null, "c": [2], "e": {"f": true}}, "d": {}}),
            0,
        );
        assert_eq!(
            doc,
            serde_json::json!({"a": {"c": [2], "e": {"f": true}}, "d": {}})
        );
        // At PATCH_DEPTH a value is replaced whole, its nulls kept.
        let mut doc = serde_json::json!({"types": {"T": {"properties": {"p": {"x": 1}}}}});
        let schema = serde_json::json!({"default": {"k": null}});
        merge_patch(
            &mut doc,
            serde_json::json!({"types": {"T": {"properties": {"p": schema.clone()}}}}),
            0,
        );
        assert_eq!(doc["types"]["T"]["properties"]["p"], schema);
    }

    #[test]
    fn the_embedded_data_parses_and_names_its_heat_release() {
        let types = all();
        assert_eq!(types.heat_version(), "27.0.1");
        assert_eq!(types.len(), 201);
        assert!(types.iter().map(|(name, _)| name).is_sorted());
    }

    #[test]
    fn the_typed_model_keeps_every_fact_of_the_data() {
        let data: Value = serde_json::from_str(RESOURCE_TYPES_JSON).expect("JSON");
        let types: BTreeMap<&str, Value> = all()
            .iter()
            .map(|(name, t)| (name, serde_json::to_value(t).expect("serialises")))
            .collect();
        assert_eq!(serde_json::to_value(types).expect("map"), data["types"]);
    }

    #[test]
    fn a_server_requires_a_flavor_that_can_change_in_place() {
        // nova/server.py: FLAVOR: Schema(STRING, required=True, update_allowed=True,
        // constraints=[CustomConstraint('nova.flavor')])
        let flavor = &get("OS::Nova::Server").expect("registered").properties["flavor"];
        assert_eq!(flavor.kind, PropertyType::String);
        assert!(flavor.required && flavor.update_allowed && !flavor.immutable);
        assert!(matches!(
            flavor.constraints.as_slice(),
            [Constraint::CustomConstraint(name)] if name == "nova.flavor"
        ));
        // IMAGE is not required (a server may boot from a volume).
        assert!(!get("OS::Nova::Server").expect("registered").properties["image"].required);
    }

    #[test]
    fn server_networks_are_a_list_of_maps_with_a_hidden_uuid_translated_to_network() {
        let server = get("OS::Nova::Server").expect("registered");
        let networks = &server.properties["networks"];
        assert_eq!(networks.kind, PropertyType::List);
        let item = networks.items.as_deref().expect("an item schema");
        assert_eq!(item.kind, PropertyType::Map);
        for key in [
            "network",
            "port",
            "fixed_ip",
            "subnet",
            "floating_ip",
            "tag",
        ] {
            assert!(item.schema.contains_key(key), "{key}");
        }
        // NETWORK_UUID: HIDDEN since 5.0.0, DEPRECATED since 2014.1 before that.
        let uuid = &item.schema["uuid"].support_status;
        assert_eq!(uuid.status, Status::Hidden);
        assert_eq!(uuid.version.as_deref(), Some("5.0.0"));
        let before: Vec<_> = uuid.chain().map(|s| s.status).collect();
        assert_eq!(before, [Status::Hidden, Status::Deprecated]);
        // translation_rules: REPLACE [networks, network] from value_name uuid.
        let rule = server
            .translation
            .iter()
            .find(|r| r.path == ["networks", "network"])
            .expect("a rule for networks.network");
        assert_eq!(rule.rule, RuleKind::Replace);
        assert_eq!(rule.value_name.as_deref(), Some("uuid"));
    }

    #[test]
    fn a_network_has_a_subnets_list_attribute_and_the_show_attribute() {
        let net = get("OS::Neutron::Net").expect("registered");
        assert_eq!(net.attributes["subnets"].kind, Some(AttributeType::List));
        assert_eq!(net.attributes["show"].kind, Some(AttributeType::Map));
        assert!(net.accepts_attribute("subnets"));
        assert!(!net.accepts_attribute("subnet"));
        assert!(!net.dynamic_attributes && !net.snapshot);
    }

    #[test]
    fn snapshot_deletion_is_supported_by_servers_and_volumes_only() {
        // handle_snapshot_delete: nova/server.py, server_base.py (DeployedServer), volume_base.py.
        let snapshot: Vec<&str> = all()
            .iter()
            .filter(|(_, t)| t.snapshot)
            .map(|(name, _)| name)
            .collect();
        assert_eq!(
            snapshot,
            [
                "AWS::EC2::Volume",
                "OS::Cinder::Volume",
                "OS::Heat::DeployedServer",
                "OS::Nova::Server"
            ]
        );
    }

    #[test]
    fn groups_and_deployments_have_dynamic_attributes() {
        // resource_group.py, autoscaling_group.py, software_deployment.py override get_attribute.
        for name in [
            "OS::Heat::ResourceGroup",
            "OS::Heat::AutoScalingGroup",
            "OS::Heat::SoftwareDeployment",
            "OS::Heat::SoftwareDeploymentGroup",
            "OS::Heat::StructuredDeployment",
            "AWS::CloudFormation::Stack",
        ] {
            let t = get(name).expect("registered");
            assert!(
                t.dynamic_attributes && t.accepts_attribute("anything"),
                "{name}"
            );
        }
        assert!(
            !get("OS::Heat::RandomString")
                .expect("registered")
                .dynamic_attributes
        );
    }

    #[test]
    fn removed_types_are_hidden_none_resources() {
        // designate/record.py: class DesignateRecord(NoneResource), HIDDEN since 10.0.0,
        // DEPRECATED since 8.0.0, SUPPORTED since 5.0.0.
        let record = get("OS::Designate::Record").expect("registered");
        assert!(record.is_removed_placeholder() && record.is_hidden());
        assert!(record.properties.is_empty() && record.accepts_attribute("anything"));
        let chain: Vec<_> = record
            .support_status
            .chain()
            .map(|s| (s.status, s.version.as_deref()))
            .collect();
        assert_eq!(
            chain,
            [
                (Status::Hidden, Some("10.0.0")),
                (Status::Deprecated, Some("8.0.0")),
                (Status::Supported, Some("5.0.0"))
            ]
        );
        assert!(
            get("OS::Glance::Image")
                .expect("registered")
                .is_removed_placeholder()
        );
        // OS::Heat::None itself is a NoneResource but not removed.
        let none = get("OS::Heat::None").expect("registered");
        assert!(none.none_resource && !none.is_removed_placeholder());
        // Hidden but still a working class (nova/floatingip.py): not a placeholder.
        let floating = get("OS::Nova::FloatingIP").expect("registered");
        assert!(floating.is_hidden() && !floating.is_removed_placeholder());
    }

    #[test]
    fn a_deprecated_type_names_its_substitute() {
        // software_deployment.py: SoftwareDeployments, substitute_class=SoftwareDeploymentGroup.
        let status = &get("OS::Heat::SoftwareDeployments")
            .expect("registered")
            .support_status;
        assert_eq!(
            status.substitute.as_deref(),
            Some("OS::Heat::SoftwareDeploymentGroup")
        );
    }

    #[test]
    fn renames_and_drops_are_translation_rules() {
        // designate/zone.py: REPLACE [masters] from value_name primaries.
        let zone = &get("OS::Designate::Zone").expect("registered").translation;
        assert_eq!(zone.len(), 1);
        assert_eq!(
            (
                zone[0].rule,
                zone[0].path.as_slice(),
                zone[0].value_name.as_deref()
            ),
            (
                RuleKind::Replace,
                &["masters".to_owned()][..],
                Some("primaries")
            )
        );
        // heat/random_string.py: with `sequence` given, ADD a character class from it, then
        // DELETE `sequence`.
        let random = &get("OS::Heat::RandomString")
            .expect("registered")
            .translation;
        assert_eq!(random[0].rule, RuleKind::Add);
        assert_eq!(
            random[0].value,
            Some(serde_json::json!([{"class": {"property": ["sequence"]}, "min": 1}]))
        );
        assert_eq!(
            (random[1].rule, random[1].path.as_slice()),
            (RuleKind::Delete, &["sequence".to_owned()][..])
        );
    }

    #[test]
    fn update_policies_are_recorded_for_groups() {
        // resource_group.py: update_policy_schema has batch_create and rolling_update.
        let group = get("OS::Heat::ResourceGroup").expect("registered");
        let keys: Vec<&str> = group.update_policy.keys().map(String::as_str).collect();
        assert_eq!(keys, ["batch_create", "rolling_update"]);
        assert!(
            get("OS::Nova::Server")
                .expect("registered")
                .update_policy
                .is_empty()
        );
    }

    #[test]
    fn the_default_environment_maps_old_names_as_heat_does() {
        let types = all();
        assert_eq!(
            types
                .default_environment_target("OS::Quantum::Net")
                .as_deref(),
            Some("OS::Neutron::Net")
        );
        assert_eq!(
            types
                .default_environment_target("OS::Metering::Alarm")
                .as_deref(),
            Some("OS::Aodh::Alarm")
        );
        assert_eq!(types.default_environment_target("OS::Nova::Server"), None);
        for (from, _) in types.default_environment() {
            assert!(types.get(from.trim_end_matches('*')).is_none(), "{from}");
        }
    }
}
