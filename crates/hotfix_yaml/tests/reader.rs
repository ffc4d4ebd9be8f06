//! hotfix's own YAML reader (`hotfix_yaml::reader`) against libyaml itself: every event, with
//! its marks, anchor, tag, value, style and implicit flags, and every refusal with libyaml's
//! context, problem and marks, as PyYAML 6.0.3's `CParser` (libyaml 0.2.5, under Heat's
//! `CSafeLoader`) gives them through `scripts/yaml_events.py`.
//!
//! - `shared_reader_reads_the_corpus_as_libyaml_does`: every `.yaml`, `.yml`, `.json` file of
//!   `../shared/corpus` and `testdata/`.
//! - `heat_reader_reads_generated_documents_as_libyaml_does`: the documents of the YAML
//!   differential test (`scripts/yaml_diff.py`), seed 25, 20,000 of them; the long run:
//!
//! ```text
//! HOTFIX_YAMLDIFF_COUNT=200000 cargo test -p hotfix_yaml --release --test reader \
//!     -- --ignored --nocapture heat_reader
//! ```
//!
//! (`HOTFIX_YAMLDIFF_SEED` picks another stream, `HOTFIX_YAMLDIFF_START` its first document.)
//! - `heat_reader_reads_the_fixed_cases_as_libyaml_does`: the inputs of the differential test's
//!   known differences and of issue 25, asked of libyaml one by one.
//! - The same three for the reader's pure mode ([`Parser::pure`]) against PyYAML's pure-Python
//!   parser (`yaml_events.py --pure`), with the cases where the two rule sets differ
//!   (`PURE_CASES`); the long run:
//!
//! ```text
//! HOTFIX_YAMLDIFF_COUNT=200000 cargo test -p hotfix_yaml --release --test reader \
//!     -- --ignored --nocapture heat_reader_pure
//! ```
//!
//! - The tests without `heat_`/`shared_` need no Python: values found by running libyaml and
//!   PyYAML.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use hotfix_yaml::ScalarStyle;
use hotfix_yaml::reader::{ErrorKind, Event, EventKind, Mark, Parser, Property, ReadError};
use serde_json::{Value, json};

use common::{env_number, python, workspace};

fn mark(m: Mark) -> Value {
    json!([m.offset, m.line, m.column])
}

fn error(err: &ReadError) -> Value {
    let kind = match err.kind {
        ErrorKind::Reader => "reader",
        ErrorKind::Scanner => "scanner",
        ErrorKind::Parser => "parser",
    };
    let problem_mark = if err.kind == ErrorKind::Reader {
        json!([err.problem_mark.offset, null, null])
    } else {
        mark(err.problem_mark)
    };
    json!({
        "kind": kind,
        "context": err.context,
        "context_mark": err.context_mark.map(mark),
        "problem": err.problem,
        "problem_mark": problem_mark,
    })
}

/// One event in `yaml_events.py`'s form: `[KIND, START, END, ANCHOR, TAG, VALUE, STYLE,
/// IMPLICIT, FLOW]`.
fn event_json(event: &Event<'_>) -> Value {
    let prop = |p: &Option<Box<Property<'_>>>| p.as_ref().map_or(Value::Null, |p| json!(p.text));
    let mut row = vec![Value::Null; 9];
    row[1] = mark(event.start);
    row[2] = mark(event.end);
    let kind = match &event.kind {
        EventKind::StreamStart => "StreamStart",
        EventKind::StreamEnd => "StreamEnd",
        EventKind::DocumentStart { implicit } => {
            row[7] = json!(implicit);
            "DocumentStart"
        }
        EventKind::DocumentEnd { implicit } => {
            row[7] = json!(implicit);
            "DocumentEnd"
        }
        EventKind::Alias { anchor } => {
            row[3] = json!(anchor);
            "Alias"
        }
        EventKind::Scalar {
            anchor,
            tag,
            value,
            style,
            plain_implicit,
            quoted_implicit,
        } => {
            row[3] = prop(anchor);
            row[4] = prop(tag);
            row[5] = json!(value);
            row[6] = json!(match style {
                ScalarStyle::Plain => "",
                ScalarStyle::SingleQuoted => "'",
                ScalarStyle::DoubleQuoted => "\"",
                ScalarStyle::Literal => "|",
                ScalarStyle::Folded => ">",
            });
            row[7] = json!([plain_implicit, quoted_implicit]);
            "Scalar"
        }
        EventKind::SequenceStart {
            anchor,
            tag,
            implicit,
            flow,
        }
        | EventKind::MappingStart {
            anchor,
            tag,
            implicit,
            flow,
        } => {
            row[3] = prop(anchor);
            row[4] = prop(tag);
            row[7] = json!(implicit);
            row[8] = json!(flow);
            if matches!(event.kind, EventKind::SequenceStart { .. }) {
                "SequenceStart"
            } else {
                "MappingStart"
            }
        }
        EventKind::SequenceEnd => "SequenceEnd",
        EventKind::MappingEnd => "MappingEnd",
    };
    row[0] = json!(kind);
    Value::Array(row)
}

