//! A CI linter must never exit 0 over a template it did not check: every named path is read or
//! refused, every folder it cannot read is an error, a template is a template in any encoding,
//! and no input is read without bound.

use std::process::{Command, Stdio};
use std::time::Duration;

use hotfix_testkit::{Hotfix, hotfix_binary};

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).plain().without_stdin();

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const GOOD: &str = "heat_template_version: 2016-10-14\nresources: {}\n";
const LATIN1: &[u8] = b"heat_template_version: 2016-10-14\ndescription: caf\xe9\nresources: {}\n";

fn utf16() -> Vec<u8> {
    [0xFF, 0xFE]
        .into_iter()
        .chain(GOOD.encode_utf16().flat_map(u16::to_le_bytes))
        .collect()
}

/// A tree of templates Heat's client refuses or reads differently from other YAML.
fn odd_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("latin1.yaml"), LATIN1).expect("write");
    std::fs::write(dir.path().join("utf16.yaml"), utf16()).expect("write");
    // CR-only line ends with a comment first: a valid template Heat accepts.
    std::fs::write(
        dir.path().join("cr.yaml"),
        "# made on an old Mac\rheat_template_version: 2016-10-14\rresources:\r  r: {type: OS::Heat::None, properties: {a: {get_param: nope}}}\r",
    )
    .expect("write");
    dir
}

#[test]
fn templates_in_any_encoding_or_line_end_are_reported_not_skipped() {
    let dir = odd_tree();
    for extra in [&[][..], &["--templates-only"][..]] {
        let mut args = vec!["lint", ".", "--no-config", "--format", "concise"];
        args.extend_from_slice(extra);
        let output = HOTFIX.run_in(dir.path(), &args);
        let stdout = text(&output.stdout);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{stdout}{}",
            text(&output.stderr)
        );
        assert!(
            stdout.contains("cr.yaml:4:57: H301"),
            "a CR-only template is linted: {stdout}"
        );
        assert!(
            stdout.contains(
                "latin1.yaml:2:17: H001 the file is not valid UTF-8; Heat's client refuses it: \
                 `'utf-8' codec can't decode byte 0xe9 in position 50: invalid continuation byte`"
            ),
            "{stdout}"
        );
        assert!(
            stdout.contains("utf16.yaml:1:1: H001 the file is not valid UTF-8 (it is UTF-16"),
            "{stdout}"
        );
        assert!(text(&output.stderr).contains("3 templates checked"));
    }
    // The upgrade refuses them (exit 1) instead of calling them "not a HOT template".
    let output = HOTFIX.run_in(
        dir.path(),
        &[
            "upgrade",
            "--to",
            "pike",
            "--check",
            "--no-config",
            "latin1.yaml",
            "utf16.yaml",
        ],
    );
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("not a HOT template"), "{stderr}");
    assert!(
        stderr.contains("latin1.yaml: error: the file is not valid UTF-8"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn named_paths_that_are_not_regular_files_are_read() {
    let dir = odd_tree();
    let bin = env!("CARGO_BIN_EXE_hotfix");
    // /dev/stdin, and a process substitution (a pipe under /dev/fd).
    let script = format!(
        "{bin} lint --no-config --format concise /dev/stdin < cr.yaml; echo \"rc=$?\"; \
         {bin} lint --no-config --format concise <(cat cr.yaml); echo \"rc=$?\""
    );
    let output = Command::new("bash")
        .current_dir(dir.path())
        .args(["-c", &script])
        .output()
        .expect("run bash");
    let stdout = text(&output.stdout);
    assert_eq!(
        stdout.matches("H301").count(),
        2,
        "{stdout}{}",
        text(&output.stderr)
    );
    assert_eq!(stdout.matches("rc=1").count(), 2, "{stdout}");
    // A FIFO.
    let fifo = dir.path().join("fifo.yaml");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            std::fs::write(
                fifo,
                GOOD.replace(
                    "{}",
                    "{r: {type: OS::Heat::None, properties: {a: {get_param: x}}}}",
                ),
            )
        })
    };
    let output = HOTFIX.run_in(
        dir.path(),
        &["lint", "--no-config", "--format", "concise", "fifo.yaml"],
    );
    writer.join().expect("writer").expect("write the FIFO");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("fifo.yaml:2:"),
        "{}",
        text(&output.stdout)
    );
}

