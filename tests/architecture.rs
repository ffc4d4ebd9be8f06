//! The shape of the code (issue 28): no import circle between the files of `src/`, and no
//! process-global state in the workspace. Both are read from the source text: Rust's tokens
//! (comments, strings and characters skipped), the paths they spell and the `mod` items that
//! make files modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

mod common;

/// A token of Rust source, as far as paths and items need.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
}

/// The tokens of `text`: identifiers, `::` and single punctuation; comments, string, byte
/// string, raw string and character literals and numbers left out.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = past_string(&chars, i + 1);
        } else if (c == 'r' || (c == 'b' && at(i + 1) == 'r')) && raw_string_at(&chars, i) {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1; // the opening quote
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
        } else if c == 'b' && at(i + 1) == '"' {
            i = past_string(&chars, i + 2);
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let start = if c == 'b' { i + 1 } else { i };
            // A character literal ('x', '\n', '\u{1F600}'), else a lifetime.
            if at(start + 1) == '\\' {
                let mut j = start + 2;
                while j < chars.len() && chars[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if at(start + 2) == '\'' {
                i = start + 3;
            } else {
                // A lifetime (`'a`, `'static`): its name is no identifier of the code.
                i = start + 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Token::PathSep);
            i += 2;
        } else if c.is_whitespace() {
            i += 1;
        } else {
            out.push(Token::Punct(c));
            i += 1;
        }
    }
    out
}

/// The index past a string whose text starts at `i` (escapes honoured).
fn past_string(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// Whether a raw string (`r"…"`, `r#"…"#`, `br"…"`) starts at `i` (not an identifier such as
/// `r` or `bar`).
fn raw_string_at(chars: &[char], i: usize) -> bool {
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return false;
    }
    let mut j = i + if chars[i] == 'b' { 2 } else { 1 };
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    chars.get(j) == Some(&'"')
}

/// The paths spelt from `tokens[i]` on (`a::b::{c, d::e}` gives `a::b::c` and `a::b::d::e`),
/// and the index past them.
fn paths_at(tokens: &[Token], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    loop {
        match tokens.get(i) {
            Some(Token::Ident(name)) => {
                prefix.push(name.clone());
                i += 1;
            }
            Some(Token::Punct('{')) => {
                let mut out = Vec::new();
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some(Token::Punct('}')) | None => return (out, i + 1),
                        Some(Token::Ident(_) | Token::Punct('{')) => {
                            let (inner, next) = paths_at(tokens, i);
                            out.extend(inner.into_iter().map(|tail| {
                                let mut path = prefix.clone();
                                path.extend(tail);
                                path
                            }));
                            i = next;
                        }
                        // `,`, `*` and the like: skipped.
                        Some(_) => i += 1,
                    }
                }
            }
            _ => return (vec![prefix], i),
        }
        if tokens.get(i) == Some(&Token::PathSep) {
            i += 1;
        } else {
            // `a::b as c`: the alias is no part of the path.
            if tokens.get(i) == Some(&Token::Ident("as".to_owned())) {
                i += 2;
            }
            return (vec![prefix], i);
        }
    }
}

/// One file of a crate: its module path from the crate root (empty for the root).
#[derive(Debug)]
struct File {
    name: String,
    module: Vec<String>,
    text: String,
}