/// The events and the refusal (or null), in `yaml_events.py`'s form.
fn ours(text: &str, pure: bool) -> (Vec<Value>, Value) {
    let mut events = Vec::new();
    let parser = if pure {
        Parser::pure(text)
    } else {
        Parser::new(text)
    };
    for event in parser {
        match event {
            Ok(event) => events.push(event_json(&event)),
            Err(err) => return (events, error(&err)),
        }
    }
    (events, Value::Null)
}

/// The first difference between libyaml's answer (`record`) and ours, if any; with `pure`,
/// PyYAML's pure parser's and ours in pure mode.
fn difference(text: &str, record: &Value, pure: bool) -> Option<String> {
    let (events, mut err) = ours(text, pure);
    // An error of Python's own (`chr()` past U+10FFFF): its text only.
    if record["error"]["kind"] == json!("value") && err["problem"] == record["error"]["problem"] {
        err = record["error"].clone();
    }
    let expected = record["events"].as_array().expect("events");
    for (i, (a, b)) in expected.iter().zip(&events).enumerate() {
        if a != b {
            return Some(format!("event {i}:\n  libyaml: {a}\n  hotfix:  {b}"));
        }
    }
    if expected.len() != events.len() || record["error"] != err {
        let next = |list: &[Value]| list.get(expected.len().min(events.len())).cloned();
        return Some(format!(
            "after {} events:\n  libyaml: {:?} error {}\n  hotfix:  {:?} error {}",
            expected.len().min(events.len()),
            next(expected),
            record["error"],
            next(&events),
            err
        ));
    }
    None
}

fn run_script(args: &[&str], pure: bool) -> std::process::Child {
    Command::new(python())
        .arg(workspace().join("scripts/yaml_events.py"))
        .args(pure.then_some("--pure"))
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("run scripts/yaml_events.py")
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's Python; run by scripts/test.sh beside ../shared"]
fn shared_reader_reads_the_corpus_as_libyaml_does() {
    corpus(false);
}

#[test]
#[ignore = "needs ../shared/corpus and Heat's Python; run by scripts/test.sh beside ../shared"]
fn shared_reader_pure_reads_the_corpus_as_pyyaml_does() {
    corpus(true);
}

#[allow(
    clippy::print_stderr,
    reason = "the long run reports its counts on the terminal"
)]
fn corpus(pure: bool) {
    let shared = hotfix_testkit::shared();
    let corpus = shared.join("corpus");
    assert!(corpus.is_dir(), "no corpus at {}", corpus.display());
    let testdata = workspace().join("testdata");
    let mut child = run_script(
        &[
            "files",
            corpus.to_str().expect("a UTF-8 path"),
            testdata.to_str().expect("a UTF-8 path"),
        ],
        pure,
    );
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (mut files, mut refused) = (0, 0);
    let mut failures = Vec::new();
    for line in stdout.lines() {
        let record: Value = serde_json::from_str(&line.expect("a line")).expect("JSON");
        let path = record["path"].as_str().expect("path");
        let text = std::fs::read_to_string(path).expect("read a file");
        files += 1;
        refused += usize::from(!record["error"].is_null());
        if let Some(diff) = difference(&text, &record, pure) {
            failures.push(format!("{path}: {diff}"));
        }
    }
    assert!(
        child.wait().expect("wait").success(),
        "yaml_events.py failed"
    );
    assert!(files > 1000, "only {files} files read");
    let (theirs, rules) = if pure {
        ("PyYAML's pure parser", "reader (pure mode)")
    } else {
        ("libyaml", "reader")
    };
    eprintln!(
        "{rules} vs {theirs}: {files} files ({refused} refused by {theirs}), {} differ",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {files} files read differently:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
#[ignore = "needs Heat's Python (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_reader_reads_generated_documents_as_libyaml_does() {
    generated(false);
}

#[test]
#[ignore = "needs Heat's Python (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_reader_pure_reads_generated_documents_as_pyyaml_does() {
    generated(true);
}

