//! A tree as a graph: its templates and environments, the resources of each template, and what
//! depends on what (resources on resources, resources on nested templates, environments on
//! registry targets, templates on `get_file` targets). `hotfix graph` draws it.
//!
//! Each file is read once, on its own ([`FileShape::of`], which can run in parallel); the graph
//! is then put together from the resolved [`Tree`] ([`Graph::build`]). Nodes and edges come out
//! sorted: the same tree always gives the same graph.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use hotfix_hot::environment::{EntryKind, Environment};
use hotfix_hot::{Semantic, Template};
use hotfix_yaml::{Document, LineIndex, Span};

use crate::{
    EnvironmentFacts, FileFacts, FileKind, Link, LinkKind, Mapped, Registry, StackPath, Target,
    Tree,
};

/// One file as the graph needs it: its facts, a template's resources, an environment's
/// registry entries, and where its lines start (to give positions as line and column).
#[derive(Debug)]
pub struct FileShape {
    pub facts: FileFacts,
    /// A template's resources, in order (empty for other files).
    pub resources: Vec<ResourceShape>,
    /// An environment's `resource_registry` entries that map a type, in order.
    pub registry: Vec<RegistryMapping>,
    /// Where loading failed, when it failed at a place ([`FileKind::Unloadable`] says why).
    pub error_at: Option<Position>,
    text: Arc<str>,
    lines: LineIndex,
}

/// A resource of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceShape {
    pub name: String,
    /// Its `type`, when a string.
    pub type_name: Option<String>,
    /// Where its name is written.
    pub key: Span,
    /// Its definition (a `type: x.yaml` inside it belongs to it).
    pub value: Span,
    /// Where its `type` value is written.
    pub type_span: Option<Span>,
    /// The type of the members of a group (`OS::Heat::ResourceGroup`'s
    /// `resource_def: {type: …}`, `OS::Heat::AutoScalingGroup`'s `resource: {type: …}`), when a
    /// string, and where it is written.
    pub member_type: Option<(String, Span)>,
    /// The resources it depends on, in the order written.
    pub dependencies: Vec<DependencyShape>,
}

/// One resource depending on another ([`Semantic::dependencies`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DependencyShape {
    /// The name of the resource depended on.
    pub to: String,
    /// `depends_on`, `get_resource`, `get_attr` or `Ref`.
    pub via: &'static str,
    /// Where the name is written.
    pub span: Span,
}

/// A `resource_registry` entry mapping a type name (at the top of the registry, or for one
/// resource under `resources:`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryMapping {
    pub type_name: String,
    /// The resource name of a per-resource entry.
    pub resource: Option<String>,
    /// The string it maps to (a file or a type name); `None` for a null (a removal).
    pub value: Option<String>,
    /// Where the value is written.
    pub span: Span,
}

/// A position in a file: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

impl FileShape {
    /// Reads `text` (loaded as [`FileFacts::of`] loads it).
    pub fn of(text: Arc<str>) -> FileShape {
        let lines = LineIndex::new(&text);
        let mut error_at = None;
        let (facts, resources, registry) = match hotfix_yaml::parse_unlimited(&text) {
            Ok(doc) => {
                let facts = FileFacts::of_document(&doc);
                let resources = match facts.kind {
                    FileKind::Template => resources(&doc),
                    _ => Vec::new(),
                };
                let registry = match facts.kind {
                    FileKind::Environment => registry(&doc),
                    _ => Vec::new(),
                };
                (facts, resources, registry)
            }
            Err(err) => {
                let at = err.span.map(|s| lines.position(&text, s.start));
                error_at = at.map(|at| Position {
                    line: at.line,
                    column: at.char_col,
                });
                (FileFacts::of(&text), Vec::new(), Vec::new())
            }
        };
        FileShape {
            facts,
            resources,
            registry,
            error_at,
            text,
            lines,
        }
    }

    /// The line and column of a byte offset.
    pub fn position(&self, offset: usize) -> Position {
        let at = self.lines.position(&self.text, offset);
        Position {
            line: at.line,
            column: at.char_col,
        }
    }
}

