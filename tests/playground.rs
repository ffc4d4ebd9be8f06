//! The playground's engine (`crates/hotfix_wasm` built for WebAssembly, run in Node) against the
//! command line.

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Builds the module (scripts/build-wasm.sh: incremental after its first run) and says where
/// it is.
fn module() -> PathBuf {
    let status = Command::new(root().join("scripts/build-wasm.sh"))
        .status()
        .expect("run scripts/build-wasm.sh");
    assert!(status.success(), "scripts/build-wasm.sh failed");
    root().join("target/wasm/hotfix_wasm.wasm")
}

/// Every file of the corpus a template can be (by its extension), sorted.
fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("file system") {
        let entry = entry.expect("file system");
        let path = entry.path();
        if entry.file_type().expect("file system").is_dir() {
            corpus_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "template")
        {
            out.push(path);
        }
    }
}

/// `hotfix lint --format json` of a copy of the file alone in the folder `alone` under its own
/// name, as the module sees it.
fn cli_findings(alone: &Path, name: &str, path: &Path) -> serde_json::Value {
    std::fs::create_dir_all(alone).expect("file system");
    std::fs::copy(path, alone.join(name)).expect("file system");
    let output = Command::new(env!("CARGO_BIN_EXE_hotfix"))
        .current_dir(alone)
        .args(["lint", "--format", "json", "--", name])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run hotfix");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "hotfix lint of {}: not JSON ({err}): {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
#[ignore = "needs ../shared, Node and scripts/setup-wasm.sh's toolchain (scripts/test.sh runs it)"]
fn shared_the_playground_lints_every_corpus_template_as_the_command_line_does() {
    let corpus = common::corpus();
    let wasm = module();
    let mut files = Vec::new();
    corpus_files(&corpus, &mut files);
    files.sort();
    let named: Vec<(String, PathBuf)> = files
        .iter()
        .map(|p| {
            let name = p
                .file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned();
            (name, p.clone())
        })
        .collect();

    let mut node = Command::new("node")
        .arg(root().join("playground/test/lint-files.mjs"))
        .arg(&wasm)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run node");
    let request = serde_json::to_vec(&named).expect("JSON");
    let mut stdin = node.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&request));
    let output = node.wait_with_output().expect("run node");
    writer.join().expect("writer").expect("write to node");
    assert!(output.status.success(), "node failed");
    let answers: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");

    let folders = tempfile::tempdir().expect("temporary folder");
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let chunk = named.len().div_ceil(threads).max(1);
    let cli: Vec<serde_json::Value> = std::thread::scope(|scope| {
        let handles: Vec<_> = named
            .chunks(chunk)
            .enumerate()
            .map(|(n, part)| {
                let folders = folders.path();
                scope.spawn(move || {
                    part.iter()
                        .enumerate()
                        .map(|(i, (name, path))| {
                            cli_findings(&folders.join(format!("{n}-{i}")), name, path)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });

    let mut differ = Vec::new();
    let mut templates = 0;
    let mut with_findings = 0;
    for ((_, path), expected) in named.iter().zip(&cli) {
        let answer = &answers[path.to_string_lossy().as_ref()];
        if answer["kind"] == "template" {
            templates += 1;
        }
        if expected.as_array().is_some_and(|a| !a.is_empty()) {
            with_findings += 1;
        }
        if &answer["findings"] != expected {
            differ.push(format!(
                "{}:\n  command line: {expected}\n  playground:   {answer}",
                path.display()
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} files differ; the first:\n{}",
        differ.len(),
        named.len(),
        differ
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        templates > 500 && with_findings > 100,
        "too few templates ({templates}) or files with findings ({with_findings}): the corpus \
         is not where it should be"
    );
}
