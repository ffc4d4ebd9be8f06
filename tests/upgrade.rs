//! `hotfix upgrade` from the outside: writing, `--diff`, `--check`, and files that cannot be
//! upgraded.

use std::process::Output;

mod common;

use common::{copy_tree, snapshot_tree};
use hotfix_testkit::{Hotfix, hotfix_binary};

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).before(&["upgrade"]);

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const OLD: &str = "# keep this comment\nheat_template_version: 2013-05-23\noutputs:\n  o: {value: {\"Fn::Join\": [\"-\", [a, b]]}}  # and this one\n";
const NEW: &str = "# keep this comment\nheat_template_version: 2021-04-16\noutputs:\n  o: {value: {\"list_join\": [\"-\", [a, b]]}}  # and this one\n";

#[test]
fn rewrites_in_place_keeping_comments_and_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.yaml");
    std::fs::write(&file, OLD).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let output = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), NEW);
    assert_eq!(
        text(&output.stdout),
        "t.yaml: upgraded 2013-05-23 → 2021-04-16 (1 rewrite)\n"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    // A second run changes nothing.
    let again = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "t.yaml"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(
        text(&again.stdout).contains("already at 2021-04-16"),
        "{}",
        text(&again.stdout)
    );
}

#[test]
fn diff_and_check_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.yaml");
    std::fs::write(&file, OLD).unwrap();
    let output = HOTFIX.run_in(dir.path(), &["--to", "pike", "--diff", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0));
    let diff = text(&output.stdout);
    assert!(diff.starts_with("--- a/t.yaml\n+++ b/t.yaml\n"), "{diff}");
    assert!(
        diff.contains("-heat_template_version: 2013-05-23\n+heat_template_version: 2017-09-01\n"),
        "{diff}"
    );
    assert!(
        text(&output.stderr).contains("would be upgraded"),
        "{}",
        text(&output.stderr)
    );
    let check = HOTFIX.run_in(dir.path(), &["--to", "pike", "--check", "t.yaml"]);
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), OLD);
    let names = HOTFIX.run_in(
        dir.path(),
        &[
            "--to",
            "pike",
            "--check",
            "--version-style",
            "name",
            "t.yaml",
        ],
    );
    assert_eq!(names.status.code(), Some(1));
}

#[test]
fn broken_read_only_and_foreign_files_get_their_own_message_and_the_rest_is_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a-good.yaml"), OLD).unwrap();
    std::fs::write(
        dir.path().join("b-broken.yaml"),
        "heat_template_version: 2013-05-23\noutputs: [\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("c-roles.yaml"), "- name: Controller\n").unwrap();
    let read_only = dir.path().join("d-read-only.yaml");
    std::fs::write(&read_only, OLD).unwrap();
    let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&read_only, permissions).unwrap();
    let output = HOTFIX.run_in(
        dir.path(),
        &[
            "--to",
            "wallaby",
            "a-good.yaml",
            "b-broken.yaml",
            "c-roles.yaml",
            "d-read-only.yaml",
        ],
    );
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("b-broken.yaml: error: invalid YAML"),
        "{stderr}"
    );
    assert!(
        stderr.contains("c-roles.yaml: skipped: not a HOT template"),
        "{stderr}"
    );
    assert!(
        stderr.contains("d-read-only.yaml: error: not rewritten: the file is read-only"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a-good.yaml")).unwrap(),
        NEW
    );
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), OLD);
}

#[test]
fn a_blocked_file_says_where_and_why_and_exits_with_1() {
    let dir = tempfile::tempdir().unwrap();
    let source = "heat_template_version: 2013-05-23\noutputs:\n  zones: {value: {\"Fn::GetAZs\": \"\"}}\n  joined: {value: {\"Fn::Join\": [\",\", [a]]}}\n";
    std::fs::write(dir.path().join("t.yaml"), source).unwrap();
    let output = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "t.yaml"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("blocked at step 2013-05-23 → 2014-10-16 by U107 at 3:"),
        "{stdout}"
    );
    // Nothing is written: the template stays at the version its content meets.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t.yaml")).unwrap(),
        source
    );
}

