//! Any bytes through `hotfix upgrade --to wallaby`, with and without `--unsafe-fixes`. Nothing
//! may panic; the only errors allowed are the input's own (not loadable, no valid version), never
//! an internal one (rewrites that do not converge or produce text that does not parse); the
//! upgraded text must load and declare the version the upgrade reached; and upgrading the
//! result again must change nothing.

#![no_main]

use hotfix_hot::{Template, Version};
use hotfix_linter::upgrade::{UpgradeError, UpgradeOptions, UpgradeStatus, upgrade};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = hotfix_yaml::check_bytes(data) else {
        return;
    };
    for unsafe_fixes in [false, true] {
        let options = UpgradeOptions {
            target: Version::LATEST,
            unsafe_fixes,
            version_style: Default::default(),
        };
        let result = match upgrade(source, &options) {
            Ok(result) => result,
            Err(UpgradeError::Load(_) | UpgradeError::NoVersion) => return,
            Err(err) => panic!("upgrade (unsafe: {unsafe_fixes}) failed: {err}"),
        };
        let reached = match &result.status {
            UpgradeStatus::AlreadyAtTarget { .. } => continue,
            UpgradeStatus::Upgraded { to, .. } => *to,
            UpgradeStatus::Blocked { reached, .. } => *reached,
        };
        let doc = hotfix_yaml::parse(&result.text)
            .unwrap_or_else(|err| panic!("the upgraded text does not load: {}", err.message));
        assert_eq!(
            Template::new(&doc).version(),
            Some(reached),
            "the upgraded text does not declare the version reached"
        );
        let again = upgrade(&result.text, &options)
            .unwrap_or_else(|err| panic!("upgrading the result failed: {err}"));
        assert_eq!(again.text, result.text, "a second upgrade changed the text");
    }
});
