//! Any bytes as a Cloudify blueprint: the first byte picks the declared DSL version
//! (`cloudify_dsl_1_0` … `1_5`), the rest follows the `tosca_definitions_version` line. Runs
//! every rule (`ALL`) as `hotfix lint` does, also with the same text as the blueprint's only
//! local import (`Imported::add`, what the binary hands the rules). Nothing may panic, and
//! every finding's span must lie within the source on character boundaries.

#![no_main]

use std::sync::Arc;

use hotfix_blueprint::{Blueprint, Imported, input_uses};
use hotfix_linter::{Selector, Settings};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = format!("tosca_definitions_version: cloudify_dsl_1_{}\n", first % 6).into_bytes();
    bytes.extend_from_slice(rest);
    let mut settings = Settings {
        select: vec![Selector::All],
        ..Settings::default()
    };
    check(&bytes, &settings);
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return;
    };
    let Ok(doc) = hotfix_yaml::parse(text) else {
        return;
    };
    if let Some(blueprint) = Blueprint::new(&doc) {
        for call in &blueprint.calls {
            assert!(call.parent.is_none_or(|p| p < blueprint.calls.len()));
        }
    }
    let _ = input_uses(&doc);
    let mut imported = Imported::new();
    let _ = imported.add(&doc);
    settings.blueprint_imports = Some(Arc::new(imported));
    check(&bytes, &settings);
});

fn check(bytes: &[u8], settings: &Settings) {
    let diagnostics = hotfix_linter::lint("b.yaml", bytes, settings);
    if let Ok(text) = std::str::from_utf8(bytes) {
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
}
