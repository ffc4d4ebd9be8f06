//! `hotfix inspect`: what users see, and how it fails on input that is not a template.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use hotfix_testkit::{Hotfix, hotfix_binary};

fn testdata(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(path)
}

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).without_stdin();

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

fn snapshot(name: &str, value: &str) {
    insta::with_settings!({
        snapshot_path => "../snapshots/cli",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, value);
    });
}

#[test]
fn inspect_prints_values_as_heat_loads_them() {
    let path = testdata("cli/inspect/surprises.yaml");
    let output = HOTFIX.run(&["inspect", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = stdout(&output);
    assert!(
        json.contains(r#""port": {"type": "string", "default": 10}"#),
        "{json}"
    );
    assert!(json.contains(r#""default": 80"#), "{json}");
    assert!(json.contains(r#""default": "1e3""#), "{json}");
    assert!(json.contains(r#""default": false"#), "{json}");
    assert!(json.contains(r#""default": "y""#), "{json}");
    assert!(
        json.contains(r#""properties": {"true": "start"}"#),
        "{json}"
    );
    assert!(
        json.contains(
            r#""copy": {"type": "OS::Heat::RandomString", "properties": {"true": "start"}}"#
        ),
        "{json}"
    );
    snapshot("inspect_surprises_json", &json);
}

#[test]
fn inspect_yaml_view_names_the_version_and_quotes_what_would_change() {
    let path = testdata("cli/inspect/surprises.yaml");
    let output = HOTFIX.run(&["inspect", "--format", "yaml", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let yaml = stdout(&output);
    assert!(
        yaml.contains("# heat_template_version: 2016-10-14 (newton)"),
        "{yaml}"
    );
    assert!(
        yaml.contains("default: \"1e3\"") || yaml.contains("default: 1e3"),
        "{yaml}"
    );
    snapshot("inspect_surprises_yaml", &yaml);
}

#[test]
fn inspect_reads_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(["inspect", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run hotfix");
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        b"heat_template_version: pike\nyes: 0x1F\n",
    )
    .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "{\"heat_template_version\": \"pike\", \"true\": 31}\n"
    );
}

/// A nine-level alias bomb: 9^9 (387 million) nodes once expanded.
fn alias_bomb() -> String {
    let mut text = String::from("heat_template_version: 2016-10-14\na0: &a0 [\"lol\"]\n");
    for level in 1..=9 {
        let refs = vec![format!("*a{}", level - 1); 9].join(", ");
        writeln!(text, "a{level}: &a{level} [{refs}]").expect("write to a String");
    }
    text
}

#[test]
fn hostile_or_unreadable_input_fails_with_one_clear_line_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("bomb.yaml", alias_bomb().into_bytes(), "alias bomb"),
        (
            "deep.yaml",
            "[".repeat(100_000).into_bytes(),
            "nest deeper than",
        ),
        (
            "deep-block.yaml",
            (0..300)
                .fold(String::new(), |mut s, i| {
                    writeln!(s, "{}k{i}:", " ".repeat(i)).expect("write to a String");
                    s
                })
                .into_bytes(),
            "nest deeper than",
        ),
        (
            "binary.yaml",
            b"\x7fELF\x02\x01\x01\x00\x00\x00".to_vec(),
            "binary file",
        ),
        (
            "latin1.yaml",
            b"heat_template_version: 2016-10-14\ndescription: caf\xe9\n".to_vec(),
            "not valid UTF-8",
        ),
        (
            "empty.yaml",
            Vec::new(),
            "Template format version not found.",
        ),
        (
            "comments.yaml",
            b"# nothing here\n".to_vec(),
            "Template format version not found.",
        ),
        (
            "list.yaml",
            b"- a\n- b\n".to_vec(),
            "The template is not a JSON object or YAML mapping.",
        ),
        ("invalid.yaml", b"a: [1, 2\nb: 3\n".to_vec(), "invalid YAML"),
        (
            "two-docs.yaml",
            b"a: 1\n---\nb: 2\n".to_vec(),
            "expected a single document",
        ),
        (
            "tag.yaml",
            b"a: !custom x\n".to_vec(),
            "could not determine a constructor for the tag '!custom'",
        ),
        (
            "too-large.yaml",
            format!(
                "heat_template_version: 2016-10-14\ndescription: \"{}\"\n",
                "x".repeat(600_000)
            )
            .into_bytes(),
            "Request limit exceeded: Template size (600050 bytes) exceeds maximum allowed size (524288 bytes).",
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let started = Instant::now();
        let output = HOTFIX.run(&["inspect", path.to_str().unwrap()]);
        let elapsed = started.elapsed();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{name}: {err}");
        assert!(output.stdout.is_empty(), "{name}: wrote to stdout");
        assert_eq!(err.lines().count(), 1, "{name}: not one line: {err}");
        assert!(err.contains(expected), "{name}: {err}");
        assert!(err.starts_with("hotfix: error: "), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        // A guard against hangs, not a benchmark: each of these takes milliseconds.
        assert!(elapsed < Duration::from_secs(10), "{name} took {elapsed:?}");
    }
}

#[test]
fn missing_files_and_directories_are_tool_errors() {
    let output = HOTFIX.run(&["inspect", "/definitely/not/here.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot read /definitely/not/here.yaml"));
    let dir = tempfile::tempdir().unwrap();
    let output = HOTFIX.run(&["inspect", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("is a directory"));
}

#[test]
fn bad_arguments_exit_with_2_and_help_exits_with_0() {
    assert_eq!(HOTFIX.run(&["inspect"]).status.code(), Some(2));
    assert_eq!(
        HOTFIX
            .run(&["inspect", "--format", "toml", "x"])
            .status
            .code(),
        Some(2)
    );
    let help = HOTFIX.run(&["inspect", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("as Heat loads it"));
}
