//! `hotfix lint --format sarif`: SARIF 2.1.0 valid against the official schema, with what
//! GitHub code scanning needs (rule help, levels, repository-relative URIs, UTF-16 regions,
//! line fingerprints, fixes); and `--output`.
//!
//! The schema tests are `#[ignore]`d (named `shared_`): they need `../shared` (the schema, the
//! corpus) and the Python validator that `scripts/setup-oracle.sh` installs into `.venv-heat`;
//! `scripts/test.sh` runs them beside `../shared`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hotfix_testkit::{Hotfix, hotfix_binary};
use serde_json::Value;

mod common;

use common::{copy_tree, shared};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).plain();

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A repository in a temporary folder with the SARIF fixtures, the annotation fixtures, and
/// files whose bytes matter (CRLF, a byte-order mark, a lone CR) written here so that no
/// checkout setting can change them.
fn fixture_repo() -> tempfile::TempDir {
    let dir = hotfix_testkit::repository();
    copy_tree(&repo().join("testdata/cli/sarif"), dir.path());
    copy_tree(
        &repo().join("testdata/cli/github/templates"),
        &dir.path().join("templates/github"),
    );
    copy_tree(
        &repo().join("testdata/cli/related/templates"),
        &dir.path().join("templates/related"),
    );
    let bytes = dir.path().join("templates/bytes");
    std::fs::create_dir_all(&bytes).expect("the fixture files");
    std::fs::write(
        bytes.join("crlf.yaml"),
        "heat_template_version: 2016-10-14\r\nresources:\r\n  r:\r\n    type: OS::Heat::None\r\n    properties: {value: {get_param: nope}}\r\n",
    )
    .expect("the fixture files");
    std::fs::write(
        bytes.join("bom.yaml"),
        "\u{feff}heat_template_version: 2016-10-14\nresources:\n  r:\n    type: OS::Heat::None\n    propertys: {}\n",
    )
    .expect("the fixture files");
    std::fs::write(
        bytes.join("lone-cr.yaml"),
        "heat_template_version: 2016-10-14\rresources:\r  r:\r    type: OS::Heat::None\r    properties: {value: {get_param: nope}}\r",
    )
    .expect("the fixture files");
    std::fs::write(bytes.join("broken.yaml"), "heat_template_version: [\n")
        .expect("the fixture files");
    dir
}

/// Lints the fixture repository's `templates` into SARIF (via `--output`).
fn fixture_sarif() -> (tempfile::TempDir, PathBuf, Value) {
    let dir = fixture_repo();
    let path = dir.path().join("out/hotfix.sarif");
    std::fs::create_dir_all(path.parent().expect("the fixture files")).expect("the fixture files");
    let output = HOTFIX.run_in(
        dir.path(),
        &[
            "lint",
            "templates",
            "--config",
            "info.toml",
            "--format",
            "sarif",
            "--output",
            "out/hotfix.sarif",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), "", "--output leaves stdout empty");
    let sarif: Value = serde_json::from_slice(&std::fs::read(&path).expect("the SARIF file"))
        .expect("the SARIF file is JSON");
    (dir, path, sarif)
}

/// Runs `scripts/validate-sarif.py` with the Python of `.venv-heat` and asserts the log is
/// valid; panics with what to do when Python, the validator or the schema is missing.
fn validate_against_schema(sarif: &Path) -> String {
    let (valid, report) = run_validator(sarif);
    assert!(valid, "SARIF is not valid:\n{report}");
    report
}

/// Whether the validator accepts the log, and what it said.
fn run_validator(sarif: &Path) -> (bool, String) {
    let python = std::env::var_os("HOTFIX_PYTHON")
        .map_or_else(|| repo().join(".venv-heat/bin/python"), PathBuf::from);
    let schema = shared().join("reference/sarif-schema-2.1.0.json");
    assert!(
        schema.is_file(),
        "the SARIF schema {} is missing: ../shared must sit beside the repository (or set \
         HOTFIX_SHARED)",
        schema.display()
    );
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup-oracle.sh (it installs jsonschema into .venv-heat), \
         or set HOTFIX_PYTHON",
        python.display()
    );
    let output = Command::new(&python)
        .arg(repo().join("scripts/validate-sarif.py"))
        .arg("--schema")
        .arg(&schema)
        .arg(sarif)
        .output()
        .expect("run scripts/validate-sarif.py");
    let report = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "the validator could not run:\n{report}"
    );
    (output.status.success(), report)
}