#[cfg(unix)]
#[test]
fn a_folder_that_cannot_be_read_is_an_error_not_a_silent_pass() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::write(dir.path().join("good.yaml"), GOOD).expect("write");
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).expect("mkdir");
    std::fs::write(locked.join("t.yaml"), GOOD).expect("write");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let bin = env!("CARGO_BIN_EXE_hotfix");
    // Root reads every folder: drop privileges where that is possible.
    let root = running_as_root();
    let mut command = if root {
        let mut c = Command::new("setpriv");
        c.args([
            "--reuid",
            "65534",
            "--regid",
            "65534",
            "--clear-groups",
            bin,
        ]);
        c
    } else {
        Command::new(bin)
    };
    let output = command
        .current_dir(dir.path())
        .args(["lint", ".", "--no-config", "--format", "concise"])
        .output();
    let _ = std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755));
    let output = match output {
        Ok(output) if !(root && text(&output.stderr).contains("setpriv:")) => output,
        _ => {
            println!("skipped: running as root and setpriv cannot drop privileges here");
            return;
        }
    };
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("hotfix: error: cannot read folder ./locked"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 template checked"),
        "the rest is still linted: {stderr}"
    );
    let output = {
        let mut command = if root {
            let mut c = Command::new("setpriv");
            c.args([
                "--reuid",
                "65534",
                "--regid",
                "65534",
                "--clear-groups",
                bin,
            ]);
            c
        } else {
            Command::new(bin)
        };
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        let output = command
            .current_dir(dir.path())
            .args(["upgrade", "--to", "pike", "--check", "--no-config", "."])
            .output()
            .expect("run hotfix");
        let _ = std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755));
        output
    };
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("cannot read folder ./locked"));
}

#[cfg(unix)]
fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| text(&o.stdout).trim() == "0")
}

#[cfg(unix)]
#[test]
fn endless_inputs_are_read_with_a_bound() {
    let dir = tempfile::tempdir().expect("tempdir");
    for args in [
        &["inspect", "/dev/zero"][..],
        &["lint", "--config", "/dev/zero", "."][..],
        &["lint", "--no-config", "/dev/zero"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hotfix"))
            .current_dir(dir.path())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run hotfix");
        let mut waited = Duration::ZERO;
        while child.try_wait().expect("wait").is_none() {
            assert!(
                waited < Duration::from_secs(20),
                "{args:?} reads without end"
            );
            std::thread::sleep(Duration::from_millis(50));
            waited += Duration::from_millis(50);
        }
        let output = child.wait_with_output().expect("output");
        let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
        assert!(
            all.contains("exceeds maximum allowed size")
                || all.contains("larger than")
                || all.contains("not a regular file"),
            "{args:?}: {all}"
        );
        assert_ne!(output.status.code(), Some(0), "{args:?}: {all}");
    }
}

#[test]
fn a_template_over_the_read_bound_is_reported_with_heats_size_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut big = String::from("heat_template_version: 2016-10-14\ndescription: ");
    big.push_str(&"x".repeat(3_000_000));
    big.push('\n');
    std::fs::create_dir(dir.path().join("t")).expect("mkdir");
    std::fs::write(dir.path().join("t/big.yaml"), &big).expect("write");
    let output = HOTFIX.run_in(
        dir.path(),
        &["lint", "t", "--no-config", "--format", "concise"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        format!(
            "t/big.yaml:1:1: H001 Request limit exceeded: Template size ({} bytes) exceeds maximum allowed size (524288 bytes).\n",
            big.len()
        )
    );
}

#[test]
fn the_same_folder_named_three_ways_is_linted_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("d")).expect("mkdir");
    std::fs::write(
        dir.path().join("d/t.yaml"),
        GOOD.replace(
            "{}",
            "{r: {type: OS::Heat::None, properties: {a: {get_param: x}}}}",
        ),
    )
    .expect("write");
    let output = HOTFIX.run_in(
        dir.path(),
        &[
            "lint",
            "d",
            "./d",
            "d/../d",
            "--no-config",
            "--format",
            "concise",
        ],
    );
    assert_eq!(
        text(&output.stdout).lines().count(),
        1,
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn the_report_never_replaces_an_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("t.yaml"), GOOD).expect("write");
    for args in [
        &["lint", ".", "--no-config", "-o", "./t.yaml"][..],
        &["lint", ".", "--no-config", "--write-baseline", "t.yaml"][..],
        &[
            "upgrade", "--to", "pike", "--check", "--format", "sarif", "--output", "t.yaml",
            "t.yaml",
        ][..],
        &[
            "upgrade", "--to", "pike", "--diff", "--output", "t.yaml", ".",
        ][..],
    ] {
        let output = HOTFIX.run_in(dir.path(), args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            text(&output.stderr).contains("is one of the files hotfix reads"),
            "{args:?}: {}",
            text(&output.stderr)
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("t.yaml")).expect("read"),
            GOOD,
            "{args:?}"
        );
    }
}

