//! Any bytes as a small tree of files: the input is split at `\n---8<---\n` into up to four
//! files (`repo/top.yaml`, `repo/env/e.yaml`, `repo/nested/a.yaml`, `repo/b.yaml`), which
//! `hotfix_stack::Tree::build` reads through a memory source. Nothing may panic; every link's
//! span lies within its file on character boundaries, and comes from a file of the tree. The
//! environment part is also linted with every rule (`hotfix_linter::lint_environment`, reading
//! the other parts): no panic, and every finding's span within the file. So is the top
//! template (`hotfix_linter::lint_with_files`): each label in another file names a file of the
//! tree, carries its text, and lies within it on character boundaries; the code frames render.
//! The environment part is read as `-e` gives it and as a tree's only environment
//! (`hotfix_stack::Registry`), and every word of the input is looked up in both: no panic, no
//! endless alias chain; the top template is linted with the first.

#![no_main]

use hotfix_stack::{FileSource, MemorySource, StackPath, Tree};
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
    for (name, part) in NAMES.iter().zip(text.split("\n---8<---\n")) {
        source.insert(name, part);
    }
    let given = NAMES
        .iter()
        .take(2)
        .map(|n| (StackPath::new(n), None))
        .collect();
    let tree = Tree::build(&source, vec![StackPath::new("repo")], given);
    // The environment part as `-e` gives it, and as the tree's only environment.
    let roots = [StackPath::new("repo")];
    let env_path = StackPath::new(NAMES[1]);
    let registry = hotfix_stack::Registry::given_files(&source, &roots, &[env_path.clone()])
        .ok()
        .map(hotfix_stack::LazyRegistry::ready);
    let env_facts = source.read(&env_path).and_then(|text| {
        let doc = hotfix_yaml::parse_unlimited(&text).ok()?;
        Some(hotfix_stack::EnvironmentFacts::of(&source, &roots, &env_path, &doc))
    });
    let tree_registry = hotfix_stack::Registry::tree(env_facts.into_iter().collect(), Vec::new(), false);
    let top_facts = source
        .read(&StackPath::new(NAMES[0]))
        .map(|text| std::sync::Arc::new(hotfix_stack::FileFacts::of(&text)));
    let stack: Vec<_> = top_facts
        .iter()
        .map(|f| (StackPath::new(NAMES[0]), f.clone()))
        .collect();
    let builtin = |name: &str| name.starts_with("OS::");
    for word in text.split(char::is_whitespace).take(64) {
        for registry in registry.iter().map(hotfix_stack::LazyRegistry::get).chain([&tree_registry]) {
            for mapped in registry.lookup(word, Some("r"), &builtin) {
                if let hotfix_stack::Mapped::Template { entry, .. } = mapped {
                    assert!(entry.span.start <= entry.span.end);
                }
            }
        }
    }
    if let Some(env) = text.split("\n---8<---\n").nth(1) {
        let path = StackPath::new(NAMES[1]);
        let roots = [StackPath::new("repo")];
        let files = hotfix_linter::Files {
            source: &source,
            path: &path,
            roots: &roots,
            registry: registry.as_ref(),
            stack_templates: &stack,
            stack_environments: &[],
        };
        let settings = hotfix_linter::Settings {
            select: vec![hotfix_linter::Selector::All],
            ..hotfix_linter::Settings::default()
        };
        for finding in hotfix_linter::lint_environment(NAMES[1], env.as_bytes(), &settings, Some(&files)) {
            assert!(finding.span.start <= finding.span.end && finding.span.end <= env.len());
        }
    }
    if let Some(top) = text.split("\n---8<---\n").next() {
        let path = StackPath::new(NAMES[0]);
        let roots = [StackPath::new("repo")];
        let lazy_tree = hotfix_stack::LazyRegistry::ready(hotfix_stack::Registry::tree(
            Vec::new(),
            Vec::new(),
            false,
        ));
        let files = hotfix_linter::Files {
            source: &source,
            path: &path,
            roots: &roots,
            registry: Some(registry.as_ref().unwrap_or(&lazy_tree)),
            stack_templates: &[],
            stack_environments: &[],
        };
        let settings = hotfix_linter::Settings {
            select: vec![hotfix_linter::Selector::All],
            ..hotfix_linter::Settings::default()
        };
        for finding in hotfix_linter::lint_with_files(NAMES[0], top.as_bytes(), &settings, Some(&files)) {
            assert!(finding.span.start <= finding.span.end && finding.span.end <= top.len());
            for label in &finding.file_labels {
                let file = hotfix_stack::FileSource::read(&source, &StackPath::new(&label.path))
                    .expect("a file of the tree");
                assert_eq!(&*file, &*label.source);
                assert!(label.span.start <= label.span.end && label.span.end <= file.len());
                assert!(file.is_char_boundary(label.span.start) && file.is_char_boundary(label.span.end));
            }
            let shown = hotfix_diagnostics::render_human(
                &finding,
                NAMES[0],
                top,
                hotfix_diagnostics::RenderOptions::default(),
            );
            assert!(!shown.is_empty());
        }
    }
    for link in &tree.links {
        let file = hotfix_stack::FileSource::read(&source, &link.from).expect("a file of the tree");
        assert!(link.span.start <= link.span.end && link.span.end <= file.len());
        assert!(file.is_char_boundary(link.span.start) && file.is_char_boundary(link.span.end));
        assert!(tree.files.contains_key(&link.from));
    }
});
