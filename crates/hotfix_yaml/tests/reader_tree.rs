//! The tree built from hotfix's own reader (`parse_with_reader`) against the tree built from
//! `granit-parser` (`parse_unlimited`): every node (kind, value, style, tag, anchor, span), the
//! comments, and the refusal's text and span, on every YAML and JSON file of `testdata/` and
//! of `../shared/corpus` (issue 29). Each difference is listed.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hotfix_yaml::{Document, LoadError, NodeKind};

use common::workspace;

/// Everything the tree holds, one line a node.
fn dump(result: &Result<Document, LoadError>) -> Vec<String> {
    let doc = match result {
        Ok(doc) => doc,
        Err(err) => {
            return vec![format!(
                "error {:?} {:?}: {}",
                err.kind, err.span, err.message
            )];
        }
    };
    let mut lines = vec![format!(
        "root {:?}",
        doc.nodes().first().map(|_| doc.root())
    )];
    for (id, node) in doc.ids() {
        let mut line = format!("{id:?} {:?}", node.span);
        match &node.kind {
            NodeKind::Scalar(s) => {
                let _ = write!(line, " scalar {:?} {:?} {:?}", s.style, s.text, s.value);
            }
            NodeKind::Sequence { items, style } => {
                let _ = write!(line, " sequence {style:?} {items:?}");
            }
            NodeKind::Mapping { entries, style } => {
                let _ = write!(line, " mapping {style:?} {entries:?}");
            }
            NodeKind::Alias { target } => {
                let _ = write!(line, " alias {target:?}");
            }
        }
        let _ = write!(line, " anchor {:?} tag {:?}", node.anchor, node.tag);
        lines.push(line);
    }
    for comment in doc.comments() {
        lines.push(format!("comment {:?} {:?}", comment.span, comment.text));
    }
    lines
}

/// Why the two paths may differ, each checked against PyYAML:
/// - `nested sequence`: a compact nested sequence (`- - a`) starts at its own `-` in the
///   reader's tree, at its parent item's `-` in the `granit-parser` path's; PyYAML's node
///   `start_mark` is the reader's (`yaml.compose("k:\n  - - a\n    - b\n")`).
/// - `refusal text`: both refuse; the reader's text and mark are libyaml's own (the ones
///   `tests/reader.rs` compares with libyaml), the `granit-parser` path's its parser's
///   (`unexpected character`, `unclosed bracket`, ...).
const EXPLAINED: [&str; 2] = ["nested sequence", "refusal text"];

/// How the trees of `text` differ: `Ok(None)` the same, `Ok(Some(why))` an explained
/// difference, `Err(first difference)` an unexplained one.
fn difference(text: &str) -> Result<Option<&'static str>, String> {
    let old = dump(&hotfix_yaml::parse_unlimited(text));
    let new = dump(&hotfix_yaml::parse_with_reader(text));
    if old == new {
        return Ok(None);
    }
    let unexplained = |at: usize| {
        format!(
            "granit: {}\n  reader: {}",
            old.get(at).map_or("(none)", String::as_str),
            new.get(at).map_or("(none)", String::as_str)
        )
    };
    if old.len() == 1
        && new.len() == 1
        && old[0].starts_with("error Syntax")
        && new[0].starts_with("error Syntax")
    {
        return Ok(Some(EXPLAINED[1]));
    }
    if old.len() != new.len() {
        return Err(unexplained(
            old.iter()
                .zip(&new)
                .position(|(a, b)| a != b)
                .unwrap_or(old.len().min(new.len())),
        ));
    }
    for (at, (a, b)) in old.iter().zip(&new).enumerate() {
        if a != b && !nested_sequence(text, a, b) {
            return Err(unexplained(at));
        }
    }
    Ok(Some(EXPLAINED[0]))
}

/// Whether two dump lines are the same block sequence, the old one started at the `-` of the
/// item that holds the new one (`- - a`).
fn nested_sequence(text: &str, old: &str, new: &str) -> bool {
    let span = |line: &str| -> Option<(usize, usize, String)> {
        let (id, rest) = line.split_once(' ')?;
        let (range, rest) = rest.split_once(' ')?;
        let (start, end) = range.split_once("..")?;
        Some((
            start.parse().ok()?,
            end.parse().ok()?,
            format!("{id} {rest}"),
        ))
    };
    let (Some((old_start, old_end, old_rest)), Some((new_start, new_end, new_rest))) =
        (span(old), span(new))
    else {
        return false;
    };
    let bytes = text.as_bytes();
    old_rest == new_rest
        && old_end == new_end
        && old_rest.contains(" sequence Block ")
        && old_start < new_start
        && bytes[old_start] == b'-'
        && bytes[new_start] == b'-'
        && bytes[old_start + 1..new_start]
            .iter()
            .all(|&b| matches!(b, b' ' | b'\t'))
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| matches!(e.to_str(), Some("yaml" | "yml" | "json" | "template")))
        {
            out.push(path);
        }
    }
}

