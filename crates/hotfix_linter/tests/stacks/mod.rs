//! The stacks of the cross-file fixtures: the disk as the CLI reads it, and the environment a
//! template fixture is given with.

use std::path::{Path, PathBuf};

/// The files a fixture sees: the disk, as the CLI reads it.
#[derive(Debug)]
pub(crate) struct Disk;

impl hotfix_stack::FileSource for Disk {
    fn read(&self, path: &hotfix_stack::StackPath) -> Option<std::sync::Arc<str>> {
        std::fs::read_to_string(path.as_str()).ok().map(Into::into)
    }

    fn list(&self, dir: &hotfix_stack::StackPath) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(dir.as_str()) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

/// The environment given with a template fixture: `env/NAME` beside the fixture `NAME`.
pub(crate) fn fixture_environment(fixture: &Path) -> Option<PathBuf> {
    let env = fixture.parent()?.join("env").join(fixture.file_name()?);
    env.is_file().then_some(env)
}

/// The registry of a template fixture's environment (see [`fixture_environment`]), as
/// `hotfix lint FIXTURE -e ENV` builds it.
pub(crate) fn fixture_registry(
    source: &dyn hotfix_stack::FileSource,
    roots: &[hotfix_stack::StackPath],
    fixture: &Path,
) -> Option<hotfix_stack::LazyRegistry> {
    let env = fixture_environment(fixture)?;
    let registry = hotfix_stack::Registry::given_files(
        source,
        roots,
        &[hotfix_stack::StackPath::new(&env.to_string_lossy())],
    )
    .expect("a fixture environment that loads");
    Some(hotfix_stack::LazyRegistry::ready(registry))
}

/// The template the environment fixtures are given with (`testdata/stacks/minimal.yaml`).
pub(crate) fn minimal_stack(
    source: &dyn hotfix_stack::FileSource,
) -> Vec<(
    hotfix_stack::StackPath,
    std::sync::Arc<hotfix_stack::FileFacts>,
)> {
    let path = crate::common::workspace().join("testdata/stacks/minimal.yaml");
    let path = hotfix_stack::StackPath::new(&path.to_string_lossy());
    let facts = source.facts(&path).expect("testdata/stacks/minimal.yaml");
    vec![(path, facts)]
}

/// What a fixture is linted with: an environment fixture is the environment given (`-e`) with
/// the minimal template; a template fixture is given its `env/NAME` when there is one.
pub(crate) fn fixture_stack(
    roots: &[hotfix_stack::StackPath],
    fixture: &Path,
    environment: bool,
) -> (
    Option<hotfix_stack::LazyRegistry>,
    Vec<(
        hotfix_stack::StackPath,
        std::sync::Arc<hotfix_stack::FileFacts>,
    )>,
) {
    if environment {
        let path = hotfix_stack::StackPath::new(&fixture.to_string_lossy());
        let registry = hotfix_stack::Registry::given_files(&Disk, roots, &[path])
            .ok()
            .map(hotfix_stack::LazyRegistry::ready);
        (registry, minimal_stack(&Disk))
    } else {
        (fixture_registry(&Disk, roots, fixture), Vec::new())
    }
}

/// What hotfix says of `fixture` with the rule `code` alone, linted with the stack
/// [`fixture_stack`] gives it: how many findings, and their messages and helps as words.
#[allow(dead_code, reason = "the Heat oracle tests use it; rules.rs does not")]
pub(crate) fn said(
    code: &str,
    display: &str,
    fixture: &Path,
    environment: bool,
) -> (usize, String) {
    let source = std::fs::read_to_string(fixture).expect("a fixture");
    let path = hotfix_stack::StackPath::new(&fixture.to_string_lossy());
    let roots = [path.parent()];
    let (registry, stack) = fixture_stack(&roots, fixture, environment);
    let files = hotfix_linter::Files {
        source: &Disk,
        path: &path,
        roots: &roots,
        registry: registry.as_ref(),
        stack_templates: &stack,
        stack_environments: &[],
    };
    let settings = hotfix_linter::Settings {
        select: vec![hotfix_linter::Selector::parse(code).expect("a code")],
        ..hotfix_linter::Settings::default()
    };
    let findings = if environment {
        hotfix_linter::lint_environment(display, source.as_bytes(), &settings, Some(&files))
    } else {
        hotfix_linter::lint_with_files(display, source.as_bytes(), &settings, Some(&files))
    };
    let words = squeeze(
        &findings
            .iter()
            .map(|d| format!("{} {}", d.message, d.help.clone().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(" "),
    );
    (findings.len(), words)
}

/// Words only: Heat's text and hotfix's help wrap and quote differently.
#[allow(dead_code, reason = "the Heat oracle tests use it; rules.rs does not")]
pub(crate) fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