fn resources(doc: &Document) -> Vec<ResourceShape> {
    let template = Template::new(doc);
    let semantic = Semantic::new(&template);
    let mut shapes: Vec<ResourceShape> = template
        .resources
        .iter()
        .map(|r| {
            let type_node = template.field(r, "type");
            ResourceShape {
                name: r.name.clone(),
                type_name: template.resource_type(r).map(str::to_owned),
                key: doc.node(r.key).span,
                value: doc.node(r.value).span,
                type_span: type_node.map(|n| doc.node(n).span),
                member_type: member_type(&template, r),
                dependencies: Vec::new(),
            }
        })
        .collect();
    for dependency in semantic.dependencies(&template) {
        let via = dependency.via();
        let to = template.resources[dependency.to].name.clone();
        if let Some(from) = shapes.get_mut(dependency.from) {
            from.dependencies.push(DependencyShape {
                to,
                via,
                span: doc.node(dependency.node).span,
            });
        }
    }
    shapes
}

/// The type of a group's members, as written in its properties.
fn member_type(template: &Template<'_>, resource: &hotfix_hot::Named) -> Option<(String, Span)> {
    let doc = template.doc;
    let definition = match template.resource_type(resource)? {
        "OS::Heat::ResourceGroup" => "resource_def",
        "OS::Heat::AutoScalingGroup" => "resource",
        _ => return None,
    };
    let properties = template.field(resource, "properties")?;
    let node = doc.get(doc.get(properties, definition)?, "type")?;
    Some((doc.str_value(node)?.to_owned(), doc.node(node).span))
}

fn registry(doc: &Document) -> Vec<RegistryMapping> {
    let env = Environment::new(doc);
    env.registry
        .iter()
        .filter(|e| matches!(e.kind, EntryKind::Mapping | EntryKind::Removal))
        .filter_map(|e| {
            let (type_name, resource) = match e.path.as_slice() {
                [name] => (name, None),
                [resources, resource, name] if resources == "resources" => {
                    (name, Some(resource.clone()))
                }
                _ => return None,
            };
            if type_name == "base_url" {
                return None;
            }
            Some(RegistryMapping {
                type_name: type_name.clone(),
                resource,
                value: doc.str_value(e.value).map(str::to_owned),
                span: doc.node(e.value).span,
            })
        })
        .collect()
}

/// What a node is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Template,
    Environment,
    /// A resource of a template.
    Resource,
    /// A file that is there but neither a template nor an environment (a script that
    /// `get_file` reads), or one the tree did not read.
    File,
    /// A template or environment Heat cannot load (the text says why).
    Unloadable(String),
    /// A link's target that is not there ([`Target::Missing`]).
    Missing,
    /// Made by the deployment from a `*.j2.yaml` source ([`Target::Generated`]).
    Generated,
    /// In the deployment's layout only ([`Target::Outside`]).
    Outside,
    /// A URL ([`Target::Url`]).
    Url,
}

impl NodeKind {
    /// Its name in the output.
    pub fn name(&self) -> &'static str {
        match self {
            NodeKind::Template => "template",
            NodeKind::Environment => "environment",
            NodeKind::Resource => "resource",
            NodeKind::File => "file",
            NodeKind::Unloadable(_) => "unloadable",
            NodeKind::Missing => "missing",
            NodeKind::Generated => "generated",
            NodeKind::Outside => "outside",
            NodeKind::Url => "url",
        }
    }
}

/// A node: a file, a link's target, or a resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Unique: a file's path, a URL, or `PATH#NAME` for a resource.
    pub id: String,
    pub kind: NodeKind,
    /// The file (a resource's: its template); `None` for a URL.
    pub path: Option<StackPath>,
    /// A resource's name.
    pub name: Option<String>,
    /// A resource's type.
    pub resource_type: Option<String>,
    /// Where a resource's name is written.
    pub position: Option<Position>,
}

