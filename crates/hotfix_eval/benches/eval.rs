//! `hotfix eval`'s work on the largest HOT template of the corpus: load, then evaluate
//! (parameters, conditions, every resource and output), with the parameters that have no
//! default given a value. Then large inputs (`str_replace` params, a `json` parameter merged
//! with itself, many parameters), each at two sizes: the work is linear in their size, so the
//! second figure should be about twice the first (not four times).
//!
//! Run with `cargo bench -p hotfix_eval --bench eval` (`../shared` beside the repository, or
//! `HOTFIX_SHARED`; without it only the large mappings are measured). Each figure is the best
//! of 20 runs (of 3 for the large mappings).
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
use serde_json::json;

fn best_of(runs: usize, mut f: impl FnMut() -> usize) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..runs {
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
    large_mappings();
    many_parameters();
    corpus()
}

/// Evaluations that build mappings of many keys, at two sizes each.
fn large_mappings() {
    println!("large mappings (evaluate, the template already loaded):");
    for n in [10_000, 20_000] {
        // As in issue 26: Heat's recursion limit is reached, after the mapping is built.
        let params: serde_json::Map<String, serde_json::Value> =
            (0..n).map(|i| (format!("k{i:05}"), json!("v"))).collect();
        let template = outputs(&json!({"str_replace": {"template": "k00001 x", "params": params}}));
        report(
            &format!("str_replace with {n} params"),
            &template,
            &Inputs::default(),
        );
    }
    for n in [100_000, 200_000] {
        let keys: serde_json::Map<String, serde_json::Value> =
            (0..n).map(|i| (format!("k{i}"), json!(i))).collect();
        let mut inputs = Inputs::default();
        inputs.params.push((
            "p".to_owned(),
            Value::Str(serde_json::Value::Object(keys).to_string()),
        ));
        let mut template = outputs(&json!({"map_merge": [{"get_param": "p"}, {"get_param": "p"}]}));
        template["parameters"] = json!({"p": {"type": "json"}});
        report(
            &format!("json parameter of {n} keys, map_merge of it twice"),
            &template,
            &inputs,
        );
    }
}

/// A template of `n` parameters given values, with an output that gets each.
fn many_parameters() {
    // 8,000 of them take about 500 KB, near Heat's limit.
    for n in [4_000, 8_000] {
        let mut template = outputs(&json!(
            (0..n)
                .map(|i| json!({"get_param": format!("p{i}")}))
                .collect::<Vec<_>>()
        ));
        template["parameters"] = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "string", "default": "x"})))
            .collect::<serde_json::Map<_, _>>()
            .into();
        let inputs = Inputs {
            params: (0..n)
                .map(|i| (format!("p{i}"), Value::Str("y".to_owned())))
                .collect(),
            ..Inputs::default()
        };
        report(
            &format!("{n} parameters given values, got in an output"),
            &template,
            &inputs,
        );
    }
}

/// A template whose one output has the value `value`.
fn outputs(value: &serde_json::Value) -> serde_json::Value {
    json!({"heat_template_version": "2018-08-31", "outputs": {"o": {"value": value}}})
}

fn report(what: &str, template: &serde_json::Value, inputs: &Inputs) {
    let doc = hotfix_yaml::parse(&template.to_string()).expect("loads");
    let mut problems = 0;
    let time = best_of(3, || {
        problems = hotfix_eval::evaluate(&doc, inputs).problems.len();
        problems
    });
    println!(
        "  {what:<50} {:>9.3} ms ({problems} problems)",
        time.as_secs_f64() * 1e3
    );
}

/// The largest HOT template of the corpus.
fn corpus() -> ExitCode {
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
    let load = best_of(20, || {
        hotfix_yaml::parse(&source).map_or(0, |d| d.nodes().len())
    });
    let eval = best_of(20, || hotfix_eval::evaluate(&doc, &inputs).problems.len());
    let both = best_of(20, || {
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