#[allow(
    clippy::print_stderr,
    reason = "the long run reports its counts on the terminal"
)]
fn generated(pure: bool) {
    let seed = env_number("HOTFIX_YAMLDIFF_SEED", 25);
    let count = env_number("HOTFIX_YAMLDIFF_COUNT", 20_000);
    let start = env_number("HOTFIX_YAMLDIFF_START", 0);
    let mut child = run_script(
        &[
            "gen",
            &seed.to_string(),
            &count.to_string(),
            &start.to_string(),
        ],
        pure,
    );
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (mut read, mut refused) = (0u64, 0u64);
    let mut failures = Vec::new();
    let mut different = 0u64;
    for line in stdout.lines() {
        let record: Value = serde_json::from_str(&line.expect("a line")).expect("JSON");
        let text = record["yaml"].as_str().expect("yaml");
        read += 1;
        refused += u64::from(!record["error"].is_null());
        if let Some(diff) = difference(text, &record, pure) {
            different += 1;
            if failures.len() < 8 {
                failures.push(format!("document {} {text:?}: {diff}", record["i"]));
            }
        }
    }
    assert!(
        child.wait().expect("wait").success(),
        "yaml_events.py failed"
    );
    assert_eq!(
        read, count,
        "yaml_events.py wrote {read} documents of {count}"
    );
    let (theirs, rules) = if pure {
        ("PyYAML's pure parser", "reader (pure mode)")
    } else {
        ("libyaml", "reader")
    };
    eprintln!(
        "{rules} vs {theirs}, seed {seed}, documents {start}..{}: {refused} refused by {theirs}; {different} differ",
        start + count
    );
    assert!(
        failures.is_empty(),
        "{different} of {count} documents read differently:\n{}",
        failures.join("\n")
    );
}

/// The inputs of `tests/differential.rs`'s known differences and issue 25's YAML cases.
const FIXED_CASES: &[&str] = &[
    "a: \"x\u{2028}y\"\n",
    "a: x\u{2029}  y\n",
    "a: \"\\ud83d\"\n",
    "a: &x:y \"\n",
    "a: \u{feff}b\n",
    "&a !!value : *a\n",
    "<<: !x {a: 1}\n",
    "a: &x\n  <<: *x\n",
    "a: [?, :]\n",
    "{a: [x:,], b: 2001-12-14}\n",
    "list_join: [-, [a, b]]\n",
    "{b: -}\n",
    "a: |+\n  x",
    "a: |\n  x",
    "a: x\u{85}b: y\n",
    "a: b\n\t\n",
    "- |2\n   x\n",
    "a:\n  - |1\n  x\n",
    "a: 'x\n\n  y'\n",
    "a: \"x\\\n  y\"\n",
    "? a\n: b\n",
    "%YAML 1.1\n%TAG !e! tag:e,2000:\n--- !e!x a\n",
    "a: !<tag:x> b\n",
    "a: !%41 b\n",
    "\u{feff}a: 1\n",
    "a: 1\n--- b\n",
    "[a, b]: c\n",
    "a: b: c\n",
    "- a\nb: c\n",
    "a: \x01\n",
    "%TAG !e! tag:%C3%A9,2000:\n--- !e!x%41 a\n",
    "%TAG !e! tag:%C3,2000:\n--- a\n",
    "a: !e!x b\n",
    "{a: 1, b: [2, {c: d}], ? e}\n",
    "- \ta\n",
    "a:\n\t- b\n",
    "'a\n...\n'\n",
    "a: 'b\n---\n'\n",
    "[a\n: b]\n",
    "key\n: value\n",
];