/// Over the YAML and JSON files under `dir`: how many were read, how many differ for each
/// explained reason, and every unexplained difference.
#[allow(
    clippy::print_stderr,
    reason = "the counts of explained differences are the test's report (`--nocapture`)"
)]
fn differences(dir: &Path) -> (usize, [usize; 2], Vec<String>) {
    let mut files = Vec::new();
    yaml_files(dir, &mut files);
    files.sort();
    let mut unexplained = Vec::new();
    let mut explained = [0; 2];
    let mut read = 0;
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(text) = hotfix_yaml::check_bytes(&bytes) else {
            continue;
        };
        read += 1;
        match difference(text) {
            Ok(None) => {}
            Ok(Some(why)) => explained[EXPLAINED.iter().position(|w| *w == why).unwrap_or(0)] += 1,
            Err(diff) => unexplained.push(format!("{}:\n  {diff}", path.display())),
        }
    }
    eprintln!(
        "{}: {read} files, {} differ ({} {}, {} {}), {} unexplained",
        dir.display(),
        explained[0] + explained[1] + unexplained.len(),
        explained[0],
        EXPLAINED[0],
        explained[1],
        EXPLAINED[1],
        unexplained.len()
    );
    (read, explained, unexplained)
}

#[test]
fn reader_builds_the_same_tree_on_testdata() {
    let (read, _, found) = differences(&workspace().join("testdata"));
    assert!(read > 100, "expected the testdata files, read {read}");
    assert!(
        found.is_empty(),
        "{} of {read} files differ:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_reader_builds_the_same_tree_on_the_corpus() {
    let shared = std::env::var_os("HOTFIX_SHARED")
        .map_or_else(|| workspace().join("../shared"), PathBuf::from);
    let corpus = shared.join("corpus");
    assert!(corpus.is_dir(), "no corpus at {}", corpus.display());
    let (read, _, found) = differences(&corpus);
    assert!(read > 1000, "expected the corpus files, read {read}");
    assert!(
        found.is_empty(),
        "{} of {read} files differ:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn reader_builds_the_same_tree_on_fixed_cases() {
    let cases = [
        "a: 1\nb: [x, {y: z}]\n",
        "key: |\n  lit\n  more\n\nnext: >-\n  folded\n",
        "a: &x\n  b: 1\nc: *x\nd: !!str 12\n",
        "- a\n- - b\n  - c\n",
        "k:\n- a\n- b # note\n# after\n",
        "a: &x 1\nb: &x 2\n",
        "a: *y\n",
        "a: 1\n---\nb: 2\n",
        "a: !!seq {}\n",
        "a: {b: [1, 2}\n",
        "? complex\n: value\n",
        "a: ! '12'\nb: !\nc: &n\n",
        "<<: {a: 1}\nb: 2\n",
        "k:\n  - ''\n  - - {a: b}\n    - c\n",
        "k:\n- ''\n- - {a: b}\n  - c\n",
        "k: [x, a: b]\n",
        "k:\n  - a\n  -\n",
        "a: !!str\nb: !!null\nc: !\nd: &x\ne: [a: , b:]\nf: {a: , b}\n",
        "a:   # note\nb: x\n",
        "k: [[a]: b, {c: d}: e]\n",
    ];
    let deep_flow = format!("a: {}{}\n", "[".repeat(250), "]".repeat(250));
    let deep_block: String = (0..250).fold(String::new(), |mut text, i| {
        let _ = writeln!(text, "{}k:", " ".repeat(i));
        text
    });
    let mut found = Vec::new();
    for case in cases
        .into_iter()
        .chain(["\u{feff}%FOO x\n---\na: 1\n", "\u{feff}a: 1\n"])
        .chain([deep_flow.as_str(), deep_block.as_str()])
    {
        if let Err(diff) = difference(case) {
            found.push(format!("{case:?}:\n  {diff}"));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The explained differences, each once.
    assert_eq!(difference("a: {b: [1, 2}\n"), Ok(Some("refusal text")));
    assert_eq!(
        difference("k:\n  - - {a: b}\n    - c\n"),
        Ok(Some("nested sequence"))
    );
    assert_eq!(difference("k:\n  - a\n  -\n"), Ok(None));
    // Where the reader's path is right and granit's is not: `...` before any document is
    // refused by libyaml and by PyYAML's pure loader, whose refusal Heat reports (`while
    // parsing a block node`); the granit path loads an empty document.
    let err = hotfix_yaml::parse_with_reader("...\n").expect_err("Heat refuses `...` alone");
    assert_eq!(
        err.message,
        "invalid YAML: while parsing a block node: expected the node content, but found '<document end>'"
    );
}