/// A string of the log, or a panic that shows the value.
fn string(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"))
}

/// An array of the log, or a panic that shows the value.
fn array(value: &Value) -> &Vec<Value> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
}

/// What GitHub needs of every rule and result, and what hotfix promises beyond it.
fn check_for_code_scanning(sarif: &Value) {
    assert_eq!(sarif["version"], "2.1.0");
    assert!(string(&sarif["$schema"]).starts_with("https://"));
    let runs = array(&sarif["runs"]);
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert!(run["originalUriBaseIds"]["%SRCROOT%"].is_object());
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "hotfix");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(driver["informationUri"], env!("CARGO_PKG_REPOSITORY"));
    let rules = array(&driver["rules"]);
    for rule in rules {
        check_rule(rule);
    }
    let results = array(&run["results"]);
    let fired: BTreeSet<&str> = results.iter().map(|r| string(&r["ruleId"])).collect();
    let described: BTreeSet<&str> = rules.iter().map(|r| string(&r["id"])).collect();
    assert_eq!(fired, described, "rules are exactly those that fired");
    for result in results {
        let index = usize::try_from(result["ruleIndex"].as_u64().expect("a rule index"))
            .expect("a small index");
        assert_eq!(rules[index]["id"], result["ruleId"]);
        check_result(result);
    }
}

/// A rule descriptor: descriptions, help, help URI (to a page that exists), level, tags,
/// precision and severity.
fn check_rule(rule: &Value) {
    let id = string(&rule["id"]);
    let name = string(&rule["name"]);
    for field in ["shortDescription", "fullDescription"] {
        assert!(!string(&rule[field]["text"]).is_empty(), "{id}");
    }
    assert!(
        string(&rule["help"]["text"]).contains("## What it does"),
        "{id}"
    );
    assert!(
        string(&rule["help"]["markdown"]).contains("## Why is this bad?"),
        "{id}"
    );
    assert_eq!(
        rule["helpUri"],
        format!(
            "{}/blob/main/rules/{id}-{name}.md",
            env!("CARGO_PKG_REPOSITORY")
        )
    );
    let page = repo().join(format!("rules/{id}-{name}.md"));
    assert!(page.is_file(), "{} is missing", page.display());
    let level = string(&rule["defaultConfiguration"]["level"]);
    assert!(["error", "warning", "note"].contains(&level), "{id}");
    let properties = &rule["properties"];
    assert_eq!(properties["precision"], "very-high");
    assert!(!array(&properties["tags"]).is_empty());
    let severity = string(&properties["problem"]["severity"]);
    assert_eq!(properties["problem.severity"], severity);
    assert!(["error", "warning", "recommendation"].contains(&severity));
}

/// A result: level, message, a repository-relative URI, a region, a fingerprint.
fn check_result(result: &Value) {
    assert!(["error", "warning", "note"].contains(&string(&result["level"])));
    assert!(!string(&result["message"]["text"]).trim().is_empty());
    let location = &result["locations"][0]["physicalLocation"];
    let uri = string(&location["artifactLocation"]["uri"]);
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert!(
        !uri.starts_with('/')
            && !uri.contains(':')
            && !uri.contains('\\')
            && !uri.starts_with("..")
            && !uri.contains(' '),
        "not a repository-relative URI: {uri}"
    );
    let region = &location["region"];
    for field in ["startLine", "startColumn", "endLine", "endColumn"] {
        assert!(region[field].as_u64().is_some_and(|n| n >= 1), "{region}");
    }
    for related in result["relatedLocations"].as_array().into_iter().flatten() {
        let artifact = &related["physicalLocation"]["artifactLocation"];
        let uri = string(&artifact["uri"]);
        assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
        assert!(
            !uri.starts_with('/') && !uri.contains(':') && !uri.starts_with(".."),
            "not a repository-relative URI: {uri}"
        );
    }
    let fingerprint = result["partialFingerprints"]["primaryLocationLineHash"]
        .as_str()
        .unwrap_or_else(|| panic!("no fingerprint: {result}"));
    let (hash, count) = fingerprint.split_once(':').expect("hash:count");
    assert!(u64::from_str_radix(hash, 16).is_ok(), "{fingerprint}");
    assert!(
        count.parse::<usize>().is_ok_and(|n| n >= 1),
        "{fingerprint}"
    );
}