/// Where PyYAML's pure-Python rules and libyaml's differ (each read by both modes).
const PURE_CASES: &[&str] = &[
    "a: b\tc\n",
    "a:\tb\n",
    "a: b \t\n",
    "a: 1 \t# c\n",
    "- \ta\n",
    "a: |#\n x\n",
    "- |\t# c\n  x\n",
    "a: |  # c\n x\n",
    "a: |\n  \tx\n",
    "a: |2\n  \tx\n",
    "a: [!!str, a]\n",
    "a: !x\tb\n",
    "a: !a.b!c x\n",
    "a: !<tag:x> b\n",
    "a: !<tag:x\n",
    "a: ! b\n",
    "a: !\tb\n",
    "a: !!%C3%A9 b\n",
    "a: !!%C3 b\n",
    "a: !!%C3%41 b\n",
    "a: !!%80 b\n",
    "a: !!%E0%A0 b\n",
    "a: !!%F0%90%41 b\n",
    "a: !!x%C3 b\n",
    "a: !!%4 b\n",
    "a: !! b\n",
    "a: !e! b\n",
    "- ! [a]\n- ! {a: b}\n",
    "%FOO bar\n--- a\n",
    "%FOO\t\n--- a\n",
    "%YAML 1.3\n--- a\n",
    "%YAML 2.0\n--- a\n",
    "%YAML 1.1\n%YAML 1.1\n--- a\n",
    "%YAML 1.1\t# c\n--- a\n",
    "%YAML 1.12345678901\n--- a\n",
    "%YAML 1\n--- a\n",
    "%YAML a\n--- a\n",
    "%TAG !e! tag:e,2000:\n%TAG !e! tag:f,2000:\n--- !e!x a\n",
    "%TAG !e tag:e\n--- a\n",
    "%TAG !e!\ttag:e\n--- a\n",
    "%TAG !e! \n--- a\n",
    "%TA%G x\n--- a\n",
    "--- !f!x a\n",
    "{a:,}\n",
    "{a:{}}\n",
    "a: {b:{}}\n",
    "[a?b]\n",
    "[x:?]\n",
    "{a: [x:,], b: 2001-12-14}\n",
    "a: [?, :]\n",
    "a: [? x, ? : y, ?]\n",
    "{? : x, ?, a: }\n",
    "[a: , b:]\n",
    "a: \"\\ud83d\"\n",
    "a: \"\\ud83d\\ude00\"\n",
    "a: \"\\ude00\"\n",
    "a: \"\\U0000d83d\\U0000de00\"\n",
    "a: \"\\U00110000\"\n",
    "a: \"\\x\"\n",
    "a: \"\\u12\"\n",
    "a: \"x\\'y\"\n",
    "a: \"x\\\u{e9}\"\n",
    "a: 'x\n---\n'\n",
    "a: 1\n\u{feff}b: 2\n",
    "\u{feff}a: 1\n",
    "\u{feff}\u{feff}a: 1\n",
    "a: \u{feff}b\n",
    "a: b\u{feff}: c\n",
    "&x\u{feff} a\n",
    "a: &\u{e9} b\n",
    "a: *\n",
    "a: b\n]\n",
    "a: ]\n",
    "a: b\n\t\n",
    "a:\n  b\n\tc\n",
    "? a\n:\tb\n",
    "a: 'x\ty'\n",
    "a: \"x\t\n\ty\"\n",
    "a: |\n  x\n\ty\n",
    "key: \u{1}\n",
    "key: \u{85}x\n",
    "- a\n- b\n  c\n",
    "a: b\n...\nc: d\n",
    "a: b\n--- c\n",
    "a: x\u{2028}  y\n",
    "a: \"x\u{2029}y\"\n",
    "a: @b\n",
    "a: `b\n",
    "[a, - b]\n",
    "{a: b, - c}\n",
    "a: - b\n",
    "a: ? b\n",
];

#[test]
#[ignore = "needs Heat's Python (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_reader_reads_the_fixed_cases_as_libyaml_does() {
    fixed(false);
}

#[test]
#[ignore = "needs Heat's Python (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_reader_pure_reads_the_fixed_cases_as_pyyaml_does() {
    fixed(true);
}

