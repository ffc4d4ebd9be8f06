//! Hostile inputs within Heat's limits (issue 26): each run ends by itself, with exit 0, 1 or
//! 2, under a 2 GB memory limit. The big inputs are built here, at run time.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::json;

/// Runs hotfix in `dir` with at most 2 GiB of memory, killed after two minutes (a test that
/// gets there fails: the run did not end by itself).
fn bounded(dir: &Path, args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let output = Command::new("sh")
        .current_dir(dir)
        .arg("-c")
        .arg("ulimit -v 2097152 && exec timeout -s KILL 120 \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_hotfix"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run hotfix");
    let elapsed = started.elapsed();
    let code = output.status.code();
    assert!(
        matches!(code, Some(0..=2)),
        "{args:?}: exit {code:?} after {elapsed:?}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (output, elapsed)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Writes a template (JSON, which Heat reads as YAML too) into `dir` as `t.yaml`.
fn template(dir: &Path, template: &serde_json::Value) {
    std::fs::write(dir.join("t.yaml"), template.to_string()).expect("write");
}

fn outputs(value: &serde_json::Value) -> serde_json::Value {
    json!({"heat_template_version": "2018-08-31", "outputs": {"o": {"value": value}}})
}

/// `hotfix eval t.yaml` in a folder holding `t`: its exit code and standard error.
fn eval(t: &serde_json::Value) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    template(dir.path(), t);
    let (output, _) = bounded(dir.path(), &["eval", "t.yaml"]);
    (output.status.code(), stderr(&output))
}

const BUDGET: &str = "hotfix stops evaluating here: the values computed would take more than";

#[test]
fn eval_of_a_json_parameter_nested_deeper_than_python_decodes_is_heat_s_recursion_error() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let t = json!({
        "heat_template_version": "2018-08-31",
        "parameters": {"p": {"type": "json", "default": deep}},
        "outputs": {"o": {"value": {"get_param": "p"}}},
    });
    let (code, err) = eval(&t);
    assert_eq!(code, Some(1), "{err}");
    // As Heat's oracle answers: the parameter and the output that uses it.
    for place in ["parameters", "outputs.o"] {
        assert!(
            err.contains(&format!(
                "{place}: maximum recursion depth exceeded while decoding a JSON array from a \
                 unicode string (RecursionError)"
            )),
            "{err}"
        );
    }
}

#[test]
fn eval_of_str_replace_with_more_params_than_heat_recurses_through_is_heat_s_recursion_error() {
    let params: serde_json::Map<String, serde_json::Value> = (0..20_000)
        .map(|i| (format!("k{i:05}"), json!("v")))
        .collect();
    let (code, err) = eval(&outputs(
        &json!({"str_replace": {"template": "k00001 x", "params": params}}),
    ));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("maximum recursion depth exceeded (RecursionError)"),
        "{err}"
    );
}

#[test]
fn eval_stops_a_repeat_over_the_product_of_two_long_lists_at_its_budget() {
    let list: Vec<u32> = (0..10_000).collect();
    let (code, err) = eval(&outputs(&json!({"repeat": {
        "template": "<%a%>-<%b%>",
        "for_each": {"<%a%>": list, "<%b%>": list},
    }})));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(BUDGET), "{err}");
}

#[test]
fn eval_stops_forty_nested_repeats_at_its_budget() {
    let mut value = json!("x");
    for i in 0..40 {
        value =
            json!({"repeat": {"template": value, "for_each": {format!("<%v{i}%>"): ["a", "b"]}}});
    }
    let (code, err) = eval(&outputs(&value));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(BUDGET), "{err}");
}

