//! `hotfix lint --format junit`: JUnit XML that CI servers read as a test report, a suite per
//! file and a failing test case per finding, well-formed whatever the templates hold.
//!
//! The schema tests are `#[ignore]`d: they need the Python of `.venv-heat` (lxml) and the JUnit
//! schema that `scripts/setup-oracle.sh` takes from pytest's source package; `scripts/test.sh`
//! runs the `heat_` one everywhere and the `shared_` one (the corpus) beside `../shared`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use hotfix_testkit::{Hotfix, hotfix_binary};
use serde_json::Value;

mod common;

use common::copy_tree;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// A file whose name XML must escape, written here so that no checkout has to hold it.
const AWKWARD_NAME: &str = "tom & \"jerry\" <1>.yaml";

/// A repository in a temporary folder: the format fixtures and the annotation fixtures under
/// `templates/`, and a file with an awkward name.
fn fixture_repo() -> tempfile::TempDir {
    let dir = hotfix_testkit::repository();
    let templates = dir.path().join("templates");
    for from in [
        "testdata/cli/formats/templates",
        "testdata/cli/github/templates",
    ] {
        copy_tree(&repo().join(from), &templates);
    }
    std::fs::write(
        templates.join(AWKWARD_NAME),
        "heat_template_version: 2016-10-14\nresources: {r: {type: OS::Heat::None, properties: {v: {get_param: x}}}}\n",
    )
    .expect("the fixture files");
    dir
}

/// The fixtures' warnings include `unused-parameter`, which is outside the default set.
const HOTFIX: Hotfix =
    Hotfix::new(hotfix_binary!())
        .plain()
        .before(&["lint", "--extend-select", "H408"]);

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
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

