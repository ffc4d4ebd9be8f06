//! hotfix for WebAssembly: the playground's engine. One entry point, [`call`], answers a JSON
//! request with a JSON answer, over a tree of files held in memory (the project model of the
//! command line, read through a [`MemorySource`] instead of the disk):
//!
//! - `{"op": "lint", "files": {PATH: TEXT, …}, "path": PATH, "settings": {…}}`: the findings of
//!   the file at `PATH` as `hotfix lint --format json` gives them (`findings`), each finding's
//!   code frame as `--format full` draws it (`frames`, in the same order), and what the file
//!   is (`kind`).
//! - `{"op": "fix", …, "unsafe_fixes": BOOL}`: the text with every fix applied (`text`), how
//!   many were (`applied`), and the findings left on it.
//! - `{"op": "apply", …, "index": N}`: the text with the fix of the `N`th finding applied.
//! - `{"op": "upgrade", "files": …, "path": …, "to": VERSION, "unsafe_fixes": BOOL}`: the
//!   upgraded text, what the upgrade did (`status`, `message`) and the findings on it.
//! - `{"op": "eval", "files": …, "path": …, "environments": [PATH, …], "parameters": {NAME:
//!   VALUE, …}}`: what `hotfix eval` computes (`json`; `yaml` as it prints it) and its
//!   `problems`, or the `error` that stops it (a file that does not load).
//! - `{"op": "graph", "files": …, "path": …, "environments": [PATH, …]}`: the stack graph with
//!   the file as its top template, as `hotfix graph` gives it (`graph`: its JSON; `dot`).
//! - `{"op": "rules"}`: every rule, with its documentation; the Heat releases and template
//!   versions known.
//!
//! `settings`: `select`, `extend_select`, `ignore` (lists of selectors, as in `hotfix.toml`)
//! and `heat_release`. `environments` in a `lint`, `fix` or `apply` request are those of
//! `hotfix lint PATH -e ENV…`: their registry, not the tree's, maps the custom types. A request
//! that cannot be answered gives `{"error": MESSAGE}`.

pub mod abi;
mod stack;

use std::sync::Arc;

use hotfix_diagnostics::{Diagnostic, RenderOptions, json_finding, render_human_indexed};
use hotfix_hot::Version;
use hotfix_hot::heat_release::HeatRelease;
use hotfix_linter::upgrade::{UpgradeOptions, UpgradeStatus, VersionStyle};
use hotfix_linter::{Selector, Settings};
use hotfix_stack::{LazyRegistry, MemorySource, StackPath};
use hotfix_workspace::blueprint::{Blueprints, MemoryFiles};
use hotfix_workspace::{Asked, LintKind, lint_kind};
use hotfix_yaml::LineIndex;
use serde_json::{Value, json};

/// Answers one JSON request (see the crate's documentation).
pub fn call(request: &str) -> String {
    let answer = serde_json::from_str::<Value>(request)
        .map_err(|err| format!("the request is not JSON: {err}"))
        .and_then(|request| answer(&request));
    match answer {
        Ok(value) => value.to_string(),
        Err(message) => error_answer(&message),
    }
}

/// The answer to a request that cannot be answered.
pub(crate) fn error_answer(message: &str) -> String {
    json!({ "error": message }).to_string()
}

fn answer(request: &Value) -> Result<Value, String> {
    let op = request["op"].as_str().ok_or("the request has no `op`")?;
    if op == "rules" {
        return Ok(rules());
    }
    let mut tree = Tree::of(request)?;
    if matches!(op, "lint" | "fix" | "apply") {
        tree.give(&stack::environments(request, &tree)?)?;
    }
    let path = request["path"]
        .as_str()
        .ok_or("the request has no `path`")?;
    let text = tree
        .text(path)
        .ok_or_else(|| format!("`{path}` is not one of the files"))?;
    let settings = settings(&request["settings"])?;
    let unsafe_fixes = request["unsafe_fixes"].as_bool().unwrap_or(false);
    match op {
        "lint" => {
            let linted = tree.lint(path, &text, &settings);
            Ok(json!({
                "kind": linted.kind,
                "findings": findings(path, &text, &linted.diagnostics),
                "frames": frames(path, &text, &linted.diagnostics),
            }))
        }
        "fix" => tree.fix(path, &text, &settings, unsafe_fixes),
        "apply" => {
            let index = request["index"]
                .as_u64()
                .ok_or("the request has no `index`")?;
            let linted = tree.lint(path, &text, &settings);
            let fix = usize::try_from(index)
                .ok()
                .and_then(|i| linted.diagnostics.get(i))
                .and_then(|d| d.fix.as_ref())
                .ok_or_else(|| format!("finding {index} has no fix"))?;
            let (fixed, _) = hotfix_linter::fix::apply_fixes(&text, &[fix]);
            Ok(json!({ "text": fixed }))
        }
        "upgrade" => {
            let to = request["to"].as_str().ok_or("the request has no `to`")?;
            upgrade(path, &text, to, unsafe_fixes)
        }
        "eval" => stack::eval(request, &tree, path, &text),
        "graph" => stack::graph(request, &tree, path),
        _ => Err(format!("unknown op `{op}`")),
    }
}

