//! What one file says about other files, read from its text alone (so it can be cached by
//! content and computed in parallel).

use std::collections::HashMap;

use hotfix_hot::environment::{EntryKind, Environment};
use hotfix_hot::key_name;
use hotfix_hot::parameter_schema::ParameterSchema;
use hotfix_yaml::{Document, NodeKind, Span};

/// What a file is, by content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A top-level `heat_template_version` (or a CFN version key).
    Template,
    /// An environment: a mapping whose keys include one of Heat's environment sections and no
    /// template version.
    Environment,
    /// Other YAML or JSON (or an empty file).
    Other,
    /// Heat could not load it; the text says why.
    Unloadable(String),
}

/// How a file names another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// `type: x.yaml` (or `.template`): a nested template, relative to the file.
    NestedType,
    /// `get_file: path`, relative to the file.
    GetFile,
    /// A `resource_registry` value that python-heatclient reads as a file: relative to the
    /// environment file (or its `base_url`). `type_name` is the key; `resource` the resource
    /// name of a per-resource entry (`resources: {name: {type: file}}`).
    Registry {
        type_name: String,
        resource: Option<String>,
    },
}

/// A reference to another file, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawLink {
    pub kind: LinkKind,
    /// The path or URL as written.
    pub reference: String,
    /// The value node's span (where the path is written).
    pub span: Span,
    /// For a registry entry: the folder or URL its `base_url` gives, when one does.
    pub base_url: Option<String>,
}

/// One file's facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFacts {
    pub kind: FileKind,
    pub links: Vec<RawLink>,
    /// A template's interface: its parameters and its outputs, in order; empty for other files.
    pub parameters: Vec<Parameter>,
    pub outputs: Vec<String>,
    /// A template's resources: each name and its `type`, when a string; for a group
    /// (`OS::Heat::ResourceGroup`'s `resource_def`, `OS::Heat::AutoScalingGroup`'s `resource`,
    /// `OS::Heat::ResourceChain`'s `resources`), also its members' types, under the group's name.
    pub resources: Vec<(String, String)>,
    /// A template whose version Heat knows (its parameters can be relied on).
    pub versioned: bool,
}

/// A parameter a template declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    pub name: String,
    /// Whether it has a `default` that is not null (Heat's `has_default`).
    pub has_default: bool,
    /// Its type and constraints as Heat builds them, which a value passed for it from a parent
    /// template must meet: `None` in a template whose version Heat does not know, and where
    /// Heat refuses the definition or hotfix does not model a part of it.
    pub schema: Option<ParameterSchema>,
}

/// The top-level keys that make a file an environment (Heat's sections).
const ENV_SECTIONS: [&str; 6] = hotfix_hot::environment::SECTIONS;

/// The keys that make a mapping a template.
const VERSION_KEYS: [&str; 3] = [
    "heat_template_version",
    "HeatTemplateFormatVersion",
    "AWSTemplateFormatVersion",
];

impl FileFacts {
    /// Reads `text`: a template's links are every `type` value ending in `.yaml` or
    /// `.template` and every `get_file` value that is a string, at any depth (python-heatclient
    /// walks the whole template, `resource_def` of a group included); an environment's are the
    /// `resource_registry` values heatclient fetches (strings without `::`, not `base_url`,
    /// `hooks` or `restricted_actions`, at the top or under `resources: {name: …}`).
    pub fn of(text: &str) -> FileFacts {
        let doc = match hotfix_yaml::parse_unlimited(text) {
            Ok(doc) => doc,
            Err(err) if err.kind == hotfix_yaml::LoadErrorKind::Empty => {
                return FileFacts::of_kind(FileKind::Other, Vec::new());
            }
            Err(err) => {
                return FileFacts::of_kind(FileKind::Unloadable(err.message), Vec::new());
            }
        };
        FileFacts::of_document(&doc)
    }

    /// The facts of a loaded document (what [`FileFacts::of`] finds once it has loaded it).
    pub fn of_document(doc: &Document) -> FileFacts {
        FileFacts::of_loaded(doc, None)
    }

    /// [`FileFacts::of_document`] for a document whose [`hotfix_hot::Template`] the caller has
    /// built already (as [`hotfix_hot::Template::new`] makes it, no version assumed): used when
    /// the document is a template, not built again.
    pub fn of_template(doc: &Document, template: &hotfix_hot::Template<'_>) -> FileFacts {
        FileFacts::of_loaded(doc, Some(template))
    }

