//! `hotfix lint --format github`: workflow commands that GitHub Actions turns into annotations,
//! escaped, grouped per file, capped at what GitHub shows; the default under Actions.

use std::path::{Path, PathBuf};

use hotfix_testkit::{Hotfix, hotfix_binary};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/github/templates")
}

/// A repository in a temporary folder with the fixtures under `templates/`, so that the paths
/// in the annotations do not depend on where the checkout is.
fn repo() -> tempfile::TempDir {
    let dir = hotfix_testkit::repository();
    hotfix_testkit::copy_tree(&fixtures(), &dir.path().join("templates"));
    dir
}

/// The fixtures' warnings are `unused-parameter`, which is outside the default set.
const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!())
    .plain()
    .before(&["lint"])
    .after(&["--extend-select", "H408"]);

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

#[test]
fn annotations_under_github_actions() {
    let dir = repo();
    // No --format: under GitHub Actions the default is `github`.
    let output = HOTFIX
        .in_github_actions()
        .run_in(dir.path(), &["templates", "--no-config"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    snapshot("github_annotations", &stdout);

    // Every line is a workflow command; none is longer than one line.
    for line in stdout.lines() {
        assert!(line.starts_with("::"), "{line}");
    }
    // At most 10 errors and 10 warnings, then one notice with the count of the rest.
    assert_eq!(
        stdout.matches("\n::error ").count() + usize::from(stdout.starts_with("::error ")),
        10
    );
    assert_eq!(stdout.matches("::warning ").count(), 10);
    assert_eq!(stdout.matches("::notice ").count(), 1);
    assert!(
        stdout.contains("::notice title=hotfix::6 more findings not shown"),
        "{stdout}"
    );
    assert!(stdout.contains("--format sarif") && stdout.contains("--format concise"));
    // Groups open and close per file with findings; the clean file has none.
    assert_eq!(stdout.matches("::group::").count(), 2);
    assert_eq!(stdout.matches("::endgroup::").count(), 2);
    assert!(!stdout.contains("clean.yaml"));
    // Property values escape `%`, `:` and `,`; messages escape `%` and line breaks.
    assert!(
        stdout.contains("::group::templates/a,b%25c.yaml\n"),
        "{stdout}"
    );
    assert!(stdout.contains("file=templates/a%2Cb%25c.yaml,line=2,endLine=2,col=24,endColumn=45,"));
    assert!(
        stdout.contains("::`2016-10-14:a,b%25c%0Ad` is not a HOT version"),
        "{stdout}"
    );
    // A finding over two lines has no columns.
    assert!(
        stdout.contains("line=19,endLine=20,title=H601 resource-not-mapping::"),
        "{stdout}"
    );
}

#[test]
fn an_explicit_format_wins_over_github_actions() {
    let dir = repo();
    let output = HOTFIX.in_github_actions().run_in(
        dir.path(),
        &["templates", "--no-config", "--format", "concise"],
    );
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with("templates/a,b%c.yaml:2:24: H102"),
        "{stdout}"
    );
    assert!(!stdout.contains("::error"), "{stdout}");
    // Outside GitHub Actions the default stays human.
    let output = HOTFIX.run_in(dir.path(), &["templates/many.yaml", "--no-config"]);
    assert!(text(&output.stdout).contains("H601(resource-not-mapping)"));
}

#[test]
fn no_findings_no_commands() {
    let dir = repo();
    let output = HOTFIX.run_in(
        dir.path(),
        &["templates/clean.yaml", "--no-config", "--format", "github"],
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "");
}