/// The files of a request, as the cross-file checks read them.
struct Tree {
    pub(crate) source: MemorySource,
    pub(crate) files: Vec<(StackPath, Arc<str>)>,
    pub(crate) roots: Vec<StackPath>,
    registry: LazyRegistry,
    /// The registry of the environments given (`hotfix lint -e`), when some were.
    given: Option<LazyRegistry>,
    /// The environments given: each is linted as an environment, whatever it holds.
    given_paths: Vec<StackPath>,
    /// The Cloudify blueprints among the files, read for their local imports as `hotfix lint`
    /// reads them on disk: a fragment is linted with what its importers declare.
    blueprints: Blueprints,
}

/// What linting one file found.
struct Linted {
    kind: &'static str,
    diagnostics: Vec<Diagnostic>,
}

impl Tree {
    fn of(request: &Value) -> Result<Tree, String> {
        let given = request["files"]
            .as_object()
            .ok_or("the request has no `files`")?;
        let mut source = MemorySource::new();
        let mut files = Vec::new();
        for (path, text) in given {
            let text = text
                .as_str()
                .ok_or_else(|| format!("the text of `{path}` is not a string"))?;
            source.insert(path, text);
            files.push((StackPath::new(path), Arc::from(text)));
        }
        // The tree is the project: its top folder is the one root.
        let roots = vec![StackPath::new(".")];
        let registry = hotfix_workspace::memory_registry(
            files.iter().map(|(p, t)| (p, &**t)),
            &roots,
            &source,
        );
        let blueprints = Blueprints::over(Box::new(MemoryFiles::new(
            files.iter().map(|(p, t)| (p.as_str(), &**t)),
        )));
        Ok(Tree {
            source,
            files,
            roots,
            registry: LazyRegistry::ready(registry),
            given: None,
            given_paths: Vec::new(),
            blueprints,
        })
    }

    /// The environments given with `-e`, in order: their registry maps the custom types of
    /// every file linted, as `hotfix lint PATH -e ENV…` reads them (the tree's are not read).
    fn give(&mut self, environments: &[StackPath]) -> Result<(), String> {
        if environments.is_empty() {
            return Ok(());
        }
        let mut facts = Vec::new();
        for path in environments {
            let text = self
                .text(path.as_str())
                .ok_or_else(|| format!("the environment `{path}` is not one of the files"))?;
            facts.push(hotfix_stack::EnvironmentFacts::given(
                &self.source,
                &self.roots,
                path,
                &text,
            )?);
        }
        self.given = Some(LazyRegistry::ready(hotfix_stack::Registry::given(facts)));
        self.given_paths = environments.to_vec();
        Ok(())
    }

    fn text(&self, path: &str) -> Option<Arc<str>> {
        let path = StackPath::new(path);
        self.files
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, t)| Arc::clone(t))
    }

    fn files<'a>(&'a self, path: &'a StackPath) -> hotfix_linter::Files<'a> {
        hotfix_linter::Files {
            source: &self.source,
            path,
            roots: &self.roots,
            registry: Some(self.given.as_ref().unwrap_or(&self.registry)),
            stack_templates: &[],
            stack_environments: &[],
        }
    }

    /// Lints the file as `hotfix lint PATH` lints a file named on its command line.
    fn lint(&self, path: &str, text: &str, settings: &Settings) -> Linted {
        let bytes = text.as_bytes();
        let stack = StackPath::new(path);
        let asked = Asked {
            path: std::path::Path::new(path),
            bytes,
            named: true,
            // `hotfix lint PATH -e PATH`: a file given as an environment is one.
            given_environment: self.given_paths.contains(&stack),
            templates_only: false,
        };
        let files = self.files(&stack);
        let (name, diagnostics) = match lint_kind(None, &asked) {
            LintKind::K2hr3 => ("k2hr3", hotfix_linter::lint_k2hr3(text, settings)),
            LintKind::Environment => (
                "environment",
                hotfix_linter::lint_environment(path, bytes, settings, Some(&files)),
            ),
            LintKind::Template => (
                "template",
                hotfix_linter::lint_with_files(path, bytes, settings, Some(&files)),
            ),
            LintKind::Blueprint => {
                // What its local imports (or, for a fragment, its importers) declare.
                let mut settings = settings.clone();
                settings.blueprint_imports =
                    self.blueprints
                        .local_imports(std::path::Path::new(path), bytes, &self.roots);
                (
                    "blueprint",
                    hotfix_linter::lint_with_files(path, bytes, &settings, Some(&files)),
                )
            }
            LintKind::Skip(_) => ("other", Vec::new()),
        };
        Linted {
            kind: name,
            diagnostics,
        }
    }

    fn fix(
        &self,
        path: &str,
        text: &str,
        settings: &Settings,
        unsafe_fixes: bool,
    ) -> Result<Value, String> {
        let linted = self.lint(path, text, settings);
        if linted.kind != "template" {
            // Only templates have fixes.
            return Ok(json!({
                "text": text,
                "applied": 0,
                "findings": findings(path, text, &linted.diagnostics),
            }));
        }
        let stack = StackPath::new(path);
        let files = self.files(&stack);
        let outcome =
            hotfix_linter::fix_file_with_files(path, text, settings, unsafe_fixes, Some(&files))
                .map_err(|err| format!("cannot fix {path}: {err}"))?;
        Ok(json!({
            "text": outcome.text,
            "applied": outcome.applied.len(),
            "findings": findings(path, &outcome.text, &outcome.diagnostics),
        }))
    }
}