    fn of_loaded(doc: &Document, built: Option<&hotfix_hot::Template<'_>>) -> FileFacts {
        let keys: Vec<String> = doc
            .entries(doc.root())
            .iter()
            .map(|e| key_name(doc, e.key))
            .collect();
        if keys.iter().any(|k| VERSION_KEYS.contains(&k.as_str())) {
            let owned;
            let template = if let Some(template) = built {
                template
            } else {
                owned = hotfix_hot::Template::new(doc);
                &owned
            };
            let version = template.version();
            FileFacts {
                kind: FileKind::Template,
                links: template_links(doc),
                parameters: template
                    .parameters
                    .iter()
                    // Heat's `Parameter.has_default`: a `default` that is not null.
                    .map(|p| {
                        let default = doc.get(p.value, "default").map(|d| doc.resolve(d));
                        let null = default.is_some_and(|d| {
                            doc.scalar(d)
                                .is_some_and(|s| s.value == hotfix_yaml::ScalarValue::Null)
                        });
                        Parameter {
                            name: p.name.clone(),
                            has_default: default.is_some() && !null,
                            schema: version.and_then(|v| ParameterSchema::of(doc, p.value, v)),
                        }
                    })
                    .collect(),
                outputs: template.outputs.iter().map(|o| o.name.clone()).collect(),
                resources: resource_types(doc, template),
                versioned: version.is_some(),
            }
        } else if keys.iter().any(|k| ENV_SECTIONS.contains(&k.as_str())) {
            FileFacts::of_kind(FileKind::Environment, environment_links(doc))
        } else {
            FileFacts::of_kind(FileKind::Other, Vec::new())
        }
    }

    fn of_kind(kind: FileKind, links: Vec<RawLink>) -> FileFacts {
        FileFacts {
            kind,
            links,
            parameters: Vec::new(),
            outputs: Vec::new(),
            resources: Vec::new(),
            versioned: false,
        }
    }
}

/// Each resource's name and type, and the types of a group's members (see
/// [`FileFacts::resources`]).
fn resource_types(doc: &Document, template: &hotfix_hot::Template<'_>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for resource in &template.resources {
        let Some(type_name) = template.resource_type(resource) else {
            continue;
        };
        found.push((resource.name.clone(), type_name.to_owned()));
        let properties = doc.get(resource.value, "properties");
        let member = |key: &str| {
            properties
                .and_then(|p| doc.get(p, key))
                .and_then(|d| doc.get(d, "type"))
                .and_then(|t| doc.str_value(t))
        };
        let members: Vec<&str> = match type_name {
            "OS::Heat::ResourceGroup" => member("resource_def").into_iter().collect(),
            "OS::Heat::AutoScalingGroup" => member("resource").into_iter().collect(),
            "OS::Heat::ResourceChain" => properties
                .and_then(|p| doc.get(p, "resources"))
                .and_then(|r| doc.items(doc.resolve(r)))
                .map(|items| items.iter().filter_map(|i| doc.str_value(*i)).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        found.extend(
            members
                .into_iter()
                .map(|m| (resource.name.clone(), m.to_owned())),
        );
    }
    found
}

/// The files a template names as python-heatclient fetches them: every `type` ending in
/// `.yaml` or `.template` and every `get_file` string, at any depth, in order.
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "python-heatclient's test is `value.endswith(('.yaml', '.template'))`: `x.YAML` is a type name"
)]
pub fn template_links(doc: &Document) -> Vec<RawLink> {
    let mut links = Vec::new();
    // Which collections were walked, by node index.
    let mut seen = vec![false; doc.nodes().len()];
    let mut stack = vec![doc.root()];
    while let Some(id) = stack.pop() {
        let id = doc.resolve(id);
        let node = doc.node(id);
        if matches!(node.kind, NodeKind::Scalar(_)) {
            continue;
        }
        // An aliased collection is one object to heatclient: walked once.
        if std::mem::replace(&mut seen[id.index()], true) {
            continue;
        }
        match &node.kind {
            NodeKind::Sequence { items, .. } => stack.extend(items.iter().copied()),
            NodeKind::Mapping { .. } => {
                for entry in doc.entries(id) {
                    stack.push(entry.value);
                    let Some(value) = doc.str_value(entry.value) else {
                        continue;
                    };
                    let kind = match doc.str_value(entry.key) {
                        Some("type")
                            if value.ends_with(".yaml") || value.ends_with(".template") =>
                        {
                            LinkKind::NestedType
                        }
                        Some("get_file") => LinkKind::GetFile,
                        _ => continue,
                    };
                    links.push(RawLink {
                        kind,
                        reference: value.to_owned(),
                        span: doc.node(entry.value).span,
                        base_url: None,
                    });
                }
            }
            _ => {}
        }
    }
    links.sort_by_key(|l| (l.span.start, l.span.end));
    links.dedup();
    links
}