fn fixed(pure: bool) {
    let mut child = Command::new(python())
        .arg(workspace().join("scripts/yaml_events.py"))
        .args(pure.then_some("--pure"))
        .arg("oracle")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run scripts/yaml_events.py oracle");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut failures = Vec::new();
    // A simple key of 1,024 characters and one of 1,025, with `?` and without.
    let mut cases: Vec<String> = FIXED_CASES
        .iter()
        .chain(PURE_CASES)
        .map(|&c| c.to_owned())
        .collect();
    for n in [1023, 1024, 1025, 1100] {
        cases.push(format!("{}: b\n", "a".repeat(n)));
        cases.push(format!("{{{}: b}}\n", "a".repeat(n)));
        cases.push(format!("- {}é: b\n", "é".repeat(n)));
        // Byte-order marks take no column in pure mode, but count in a key's length.
        cases.push(format!("{}\u{feff}\u{feff}: b\n", "a".repeat(n - 1)));
    }
    for text in &cases {
        writeln!(stdin, "{}", json!({ "yaml": text })).expect("write");
        stdin.flush().expect("flush");
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read");
        let record: Value = serde_json::from_str(&line).expect("JSON");
        if let Some(diff) = difference(text, &record, pure) {
            failures.push(format!("{text:?}: {diff}"));
        }
    }
    drop(stdin);
    let _ = child.wait();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The scalars read, with their byte spans, or libyaml's refusal.
fn scalars(text: &str) -> Result<Vec<(usize, usize, String)>, String> {
    read(Parser::new(text))
}

/// As [`scalars`], with PyYAML's pure-Python rules.
fn pure_scalars(text: &str) -> Result<Vec<(usize, usize, String)>, String> {
    read(Parser::pure(text))
}

fn read(parser: Parser<'_>) -> Result<Vec<(usize, usize, String)>, String> {
    let mut out = Vec::new();
    for event in parser {
        let event = event.map_err(|err| format!("{err} at {}", err.problem_mark.offset))?;
        if let EventKind::Scalar { value, .. } = event.kind {
            out.push((event.start.offset, event.end.offset, value.into_owned()));
        }
    }
    Ok(out)
}

fn owned(list: &[(usize, usize, &str)]) -> Vec<(usize, usize, String)> {
    list.iter().map(|&(s, e, v)| (s, e, v.to_owned())).collect()
}

/// Answers of libyaml 0.2.5 (`scripts/yaml_events.py oracle`), without Python.
#[test]
fn reader_reads_what_libyaml_reads() {
    // Issue 25: a plain `-` before a flow indicator.
    assert_eq!(
        scalars("a: [-, x]\n"),
        Ok(owned(&[(0, 1, "a"), (4, 5, "-"), (7, 8, "x")]))
    );
    // An escaped tab, then a line folded to a space.
    assert_eq!(
        scalars("a: \"x\\ty\n  z\"\n"),
        Ok(owned(&[(0, 1, "a"), (3, 13, "x\ty z")]))
    );
    // An anchor's name ends at `:`; the plain scalar after it takes the quote.
    assert_eq!(
        scalars("k: &x:y \"\n"),
        Ok(owned(&[(0, 1, "k"), (3, 9, ":y \"")]))
    );
    // A block scalar at the end of the text without a line break keeps none, even with `+`.
    assert_eq!(
        scalars("a: |+\n  x"),
        Ok(owned(&[(0, 1, "a"), (3, 9, "x")]))
    );
    // LS in a quoted scalar is a line break kept as itself.
    assert_eq!(
        scalars("a: \"x\u{2028}y\"\n"),
        Ok(owned(&[(0, 1, "a"), (3, 10, "x\u{2028}y")]))
    );
}

/// The scanner's short path for a plain scalar (ASCII words and spaces on one line, up to `: `,
/// ` #`, the text's end, or the line's end before a line indented less) and the cases just
/// outside it, which take the long path: answers of libyaml 0.2.5 and of PyYAML's pure parser.
#[test]
fn a_plain_scalars_short_paths_read_as_libyaml_and_pyyaml_do() {
    type Answer = Result<Vec<(usize, usize, String)>, String>;
    let libyaml: &[(&str, Answer)] = &[
        ("a: b\nc: d", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (5, 6, "c"), (8, 9, "d")]))),
        ("a:\n  b: c\n  d\ne: f\n", Err("while scanning a simple key: could not find expected ':' at 14".to_owned())),
        ("a: b\n  c\nd: e\n", Ok(owned(&[(0, 1, "a"), (3, 8, "b c"), (9, 10, "d"), (12, 13, "e")]))),
        ("a: b\n\n  c\n", Ok(owned(&[(0, 1, "a"), (3, 9, "b\nc")]))),
        ("a: b\n\tc: d\n", Err("while scanning a plain scalar: found a tab character that violates indentation at 5".to_owned())),
        ("a: b\n  # x\nc: d\n", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (11, 12, "c"), (14, 15, "d")]))),
        ("a: b \nc: d\n", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (6, 7, "c"), (9, 10, "d")]))),
        ("a: b\r\nc: d\r\n", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (6, 7, "c"), (9, 10, "d")]))),
        ("- a\n- b:c\n", Ok(owned(&[(2, 3, "a"), (6, 9, "b:c")]))),
        ("a: b\n   \nc: d", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (9, 10, "c"), (12, 13, "d")]))),
        ("ab:\tc\n", Ok(owned(&[(0, 2, "ab"), (4, 5, "c")]))),
        ("key: value\n  more: x\n", Err("mapping values are not allowed in this context at 17".to_owned())),
        ("a:\n  b: c\n d\n", Err("while parsing a block mapping: did not find expected key at 11".to_owned())),
        ("x\ny\n", Ok(owned(&[(0, 3, "x y")]))),
        ("a: b\n  c:\n", Err("mapping values are not allowed in this context at 8".to_owned())),
        ("a b: c d\ne: f g\n", Ok(owned(&[(0, 3, "a b"), (5, 8, "c d"), (9, 10, "e"), (12, 15, "f g")]))),
        ("a: b c # d\ne: f\n", Ok(owned(&[(0, 1, "a"), (3, 6, "b c"), (11, 12, "e"), (14, 15, "f")]))),
        ("a b : c\n", Ok(owned(&[(0, 3, "a b"), (6, 7, "c")]))),
        ("a: b  c\n  d e\nf: g\n", Ok(owned(&[(0, 1, "a"), (3, 13, "b  c d e"), (14, 15, "f"), (17, 18, "g")]))),
        ("a: b c\t\nd: e\n", Ok(owned(&[(0, 1, "a"), (3, 6, "b c"), (8, 9, "d"), (11, 12, "e")]))),
        ("a: b c \nd: e\n", Ok(owned(&[(0, 1, "a"), (3, 6, "b c"), (8, 9, "d"), (11, 12, "e")]))),
        ("a: b:c d:e\n", Ok(owned(&[(0, 1, "a"), (3, 10, "b:c d:e")]))),
        ("- a b\n- c d", Ok(owned(&[(2, 5, "a b"), (8, 11, "c d")]))),
        ("a: b #c\n", Ok(owned(&[(0, 1, "a"), (3, 4, "b")]))),
        ("a: b c\n\td: e\n", Err("while scanning a plain scalar: found a tab character that violates indentation at 7".to_owned())),
        ("a:\n  b: c d\n e\n", Err("while parsing a block mapping: did not find expected key at 13".to_owned())),
    ];
    for (text, answer) in libyaml {
        assert_eq!(&scalars(text), answer, "libyaml: {text:?}");
    }
    let pure: &[(&str, Answer)] = &[
        ("a: b\nc: d", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (5, 6, "c"), (8, 9, "d")]))),
        ("a:\n  b: c\n  d\ne: f\n", Err("while scanning a simple key: could not find expected ':' at 14".to_owned())),
        ("a: b\n  c\nd: e\n", Ok(owned(&[(0, 1, "a"), (3, 8, "b c"), (9, 10, "d"), (12, 13, "e")]))),
        ("a: b\n\n  c\n", Ok(owned(&[(0, 1, "a"), (3, 9, "b\nc")]))),
        ("a: b\n\tc: d\n", Err("while scanning for the next token: found character '\\t' that cannot start any token at 5".to_owned())),
        ("a: b\n  # x\nc: d\n", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (11, 12, "c"), (14, 15, "d")]))),
        ("a: b \nc: d\n", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (6, 7, "c"), (9, 10, "d")]))),
        ("a: b\r\nc: d\r\n", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (6, 7, "c"), (9, 10, "d")]))),
        ("- a\n- b:c\n", Ok(owned(&[(2, 3, "a"), (6, 9, "b:c")]))),
        ("a: b\n   \nc: d", Ok(owned(&[(0, 1, "a"), (3, 4, "b"), (9, 10, "c"), (12, 13, "d")]))),
        ("ab:\tc\n", Err("while scanning for the next token: found character '\\t' that cannot start any token at 3".to_owned())),
        ("key: value\n  more: x\n", Err("mapping values are not allowed here at 17".to_owned())),
        ("a:\n  b: c\n d\n", Err("while parsing a block mapping: expected <block end>, but found '<scalar>' at 11".to_owned())),
        ("x\ny\n", Ok(owned(&[(0, 3, "x y")]))),
        ("a: b\n  c:\n", Err("mapping values are not allowed here at 8".to_owned())),
        ("a b: c d\ne: f g\n", Ok(owned(&[(0, 3, "a b"), (5, 8, "c d"), (9, 10, "e"), (12, 15, "f g")]))),
        ("a: b c # d\ne: f\n", Ok(owned(&[(0, 1, "a"), (3, 6, "b c"), (11, 12, "e"), (14, 15, "f")]))),
        ("a b : c\n", Ok(owned(&[(0, 3, "a b"), (6, 7, "c")]))),
        ("a: b  c\n  d e\nf: g\n", Ok(owned(&[(0, 1, "a"), (3, 13, "b  c d e"), (14, 15, "f"), (17, 18, "g")]))),
        ("a: b c\t\nd: e\n", Err("while scanning for the next token: found character '\\t' that cannot start any token at 6".to_owned())),
        ("a: b c \nd: e\n", Ok(owned(&[(0, 1, "a"), (3, 6, "b c"), (8, 9, "d"), (11, 12, "e")]))),
        ("a: b:c d:e\n", Ok(owned(&[(0, 1, "a"), (3, 10, "b:c d:e")]))),
        ("- a b\n- c d", Ok(owned(&[(2, 5, "a b"), (8, 11, "c d")]))),
        ("a: b #c\n", Ok(owned(&[(0, 1, "a"), (3, 4, "b")]))),
        ("a: b c\n\td: e\n", Err("while scanning for the next token: found character '\\t' that cannot start any token at 7".to_owned())),
        ("a:\n  b: c d\n e\n", Err("while parsing a block mapping: expected <block end>, but found '<scalar>' at 13".to_owned())),
    ];
    for (text, answer) in pure {
        assert_eq!(&pure_scalars(text), answer, "pure: {text:?}");
    }
}

