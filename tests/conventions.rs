//! What users of ruff and cfn-lint expect of a linter's command line: a closed pipe is not a
//! failure, configuration errors show a readable frame, each file finds its nearest
//! `hotfix.toml`, standard input is a file like any other, rules outside the default set are
//! selected with `--extend-select`.

use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use hotfix_testkit::{Hotfix, hotfix_binary};

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).plain();

fn run(dir: &Path, args: &[&str]) -> Output {
    HOTFIX.command_in(dir, args).output().expect("run hotfix")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const BROKEN: &str = "heat_template_version: 2016-10-14\nparameters:\n  unused: {type: string}\nresources:\n  r:\n    type: OS::Heat::None\n    properties: {value: {get_param: missing}}\n";

/// A tree whose findings fill far more than a pipe's buffer in every format.
fn many_findings() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..400 {
        std::fs::write(dir.path().join(format!("t{i:03}.yaml")), BROKEN).expect("write");
    }
    dir
}

#[test]
fn a_closed_pipe_ends_the_run_quietly_with_the_exit_code_it_would_have_had() {
    let dir = many_findings();
    for format in ["human", "concise", "json", "sarif", "github"] {
        let mut child = HOTFIX
            .command_in(
                dir.path(),
                &["lint", ".", "--no-config", "--format", format],
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run hotfix");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("a first line");
        // The reader goes away after one line, as `| head -1` does.
        let output = child.wait_with_output().expect("hotfix ends");
        let stderr = text(&output.stderr);
        assert!(!first.is_empty(), "{format}: no output");
        assert_eq!(output.status.code(), Some(1), "{format}: {stderr}");
        assert!(
            !stderr.contains("hotfix: error") && !stderr.contains("panicked"),
            "{format}: {stderr}"
        );
    }
}

#[test]
fn a_closed_pipe_on_both_streams_is_not_a_panic() {
    let dir = many_findings();
    let script = format!(
        "{} lint . --no-config --format json 2>&1 | head -1 >/dev/null; echo \"${{PIPESTATUS[0]}}\"",
        env!("CARGO_BIN_EXE_hotfix")
    );
    let output = Command::new("bash")
        .current_dir(dir.path())
        .args(["-c", &script])
        .output()
        .expect("run bash");
    assert_eq!(text(&output.stdout).trim(), "1", "{}", text(&output.stderr));
}

#[test]
fn a_bad_configuration_key_shows_a_code_frame_over_several_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("hotfix.toml"),
        "select = [\"H3\"]\nignroe = [\"H408\"]\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("t.yaml"), BROKEN).expect("write");
    let output = run(dir.path(), &["lint", "t.yaml"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("hotfix: error: invalid configuration ")
            && lines[0].ends_with("hotfix.toml"),
        "{stderr}"
    );
    assert!(
        stderr.contains("unknown field `ignroe`"),
        "the message: {stderr}"
    );
    assert!(
        stderr.contains("; did you mean `ignore`?"),
        "the key it most likely meant: {stderr}"
    );
    assert!(
        stderr.contains(" 2 │ ignroe = [\"H408\"]\n"),
        "the line of the bad key, in a frame of its own: {stderr}"
    );
    assert!(lines.len() >= 5, "{stderr}");
}

#[test]
fn each_file_uses_the_nearest_configuration_wherever_hotfix_runs_from() {
    let dir = tempfile::tempdir().expect("tempdir");
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("strict")).expect("mkdir");
    std::fs::write(project.join("hotfix.toml"), "ignore = [\"H301\"]\n").expect("write");
    std::fs::write(
        project.join("strict/hotfix.toml"),
        "extend-select = [\"H408\"]\n",
    )
    .expect("write");
    std::fs::write(project.join("a.yaml"), BROKEN).expect("write");
    std::fs::write(project.join("strict/b.yaml"), BROKEN).expect("write");
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let output = run(
        elsewhere.path(),
        &[
            "lint",
            project.to_str().expect("a UTF-8 path"),
            "--format",
            "concise",
        ],
    );
    let stdout = text(&output.stdout);
    let codes: Vec<(&str, &str)> = stdout
        .lines()
        .map(|line| {
            let (path, rest) = line.split_once(": ").expect("path: CODE message");
            let file = Path::new(path.split(':').next().expect("a path"))
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a file name");
            (file, rest.split(' ').next().expect("a code"))
        })
        .collect();
    // a.yaml: the project's configuration ignores H301 (and H408 is outside the default set);
    // strict/b.yaml: its own configuration, not merged with the project's, adds H408.
    assert_eq!(
        codes,
        [("b.yaml", "H408"), ("b.yaml", "H301")],
        "{stdout}{}",
        text(&output.stderr)
    );
}

#[test]
fn standard_input_is_linted_under_the_name_given() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("sub")).expect("mkdir");
    std::fs::write(dir.path().join("sub/hotfix.toml"), "ignore = [\"H301\"]\n").expect("write");
    let lint_stdin = |args: &[&str]| {
        let mut child = HOTFIX
            .command_in(dir.path(), args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run hotfix");
        // hotfix may refuse the arguments before reading: a closed pipe here is no failure.
        let _ =
            std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), BROKEN.as_bytes());
        child.wait_with_output().expect("hotfix ends")
    };
    let output = lint_stdin(&["lint", "-", "--format", "concise"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "-:7:37: H301 `get_param` names `missing`, which is not a declared parameter\n"
    );
    // The name places the input: its configuration is the one of `sub/`.
    let output = lint_stdin(&[
        "lint",
        "-",
        "--stdin-filename",
        "sub/t.yaml",
        "--format",
        "concise",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), "");
    let output = lint_stdin(&["lint", "-", "t.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot be combined"));
}

