//! What depends on what among a template's definitions (resources on resources, conditions
//! on conditions), as a directed graph, and the cycles in it: one piece for every cycle rule.

use std::collections::VecDeque;

use foldhash::{HashMap, HashMapExt as _};

/// How many steps of a cycle are named in a message and labelled; longer cycles are shortened.
pub(in crate::rules) const SHOWN_STEPS: usize = 10;

/// A graph whose nodes are definitions by index (in their section's order); an edge keeps
/// what makes it (the first one found between two nodes).
#[derive(Debug)]
pub(in crate::rules) struct Graph<E> {
    adjacency: Vec<Vec<usize>>,
    edges: HashMap<(usize, usize), E>,
}

impl<E> Graph<E> {
    pub(in crate::rules) fn new(nodes: usize) -> Self {
        Graph {
            adjacency: vec![Vec::new(); nodes],
            edges: HashMap::new(),
        }
    }

    /// An edge from `from` to `to`, unless there is one already.
    pub(in crate::rules) fn add(&mut self, from: usize, to: usize, edge: E) {
        if let Some(targets) = self.adjacency.get_mut(from)
            && !targets.contains(&to)
        {
            targets.push(to);
            self.edges.insert((from, to), edge);
        }
    }

    /// One cycle per strongly connected component of more than one node, starting at the
    /// component's first node (the shortest way back to it); then every node with an edge to
    /// itself.
    pub(in crate::rules) fn cycles(&self) -> Vec<Cycle<'_, E>> {
        cycles(&self.adjacency)
            .into_iter()
            .filter_map(|nodes| {
                let steps = nodes
                    .windows(2)
                    .map(|w| match *w {
                        [from, to] => Some((from, to, self.edges.get(&(from, to))?)),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                (!steps.is_empty()).then_some(Cycle { nodes, steps })
            })
            .collect()
    }
}

/// A cycle: its nodes (the first one again at the end), and each step with its edge.
#[derive(Debug)]
pub(in crate::rules) struct Cycle<'g, E> {
    nodes: Vec<usize>,
    pub(in crate::rules) steps: Vec<(usize, usize, &'g E)>,
}

impl<E> Cycle<'_, E> {
    /// The steps after the first that a message labels.
    pub(in crate::rules) fn shown_rest(&self) -> impl Iterator<Item = &(usize, usize, &E)> {
        self.steps.iter().skip(1).take(SHOWN_STEPS - 1)
    }

    /// Whether the cycle is a node with an edge to itself.
    pub(in crate::rules) fn is_loop(&self) -> bool {
        self.steps.len() == 1
    }

    /// The path for a message: `` `a` → `b` → `a` ``, long ones shortened in the middle.
    pub(in crate::rules) fn path<'n>(&self, name: impl Fn(usize) -> &'n str) -> String {
        let names: Vec<String> = self
            .nodes
            .iter()
            .map(|&i| format!("`{}`", name(i)))
            .collect();
        if names.len() <= SHOWN_STEPS + 1 {
            return names.join(" → ");
        }
        let head = names.get(..SHOWN_STEPS - 2).unwrap_or_default().join(" → ");
        let tail = names.get(names.len() - 2..).unwrap_or_default().join(" → ");
        let hidden = names.len() - SHOWN_STEPS;
        format!("{head} → … ({hidden} more) … → {tail}")
    }
}

/// The strongly connected components of a graph given by adjacency lists (Tarjan's
/// algorithm, iterative: no recursion per node).
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index.get(root) != Some(&UNSEEN) {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        if let (Some(i), Some(l), Some(o)) = (
            index.get_mut(root),
            low.get_mut(root),
            on_stack.get_mut(root),
        ) {
            *i = next;
            *l = next;
            *o = true;
        }
        next += 1;
        stack.push(root);
        while let Some(&(v, i)) = work.last() {
            let successor = edges.get(v).and_then(|e| e.get(i)).copied();
            if let Some(frame) = work.last_mut() {
                frame.1 += 1;
            }
            match successor {
                Some(w) if index.get(w) == Some(&UNSEEN) => {
                    if let (Some(iw), Some(lw), Some(ow)) =
                        (index.get_mut(w), low.get_mut(w), on_stack.get_mut(w))
                    {
                        *iw = next;
                        *lw = next;
                        *ow = true;
                    }
                    next += 1;
                    stack.push(w);
                    work.push((w, 0));
                }
                Some(w) => {
                    if on_stack.get(w) == Some(&true) {
                        let iw = index.get(w).copied().unwrap_or(UNSEEN);
                        if let Some(lv) = low.get_mut(v) {
                            *lv = (*lv).min(iw);
                        }
                    }
                }
                None => {
                    work.pop();
                    let lv = low.get(v).copied().unwrap_or(0);
                    if let Some(&(parent, _)) = work.last()
                        && let Some(lp) = low.get_mut(parent)
                    {
                        *lp = (*lp).min(lv);
                    }
                    if Some(&lv) == index.get(v) {
                        let mut component = Vec::new();
                        while let Some(w) = stack.pop() {
                            if let Some(o) = on_stack.get_mut(w) {
                                *o = false;
                            }
                            component.push(w);
                            if w == v {
                                break;
                            }
                        }
                        components.push(component);
                    }
                }
            }
        }
    }
    components
}

