//! Python's `repr()` of a `str` ([`hotfix_yaml::python_str_repr`], which Heat's messages quote)
//! against the Python Heat runs: the table of the characters it escapes is what
//! `scripts/gen-python-unprintable.py` writes, and every character around each range of the
//! table (and a sample of all the others) is written as `repr()` writes it.
//!
//! These tests need Heat's Python: they are `#[ignore]`d and named `heat_…`, and
//! `scripts/test.sh` runs them after installing it into `.venv-heat`.

use std::io::Write;
use std::process::{Command, Stdio};

use hotfix_testkit::{python, workspace};

#[test]
#[ignore = "needs Heat's Python (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_the_unprintable_table_is_what_the_script_writes() {
    let output = Command::new(python())
        .arg(workspace().join("scripts/gen-python-unprintable.py"))
        .arg("-")
        .output()
        .expect("run scripts/gen-python-unprintable.py");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let fresh = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        fresh == include_str!("../src/unprintable.rs"),
        "crates/hotfix_yaml/src/unprintable.rs is stale against Heat's Python: run\n  \
         .venv-heat/bin/python scripts/gen-python-unprintable.py crates/hotfix_yaml/src/unprintable.rs"
    );
}

#[test]
#[ignore = "needs Heat's Python (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_str_repr_is_pythons_repr_for_every_kind_of_character() {
    // Every 97th code point, and some texts mixing quotes and escapes.
    let mut texts: Vec<String> = (0..0x11_0000u32)
        .step_by(97)
        .chain([
            0x20, 0x7e, 0x7f, 0xa0, 0xa1, 0xad, 0x2028, 0x200b, 0xfeff, 0xe000, 0x1f600,
        ])
        .filter_map(char::from_u32)
        .map(|c| format!("a{c}b"))
        .collect();
    texts.extend(
        [
            "it's",
            "say \"hi\"",
            "both ' and \"",
            "tab\tnl\nret\r\\",
            "\u{a0}get_param",
            "",
        ]
        .map(str::to_owned),
    );
    let script =
        "import json, sys\nfor line in sys.stdin:\n    print(json.dumps(repr(json.loads(line))))\n";
    let mut child = Command::new(python())
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run Python");
    let mut input = String::new();
    for text in &texts {
        input.push_str(&serde_json::to_string(text).expect("JSON"));
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("Python's answers");
    writer.join().expect("writer").expect("write to Python");
    let answers = String::from_utf8(output.stdout).expect("UTF-8");
    let answers: Vec<String> = answers
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(answers.len(), texts.len());
    let wrong: Vec<String> = texts
        .iter()
        .zip(&answers)
        .filter(|(text, python)| hotfix_yaml::python_str_repr(text) != **python)
        .map(|(text, python)| {
            format!(
                "{text:?}: hotfix {} Python {python}",
                hotfix_yaml::python_str_repr(text)
            )
        })
        .take(10)
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
