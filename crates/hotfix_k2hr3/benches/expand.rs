//! Parse and expansion time of a generated ~100 KB K2HR3 template with loops.
//!
//! Run with `cargo bench -p hotfix_k2hr3 --bench expand`. A plain `main` (no harness): each
//! figure is the best of a few repetitions. The template repeats a block that walks the hosts
//! of a role (`foreach` over a 20-host object), counts with `for` and `while`, and branches
//! with `if`/`elif`/`else`; `scripts/bench-k2hr3.sh` times the same kind of template through
//! `hotfix k2hr3 expand`.
#![allow(
    clippy::print_stdout,
    reason = "a benchmark without harness reports its figures on the terminal"
)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use hotfix_k2hr3::{Limits, Value, Variables};

const REPETITIONS: usize = 20;

/// One block of the template (about 500 bytes); `{n}` is its number.
const BLOCK: &str = "\
{{# block {n}: the hosts of the role, numbered, with a checksum }}
{{ %no% = 0 }}
{{ foreach %key% in %yrn:yahoo:::tenant:role:web/hosts/all% }}
{{ %host% = %yrn:yahoo:::tenant:role:web/hosts/all%{%key%} }}
{n}.{{= %no% }} {{= %host%{'host'} }}:{{= %host%{'port'} }}
{{ ++%no% }}
{{ done }}
{{ %sum% = 0 }}
{{ for %i% = 0 ; %i% < 16 ; ++%i% }}
{{ %r% = %i% % 3 }}{{ if %r% == 0 }}{{ %sum% = %sum% + %i% * 2 }}{{ elif %r% == 1 }}{{ %sum% = %sum% - %i% << 1 }}{{ else }}{{ continue }}{{ endif }}
{{ done }}
{{ %w% = 8 }}
{{ while %w% > 0 }}{{ --%w% }}{{ done }}
sum {n} = {{= %sum% }}, last = '{{= 'block ' + {n} }}'
";

fn template(size: usize) -> String {
    let mut out = String::from("{{#!k2hr3template }}\n");
    let mut n = 0;
    while out.len() < size {
        out.push_str(&BLOCK.replace("{n}", &n.to_string()));
        n += 1;
    }
    out
}

fn variables() -> Variables {
    let hosts = (0..20)
        .map(|i| {
            (
                format!("10.0.0.{i},0,"),
                Value::Object(vec![
                    ("host".into(), Value::Str(format!("10.0.0.{i}"))),
                    ("port".into(), Value::Num(f64::from(8000 + i))),
                    ("extra".into(), Value::Null),
                    ("cuk".into(), Value::Null),
                ]),
            )
        })
        .collect();
    let mut vars = Variables::new();
    vars.insert(
        "yrn:yahoo:::tenant:role:web/hosts/all".into(),
        Value::Object(hosts),
    );
    vars
}

fn best(mut f: impl FnMut()) -> Duration {
    (0..REPETITIONS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let source = template(100_000);
    let vars = variables();
    let parsed = hotfix_k2hr3::parse(&source).expect("the generated template parses");
    let output = hotfix_k2hr3::expand(&parsed, &vars, Limits::default()).expect("expands");
    let parse = best(|| {
        black_box(hotfix_k2hr3::parse(black_box(&source)).ok());
    });
    let expand = best(|| {
        black_box(hotfix_k2hr3::expand(&parsed, &vars, Limits::default()).ok());
    });
    let both = best(|| {
        let t = hotfix_k2hr3::parse(black_box(&source)).expect("parses");
        black_box(hotfix_k2hr3::expand(&t, &vars, Limits::default()).ok());
    });
    println!(
        "template {} bytes, output {} bytes (best of {REPETITIONS})",
        source.len(),
        output.len()
    );
    println!("parse            {:>8.2} ms", parse.as_secs_f64() * 1e3);
    println!("expand           {:>8.2} ms", expand.as_secs_f64() * 1e3);
    println!("parse + expand   {:>8.2} ms", both.as_secs_f64() * 1e3);
}
