//! Any bytes through `hotfix eval` with a file map: the input is split at NUL bytes into a
//! template and up to three files, sent as `get_file` sends them under the keys `a`, `b.yaml`
//! and `file:///c` (a template that names them gets their text). Nothing may panic, whatever
//! the template multiplies (the evaluation stops at its budget); the answer is a JSON object;
//! evaluating twice gives the same answer.

#![no_main]

use hotfix_eval::Inputs;
use libfuzzer_sys::fuzz_target;

const KEYS: [&str; 3] = ["a", "b.yaml", "file:///c"];

fuzz_target!(|data: &[u8]| {
    let mut parts = data.split(|&b| b == 0);
    let Some(template) = parts.next() else {
        return;
    };
    let Ok(source) = hotfix_yaml::check_bytes(template) else {
        return;
    };
    let Ok(doc) = hotfix_yaml::parse(source) else {
        return;
    };
    let mut inputs = Inputs::default();
    for (key, part) in KEYS.iter().zip(parts) {
        inputs
            .files
            .insert((*key).to_owned(), String::from_utf8_lossy(part).into_owned());
    }
    let first = hotfix_eval::evaluate(&doc, &inputs);
    assert!(first.json.is_object(), "the answer is not an object");
    let again = hotfix_eval::evaluate(&doc, &inputs);
    assert_eq!(again.json, first.json, "a second evaluation differs");
});