/// What the files of one crate refer to: for each file, the files whose items its paths name.
fn file_graph(files: &[File]) -> BTreeMap<String, BTreeSet<String>> {
    let by_module: BTreeMap<&[String], &str> = files
        .iter()
        .map(|f| (f.module.as_slice(), f.name.as_str()))
        .collect();
    // The names the crate root takes from other crates (`use hotfix_workspace::{paths, read}`):
    // `crate::read` names them, not the root's own items.
    let mut reexported = BTreeSet::new();
    for file in files.iter().filter(|f| f.module.is_empty()) {
        let tokens = tokens(&file.text);
        for (i, token) in tokens.iter().enumerate() {
            if *token != Token::Ident("use".to_owned()) {
                continue;
            }
            for path in paths_at(&tokens, i + 1).0 {
                let first = path.first().map(String::as_str);
                if !matches!(first, Some("crate" | "self" | "super"))
                    && path.len() > 1
                    && !by_module.contains_key(&path[..1])
                {
                    reexported.extend(path.last().cloned());
                }
            }
        }
    }
    let mut graph = BTreeMap::new();
    for file in files {
        let tokens = tokens(&file.text);
        let mut edges = BTreeSet::new();
        // Inline modules (`mod tests { … }`) open: (name, the brace depth inside them).
        let mut inline: Vec<(String, usize)> = Vec::new();
        let mut depth = 0;
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                Token::Punct('{') => depth += 1,
                Token::Punct('}') => {
                    if inline.last().is_some_and(|(_, d)| *d == depth) {
                        inline.pop();
                    }
                    depth -= 1;
                }
                Token::Ident(word) if word == "mod" => {
                    if let (Some(Token::Ident(name)), Some(Token::Punct('{'))) =
                        (tokens.get(i + 1), tokens.get(i + 2))
                    {
                        inline.push((name.clone(), depth + 1));
                    }
                }
                Token::Ident(_)
                    if (i == 0 || tokens[i - 1] != Token::PathSep)
                        && tokens.get(i + 1) == Some(&Token::PathSep) =>
                {
                    let (paths, next) = paths_at(&tokens, i);
                    let here: Vec<String> = file
                        .module
                        .iter()
                        .cloned()
                        .chain(inline.iter().map(|(name, _)| name.clone()))
                        .collect();
                    for path in paths {
                        if let Some(target) =
                            target(&path, &here, &file.module, &by_module, &reexported)
                            && target != file.name
                        {
                            edges.insert(target.to_owned());
                        }
                    }
                    // The group's braces were read with the paths.
                    i = next;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        graph.insert(file.name.clone(), edges);
    }
    graph
}

/// The file whose item `path` names, from the module `here` of the file of module `file`:
/// `None` for another crate's items, the standard library's and a file's own.
fn target<'f>(
    path: &[String],
    here: &[String],
    file: &[String],
    by_module: &BTreeMap<&[String], &'f str>,
    reexported: &BTreeSet<String>,
) -> Option<&'f str> {
    let mut absolute: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            absolute = Vec::new();
            rest = &path[1..];
        }
        Some("self" | "super") => {
            absolute = here.to_vec();
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "self" => {}
                    "super" => {
                        absolute.pop();
                    }
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        // A module declared in the file (`lint::LintArgs` in `main.rs`).
        Some(_) if here == file => {
            let mut child = file.to_vec();
            child.push(path[0].clone());
            if !by_module.contains_key(child.as_slice()) {
                return None;
            }
            absolute = file.to_vec();
        }
        _ => return None,
    }
    absolute.extend(rest.iter().cloned());
    // The longest prefix that is a file.
    let mut module = absolute.len();
    loop {
        if let Some(name) = by_module.get(&absolute[..module]) {
            // An item of the root that is another crate's, taken with `use`.
            if module == 0 && absolute.first().is_some_and(|n| reexported.contains(n)) {
                return None;
            }
            return Some(name);
        }
        module = module.checked_sub(1)?;
    }
}

/// The files of the crate whose root is `root` (`src/main.rs`, `src/lib.rs`), each with its
/// module path.
fn crate_files(src: &Path, root: &str) -> Vec<File> {
    common::snapshot_tree(src)
        .into_iter()
        .filter(|(relative, _)| relative.extension().is_some_and(|e| e == "rs"))
        .map(|(relative, bytes)| {
            let mut module: Vec<String> = relative
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if relative == Path::new(root) || module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            File {
                name: relative.to_string_lossy().into_owned(),
                module,
                text: String::from_utf8(bytes).expect("source files are UTF-8"),
            }
        })
        .collect()
}

/// A circle of the graph (its files, the first repeated at the end), if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth first; a file met again while on the path closes a circle.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut found = path[start..].to_vec();
            found.push(node.to_owned());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

fn file(name: &str, module: &[&str], text: &str) -> File {
    File {
        name: name.to_owned(),
        module: module.iter().map(|&m| m.to_owned()).collect(),
        text: text.to_owned(),
    }
}

#[test]
fn the_files_of_src_import_each_other_without_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = file_graph(&crate_files(&src, "main.rs"));
    // The graph is read, not empty: edges every version of the command line has.
    for (from, to) in [
        ("main.rs", "commands/lint.rs"),
        ("commands/lint.rs", "discover.rs"),
        ("commands/lint.rs", "output/mod.rs"),
        ("commands/upgrade.rs", "output/sarif.rs"),
        ("output/report.rs", "output/mod.rs"),
    ] {
        assert!(graph[from].contains(to), "{from} → {to}: {graph:#?}");
    }
    if let Some(found) = circle(&graph) {
        panic!(
            "an import circle between files of src/: {}",
            found.join(" → ")
        );
    }
}