/// What an edge means.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeKind {
    /// A resource's `depends_on`.
    DependsOn,
    /// A resource's `get_resource`, `get_attr` (or `Ref`) of another, in `properties` or
    /// `metadata`: the first one written.
    Implicit { via: &'static str },
    /// A resource whose type is a template file (`type: x.yaml`, also a group's
    /// `resource_def`).
    Nested,
    /// A resource whose type an environment's `resource_registry` maps to a template file.
    NestedByRegistry {
        environment: StackPath,
        /// Where the registry entry's value is written in `environment`.
        entry: Position,
        type_name: String,
    },
    /// An environment's `resource_registry` entry naming a file.
    Registry {
        type_name: String,
        /// The resource of a per-resource entry.
        resource: Option<String>,
    },
    /// A template's `get_file`.
    GetFile,
}

impl EdgeKind {
    /// Its name in the output.
    pub fn name(&self) -> &'static str {
        match self {
            EdgeKind::DependsOn => "depends_on",
            EdgeKind::Implicit { .. } => "implicit",
            EdgeKind::Nested => "nested",
            EdgeKind::NestedByRegistry { .. } => "nested_by_registry",
            EdgeKind::Registry { .. } => "registry",
            EdgeKind::GetFile => "get_file",
        }
    }
}

/// How a link's target was found ([`Target`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resolution {
    File,
    Missing,
    Generated,
    Outside,
    Url,
    /// Not where the path says, but in a subfolder of that folder.
    Relocated,
}

impl Resolution {
    pub fn name(self) -> &'static str {
        match self {
            Resolution::File => "file",
            Resolution::Missing => "missing",
            Resolution::Generated => "generated",
            Resolution::Outside => "outside",
            Resolution::Url => "url",
            Resolution::Relocated => "relocated",
        }
    }

    fn of(target: &Target) -> Resolution {
        match target {
            Target::File(_) => Resolution::File,
            Target::Missing(_) => Resolution::Missing,
            Target::Generated(_) => Resolution::Generated,
            Target::Outside(_) => Resolution::Outside,
            Target::Url(_) => Resolution::Url,
            Target::Relocated(_) => Resolution::Relocated,
        }
    }
}

/// An edge: `from` depends on `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    /// The file where it is written (`from`'s) and where in it.
    pub path: StackPath,
    pub position: Position,
    /// For a link to a file: the path as written.
    pub reference: Option<String>,
    /// For a link to a file: how its target was found.
    pub resolution: Option<Resolution>,
}

/// The graph of a tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// Sorted by id.
    pub nodes: Vec<Node>,
    /// Sorted by `from`, `to`, kind and position; one edge of a kind between two nodes (the
    /// first written).
    pub edges: Vec<Edge>,
}

/// What the run says of the stack drawn: which environments apply, which templates are top
/// templates.
#[derive(Clone, Copy)]
pub struct Stack<'a> {
    /// The environment files that apply, in the order `openstack stack create -e` takes them;
    /// `None`: every environment of the tree, each on its own (a type mapped to different files
    /// by different environments then has an edge to each, each naming its environment).
    pub environments: Option<&'a [StackPath]>,
    /// The templates named as top templates (the files named on the command line); when none
    /// is, every template that no link makes a nested one.
    pub top: &'a [StackPath],
    /// What those environments say each type stands for ([`registry_of`]).
    pub registry: &'a Registry,
    /// Whether Heat has a type itself (a registry entry naming one leads to no file).
    pub builtin: &'a dyn Fn(&str) -> bool,
}

impl std::fmt::Debug for Stack<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stack")
            .field("environments", &self.environments)
            .field("top", &self.top)
            .finish_non_exhaustive()
    }
}

/// The registry of the environments that apply (`environments`, as `-e` takes them, merged as
/// Heat merges them; `None`: every environment among `shapes`, each on its own), as the lint
/// rules read it ([`Registry::given`], [`Registry::tree`]), its targets resolved in `source`.
pub fn registry_of(
    source: &dyn crate::FileSource,
    roots: &[StackPath],
    shapes: &BTreeMap<StackPath, FileShape>,
    environments: Option<&[StackPath]>,
) -> Registry {
    let facts = |path: &StackPath| {
        let shape = shapes.get(path)?;
        if shape.facts.kind != FileKind::Environment {
            return None;
        }
        let doc = hotfix_yaml::parse_unlimited(&shape.text).ok()?;
        Some(EnvironmentFacts::of(source, roots, path, &doc))
    };
    match environments {
        Some(given) => Registry::given(given.iter().filter_map(facts).collect()),
        None => Registry::tree(shapes.keys().filter_map(facts).collect(), Vec::new(), false),
    }
}

