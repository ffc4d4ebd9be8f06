//! Any bytes through `hotfix lint` and `hotfix lint --fix` as the command line runs them: every
//! rule (`ALL`), then the Safe fixes and the Unsafe ones. Nothing may panic; a fix must never
//! fail to converge or produce text that no longer loads (`fix_file` reports both as errors),
//! fixing the fixed text again must change nothing, and every finding's span must lie within
//! the source on character boundaries.

#![no_main]

use hotfix_linter::{Selector, Settings};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let settings = Settings {
        select: vec![Selector::All],
        ..Settings::default()
    };
    let diagnostics = hotfix_linter::lint("t.yaml", data, &settings);
    if let Ok(text) = std::str::from_utf8(data) {
        for d in &diagnostics {
            assert!(
                d.span.start <= d.span.end
                    && d.span.end <= text.len()
                    && text.is_char_boundary(d.span.start)
                    && text.is_char_boundary(d.span.end),
                "{} span {:?} outside the source",
                d.code,
                d.span
            );
        }
    }
    let Ok(source) = hotfix_yaml::check_bytes(data) else {
        return;
    };
    for unsafe_fixes in [false, true] {
        let outcome = hotfix_linter::fix_file("t.yaml", source, &settings, unsafe_fixes)
            .unwrap_or_else(|err| panic!("fix (unsafe: {unsafe_fixes}) failed: {err}"));
        if outcome.text == source {
            continue;
        }
        assert!(
            hotfix_yaml::parse(&outcome.text).is_ok(),
            "the fixed text does not load"
        );
        let again = hotfix_linter::fix_file("t.yaml", &outcome.text, &settings, unsafe_fixes)
            .unwrap_or_else(|err| panic!("fixing again failed: {err}"));
        assert_eq!(again.text, outcome.text, "fixing again changed the text");
    }
});