/// A function under a resource key Heat rejects at any version is not rewritten (Heat never
/// evaluates it); the blocker named is that key (Heat, validate: `"propertes" is not a valid
/// keyword inside a resource definition`), not the function the bump would leave behind.
#[test]
fn a_function_under_a_key_heat_rejects_blocks_as_that_key_not_as_the_function() {
    let dir = tempfile::tempdir().unwrap();
    let source = "heat_template_version: 2013-05-23\nresources:\n  r:\n    type: OS::Heat::None\n    propertes:\n      value: {\"Fn::Join\": [\"\", [a, b]]}\n";
    std::fs::write(dir.path().join("t.yaml"), source).unwrap();
    let output = HOTFIX.run_in(dir.path(), &["--to", "2016-10-14", "-v", "t.yaml"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with(
            "t.yaml: blocked at step 2013-05-23 → 2014-10-16 by H603 at 5:5: \
             `propertes` is not a valid resource key\n"
        ),
        "{stdout}"
    );
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("hotfix does not rewrite the `Fn::Join` under it"),
        "{stderr}"
    );
    assert!(
        !stdout.contains("H201") && !stderr.contains("H201"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t.yaml")).unwrap(),
        source
    );
}

#[test]
fn a_misspelt_version_is_refused_not_upgraded_as_its_correction() {
    let dir = tempfile::tempdir().unwrap();
    // Linting reads this as 2016-10-14; upgrading must not: Heat refuses the file as it is.
    let source =
        "heat_template_version: 2016-10-15\noutputs:\n  o: {value: {get_param: OS::stack_name}}\n";
    std::fs::write(dir.path().join("t.yaml"), source).unwrap();
    let output = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "t.yaml"]);
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("t.yaml: error: no valid heat_template_version"),
        "{stderr}"
    );
    assert_ne!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t.yaml")).unwrap(),
        source
    );
}

const DEPRECATED: &str = "heat_template_version: 2016-10-14  # kept\r\nresources:\r\n  port:\r\n    type: OS::Neutron::Port\r\n    properties:\r\n      network_id: private  # renamed\r\n  password:\r\n    type: OS::Heat::RandomString\r\n    properties: {sequence: digits}\r\n  deployments:\r\n    type: OS::Heat::SoftwareDeployments\r\n    properties: {config: abc, servers: {}}\r\n";

#[test]
fn a_heat_release_upgrades_to_its_newest_version_and_fixes_what_it_deprecated_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.yaml");
    std::fs::write(&file, DEPRECATED).unwrap();
    // Safe fixes only: the version and the rename; the Unsafe ones are left, and counted.
    let output = HOTFIX.run_in(dir.path(), &["--heat-release", "wallaby", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let safe = DEPRECATED
        .replace("2016-10-14  # kept", "2021-04-16  # kept")
        .replace("network_id: private", "network: private");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), safe);
    assert_eq!(
        text(&output.stdout),
        "t.yaml: upgraded 2016-10-14 → 2021-04-16 (0 rewrites); 1 deprecation fixed, 2 left\n"
    );
    assert_eq!(
        summary(&output),
        "1 upgraded, 0 already at 2021-04-16, 0 blocked, 0 failed; 1 deprecation fixed, 2 left"
    );
    // With --unsafe-fixes, the rest, each reported.
    let output = HOTFIX.run_in(
        dir.path(),
        &["--heat-release", "wallaby", "--unsafe-fixes", "t.yaml"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let all = safe
        .replace(
            "{sequence: digits}",
            "{character_classes: [{class: digits, min: 1}]}",
        )
        .replace(
            "OS::Heat::SoftwareDeployments",
            "OS::Heat::SoftwareDeploymentGroup",
        );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), all);
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("t.yaml: H611 unsafe fix applied: Change the type to `OS::Heat::SoftwareDeploymentGroup`"),
        "{stderr}"
    );
    assert!(
        summary(&output).ends_with("; 2 deprecations fixed (2 unsafe), 0 left"),
        "{stderr}"
    );
    // A release and a newer target are refused; a release names an older target.
    let newer = HOTFIX.run_in(
        dir.path(),
        &["--heat-release", "ussuri", "--to", "wallaby", "t.yaml"],
    );
    assert_eq!(newer.status.code(), Some(2));
    assert!(
        text(&newer.stderr)
            .contains("newer than ussuri's Heat accepts: its newest version is 2018-08-31"),
        "{}",
        text(&newer.stderr)
    );
    std::fs::write(&file, DEPRECATED).unwrap();
    let check = HOTFIX.run_in(
        dir.path(),
        &["--heat-release", "queens", "--check", "t.yaml"],
    );
    assert_eq!(check.status.code(), Some(1));
    assert!(
        text(&check.stdout).contains("would be upgraded 2016-10-14 → 2018-03-02 (0 rewrites); 1 deprecation would be fixed, 2 left"),
        "{}",
        text(&check.stdout)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), DEPRECATED);
}