impl Graph {
    /// The graph of `tree`, whose files are described by `shapes` (a file without a shape
    /// is drawn without its resources), for `stack`.
    pub fn build(tree: &Tree, shapes: &BTreeMap<StackPath, FileShape>, stack: Stack<'_>) -> Graph {
        let mut builder = Builder {
            tree,
            shapes,
            nodes: BTreeMap::new(),
            edges: BTreeMap::new(),
        };
        builder.files();
        let by_place = builder.links();
        builder.registry_mapped(stack, &by_place);
        let Builder { nodes, edges, .. } = builder;
        // A dependency on a resource that is not drawn (none should be: dependencies name
        // resources of the same template) would leave an edge without an end.
        let ids: BTreeSet<&String> = nodes.keys().collect();
        let edges = edges
            .into_values()
            .filter(|e| ids.contains(&e.from) && ids.contains(&e.to))
            .collect();
        Graph {
            nodes: nodes.into_values().collect(),
            edges,
        }
    }
}

/// A graph being put together.
struct Builder<'t> {
    tree: &'t Tree,
    shapes: &'t BTreeMap<StackPath, FileShape>,
    nodes: BTreeMap<String, Node>,
    edges: BTreeMap<(String, String, EdgeKind), Edge>,
}

impl<'t> Builder<'t> {
    fn position(&self, path: &StackPath, offset: usize) -> Position {
        self.shapes
            .get(path)
            .map_or(Position { line: 0, column: 0 }, |s| s.position(offset))
    }

    /// Each file of the tree, each template's resources, and their dependencies.
    fn files(&mut self) {
        for (path, facts) in &self.tree.files {
            let kind = match &facts.kind {
                FileKind::Template => NodeKind::Template,
                FileKind::Environment => NodeKind::Environment,
                FileKind::Other => NodeKind::File,
                FileKind::Unloadable(why) => NodeKind::Unloadable(why.clone()),
            };
            self.nodes.insert(path.to_string(), file_node(path, kind));
            let Some(shape) = self.shapes.get(path) else {
                continue;
            };
            for resource in &shape.resources {
                let id = resource_id(path, &resource.name);
                self.nodes.insert(
                    id.clone(),
                    Node {
                        id: id.clone(),
                        kind: NodeKind::Resource,
                        path: Some(path.clone()),
                        name: Some(resource.name.clone()),
                        resource_type: resource.type_name.clone(),
                        position: Some(shape.position(resource.key.start)),
                    },
                );
                for dependency in &resource.dependencies {
                    let kind = match dependency.via {
                        "depends_on" => EdgeKind::DependsOn,
                        via => EdgeKind::Implicit { via },
                    };
                    self.add_edge(Edge {
                        from: id.clone(),
                        to: resource_id(path, &dependency.to),
                        kind,
                        path: path.clone(),
                        position: shape.position(dependency.span.start),
                        reference: None,
                        resolution: None,
                    });
                }
            }
        }
    }

