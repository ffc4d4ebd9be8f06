//! `hotfix lint` from the outside: discovery, formats, configuration, suppression, exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/lint")
}

/// Runs hotfix in `testdata/cli/lint` with only the template rules (H1), so that the output
/// does not change whenever a rule is added elsewhere.
fn lint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(tree())
        .arg("lint")
        .args(args)
        .env("NO_COLOR", "1")
        // Under GitHub Actions the default format would be `github`.
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run hotfix")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn walks_folders_finds_templates_by_content_and_skips_the_rest() {
    let output = lint(&[
        "tree",
        "--select",
        "H1",
        "--format",
        "concise",
        "--no-config",
        "--verbose",
    ]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    // `nested/suppressed.yaml` has an H104 finding, suppressed by its inline comment.
    // `broken.yaml` misspells its version: it is linted as the correction, 2016-10-14.
    assert_eq!(
        stdout,
        "tree/broken.yaml:1:24: H102 `2016-10-15` is not a HOT version Heat knows\n\
         tree/broken.yaml:3:1: H104 `resource` is not a template section in 2016-10-14\n\
         tree/nested/template.json:1:41: H104 `resource` is not a template section in 2016-10-14\n"
    );
    // Hidden folders and .gitignored files are not walked; others are skipped with a reason.
    assert!(
        !stdout.contains("hidden") && !stdout.contains("ignored.yaml"),
        "{stdout}"
    );
    // Environment files are linted with the rules of environments.
    assert!(
        !stderr.contains("skipped tree/environments/env.yaml"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skipped tree/overcloud.j2.yaml: a Jinja2 source"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skipped tree/roles.yaml: not a HOT template"),
        "{stderr}"
    );
    assert!(
        stderr.contains("4 templates and 1 environment file checked (2 skipped): 3 errors"),
        "{stderr}"
    );
}