/// The `resource_registry` values of an environment that python-heatclient reads as files.
pub fn environment_links(doc: &Document) -> Vec<RawLink> {
    let env = Environment::new(doc);
    let Some(section) = env.section("resource_registry") else {
        return Vec::new();
    };
    let top_base = doc
        .get(section.value, "base_url")
        .and_then(|n| doc.str_value(n))
        .map(str::to_owned);
    // The resources' mappings by name, found in one pass: looking each up with `get` would scan
    // the `resources` mapping once per entry.
    let resources = doc
        .get(section.value, "resources")
        .map(|r| doc.str_key_values(r))
        .unwrap_or_default();
    // Each resource's own `base_url`, looked up once per resource name.
    let mut own_bases: HashMap<&str, Option<String>> = HashMap::new();
    let mut links = Vec::new();
    for entry in &env.registry {
        if entry.kind != EntryKind::Mapping {
            continue;
        }
        let (type_name, resource, base_url) = match entry.path.as_slice() {
            [name] => (name, None, top_base.clone()),
            [resources_key, resource, name] if resources_key == "resources" => {
                let own = own_bases
                    .entry(resource.as_str())
                    .or_insert_with(|| {
                        resources
                            .get(resource.as_str())
                            .copied()
                            .and_then(|r| doc.get(r, "base_url"))
                            .and_then(|n| doc.str_value(n))
                            .map(str::to_owned)
                    })
                    .clone();
                (
                    name,
                    Some(resource.clone()),
                    own.or_else(|| top_base.clone()),
                )
            }
            _ => continue,
        };
        if matches!(
            type_name.as_str(),
            "base_url" | "hooks" | "restricted_actions"
        ) {
            continue;
        }
        let Some(value) = doc.str_value(entry.value) else {
            continue;
        };
        if value.contains("::") {
            continue;
        }
        links.push(RawLink {
            kind: LinkKind::Registry {
                type_name: type_name.clone(),
                resource,
            },
            reference: value.to_owned(),
            span: doc.node(entry.value).span,
            base_url,
        });
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(text: &str) -> (FileKind, Vec<(LinkKind, String)>) {
        let facts = FileFacts::of(text);
        let links = facts
            .links
            .into_iter()
            .map(|l| (l.kind, l.reference))
            .collect();
        (facts.kind, links)
    }

    #[test]
    fn a_template_links_its_nested_types_and_files_as_heatclient_fetches_them() {
        let (kind, links) = refs(
            "heat_template_version: rocky\nresources:\n  a: {type: nested/a.yaml}\n  \
             b: {type: b.yml}\n  c: {type: OS::Heat::None}\n  \
             g:\n    type: OS::Heat::ResourceGroup\n    properties:\n      \
             resource_def: {type: member.template}\n  \
             d:\n    type: OS::Heat::SoftwareConfig\n    properties:\n      config: {get_file: scripts/run.sh}\n",
        );
        assert_eq!(kind, FileKind::Template);
        assert_eq!(
            links,
            vec![
                (LinkKind::NestedType, "nested/a.yaml".to_owned()),
                (LinkKind::NestedType, "member.template".to_owned()),
                (LinkKind::GetFile, "scripts/run.sh".to_owned()),
            ]
        );
    }

    #[test]
    fn an_environment_links_the_registry_values_heatclient_fetches() {
        let (kind, links) = refs(
            "resource_registry:\n  My::A: a.yaml\n  My::B: OS::Heat::None\n  My::C: ~\n  \
             resources:\n    server:\n      OS::Nova::Server: s.yaml\n      hooks: pre-create\n\
             parameter_defaults:\n  X: y.yaml\n",
        );
        assert_eq!(kind, FileKind::Environment);
        assert_eq!(
            links,
            vec![
                (
                    LinkKind::Registry {
                        type_name: "My::A".to_owned(),
                        resource: None
                    },
                    "a.yaml".to_owned()
                ),
                (
                    LinkKind::Registry {
                        type_name: "OS::Nova::Server".to_owned(),
                        resource: Some("server".to_owned())
                    },
                    "s.yaml".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn a_templates_parameters_carry_what_heat_checks_a_passed_value_against() {
        let facts = FileFacts::of(
            "heat_template_version: rocky\nparameters:\n  \
             size: {type: number, default: 1, constraints: [{range: {min: 1}}]}\n  \
             odd: {type: integer}\n",
        );
        let [size, odd] = facts.parameters.as_slice() else {
            panic!("two parameters: {:?}", facts.parameters);
        };
        assert!(size.has_default && !odd.has_default);
        let schema = size.schema.as_ref().expect("a schema");
        assert_eq!(
            schema.kind,
            hotfix_hot::parameter_schema::ParameterType::Number
        );
        assert_eq!(schema.constraints.len(), 1);
        // Heat refuses the type: no schema to check against.
        assert!(odd.schema.is_none());
    }

    #[test]
    fn other_files_and_broken_ones_link_nothing() {
        assert_eq!(refs("a: 1\n"), (FileKind::Other, vec![]));
        assert_eq!(refs(""), (FileKind::Other, vec![]));
        assert!(matches!(refs("a: [\n").0, FileKind::Unloadable(_)));
    }

    #[test]
    fn every_resource_of_a_long_registry_keeps_its_own_base_url() {
        use std::fmt::Write as _;

        let mut text = String::from("resource_registry:\n  base_url: top/\n  resources:\n");
        for i in 0..500 {
            let _ = write!(text, "    r{i}:\n      My::T: t{i}.yaml\n");
            if i % 2 == 0 {
                let _ = writeln!(text, "      base_url: own{i}/");
            }
        }
        let links = environment_links(&hotfix_yaml::parse(&text).expect("parses"));
        assert_eq!(links.len(), 500);
        for (i, link) in links.iter().enumerate() {
            let expected = if i % 2 == 0 {
                format!("own{i}/")
            } else {
                "top/".to_owned()
            };
            assert_eq!(link.base_url.as_deref(), Some(expected.as_str()));
            assert_eq!(link.reference, format!("t{i}.yaml"));
        }
    }
}
