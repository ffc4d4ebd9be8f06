//! hotfix's expander against K2HR3's own template engine (`../shared/oracles/k2hr3/expand.js`,
//! run in its serve mode by one `node` process per test): every fixture of the crate, and
//! templates generated from a seed over the whole grammar, must expand to the same bytes, or
//! fail where the engine fails: refused at load where the engine does not load them, failing
//! at run time with the output the engine keeps before its error message.
//!
//! `HOTFIX_K2HR3_CASES` sets how many templates are generated (6,000 by default, about 20 s),
//! `HOTFIX_K2HR3_SEED` the seed, `HOTFIX_K2HR3_FIRST` the first case's number (0 by default:
//! a long run split in chunks of cases gives the same templates as one run). The engine has no bound on loops: the generator's loops always
//! end (their counters are variables nothing else assigns).
//!
//! The generator covers every statement, operator, literal and variable form, branches and
//! loops nested (and wrongly nested), text and escapes around statements, headers, comments,
//! variables of every JSON type and unset ones, formulas from the whole grammar (most of which
//! the engine refuses to load) and formulas of the shapes templates are written with, texts
//! that are operators right after statements, `++`/`--` after `;`, doubled `done` and
//! `endif`, `.length` of `null` and of unset variables, `do … while` inside and around other
//! blocks. It leaves out two corners: a `while … done` loop inside a `do` (its `while` closes
//! the `do`, and the engine may then loop without end, as it does on a second `while` right
//! after a `do`'s), and a `{` in the text right before a statement (`x{{{ while … }}`, which
//! the engine reads both as an escape and as a statement, and may then loop without end).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hotfix_k2hr3::{Limits, Value, Variables};
use hotfix_testkit::workspace;

/// The shared folder (`HOTFIX_SHARED`, or `../shared` beside the repository), with the K2HR3
/// engine: a `shared_` test fails loudly without it.
fn shared() -> PathBuf {
    let path = hotfix_testkit::shared();
    assert!(
        path.join("oracles/k2hr3/expand.js").is_file(),
        "this test needs the K2HR3 engine in {}/oracles/k2hr3 (set HOTFIX_SHARED)",
        path.display()
    );
    path
}

/// How long the engine may take over one template before it is taken as hanging (the engine
/// has no bound: some templates the generator makes may loop for ever in it).
const ENGINE_PATIENCE: Duration = Duration::from_secs(30);

/// The engine in serve mode: one JSON request per line in, one JSON answer per line out; a
/// watchdog thread kills it when a request outlasts [`ENGINE_PATIENCE`].
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// When the request under way started (`None` between requests).
    started: Arc<Mutex<Option<Instant>>>,
}

/// What the engine made of a template.
#[derive(Debug)]
struct Answer {
    ok: bool,
    /// `load`, `execute` or `request` (the engine threw) when not `ok`.
    stage: String,
    output: String,
}

