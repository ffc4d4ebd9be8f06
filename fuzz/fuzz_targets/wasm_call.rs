//! The playground's engine (`hotfix_wasm::call`) on any request: raw bytes as the request, or a
//! well-formed request of each operation (lint, fix, apply, upgrade, eval, graph) over a tree of
//! two files whose texts and settings come from the input (the second given as an environment,
//! `-e`, to every operation). Nothing may panic, and every answer must be JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const OPS: [&str; 7] = ["lint", "fix", "apply", "upgrade", "rules", "eval", "graph"];
const VERSIONS: [&str; 3] = ["2013-05-23", "2018-08-31", "wallaby"];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let request = if first & 1 == 0 {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        let text = String::from_utf8_lossy(rest);
        // Two files: the template, and an environment made of its second half.
        let mid = (0..=text.len() / 2)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let (template, environment) = text.split_at(mid);
        let template = template.to_owned();
        let environment = environment.to_owned();
        json!({
            "op": OPS[usize::from(first >> 1) % OPS.len()],
            "files": {"t.yaml": template, "env.yaml": environment, "nested/n.yaml": "heat_template_version: 2018-08-31\n"},
            "path": if first & 0x80 == 0 { "t.yaml" } else { "env.yaml" },
            "index": usize::from(first >> 4),
            "to": VERSIONS[usize::from(first >> 5) % VERSIONS.len()],
            "unsafe_fixes": first & 0x40 != 0,
            "environments": if first & 0x40 != 0 { json!(["env.yaml"]) } else { json!([]) },
            "parameters": {"p": "1"},
            "settings": {"select": ["ALL"], "heat_release": if first & 0x20 != 0 { Value::from("queens") } else { Value::Null }},
        })
        .to_string()
    };
    let answer = hotfix_wasm::call(&request);
    assert!(
        serde_json::from_str::<Value>(&answer).is_ok(),
        "not a JSON answer: {answer}"
    );
});
