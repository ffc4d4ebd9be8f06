//! Any bytes through the K2HR3 template parser and expander, and through `hotfix lint`'s K2HR3
//! path: nothing may panic, every error span must lie within the source on character
//! boundaries, and expansion must stop within its bounds.

#![no_main]

use hotfix_k2hr3::{Limits, Value, Variables};
use libfuzzer_sys::fuzz_target;

const LIMITS: Limits = Limits {
    max_iterations: 10_000,
    max_output: 1 << 16,
};

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let _ = hotfix_linter::lint_k2hr3(source, &hotfix_linter::Settings::default());
    let template = match hotfix_k2hr3::parse(source) {
        Ok(template) => template,
        Err(err) => {
            check_span(source, err.span);
            return;
        }
    };
    let mut vars = Variables::new();
    vars.insert("a".into(), Value::Num(2.0));
    vars.insert("s".into(), Value::Str("text".into()));
    vars.insert("l".into(), Value::Array(vec![Value::Num(1.0), Value::Null]));
    vars.insert(
        "o".into(),
        Value::Object(vec![("k".into(), Value::Bool(true))]),
    );
    match hotfix_k2hr3::expand(&template, &vars, LIMITS) {
        Ok(output) => assert!(output.len() <= LIMITS.max_output),
        Err(err) => check_span(source, err.span),
    }
});

fn check_span(source: &str, span: hotfix_k2hr3::Span) {
    assert!(
        span.start <= span.end && span.end <= source.len(),
        "span {span} is outside the source ({} bytes)",
        source.len()
    );
    assert!(
        source.is_char_boundary(span.start) && source.is_char_boundary(span.end),
        "span {span} is not on character boundaries"
    );
}
