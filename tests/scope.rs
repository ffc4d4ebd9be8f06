//! What a run reads (issue 26, item 6): the project of a file is the nearest folder at or above
//! it with `hotfix.toml` or a version control root; outside any project, only the folders the
//! user named (a named file: the files of its own folder). Never the working folder, any
//! unrelated parent or, for the editor, the server's working folder.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hotfix_testkit::{Hotfix, hotfix_binary, write};
use serde_json::{Value, json};

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).plain();

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A template whose one resource has a custom type.
const TEMPLATE: &str = "heat_template_version: rocky\nresources:\n  s:\n    type: My::Server\n";

/// `outer/` (the working folder, in no project) maps `My::Server`; `outer/sub/` holds the
/// template and an environment of its own that does not map it.
fn outer_and_sub() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let outer = dir.path().join("outer");
    write(
        &outer.join("env.yaml"),
        "resource_registry:\n  My::Server: server.yaml\n",
    );
    write(&outer.join("server.yaml"), "heat_template_version: rocky\n");
    write(&outer.join("sub/t.yaml"), TEMPLATE);
    write(
        &outer.join("sub/env.yaml"),
        "resource_registry:\n  My::Other: other.yaml\n",
    );
    dir
}

#[test]
fn an_environment_above_a_template_outside_any_project_does_not_apply() {
    let dir = outer_and_sub();
    let outer = dir.path().join("outer");
    let output = HOTFIX.run_in(&outer, &["lint", "--verbose", "sub/t.yaml"]);
    let (out, err) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(1), "{out}\n{err}");
    assert!(out.contains("X007"), "{out}");
    // The files of the template's own folder, and no more.
    assert!(
        err.contains("looked for environments among 2 files under sub (its files only)"),
        "{err}"
    );
    // In a project (here a checkout), the environment of the project applies.
    std::fs::create_dir(outer.join(".git")).expect("mkdir");
    let output = HOTFIX.run_in(&outer, &["lint", "sub/t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    // Named from inside the project's subfolder: the project is still the checkout.
    let output = HOTFIX.run_in(&outer.join("sub"), &["lint", "--verbose", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stderr(&output).contains("looked for environments among 4 files under .."),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_named_file_s_own_folder_is_read_one_level_deep_not_the_working_folder() {
    let dir = outer_and_sub();
    let outer = dir.path().join("outer");
    // Many files beside the template's folder and below it: none of them is met.
    for i in 0..300 {
        write(
            &outer.join(format!("many/{i}.yaml")),
            "resource_registry: {}\n",
        );
        write(&outer.join(format!("sub/deeper/{i}.txt")), "text\n");
    }
    let output = HOTFIX.run_in(&outer, &["lint", "--verbose", "sub/t.yaml"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("looked for environments among 2 files under sub (its files only)"),
        "{err}"
    );
    // Named by an absolute path, the same folder.
    let absolute = outer.join("sub/t.yaml");
    let output = HOTFIX.run_in(
        &outer,
        &["lint", "--verbose", absolute.to_str().expect("UTF-8")],
    );
    let expected = format!(
        "looked for environments among 2 files under {} (its files only)",
        outer.join("sub").display()
    );
    assert!(stderr(&output).contains(&expected), "{}", stderr(&output));
}

#[test]
fn outside_any_project_only_files_of_a_template_s_extension_are_read_for_environments() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("downloads");
    write(&folder.join("t.yaml"), TEMPLATE);
    write(
        &folder.join("env.yaml"),
        "resource_registry:\n  My::Other: other.yaml\n",
    );
    // An environment without a template's extension, among unrelated files.
    write(
        &folder.join("server-env"),
        "resource_registry:\n  My::Server: server.yaml\n",
    );
    write(
        &folder.join("server.yaml"),
        "heat_template_version: rocky\n",
    );
    for i in 0..50 {
        write(&folder.join(format!("notes-{i}.txt")), "text\n");
    }
    let output = HOTFIX.run_in(&folder, &["lint", "--verbose", "t.yaml"]);
    let (out, err) = (stdout(&output), stderr(&output));
    // Every file listed is counted, but `server-env` is not read: `My::Server` is unmapped.
    assert_eq!(output.status.code(), Some(1), "{out}\n{err}");
    assert!(out.contains("X007"), "{out}");
    assert!(
        err.contains("looked for environments among 54 files under . (its files only)"),
        "{err}"
    );
    // In a project, a file of any extension is told by its content: `server-env` maps it.
    std::fs::create_dir(folder.join(".git")).expect("mkdir");
    let output = HOTFIX.run_in(&folder, &["lint", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn a_folder_named_is_read_whole() {
    let dir = outer_and_sub();
    let outer = dir.path().join("outer");
    write(&outer.join("sub/deeper/e.yaml"), "resource_registry: {}\n");
    let output = HOTFIX.run_in(&outer, &["lint", "--verbose", "sub"]);
    let err = stderr(&output);
    assert!(
        err.contains("looked for environments among 3 files under sub\n"),
        "{err}"
    );
}

#[test]
fn a_hotfix_toml_above_the_repository_does_not_apply() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(&dir.path().join("hotfix.toml"), "ignore = [\"ALL\"]\n");
    let repo = dir.path().join("repo");
    write(
        &repo.join("t.yaml"),
        TEMPLATE.replace("My::Server", "OS::Nova::Servr").as_str(),
    );
    // Outside a checkout, the configuration above applies and silences every rule.
    let output = HOTFIX.run_in(&repo, &["lint", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    for marker in [".git", ".hg", ".svn"] {
        let marked = repo.join(marker);
        std::fs::create_dir(&marked).expect("mkdir");
        let output = HOTFIX.run_in(&repo, &["lint", "--verbose", "t.yaml"]);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{marker}: {}",
            stdout(&output)
        );
        assert!(stdout(&output).contains("H608"), "{}", stdout(&output));
        assert!(
            !stderr(&output).contains("using configuration"),
            "{}",
            stderr(&output)
        );
        std::fs::remove_dir(&marked).expect("rmdir");
    }
    // A `.git` file (a worktree's, a submodule's) marks a checkout too.
    write(&repo.join(".git"), "gitdir: /elsewhere\n");
    let output = HOTFIX.run_in(&repo, &["lint", "t.yaml"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    // One in the repository applies.
    write(&repo.join("hotfix.toml"), "ignore = [\"H608\"]\n");
    let output = HOTFIX.run_in(&repo, &["lint", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn a_walk_that_meets_its_bound_stops_and_says_so() {
    // The bound of a folder outside any project (a named file's own): 10,000 files listed.
    const BOUND: usize = 10_000;
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("big");
    std::fs::create_dir(&folder).expect("mkdir");
    for i in 0..BOUND {
        std::fs::File::create(folder.join(format!("f{i}"))).expect("create");
    }
    write(
        &folder.join("env.yaml"),
        "resource_registry:\n  My::Other: other.yaml\n",
    );
    write(&folder.join("t.yaml"), TEMPLATE);
    let output = HOTFIX.run_in(dir.path(), &["lint", "big/t.yaml"]);
    let err = stderr(&output);
    // The tree's registry is incomplete: no type is called unmapped.
    assert_eq!(output.status.code(), Some(0), "{}\n{err}", stdout(&output));
    let warnings: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("hotfix: warning"))
        .collect();
    assert_eq!(
        warnings,
        [format!(
            "hotfix: warning: stopped looking for environments after {BOUND} files under big \
             (its files only): `unmapped-resource-type` (X007) is not checked; name the \
             environments with `-e` or in a `[[stacks]]` entry of `hotfix.toml`"
        )],
        "{err}"
    );
}

/// The editor opens `file` (a template with `My::Server`) with `workspace` as its workspace
/// folder, the server started in `cwd` with `home` as `$HOME`: the codes of the diagnostics.
fn editor_codes(cwd: &Path, home: &Path, workspace: Option<&Path>, file: &Path) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .arg("server")
        .current_dir(cwd)
        .env("HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("hotfix server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut send = |message: Value| {
        let body = message.to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        stdin.flush().expect("flush");
    };
    let uri = |path: &Path| format!("file://{}", path.display());
    let folders = workspace.map(|w| json!([{"uri": uri(w), "name": "w"}]));
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": null, "capabilities": {}, "workspaceFolders": folders}}));
    send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
        {"uri": uri(file), "languageId": "yaml", "version": 1, "text": TEMPLATE}}}),
    );
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let diagnostics = loop {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                reader.read_line(&mut line).expect("read") > 0,
                "the server ended"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("a whole message");
        let message: Value = serde_json::from_slice(&body).expect("JSON");
        if message["method"] == "textDocument/publishDiagnostics" {
            break message["params"]["diagnostics"].clone();
        }
    };
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    send(json!({"jsonrpc": "2.0", "method": "exit"}));
    drop(stdin);
    let mut rest = Vec::new();
    let _ = reader.read_to_end(&mut rest);
    assert!(child.wait().expect("wait").success());
    diagnostics
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|d| Some(d["code"].as_str()?.to_owned()))
        .collect()
}

#[test]
fn the_editor_reads_no_environment_outside_a_file_s_project_or_workspace() {
    let dir = outer_and_sub();
    let outer = dir.path().join("outer");
    let file = outer.join("sub/t.yaml");
    let elsewhere: PathBuf = dir.path().join("home");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    // Started in the folder that maps the type, with no workspace folder: the file's own
    // folder, not the server's working folder.
    let codes = editor_codes(&outer, &elsewhere, None, &file);
    assert_eq!(codes, ["X007"]);
    // A workspace folder holding the file spans it whole.
    let codes = editor_codes(&elsewhere, &elsewhere, Some(&outer), &file);
    assert!(codes.is_empty(), "{codes:?}");
    // Unless it is the home folder (or `/`): not walked whole.
    let codes = editor_codes(&elsewhere, &outer, Some(&outer), &file);
    assert_eq!(codes, ["X007"]);
    let codes = editor_codes(&elsewhere, &elsewhere, Some(Path::new("/")), &file);
    assert_eq!(codes, ["X007"]);
}