impl Engine {
    fn start() -> Engine {
        let script = shared().join("oracles/k2hr3/expand.js");
        let mut child = Command::new("node")
            .arg(&script)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs (Debian's nodejs) for the K2HR3 engine");
        let input = child.stdin.take().expect("the engine's input");
        let output = BufReader::new(child.stdout.take().expect("the engine's output"));
        let started: Arc<Mutex<Option<Instant>>> = Arc::new(Mutex::new(None));
        let watched = Arc::downgrade(&started);
        let pid = child.id().to_string();
        std::thread::spawn(move || {
            while let Some(started) = watched.upgrade() {
                let late = started
                    .lock()
                    .ok()
                    .and_then(|s| *s)
                    .is_some_and(|t| t.elapsed() > ENGINE_PATIENCE);
                drop(started);
                if late {
                    let _ = Command::new("kill").arg("-9").arg(&pid).status();
                    return;
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        });
        Engine {
            child,
            input,
            output,
            started,
        }
    }

    /// What the engine makes of a template; `None` when it gave no answer in time (it was
    /// killed: start another).
    fn expand(&mut self, template: &str, vars: &serde_json::Value) -> Option<Answer> {
        let request = serde_json::json!({ "template": template, "vars": vars });
        if let Ok(mut s) = self.started.lock() {
            *s = Some(Instant::now());
        }
        writeln!(self.input, "{request}").ok()?;
        self.input.flush().ok()?;
        let mut line = String::new();
        let read = self.output.read_line(&mut line);
        if let Ok(mut s) = self.started.lock() {
            *s = None;
        }
        if read.ok()? == 0 {
            return None;
        }
        let answer: serde_json::Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("the engine answered {line:?}: {e}"));
        Some(Answer {
            ok: answer["ok"] == serde_json::Value::Bool(true),
            stage: answer["stage"].as_str().unwrap_or("").to_owned(),
            output: answer["output"].as_str().unwrap_or("").to_owned(),
        })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the engine's error message starts in its output (the output before it is what it
/// kept).
fn kept_before_error(output: &str) -> &str {
    let at = [" --> [", "[formula:", "[statement:", "[template:"]
        .iter()
        .filter_map(|marker| output.find(marker))
        .min()
        .unwrap_or(output.len());
    &output[..at]
}

/// How hotfix and the engine differ on a template; `None` when they agree.
fn difference(engine: &mut Engine, template: &str, vars: &serde_json::Value) -> Option<String> {
    let Some(answer) = engine.expand(template, vars) else {
        *engine = Engine::start();
        return Some(format!(
            "the engine gave no answer in {} s (it loops for ever?)",
            ENGINE_PATIENCE.as_secs()
        ));
    };
    let ours_vars: Variables = match serde_json::from_value::<Value>(vars.clone()) {
        Ok(Value::Object(entries)) => entries.into_iter().collect(),
        other => panic!("the variables are an object: {other:?}"),
    };
    let limits = Limits {
        max_iterations: 100_000,
        max_output: 1 << 22,
    };
    let ours = hotfix_k2hr3::parse(template)
        .map_err(|e| {
            (
                true,
                format!("parse error: {e} at {}", e.span),
                String::new(),
            )
        })
        .and_then(|t| {
            hotfix_k2hr3::expand(&t, &ours_vars, limits).map_err(|e| {
                (
                    false,
                    format!("expansion error: {e} at {}", e.span),
                    e.output,
                )
            })
        });
    match (answer.ok, answer.stage.as_str(), ours) {
        (true, _, Ok(text)) if text == answer.output => None,
        (true, _, Ok(text)) => Some(format!(
            "outputs differ:\n  engine {:?}\n  hotfix {text:?}",
            answer.output
        )),
        (true, _, Err((_, message, _))) => Some(format!(
            "the engine expands it to {:?}, hotfix fails: {message}",
            answer.output
        )),
        // Refused at load by both; or the engine threw (it goes on after errors, and a later
        // one may throw): any failure of hotfix agrees.
        (false, "load", Err((true, _, _))) | (false, "request", Err(_)) => None,
        (false, "execute", Err((false, _, kept))) if kept == kept_before_error(&answer.output) => {
            None
        }
        (false, stage, Err((_, message, kept))) => Some(format!(
            "the engine fails ({stage}) with {:?}; hotfix fails otherwise: {message}, keeping {kept:?}",
            answer.output
        )),
        (false, stage, Ok(text)) => Some(format!(
            "the engine fails ({stage}) with {:?}; hotfix expands it to {text:?}",
            answer.output
        )),
    }
}

#[test]
#[ignore = "needs node and the K2HR3 engine in ../shared (scripts/test.sh runs it)"]
fn shared_every_fixture_expands_as_the_engine_does() {
    let mut engine = Engine::start();
    let folder = workspace().join("testdata/k2hr3/expand");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("the fixtures folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "k2hr3"))
        .collect();
    files.sort();
    assert!(files.len() > 40, "the fixtures are missing");
    let mut differences = Vec::new();
    for file in &files {
        let template = std::fs::read_to_string(file).expect("a UTF-8 fixture");
        let vars = std::fs::read_to_string(file.with_extension("json")).map_or_else(
            |_| serde_json::json!({}),
            |text| serde_json::from_str(&text).expect("valid variables"),
        );
        if runs_for_ever(&template) {
            // The engine has no bound: it would loop until it runs out of memory.
            continue;
        }
        if let Some(d) = difference(&mut engine, &template, &vars) {
            differences.push(format!("{}: {d}", file.display()));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} fixtures differ from the engine:\n{}",
        differences.len(),
        files.len(),
        differences.join("\n")
    );
}

/// Whether hotfix stops the template at its loop bound (where the engine would loop for ever).
fn runs_for_ever(template: &str) -> bool {
    let Ok(parsed) = hotfix_k2hr3::parse(template) else {
        return false;
    };
    let limits = Limits {
        max_iterations: 100_000,
        max_output: 1 << 22,
    };
    matches!(
        hotfix_k2hr3::expand(&parsed, &Variables::new(), limits),
        Err(e) if e.kind == hotfix_k2hr3::ExpandErrorKind::IterationLimit(100_000)
    )
}

#[test]
#[ignore = "needs node and the K2HR3 engine in ../shared (scripts/test.sh runs it)"]
fn shared_generated_templates_expand_as_the_engine_does() {
    let cases: u64 = std::env::var("HOTFIX_K2HR3_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6_000);
    let seed: u64 = std::env::var("HOTFIX_K2HR3_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x006b_3268_7233);
    let first: u64 = std::env::var("HOTFIX_K2HR3_FIRST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut engine = Engine::start();
    let mut differences = Vec::new();
    let mut loaded = 0u64;
    let mut expanded = 0u64;
    let mut ran = 0u64;
    for case in first..first + cases {
        let mut g = Generator::new(seed ^ case.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let vars = g.variables();
        let template = g.template();
        ran += 1;
        if let Ok(parsed) = hotfix_k2hr3::parse(&template) {
            loaded += 1;
            let ours: Variables = match serde_json::from_value::<Value>(vars.clone()) {
                Ok(Value::Object(entries)) => entries.into_iter().collect(),
                _ => Variables::new(),
            };
            expanded += u64::from(hotfix_k2hr3::expand(&parsed, &ours, Limits::default()).is_ok());
        }
        if let Some(d) = difference(&mut engine, &template, &vars) {
            differences.push(format!(
                "case {case} (seed {seed}):\n  template {template:?}\n  vars {vars}\n  {d}"
            ));
            if differences.len() >= 20 {
                break;
            }
        }
    }
    eprintln!(
        "{ran} generated templates (seed {seed}, cases {first}..{}): {loaded} load, {expanded} of them expand \
         without error; {} differ from the engine",
        first + cases,
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{} generated templates differ from the engine (first ones):\n{}",
        differences.len(),
        differences.join("\n\n")
    );
}

/// A seeded generator of templates and variables over the whole grammar.
struct Generator {
    state: u64,
    /// Loop nesting while generating, so that loops always end.
    loop_depth: usize,
    /// Open blocks while generating: `true` for a loop.
    blocks: Vec<bool>,
    /// `do` blocks open while generating (no `while … done` inside them).
    in_do: usize,
}

/// Names the template reads and writes; `i`, `j`, `c0`…`c3` are loop counters that nothing
/// else assigns.
const READ: &[&str] = &[
    "n",
    "f",
    "s",
    "ns",
    "t",
    "z",
    "arr",
    "obj",
    "a",
    "b",
    "u",
    "x",
    "y",
    "k",
    "e",
    "big",
    "yrn:yahoo:::demo:role:web/hosts/all",
];
const WRITE: &[&str] = &["x", "y", "a", "n", "s", "arr", "obj"];

impl Generator {
    fn new(seed: u64) -> Generator {
        Generator {
            state: seed,
            loop_depth: 0,
            blocks: Vec::new(),
            in_do: 0,
        }
    }

    /// splitmix64.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    // --- variables ---------------------------------------------------------------------

    fn variables(&mut self) -> serde_json::Value {
        let mut vars = serde_json::Map::new();
        let n = self.json_number();
        vars.insert("n".into(), n);
        vars.insert(
            "f".into(),
            serde_json::json!(
                self.pick(&["1.5", "0.1", "-2.25", "2"])
                    .parse::<f64>()
                    .unwrap_or(0.5)
            ),
        );
        let s = self.json_string();
        vars.insert("s".into(), s);
        vars.insert(
            "ns".into(),
            serde_json::json!(self.pick(&["12", " 7", "0x1f", "1.5", "-3", ""])),
        );
        vars.insert("t".into(), serde_json::json!(self.chance(50)));
        vars.insert("z".into(), serde_json::Value::Null);
        let arr = self.json_array(2);
        vars.insert("arr".into(), arr);
        let obj = self.json_object(2);
        vars.insert("obj".into(), obj);
        let a = self.json_any(2);
        vars.insert("a".into(), a);
        let b = self.json_any(2);
        vars.insert("b".into(), b);
        vars.insert("e".into(), serde_json::json!([]));
        vars.insert("big".into(), serde_json::json!(1e21));
        let hosts: serde_json::Map<String, serde_json::Value> = (0..self.below(4))
            .map(|i| {
                (
                    format!("10.0.0.{i},0,"),
                    serde_json::json!({"host": format!("10.0.0.{i}"), "port": 8000 + i, "extra": null}),
                )
            })
            .collect();
        vars.insert(
            "yrn:yahoo:::demo:role:web/hosts/all".into(),
            serde_json::Value::Object(hosts),
        );
        serde_json::Value::Object(vars)
    }

    fn json_number(&mut self) -> serde_json::Value {
        match self.below(6) {
            0 => serde_json::json!(0),
            1 => serde_json::json!(self.below(300)),
            2 => serde_json::json!(-(i64::try_from(self.below(50)).unwrap_or(0))),
            3 => serde_json::json!(2.5),
            4 => serde_json::json!(9_007_199_254_740_993_u64),
            _ => serde_json::json!(3),
        }
    }

    fn json_string(&mut self) -> serde_json::Value {
        serde_json::json!(self.pick(&[
            "", "abc", "5", " 7", "0x10", "1.5", "-3", "héllo", "a,b", "true", "0"
        ]))
    }

    fn json_array(&mut self, depth: usize) -> serde_json::Value {
        let len = self.below(4);
        serde_json::Value::Array((0..len).map(|_| self.json_any(depth - 1)).collect())
    }

    fn json_object(&mut self, depth: usize) -> serde_json::Value {
        let len = self.below(4);
        let mut map = serde_json::Map::new();
        for _ in 0..len {
            let key = self.pick(&["k", "j", "0", "1", "host", "port", "é"]);
            let value = self.json_any(depth - 1);
            map.insert(key.into(), value);
        }
        serde_json::Value::Object(map)
    }

    fn json_any(&mut self, depth: usize) -> serde_json::Value {
        match self.below(if depth == 0 { 5 } else { 7 }) {
            0 => serde_json::Value::Null,
            1 => serde_json::json!(self.chance(50)),
            2 => self.json_number(),
            3 | 4 => self.json_string(),
            5 => self.json_array(depth),
            _ => self.json_object(depth),
        }
    }

    // --- templates -----------------------------------------------------------------------

    fn template(&mut self) -> String {
        let mut out = String::new();
        match self.below(10) {
            0 | 1 => out.push_str("{{#!k2hr3template }}\n"),
            2 => out.push_str("{{#!k2hr3template}}\r\n\n"),
            3 => out.push_str(self.pick(&[
                "{{#!jinja2 }}\n",
                "{{#! k2hr3template }}\n",
                " {{#!k2hr3template }}\n",
                "{{#!k2hr3template }}",
            ])),
            4 => out.push_str("{{#!k2hr3template }}\n{{# a comment }}\n"),
            _ => {}
        }
        let items = 1 + self.below(6);
        for _ in 0..items {
            self.item(&mut out, 0);
        }
        out
    }

    fn item(&mut self, out: &mut String, depth: usize) {
        let roll = self.below(if depth > 2 { 6 } else { 12 });
        match roll {
            0 | 1 => self.text(out),
            2 | 3 => {
                let f = self.formula();
                out.push_str(&self.statement(&format!("= {f}")));
            }
            4 => {
                let f = self.formula();
                let target = self.target();
                out.push_str(&self.statement(&format!("{target} = {f}")));
            }
            5 => match self.below(4) {
                0 => out.push_str(&self.statement("# comment }")),
                1 => {
                    let f = self.formula();
                    out.push_str(&self.statement(&f));
                }
                2 => {
                    let (a, b) = (self.formula(), self.formula());
                    out.push_str(&self.statement(&format!("{a} ; {b}")));
                }
                _ => {
                    if self.chance(50) && !self.blocks.is_empty() {
                        let word = self.pick_static(&["break", "continue"]);
                        out.push_str(&self.statement(word));
                    } else {
                        let word = self.pick_static(&["break", "continue", "#!k2hr3template"]);
                        out.push_str(&self.statement(word));
                    }
                }
            },
            6 | 7 => self.if_block(out, depth),
            8 => self.foreach_block(out, depth),
            9 => self.for_block(out, depth),
            10 => self.while_block(out, depth),
            _ => self.do_block(out, depth),
        }
    }

    fn pick_static(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }

    fn text(&mut self, out: &mut String) {
        let pieces = 1 + self.below(3);
        for _ in 0..pieces {
            out.push_str(self.pick(&[
                "a", "b c", "\n", "\r\n", " ", "\t", "x{{{y", "}}}", "[", "]", ",", "é", "  \n",
                "}}", "}", "%n%", "0", "-", "+", "<", "&&", "|", "==", "*", "++",
            ]));
        }
    }

    /// A statement around `body`, with the spacing varied.
    fn statement(&mut self, body: &str) -> String {
        let (open, close) = match self.below(5) {
            0 => ("{{", "}}"),
            1 => ("{{  ", "\t}}"),
            _ => ("{{ ", " }}"),
        };
        format!("{open}{body}{close}")
    }

    fn keyword(&mut self, word: &str) -> String {
        if self.chance(5) {
            word.to_ascii_uppercase()
        } else {
            word.to_owned()
        }
    }

    fn body(&mut self, out: &mut String, depth: usize) {
        let items = self.below(4);
        for _ in 0..items {
            self.item(out, depth + 1);
        }
    }

    /// Whether a block may open here the way the engine accepts (sometimes not, on purpose).
    fn may_open(&mut self, is_loop: bool) -> bool {
        self.blocks.last() != Some(&is_loop) || self.chance(10)
    }

    fn if_block(&mut self, out: &mut String, depth: usize) {
        if !self.may_open(false) {
            return self.text(out);
        }
        self.blocks.push(false);
        let kw = self.keyword("if");
        let c = self.condition();
        out.push_str(&self.statement(&format!("{kw} {c}")));
        self.body(out, depth);
        for _ in 0..self.below(3) {
            let c = self.condition();
            out.push_str(&self.statement(&format!("elif {c}")));
            self.body(out, depth);
        }
        if self.chance(50) {
            out.push_str(&self.statement("else"));
            self.body(out, depth);
        }
        if !self.chance(3) {
            let kw = self.keyword("endif");
            out.push_str(&self.statement(&kw));
        }
        self.blocks.pop();
        // A second `endif` (the engine accepts one inside a loop).
        if self.chance(6) {
            out.push_str(&self.statement("endif"));
        }
    }

    /// A second `done` after a loop (the engine accepts one inside an `if`).
    fn maybe_second_done(&mut self, out: &mut String) {
        if self.chance(6) {
            out.push_str(&self.statement("done"));
        }
    }

    fn counter(&self) -> String {
        format!("%c{}%", self.loop_depth)
    }

    fn foreach_block(&mut self, out: &mut String, depth: usize) {
        if !self.may_open(true) {
            return self.text(out);
        }
        self.blocks.push(true);
        let var = self.pick(&["k", "key", "x"]);
        let list = self.pick(&[
            "arr",
            "obj",
            "a",
            "b",
            "e",
            "s",
            "n",
            "u",
            "yrn:yahoo:::demo:role:web/hosts/all",
        ]);
        let kw = self.keyword("foreach");
        out.push_str(&self.statement(&format!("{kw} %{var}% in %{list}%")));
        self.loop_depth += 1;
        self.body(out, depth);
        self.loop_depth -= 1;
        out.push_str(&self.statement("done"));
        self.blocks.pop();
        self.maybe_second_done(out);
    }

    fn for_block(&mut self, out: &mut String, depth: usize) {
        if !self.may_open(true) {
            return self.text(out);
        }
        self.blocks.push(true);
        let c = self.counter();
        let limit = self.below(4);
        let step = self.pick(&["++", "post++", "+= "]);
        let step = match step {
            "++" => format!("++{c}"),
            "post++" => format!("{c}++"),
            _ => format!("{c} = {c} + 1"),
        };
        let head = match self.below(6) {
            0 => format!("for {c} = 0 ; {c} < {limit} ;"),
            _ => format!("for {c} = 0 ; {c} < {limit} ; {step}"),
        };
        let no_step = head.ends_with(';');
        out.push_str(&self.statement(&head));
        self.loop_depth += 1;
        if no_step {
            out.push_str(&self.statement(&format!("++{c}")));
        }
        self.body(out, depth);
        self.loop_depth -= 1;
        out.push_str(&self.statement("done"));
        self.blocks.pop();
        self.maybe_second_done(out);
    }

    fn while_block(&mut self, out: &mut String, depth: usize) {
        if self.in_do > 0 || !self.may_open(true) {
            return self.text(out);
        }
        self.blocks.push(true);
        let c = self.counter();
        let limit = self.below(4);
        out.push_str(&self.statement(&format!("{c} = 0")));
        out.push_str(&self.statement(&format!("while {c} < {limit}")));
        self.loop_depth += 1;
        out.push_str(&self.statement(&format!("++{c}")));
        self.body(out, depth);
        self.loop_depth -= 1;
        out.push_str(&self.statement("done"));
        self.blocks.pop();
        self.maybe_second_done(out);
    }

    /// `do … while`, around any block but a `while … done` (whose `while` would close the
    /// `do`, and the loops the engine then makes may not end).
    fn do_block(&mut self, out: &mut String, depth: usize) {
        if !self.may_open(true) {
            return self.text(out);
        }
        self.blocks.push(true);
        let c = self.counter();
        let limit = self.below(4);
        out.push_str(&self.statement(&format!("{c} = 0")));
        out.push_str(&self.statement("do"));
        self.loop_depth += 1;
        self.in_do += 1;
        out.push_str(&self.statement(&format!("{c}++")));
        self.body(out, depth);
        self.in_do -= 1;
        self.loop_depth -= 1;
        out.push_str(&self.statement(&format!("while {c} < {limit}")));
        self.blocks.pop();
    }

    // --- formulas ------------------------------------------------------------------------

    fn target(&mut self) -> String {
        match self.below(8) {
            0 => format!("%{}%[{}]", self.pick(&["arr", "obj"]), self.index()),
            _ => format!("%{}%", self.pick(WRITE)),
        }
    }

    fn var(&mut self) -> String {
        format!("%{}%", self.pick(READ))
    }

    fn index(&mut self) -> String {
        match self.below(5) {
            0 => self.below(4).to_string(),
            1 => format!("'{}'", self.pick(&["k", "j", "0", "1", "host"])),
            2 => self.var(),
            3 => format!("%n% - {}", self.below(3)),
            _ => self.pick(&["0", "1", "true", "null"]).to_owned(),
        }
    }

    fn number(&mut self) -> String {
        match self.below(9) {
            0 => "0".to_owned(),
            1 => format!("0x{:x}", self.below(300)),
            2 => format!("x{:X}", self.below(300)),
            3 => format!("0o{:o}", self.below(300)),
            4 => format!("0b{:b}", self.below(20)),
            5 => format!("0{}", self.below(20)),
            6 => "99999999999999999999".to_owned(),
            _ => self.below(40).to_string(),
        }
    }

    fn literal(&mut self) -> String {
        match self.below(6) {
            0 | 1 => self.number(),
            2 => format!(
                "'{}'",
                self.pick(&[
                    "abc", "5", " 7", "0x10", "1.5", "-3", "é", "a b", "%n%", "true"
                ])
            ),
            3 => format!("\"{}\"", self.pick(&["d e", "12", "it's", "x"])),
            _ => self.pick(&["true", "false", "null"]).to_owned(),
        }
    }

    fn unit(&mut self) -> String {
        match self.below(12) {
            0..=3 => self.literal(),
            4..=7 => self.var(),
            8 => format!(
                "{}[{}]",
                self.pick(&["%arr%", "%obj%", "%s%", "%a%", "%n%"]),
                self.index()
            ),
            9 => format!(
                "{}{{{}}}",
                self.pick(&["%obj%", "%arr%", "%yrn:yahoo:::demo:role:web/hosts/all%"]),
                self.index()
            ),
            10 => format!(
                "%{}%{}",
                self.pick(&["arr", "obj", "s", "e", "n", "t", "ns", "z", "u", "x"]),
                self.pick(&[".length", ".size", ".count"])
            ),
            _ => {
                let operand = if self.chance(70) {
                    self.var()
                } else {
                    self.number()
                };
                format!("{operand}{}", self.pick(&["++", "--"]))
            }
        }
    }

    fn op(&mut self) -> &'static str {
        self.pick_static(&[
            "+", "-", "*", "/", "%", "&", "|", "<<", ">>", "==", "!=", "<", ">", "<=", ">=", "&&",
            "||", "+", "-", "==", "<",
        ])
    }

    /// A formula: half from the whole grammar (many do not load, as in the engine), half of
    /// the shapes templates are written with.
    fn formula(&mut self) -> String {
        if self.chance(50) {
            return self.any_formula();
        }
        match self.below(7) {
            0 => self.unit(),
            1 | 2 => {
                let terms = 1 + self.below(3);
                let mut out = self.number_unit();
                for _ in 1..terms {
                    let op =
                        self.pick(&["+", "-", "*", "/", "%", "&", "|", "<<", ">>", "+", "-", "*"]);
                    let unit = self.number_unit();
                    out = format!("{out} {op} {unit}");
                }
                out
            }
            3 => {
                let (a, b) = (self.unit(), self.unit());
                let head = self.pick(&["'host='", "%s%", "\"x\"", "%ns%"]);
                format!("{head} + {a} + {b}")
            }
            4 => {
                let (a, b) = (self.number_unit(), self.number_unit());
                let op = self.pick(&["==", "!=", "<", ">", "<=", ">="]);
                format!("{a} {op} {b}")
            }
            5 => {
                let (a, b) = (self.var(), self.unit());
                let op = self.pick(&["==", "!="]);
                let (c, d) = (self.var(), self.unit());
                let join = self.pick(&["&&", "||"]);
                format!("{a} {op} {b} {join} {c} {op} {d}")
            }
            _ => {
                let v = self.var();
                format!("!{v}")
            }
        }
    }

    /// An operand that reads as a number.
    fn number_unit(&mut self) -> String {
        match self.below(6) {
            0 | 1 => self.number(),
            2 => format!("'{}'", self.pick(&["5", " 7", "0x10", "1.5", "-3"])),
            3 => format!("%{}%", self.pick(&["n", "f", "ns", "t", "c0", "x", "y"])),
            4 => format!("%arr%[{}]", self.below(3)),
            _ => format!(
                "%{}%.length",
                self.pick(&["arr", "obj", "s", "e", "z", "u"])
            ),
        }
    }

    /// A formula from the whole grammar.
    fn any_formula(&mut self) -> String {
        let mut out = String::new();
        let terms = 1 + self.below(4);
        for i in 0..terms {
            if i > 0 {
                let op = self.op();
                out.push(' ');
                out.push_str(op);
                out.push(' ');
            }
            if self.chance(12) {
                out.push_str(self.pick(&["!", "++", "--"]));
            }
            let unit = self.unit();
            out.push_str(&unit);
        }
        out
    }

    /// A condition: mostly one that loads (a comparison, a variable, `&&` of those).
    fn condition(&mut self) -> String {
        match self.below(6) {
            0 => self.formula(),
            1 => self.var(),
            2 => format!("{} && {}", self.var(), self.var()),
            _ => {
                let (l, r) = (self.unit(), self.unit());
                let op = self.pick(&["==", "!=", "<", ">", "<=", ">="]);
                format!("{l} {op} {r}")
            }
        }
    }
}