#[test]
fn reader_refuses_what_libyaml_refuses() {
    assert_eq!(
        scalars("a: b: c\n"),
        Err("mapping values are not allowed in this context at 4".to_owned())
    );
    assert_eq!(
        scalars("a: b\n\t\n"),
        Err(
            "while scanning a plain scalar: found a tab character that violates indentation at 5"
                .to_owned()
        )
    );
    assert_eq!(
        scalars("a: \x07\n"),
        Err("control characters are not allowed at 3".to_owned())
    );
}

/// Answers of PyYAML 6.0.3's pure-Python parser (`scripts/yaml_events.py --pure oracle`),
/// where libyaml refuses the text or reads it otherwise.
#[test]
fn pure_mode_reads_what_pyyaml_reads() {
    // A `:` before `,` ends a plain scalar in a flow collection (libyaml: `found unexpected ':'`).
    assert_eq!(
        pure_scalars("{a:,}\n"),
        Ok(owned(&[(1, 2, "a"), (3, 3, "")]))
    );
    assert_eq!(
        pure_scalars("a: {b:{}}\n"),
        Ok(owned(&[(0, 1, "a"), (4, 5, "b")]))
    );
    // A directive other than %YAML and %TAG is skipped.
    assert_eq!(
        pure_scalars("%FOO bar\n--- a\n"),
        Ok(owned(&[(13, 14, "a")]))
    );
    // A surrogate pair escaped reads as its character; a tab after a block scalar's
    // indentation is content; a byte-order mark is skipped only at the start.
    assert_eq!(
        pure_scalars("a: \"\\ud83d\\ude00\"\n"),
        Ok(owned(&[(0, 1, "a"), (3, 17, "\u{1f600}")]))
    );
    assert_eq!(
        pure_scalars("a: |\n  \tx\n"),
        Ok(owned(&[(0, 1, "a"), (3, 10, "\tx\n")]))
    );
    assert_eq!(
        pure_scalars("\u{feff}a: 1\n"),
        Ok(owned(&[(3, 4, "a"), (6, 7, "1")]))
    );
    assert_eq!(
        pure_scalars("a: 1\n\u{feff}b: 2\n"),
        Ok(owned(&[
            (0, 1, "a"),
            (3, 4, "1"),
            (5, 9, "\u{feff}b"),
            (11, 12, "2")
        ]))
    );
    // A tag's URI takes `,`: the tag is `tag:yaml.org,2002:str,`.
    let tags: Vec<String> = Parser::pure("a: [!!str, a]\n")
        .filter_map(|event| match event.expect("an event").kind {
            EventKind::Scalar { tag: Some(tag), .. } => Some(tag.text.into_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(tags, ["tag:yaml.org,2002:str,"]);
}

#[test]
fn pure_mode_refuses_what_pyyaml_refuses() {
    let refusal = |text| pure_scalars(text).expect_err("a refusal");
    assert_eq!(
        refusal("a: b\tc\n"),
        "while scanning for the next token: found character '\\t' that cannot start any token at 4"
    );
    assert_eq!(
        refusal("a: |#\n x\n"),
        "while scanning a block scalar: expected chomping or indentation indicators, but found '#' at 4"
    );
    assert_eq!(
        refusal("[a?b]\n"),
        "while parsing a flow sequence: expected ',' or ']', but got '?' at 2"
    );
    assert_eq!(
        refusal("a: [?, :]\n"),
        "while parsing a flow node: expected the node content, but found ':' at 7"
    );
    assert_eq!(
        refusal("a: \"x\\'y\"\n"),
        "while scanning a double-quoted scalar: found unknown escape character \"'\" at 6"
    );
    assert_eq!(
        refusal("a: \x07\n"),
        "special characters are not allowed at 3"
    );
    // PyYAML keeps a lone surrogate in a Python string: hotfix's reader has a stand-in for it.
    assert_eq!(
        pure_scalars("a: \"x\\ud83d\"\n"),
        Ok(owned(&[(0, 1, "a"), (3, 12, "x\u{10f03d}")]))
    );
}

/// Heat's second try (`simple_parse`): where libyaml refuses the text, the tree is the pure
/// loader's reading, and where both refuse, the refusal is the pure loader's, the one Heat
/// reports (answers of Heat 27.0.1).
#[test]
fn the_tree_is_the_pure_loaders_where_libyaml_refuses() {
    let json = |text| {
        hotfix_yaml::parse_with_reader(text)
            .and_then(|doc| doc.to_python_json())
            .map_err(|err| err.message)
    };
    assert_eq!(json("{a:{}}\n"), Ok(r#"{"a": {}}"#.to_owned()));
    assert_eq!(json("%FOO x\n--- {a: 1}\n"), Ok(r#"{"a": 1}"#.to_owned()));
    assert_eq!(
        json("a: b: c\n"),
        Err("invalid YAML: mapping values are not allowed here".to_owned())
    );
    // The pure loader makes dates, and fails on one Python cannot make (Heat: `day is out of
    // range for month`).
    assert!(
        json("{b: 2001-02-30, a:{}}\n")
            .expect_err("no such day")
            .contains("not a timestamp PyYAML can construct")
    );
    // Where libyaml reads the text, its reading stands (the pure loader refuses this tab).
    assert_eq!(json("a:\tb\n"), Ok(r#"{"a": "b"}"#.to_owned()));
}

#[test]
fn a_scalar_is_borrowed_until_it_needs_cooking() {
    let values = |text| -> Vec<bool> {
        Parser::new(text)
            .filter_map(|event| match event.expect("an event").kind {
                EventKind::Scalar { value, .. } => {
                    Some(matches!(value, std::borrow::Cow::Borrowed(_)))
                }
                _ => None,
            })
            .collect()
    };
    // Plain with inner blanks, single-quoted: slices of the text.
    assert_eq!(values("a b: 'c d'\n"), [true, true]);
    // Folded over a line break, an escape, a block scalar's lines: cooked.
    assert_eq!(values("a: b\n  c\n"), [true, false]);
    assert_eq!(values("a: \"\\n\"\n"), [true, false]);
    assert_eq!(values("a: |\n  x\n  y\n"), [true, false]);
}

#[test]
fn comments_are_collected_as_the_scanner_skips_them() {
    let text = "# c\na: 1 # d\nb: | # e\n  x # not one\n";
    let mut parser = Parser::new(text);
    for event in parser.by_ref() {
        event.expect("an event");
    }
    let comments: Vec<&str> = parser
        .comments()
        .iter()
        .map(|&(s, e)| &text[s..e])
        .collect();
    assert_eq!(comments, ["# c", "# d", "# e"]);
}

/// The comments the reader collects are those `hotfix_yaml::parse` finds from the tree
/// (`comments.rs`, which the fix engine uses), on every corpus file that loads as YAML; the
/// only other ones are a block scalar's header comment (`| # note`), which the tree's scalar
/// span covers.
#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_reader_comments_are_the_trees() {
    let shared = hotfix_testkit::shared();
    let mut paths = Vec::new();
    let mut dirs = vec![shared.join("corpus"), workspace().join("testdata")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a folder") {
            let path = entry.expect("an entry").path();
            let hidden = path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if path.is_dir() && !hidden {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                paths.push(path);
            }
        }
    }
    assert!(paths.len() > 1000, "only {} files", paths.len());
    let (mut files, mut comments, mut headers) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in &paths {
        let bytes = std::fs::read(path).expect("read a file");
        let Ok(text) = hotfix_yaml::check_bytes(&bytes) else {
            continue;
        };
        let Ok(doc) = hotfix_yaml::parse_unlimited(text) else {
            continue;
        };
        if doc.format() != hotfix_yaml::SourceFormat::Yaml {
            continue;
        }
        let mut parser = Parser::new(text);
        let mut block_scalars = Vec::new();
        for event in parser.by_ref() {
            let event = event.expect("a text hotfix loads is one libyaml reads");
            if let EventKind::Scalar {
                style: ScalarStyle::Literal | ScalarStyle::Folded,
                ..
            } = event.kind
            {
                block_scalars.push((event.start.offset, event.end.offset));
            }
        }
        files += 1;
        let tree: Vec<(usize, usize)> = doc
            .comments()
            .iter()
            .map(|c| (c.span.start, c.span.end))
            .collect();
        let mut read = Vec::new();
        for &(start, end) in parser.comments() {
            if block_scalars.iter().any(|&(s, e)| s < start && start < e) {
                headers += 1;
            } else {
                read.push((start, end));
            }
        }
        comments += read.len();
        if read != tree {
            let first = read.iter().zip(&tree).find(|(a, b)| a != b).map_or_else(
                || format!("{} comments against {}", read.len(), tree.len()),
                |(a, b)| format!("reader {:?} tree {:?}", &text[a.0..a.1], &text[b.0..b.1]),
            );
            failures.push(format!("{}: {first}", path.display()));
        }
    }
    eprintln!(
        "comments: {files} files, {comments} comments alike, {headers} block scalar header comments"
    );
    assert!(
        failures.is_empty(),
        "{} files differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
