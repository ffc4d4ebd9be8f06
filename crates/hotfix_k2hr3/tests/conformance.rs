//! The conformance table: every `testdata/k2hr3/expand/NAME.k2hr3` (with its variables in
//! `NAME.json` when there is one) expanded, the result or the error snapshotted in
//! `snapshots/k2hr3/`. Line breaks show as `⏎`, carriage returns as `␍`, so that every byte of
//! the output is visible in the snapshot.

use std::path::{Path, PathBuf};

use hotfix_k2hr3::{Limits, Variables};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/k2hr3/expand")
}

/// Expands `source` and shows the result (or the error, with the text its span covers).
fn render(source: &str, vars: &Variables) -> String {
    let limits = Limits {
        max_iterations: 10_000,
        max_output: 1 << 20,
    };
    let parsed = hotfix_k2hr3::parse(source);
    let (message, span) = match parsed {
        Ok(template) => match hotfix_k2hr3::expand(&template, vars, limits) {
            Ok(output) => return format!("output:\n{}", visible(&output)),
            Err(err) => (format!("expansion error: {err}"), err.span),
        },
        Err(err) => (format!("parse error: {err}"), err.span),
    };
    format!("{message}\nat {span}: {}", visible(&source[span.range()]))
}

fn visible(text: &str) -> String {
    text.replace('\r', "␍").replace('\n', "⏎\n")
}

fn load_vars(path: &Path) -> Variables {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Variables::new();
    };
    let value: hotfix_k2hr3::Value = serde_json::from_str(&text).expect("valid variables");
    let hotfix_k2hr3::Value::Object(entries) = value else {
        panic!("{}: the variables must be an object", path.display());
    };
    entries.into_iter().collect()
}

#[test]
fn every_fixture_expands_as_its_snapshot_shows() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("the fixtures folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "k2hr3"))
        .collect();
    files.sort();
    assert!(files.len() > 40, "the conformance table is missing");
    for file in files {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a name")
            .to_owned();
        let source = std::fs::read_to_string(&file).expect("a UTF-8 fixture");
        let vars = load_vars(&file.with_extension("json"));
        insta::with_settings!({
            snapshot_path => "../../../snapshots/k2hr3",
            prepend_module_to_snapshot => false,
            omit_expression => true,
            description => format!("testdata/k2hr3/expand/{stem}.k2hr3\n{source}"),
        }, {
            insta::assert_snapshot!(stem, render(&source, &vars));
        });
    }
}
