//! `hotfix completions SHELL`: a completion script for each shell that `clap_complete` knows.

use std::io::Write as _;
use std::process::{Command, Stdio};

use hotfix_testkit::{Hotfix, hotfix_binary};

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!());

#[test]
fn every_shell_gets_a_script_that_knows_the_commands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = HOTFIX.run(&["completions", shell]);
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(output.stdout).expect("a UTF-8 script");
        assert!(!script.trim().is_empty(), "{shell}");
        for word in [
            "lint",
            "upgrade",
            "completions",
            "statistics",
            "format",
            "quiet",
        ] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
        assert!(output.stderr.is_empty(), "{shell}");
    }
    let output = HOTFIX.run(&["completions", "tcsh"]);
    assert_eq!(output.status.code(), Some(2));
}

/// `bash -n` parses the script without running it.
#[test]
fn the_bash_script_is_valid_bash() {
    let script = HOTFIX.run(&["completions", "bash"]).stdout;
    let mut bash = Command::new("bash")
        .arg("-n")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash is installed");
    bash.stdin
        .take()
        .expect("a pipe")
        .write_all(&script)
        .expect("bash reads the script");
    let output = bash.wait_with_output().expect("bash -n");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // And it is not vacuous: a broken script is refused.
    let status = Command::new("bash")
        .args(["-n", "-c", "_hotfix() { if"])
        .stderr(Stdio::null())
        .status()
        .expect("bash -n");
    assert!(!status.success());
}

/// `hotfix completions bash | head`: a reader that goes away is no panic and no failure.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(["completions", "zsh"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hotfix");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("hotfix ends");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty());
}

/// `--to` and `--heat-release` complete to the values they accept, not to file names; what
/// they accept is unchanged (an unknown value is still hotfix's own error, any case of a
/// release still works).
#[test]
fn version_and_release_options_complete_to_their_values() {
    for shell in ["bash", "zsh", "fish"] {
        let script = String::from_utf8(HOTFIX.run(&["completions", shell]).stdout).expect("UTF-8");
        let to = option_lines(&script, "to");
        let release = option_lines(&script, "heat-release");
        for value in ["2013-05-23", "2021-04-16", "newton", "wallaby"] {
            assert!(to.contains(value), "{shell}: --to without {value}:\n{to}");
        }
        for value in ["liberty", "wallaby", "2023.1", "hibiscus"] {
            assert!(
                release.contains(value),
                "{shell}: --heat-release without {value}:\n{release}"
            );
        }
        // Not offered where the option completes: file names.
        for lines in [&to, &release] {
            assert!(
                !lines.contains("_files") && !lines.contains("compgen -f"),
                "{shell}:\n{lines}"
            );
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let wrong = HOTFIX.run(&["upgrade", "--to", "2016-10-15", "--check"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("`2016-10-15` is not a HOT version"),
        "{}",
        String::from_utf8_lossy(&wrong.stderr)
    );
    let path = dir.path().to_str().expect("UTF-8 path");
    let upper = HOTFIX.run(&["lint", "--heat-release", "Wallaby", "--no-config", path]);
    assert_eq!(upper.status.code(), Some(0), "{upper:?}");
}

/// The lines of a completion script that name `--OPTION` and what follows: the next line
/// (bash puts the values there), or in fish the lines up to the next `complete` (one value a
/// line).
fn option_lines(script: &str, option: &str) -> String {
    let lines: Vec<&str> = script.lines().collect();
    let mut found = String::new();
    for (i, line) in lines.iter().enumerate() {
        let names_it = line.contains(&format!("--{option})"))
            || line.contains(&format!("'--{option}="))
            || line.contains(&format!("-l {option} "));
        if !names_it {
            continue;
        }
        found.push_str(line);
        found.push('\n');
        for (j, next) in lines[i + 1..].iter().enumerate() {
            if next.starts_with("complete ") || (j > 0 && !line.starts_with("complete ")) {
                break;
            }
            found.push_str(next);
            found.push('\n');
        }
    }
    assert!(!found.is_empty(), "no --{option} in the script");
    found
}
