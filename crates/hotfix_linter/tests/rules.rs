//! Every rule against its fixtures and its documented examples.
//!
//! Fixtures live in `testdata/rules/<CODE>/`: files whose name starts with `invalid` must
//! produce at least one finding of that rule (their rendered findings are snapshots in
//! `snapshots/rules/`), files whose name starts with `valid` must produce none.
//!
//! A fixture or doc example that holds `heat-release = "NAME"` (in a YAML comment, or a JSON
//! template's description) is linted with that `heat-release` setting, as `hotfix.toml` would
//! give it.

mod blueprints;

use std::path::{Path, PathBuf};

use hotfix_diagnostics::{RenderOptions, render_human};
mod common;
mod stacks;

use hotfix_linter::{
    Files, Scope, Selector, Settings, all_rules, docs, lint_environment, lint_with_files,
};
use hotfix_stack::{MemorySource, StackPath};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/rules")
}

/// The rules under test: all, or those whose code starts with `HOTFIX_ONLY` (e.g. `H3`), so
/// that work on one family is not held up by another.
fn rules_under_test() -> Vec<&'static hotfix_linter::Rule> {
    let only = std::env::var("HOTFIX_ONLY").unwrap_or_default();
    all_rules()
        .iter()
        .copied()
        .filter(|r| {
            only.split(',')
                .any(|prefix| r.code.starts_with(prefix.trim()))
        })
        .collect()
}

/// The settings a fixture (or doc example) is linted with: only the rule, and the
/// `heat-release` the source names.
fn only(code: &str, source: &str) -> Settings {
    Settings {
        select: vec![Selector::parse(code).expect("a rule code")],
        heat_release: common::heat_release_named_in(source),
        ..Settings::default()
    }
}

use stacks::Disk;

/// Lints a fixture of the rule `code` as what the rule checks: an environment file or a
/// template, reading the files beside it (a fixture's folder on disk; for a doc example, a
/// memory source with `nested/server.yaml`, `nested/install.sh` and the example itself).
fn lint_as(
    code: &str,
    display: &str,
    file: Option<&Path>,
    source: &str,
) -> Vec<hotfix_diagnostics::Diagnostic> {
    let rule = hotfix_linter::rule_by_code(code).expect("a rule");
    let mut settings = only(code, source);
    // A blueprint's local imports, read as `hotfix lint` reads them.
    settings.blueprint_imports = file.and_then(|f| blueprints::blueprint_imports(f, source));
    let environment = rule.scope == Scope::Environment;
    let lint_one = |files: &Files<'_>| {
        if environment {
            lint_environment(display, source.as_bytes(), &settings, Some(files))
        } else {
            lint_with_files(display, source.as_bytes(), &settings, Some(files))
        }
    };
    if let Some(file) = file {
        let path = StackPath::new(&file.to_string_lossy());
        let roots = [path.parent()];
        let (registry, stack) = stacks::fixture_stack(&roots, file, environment);
        return lint_one(&Files {
            source: &Disk,
            path: &path,
            roots: &roots,
            registry: registry.as_ref(),
            stack_templates: &stack,
            stack_environments: &[],
        });
    }
    let mut memory = MemorySource::new();
    memory
        .insert(
            "nested/server.yaml",
            "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\n\
             outputs:\n  first_address: {value: 10.0.0.1}\n",
        )
        .insert("nested/install.sh", "#!/bin/sh\n")
        .insert(
            "environments/registry.yaml",
            "resource_registry:\n  My::Server: ../nested/server.yaml\n",
        );
    let path = if environment {
        StackPath::new("environments/example.yaml")
    } else {
        StackPath::new("example.yaml")
    };
    memory.insert(path.as_str(), source);
    let example_template = "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\n  \
                            count: {type: number, default: 1}\n";
    if environment {
        memory.insert("example.yaml", example_template);
    }
    let roots = [StackPath::new(".")];
    // The stack of a doc example: the registry above, and for an environment a template
    // that declares `flavor` and `count`.
    let registry = hotfix_stack::Registry::given_files(
        &memory,
        &roots,
        &[StackPath::new("environments/registry.yaml")],
    )
    .expect("the example registry");
    let registry = hotfix_stack::LazyRegistry::ready(registry);
    let stack = if environment {
        vec![(
            StackPath::new("example.yaml"),
            std::sync::Arc::new(hotfix_stack::FileFacts::of(example_template)),
        )]
    } else {
        Vec::new()
    };
    lint_one(&Files {
        source: &memory,
        path: &path,
        roots: &roots,
        registry: Some(&registry),
        stack_templates: &stack,
        stack_environments: &[],
    })
}