#[test]
fn inline_suppression_hides_the_finding_it_names() {
    let output = lint(&[
        "tree/nested/suppressed.yaml",
        "--select",
        "H1,H010",
        "--format",
        "concise",
        "--no-config",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    assert_eq!(text(&output.stdout), "");
}

#[test]
fn exit_codes_follow_the_failing_severity() {
    assert_eq!(
        lint(&["tree/good.yaml", "--no-config"]).status.code(),
        Some(0)
    );
    assert_eq!(
        lint(&["tree/broken.yaml", "--select", "H1", "--no-config"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        lint(&[
            "tree/broken.yaml",
            "--select",
            "H1",
            "--no-config",
            "--exit-zero"
        ])
        .status
        .code(),
        Some(0)
    );
    // H104 made a warning by the configuration: fails only with --fail-on warning.
    let json = "tree/nested/template.json";
    assert_eq!(
        lint(&[json, "--select", "H1", "--config", "config.toml"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        lint(&[
            json,
            "--select",
            "H1",
            "--config",
            "config.toml",
            "--fail-on",
            "warning"
        ])
        .status
        .code(),
        Some(1)
    );
}

#[test]
fn files_named_on_the_command_line_are_linted_unless_nothing_in_them_is_a_templates() {
    // `roles.yaml` is a list of roles: none of a template's sections, so it is skipped (one
    // line under `--verbose`); `broken.yaml` is a template, however broken.
    let output = lint(&[
        "tree/roles.yaml",
        "tree/broken.yaml",
        "--select",
        "H001,H1",
        "--format",
        "concise",
        "--no-config",
        "--verbose",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    assert!(!stdout.contains("roles.yaml"), "{stdout}");
    assert!(stdout.contains("tree/broken.yaml:1:24: H102"), "{stdout}");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "skipped tree/roles.yaml: not a HOT template (its top level has none of a \
             template's sections)\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 template checked (1 skipped)"),
        "{stderr}"
    );
}

#[test]
fn templates_only_skips_named_files_that_are_not_templates() {
    let output = lint(&[
        "tree/roles.yaml",
        "tree/good.yaml",
        "--templates-only",
        "--no-config",
        "--verbose",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("skipped tree/roles.yaml: not a HOT template"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 template checked (1 skipped)"),
        "{stderr}"
    );
}

#[test]
fn json_output_lists_findings_with_positions() {
    let output = lint(&[
        "tree/broken.yaml",
        "--select",
        "H1",
        "--format",
        "json",
        "--no-config",
    ]);
    let findings: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let first = &findings[0];
    assert_eq!(first["code"], "H102");
    assert_eq!(first["name"], "invalid-version");
    assert_eq!(first["severity"], "error");
    assert_eq!(first["path"], "tree/broken.yaml");
    assert_eq!(first["start"]["line"], 1);
    assert_eq!(first["start"]["column"], 24);
    assert_eq!(first["end"]["column"], 34);
    assert_eq!(first["fix"]["applicability"], "unsafe");
    assert_eq!(first["fix"]["edits"][0]["content"], "2016-10-14");
}

#[test]
fn a_misspelt_version_hides_no_other_finding() {
    let output = lint(&[
        "version/typo.yaml",
        "version/unknown.yaml",
        "--select",
        "H102,H301",
        "--format",
        "concise",
        "--no-config",
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    // `2016-10-15` has one clear correction: the rest is linted as 2016-10-14. `2020-08-07`
    // has none: nothing else is linted, as Heat reads nothing else.
    assert_eq!(
        stdout,
        "version/typo.yaml:1:24: H102 `2016-10-15` is not a HOT version Heat knows\n\
         version/typo.yaml:9:27: H301 `get_param` names `flavour`, which is not a declared parameter\n\
         version/unknown.yaml:1:24: H102 `2020-08-07` is not a HOT version Heat knows\n"
    );
    let output = lint(&[
        "version/typo.yaml",
        "--select",
        "H102",
        "--format",
        "json",
        "--no-config",
    ]);
    let findings: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let help = findings[0]["help"].as_str().expect("a help text");
    assert!(
        help.starts_with(
            "did you mean `2016-10-14`? hotfix lints the rest of the template as 2016-10-14."
        ),
        "{help}"
    );
}

#[test]
fn fixes_found_under_an_assumed_version_are_unsafe() {
    let output = lint(&[
        "version/typo-fix.yaml",
        "--select",
        "H102,H903",
        "--format",
        "json",
        "--no-config",
    ]);
    let findings: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(findings[1]["code"], "H903", "{findings}");
    // Safe for 2016-10-14, but the template does not declare 2016-10-14.
    assert_eq!(findings[1]["fix"]["applicability"], "unsafe", "{findings}");
    // Without H102, which says what version is assumed, nothing is assumed.
    let output = lint(&[
        "version/typo-fix.yaml",
        "--select",
        "H903",
        "--format",
        "json",
        "--no-config",
    ]);
    assert_eq!(text(&output.stdout).trim(), "[]");
}

#[test]
fn human_output_shows_a_code_frame() {
    let output = lint(&["tree/broken.yaml", "--select", "H102", "--no-config"]);
    let stdout = text(&output.stdout);
    assert!(stdout.contains("H102(invalid-version)"), "{stdout}");
    assert!(stdout.contains("╭─[tree/broken.yaml:1:24]"), "{stdout}");
    assert!(stdout.contains("did you mean `2016-10-14`?"), "{stdout}");
}

#[test]
fn configuration_errors_point_into_the_file_and_exit_with_2() {
    let output = lint(&["tree/good.yaml", "--config", "bad-config.toml"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unknown field `colour`"), "{stderr}");
    assert!(stderr.contains("bad-config.toml:2:1"), "{stderr}");
}

#[test]
fn the_heat_release_comes_from_the_configuration_or_the_command_line() {
    // release/hotfix.toml: heat-release = "Ocata".
    let args = [
        "release/trunk.yaml",
        "--select",
        "H618",
        "--format",
        "concise",
    ];
    let output = lint(&args);
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        text(&output.stderr)
    );
    assert_eq!(
        stdout,
        "release/trunk.yaml:4:11: H618 `OS::Neutron::Trunk` arrived in Heat 9.0.0 (pike), after \
         ocata\n\
         release/trunk.yaml:10:7: H618 `tags` of OS::Neutron::Net arrived in Heat 9.0.0 (pike), \
         after ocata\n"
    );
    // The command line replaces it; `lint --diff` (the fix path) uses it too.
    let output = lint(&[&args[..], &["--heat-release", "pike"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("trunk.yaml");
    std::fs::copy(tree().join("release/trunk.yaml"), &copy).expect("copy");
    let fixed = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args([
            "lint",
            "--fix",
            "--no-config",
            "--select",
            "H618",
            "--format",
            "concise",
        ])
        .args(["--heat-release", "newton"])
        .arg(&copy)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run hotfix");
    assert_eq!(fixed.status.code(), Some(1), "{}", text(&fixed.stderr));
    // The template version (2017-02-24 is ocata's), the type and the property.
    assert_eq!(
        text(&fixed.stdout).matches(" H618 ").count(),
        3,
        "{}",
        text(&fixed.stdout)
    );
    // Without a release, nothing is reported.
    let output = lint(&[&args[..], &["--no-config"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
}

#[test]
fn an_unknown_heat_release_is_an_error_that_lists_the_known_ones() {
    let output = lint(&[
        "tree/good.yaml",
        "--no-config",
        "--heat-release",
        "wallabee",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "`wallabee` is not an OpenStack release hotfix knows: did you mean `wallaby`? use one of liberty, mitaka,"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("hibiscus, 2023.1, 2023.2,"), "{stderr}");
    let output = lint(&["tree/good.yaml", "--config", "bad-release.toml"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad-release.toml:2:16"), "{stderr}");
    assert!(
        stderr.contains("`kilo` (Heat 2015.1) is older than hotfix checks"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_and_missing_paths_exit_with_2() {
    let output = lint(&["tree/good.yaml", "--select", "H999x"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("`H999x` is not a hotfix rule"),
        "{}",
        text(&output.stderr)
    );
    let output = lint(&["no/such/dir"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no/such/dir: no such file or folder"));
}

#[test]
fn a_misspelt_rule_name_gets_the_rule_it_most_likely_meant() {
    let output = lint(&["tree/good.yaml", "--ignore", "undefined-paramter"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "`undefined-paramter` is not a hotfix rule code, prefix or name; did you mean \
             `undefined-parameter`? (see `hotfix rules`)"
        ),
        "{stderr}"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(["rule", "unused-paramter"])
        .output()
        .expect("run hotfix");
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("`unused-paramter` is not a hotfix rule; did you mean `unused-parameter`?"),
        "{stderr}"
    );
    // Nothing close: no suggestion.
    let output = lint(&["tree/good.yaml", "--select", "zzzz"]);
    assert!(
        !text(&output.stderr).contains("did you mean"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn rules_rule_and_versions_explain_themselves() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .args(args)
            .output()
            .expect("run hotfix")
    };
    let rules = text(&run(&["rules"]).stdout);
    assert!(rules.contains("H102  invalid-version"), "{rules}");
    let json: serde_json::Value =
        serde_json::from_slice(&run(&["rules", "--format", "json"]).stdout).expect("JSON");
    assert!(
        json.as_array()
            .is_some_and(|a| a.iter().any(|r| r["code"] == "H101"))
    );
    let rule = run(&["rule", "H102"]);
    assert!(text(&rule.stdout).contains("## Why is this bad?"));
    assert_eq!(run(&["rule", "H999"]).status.code(), Some(2));
    let versions = text(&run(&["versions"]).stdout);
    assert!(versions.contains("2017-09-01  pike"), "{versions}");
    assert!(
        versions.contains("- Fn::Select (now an error)"),
        "{versions}"
    );
}

#[test]
fn rules_and_versions_wrap_to_the_terminal_width_and_versions_has_a_header() {
    let run = |args: &[&str], width: usize| {
        let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .args(args)
            .env("COLUMNS", width.to_string())
            .output()
            .expect("run hotfix");
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    for width in [50_usize, 60, 100, 200] {
        for args in [&["rules"][..], &["versions"]] {
            let out = run(args, width);
            for line in out.lines() {
                // Only a single word longer than the line may pass the width.
                assert!(
                    line.chars().count() <= width || !line.trim().contains(' '),
                    "{args:?} at {width}: {line:?}"
                );
            }
        }
        let rules = run(&["rules"], width);
        let h301 = rules
            .lines()
            .position(|l| l.starts_with("H301  undefined-parameter"))
            .expect("H301 listed");
        let lines: Vec<&str> = rules.lines().collect();
        if width >= 100 {
            // Wide: the summary beside the code, its next lines under its first.
            assert!(lines[h301].contains("Checks that every"), "{rules}");
        } else {
            // Narrow: the summary on its own lines, indented.
            assert!(lines[h301].trim_end().ends_with("error"), "{rules}");
            assert!(
                lines[h301 + 1].starts_with("      Checks that every"),
                "{rules}"
            );
        }
    }
    let versions = run(&["versions"], 100);
    let mut lines = versions.lines();
    assert_eq!(
        lines.next(),
        Some("version     name     release   functions"),
        "{versions}"
    );
    assert_eq!(
        lines.next(),
        Some("2013-05-23           icehouse  16"),
        "{versions}"
    );
}

#[test]
fn blueprints_are_linted_with_their_imports_and_beside_hot_templates() {
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli/blueprint"))
        .args([
            "lint",
            "--format",
            "concise",
            "--no-config",
            "--select",
            "C,H301",
        ])
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run hotfix");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "hot.yaml:3:26: H301 `get_param` names `nope`, which is not a declared parameter\n\
         includes/fragment.yaml:11:28: C001 `get_input` names `nowhere`, which is not an input \
         of the blueprint\n\
         main.yaml:7:3: C007 input `unused` is never used\n"
    );
}

#[test]
fn lints_an_environment_file_reading_its_registry_targets_from_disk() {
    for path in ["stack", "stack/environments/env.yaml"] {
        let output = lint(&[path, "--select", "E", "--format", "concise", "--no-config"]);
        let stdout = text(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{stdout}");
        assert_eq!(
            stdout,
            "stack/environments/env.yaml:3:15: E007 `../nested/volum.yaml` does not exist\n\
             stack/environments/env.yaml:4:1: E003 `parameter_defaults` is empty\n",
            "{path}"
        );
    }
}

#[test]
fn environments_given_with_e_say_what_custom_types_stand_for() {
    let output = lint(&[
        "given/top.yaml",
        "-e",
        "given/env.yaml",
        "--select",
        "E,X",
        "--format",
        "concise",
        "--no-config",
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout,
        "given/env.yaml:4:3: E008 `flavr` is not a parameter of `top.yaml`, the template this \
         environment is given with\n\
         given/top.yaml:7:5: X005 `server` does not pass `flavor`, parameter of `server.yaml` \
         (`My::Server` as `given/env.yaml` maps it) without a default\n\
         given/top.yaml:8:7: X003 `flavour` is not a parameter of `server.yaml` (`My::Server` as \
         `given/env.yaml` maps it)\n\
         given/top.yaml:11:32: X006 `adress` is not an output of `server.yaml` (`My::Server` as \
         `given/env.yaml` maps it)\n"
    );
    // The nested template of the stack is linted with it, as Heat validates it.
    assert!(
        text(&output.stderr).contains("2 templates and 1 environment file checked"),
        "{}",
        text(&output.stderr)
    );
    // Without `-e`, the tree's environments: the same mapping, and no claim about parameters
    // a deployment's environment may set.
    let output = lint(&[
        "given",
        "--select",
        "X",
        "--format",
        "concise",
        "--no-config",
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(
        stdout,
        "given/top.yaml:8:7: X003 `flavour` is not a parameter of `server.yaml` (`My::Server` as \
         `given/env.yaml` maps it)\n\
         given/top.yaml:11:32: X006 `adress` is not an output of `server.yaml` (`My::Server` as \
         `given/env.yaml` maps it)\n"
    );
}

/// The nested templates of the stack given with `-e` are linted with it, and named as the run
/// names files: relative to the working folder, as the template named is, not absolutely.
#[test]
fn the_nested_templates_of_a_stack_given_with_e_are_named_as_the_run_names_files() {
    let output = lint(&[
        "given-named/top.yaml",
        "-e",
        "given-named/env.yaml",
        "--select",
        "H002",
        "--format",
        "concise",
        "--no-config",
    ]);
    assert_eq!(
        text(&output.stdout),
        "given-named/nested/thing.yaml:3:1: H002 duplicate key `description`: this last one \
         wins\n"
    );
}

/// `examples/`: independent examples, each folder with its own environment mapping `My::LB`
/// to its own `lb.yaml` (their parameters and outputs differ); `four/` has two environments
/// side by side that map it to different templates. Heat (`stack.py -e`, each example with
/// its own environment) accepts `one/app.yaml`, `two/app.yaml` and `four/app.yaml` with
/// `four/a.yaml`; it refuses `three/app.yaml` and `four/typo.yaml` (with either environment)
/// with `Unknown Property sise`, and `four/app.yaml` with `four/b.yaml` (`size`).
const EXAMPLES: &str = "examples/four/typo.yaml:7:7: X003 `sise` is not a parameter of \
     `lb-a.yaml` (`My::LB` as `examples/four/a.yaml` maps it), nor of the other template that \
     an environment as close maps it to\n\
     examples/three/app.yaml:7:7: X003 `sise` is not a parameter of `lb.yaml` (`My::LB` as \
     `examples/three/env/registry.yaml` maps it)\n";

#[test]
fn without_e_the_environment_closest_to_a_template_says_what_its_types_stand_for() {
    let output = lint(&[
        "examples",
        "--select",
        "X",
        "--format",
        "concise",
        "--no-config",
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    // Not `port`, `members`, `vip` or `address` (each example checked against the other's
    // `lb.yaml`), nor `four/app.yaml`'s `size`, which only one of its two environments refuses.
    assert_eq!(stdout, EXAMPLES);
    // The same, one file at a time (the tree is then the whole project, and the rest of
    // `testdata` with it).
    for (file, expected) in [
        ("examples/one/app.yaml", ""),
        ("examples/two/app.yaml", ""),
        ("examples/four/app.yaml", ""),
    ] {
        let output = lint(&[file, "--select", "X", "--format", "concise", "--no-config"]);
        assert_eq!(text(&output.stdout), expected, "{file}");
        assert_eq!(output.status.code(), Some(0), "{file}");
    }
}

#[test]
fn with_e_the_environments_given_decide_wherever_the_template_is() {
    // `one/app.yaml` with the second example's environment: Heat refuses it (`"80" is not an
    // allowed value ["http", "https"]`, checked with stack.py), and so does hotfix.
    let output = lint(&[
        "examples/one/app.yaml",
        "-e",
        "examples/two/registry.yaml",
        "--select",
        "X",
        "--format",
        "concise",
        "--no-config",
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout,
        "examples/one/app.yaml:6:5: X005 `lb` does not pass `members`, parameter of `lb.yaml` \
         (`My::LB` as `examples/two/registry.yaml` maps it) without a default\n\
         examples/one/app.yaml:7:13: X008 `80` is not an allowed value of `port` (a `string` \
         parameter of `lb.yaml` (`My::LB` as `examples/two/registry.yaml` maps it))\n\
         examples/one/app.yaml:10:28: X006 `vip` is not an output of `lb.yaml` (`My::LB` as \
         `examples/two/registry.yaml` maps it)\n"
    );
    let output = lint(&[
        "examples/four/app.yaml",
        "-e",
        "examples/four/b.yaml",
        "--select",
        "X",
        "--format",
        "concise",
        "--no-config",
    ]);
    assert_eq!(
        text(&output.stdout),
        "examples/four/app.yaml:7:7: X003 `size` is not a parameter of `lb-b.yaml` (`My::LB` as \
         `examples/four/b.yaml` maps it)\n"
    );
}

#[test]
#[ignore = "needs Heat (.venv-heat) and ../shared/oracles/heat/stack.py"]
fn shared_each_example_with_an_environment_is_refused_by_heat_exactly_where_hotfix_says() {
    let python = hotfix_testkit::python();
    let shared = hotfix_testkit::shared();
    let stack = shared.join("oracles/heat/stack.py");
    // Each example as its owners run it (its own environment: Heat accepts `one`, `two` and
    // `four/app.yaml`), and with another example's environment or the other of two.
    let runs = [
        ("one/app.yaml", "one/registry.yaml", true),
        ("two/app.yaml", "two/registry.yaml", true),
        ("three/app.yaml", "three/env/registry.yaml", false),
        ("four/app.yaml", "four/a.yaml", true),
        ("four/app.yaml", "four/b.yaml", false),
        ("four/typo.yaml", "four/a.yaml", false),
        ("four/typo.yaml", "four/b.yaml", false),
        ("one/app.yaml", "two/registry.yaml", false),
        ("two/app.yaml", "one/registry.yaml", false),
    ];
    for (template, environment, accepted) in runs {
        let output = Command::new(&python)
            .current_dir(tree().join("examples"))
            .arg(&stack)
            .args([template, "-e", environment, "--strict", "--no-cloud"])
            .output()
            .expect("run stack.py");
        let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(
            verdict["valid"] == true,
            accepted,
            "{template} -e {environment}: {verdict}"
        );
        let (template, environment) = (
            format!("examples/{template}"),
            format!("examples/{environment}"),
        );
        let output = lint(&[
            &template,
            "-e",
            &environment,
            "--select",
            "X",
            "--format",
            "concise",
            "--no-config",
        ]);
        let stdout = text(&output.stdout);
        assert_eq!(
            stdout.is_empty(),
            accepted,
            "{template} -e {environment}: {stdout}"
        );
        // Heat's text, where it has no quotes to escape, is what hotfix quotes (in its help).
        if let Some(error) = verdict["error"].as_str()
            && error.contains("Unknown Property")
        {
            let output = lint(&[
                &template,
                "-e",
                &environment,
                "--select",
                "X",
                "--format",
                "json",
                "--no-config",
            ]);
            assert!(
                text(&output.stdout).contains(error),
                "{template} -e {environment}: Heat says {error}; hotfix {}",
                text(&output.stdout)
            );
        }
    }
}

#[test]
fn files_rendered_from_a_jinja_source_beside_them_are_not_missing() {
    // pnda's layout: `resource_registry.yaml` maps types to `NAME.yaml`, which the deployment
    // renders from `NAME.yaml.j2`; a `*.yaml.j2` environment maps types too.
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).expect("write");
    };
    write(
        "resource_registry.yaml",
        "resource_registry:\n  My::Cluster: cluster.yaml\n  My::Gone: gone.yaml\n",
    );
    write(
        "cluster.yaml.j2",
        "heat_template_version: rocky\n{{ resources }}\n",
    );
    write(
        "extra.yaml.j2",
        "resource_registry:\n  My::Extra: {{ extra }}\n",
    );
    write(
        "top.yaml",
        "heat_template_version: rocky\nresources:\n  c: {type: My::Cluster}\n  \
         e: {type: My::Extra}\n  n: {type: sub/nested.yaml}\n  o: {type: My::Other}\n",
    );
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    write("sub/nested.j2.yaml", "heat_template_version: rocky\n");
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(dir.path())
        .args([
            "lint",
            ".",
            "--select",
            "E,X",
            "--format",
            "concise",
            "--no-config",
        ])
        .output()
        .expect("run hotfix");
    assert_eq!(
        text(&output.stdout),
        "resource_registry.yaml:3:13: E007 `gone.yaml` does not exist\n\
         top.yaml:6:13: X007 `My::Other` is not a type Heat has, and no environment of the tree \
         maps it\n"
    );
}

#[test]
fn graph_draws_the_mapping_of_the_closest_environment() {
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(tree())
        .args(["graph", "examples", "--format", "json"])
        .output()
        .expect("run hotfix");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let graph: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let mut edges: Vec<String> = graph["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .filter(|e| e["kind"] == "nested_by_registry")
        .map(|e| {
            format!(
                "{} -> {} ({})",
                e["from"].as_str().unwrap_or_default(),
                e["to"].as_str().unwrap_or_default(),
                e["environment"]["path"].as_str().unwrap_or_default()
            )
        })
        .collect();
    edges.sort();
    assert_eq!(
        edges,
        [
            "examples/four/app.yaml#lb -> examples/four/lb-a.yaml (examples/four/a.yaml)",
            "examples/four/app.yaml#lb -> examples/four/lb-b.yaml (examples/four/b.yaml)",
            "examples/four/typo.yaml#lb -> examples/four/lb-a.yaml (examples/four/a.yaml)",
            "examples/four/typo.yaml#lb -> examples/four/lb-b.yaml (examples/four/b.yaml)",
            "examples/one/app.yaml#lb -> examples/one/lb.yaml (examples/one/registry.yaml)",
            "examples/three/app.yaml#lb -> examples/three/nested/lb.yaml \
             (examples/three/env/registry.yaml)",
            "examples/two/app.yaml#lb -> examples/two/lb.yaml (examples/two/registry.yaml)",
        ]
    );
}

#[test]
fn an_environment_that_cannot_be_read_or_is_a_template_is_an_error() {
    for (env, said) in [
        ("given/nowhere.yaml", "given/nowhere.yaml: cannot be read"),
        ("given/top.yaml", "given/top.yaml: not an environment file"),
    ] {
        let output = lint(&["given/top.yaml", "-e", env, "--no-config"]);
        assert_eq!(output.status.code(), Some(2));
        let stderr = text(&output.stderr);
        assert!(stderr.contains(said), "{stderr}");
    }
}

#[test]
fn a_stacks_entry_of_the_configuration_gives_a_template_its_environments() {
    // The nested templates of the stack are read with its environments too (X005 runs only
    // with given environments).
    let output = lint(&["stacks", "--format", "concise"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout,
        "stacks/env.yaml:5:3: E008 `flavr` is not a parameter of `top.yaml`, the template this \
         environment is given with\n\
         stacks/nested/server.yaml:6:5: X005 `disk` does not pass `size`, parameter of \
         `disk.yaml` (`My::Disk` as `stacks/env.yaml` maps it) without a default\n\
         stacks/top.yaml:7:5: X005 `server` does not pass `flavor`, parameter of `server.yaml` \
         (`My::Server` as `stacks/env.yaml` maps it) without a default\n\
         stacks/top.yaml:8:7: X003 `flavour` is not a parameter of `server.yaml` (`My::Server` as \
         `stacks/env.yaml` maps it)\n\
         stacks/top.yaml:11:32: X006 `adress` is not an output of `server.yaml` (`My::Server` as \
         `stacks/env.yaml` maps it)\n"
    );
    // However the template is named (here from a folder below it, and absolutely), its entry
    // gives it its environments.
    let named = lint(&["stacks/top.yaml", "--format", "concise"]);
    let expected = text(&named.stdout).replace("stacks/", "");
    assert!(expected.contains("X003"), "{expected}");
    let absolute = tree().join("stacks/top.yaml");
    for (cwd, path) in [
        (tree().join("stacks/nested"), Path::new("../top.yaml")),
        (tree(), absolute.as_path()),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .current_dir(&cwd)
            .args(["lint", "--format", "concise"])
            .arg(path)
            .env("NO_COLOR", "1")
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("run hotfix");
        let found = text(&output.stdout)
            .replace(&format!("{}/", tree().join("stacks").display()), "")
            .replace("../", "")
            .replace("stacks/", "");
        assert_eq!(found, expected, "{}", path.display());
    }
    let output = lint(&["bad-stacks"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("`nowhere.yaml` is not a file (relative to this configuration's folder)"),
        "{stderr}"
    );
}

#[test]
fn a_nested_templates_parameters_are_its_interface_not_unused() {
    // `nested/server.yaml` uses neither parameter, but `top.yaml` names it in a `type:`: its
    // parameters are what parents pass. `top.yaml` is used by nothing: its leftover is reported.
    let output = lint(&[
        "interface",
        "--select",
        "H408",
        "--format",
        "concise",
        "--no-config",
    ]);
    assert_eq!(
        text(&output.stdout),
        "interface/top.yaml:3:3: H408 parameter `leftover` is never used\n"
    );
    // Named alone, it is still a nested template: its project (the folder above with `.git`)
    // is read for the templates that name it.
    let output = lint(&[
        "interface/nested/server.yaml",
        "--select",
        "H408",
        "--format",
        "concise",
        "--no-config",
    ]);
    assert_eq!(text(&output.stdout), "");
}

#[test]
fn paths_of_the_configuration_map_an_install_prefix_into_the_tree() {
    // `/usr/share/example-heat-templates` is this folder: its registry targets are read here
    // (one is missing); another prefix stays a deployment's path.
    let output = lint(&["prefix", "--format", "concise"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout,
        "prefix/env.yaml:3:15: E007 `/usr/share/example-heat-templates/nested/volume.yaml` does \
         not exist\n\
         prefix/top.yaml:6:7: X003 `flavour` is not a parameter of `server.yaml` (`My::Server` \
         as `prefix/env.yaml` maps it)\n"
    );
    // So do the environments given with `-e`, read before any file is linted.
    // (and, with the environment given, the parameter nobody passes is known to be missing).
    let output = lint(&[
        "prefix/top.yaml",
        "-e",
        "prefix/env.yaml",
        "--format",
        "concise",
    ]);
    assert_eq!(
        text(&output.stdout),
        "prefix/env.yaml:3:15: E007 `/usr/share/example-heat-templates/nested/volume.yaml` does \
         not exist\n\
         prefix/top.yaml:5:5: X005 `server` does not pass `flavor`, parameter of `server.yaml` \
         (`My::Server` as `prefix/env.yaml` maps it) without a default\n\
         prefix/top.yaml:6:7: X003 `flavour` is not a parameter of `server.yaml` (`My::Server` \
         as `prefix/env.yaml` maps it)\n"
    );
    let output = lint(&["bad-paths"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("`nowhere` is not a folder (relative to this configuration's folder)"),
        "{stderr}"
    );
}

#[test]
fn a_file_the_tree_holds_elsewhere_is_a_warning_that_says_where() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // A deployment script copies `scripts/` next to the templates, or sends files by name.
    write(
        "templates/app/t.yaml",
        "heat_template_version: rocky\nresources:\n  c:\n    type: OS::Heat::SoftwareConfig\n    \
         properties:\n      config: {get_file: scripts/setup.sh}\n",
    );
    write("templates/app/scripts/other.sh", "#!/bin/sh\n");
    write("scripts/setup.sh", "#!/bin/sh\n");
    write(
        "templates/k3s.yaml",
        "heat_template_version: rocky\nresources:\n  c:\n    type: OS::Heat::SoftwareConfig\n    \
         properties:\n      config: {get_file: selinux.sh}\n  d:\n    type: OS::Heat::SoftwareConfig\n    \
         properties:\n      config: {get_file: nowhere.sh}\n",
    );
    write("fragments/selinux.sh", "#!/bin/sh\n");
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(dir.path())
        .args(["lint", ".", "--no-config", "--format", "json"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run hotfix");
    let findings: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found: Vec<(String, String, String)> = findings
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
                f["help"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let severities: Vec<(&str, &str)> = found
        .iter()
        .map(|(code, severity, _)| (code.as_str(), severity.as_str()))
        .collect();
    // `nowhere.sh` is missing everywhere: an error. The two others are warnings.
    assert_eq!(
        severities,
        [("X002", "warning"), ("X002", "warning"), ("X002", "error")],
        "{findings}"
    );
    assert!(
        found[0].2.contains("the tree has it at `scripts/setup.sh`"),
        "{found:?}"
    );
    assert!(
        found[1]
            .2
            .contains("the tree has it at `fragments/selinux.sh`"),
        "{found:?}"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn an_empty_environment_given_with_e_is_an_empty_environment_as_heat_reads_it() {
    // Heat's client reads an empty or null environment as `{}` (stack.py: valid), and a list
    // as no environment: `The environment is not a valid YAML mapping data type.`
    let dir = hotfix_testkit::tree(&[
        (
            "t.yaml",
            "heat_template_version: 2018-08-31\nparameters:\n  p: {type: string, default: x}\nresources: {}\n",
        ),
        ("comments.yaml", "# to be filled in\n"),
        ("empty.yaml", ""),
        ("null.yaml", "~\n"),
        ("list.yaml", "- a\n"),
    ]);
    let run = |env: &str| {
        Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .current_dir(dir.path())
            .args([
                "lint",
                "t.yaml",
                "-e",
                env,
                "--no-config",
                "--format",
                "concise",
            ])
            .env("NO_COLOR", "1")
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("run hotfix")
    };
    for env in ["comments.yaml", "empty.yaml", "null.yaml"] {
        let output = run(env);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{env}: {}",
            text(&output.stderr)
        );
        assert_eq!(text(&output.stdout), "", "{env}");
    }
    let output = run("list.yaml");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "hotfix: error: list.yaml: not an environment that loads: The environment is not a valid \
         YAML mapping data type.\n"
    );
}