#[test]
fn bad_targets_are_tool_errors() {
    let dir = tempfile::tempdir().unwrap();
    let output = HOTFIX.run_in(dir.path(), &["--to", "Pike"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("`Pike` is not a HOT version"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
#[ignore = "needs ../shared/corpus; run by scripts/test.sh beside ../shared"]
fn shared_upgrading_a_copy_of_the_corpus_twice_changes_nothing_the_second_time() {
    let corpus = common::corpus();
    let dir = tempfile::tempdir().expect("file system");
    copy_tree(&corpus, dir.path());
    let first = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "."]);
    assert_ne!(first.status.code(), Some(2), "{}", text(&first.stderr));
    let upgraded = text(&first.stdout).matches(": upgraded").count();
    let after_first = snapshot_tree(dir.path());
    let second = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "."]);
    assert_ne!(second.status.code(), Some(2), "{}", text(&second.stderr));
    assert_eq!(
        text(&second.stdout).matches(": upgraded").count(),
        0,
        "{}",
        text(&second.stdout)
    );
    let after_second = snapshot_tree(dir.path());
    assert!(after_first == after_second, "the second run changed files");
    eprintln!("corpus copy: {upgraded} templates upgraded by the first run, none by the second");
    assert!(upgraded > 100, "too few upgrades: {upgraded}");
}

/// The last line of standard error: the closing summary.
fn summary(output: &Output) -> String {
    text(&output.stderr)
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_closing_summary_counts_upgraded_current_blocked_and_failed_templates() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a-old.yaml"), OLD).unwrap();
    std::fs::write(dir.path().join("b-new.yaml"), NEW).unwrap();
    std::fs::write(
        dir.path().join("c-zones.yaml"),
        "heat_template_version: 2013-05-23\noutputs:\n  zones: {value: {\"Fn::GetAZs\": \"\"}}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("d-broken.yaml"),
        "heat_template_version: 2013-05-23\noutputs: [\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("e-roles.yaml"), "- name: Controller\n").unwrap();

    let check = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "--check", "."]);
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(
        summary(&check),
        "1 would be upgraded, 1 already at wallaby, 1 blocked, 1 failed"
    );
    let diff = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "--diff", "--verbose", "."]);
    assert_eq!(
        summary(&diff),
        "1 would be upgraded, 1 already at wallaby, 1 blocked, 1 failed, 1 skipped (not templates)"
    );
    // Above the target counts as current.
    let pike = HOTFIX.run_in(dir.path(), &["--to", "pike", "--check", "."]);
    assert_eq!(
        summary(&pike),
        "1 would be upgraded, 1 already at pike or later, 1 blocked, 1 failed"
    );

    let write = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "."]);
    assert_eq!(
        summary(&write),
        "1 upgraded, 1 already at wallaby, 1 blocked, 1 failed"
    );
    let again = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "."]);
    assert_eq!(
        summary(&again),
        "0 upgraded, 2 already at wallaby, 1 blocked, 1 failed"
    );
}

#[test]
fn the_summary_counts_files_upgraded_part_of_the_way() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.yaml"),
        "heat_template_version: 2013-05-23\nparameters:\n  j: {type: json}\noutputs:\n  o: {value: {\"Fn::Join\": [\",\", [a]]}}\n  s: {value: {\"Fn::Select\": [x, {get_param: j}]}}\n",
    )
    .unwrap();
    let check = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "--check", "t.yaml"]);
    assert_eq!(
        summary(&check),
        "0 would be upgraded, 0 already at wallaby, 1 blocked (1 would be upgraded part of the way), 0 failed"
    );
    let write = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "t.yaml"]);
    assert_eq!(
        summary(&write),
        "0 upgraded, 0 already at wallaby, 1 blocked (1 upgraded part of the way), 0 failed"
    );
}

const TWO_BASE64: &str = "heat_template_version: 2013-05-23\nparameters:\n  data: {type: json}\nresources:\n  a:\n    type: OS::Heat::None\n    properties:\n      user_data: {\"Fn::Base64\": {get_param: data}}\n  b:\n    type: OS::Heat::None\n    properties:\n      user_data: {\"Fn::Base64\": {get_param: data}}\n";

