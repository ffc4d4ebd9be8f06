//! H001 quotes the message Heat gives for invalid YAML. Heat's `simple_parse` loads with
//! `CSafeLoader` (libyaml) and, where it refuses, with PyYAML's pure-Python `SafeLoader`, whose
//! message it raises when that refuses too: hotfix words libyaml's refusal as `scanner.py` and
//! `parser.py` do (`mapping values are not allowed here`, `expected <block end>, but found '?'`).

mod common;

use std::process::Command;

use common::python;

/// One refused text of each kind of message hotfix rewords.
const REFUSED: &[&str] = &[
    "a: b\n c: d\n",
    "a: b: c\n",
    "resources: [\n",
    "a: {b: [1, 2}\n",
    "a: {b: 1\nc: d\n",
    "a: [b\nc: d\n",
    "- a\nb: c\n",
    "a: 1\n- b\n",
    "a:\n\tb: 1\n",
    "a: 'x\n",
    "key: \"\\q\"\n",
    "key: \"x\n---\ny\"\n",
    "a: b\n- c\n",
    "a: - b\n",
    "a: |0\n  x\n",
    "a: |x\n  x\n",
    "a: |  x\n  x\n",
    "a: |\tx\n  x\n",
    "a: &x% 1\n",
    "a: *\n",
    "a: !<x 1\n",
    "a: !x!y 1\n",
    "...\n",
    "a: @b\n",
    "a: `b\n",
    "a: b\u{7}\n",
    "a: }\n",
    "a: 1\n]\n",
];

#[test]
#[ignore = "needs Heat's engine (scripts/setup-oracle.sh); run by scripts/test.sh"]
fn heat_invalid_yaml_is_reported_in_heats_words() {
    let script = r"
import json, sys
from heat.common import template_format
for text in json.load(sys.stdin):
    try:
        template_format.simple_parse(text)
        print(json.dumps(None))
    except ValueError as exc:
        message = str(exc).removeprefix('Error parsing template [root stack] ')
        lines = [l for l in message.splitlines() if l and not l.startswith(' ')]
        print(json.dumps(': '.join(lines)))
";
    let mut child = Command::new(python())
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run Heat's Python");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(serde_json::to_string(REFUSED).expect("JSON").as_bytes())
            .expect("write the texts");
    }
    let output = child.wait_with_output().expect("Heat's answers");
    assert!(output.status.success(), "Heat's Python failed");
    let answers: Vec<Option<String>> = String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(answers.len(), REFUSED.len());
    let mut wrong = Vec::new();
    for (text, heat) in REFUSED.iter().zip(&answers) {
        let heat = heat
            .as_deref()
            .unwrap_or_else(|| panic!("Heat loads {text:?}"));
        let ours = match hotfix_yaml::parse(text) {
            Ok(_) => "(loaded)".to_owned(),
            Err(err) => err.message,
        };
        if ours.strip_prefix("invalid YAML: ") != Some(heat) {
            wrong.push(format!("{text:?}\n  Heat:   {heat}\n  hotfix: {ours}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