#[test]
fn an_import_circle_is_found_however_it_is_spelt() {
    // What the graph is read from: `crate::`, `super::`, a group, a module declared in the
    // root, an item of the root; comments, strings and another crate's items are not edges.
    let files = [
        file(
            "main.rs",
            &[],
            "mod a; mod b; mod out;\nuse hotfix_workspace::read;\nfn main() { a::run(); }\npub(crate) fn width() -> usize { 1 }",
        ),
        file(
            "a.rs",
            &["a"],
            "use crate::{b::{self, B}, read};\n// crate::out::x\nconst S: &str = \"crate::out::x\";\nfn f<'a>(c: char) -> bool { c == '{' }\nmod tests { use super::*; }",
        ),
        file(
            "b.rs",
            &["b"],
            "pub(crate) fn g() -> usize { crate::width() }",
        ),
        file("out/mod.rs", &["out"], "pub(crate) mod x;"),
        file("out/x.rs", &["out", "x"], "use super::Thing;"),
    ];
    let graph = file_graph(&files);
    let edges = |name: &str| graph[name].iter().map(String::as_str).collect::<Vec<_>>();
    assert_eq!(edges("main.rs"), ["a.rs"]);
    assert_eq!(edges("a.rs"), ["b.rs"]);
    assert_eq!(edges("b.rs"), ["main.rs"]);
    assert_eq!(edges("out/x.rs"), ["out/mod.rs"]);
    assert!(edges("out/mod.rs").is_empty());
    assert_eq!(
        circle(&graph).expect("a circle"),
        ["a.rs", "b.rs", "main.rs", "a.rs"]
    );
    // Without the item of the root, no circle.
    let mut files = files;
    files[2].text = "pub(crate) fn g() -> usize { 1 }".to_owned();
    assert_eq!(circle(&file_graph(&files)), None);
}

/// The `static` items of the workspace that hold something built or changed while the
/// process runs, and why each is no run's state: (file, item, why).
const STATE_ALLOWED: &[(&str, &str, &str)] = &[
    (
        "crates/hotfix_hot/src/resource_types.rs",
        "TYPES",
        "Heat's resource types, decoded once from the data built in: every run's the same",
    ),
    (
        "crates/hotfix_hot/src/resource_types.rs",
        "RELEASES",
        "each older Heat's resource types, decoded once from the data built in",
    ),
    (
        "crates/hotfix_linter/src/rules/mod.rs",
        "REGISTRY",
        "the rules built in, sorted once",
    ),
    (
        "crates/hotfix_linter/src/upgrade/rules/mod.rs",
        "REGISTRY",
        "the upgrade rules built in, sorted once",
    ),
    (
        "crates/hotfix_linter/src/rules/crossfile/unmapped_resource_type.rs",
        "NAMESPACES",
        "the namespaces of the resource types built in",
    ),
    (
        "crates/hotfix_wasm/src/abi.rs",
        "OUTPUT",
        "the WebAssembly module's last answer, kept for its caller to read (its ABI's one slot)",
    ),
    (
        "crates/hotfix_yaml/src/document.rs",
        "thread_local!",
        "a thread's spare node list: memory for the next document, empty, no run's state",
    ),
    (
        "crates/hotfix_yaml/src/document.rs",
        "SPARE_NODES",
        "a thread's spare node list: memory for the next document, empty, no run's state",
    ),
];