/// The fixture repository's report, and the findings of `--format json` to check it against.
fn junit_and_json() -> (tempfile::TempDir, String, Vec<Value>) {
    let dir = fixture_repo();
    let output = HOTFIX.run_in(
        dir.path(),
        &["templates", "--no-config", "--format", "junit"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert_eq!(text(&output.stderr), "", "no summary beside machine output");
    let xml = String::from_utf8(output.stdout).expect("the report is UTF-8");
    let json = HOTFIX.run_in(
        dir.path(),
        &["templates", "--no-config", "--format", "json"],
    );
    let findings: Vec<Value> = serde_json::from_slice(&json.stdout).expect("JSON findings");
    (dir, xml, findings)
}

fn attribute<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> &'a str {
    node.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", node.tag_name().name()))
}

fn count(node: roxmltree::Node<'_, '_>, name: &str) -> usize {
    attribute(node, name).parse().expect("a count")
}

#[test]
fn junit_has_a_suite_per_file_and_a_failing_case_per_finding() {
    let (dir, xml, findings) = junit_and_json();
    snapshot("junit_report", &xml);

    let document = roxmltree::Document::parse(&xml).expect("well-formed XML 1.0");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(attribute(root, "name"), "hotfix");
    let suites: Vec<_> = root
        .children()
        .filter(roxmltree::Node::is_element)
        .collect();
    assert!(suites.iter().all(|s| s.has_tag_name("testsuite")));

    // One suite per linted file, in path order, named by its repository-relative path.
    let names: Vec<&str> = suites.iter().map(|s| attribute(*s, "name")).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    let linted: BTreeSet<String> = std::fs::read_dir(dir.path().join("templates"))
        .unwrap()
        .map(|e| format!("templates/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    assert_eq!(
        names
            .iter()
            .map(|n| (*n).to_owned())
            .collect::<BTreeSet<_>>(),
        linted
    );

    // One failing test case per finding; a clean file is one passing test case.
    let mut per_file: BTreeMap<String, usize> = BTreeMap::new();
    for finding in &findings {
        *per_file
            .entry(finding["path"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    let mut total_tests = 0;
    let mut total_failures = 0;
    for suite in &suites {
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let failures: Vec<_> = cases
            .iter()
            .filter_map(|c| c.children().find(|n| n.has_tag_name("failure")))
            .collect();
        let expected = per_file
            .get(attribute(*suite, "name"))
            .copied()
            .unwrap_or(0);
        assert_eq!(failures.len(), expected, "{}", attribute(*suite, "name"));
        assert_eq!(count(*suite, "tests"), cases.len());
        assert_eq!(count(*suite, "failures"), failures.len());
        assert_eq!(count(*suite, "errors"), 0);
        if expected == 0 {
            assert_eq!(cases.len(), 1);
            assert_eq!(attribute(cases[0], "name"), "no findings");
        }
        // GitLab keys test cases by suite, class name and name: each must be unique.
        let keys: BTreeSet<(&str, &str)> = cases
            .iter()
            .map(|c| (attribute(*c, "classname"), attribute(*c, "name")))
            .collect();
        assert_eq!(keys.len(), cases.len(), "{}", attribute(*suite, "name"));
        for failure in &failures {
            assert!(["error", "warning", "info"].contains(&attribute(*failure, "type")));
            assert!(!attribute(*failure, "message").is_empty());
        }
        total_tests += cases.len();
        total_failures += failures.len();
    }
    assert_eq!(count(root, "tests"), total_tests);
    assert_eq!(count(root, "failures"), total_failures);
    assert_eq!(total_failures, findings.len());
}

#[test]
fn junit_escapes_what_xml_cannot_hold_as_is() {
    let (_dir, xml, _) = junit_and_json();
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML 1.0");
    let suite = |name: &str| {
        document
            .descendants()
            .find(|n| n.has_tag_name("testsuite") && n.attribute("name") == Some(name))
            .unwrap_or_else(|| panic!("no suite {name}"))
    };

    // Markup characters, a tab and a carriage return come back as they were; U+0001 and U+FFFE,
    // which XML 1.0 cannot hold even as references, become U+FFFD.
    let escapes = suite("templates/escapes.yaml");
    let failure = escapes
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    let version = "2016-10-14<&\"'>]]>\u{fffd}\t\u{fffd}\r";
    assert_eq!(
        attribute(failure, "message"),
        format!("`{version}` is not a HOT version Heat knows")
    );
    let body = failure.text().expect("the failure text");
    assert!(
        body.starts_with(&format!(
            "templates/escapes.yaml:3:24: H102 `{version}` is not a HOT version Heat knows\nhelp: "
        )),
        "{body:?}"
    );
    // A line break inside an attribute is kept (a parser would turn a raw one into a space).
    let annotated = suite("templates/a,b%c.yaml");
    let failure = annotated
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    assert!(attribute(failure, "message").contains("a,b%c\nd"));

    // A file name with markup characters names its suite and class.
    let awkward = suite(&format!("templates/{AWKWARD_NAME}"));
    let case = awkward
        .children()
        .find(|n| n.has_tag_name("testcase"))
        .expect("a test case");
    assert_eq!(
        attribute(case, "classname"),
        "templates/tom & \"jerry\" <1>"
    );
    assert_eq!(attribute(case, "name"), "H301 undefined-parameter at 2:67");

    // Two findings of one rule on one line are two test cases.
    let repeat = suite("templates/repeat.yaml");
    let names: Vec<&str> = repeat
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|c| attribute(c, "name"))
        .collect();
    assert!(
        names.contains(&"H301 undefined-parameter at 21:27"),
        "{names:?}"
    );
    assert!(
        names.contains(&"H301 undefined-parameter at 21:46"),
        "{names:?}"
    );
}

#[test]
fn junit_is_the_same_on_every_run_and_with_output() {
    let dir = fixture_repo();
    let first = HOTFIX.run_in(dir.path(), &["templates", "--format", "junit"]);
    let second = HOTFIX.run_in(dir.path(), &["templates", "--format", "junit"]);
    assert_eq!(first.stdout, second.stdout);
    let written = HOTFIX.run_in(
        dir.path(),
        &["templates", "--format", "junit", "--output", "report.xml"],
    );
    assert_eq!(written.status.code(), Some(1));
    assert_eq!(text(&written.stdout), "");
    assert_eq!(
        std::fs::read(dir.path().join("report.xml")).unwrap(),
        first.stdout
    );
    // The summary goes to stderr when the report goes to a file.
    assert!(text(&written.stderr).contains("templates checked"));
}

#[test]
fn junit_of_no_templates_is_one_passing_case() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let output = HOTFIX.run_in(dir.path(), &["empty", "--format", "junit"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let xml = text(&output.stdout);
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML 1.0");
    let cases: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 1, "{xml}");
    assert!(cases[0].children().all(|n| !n.is_element()), "{xml}");
    assert_eq!(count(document.root_element(), "failures"), 0);
}

/// Runs `scripts/validate-junit.py` (xml.etree, then lxml against the JUnit schema) with the
/// Python of `.venv-heat`: whether it accepts the report, and what it said.
fn run_validator(report: &Path) -> (bool, String) {
    let python = repo().join(".venv-heat/bin/python");
    assert!(
        python.is_file(),
        "{} is missing: run scripts/setup-oracle.sh",
        python.display()
    );
    let output = Command::new(&python)
        .arg(repo().join("scripts/validate-junit.py"))
        .arg(report)
        .output()
        .expect("run scripts/validate-junit.py");
    let said = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "the validator could not run:\n{said}"
    );
    (output.status.success(), said)
}

#[test]
#[ignore = "needs .venv-heat and the JUnit schema (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_junit_is_valid_against_the_jenkins_schema() {
    let (dir, xml, _) = junit_and_json();
    let path = dir.path().join("report.xml");
    std::fs::write(&path, &xml).unwrap();
    let (valid, said) = run_validator(&path);
    assert!(valid, "{said}");
    println!("{}", said.trim());

    // The validator is not a rubber stamp: an attribute the schema does not have, and a test
    // case without a name, are each reported.
    let broken = xml
        .replacen("<testcase name=", "<testcase line=\"1\" name=", 1)
        .replacen("<testcase name=\"no findings\"", "<testcase", 1);
    std::fs::write(&path, broken).unwrap();
    let (valid, said) = run_validator(&path);
    assert!(!valid, "{said}");
    for complaint in ["line", "name"] {
        assert!(said.contains(complaint), "{complaint}: {said}");
    }
}

#[test]
#[ignore = "needs ../shared, .venv-heat and the JUnit schema; run by scripts/test.sh beside ../shared"]
fn shared_junit_of_the_corpus_is_valid_against_the_jenkins_schema() {
    let corpus = repo().join("../shared/corpus");
    assert!(
        corpus.is_dir(),
        "{} is missing: ../shared must sit beside the repository",
        corpus.display()
    );
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("corpus.xml");
    let output = HOTFIX.run_in(
        &corpus,
        &[
            ".",
            "--format",
            "junit",
            "--exit-zero",
            "--output",
            path.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let (valid, said) = run_validator(&path);
    assert!(valid, "{said}");
    let xml = std::fs::read_to_string(&path).unwrap();
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML 1.0");
    let failures = document
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    let json = HOTFIX.run_in(&corpus, &[".", "--format", "json", "--exit-zero"]);
    let findings: Vec<Value> = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(failures, findings.len());
    assert!(failures > 500, "{failures} failures");
    println!("corpus: {}", said.trim());
}
