//! Which templates include themselves through nested templates, found once for a whole run:
//! the strongly connected components of the graph of nested `type`s (Tarjan's algorithm,
//! iterative), so that every file and link is looked at once however many templates ask.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};

use crate::{FileSource, LinkKind, StackPath, Target, resolve_reference};

/// The components found so far. A source whose files do not change during a run keeps one
/// ([`FileSource::cycles`]); the search from each new file goes only where no earlier search
/// went, so a run pays for each file and link once.
///
/// A search runs outside the lock (it reads and loads the nested templates it reaches, which
/// takes milliseconds in a large tree: the other linting threads would wait for it) and adds
/// its components at its end, under the lock, in one step. Two threads may then search one
/// part of the graph at once: each finds the same components (the graph does not change during
/// a run), and the second adds none of them again. A search that meets a file another search
/// added meanwhile treats it as done, as it treats one added before it began: a component is
/// added whole, so that file lies in another component than the file naming it, or in the
/// same one, which the other search then added whole too and this one adds no part of.
#[derive(Debug, Default)]
pub struct Cycles {
    found: Mutex<Found>,
}

/// Each file's component, once a search that reached it is done, and how many there are.
#[derive(Debug, Default)]
struct Found {
    component: HashMap<StackPath, usize>,
    count: usize,
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
        for start in [from, to] {
            if !self.known(start) {
                let found = search(source, roots, start, |path| self.known(path));
                self.add(found);
            }
        }
        let found = self.lock();
        let of_from = found.component.get(from);
        of_from.is_some() && of_from == found.component.get(to)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Found> {
        self.found.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a search has added the file's component.
    fn known(&self, path: &StackPath) -> bool {
        self.lock().component.contains_key(path)
    }

    /// Adds the components a search found, but those another search added meanwhile (a
    /// component is added whole: one of its files known, all are).
    fn add(&self, components: Vec<Vec<StackPath>>) {
        let mut found = self.lock();
        for members in components {
            if members.iter().any(|m| found.component.contains_key(m)) {
                continue;
            }
            let id = found.count;
            found.count += 1;
            for member in members {
                found.component.insert(member, id);
            }
        }
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

/// Tarjan's search from `start`, without recursion: the components of the files it reaches
/// that `done` does not know (an earlier search's: it goes no further there), each a list of
/// its files.
fn search(
    source: &dyn FileSource,
    roots: &[StackPath],
    start: &StackPath,
    done: impl Fn(&StackPath) -> bool,
) -> Vec<Vec<StackPath>> {
    let mut components = Vec::new();
    if done(start) {
        return components;
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
            if let Some(&(reached, _)) = order.get(&next) {
                // Reached by this search: on its stack (a way back), or in a component done.
                if on_stack.contains(&next) {
                    lower(&mut order, &frame.path.clone(), reached);
                }
                continue;
            }
            if done(&next) {
                // Done by an earlier search: another component.
                continue;
            }
            let entered = enter(source, roots, &next, &mut order, &mut stack, &mut on_stack);
            frames.push(entered);
            continue;
        }
        let Some(finished) = frames.pop() else { break };
        let (reached, low) = order[&finished.path];
        if let Some(parent) = frames.last() {
            lower(&mut order, &parent.path.clone(), low);
        }
        if low == reached {
            let mut members = Vec::new();
            while let Some(member) = stack.pop() {
                on_stack.remove(&member);
                let last = member == finished.path;
                members.push(member);
                if last {
                    break;
                }
            }
            components.push(members);
        }
    }
    components
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

    #[test]
    fn threads_searching_at_once_find_what_one_finds() {
        // Rings of three templates (t/r{k}-{0,1,2}), each ring's last naming the next ring's
        // first: every ring is a component, and no link between rings leads back.
        const RINGS: usize = 12;
        let mut source = MemorySource::new();
        for k in 0..RINGS {
            for i in 0..3 {
                let mut types = vec![format!("r{k}-{}.yaml", (i + 1) % 3)];
                if i == 2 && k + 1 < RINGS {
                    types.push(format!("r{}-0.yaml", k + 1));
                }
                let types: Vec<&str> = types.iter().map(String::as_str).collect();
                source.insert(&format!("t/r{k}-{i}.yaml"), &template(&types));
            }
        }
        let roots = [StackPath::new("t")];
        let p = |k: usize, i: usize| StackPath::new(&format!("t/r{k}-{i}.yaml"));
        for round in 0..20 {
            let cycles = Cycles::new();
            std::thread::scope(|scope| {
                for thread in 0..4 {
                    let (cycles, source, roots) = (&cycles, &source, &roots);
                    scope.spawn(move || {
                        // Each thread starts at another ring and goes its own way round.
                        for step in 0..RINGS {
                            let k = (step * (thread + 1) + round) % RINGS;
                            assert!(cycles.leads_back(source, roots, &p(k, 0), &p(k, 1)));
                            assert!(cycles.leads_back(source, roots, &p(k, 2), &p(k, 0)));
                            if k + 1 < RINGS {
                                assert!(!cycles.leads_back(source, roots, &p(k, 2), &p(k + 1, 0)));
                            }
                        }
                    });
                }
            });
            let found = cycles.lock();
            assert_eq!(found.count, RINGS, "each ring once");
            assert_eq!(found.component.len(), 3 * RINGS);
        }
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
