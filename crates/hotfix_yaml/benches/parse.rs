//! Parse throughput over the template corpus (`../shared/corpus`, or `$HOTFIX_SHARED/corpus`).
//!
//! Run with `cargo bench -p hotfix_yaml --bench parse`. A plain `main` (no harness): every
//! figure is the best of a few repetitions, in MB/s with 1 MB = 10^6 bytes.
//!
//! - `read only`: `std::fs::read` of every file and nothing else, the floor for a linter run.
//! - `parse, 1 thread`: `check_bytes` + `parse_unlimited` on bytes already in memory.
//! - `parse, N threads`: the same spread over every core with rayon.
//! - `parse + json, 1 thread`: as the single-threaded parse, plus `to_python_json` for every
//!   document that loads.
//!
//! - `events, reader`: the events of hotfix's own reader ([`hotfix_yaml::reader::Parser`]), every
//!   file read to its end or its refusal, nothing built.
//! - `tree, reader`: `parse_unlimited` (the tree built on the reader's events), one thread, on
//!   the same texts.
//!
//! Errors are expected: the corpus holds Jinja2 sources and other files Heat refuses.
//!
//! Instructions per byte of the event pass alone, with callgrind (`HOTFIX_BENCH_ONLY` runs one
//! pass once and nothing else; `--toggle-collect` counts only inside it):
//!
//! ```text
//! cargo bench -p hotfix_yaml --bench parse --no-run
//! HOTFIX_BENCH_ONLY=reader valgrind --tool=callgrind --toggle-collect='*events_reader*' \
//!     --callgrind-out-file=/tmp/cg.reader target/release/deps/parse-HASH
//! ```
//!
//! then the `Ir` total of `callgrind_annotate /tmp/cg.reader` divided by the bytes it prints
//! (`tree-reader` and `*trees_reader*` for the whole tree). `scripts/bench-yaml.sh` does both
//! and prints the two figures.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark without harness reports its figures on the terminal"
)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rayon::prelude::*;

/// How often each measurement runs; the best run is reported.
const REPETITIONS: usize = 5;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus_dir() -> PathBuf {
    std::env::var_os("HOTFIX_SHARED")
        .map_or_else(|| workspace().join("../shared"), PathBuf::from)
        .join("corpus")
}

/// Every `.yaml`, `.yml` and `.json` file under `dir`, hidden directories skipped, sorted.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        let kind = entry.file_type()?;
        if kind.is_dir() {
            if !hidden {
                collect(&path, out)?;
            }
        } else if kind.is_file()
            && path
                .extension()
                .and_then(|ext| ext.to_str())
                .is_some_and(|ext| matches!(ext, "yaml" | "yml" | "json"))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Runs `f` [`REPETITIONS`] times and returns the fastest time and the last result.
fn best_of<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..REPETITIONS {
        let start = Instant::now();
        let value = black_box(f());
        best = best.min(start.elapsed());
        result = Some(value);
    }
    match result {
        Some(value) => (best, value),
        None => unreachable!("REPETITIONS is not zero"),
    }
}

#[allow(
    clippy::cast_precision_loss,
    reason = "byte counts far below 2^52; the figures are printed to one decimal"
)]
fn report(label: &str, bytes: usize, files: usize, time: Duration, extra: &str) {
    let mb = bytes as f64 / 1e6;
    let secs = time.as_secs_f64();
    println!(
        "{label:<24}{mb:>6.1} MB in {files} files {secs:>8.3} s {:>9.1} MB/s{extra}",
        mb / secs
    );
}

/// `(loaded, refused)` for one file: `check_bytes` then `parse_unlimited`.
fn parse_one(bytes: &[u8]) -> (usize, usize) {
    match hotfix_yaml::check_bytes(bytes).and_then(hotfix_yaml::parse_unlimited) {
        Ok(doc) => {
            black_box(&doc);
            (1, 0)
        }
        Err(err) => {
            black_box(&err);
            (0, 1)
        }
    }
}

/// Every file's events with hotfix's reader: `(events, refused files)`.
#[inline(never)]
fn events_reader(files: &[&str]) -> (usize, usize) {
    let mut events = 0;
    let mut refused = 0;
    for text in files {
        for event in hotfix_yaml::reader::Parser::new(text) {
            match event {
                Ok(event) => {
                    black_box(&event);
                    events += 1;
                }
                Err(err) => {
                    black_box(&err);
                    refused += 1;
                }
            }
        }
    }
    (events, refused)
}

/// Every file's tree built on hotfix's reader: `(loaded, refused)`.
#[inline(never)]
fn trees_reader(files: &[&str]) -> (usize, usize) {
    trees(files, hotfix_yaml::parse_unlimited)
}