    /// The links' targets as nodes, and an edge from what names each (a nested template from
    /// the resource whose definition holds its `type`); returns the links by place.
    fn links(&mut self) -> HashMap<(&'t StackPath, usize), &'t Link> {
        let mut by_place = HashMap::new();
        for link in &self.tree.links {
            by_place.insert((&link.from, link.span.start), link);
            let to = self.target_node(link);
            let (from, kind) = match &link.kind {
                LinkKind::GetFile => (link.from.to_string(), EdgeKind::GetFile),
                LinkKind::Registry {
                    type_name,
                    resource,
                } => (
                    link.from.to_string(),
                    EdgeKind::Registry {
                        type_name: type_name.clone(),
                        resource: resource.clone(),
                    },
                ),
                LinkKind::NestedType => {
                    let owner = self.shapes.get(&link.from).and_then(|s| {
                        s.resources.iter().find(|r| {
                            r.value.start <= link.span.start && link.span.end <= r.value.end
                        })
                    });
                    let from = match owner {
                        Some(r) => resource_id(&link.from, &r.name),
                        None => link.from.to_string(),
                    };
                    (from, EdgeKind::Nested)
                }
            };
            self.add_edge(Edge {
                from,
                to,
                kind,
                path: link.from.clone(),
                position: self.position(&link.from, link.span.start),
                reference: Some(link.reference.clone()),
                resolution: Some(Resolution::of(&link.target)),
            });
        }
        by_place
    }

    /// An edge from each resource whose type an environment maps to a file, looked up as the
    /// lint rules look it up ([`Registry::lookup_for`]: per-resource entries, globs, aliases;
    /// without given environments, those of the tree closest to the resource's template).
    fn registry_mapped(
        &mut self,
        stack: Stack<'_>,
        by_place: &HashMap<(&'t StackPath, usize), &'t Link>,
    ) {
        // Per-resource entries apply to the resources of the top template only (Heat gives a
        // nested stack `resources: {NESTED: {…}}` of its parent's registry): the templates
        // named as top ones, else those no link makes nested.
        let nested: HashSet<&StackPath> = self
            .tree
            .links
            .iter()
            .filter(|l| !matches!(l.kind, LinkKind::GetFile))
            .filter_map(|l| l.target.path())
            .collect();
        let shapes = self.shapes;
        for (path, shape) in shapes {
            if shape.facts.kind != FileKind::Template {
                continue;
            }
            let top = if stack.top.is_empty() {
                !nested.contains(path)
            } else {
                stack.top.contains(path)
            };
            for resource in &shape.resources {
                // The resource's own type, and its members' when it is a group.
                let own = resource
                    .type_name
                    .as_ref()
                    .map(|t| (t, resource.type_span, top.then_some(resource.name.as_str())));
                let members = resource
                    .member_type
                    .as_ref()
                    .map(|(t, span)| (t, Some(*span), None));
                for (type_name, span, name) in own.into_iter().chain(members) {
                    for mapped in stack
                        .registry
                        .lookup_for(path, type_name, name, stack.builtin)
                    {
                        let Mapped::Template {
                            env: Some(environment),
                            entry,
                            ..
                        } = mapped
                        else {
                            continue;
                        };
                        let Some(&link) = by_place.get(&(environment, entry.span.start)) else {
                            continue;
                        };
                        let to = self.target_node(link);
                        let at = span.map_or(resource.key.start, |s| s.start);
                        self.add_edge(Edge {
                            from: resource_id(path, &resource.name),
                            to,
                            kind: EdgeKind::NestedByRegistry {
                                environment: environment.clone(),
                                entry: self.position(environment, entry.span.start),
                                type_name: type_name.clone(),
                            },
                            path: path.clone(),
                            position: shape.position(at),
                            reference: Some(link.reference.clone()),
                            resolution: Some(Resolution::of(&link.target)),
                        });
                    }
                }
            }
        }
    }

    /// The node a link leads to, added when the tree did not read it.
    fn target_node(&mut self, link: &Link) -> String {
        let (path, kind) = match &link.target {
            Target::Url(url) => {
                self.nodes.entry(url.clone()).or_insert_with(|| Node {
                    id: url.clone(),
                    kind: NodeKind::Url,
                    path: None,
                    name: None,
                    resource_type: None,
                    position: None,
                });
                return url.clone();
            }
            Target::File(p) | Target::Relocated(p) => (p, NodeKind::File),
            Target::Missing(p) => (p, NodeKind::Missing),
            Target::Generated(p) => (p, NodeKind::Generated),
            Target::Outside(p) => (p, NodeKind::Outside),
        };
        let id = path.to_string();
        if !self.tree.files.contains_key(path) {
            self.nodes
                .entry(id.clone())
                .or_insert_with(|| file_node(path, kind));
        }
        id
    }

    /// Adds `edge`, or keeps the one of its kind between the same nodes written first (one
    /// implicit edge between two resources, whatever the function).
    fn add_edge(&mut self, edge: Edge) {
        let kind = match edge.kind {
            EdgeKind::Implicit { .. } => EdgeKind::Implicit { via: "" },
            ref other => other.clone(),
        };
        let key = (edge.from.clone(), edge.to.clone(), kind);
        match self.edges.get(&key) {
            Some(kept) if kept.position <= edge.position => {}
            _ => {
                self.edges.insert(key, edge);
            }
        }
    }
}

fn resource_id(template: &StackPath, name: &str) -> String {
    format!("{template}#{name}")
}

fn file_node(path: &StackPath, kind: NodeKind) -> Node {
    Node {
        id: path.to_string(),
        kind,
        path: Some(path.clone()),
        name: None,
        resource_type: None,
        position: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemorySource;

    fn graph(source: &MemorySource, given: &[&str], environments: Option<&[&str]>) -> Graph {
        let shapes: BTreeMap<StackPath, FileShape> = source
            .paths()
            .filter_map(|p| {
                let text = crate::FileSource::read(source, p)?;
                Some((p.clone(), FileShape::of(text)))
            })
            .collect();
        let files = given
            .iter()
            .map(|p| {
                let path = StackPath::new(p);
                let facts = shapes.get(&path).map(|s| s.facts.clone());
                (path, facts)
            })
            .collect();
        let roots = vec![StackPath::new("repo")];
        let tree = Tree::build(source, roots.clone(), files);
        let environments: Option<Vec<StackPath>> =
            environments.map(|e| e.iter().map(|p| StackPath::new(p)).collect());
        let registry = registry_of(source, &roots, &shapes, environments.as_deref());
        let stack = Stack {
            environments: environments.as_deref(),
            top: &[],
            registry: &registry,
            builtin: &|t: &str| t.starts_with("OS::"),
        };
        Graph::build(&tree, &shapes, stack)
    }

    fn edges(graph: &Graph) -> Vec<String> {
        graph
            .edges
            .iter()
            .map(|e| {
                let detail = match &e.kind {
                    EdgeKind::Implicit { via } => format!(" ({via})"),
                    EdgeKind::NestedByRegistry { environment, .. } => {
                        format!(" (by {environment})")
                    }
                    _ => String::new(),
                };
                format!(
                    "{} -{}{detail}-> {} @{}",
                    e.from,
                    e.kind.name(),
                    e.to,
                    e.position
                )
            })
            .collect()
    }

    #[test]
    fn draws_resources_their_dependencies_and_nested_templates() {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/top.yaml",
                "heat_template_version: rocky\nresources:\n  \
                 a: {type: nested/a.yaml}\n  \
                 b:\n    type: OS::Heat::Value\n    depends_on: a\n    \
                 properties: {value: {get_attr: [a, x]}}\n  \
                 c:\n    type: OS::Heat::Value\n    \
                 properties: {value: [{get_resource: b}, {get_attr: [b, y]}]}\n  \
                 d: {type: OS::Heat::SoftwareConfig, properties: {config: {get_file: gone.sh}}}\n",
            )
            .insert("repo/nested/a.yaml", "heat_template_version: rocky\n");
        let graph = graph(&source, &["repo/top.yaml"], None);
        assert_eq!(
            edges(&graph),
            vec![
                "repo/top.yaml -get_file-> repo/gone.sh @11:71",
                "repo/top.yaml#a -nested-> repo/nested/a.yaml @3:13",
                "repo/top.yaml#b -depends_on-> repo/top.yaml#a @6:17",
                "repo/top.yaml#b -implicit (get_attr)-> repo/top.yaml#a @7:37",
                "repo/top.yaml#c -implicit (get_resource)-> repo/top.yaml#b @10:41",
            ]
        );
        let kinds: Vec<(&str, &str)> = graph
            .nodes
            .iter()
            .map(|n| (n.id.as_str(), n.kind.name()))
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("repo/gone.sh", "missing"),
                ("repo/nested/a.yaml", "template"),
                ("repo/top.yaml", "template"),
                ("repo/top.yaml#a", "resource"),
                ("repo/top.yaml#b", "resource"),
                ("repo/top.yaml#c", "resource"),
                ("repo/top.yaml#d", "resource"),
            ]
        );
    }