/// The settings of a request: the selections of `hotfix.toml`, by the same names.
fn settings(given: &Value) -> Result<Settings, String> {
    let selectors = |key: &str| -> Result<Vec<Selector>, String> {
        given[key]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|s| {
                s.as_str()
                    .and_then(Selector::parse)
                    .ok_or_else(|| format!("unknown rule selector {s} in `{key}`"))
            })
            .collect()
    };
    let heat_release = match given["heat_release"].as_str() {
        Some(name) if !name.is_empty() => {
            Some(HeatRelease::parse(name).map_err(|err| err.to_string())?)
        }
        _ => None,
    };
    Ok(Settings {
        select: selectors("select")?,
        extend_select: selectors("extend_select")?,
        ignore: selectors("ignore")?,
        heat_release,
        ..Settings::default()
    })
}

fn upgrade(path: &str, text: &str, to: &str, unsafe_fixes: bool) -> Result<Value, String> {
    let target = Version::parse(to).ok_or_else(|| format!("unknown version `{to}`"))?;
    let options = UpgradeOptions {
        target,
        unsafe_fixes,
        version_style: VersionStyle::Keep,
    };
    let upgraded = match hotfix_linter::upgrade::upgrade(text, &options) {
        Ok(upgraded) => upgraded,
        Err(err) => return Ok(json!({ "status": "failed", "message": err.to_string() })),
    };
    let (status, message) = match &upgraded.status {
        UpgradeStatus::AlreadyAtTarget { version } => (
            "unchanged",
            format!("already at {version}, at or above {target}"),
        ),
        UpgradeStatus::Upgraded { from, to } => ("upgraded", format!("upgraded {from} → {to}")),
        UpgradeStatus::Blocked {
            from,
            reached,
            blocked,
        } => (
            "blocked",
            format!(
                "upgraded {from} → {reached}; blocked at {} → {}: {}",
                blocked.step.0, blocked.step.1, blocked.blocker.diagnostic.message
            ),
        ),
    };
    Ok(json!({
        "status": status,
        "message": message,
        "text": upgraded.text,
        "findings": findings(path, &upgraded.text, &upgraded.diagnostics),
    }))
}

/// Every rule (its code, name, severity, whether it is in the default set, whether it can be
/// fixed, and its documentation in Markdown); the Heat releases (`heat_release`) and the
/// template versions (`to`) a request can name.
fn rules() -> Value {
    let rules: Vec<Value> = hotfix_linter::all_rules()
        .iter()
        .map(|rule| {
            json!({
                "code": rule.code,
                "name": rule.name,
                "severity": rule.severity.as_str(),
                "default": rule.default,
                "fix": rule.fix.as_str(),
                "doc": rule.documentation().trim(),
            })
        })
        .collect();
    let releases: Vec<&str> = HeatRelease::all().map(HeatRelease::series).collect();
    let versions: Vec<&str> = Version::ALL.iter().map(|v| v.date()).collect();
    json!({ "rules": rules, "releases": releases, "versions": versions })
}

/// The findings as `hotfix lint --format json` writes them.
fn findings(path: &str, source: &str, diagnostics: &[Diagnostic]) -> Vec<Value> {
    let lines = LineIndex::new(source);
    diagnostics
        .iter()
        .map(|d| json_finding(path, source, &lines, d, &str::to_owned))
        .collect()
}

/// Each finding's code frame, as `hotfix lint` draws it (without colour).
fn frames(path: &str, source: &str, diagnostics: &[Diagnostic]) -> Vec<String> {
    let lines = LineIndex::new(source);
    let options = RenderOptions {
        color: false,
        width: 100,
    };
    diagnostics
        .iter()
        .map(|d| render_human_indexed(d, path, source, &lines, options))
        .collect()
}