/// One cycle per strongly connected component of more than one node, as a path that starts
/// and ends at the component's first node (shortest way back, by breadth-first search), in the
/// order of the components' first nodes; then every node with an edge to itself, as `[a, a]`.
fn cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut found = Vec::new();
    let mut component_of = vec![usize::MAX; edges.len()];
    let mut components = strongly_connected(edges);
    for component in &mut components {
        component.sort_unstable();
    }
    components.sort_unstable_by_key(|c| c.first().copied());
    for (c, component) in components.iter().enumerate() {
        for &v in component {
            if let Some(slot) = component_of.get_mut(v) {
                *slot = c;
            }
        }
    }
    for (c, component) in components.iter().enumerate() {
        let Some(&start) = component.first() else {
            continue;
        };
        if component.len() < 2 {
            continue;
        }
        // Breadth-first from `start` inside the component until an edge leads back to it.
        let mut parent: HashMap<usize, usize> = HashMap::new();
        let mut queue = VecDeque::from([start]);
        let mut last = None;
        'search: while let Some(v) = queue.pop_front() {
            for &w in edges.get(v).map_or(&[][..], Vec::as_slice) {
                if component_of.get(w) != Some(&c) {
                    continue;
                }
                if w == start && v != start {
                    last = Some(v);
                    break 'search;
                }
                if w != start && !parent.contains_key(&w) {
                    parent.insert(w, v);
                    queue.push_back(w);
                }
            }
        }
        let Some(mut v) = last else {
            continue;
        };
        let mut path = vec![v];
        while v != start {
            let Some(&p) = parent.get(&v) else {
                break;
            };
            path.push(p);
            v = p;
        }
        path.reverse();
        path.push(start);
        if path.first() == Some(&start) && path.len() > 2 {
            found.push(path);
        }
    }
    for (v, targets) in edges.iter().enumerate() {
        if targets.contains(&v) {
            found.push(vec![v, v]);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_edge_and_finds_each_cycle_once() {
        let mut graph = Graph::new(4);
        for (from, to, edge) in [(0, 1, "a"), (1, 2, "b"), (1, 2, "again"), (2, 0, "c")] {
            graph.add(from, to, edge);
        }
        graph.add(3, 3, "self");
        graph.add(9, 0, "out of range");
        let cycles = graph.cycles();
        let steps: Vec<Vec<(usize, usize, &str)>> = cycles
            .iter()
            .map(|c| c.steps.iter().map(|&(f, t, e)| (f, t, *e)).collect())
            .collect();
        assert_eq!(
            steps,
            [
                vec![(0, 1, "a"), (1, 2, "b"), (2, 0, "c")],
                vec![(3, 3, "self")]
            ]
        );
        let names = ["x", "y", "z", "w"];
        assert_eq!(cycles[0].path(|i| names[i]), "`x` → `y` → `z` → `x`");
        assert!(!cycles[0].is_loop() && cycles[1].is_loop());
        assert_eq!(cycles[0].shown_rest().count(), 2);
    }

    #[test]
    fn shortens_long_cycle_paths() {
        let mut graph = Graph::new(12);
        for i in 0..12 {
            graph.add(i, (i + 1) % 12, ());
        }
        let names: Vec<String> = (0..12).map(|i| format!("n{i}")).collect();
        let cycles = graph.cycles();
        assert_eq!(
            cycles[0].path(|i| names[i].as_str()),
            "`n0` → `n1` → `n2` → `n3` → `n4` → `n5` → `n6` → `n7` → … (3 more) … → `n11` → `n0`"
        );
        assert_eq!(cycles[0].shown_rest().count(), SHOWN_STEPS - 1);
    }
}
