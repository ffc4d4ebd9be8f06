//! A stack graph written out: Graphviz's DOT language, and JSON (the shape
//! `docs/cross-file.md` describes). `hotfix graph` prints them; the playground draws the JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::StackPath;
use crate::graph::{Edge, EdgeKind, Graph, Node, NodeKind};

/// The graph in Graphviz's DOT language: a cluster per template holding its file's node and its
/// resources; environments and other files outside.
#[must_use]
pub fn dot(graph: &Graph) -> String {
    let mut out = String::from(
        "digraph hotfix {\n  \
         graph [rankdir=LR, fontname=\"Helvetica\", fontsize=11];\n  \
         node [fontname=\"Helvetica\", fontsize=10, shape=box];\n  \
         edge [fontname=\"Helvetica\", fontsize=9];\n",
    );
    let mut resources: BTreeMap<&str, Vec<&Node>> = BTreeMap::new();
    for node in &graph.nodes {
        if node.kind == NodeKind::Resource
            && let Some(path) = &node.path
        {
            resources.entry(path.as_str()).or_default().push(node);
        }
    }
    let mut cluster = 0;
    for node in &graph.nodes {
        if node.kind == NodeKind::Resource {
            continue;
        }
        if node.kind != NodeKind::Template {
            let _ = writeln!(out, "  {}", dot_node(node));
            continue;
        }
        let _ = writeln!(out, "  subgraph cluster_{cluster} {{");
        cluster += 1;
        let _ = writeln!(
            out,
            "    label={}; style=rounded; color=gray50;",
            quoted(&node.id)
        );
        let _ = writeln!(out, "    {}", dot_node(node));
        for resource in resources.get(node.id.as_str()).into_iter().flatten() {
            let _ = writeln!(out, "    {}", dot_node(resource));
        }
        out.push_str("  }\n");
    }
    for edge in &graph.edges {
        let _ = writeln!(out, "  {}", dot_edge(edge));
    }
    out.push_str("}\n");
    out
}

fn dot_node(node: &Node) -> String {
    let path = node
        .path
        .as_ref()
        .map_or(node.id.as_str(), StackPath::as_str);
    let (label, attributes) = match &node.kind {
        NodeKind::Resource => (
            format!(
                "{}\n{}",
                node.name.as_deref().unwrap_or_default(),
                node.resource_type.as_deref().unwrap_or("(no type)")
            ),
            "shape=box, style=rounded",
        ),
        // The cluster around it is labelled with the path.
        NodeKind::Template => (
            node.path
                .as_ref()
                .map_or(path, StackPath::file_name)
                .to_owned(),
            "shape=folder",
        ),
        NodeKind::Environment => (
            path.to_owned(),
            "shape=note, style=filled, fillcolor=lightyellow",
        ),
        NodeKind::File => (path.to_owned(), "shape=component"),
        NodeKind::Unloadable(_) => (
            format!("{path}\n(cannot be loaded)"),
            "shape=folder, color=red, fontcolor=red",
        ),
        NodeKind::Missing => (
            format!("{path}\n(missing)"),
            "style=dashed, color=red, fontcolor=red",
        ),
        NodeKind::Generated => (format!("{path}\n(generated)"), "style=dashed, color=gray40"),
        NodeKind::Outside => (
            format!("{path}\n(outside the tree)"),
            "style=dashed, color=gray40",
        ),
        NodeKind::Url => (format!("{path}\n(URL)"), "style=dashed, color=gray40"),
    };
    format!(
        "{} [label={}, {attributes}];",
        quoted(&node.id),
        quoted(&label)
    )
}

fn dot_edge(edge: &Edge) -> String {
    let (label, attributes) = match &edge.kind {
        EdgeKind::DependsOn => ("depends_on".to_owned(), "style=solid"),
        EdgeKind::Implicit { via } => ((*via).to_owned(), "style=dashed"),
        EdgeKind::Nested => ("type".to_owned(), "style=bold, color=blue"),
        EdgeKind::NestedByRegistry {
            environment,
            type_name,
            ..
        } => (
            format!("{type_name}\nby {environment}"),
            "style=bold, color=purple",
        ),
        EdgeKind::Registry {
            type_name,
            resource,
        } => (
            match resource {
                Some(resource) => format!("{type_name}\n(for {resource})"),
                None => type_name.clone(),
            },
            "style=dotted",
        ),
        EdgeKind::GetFile => ("get_file".to_owned(), "color=gray40"),
    };
    format!(
        "{} -> {} [label={}, {attributes}];",
        quoted(&edge.from),
        quoted(&edge.to),
        quoted(&label)
    )
}

/// A DOT double-quoted string: `"` and `\` escaped, a line break as `\n` (Graphviz's own line
/// break in labels), other control characters as a space.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The graph as JSON (the shape docs/cross-file.md describes), `nodes` before `edges`.
#[must_use]
pub fn json(graph: &Graph) -> String {
    use serde_json::{Map, Value, json};
    let nodes: Vec<Value> = graph
        .nodes
        .iter()
        .map(|node| {
            let mut object = Map::new();
            object.insert("id".into(), json!(node.id));
            object.insert("kind".into(), json!(node.kind.name()));
            if let Some(path) = &node.path {
                object.insert("path".into(), json!(path.as_str()));
            }
            if let Some(name) = &node.name {
                object.insert("name".into(), json!(name));
            }
            if node.kind == NodeKind::Resource {
                object.insert("type".into(), json!(node.resource_type));
            }
            if let Some(at) = node.position {
                object.insert("span".into(), json!(at.to_string()));
            }
            if let NodeKind::Unloadable(why) = &node.kind {
                object.insert("message".into(), json!(why));
            }
            Value::Object(object)
        })
        .collect();
    let edges: Vec<Value> = graph
        .edges
        .iter()
        .map(|edge| {
            let mut object = Map::new();
            object.insert("from".into(), json!(edge.from));
            object.insert("to".into(), json!(edge.to));
            object.insert("kind".into(), json!(edge.kind.name()));
            object.insert("path".into(), json!(edge.path.as_str()));
            object.insert("span".into(), json!(edge.position.to_string()));
            match &edge.kind {
                EdgeKind::DependsOn | EdgeKind::Nested | EdgeKind::GetFile => {}
                EdgeKind::Implicit { via } => {
                    object.insert("via".into(), json!(via));
                }
                EdgeKind::NestedByRegistry {
                    environment,
                    entry,
                    type_name,
                } => {
                    object.insert("type".into(), json!(type_name));
                    object.insert(
                        "environment".into(),
                        json!({"path": environment.as_str(), "span": entry.to_string()}),
                    );
                }
                EdgeKind::Registry {
                    type_name,
                    resource,
                } => {
                    object.insert("type".into(), json!(type_name));
                    if let Some(resource) = resource {
                        object.insert("resource".into(), json!(resource));
                    }
                }
            }
            if let Some(reference) = &edge.reference {
                object.insert("reference".into(), json!(reference));
            }
            if let Some(resolution) = edge.resolution {
                object.insert("resolution".into(), json!(resolution.name()));
            }
            Value::Object(object)
        })
        .collect();
    // `nodes` before `edges` (a `serde_json` object would sort its keys). Values built above
    // always serialise.
    let indent = |list: &[Value]| {
        serde_json::to_string_pretty(list)
            .unwrap_or_default()
            .replace('\n', "\n  ")
    };
    format!(
        "{{\n  \"nodes\": {},\n  \"edges\": {}\n}}\n",
        indent(&nodes),
        indent(&edges)
    )
}
