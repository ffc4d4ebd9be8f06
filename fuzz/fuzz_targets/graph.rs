//! Any bytes as a small tree of files, drawn as `hotfix graph` draws it: the input is split at
//! `\n---8<---\n` into up to four files (`repo/top.yaml`, `repo/env/e.yaml`,
//! `repo/nested/a.yaml`, `repo/b.yaml`); each is read with `hotfix_stack::graph::FileShape::of`,
//! the tree is built from the first two, and `Graph::build` draws it, once with every
//! environment of the tree and once with the second file given as `-e`, each with and without the
//! first named as the top template. Nothing may panic;
//! node ids are unique and sorted, every edge joins two nodes, and every position is on a line
//! of its file.

#![no_main]

use std::collections::BTreeMap;
use std::sync::Arc;

use hotfix_stack::graph::{FileShape, Graph, Stack, registry_of};
use hotfix_stack::{MemorySource, StackPath, Tree};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 4] = [
    "repo/top.yaml",
    "repo/env/e.yaml",
    "repo/nested/a.yaml",
    "repo/b.yaml",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut source = MemorySource::new();
    let mut shapes = BTreeMap::new();
    let mut lines = BTreeMap::new();
    for (name, part) in NAMES.iter().zip(text.split("\n---8<---\n")) {
        source.insert(name, part);
        shapes.insert(StackPath::new(name), FileShape::of(Arc::from(part)));
        lines.insert(name.to_string(), part.split(['\n', '\r']).count());
    }
    let given = NAMES
        .iter()
        .take(2)
        .map(|n| {
            let path = StackPath::new(n);
            let facts = shapes.get(&path).map(|s| s.facts.clone());
            (path, facts)
        })
        .collect();
    let roots = vec![StackPath::new("repo")];
    let tree = Tree::build(&source, roots.clone(), given);
    let environment = [StackPath::new(NAMES[1])];
    for environments in [None, Some(&environment[..])] {
        let registry = registry_of(&source, &roots, &shapes, environments);
        let top = [StackPath::new(NAMES[0])];
        for top in [&[][..], &top[..]] {
            let stack = Stack {
                environments,
                top,
                registry: &registry,
                builtin: &|t: &str| t.starts_with("OS::"),
            };
            let graph = Graph::build(&tree, &shapes, stack);
            check(&graph, &lines);
        }
    }
});

/// Node ids unique and sorted, every edge between two nodes and on a line of its file.
fn check(graph: &Graph, lines: &BTreeMap<String, usize>) {
    let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "sorted, unique ids");
    for edge in &graph.edges {
        assert!(ids.binary_search(&edge.from.as_str()).is_ok());
        assert!(ids.binary_search(&edge.to.as_str()).is_ok());
        let in_file = lines.get(edge.path.as_str()).expect("a file of the input");
        assert!(edge.position.line >= 1 && edge.position.line <= *in_file);
    }
}