/// Decodes the percent-escapes of a URI path.
fn unescape(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&uri[i + 1..i + 3], 16).expect("a percent-escape"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("a UTF-8 path")
}

fn results_for<'a>(sarif: &'a Value, uri: &str) -> Vec<&'a Value> {
    array(&sarif["runs"][0]["results"])
        .iter()
        .filter(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri)
        .collect()
}

#[test]
fn sarif_has_what_code_scanning_needs() {
    let (_dir, _, sarif) = fixture_sarif();
    check_for_code_scanning(&sarif);

    // URIs relative to the repository root, escaped; columns in UTF-16 code units.
    let unicode = results_for(&sarif, "templates/unicode%20%C3%A9.yaml");
    assert_eq!(unicode.len(), 1);
    assert_eq!(
        unicode[0]["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 6, "startColumn": 51, "endLine": 6, "endColumn": 55})
    );
    assert_eq!(
        results_for(&sarif, "templates/github/a,b%25c.yaml").len(),
        1
    );

    // Fixes become replacements.
    let numbers = results_for(&sarif, "templates/numbers.yaml");
    let octal = numbers.iter().find(|r| r["ruleId"] == "H004").unwrap();
    let replacement = &octal["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        replacement["deletedRegion"],
        serde_json::json!({"startLine": 6, "startColumn": 14, "endLine": 6, "endColumn": 18})
    );
    assert_eq!(replacement["insertedContent"]["text"], "'0644'");
    assert_eq!(
        octal["fixes"][0]["artifactChanges"][0]["artifactLocation"]["uri"],
        "templates/numbers.yaml"
    );

    // Configured severities: `info` is a SARIF `note`.
    let cycle = results_for(&sarif, "templates/cycle.yaml");
    let unused = cycle.iter().find(|r| r["ruleId"] == "H408").unwrap();
    assert_eq!(unused["level"], "note");

    // A finding that spans lines ends at its last character, not in the next line.
    let listed = cycle.iter().find(|r| r["ruleId"] == "H601").unwrap();
    assert_eq!(
        listed["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 13, "startColumn": 5, "endLine": 14, "endColumn": 16})
    );

    // CRLF, a lone CR and a byte-order mark count lines and columns as GitHub does.
    let crlf = results_for(&sarif, "templates/bytes/crlf.yaml");
    let lone_cr = results_for(&sarif, "templates/bytes/lone-cr.yaml");
    for result in [crlf[0], lone_cr[0]] {
        assert_eq!(
            result["locations"][0]["physicalLocation"]["region"]["startLine"],
            5
        );
    }
    let bom = results_for(&sarif, "templates/bytes/bom.yaml");
    assert_eq!(bom[0]["ruleId"], "H603");

    // A label in another file is a related location in that file, linked from the message.
    let parent = results_for(&sarif, "templates/related/app.yaml");
    let unknown = parent.iter().find(|r| r["ruleId"] == "X003").unwrap();
    let related = &unknown["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"],
        serde_json::json!({"uri": "templates/related/nested/server.yaml", "uriBaseId": "%SRCROOT%"})
    );
    assert_eq!(
        related["physicalLocation"]["region"],
        serde_json::json!({"startLine": 3, "startColumn": 1, "endLine": 3, "endColumn": 11})
    );
    assert!(
        string(&unknown["message"]["text"])
            .contains("\nsee [templates/related/nested/server.yaml:3:1](1): parameters of"),
        "{unknown}"
    );
}

#[test]
fn output_writes_any_format_to_a_file() {
    let dir = fixture_repo();
    for format in [
        "human", "concise", "json", "sarif", "github", "junit", "gitlab",
    ] {
        let name = format!("out.{format}");
        let output = HOTFIX.run_in(
            dir.path(),
            &[
                "lint",
                "templates/cycle.yaml",
                "--format",
                format,
                "--output",
                &name,
            ],
        );
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        assert_eq!(text(&output.stdout), "", "{format}");
        let written = std::fs::read_to_string(dir.path().join(&name)).unwrap();
        assert!(written.contains("H304"), "{format}: {written}");
        assert!(!written.contains('\u{1b}'), "{format}: no colours in files");
    }
    // Nothing else is left in the folder (no temporary files).
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".hotfix"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // An output in a folder that does not exist is a failure of hotfix (2), said on stderr.
    let output = HOTFIX.run_in(
        dir.path(),
        &[
            "lint",
            "templates",
            "--format",
            "sarif",
            "--output",
            "no/such/dir/x.sarif",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot write no/such/dir/x.sarif"));
}

#[test]
fn sarif_on_stdout_is_only_json() {
    let dir = fixture_repo();
    let output = HOTFIX.run_in(dir.path(), &["lint", "templates", "--format", "sarif"]);
    assert_eq!(output.status.code(), Some(1));
    let sarif: Value = serde_json::from_slice(&output.stdout).expect("stdout is one JSON value");
    check_for_code_scanning(&sarif);
    assert_eq!(text(&output.stderr), "", "no summary beside machine output");
    // No findings: still a valid log, with one run and no results.
    let output = HOTFIX.run_in(
        dir.path(),
        &["lint", "templates/github/clean.yaml", "--format", "sarif"],
    );
    assert_eq!(output.status.code(), Some(0));
    let sarif: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn paths_outside_a_repository_are_relative_to_the_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("testdata/cli/sarif"), dir.path());
    let work = dir.path().join("templates");
    let output = HOTFIX.run_in(&work, &["lint", "cycle.yaml", "--format", "sarif"]);
    let sarif: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        !results_for(&sarif, "cycle.yaml").is_empty(),
        "(is the temporary folder inside a git repository?) {sarif}"
    );
}

/// The URIs of every result, sorted.
fn uris(sarif: &Value) -> Vec<String> {
    let mut out: Vec<String> = array(&sarif["runs"][0]["results"])
        .iter()
        .map(|r| {
            string(&r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]).to_owned()
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// hotfix run in `dir` the way a shell runs it there: `PWD` names the folder as the user
/// reached it, links included.
fn hotfix_in(dir: &Path, pwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(dir)
        .env("PWD", pwd)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run hotfix")
}

/// Symbolic links on the way to the project, to a folder of templates in it, and to a shared
/// folder beside it whose target lies in another repository: SARIF URIs are relative to the
/// repository root the user sees, and human paths are the paths as given.
#[cfg(unix)]
#[test]
fn paths_through_symbolic_links_are_the_ones_the_user_sees() {
    use std::os::unix::fs::symlink;
    let template = "heat_template_version: 2016-10-14\nresources:\n  r:\n    type: OS::Heat::None\n    properties: {value: {get_param: nope}}\n";
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    // Another repository, which holds the templates that links lead to.
    for folder in [
        "team/.git",
        "team/templates",
        "team/shared/corpus/deep",
        "work/project/.git",
        "work/project/own",
    ] {
        std::fs::create_dir_all(top.join(folder)).unwrap();
    }
    std::fs::write(top.join("team/templates/t.yaml"), template).unwrap();
    std::fs::write(top.join("team/shared/corpus/deep/c.yaml"), template).unwrap();
    std::fs::write(top.join("work/project/own/o.yaml"), template).unwrap();
    // In the project, a link to a folder of templates; beside it, `shared` as a link; and the
    // project itself reached through a link.
    symlink(top.join("team/templates"), top.join("work/project/linked")).unwrap();
    symlink(top.join("team/shared"), top.join("work/shared")).unwrap();
    symlink(top.join("work/project"), top.join("entry")).unwrap();

    let entry = top.join("entry");
    let sarif = |output: &Output| -> Value {
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let output = hotfix_in(
        &entry,
        &entry,
        &["lint", ".", "linked", "--format", "sarif"],
    );
    assert_eq!(uris(&sarif(&output)), ["linked/t.yaml", "own/o.yaml"]);
    let output = hotfix_in(
        &entry,
        &entry,
        &["lint", "own", "linked/t.yaml", "--format", "concise"],
    );
    let human = text(&output.stdout);
    assert!(human.contains("linked/t.yaml:5:37: H301"), "{human}");
    assert!(human.contains("own/o.yaml:5:37: H301"), "{human}");

    // Linting `../shared` from the project, and from inside it: it lies outside every
    // repository the user sees, so its paths are relative to the working folder, or go up to it.
    let corpus = top.join("work/shared/corpus");
    let output = hotfix_in(&corpus, &corpus, &["lint", "--format", "sarif"]);
    assert_eq!(uris(&sarif(&output)), ["deep/c.yaml"]);
    let output = hotfix_in(&corpus, &corpus, &["lint", "--format", "concise"]);
    assert!(
        text(&output.stdout).starts_with("deep/c.yaml:5:37: H301"),
        "{}",
        text(&output.stdout)
    );
    let project = top.join("work/project");
    let output = hotfix_in(
        &project,
        &project,
        &["lint", "../shared/corpus", "--format", "sarif"],
    );
    assert_eq!(uris(&sarif(&output)), ["../shared/corpus/deep/c.yaml"]);
    let output = hotfix_in(
        &project,
        &project,
        &["lint", "../shared/corpus", "--format", "concise"],
    );
    assert!(
        text(&output.stdout).starts_with("../shared/corpus/deep/c.yaml:5:37: H301"),
        "{}",
        text(&output.stdout)
    );

    // A `PWD` that does not lead to the working folder is not believed: then only the link's
    // target is known, a folder of the other repository.
    let output = hotfix_in(&corpus, &top, &["lint", "--format", "sarif"]);
    assert_eq!(uris(&sarif(&output)), ["shared/corpus/deep/c.yaml"]);

    // Configuration globs match the paths the user sees, however the file is named.
    std::fs::write(project.join("hotfix.toml"), "exclude = [\"linked/**\"]\n").unwrap();
    let through_entry = top.join("entry/hotfix.toml");
    let through_entry = through_entry.to_str().unwrap();
    for (cwd, config, paths) in [
        (entry.clone(), "hotfix.toml", [".", "linked"]),
        (project.clone(), through_entry, [".", "linked"]),
        (project.join("own"), through_entry, ["..", "../linked"]),
    ] {
        let mut args = vec!["lint", "--format", "sarif", "--config", config];
        args.extend(paths);
        let output = hotfix_in(&cwd, &cwd, &args);
        assert_eq!(uris(&sarif(&output)), ["own/o.yaml"], "{}", cwd.display());
    }
}

#[test]
#[ignore = "needs ../shared/reference and .venv-heat; run by scripts/test.sh beside ../shared"]
fn shared_sarif_of_the_fixtures_is_valid_against_the_schema() {
    let (_dir, path, sarif) = fixture_sarif();
    let report = validate_against_schema(&path);
    println!("{}", report.trim());
    assert!(sarif["runs"][0]["results"].as_array().unwrap().len() >= 20);

    // The validator is not a rubber stamp: a region at line 0, a URI with a space and a level
    // SARIF does not have are each reported.
    let mut broken = sarif.clone();
    let result = &mut broken["runs"][0]["results"][0];
    result["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "a b.yaml".into();
    result["level"] = "fatal".into();
    let broken_path = path.with_extension("broken.sarif");
    std::fs::write(&broken_path, serde_json::to_vec(&broken).unwrap()).unwrap();
    let (valid, report) = run_validator(&broken_path);
    assert!(!valid, "{report}");
    for complaint in ["startLine", "uri-reference", "'fatal'"] {
        assert!(report.contains(complaint), "{complaint}: {report}");
    }
}

#[test]
#[ignore = "needs ../shared and .venv-heat; run by scripts/test.sh beside ../shared"]
fn shared_sarif_of_the_corpus_is_valid_and_complete() {
    // The corpus as a shell names it after `cd ../shared/corpus`, links kept.
    let corpus =
        shared()
            .join("corpus")
            .components()
            .fold(PathBuf::new(), |mut path, component| {
                if component == std::path::Component::ParentDir {
                    path.pop();
                } else {
                    path.push(component);
                }
                path
            });
    assert!(
        corpus.is_dir(),
        "{} is missing: ../shared must sit beside the repository (or set HOTFIX_SHARED)",
        corpus.display()
    );
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("corpus.sarif");
    let output = hotfix_in(
        &corpus,
        &corpus,
        &[
            "lint",
            ".",
            // Most of the corpus's findings are `unused-parameter`, outside the default set.
            "--extend-select",
            "H408",
            "--format",
            "sarif",
            "--exit-zero",
            "--output",
            path.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = validate_against_schema(&path);
    let sarif: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    check_for_code_scanning(&sarif);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(results.len() > 500, "{} results", results.len());
    for result in results {
        let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(
            corpus.join(unescape(uri)).is_file(),
            "{uri} is not a corpus file"
        );
    }
    println!("corpus: {}", report.trim());
}

/// `docs/github-code-scanning.yml` is valid YAML, has what upload needs, and its lint command
/// writes SARIF and exits with 0 on a tree with findings.
#[test]
fn the_code_scanning_workflow_runs_what_it_says() {
    let workflow = std::fs::read_to_string(repo().join("docs/github-code-scanning.yml")).unwrap();
    hotfix_yaml::parse(&workflow).expect("the example workflow is YAML");
    for needed in [
        "security-events: write",
        "uses: github/codeql-action/upload-sarif@",
        "sarif_file: hotfix.sarif",
        "run: python -m pip install hotfix-lint",
    ] {
        assert!(workflow.contains(needed), "{needed}");
    }
    let command = workflow
        .lines()
        .find_map(|line| line.trim().strip_prefix("run: hotfix "))
        .expect("a `run: hotfix …` step");
    let args: Vec<&str> = command.split_whitespace().collect();
    assert!(args.contains(&"--exit-zero"), "{command}");
    let dir = fixture_repo();
    let output = HOTFIX.run_in(dir.path(), &args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let sarif: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("hotfix.sarif")).unwrap()).unwrap();
    check_for_code_scanning(&sarif);
}

/// `upgrade --check --format sarif`: one result per file that would change or is blocked, and
/// its warnings, located in the file as it is on disk.
fn upgrade_check_sarif() -> (tempfile::TempDir, PathBuf, Value) {
    let dir = tempfile::tempdir().expect("the fixture");
    std::fs::create_dir(dir.path().join(".git")).expect("the fixture");
    std::fs::write(
        dir.path().join("blocked.yaml"),
        "heat_template_version: 2013-05-23\noutputs:\n  z: {value: {\"Fn::GetAZs\": \"\"}}\n",
    )
    .expect("the fixture");
    std::fs::write(
        dir.path().join("warn.yaml"),
        "heat_template_version: 2016-04-08\noutputs:\n  o: {value: x, condition: false}\n",
    )
    .expect("the fixture");
    let output = HOTFIX.run_in(
        dir.path(),
        &[
            "upgrade", "--to", "pike", "--check", "--format", "sarif", "--output", "up.sarif", ".",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let path = dir.path().join("up.sarif");
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("the fixture"))
        .expect("the fixture");
    (dir, path, sarif)
}

#[test]
fn upgrade_check_writes_sarif_located_in_the_files_on_disk() {
    let (_dir, _, sarif) = upgrade_check_sarif();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let summary: Vec<(String, String, String, u64)> = results
        .iter()
        .map(|r| {
            let location = &r["locations"][0]["physicalLocation"];
            (
                string(&r["ruleId"]).to_owned(),
                string(&r["level"]).to_owned(),
                string(&location["artifactLocation"]["uri"]).to_owned(),
                location["region"]["startLine"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "U107".to_owned(),
                "error".to_owned(),
                "blocked.yaml".to_owned(),
                1
            ),
            (
                "U000".to_owned(),
                "note".to_owned(),
                "warn.yaml".to_owned(),
                1
            ),
            (
                "U501".to_owned(),
                "warning".to_owned(),
                "warn.yaml".to_owned(),
                3
            ),
        ]
    );
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let u107 = rules.iter().find(|r| r["id"] == "U107").unwrap();
    assert!(string(&u107["helpUri"]).ends_with("rules/U107-fn-get-azs.md"));
}

#[test]
#[ignore = "needs ../shared/reference and .venv-heat; run by scripts/test.sh beside ../shared"]
fn shared_upgrade_check_sarif_is_valid_against_the_schema() {
    let (_dir, path, _) = upgrade_check_sarif();
    validate_against_schema(&path);
}
