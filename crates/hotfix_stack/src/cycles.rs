//! Which templates include themselves through nested templates, found once for a whole run:
//! the strongly connected components of the graph of nested `type`s (Tarjan's algorithm,
//! iterative), so that every file and link is looked at once however many templates ask.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};

use crate::{FileSource, LinkKind, StackPath, Target, resolve_reference};

/// The components found so far. A source whose files do not change during a run keeps one
/// ([`FileSource::cycles`]); the search from each new file goes only where no earlier search
/// went, so a run pays for each file and link once.
#[derive(Debug, Default)]
pub struct Cycles {
    /// Each file's component, once its search is done.
    component: Mutex<HashMap<StackPath, usize>>,
}

impl Cycles {
    pub fn new() -> Cycles {
        Cycles::default()
    }

    /// Whether the nested template `to`, which `from` names in a `type`, leads back to `from`
    /// (directly or through other nested templates): both lie in one component.
    pub fn leads_back(
        &self,
        source: &dyn FileSource,
        roots: &[StackPath],
        from: &StackPath,
        to: &StackPath,
    ) -> bool {
        if from == to {
            return true;
        }
        let mut component = self
            .component
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        search(source, roots, from, &mut component);
        search(source, roots, to, &mut component);
        component.get(from).is_some() && component.get(from) == component.get(to)
    }
}

/// The nested templates a file names in a `type` that are files (the links the cycle search
/// follows).
pub fn nested_files(
    source: &dyn FileSource,
    roots: &[StackPath],
    path: &StackPath,
) -> Vec<StackPath> {
    let Some(facts) = source.facts(path) else {
        return Vec::new();
    };
    facts
        .links
        .iter()
        .filter(|link| link.kind == LinkKind::NestedType)
        .filter_map(
            |link| match resolve_reference(source, roots, path, &link.reference, None) {
                Target::File(next) => Some(next),
                _ => None,
            },
        )
        .collect()
}

/// One step of the search: a file, the files it names, and how many of them were followed.
struct Frame {
    path: StackPath,
    next: Vec<StackPath>,
    followed: usize,
}

/// Tarjan's search from `start`, without recursion; every file it reaches that no earlier
/// search reached gets its component in `component`.
fn search(
    source: &dyn FileSource,
    roots: &[StackPath],
    start: &StackPath,
    component: &mut HashMap<StackPath, usize>,
) {
    if component.contains_key(start) {
        return;
    }
    // Each file of this search: the order it was reached in, and the lowest order reachable.
    let mut order: HashMap<StackPath, (usize, usize)> = HashMap::new();
    let mut stack: Vec<StackPath> = Vec::new();
    let mut on_stack: HashSet<StackPath> = HashSet::new();
    let mut frames = vec![enter(
        source,
        roots,
        start,
        &mut order,
        &mut stack,
        &mut on_stack,
    )];
    while let Some(frame) = frames.last_mut() {
        if let Some(next) = frame.next.get(frame.followed).cloned() {
            frame.followed += 1;
            if component.contains_key(&next) {
                // Done by an earlier search: another component.
                continue;
            }
            if let Some(&(reached, _)) = order.get(&next) {
                if on_stack.contains(&next) {
                    lower(&mut order, &frame.path.clone(), reached);
                }
                continue;
            }
            let entered = enter(source, roots, &next, &mut order, &mut stack, &mut on_stack);
            frames.push(entered);
            continue;
        }
        let Some(done) = frames.pop() else { break };
        let (reached, low) = order[&done.path];
        if let Some(parent) = frames.last() {
            lower(&mut order, &parent.path.clone(), low);
        }
        if low == reached {
            let id = component.len();
            while let Some(member) = stack.pop() {
                on_stack.remove(&member);
                let last = member == done.path;
                component.insert(member, id);
                if last {
                    break;
                }
            }
        }
    }
}

fn enter(
    source: &dyn FileSource,
    roots: &[StackPath],
    path: &StackPath,
    order: &mut HashMap<StackPath, (usize, usize)>,
    stack: &mut Vec<StackPath>,
    on_stack: &mut HashSet<StackPath>,
) -> Frame {
    let n = order.len();
    order.insert(path.clone(), (n, n));
    stack.push(path.clone());
    on_stack.insert(path.clone());
    Frame {
        path: path.clone(),
        next: nested_files(source, roots, path),
        followed: 0,
    }
}