    #[test]
    fn a_registry_mapped_type_leads_to_each_environment_s_file_or_to_the_last_given() {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/top.yaml",
                "heat_template_version: rocky\nresources:\n  s: {type: My::Server}\n  \
                 t: {type: My::Server}\n  \
                 g:\n    type: OS::Heat::ResourceGroup\n    \
                 properties: {resource_def: {type: My::Server}}\n",
            )
            .insert(
                "repo/one.yaml",
                "resource_registry:\n  My::Server: a.yaml\n",
            )
            .insert(
                "repo/two.yaml",
                "resource_registry:\n  My::Server: b.yaml\n  \
                 resources:\n    t: {My::Server: OS::Heat::None}\n",
            )
            .insert("repo/a.yaml", "heat_template_version: rocky\n")
            .insert("repo/b.yaml", "heat_template_version: rocky\n");
        let all = ["repo/top.yaml", "repo/one.yaml", "repo/two.yaml"];
        let tree_wide = graph(&source, &all, None);
        let nested: Vec<String> = edges(&tree_wide)
            .into_iter()
            .filter(|e| e.contains("nested"))
            .collect();
        assert_eq!(
            nested,
            vec![
                "repo/top.yaml#g -nested_by_registry (by repo/one.yaml)-> repo/a.yaml @7:39",
                "repo/top.yaml#g -nested_by_registry (by repo/two.yaml)-> repo/b.yaml @7:39",
                "repo/top.yaml#s -nested_by_registry (by repo/one.yaml)-> repo/a.yaml @3:13",
                "repo/top.yaml#s -nested_by_registry (by repo/two.yaml)-> repo/b.yaml @3:13",
                "repo/top.yaml#t -nested_by_registry (by repo/one.yaml)-> repo/a.yaml @4:13",
            ],
            "two.yaml maps t to a type, not a file"
        );
        let stack = graph(&source, &all, Some(&["repo/two.yaml", "repo/one.yaml"]));
        let nested: Vec<String> = edges(&stack)
            .into_iter()
            .filter(|e| e.contains("nested"))
            .collect();
        assert_eq!(
            nested,
            vec![
                "repo/top.yaml#g -nested_by_registry (by repo/one.yaml)-> repo/a.yaml @7:39",
                "repo/top.yaml#s -nested_by_registry (by repo/one.yaml)-> repo/a.yaml @3:13",
            ],
            "the last top-level entry wins, and a per-resource entry beats any top-level one"
        );
    }

    #[test]
    fn a_per_resource_entry_maps_a_resource_of_the_top_template_only() {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/top.yaml",
                "heat_template_version: rocky\nresources:\n  t: {type: My::Server}\n  \
                 n: {type: nested.yaml}\n",
            )
            .insert(
                "repo/nested.yaml",
                "heat_template_version: rocky\nresources:\n  t: {type: My::Server}\n",
            )
            .insert(
                "repo/env.yaml",
                "resource_registry:\n  My::Server: b.yaml\n  \
                 resources:\n    t: {My::Server: a.yaml}\n",
            )
            .insert("repo/a.yaml", "heat_template_version: rocky\n")
            .insert("repo/b.yaml", "heat_template_version: rocky\n");
        let graph = graph(&source, &["repo/top.yaml", "repo/env.yaml"], None);
        let nested: Vec<String> = edges(&graph)
            .into_iter()
            .filter(|e| e.contains("nested_by_registry"))
            .collect();
        assert_eq!(
            nested,
            vec![
                "repo/nested.yaml#t -nested_by_registry (by repo/env.yaml)-> repo/b.yaml @3:13",
                "repo/top.yaml#t -nested_by_registry (by repo/env.yaml)-> repo/a.yaml @3:13",
            ]
        );
    }
}