#[test]
fn eval_stops_str_replace_and_list_join_multiplying_long_strings_at_its_budget() {
    let (code, err) = eval(&outputs(&json!({"str_replace": {
        "template": "a".repeat(200_000),
        "params": {"a": "x".repeat(200_000)},
    }})));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(BUDGET), "{err}");
    let t = json!({
        "heat_template_version": "2018-08-31",
        "parameters": {"s": {"type": "string", "default": "x".repeat(100_000)}},
        "outputs": {"o": {"value": {"list_join": ["", vec![json!({"get_param": "s"}); 2_000]]}}},
    });
    let (code, err) = eval(&t);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(BUDGET), "{err}");
    // A list of many empty strings joined with a long delimiter.
    let t = json!({
        "heat_template_version": "2018-08-31",
        "parameters": {"s": {"type": "string", "default": "x".repeat(200_000)}},
        "outputs": {"o": {"value": {"list_join": [
            {"get_param": "s"},
            {"str_split": [",", ",".repeat(100_000)]},
        ]}}},
    });
    let (code, err) = eval(&t);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(BUDGET), "{err}");
}

#[cfg(unix)]
#[test]
fn eval_reads_get_file_targets_only_when_regular_files_heat_would_take() {
    let dir = tempfile::tempdir().expect("temp dir");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        dir.path().join("fifo"),
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
    )
    .expect("mkfifo");
    for target in ["/dev/zero", "fifo"] {
        template(dir.path(), &outputs(&json!({"get_file": target})));
        let (output, elapsed) = bounded(dir.path(), &["eval", "t.yaml"]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{target}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("not a regular file"),
            "{target}: {}",
            stderr(&output)
        );
        assert!(elapsed < Duration::from_secs(30), "{target}: {elapsed:?}");
    }
    // Larger than Heat's API takes in a request: Heat's message.
    std::fs::write(dir.path().join("big.txt"), "x".repeat(1_048_577)).expect("write");
    template(dir.path(), &outputs(&json!({"get_file": "big.txt"})));
    let (output, _) = bounded(dir.path(), &["eval", "t.yaml"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "Request limit exceeded: JSON body size (more than 1048576 bytes) exceeds maximum \
             allowed size (1048576 bytes)."
        ),
        "{}",
        stderr(&output)
    );
}

#[test]
fn lints_a_chain_of_a_thousand_nested_templates_in_seconds_and_finds_a_ring() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    for i in 0..1_000 {
        let resource = if i == 999 {
            "{type: OS::Heat::None}".to_owned()
        } else {
            format!("{{type: t{}.yaml}}", i + 1)
        };
        std::fs::write(
            dir.path().join(format!("t{i}.yaml")),
            format!("heat_template_version: rocky\nresources:\n  n: {resource}\n"),
        )
        .expect("write");
    }
    let (output, elapsed) = bounded(dir.path(), &["lint", "--select", "X004", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The search was cubic: minutes. Once through the graph, this is a fraction of a second
    // in a release build; the bound leaves room for an unoptimised build on a loaded machine.
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");

    // A ring of three: each template of it is reported, with the way back.
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a")] {
        std::fs::write(
            dir.path().join(format!("{from}.yaml")),
            format!("heat_template_version: rocky\nresources:\n  n: {{type: {to}.yaml}}\n"),
        )
        .expect("write");
    }
    let (output, _) = bounded(
        dir.path(),
        &["lint", "--select", "X004", "--format", "concise", "."],
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{out}{}", stderr(&output));
    for name in ["a", "b", "c"] {
        assert!(
            out.contains(&format!("{name}.yaml:3:")) && out.contains("X004"),
            "{name}: {out}"
        );
    }
    assert_eq!(out.matches("X004").count(), 3, "{out}");
}

/// Writes a ring of `n` nested templates in `dir`: `t0.yaml` names `t1.yaml`, …, the last
/// names `t0.yaml`.
fn ring(dir: &std::path::Path, n: usize) {
    for i in 0..n {
        std::fs::write(
            dir.join(format!("t{i}.yaml")),
            format!(
                "heat_template_version: rocky\nresources:\n  n: {{type: t{}.yaml}}\n",
                (i + 1) % n
            ),
        )
        .expect("write");
    }
}

#[test]
fn every_template_of_a_ring_of_a_thousand_is_reported_once_through() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    ring(dir.path(), 1_000);
    let (output, elapsed) = bounded(
        dir.path(),
        &["lint", "--select", "X004", "--format", "json", "."],
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    // Each template's way back is the whole ring: shown only as far as the first 32 templates
    // (searching it whole for each template was quadratic: 78 s of CPU for 2,000).
    assert_eq!(out.matches("includes this template again").count(), 1_000);
    assert_eq!(
        out.matches("(through more than 32 nested templates)")
            .count(),
        1_000
    );
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");

    // A ring of 20: the way back is found and shown, the middle of it elided.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    ring(dir.path(), 20);
    let (output, _) = bounded(
        dir.path(),
        &["lint", "--select", "X004", "--format", "json", "t0.yaml"],
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{out}{}", stderr(&output));
    assert!(
        out.contains("`t1.yaml` -> `t2.yaml`") && out.contains("… (8 more) -> `t15.yaml`"),
        "{out}"
    );
    assert!(out.contains("`t19.yaml` -> `t0.yaml`"), "{out}");
}

#[test]
fn a_nested_template_too_large_or_not_a_file_is_not_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    // Sparse files: as large as they say, without the disk space.
    for (name, size) in [("huge.yaml", 100u64 << 20), ("giant.yaml", 1_500 << 20)] {
        let file = std::fs::File::create(dir.path().join(name)).expect("create");
        file.set_len(size).expect("set_len");
    }
    #[cfg(unix)]
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        dir.path().join("fifo.yaml"),
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
    )
    .expect("mkfifo");
    std::fs::write(
        dir.path().join("t.yaml"),
        "heat_template_version: rocky\nresources:\n  a: {type: huge.yaml}\n  b: {type: \
         giant.yaml}\n  c: {type: fifo.yaml}\n",
    )
    .expect("write");
    let (output, elapsed) = bounded(dir.path(), &["lint", "t.yaml"]);
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
}

