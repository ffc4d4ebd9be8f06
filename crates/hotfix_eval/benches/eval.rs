//! `hotfix eval`'s work on the largest HOT template of the corpus: load, then evaluate
//! (parameters, conditions, every resource and output), with the parameters that have no
//! default given a value.
//!
//! Run with `cargo bench -p hotfix_eval --bench eval` (`../shared` beside the repository, or
//! `HOTFIX_SHARED`). Each figure is the best of 20 runs.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark without harness reports its figures on the terminal"
)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use hotfix_eval::{Inputs, Value};
use hotfix_hot::Template;

fn best_of(mut f: impl FnMut() -> usize) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..20 {
        let start = Instant::now();
        black_box(f());
        best = best.min(start.elapsed());
    }
    best
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
    let mut files = Vec::new();
    collect(&shared.join("corpus"), &mut files);
    // The largest template Heat would take as HOT.
    let largest = files
        .iter()
        .filter_map(|path| {
            let source = std::fs::read_to_string(path).ok()?;
            let doc = hotfix_yaml::parse(&source).ok()?;
            Template::new(&doc).version()?;
            Some((source.len(), path.clone(), source))
        })
        .max_by_key(|(len, _, _)| *len);
    let Some((len, path, source)) = largest else {
        eprintln!("no HOT template under {}", shared.join("corpus").display());
        return ExitCode::FAILURE;
    };
    let doc = hotfix_yaml::parse(&source).expect("loads");
    let template = Template::new(&doc);
    let mut inputs = Inputs::default();
    for p in &template.parameters {
        if doc.get(p.value, "default").is_none() {
            inputs
                .params
                .push((p.name.clone(), Value::Str("1".to_owned())));
        }
    }
    let load = best_of(|| hotfix_yaml::parse(&source).map_or(0, |d| d.nodes().len()));
    let eval = best_of(|| hotfix_eval::evaluate(&doc, &inputs).problems.len());
    let both = best_of(|| {
        let doc = hotfix_yaml::parse(&source).expect("loads");
        hotfix_eval::evaluate(&doc, &inputs).problems.len()
    });
    println!(
        "{} ({len} bytes, {} resources, {} outputs):",
        path.display(),
        template.resources.len(),
        template.outputs.len()
    );
    println!("  load           {:>8.3} ms", load.as_secs_f64() * 1e3);
    println!("  evaluate       {:>8.3} ms", eval.as_secs_f64() * 1e3);
    println!("  load+evaluate  {:>8.3} ms", both.as_secs_f64() * 1e3);
    ExitCode::SUCCESS
}
