//! Which files hotfix reads, and as what: templates and environment files of any extension told
//! by content, every other file found listed as skipped with its reason, a file given with `-e`
//! read as an environment whatever it holds, a file named on the command line skipped when
//! nothing in it is a template's.

use std::path::{Path, PathBuf};
use std::process::Command;

use hotfix_testkit::{Hotfix, hotfix_binary};

fn tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/files")
}

/// Runs hotfix in `testdata/cli/files`.
const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!())
    .plain()
    .in_folder(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/cli/files"));

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `skipped PATH: REASON` lines of `lint --verbose`, in order.
fn skipped(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("skipped "))
        .collect()
}

#[test]
fn a_walk_tells_templates_and_environments_of_any_extension_by_content() {
    let output = HOTFIX.run(&[
        "lint",
        "repo",
        "--no-config",
        "--format",
        "concise",
        "--verbose",
    ]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    // `top.hot` is a template, `prod.env` the environment that maps its custom type (so the
    // nested template's parameters are known), `volume` a template without an extension.
    assert_eq!(
        stdout,
        "repo/top.hot:8:7: X003 `flavour` is not a parameter of `server.yaml` (`My::Server` as \
         `repo/prod.env` maps it)\n\
         repo/volume:2:24: H102 `2018-08-30` is not a HOT version Heat knows\n"
    );
    // Every other file found, one line each with its reason: a README and a Python test that
    // hold a template inside a code block or a string, an API request that holds one under
    // `template`, a binary file.
    assert_eq!(
        skipped(&stderr),
        [
            "skipped repo/README.md: not a HOT template (a line starts with a template's or an \
             environment's key, but the file does not load as YAML)",
            "skipped repo/api/create.json: not a HOT template or environment (no top-level \
             heat_template_version, nor an environment's section; a file holding only \
             a `parameters` mapping is an environment when its name says so, or when given with -e)",
            "skipped repo/logo.png: not text (binary data; only its first bytes were read)",
            "skipped repo/tests/test_stack.py: not a HOT template (a line starts with a \
             template's or an environment's key, but the file does not load as YAML)",
        ],
        "{stderr}"
    );
    assert!(
        stderr.contains("3 templates and 1 environment file checked (4 skipped): 2 errors"),
        "{stderr}"
    );
}

#[test]
fn a_template_named_alone_is_read_with_the_trees_environments_of_any_extension() {
    // `prod.env` maps `My::Server`: the type is not called unmapped (X007), and the nested
    // template's parameters are checked.
    let output = HOTFIX.run(&["lint", "repo/top.hot", "--no-config", "--format", "concise"]);
    assert_eq!(
        text(&output.stdout),
        "repo/top.hot:8:7: X003 `flavour` is not a parameter of `server.yaml` (`My::Server` as \
         `repo/prod.env` maps it)\n",
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn the_upgrade_finds_templates_of_any_extension_and_says_why_it_skipped_the_rest() {
    let output = HOTFIX.run(&[
        "upgrade",
        "--to",
        "2021-04-16",
        "--check",
        "--no-config",
        "--verbose",
        "repo",
    ]);
    // The files' lines on stdout, the skipped ones and the failures on stderr.
    let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{all}");
    for line in [
        "repo/top.hot: would be upgraded 2018-08-31 → 2021-04-16",
        "repo/README.md: skipped: not a HOT template (a line starts with",
        "repo/api/create.json: skipped: not a HOT template or environment (no top-level heat_template_version",
        "repo/logo.png: skipped: not text (binary data",
        "repo/prod.env: skipped: an environment file",
        "repo/volume: error: no valid heat_template_version",
        "2 would be upgraded, 0 already at 2021-04-16, 0 blocked, 1 failed, 5 skipped",
    ] {
        assert!(all.contains(line), "{line}: {all}");
    }
}

#[test]
fn templates_only_tells_named_files_by_content_of_any_extension() {
    // What the pre-commit hook passes: every staged text file.
    let output = HOTFIX.run(&[
        "lint",
        "--templates-only",
        "--no-config",
        "--format",
        "concise",
        "--verbose",
        "repo/top.hot",
        "repo/volume",
        "repo/README.md",
        "repo/tests/test_stack.py",
        "repo/api/create.json",
        "repo/prod.env",
    ]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("repo/top.hot:8:7: X003"), "{stdout}");
    assert!(stdout.contains("repo/volume:2:24: H102"), "{stdout}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert_eq!(skipped(&stderr).len(), 4, "{stderr}");
    assert!(
        stderr.contains("2 templates checked (4 skipped)"),
        "{stderr}"
    );
}

#[test]
fn a_named_file_with_none_of_a_templates_sections_is_skipped_with_one_line() {
    let output = HOTFIX.run(&[
        "lint",
        "named/list.yaml",
        "named/package.json",
        "named/roles_data.yaml",
        "named/typo.yaml",
        "repo/api/create.json",
        "--no-config",
        "--format",
        "concise",
        "--select",
        "H001,H1",
        "--verbose",
    ]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    // A template in a list, and one whose version key is misspelt: reported, as Heat refuses
    // both (`Template format version not found.`).
    assert_eq!(
        stdout,
        "named/list.yaml:1:1: H001 The template is not a JSON object or YAML mapping.\n\
         named/typo.yaml:1:1: H101 missing `heat_template_version`\n"
    );
    let reason = "not a HOT template (its top level has none of a template's sections)";
    assert_eq!(
        skipped(&stderr),
        [
            format!("skipped named/package.json: {reason}"),
            format!("skipped named/roles_data.yaml: {reason}"),
            format!("skipped repo/api/create.json: {reason}"),
        ],
        "{stderr}"
    );
    // Never a silent pass: the summary counts them, without `--verbose` too.
    let output = HOTFIX.run(&["lint", "named/roles_data.yaml", "--no-config"]);
    assert_eq!(output.status.code(), Some(0));
    let stderr = text(&output.stderr);
    assert!(skipped(&stderr).is_empty(), "{stderr}");
    assert!(
        stderr.contains("0 templates checked (1 skipped)"),
        "{stderr}"
    );
}

#[test]
fn a_file_given_with_e_is_read_as_an_environment_whatever_it_holds() {
    // A parameters-only environment (`parameters` is a template's section too) and one whose
    // only section is misspelt: their findings are reported, and the run goes on.
    let output = HOTFIX.run(&[
        "lint",
        "given/t.yaml",
        "-e",
        "given/params.yaml",
        "-e",
        "given/misspelt.yaml",
        "--no-config",
        "--format",
        "concise",
    ]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "given/misspelt.yaml:1:1: E002 `parameter_default` is not an environment section\n\
         given/params.yaml:2:3: E008 `b` is not a parameter of `t.yaml`, the template this \
         environment is given with\n"
    );
    assert!(!stderr.contains("error:"), "{stderr}");
    assert!(
        stderr.contains("1 template and 2 environment files checked (0 skipped)"),
        "{stderr}"
    );
    // A template given as an environment is a mistake of the command, in Heat's words.
    let output = HOTFIX.run(&["lint", "given/t.yaml", "-e", "given/t.yaml", "--no-config"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains(
            "given/t.yaml: not an environment file but a template (Heat: `environment has \
             wrong section \"heat_template_version\"`)"
        ),
        "{}",
        text(&output.stderr)
    );
}

#[test]
#[ignore = "needs .venv-heat (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_refuses_each_environment_given_with_e_as_hotfix_reports_it() {
    let template = std::fs::read_to_string(tree().join("given/t.yaml")).expect("read");
    let cases = [
        ("given/params.yaml", "E008"),
        ("given/misspelt.yaml", "E002"),
    ];
    let requests: Vec<serde_json::Value> = cases
        .iter()
        .map(|(env, _)| {
            let env = std::fs::read_to_string(tree().join(env)).expect("read");
            serde_json::json!({"cmd": "validate", "template": template, "env": env})
        })
        .collect();
    let answers = heat(&requests);
    for ((env, code), answer) in cases.into_iter().zip(answers) {
        // The engine's refusal, or the environment parser's (a request error to the oracle).
        let said = answer["error"]
            .as_str()
            .or_else(|| answer["request_error"]["error"].as_str())
            .unwrap_or_else(|| panic!("Heat accepts {env}: {answer}"));
        let output = HOTFIX.run(&[
            "lint",
            "given/t.yaml",
            "-e",
            env,
            "--no-config",
            "--format",
            "json",
        ]);
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        let findings: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let findings = findings.as_array().expect("a list");
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0]["code"], code);
        assert_eq!(findings[0]["path"], env);
        let help = findings[0]["help"].as_str().expect("help");
        assert!(help.contains(&format!("Heat: `{said}`")), "{help} / {said}");
    }
}

/// Heat's answers to these requests (`scripts/heat_oracle.py serve`, with `HOTFIX_PYTHON` or
/// `.venv-heat`'s Python).
fn heat(requests: &[serde_json::Value]) -> Vec<serde_json::Value> {
    use std::io::Write as _;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = hotfix_testkit::python();
    let mut child = Command::new(&python)
        .arg(root.join("scripts/heat_oracle.py"))
        .arg("serve")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", python.display()));
    let mut stdin = child.stdin.take().expect("stdin");
    for request in requests {
        writeln!(stdin, "{request}").expect("write to Heat");
    }
    drop(stdin);
    let output = child.wait_with_output().expect("Heat's answers");
    let answers: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON answer"))
        .collect();
    assert_eq!(
        answers.len(),
        requests.len(),
        "is Heat installed? (scripts/setup-oracle.sh)"
    );
    answers
}
