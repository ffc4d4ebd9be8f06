//! `hotfix k2hr3 expand`: the output byte for byte on standard output, errors with a code frame
//! and exit code 2.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use hotfix_testkit::{Hotfix, hotfix_binary};

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!())
    .no_color()
    .in_folder(env!("CARGO_MANIFEST_DIR"));

fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hotfix");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write");
    child.wait_with_output().expect("wait")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn expand_prints_the_expansion_byte_for_byte() {
    let out = HOTFIX.run(&[
        "k2hr3",
        "expand",
        "testdata/cli/k2hr3/hosts.k2hr3",
        "--vars",
        "testdata/cli/k2hr3/hosts.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // As the engine: every statement's line break stays, only the header's goes.
    assert_eq!(
        text(&out.stdout),
        "\n\n\n\nHost[0] = abc.example.com:0\n\n\n\nHost[1] = 127.0.0.1:0\n\n\n"
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn expand_reads_standard_input_and_keeps_crlf_and_a_missing_final_newline() {
    let out = with_stdin(
        &["k2hr3", "expand", "-"],
        b"{{ %a% = 'x' }}\r\nline {{= %a% }}\r\nend",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, b"\r\nline x\r\nend");
}

#[test]
fn a_syntax_error_is_shown_with_a_code_frame_and_exit_code_2() {
    let out = with_stdin(&["k2hr3", "expand", "-"], b"a\n{{ if 1 }}\nb\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.contains("invalid K2HR3 template -: `if` is never closed"),
        "{err}"
    );
    assert!(err.contains(" 2 │ {{ if 1 }}"), "{err}");
}

#[test]
fn a_failing_expansion_is_an_error_pointing_at_it() {
    // Without the variables, the role's hosts are unset (null): `foreach` fails on them.
    let out = HOTFIX.run(&["k2hr3", "expand", "testdata/cli/k2hr3/hosts.k2hr3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.contains("`foreach` walks an array or an object, and this is null"),
        "{err}"
    );
    assert!(err.contains("hosts.k2hr3:4:"), "{err}");
}

#[test]
fn an_endless_loop_stops_at_the_bound_with_nothing_printed() {
    let out = with_stdin(
        &["k2hr3", "expand", "-", "--max-iterations", "1000"],
        b"{{ while true }}x{{ done }}",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("more than 1000 loop iterations"));
}

#[test]
fn another_engine_is_refused() {
    let out = with_stdin(&["k2hr3", "expand", "-"], b"{{#!jinja }}\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown template engine `jinja`"));
}

#[test]
fn bad_inputs_are_clear_errors() {
    let missing = HOTFIX.run(&["k2hr3", "expand", "testdata/cli/k2hr3/none.k2hr3"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot read testdata/cli/k2hr3/none.k2hr3"));

    let binary = with_stdin(&["k2hr3", "expand", "-"], b"\0\x01\x02");
    assert_eq!(binary.status.code(), Some(2));
    assert!(text(&binary.stderr).contains("binary file"));

    let not_utf8 = with_stdin(&["k2hr3", "expand", "-"], b"caf\xe9");
    assert_eq!(not_utf8.status.code(), Some(2));
    assert!(text(&not_utf8.stderr).contains("not UTF-8"));

    let dir = tempfile::tempdir().expect("tempdir");
    let vars = dir.path().join("vars.json");
    for (content, expected) in [
        ("[1, 2]", "a JSON object is expected"),
        ("{\"n\": ", "invalid variables"),
    ] {
        std::fs::write(&vars, content).expect("write");
        let out = HOTFIX.run(&[
            "k2hr3",
            "expand",
            "testdata/cli/k2hr3/hosts.k2hr3",
            "--vars",
            vars.to_str().expect("UTF-8 path"),
        ]);
        assert_eq!(out.status.code(), Some(2), "{content}");
        assert!(
            text(&out.stderr).contains(expected),
            "{content}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn help_explains_the_variables_the_bound_and_the_exit_codes() {
    let out = HOTFIX.run(&["k2hr3", "expand", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for needle in [
        "--vars",
        "--max-iterations",
        "{{#!k2hr3template }}",
        "Exit codes",
    ] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
}

/// `hotfix lint` in a folder: a K2HR3 template found by its header, another named by the
/// `k2hr3-templates` glob, a suppressed finding; SARIF carries the `K` rules.
#[test]
fn lint_recognises_k2hr3_templates_by_header_and_by_glob() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir(root.join("res")).expect("mkdir");
    std::fs::write(
        root.join("res/header.yaml"),
        "{{#!k2hr3template }}\n{{ %count% = 3 }}\n{{= %cuont% }}\n",
    )
    .expect("write");
    std::fs::write(root.join("res/plain.txt"), "{{= 1 / 0 }}\n").expect("write");
    std::fs::write(
        root.join("res/suppressed.yaml"),
        "{{#!k2hr3template }}\n{{# hotfix: ignore[K003] }}\n{{= %unset% }}\n",
    )
    .expect("write");
    let lint = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .current_dir(root)
            .args(args)
            .env("NO_COLOR", "1")
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("run hotfix")
    };
    // K003 is a warning: alone, it does not fail the run.
    let out = lint(&["lint", "--format", "concise", "."]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "res/header.yaml:3:5: K003 %cuont% is read before anything sets it: the engine reads it as null\n"
    );

    std::fs::write(
        root.join("hotfix.toml"),
        "k2hr3-templates = [\"res/*.txt\"]\n",
    )
    .expect("write");
    let out = lint(&["lint", "--format", "concise", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "res/header.yaml:3:5: K003 %cuont% is read before anything sets it: the engine reads it as null\nres/plain.txt:1:9: K004 division by zero\n"
    );

    let sarif = lint(&["lint", "--format", "sarif", "."]);
    let sarif = text(&sarif.stdout);
    for code in ["\"K003\"", "\"K004\""] {
        assert!(sarif.contains(code), "{code}: {sarif}");
    }

    let ignored = lint(&["lint", "--format", "concise", "--ignore", "K", "."]);
    assert_eq!(ignored.status.code(), Some(0), "{}", text(&ignored.stdout));
}

/// The keys of a template's variables file (`FILE.vars.json`) are given: no K003 for them.
#[test]
fn lint_takes_the_variables_a_variables_file_gives() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let template = "{{#!k2hr3template }}\n{{= %given% }} {{= %other% }}\n";
    std::fs::write(root.join("t.k2hr3"), template).expect("write");
    let lint = || {
        Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .current_dir(root)
            .args(["lint", "--format", "concise", "t.k2hr3"])
            .env("NO_COLOR", "1")
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("run hotfix")
    };
    let out = lint();
    assert_eq!(
        text(&out.stdout),
        "t.k2hr3:2:5: K003 %given% is read before anything sets it: the engine reads it as null\nt.k2hr3:2:20: K003 %other% is read before anything sets it: the engine reads it as null\n"
    );
    std::fs::write(root.join("t.k2hr3.vars.json"), "{\"given\": 1}").expect("write");
    let out = lint();
    assert_eq!(
        text(&out.stdout),
        "t.k2hr3:2:20: K003 %other% is read before anything sets it: the engine reads it as null\n"
    );
    std::fs::write(root.join("t.k2hr3.vars.json"), "[1]").expect("write");
    let out = lint();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("a JSON object is expected"),
        "{}",
        text(&out.stderr)
    );
}
