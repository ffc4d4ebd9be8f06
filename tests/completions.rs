//! `hotfix completions SHELL`: a completion script for each shell that `clap_complete` knows.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn hotfix(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .args(args)
        .output()
        .expect("run hotfix")
}

#[test]
fn every_shell_gets_a_script_that_knows_the_commands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = hotfix(&["completions", shell]);
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
    let output = hotfix(&["completions", "tcsh"]);
    assert_eq!(output.status.code(), Some(2));
}

/// `bash -n` parses the script without running it.
#[test]
fn the_bash_script_is_valid_bash() {
    let script = hotfix(&["completions", "bash"]).stdout;
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