/// The `static` items of a file whose type holds state (a lock, an atomic, a cell, a lazy
/// value), `thread_local!` and `static mut` included: (item, type).
fn stateful_statics(text: &str) -> Vec<(String, String)> {
    const STATEFUL: &[&str] = &[
        "Mutex", "RwLock", "Cell", "RefCell", "OnceCell", "OnceLock", "LazyLock", "LazyCell",
        "Lazy",
    ];
    let tokens = tokens(text);
    let mut found = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Ident(word) if word == "thread_local" => {
                found.push(("thread_local!".to_owned(), String::new()));
            }
            Token::Ident(word) if word == "static" => {
                let mut j = i + 1;
                let mutable = tokens.get(j) == Some(&Token::Ident("mut".to_owned()));
                if mutable {
                    j += 1;
                }
                let (Some(Token::Ident(name)), Some(Token::Punct(':'))) =
                    (tokens.get(j), tokens.get(j + 1))
                else {
                    continue;
                };
                let ty: Vec<String> = tokens[j + 2..]
                    .iter()
                    .take_while(|t| **t != Token::Punct('=') && **t != Token::Punct(';'))
                    .filter_map(|t| match t {
                        Token::Ident(word) => Some(word.clone()),
                        _ => None,
                    })
                    .collect();
                let stateful = ty
                    .iter()
                    .any(|w| STATEFUL.contains(&w.as_str()) || w.starts_with("Atomic"));
                if mutable || stateful {
                    found.push((name.clone(), ty.join(" ")));
                }
            }
            _ => {}
        }
    }
    found
}

#[test]
fn no_static_holds_a_run_s_state() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    hotfix_testkit::rust_files(&workspace.join("src"), &mut files);
    for entry in std::fs::read_dir(workspace.join("crates")).expect("list crates/") {
        let src = entry.expect("list crates/").path().join("src");
        if src.is_dir() {
            hotfix_testkit::rust_files(&src, &mut files);
        }
    }
    assert!(files.len() > 100, "{}", files.len());
    let mut seen = BTreeSet::new();
    let mut state = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(workspace)
            .expect("below the workspace")
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path).expect("read");
        for (item, ty) in stateful_statics(&text) {
            if STATE_ALLOWED
                .iter()
                .any(|(file, allowed, _)| *file == name && *allowed == item)
            {
                seen.insert((name.clone(), item));
            } else {
                state.push(format!("{name}: static {item}: {ty}"));
            }
        }
    }
    assert!(
        state.is_empty(),
        "process-global state (pass it as a value, or say in STATE_ALLOWED why it is no \
         run's):\n{}",
        state.join("\n")
    );
    // Each exception is still there, so that the list says what the code does.
    for (file, item, _) in STATE_ALLOWED {
        assert!(
            seen.contains(&((*file).to_owned(), (*item).to_owned())),
            "{file}: {item} is gone: drop it from STATE_ALLOWED"
        );
    }
}

#[test]
fn a_static_that_holds_state_is_found() {
    let text = "static A: Mutex<Vec<u8>> = Mutex::new(Vec::new());\nstatic B: &[&str] = &[\"x\"];\nstatic mut C: u8 = 0;\nstatic D: AtomicBool = AtomicBool::new(false);\nfn f() { static E: std::sync::OnceLock<u8> = std::sync::OnceLock::new(); }\nthread_local! { static F: u8 = 0; }\nfn g(s: &'static str) {}";
    let names: Vec<String> = stateful_statics(text)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(names, ["A", "C", "D", "E", "thread_local!"]);
}

/// `hotfix_linter`'s rules sit below what runs them: a rule's file imports, outside `rules/`, only
/// `rule.rs` (what a rule is and sees) and `settings.rs`, and neither of those names a rule
/// family, so the rules lie on no import circle with the registry, suppression, the upgrade, the
/// fixes or the crate root (inside `rules/`, a family's `mod.rs` and its rules import each
/// other).
#[test]
fn the_linter_s_rules_import_only_what_a_rule_is_from_outside_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/hotfix_linter/src");
    let graph = file_graph(&crate_files(&src, "lib.rs"));
    assert!(graph["registry.rs"].contains("rules/mod.rs"), "{graph:#?}");
    assert!(
        graph["rules/blueprint/mod.rs"].contains("rule.rs"),
        "{graph:#?}"
    );
    let below = ["rule.rs", "settings.rs"];
    let mut upward = Vec::new();
    for (from, to) in graph
        .iter()
        .flat_map(|(f, ts)| ts.iter().map(move |t| (f, t)))
    {
        let from_rules = from.starts_with("rules/");
        if (from_rules || below.contains(&from.as_str()))
            && !to.starts_with("rules/")
            && !below.contains(&to.as_str())
        {
            upward.push(format!("{from} → {to}"));
        }
        if below.contains(&from.as_str()) && to.starts_with("rules/") {
            upward.push(format!("{from} → {to}"));
        }
    }
    assert!(
        upward.is_empty(),
        "a rule, rule.rs or settings.rs names what runs the rules (or rule.rs/settings.rs a \
         rule): {upward:#?}"
    );
}