/// A report given a link to an input, or written over an input found deep in the tree, is
/// refused as the named file is; the check is made as the walk finds the files (no first walk
/// when no progress bar is drawn), and nothing is replaced.
#[cfg(unix)]
#[test]
fn a_report_through_a_link_or_deep_in_the_tree_never_replaces_an_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("a/b")).expect("mkdir");
    std::fs::write(dir.path().join("a/b/t.yaml"), GOOD).expect("write");
    std::os::unix::fs::symlink("a/b/t.yaml", dir.path().join("report.txt")).expect("link");
    std::fs::hard_link(dir.path().join("a/b/t.yaml"), dir.path().join("same.txt")).expect("link");
    for args in [
        &["lint", ".", "--no-config", "-o", "same.txt"][..],
        &["lint", ".", "--no-config", "-o", "report.txt"][..],
        &[
            "lint",
            ".",
            "--no-config",
            "-o",
            "a/b/t.yaml",
            "--format",
            "sarif",
        ][..],
        &[
            "lint",
            "a/b/t.yaml",
            "--no-config",
            "--write-baseline",
            "report.txt",
        ][..],
    ] {
        let output = HOTFIX.run_in(dir.path(), args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            text(&output.stderr).contains("a/b/t.yaml is one of the files hotfix reads"),
            "{args:?}: {}",
            text(&output.stderr)
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/b/t.yaml")).expect("read"),
            GOOD,
            "{args:?}"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path().join("a/b"))
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(
            left.len(),
            1,
            "{args:?}: a temporary file is left: {left:?}"
        );
    }
}

/// `--output /dev/null` (or `/dev/stdout`, a named pipe) is written to as it is: a report
/// needs no temporary file beside a device. A folder is refused, saying so.
#[cfg(unix)]
#[test]
fn a_report_to_a_device_is_written_and_to_a_folder_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("t.yaml"), GOOD).expect("write");
    for args in [
        &["lint", "t.yaml", "--no-config", "--output", "/dev/null"][..],
        &[
            "lint",
            "t.yaml",
            "--no-config",
            "--write-baseline",
            "/dev/null",
        ][..],
        &["graph", "t.yaml", "--output", "/dev/null"][..],
    ] {
        let output = HOTFIX.run_in(dir.path(), args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
    let output = HOTFIX.run_in(
        dir.path(),
        &[
            "lint",
            "t.yaml",
            "--no-config",
            "--format",
            "json",
            "--output",
            "/dev/stdout",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).trim(), "[]");
    let output = HOTFIX.run_in(
        dir.path(),
        &["lint", "t.yaml", "--no-config", "--output", "."],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("cannot write .: a folder, not a file"),
        "{}",
        text(&output.stderr)
    );
}

#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_or_hold_a_line_break_are_reported_losslessly() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    let broken = GOOD.replace(
        "{}",
        "{r: {type: OS::Heat::None, properties: {a: {get_param: x}}}}",
    );
    let latin1 = std::ffi::OsStr::from_bytes(b"caf\xe9.yaml");
    std::fs::write(dir.path().join(latin1), &broken).expect("write");
    std::fs::write(dir.path().join("two\nlines.yaml"), &broken).expect("write");
    let concise = HOTFIX.run_in(
        dir.path(),
        &["lint", ".", "--no-config", "--format", "concise"],
    );
    let stdout = text(&concise.stdout);
    assert_eq!(stdout.lines().count(), 2, "one line per finding: {stdout}");
    assert!(stdout.contains("caf\\xE9.yaml:2:"), "{stdout}");
    assert!(stdout.contains("two\\x0Alines.yaml:2:"), "{stdout}");
    let json = HOTFIX.run_in(
        dir.path(),
        &["lint", ".", "--no-config", "--format", "json"],
    );
    let findings: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let mut paths: Vec<&str> = findings
        .as_array()
        .expect("a list")
        .iter()
        .map(|f| f["path"].as_str().expect("a path"))
        .collect();
    paths.sort_unstable();
    assert_eq!(paths, ["caf\\xE9.yaml", "two\\x0Alines.yaml"]);
    let sarif = HOTFIX.run_in(
        dir.path(),
        &["lint", ".", "--no-config", "--format", "sarif"],
    );
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    let mut uris: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("a URI")
        })
        .collect();
    uris.sort_unstable();
    // The raw bytes, percent-encoded: `%E9` is the Latin-1 byte itself.
    assert_eq!(uris, ["caf%E9.yaml", "two%0Alines.yaml"]);
}
