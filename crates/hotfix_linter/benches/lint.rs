//! Lint throughput over the corpus templates, beside parsing alone.
//!
//! Run with `cargo bench -p hotfix_linter --bench lint`. Every figure is the best of five
//! runs over the corpus templates (files with a top-level `heat_template_version`, Jinja2
//! sources excluded), held in memory:
//!
//! - `parse only`: `hotfix_yaml::parse` of every template, one thread;
//! - `lint, 1 thread`: parse, model and every rule;
//! - `lint, N threads`: the same with rayon on every core.
//!
//! `scripts/bench-lint.sh` times the whole `hotfix lint ../shared/corpus` command instead.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::cast_precision_loss,
    reason = "a benchmark without harness reports its figures on the terminal"
)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use hotfix_linter::{Settings, lint};
use rayon::prelude::*;

fn best_of(mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut last = 0;
    for _ in 0..5 {
        let start = Instant::now();
        last = black_box(f());
        best = best.min(start.elapsed());
    }
    (best, last)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() && !name.starts_with('.') {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml")
            && !name.contains(".j2")
        {
            out.push(path);
        }
    }
}

fn main() -> ExitCode {
    let shared = std::env::var_os("HOTFIX_SHARED").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    );
    let corpus = shared.join("corpus");
    if !corpus.is_dir() {
        eprintln!(
            "the lint benchmark needs the corpus at {} (set HOTFIX_SHARED)",
            corpus.display()
        );
        return ExitCode::FAILURE;
    }
    let mut paths = Vec::new();
    collect(&corpus, &mut paths);
    paths.sort();
    let templates: Vec<(String, Vec<u8>)> = paths
        .iter()
        .filter_map(|p| {
            let bytes = std::fs::read(p).ok()?;
            let text = std::str::from_utf8(&bytes).ok()?;
            text.lines()
                .any(|l| l.starts_with("heat_template_version"))
                .then(|| (p.display().to_string(), bytes))
        })
        .collect();
    let bytes: usize = templates.iter().map(|(_, b)| b.len()).sum();
    let mb = bytes as f64 / 1e6;
    let settings = Settings::default();
    println!("{} templates, {mb:.1} MB, best of 5", templates.len());
    let (parse, _) = best_of(|| {
        templates
            .iter()
            .filter(|(_, b)| {
                hotfix_yaml::check_bytes(b)
                    .and_then(hotfix_yaml::parse)
                    .is_ok()
            })
            .count()
    });
    let (one, findings) = best_of(|| {
        templates
            .iter()
            .map(|(p, b)| lint(p, b, &settings).len())
            .sum()
    });
    let (all, _) = best_of(|| {
        templates
            .par_iter()
            .map(|(p, b)| lint(p, b, &settings).len())
            .sum()
    });
    let line = |label: &str, t: Duration| {
        println!(
            "{label:<20} {:>8.3} s {:>8.1} MB/s",
            t.as_secs_f64(),
            mb / t.as_secs_f64()
        );
    };
    line("parse only", parse);
    line("lint, 1 thread", one);
    line(
        &format!("lint, {} threads", rayon::current_num_threads()),
        all,
    );
    println!(
        "lint / parse (1 thread): {:.2}x; {findings} findings",
        one.as_secs_f64() / parse.as_secs_f64()
    );
    ExitCode::SUCCESS
}
