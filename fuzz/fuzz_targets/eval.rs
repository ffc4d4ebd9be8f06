//! Any bytes through `hotfix eval`'s inputs: the first half (up to a NUL byte) is the
//! template, the rest an environment file (its `parameters` and `parameter_defaults` become the
//! inputs, as `hotfix eval -e` reads them). Nothing may panic, whatever the template and the
//! values; the answer must be a JSON object with `parameters`, `resources` and `outputs` when
//! the template has a valid version and no top-level error; and evaluating twice must give the
//! same answer.

#![no_main]

use hotfix_eval::{Inputs, Value};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (template, environment) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(source) = hotfix_yaml::check_bytes(template) else {
        return;
    };
    let Ok(doc) = hotfix_yaml::parse(source) else {
        return;
    };
    let mut inputs = Inputs::default();
    if let Ok(text) = hotfix_yaml::check_bytes(environment)
        && let Ok(Some(env)) = hotfix_yaml::parse_environment(text)
    {
        for entry in env.entries(env.root()) {
            let target = match Value::from_node(&env, entry.key).py_str().as_str() {
                "parameters" => &mut inputs.params,
                "parameter_defaults" => &mut inputs.parameter_defaults,
                _ => continue,
            };
            if let Value::Map(entries) = Value::from_node(&env, entry.value) {
                target.extend(entries.into_iter().map(|(k, v)| (k.py_str(), v)));
            }
        }
    }
    let first = hotfix_eval::evaluate(&doc, &inputs);
    let json = &first.json;
    assert!(json.is_object(), "the answer is not an object: {json}");
    if json.get("version").is_some() && json.get("error").is_none() {
        for key in ["parameters", "resources", "outputs"] {
            assert!(
                json.get(key).is_some_and(serde_json::Value::is_object),
                "no {key}: {json}"
            );
        }
    }
    let again = hotfix_eval::evaluate(&doc, &inputs);
    assert_eq!(again.json, first.json, "a second evaluation differs");
});