fn lower(order: &mut HashMap<StackPath, (usize, usize)>, path: &StackPath, to: usize) {
    if let Some(entry) = order.get_mut(path) {
        entry.1 = entry.1.min(to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemorySource;

    fn template(types: &[&str]) -> String {
        use std::fmt::Write as _;
        let mut text = "heat_template_version: rocky\nresources:\n".to_owned();
        for (i, t) in types.iter().enumerate() {
            let _ = writeln!(text, "  r{i}: {{type: {t}}}");
        }
        text
    }

    #[test]
    fn finds_the_templates_that_lead_back_and_only_those() {
        let mut source = MemorySource::new();
        // a -> b -> c -> a is a cycle; c -> d and d -> e lead nowhere back.
        source
            .insert("t/a.yaml", &template(&["b.yaml"]))
            .insert("t/b.yaml", &template(&["c.yaml"]))
            .insert("t/c.yaml", &template(&["a.yaml", "d.yaml"]))
            .insert("t/d.yaml", &template(&["e.yaml"]))
            .insert("t/e.yaml", &template(&[]));
        let roots = [StackPath::new("t")];
        let cycles = Cycles::new();
        let p = StackPath::new;
        assert!(cycles.leads_back(&source, &roots, &p("t/c.yaml"), &p("t/a.yaml")));
        assert!(cycles.leads_back(&source, &roots, &p("t/a.yaml"), &p("t/b.yaml")));
        assert!(!cycles.leads_back(&source, &roots, &p("t/c.yaml"), &p("t/d.yaml")));
        assert!(!cycles.leads_back(&source, &roots, &p("t/d.yaml"), &p("t/e.yaml")));
        // A search started elsewhere first gives the same answers.
        let cycles = Cycles::new();
        assert!(!cycles.leads_back(&source, &roots, &p("t/d.yaml"), &p("t/e.yaml")));
        assert!(cycles.leads_back(&source, &roots, &p("t/b.yaml"), &p("t/c.yaml")));
    }

    /// `t/{i}.yaml` names `t/{i + 1}.yaml`, up to `t/{N}.yaml`, which names none (facts
    /// made directly: loading 20,000 templates would only slow the test).
    struct Chain;

    const N: usize = 20_000;

    impl FileSource for Chain {
        fn read(&self, _: &StackPath) -> Option<std::sync::Arc<str>> {
            None
        }

        fn exists(&self, path: &StackPath) -> bool {
            number(path).is_some_and(|i| i <= N)
        }

        fn list(&self, _: &StackPath) -> Vec<String> {
            Vec::new()
        }

        fn facts(&self, path: &StackPath) -> Option<std::sync::Arc<crate::FileFacts>> {
            let i = number(path).filter(|&i| i <= N)?;
            let links = (i < N)
                .then(|| crate::RawLink {
                    kind: LinkKind::NestedType,
                    reference: format!("{}.yaml", i + 1),
                    span: hotfix_yaml::Span { start: 0, end: 0 },
                    base_url: None,
                })
                .into_iter()
                .collect();
            Some(std::sync::Arc::new(crate::FileFacts {
                kind: crate::FileKind::Template,
                links,
                parameters: Vec::new(),
                outputs: Vec::new(),
                resources: Vec::new(),
                versioned: true,
            }))
        }
    }

    fn number(path: &StackPath) -> Option<usize> {
        path.as_str()
            .strip_prefix("t/")?
            .strip_suffix(".yaml")?
            .parse()
            .ok()
    }

    #[test]
    fn a_long_chain_is_searched_without_recursion() {
        let source = Chain;
        let n = N;
        let roots = [StackPath::new("t")];
        let cycles = Cycles::new();
        for i in 0..n - 1 {
            let from = StackPath::new(&format!("t/{i}.yaml"));
            let to = StackPath::new(&format!("t/{}.yaml", i + 1));
            assert!(!cycles.leads_back(&source, &roots, &from, &to));
        }
    }
}