#[test]
fn a_blocked_file_counts_its_other_blockers_and_says_what_unsafe_fixes_would_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.yaml"), TWO_BASE64).unwrap();
    let output = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "--check", "t.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "t.yaml: blocked at step 2013-05-23 → 2014-10-16 by U104 at 8:19: `Fn::Base64` is removed in 2014-10-16 \
         (and 1 more; --verbose lists them; --unsafe-fixes would rewrite it up to 2021-04-16: \
         U104 Replace `Fn::Base64: X` with `X`, and 1 more Unsafe rewrite)\n"
    );
    // With --verbose, every blocker with its help, and every Unsafe rewrite.
    let verbose = HOTFIX.run_in(
        dir.path(),
        &["--to", "wallaby", "--check", "--verbose", "t.yaml"],
    );
    let stdout = text(&verbose.stdout);
    assert!(
        stdout.contains("(and 1 more, listed below; --unsafe-fixes would rewrite it up to 2021-04-16 with the 2 Unsafe rewrites listed below)"),
        "{stdout}"
    );
    let stderr = text(&verbose.stderr);
    for line in [
        "  t.yaml:8:19: U104 blocks step 2013-05-23 → 2014-10-16: `Fn::Base64` is removed in 2014-10-16\n    help: `Fn::Base64` encodes nothing",
        "  t.yaml:12:19: U104 blocks step 2013-05-23 → 2014-10-16: `Fn::Base64` is removed in 2014-10-16\n    help: `Fn::Base64` encodes nothing",
    ] {
        assert!(stderr.contains(line), "{stderr}");
    }
    assert_eq!(
        stderr
            .matches("t.yaml: U104 --unsafe-fixes would apply: Replace `Fn::Base64: X` with `X`\n")
            .count(),
        2,
        "{stderr}"
    );
    // The claim holds: with --unsafe-fixes the file goes all the way.
    let bolder = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "--unsafe-fixes", "t.yaml"]);
    assert_eq!(bolder.status.code(), Some(0), "{}", text(&bolder.stderr));
    assert_eq!(
        text(&bolder.stdout),
        "t.yaml: upgraded 2013-05-23 → 2021-04-16 (2 rewrites)\n"
    );
}

#[test]
fn unsafe_fixes_are_not_suggested_where_they_would_not_get_further() {
    let dir = tempfile::tempdir().unwrap();
    // The Unsafe rewrite of Fn::Base64 would go through, but Fn::GetAZs blocks the same step.
    let source = format!("{TWO_BASE64}outputs:\n  zones: {{value: {{\"Fn::GetAZs\": \"\"}}}}\n");
    std::fs::write(dir.path().join("t.yaml"), &source).unwrap();
    let output = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "--check", "t.yaml"]);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("(and 2 more; --verbose lists them; its rewrite is Unsafe, but --unsafe-fixes alone would not get the file further)\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("--unsafe-fixes would rewrite"), "{stdout}");
}

#[test]
fn a_rewrite_that_would_erase_a_likely_mistake_is_withheld_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let source = "heat_template_version: 2015-04-30\nresources:\n  server: {type: OS::Heat::None}\noutputs:\n  ip: {value: {Fn::Select: [1, [{Fn::GetAtt: [server, first_address]}, none]]}}\n";
    std::fs::write(dir.path().join("t.yaml"), source).unwrap();
    let output = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "t.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "t.yaml: blocked at step 2015-04-30 → 2015-10-15 by U301 at 5:16: `Fn::Select` is removed in 2015-10-15, \
         and its rewrite is withheld: it would erase what H204 reports at 5:34 \
         (`Fn::GetAtt` is a CloudFormation function, not a HOT function)\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t.yaml")).unwrap(),
        source
    );
}

#[test]
fn an_upgrade_that_would_grow_past_heats_size_limit_is_blocked_not_an_internal_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Just under Heat's 524,288 characters; each `Fn::Join` → `list_join` adds a character.
    let mut template = String::from("heat_template_version: 2013-05-23\noutputs:\n");
    let mut i = 0;
    loop {
        let line = format!("  o{i}: {{value: {{\"Fn::Join\": [\"\", [a, b]]}}}}\n");
        if template.len() + line.len() > 524_288 - 64 {
            break;
        }
        template.push_str(&line);
        i += 1;
    }
    template.push('#');
    template.push_str(&"x".repeat(524_288 - template.len() - 1));
    template.push('\n');
    assert_eq!(template.len(), 524_288);
    std::fs::write(dir.path().join("near.yaml"), &template).expect("write");
    let output = HOTFIX.run_in(dir.path(), &["--to", "wallaby", "near.yaml"]);
    let stderr = text(&output.stderr);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "near.yaml: blocked at step 2013-05-23 → 2014-10-16 by H001 at 1:1: Request limit \
             exceeded: Template size ("
        ),
        "{stdout}{stderr}"
    );
    assert!(!stderr.contains("internal error"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("near.yaml")).expect("read"),
        template
    );
}