fn trees(
    files: &[&str],
    parse: fn(&str) -> Result<hotfix_yaml::Document, hotfix_yaml::LoadError>,
) -> (usize, usize) {
    let (mut loaded, mut refused) = (0, 0);
    for text in files {
        match parse(text) {
            Ok(doc) => {
                black_box(&doc);
                loaded += 1;
            }
            Err(err) => {
                black_box(&err);
                refused += 1;
            }
        }
    }
    (loaded, refused)
}

/// `HOTFIX_BENCH_ONLY`: one event pass, once, for callgrind.
fn run_only(only: &str, texts: &[&str]) -> ExitCode {
    let (count, refused, what) = match only {
        "reader" => {
            let (events, refused) = events_reader(texts);
            (events, refused, "events")
        }
        "tree-reader" => {
            let (loaded, refused) = trees_reader(texts);
            (loaded, refused, "loaded")
        }
        other => {
            eprintln!("HOTFIX_BENCH_ONLY={other}: say reader or tree-reader");
            return ExitCode::FAILURE;
        }
    };
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    println!(
        "{only}: {bytes} bytes in {} files, {count} {what}, {refused} refused",
        texts.len()
    );
    ExitCode::SUCCESS
}

fn add(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    (a.0 + b.0, a.1 + b.1)
}

fn main() -> ExitCode {
    let corpus = corpus_dir();
    let corpus = corpus.canonicalize().unwrap_or(corpus);
    if !corpus.is_dir() {
        eprintln!(
            "the parse benchmark needs the template corpus at {} \
             (set HOTFIX_SHARED to the folder that holds `corpus`)",
            corpus.display()
        );
        return ExitCode::FAILURE;
    }
    let mut paths = Vec::new();
    if let Err(err) = collect(&corpus, &mut paths) {
        eprintln!("cannot list {}: {err}", corpus.display());
        return ExitCode::FAILURE;
    }
    paths.sort();
    if paths.is_empty() {
        eprintln!("no .yaml, .yml or .json file under {}", corpus.display());
        return ExitCode::FAILURE;
    }

    // (a) The floor: reading the bytes, nothing else.
    let (read_time, read) = best_of(|| {
        paths
            .iter()
            .map(|path| std::fs::read(path).map_err(|err| (path, err)))
            .collect::<Result<Vec<_>, _>>()
    });
    let files = match read {
        Ok(files) => files,
        Err((path, err)) => {
            eprintln!("cannot read {}: {err}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let total: usize = files.iter().map(Vec::len).sum();
    let count = files.len();
    // The texts the event passes read: the files that are UTF-8 without NUL bytes.
    let texts: Vec<&str> = files
        .iter()
        .filter_map(|b| hotfix_yaml::check_bytes(b).ok())
        .collect();
    let text_bytes: usize = texts.iter().map(|t| t.len()).sum();
    if let Ok(only) = std::env::var("HOTFIX_BENCH_ONLY") {
        return run_only(&only, &texts);
    }
    println!(
        "corpus {} ({REPETITIONS} repetitions, best reported)",
        corpus.display()
    );
    report("read only", total, count, read_time, "");

    // Events only, one thread.
    let (time, (events, refused)) = best_of(|| events_reader(&texts));
    let counts = format!("   ({events} events, {refused} refused)");
    report("events, reader", text_bytes, texts.len(), time, &counts);

    // Trees, one thread.
    let (time, (ok, err)) = best_of(|| trees_reader(&texts));
    let counts = format!("   ({ok} loaded, {err} refused)");
    report("tree, reader", text_bytes, texts.len(), time, &counts);

    // (b) One thread, bytes in memory.
    let (time, (ok, err)) = best_of(|| files.iter().map(|b| parse_one(b)).fold((0, 0), add));
    let counts = format!("   ({ok} loaded, {err} refused)");
    report("parse, 1 thread", total, count, time, &counts);

    // (c) Every core.
    let threads = rayon::current_num_threads();
    let (time, (ok, err)) = best_of(|| {
        files
            .par_iter()
            .map(|b| parse_one(b))
            .reduce(|| (0, 0), add)
    });
    let counts = format!("   ({ok} loaded, {err} refused)");
    report(
        &format!("parse, {threads} threads"),
        total,
        count,
        time,
        &counts,
    );

    // (d) One thread, parse and print Python's JSON for what loads.
    let (time, (printed, failed)) = best_of(|| {
        files
            .iter()
            .map(|b| {
                let doc = hotfix_yaml::check_bytes(b).and_then(hotfix_yaml::parse_unlimited);
                match doc.and_then(|doc| doc.to_python_json()) {
                    Ok(json) => {
                        black_box(&json);
                        (1, 0)
                    }
                    Err(err) => {
                        black_box(&err);
                        (0, 1)
                    }
                }
            })
            .fold((0, 0), add)
    });
    let counts = format!("   ({printed} printed, {failed} refused)");
    report("parse + json, 1 thread", total, count, time, &counts);
    println!("threads: 1 for the single-threaded lines, {threads} (rayon) for the parallel one");
    ExitCode::SUCCESS
}