#[test]
fn rules_outside_the_default_set_run_only_when_selected() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("t.yaml"), BROKEN).expect("write");
    let codes = |args: &[&str]| {
        let mut all = vec!["lint", "t.yaml", "--no-config", "--format", "concise"];
        all.extend_from_slice(args);
        let stdout = text(&run(dir.path(), &all).stdout);
        stdout
            .lines()
            .map(|l| l.split(' ').nth(1).expect("a code").to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(codes(&[]), ["H301"]);
    assert_eq!(codes(&["--extend-select", "H408"]), ["H408", "H301"]);
    assert_eq!(codes(&["--select", "ALL"]), ["H408", "H301"]);
    assert_eq!(codes(&["--select", "H4"]), ["H408"]);
    assert_eq!(
        codes(&[
            "--extend-select",
            "unused-parameter",
            "--extend-ignore",
            "H3"
        ]),
        ["H408"]
    );
    let rules = text(&run(dir.path(), &["rules"]).stdout);
    let h408 = rules
        .lines()
        .find(|l| l.starts_with("H408"))
        .expect("H408 listed");
    assert!(h408.contains("(opt-in)"), "{h408}");
}

#[test]
fn help_wraps_to_the_width_it_is_given() {
    let dir = tempfile::tempdir().expect("tempdir");
    for width in [60_usize, 160] {
        let output = HOTFIX
            .command_in(dir.path(), &["lint", "--help"])
            .env("COLUMNS", width.to_string())
            .output()
            .expect("run hotfix");
        let help = text(&output.stdout);
        let longest = help.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(longest <= width, "{width}: a line of {longest}\n{help}");
        assert!(longest > width - 30, "{width}: only {longest} used\n{help}");
    }
}

/// A help text never splits a date (`2016-` / `10-14`) across lines, whatever the width: each
/// help holds as many whole `YYYY-MM-DD` dates at every width as unwrapped (clap breaks lines
/// at spaces only; this holds it to that). `upgrade --help` lists every HOT version's date.
#[test]
fn help_never_splits_a_date_at_any_width() {
    let dir = tempfile::tempdir().expect("tempdir");
    let commands = [
        "",
        "lint",
        "upgrade",
        "inspect",
        "eval",
        "graph",
        "rules",
        "rule",
        "versions",
        "types",
        "type",
        "server",
        "k2hr3",
        "completions",
    ];
    let help = |command: &str, flag: &str, width: usize| {
        let mut args: Vec<&str> = command.split_whitespace().collect();
        args.push(flag);
        let output = HOTFIX
            .command_in(dir.path(), &args)
            .env("COLUMNS", width.to_string())
            .output()
            .expect("run hotfix");
        text(&output.stdout)
    };
    for command in commands {
        for flag in ["--help", "-h"] {
            let whole = dates(&help(command, flag, 10_000));
            if command == "upgrade" {
                assert!(whole >= 11, "{command} {flag}: {whole} dates");
            }
            for width in (24..=140).step_by(4) {
                let wrapped = help(command, flag, width);
                assert_eq!(
                    dates(&wrapped),
                    whole,
                    "`{command} {flag}` at {width} columns splits a date:\n{wrapped}"
                );
            }
        }
    }
}

/// How many `YYYY-MM-DD` dates `text` holds whole.
fn dates(text: &str) -> usize {
    let is_date = |w: &[u8]| {
        w.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
    };
    text.as_bytes().windows(10).filter(|w| is_date(w)).count()
}

#[test]
fn sarif_past_code_scannings_limit_of_results_is_warned_about() {
    let dir = tempfile::tempdir().expect("tempdir");
    for file in 0..3 {
        let mut template = String::from("heat_template_version: 2016-10-14\nparameters:\n");
        for i in 0..8400 {
            let _ = writeln!(template, "  u{i}: {{type: string}}");
        }
        std::fs::write(dir.path().join(format!("m{file}.yaml")), template).expect("write");
    }
    let args = |select: &'static str| {
        [
            "lint",
            ".",
            "--no-config",
            "--extend-select",
            select,
            "--format",
            "sarif",
            "-o",
            "out.sarif",
        ]
    };
    let output = run(dir.path(), &args("H408"));
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "hotfix: warning: 25200 SARIF results: GitHub code scanning accepts at most 25000"
        ),
        "{stderr}"
    );
    let output = run(dir.path(), &args("H301"));
    assert!(!text(&output.stderr).contains("hotfix: warning"));
}

#[test]
fn the_upgrades_sarif_into_a_closed_pipe_keeps_the_exit_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..300 {
        std::fs::write(
            dir.path().join(format!("u{i}.yaml")),
            "heat_template_version: 2013-05-23\noutputs:\n  o: {value: {\"Fn::Join\": [\"-\", [a, b]]}}\n",
        )
        .expect("write");
    }
    let mut child = HOTFIX
        .command_in(
            dir.path(),
            &[
                "upgrade", "--to", "pike", "--check", "--format", "sarif", ".",
            ],
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hotfix");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("hotfix ends");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("hotfix: error"), "{stderr}");
}

#[test]
fn version_says_which_heats_resource_types_it_carries() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = run(dir.path(), &["-V"]);
    assert_eq!(
        text(&output.stdout),
        format!("hotfix {}\n", env!("CARGO_PKG_VERSION")),
        "-V is the version alone, for scripts"
    );
    let output = run(dir.path(), &["--version"]);
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], format!("hotfix {}", env!("CARGO_PKG_VERSION")));
    assert!(
        lines[1].starts_with("resource types: Heat 27.0.1, OpenStack 2026.2 hibiscus"),
        "{stdout}"
    );
}