#[test]
fn k2hr3_expansion_stops_at_its_bound_on_total_work() {
    // The string doubles to 32 MiB, within the output bound; then a million iterations copy
    // it: days of work, within the iteration bound.
    let template = "{{ %s% = 'x' }}{{ for %i% = 0; %i% < 25; %i%++ }}{{ %s% = %s% + %s% }}\
                    {{ done }}{{ for %j% = 0; %j% < 1000000; %j%++ }}{{ %t% = %s% }}{{ done }}";
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("t.k2hr3"), template).expect("write");
    let (output, elapsed) = bounded(dir.path(), &["k2hr3", "expand", "t.k2hr3"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("built or copied in all (the expansion's bound on total work"),
        "{}",
        stderr(&output)
    );
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
}

/// Makes a FIFO at `path` (no writer: opening it to read waits forever).
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_baseline_or_a_variables_file_that_is_a_fifo_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    std::fs::write(
        dir.path().join("t.yaml"),
        "heat_template_version: rocky\nresources:\n  n: {type: OS::Heat::None}\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("t.k2hr3"),
        "{{#!k2hr3template }}\n{{= %given% }}\n",
    )
    .expect("write");
    for name in ["base.json", "t.k2hr3.vars.json", "vars.json"] {
        mkfifo(&dir.path().join(name));
    }
    for (args, message) in [
        (
            &["lint", "--no-config", "t.yaml", "--baseline", "base.json"][..],
            "cannot read the baseline base.json: not a regular file",
        ),
        (
            &["lint", "--no-config", "t.k2hr3"][..],
            "cannot read the variables t.k2hr3.vars.json: not a regular file",
        ),
        (
            &["k2hr3", "expand", "t.k2hr3", "--vars", "vars.json"][..],
            "cannot read the variables vars.json: not a regular file",
        ),
    ] {
        let (output, elapsed) = bounded(dir.path(), args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(elapsed < Duration::from_secs(30), "{args:?}: {elapsed:?}");
    }
}