fn render(path: &str, file: &Path, source: &str, code: &str) -> String {
    let mut diagnostics = lint_as(code, path, Some(file), source);
    // Other files are named as the fixture is: relative to `testdata/rules`.
    let folder = format!("{}/", StackPath::new(&testdata().to_string_lossy()));
    for diagnostic in &mut diagnostics {
        // So are the environments a message names.
        diagnostic.message = diagnostic.message.replace(&folder, "");
        for label in &mut diagnostic.file_labels {
            if let Some(relative) = label.path.strip_prefix(&folder) {
                label.path = relative.into();
            }
        }
    }
    diagnostics
        .iter()
        .map(|d| {
            render_human(
                d,
                path,
                source,
                RenderOptions {
                    color: false,
                    width: 100,
                },
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_rule_has_fixtures_that_behave() {
    let mut missing = Vec::new();
    for rule in rules_under_test() {
        let dir = testdata().join(rule.code);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            missing.push(rule.code);
            continue;
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.expect("dir entry").path()).collect();
        files.sort();
        let (mut invalid, mut valid) = (0, 0);
        for file in files {
            let name = file
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a file name")
                .to_owned();
            // Folders hold the files a fixture names, and (`env/`) the environments given
            // with a template fixture of the same name.
            if file.is_dir() {
                continue;
            }
            let source = std::fs::read_to_string(&file).expect("a UTF-8 fixture");
            let display = format!("{}/{name}", rule.code);
            let diagnostics = lint_as(rule.code, &display, Some(&file), &source);
            let ours = diagnostics.iter().filter(|d| d.code == rule.code).count();
            if name.starts_with("invalid") {
                invalid += 1;
                assert!(
                    ours > 0,
                    "{display}: expected a {} finding, got none",
                    rule.code
                );
                let stem = name.rsplit_once('.').map_or(name.as_str(), |(s, _)| s);
                insta::with_settings!({
                    snapshot_path => "../../../snapshots/rules",
                    prepend_module_to_snapshot => false,
                    omit_expression => true,
                    description => format!("{display}\n{}", source),
                }, {
                    insta::assert_snapshot!(format!("{}__{stem}", rule.code), render(&display, &file, &source, rule.code));
                });
            } else if name.starts_with("valid") {
                valid += 1;
                assert_eq!(
                    ours, 0,
                    "{display}: expected no {} finding, got {diagnostics:#?}",
                    rule.code
                );
            }
        }
        assert!(
            invalid > 0 && valid > 0,
            "{}: needs invalid* and valid* fixtures",
            rule.code
        );
    }
    assert!(
        missing.is_empty(),
        "rules without fixtures in testdata/rules: {missing:?}"
    );
}

/// Rules whose example cannot be shown in full in the docs.
const EXAMPLE_EXEMPT: &[(&str, &str)] =
    &[("H105", "needs 1,001 resources; its fixture generates them")];

#[test]
fn every_rule_doc_example_yields_exactly_one_finding_and_its_fix_none() {
    for rule in rules_under_test() {
        if EXAMPLE_EXEMPT.iter().any(|(code, _)| *code == rule.code) {
            continue;
        }
        let (example, instead) = docs::doc_examples(rule);
        let example =
            example.unwrap_or_else(|| panic!("{}: no ```yaml block under ## Example", rule.code));
        let instead =
            instead.unwrap_or_else(|| panic!("{}: no ```yaml block under Use instead:", rule.code));
        let found = lint_as(rule.code, "example.yaml", None, &example);
        let ours: Vec<_> = found.iter().filter(|d| d.code == rule.code).collect();
        assert_eq!(
            ours.len(),
            1,
            "{}: the example should give exactly one finding, got {found:#?}",
            rule.code
        );
        let found = lint_as(rule.code, "instead.yaml", None, &instead);
        assert!(
            found.iter().all(|d| d.code != rule.code),
            "{}: \"Use instead\" still gives {found:#?}",
            rule.code
        );
    }
}

#[test]
fn the_rule_reference_in_rules_is_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let update = std::env::var_os("HOTFIX_UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    let generated = docs::generated_files();
    for (path, content) in &generated {
        let file = root.join(path);
        if std::fs::read_to_string(&file).ok().as_deref() != Some(content.as_str()) {
            if update {
                std::fs::write(&file, content).expect("write a rule page");
            } else {
                stale.push(path.clone());
            }
        }
    }
    // Pages of rules that no longer exist.
    for entry in std::fs::read_dir(root.join("rules")).expect("rules/") {
        let path = format!(
            "rules/{}",
            entry.expect("entry").file_name().to_string_lossy()
        );
        if !generated.iter().any(|(p, _)| *p == path) {
            if update {
                std::fs::remove_file(root.join(&path)).expect("remove a stale page");
            } else {
                stale.push(path);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale rule reference: {stale:?}; regenerate with `HOTFIX_UPDATE_DOCS=1 cargo test -p hotfix_linter --test rules`"
    );
}

/// Source files that name `Unsafe` in code without making a rule's fix: what they do instead.
const UNSAFE_WITHOUT_A_RULE: &[(&str, &str)] = &[
    (
        "lib.rs",
        "makes every Safe fix Unsafe when the version is assumed (H102's docs say so)",
    ),
    ("fix.rs", "applies Unsafe fixes on request"),
    ("upgrade/mod.rs", "applies Unsafe rewrites on request"),
];

/// Whether a line of Rust code (not a comment) names `Unsafe` as a word.
fn names_unsafe(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or_default();
    code.match_indices("Unsafe").any(|(at, _)| {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        !code[..at].ends_with(word) && !code[at + "Unsafe".len()..].starts_with(word)
    })
}

/// The documentation of the rule or upgrade rule `code`.
fn documentation_of(code: &str) -> Option<String> {
    hotfix_linter::rule_by_code(code)
        .map(hotfix_linter::Rule::documentation)
        .or_else(|| {
            hotfix_linter::upgrade::all_upgrade_rules()
                .iter()
                .find(|r| r.code == code)
                .map(|r| r.documentation())
        })
}

/// ruff's habit: a rule whose fix may change what the template does says, under
/// `## Fix safety`, what the fix changes and why it is unsafe. A rule is held to it when its
/// source file names `Unsafe` in code (every rule and upgrade rule, each file declaring one),
/// or when one of its fixtures or its doc example gets an Unsafe fix (a template that
/// declares its version: where H102 assumes one, every fix is Unsafe, as its docs say).
#[test]
fn every_rule_with_an_unsafe_fix_says_why_under_fix_safety() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    hotfix_testkit::rust_files(&src, &mut files);
    let mut unsafe_codes = std::collections::BTreeSet::new();
    let mut unexplained = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a UTF-8 source file");
        if !text.lines().any(names_unsafe) {
            continue;
        }
        let relative = file
            .strip_prefix(&src)
            .expect("below src")
            .to_string_lossy()
            .replace('\\', "/");
        let code = text.lines().find_map(|line| {
            let rest = line.trim().strip_prefix("code: \"")?;
            Some(rest.split('"').next()?.to_owned())
        });
        match code {
            Some(code) => {
                unsafe_codes.insert(code);
            }
            None if UNSAFE_WITHOUT_A_RULE.iter().any(|(f, _)| *f == relative) => {}
            None => unexplained.push(relative),
        }
    }
    assert!(
        unexplained.is_empty(),
        "these files name `Unsafe` but declare no rule: put the fix in its rule's file, or list \
         the file in UNSAFE_WITHOUT_A_RULE with what it does: {unexplained:?}"
    );
    let declares_version = |source: &str| {
        hotfix_yaml::parse(source)
            .is_ok_and(|doc| hotfix_hot::Template::new(&doc).version_assumed().is_none())
    };
    for rule in all_rules() {
        let mut sources = Vec::new();
        if let (Some(example), _) = docs::doc_examples(rule) {
            sources.push((None, example));
        }
        if let Ok(entries) = std::fs::read_dir(testdata().join(rule.code)) {
            for entry in entries {
                let path = entry.expect("dir entry").path();
                let invalid = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("invalid"));
                if invalid && path.is_file() {
                    let source = std::fs::read_to_string(&path).expect("a UTF-8 fixture");
                    sources.push((Some(path), source));
                }
            }
        }
        for (file, source) in sources {
            let found = lint_as(rule.code, "t.yaml", file.as_deref(), &source);
            if declares_version(&source)
                && found.iter().any(|d| {
                    d.code == rule.code
                        && d.fix.as_ref().is_some_and(|f| {
                            f.applicability == hotfix_diagnostics::Applicability::Unsafe
                        })
                })
            {
                unsafe_codes.insert(rule.code.to_owned());
            }
        }
    }
    let silent: Vec<&String> = unsafe_codes
        .iter()
        .filter(|code| {
            !documentation_of(code)
                .unwrap_or_else(|| panic!("{code}: no rule has this code"))
                .lines()
                .any(|line| line.trim_end() == "## Fix safety")
        })
        .collect();
    assert!(
        silent.is_empty(),
        "rules with an Unsafe fix but no `## Fix safety` section saying what the fix changes \
         and why it is unsafe: {silent:?}"
    );
}
