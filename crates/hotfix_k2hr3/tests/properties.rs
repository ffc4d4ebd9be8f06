//! Whatever the input: no panic, every span inside the source on character boundaries, and
//! expansion ends within the limits (in bounded time).

use std::time::{Duration, Instant};

use hotfix_k2hr3::{ExprKind, Limits, Node, Value, Variables};
use proptest::prelude::*;

const LIMITS: Limits = Limits {
    max_iterations: 2_000,
    max_output: 1 << 16,
};

/// Pieces of the language, so that generated input reaches past the first error.
const PIECES: &[&str] = &[
    "{{",
    "}}",
    "{{{",
    "}}}",
    "{{=",
    "{{#",
    "{{#!k2hr3template }}",
    "{{ if ",
    "{{ elif ",
    "{{ else }}",
    "{{ endif }}",
    "{{ while ",
    "{{ do }}",
    "{{ done }}",
    "{{ for ",
    "{{ foreach ",
    " in ",
    "{{ break }}",
    "{{ continue }}",
    "%a%",
    "%b%",
    "%l%",
    "%o%",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ";",
    ".length",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "<<",
    ">>",
    "!",
    "&&",
    "||",
    "++",
    "--",
    "0",
    "1",
    "7",
    "0x1f",
    "0b101",
    "017",
    "'s'",
    "\"d\\\"q\"",
    "true",
    "false",
    "null",
    " ",
    "\n",
    "\r\n",
    "text",
    "é",
];

fn vars() -> Variables {
    let mut vars = Variables::new();
    vars.insert("a".into(), Value::Num(3.0));
    vars.insert("b".into(), Value::Str("x".into()));
    vars.insert("l".into(), Value::Array(vec![Value::Num(1.0), Value::Null]));
    vars.insert(
        "o".into(),
        Value::Object(vec![("k".into(), Value::Bool(true))]),
    );
    vars
}

fn check(source: &str) {
    let start = Instant::now();
    if let Ok(template) = hotfix_k2hr3::parse(source) {
        check_nodes(source, &template.body);
        let result = hotfix_k2hr3::expand(&template, &vars(), LIMITS);
        if let Ok(output) = result {
            assert!(output.len() <= LIMITS.max_output);
        }
    } else if let Err(err) = hotfix_k2hr3::parse(source) {
        check_span(source, err.span);
    }
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?} on {source:?}",
        start.elapsed()
    );
}

fn check_span(source: &str, span: hotfix_k2hr3::Span) {
    assert!(
        span.start <= span.end && span.end <= source.len(),
        "{span} outside"
    );
    assert!(source.is_char_boundary(span.start) && source.is_char_boundary(span.end));
}

fn check_nodes(source: &str, nodes: &[Node]) {
    for node in nodes {
        match node {
            Node::Text { span, .. }
            | Node::Comment { span }
            | Node::Break { span }
            | Node::Continue { span } => {
                check_span(source, *span);
            }
            Node::Print { span, expr } => {
                check_span(source, *span);
                check_expr(source, expr);
            }
            Node::Eval { span, exprs } => {
                check_span(source, *span);
                for expr in exprs {
                    check_expr(source, expr);
                }
            }
            Node::If {
                span,
                branches,
                otherwise,
                end,
                ..
            } => {
                check_span(source, *span);
                check_span(source, *end);
                for b in branches {
                    check_span(source, b.head);
                    check_expr(source, &b.cond);
                    check_nodes(source, &b.body);
                }
                if let Some((s, body)) = otherwise {
                    check_span(source, *s);
                    check_nodes(source, body);
                }
            }
            Node::While {
                span,
                head,
                cond,
                body,
                end,
            }
            | Node::DoWhile {
                span,
                head,
                body,
                end,
                cond,
            } => {
                for s in [span, head, end] {
                    check_span(source, *s);
                }
                check_expr(source, cond);
                check_nodes(source, body);
            }
            Node::For {
                span,
                head,
                init,
                cond,
                step,
                body,
                end,
            } => {
                for s in [span, head, end] {
                    check_span(source, *s);
                }
                for e in [init, cond, step].into_iter().flatten() {
                    check_expr(source, e);
                }
                check_nodes(source, body);
            }
            Node::Foreach {
                span,
                head,
                var_span,
                iterable,
                body,
                end,
                ..
            } => {
                for s in [span, head, var_span, end] {
                    check_span(source, *s);
                }
                check_expr(source, iterable);
                check_nodes(source, body);
            }
        }
    }
}

fn check_expr(source: &str, expr: &hotfix_k2hr3::Expr) {
    check_span(source, expr.span);
    match &expr.kind {
        ExprKind::Index { base, index, .. } => {
            check_expr(source, base);
            check_expr(source, index);
        }
        ExprKind::Length { base, name_span } => {
            check_span(source, *name_span);
            check_expr(source, base);
        }
        ExprKind::Not { op_span, operand }
        | ExprKind::Step {
            op_span, operand, ..
        } => {
            check_span(source, *op_span);
            check_expr(source, operand);
        }
        ExprKind::Binary {
            op_span, lhs, rhs, ..
        } => {
            check_span(source, *op_span);
            check_expr(source, lhs);
            check_expr(source, rhs);
        }
        ExprKind::Assign {
            target,
            op_span,
            value,
        } => {
            check_expr(source, target);
            check_span(source, *op_span);
            check_expr(source, value);
        }
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Num(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_) => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics_and_ends(source in any::<String>()) {
        check(&source);
    }

    #[test]
    fn arbitrary_language_pieces_never_panic_and_end(
        pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..60)
    ) {
        check(&pieces.concat());
    }
}

#[test]
fn endless_loops_stop_at_the_bound() {
    for source in [
        "{{ while true }}{{ done }}",
        "{{ for %i% = 0 ;; }}{{ continue }}{{ done }}",
        "{{ do }}{{ continue }}{{ while 1 }}",
        "{{ while 1 }}{{ if 1 }}{{ while 1 }}{{ done }}{{ endif }}{{ done }}",
        "{{ %s% = 'x' }}{{ while 1 }}{{ %s% = %s% + %s% }}{{ done }}",
    ] {
        let template = hotfix_k2hr3::parse(source).expect("parses");
        let err = hotfix_k2hr3::expand(&template, &Variables::new(), LIMITS).expect_err("stops");
        assert!(
            matches!(
                err.kind,
                hotfix_k2hr3::ExpandErrorKind::IterationLimit(_)
                    | hotfix_k2hr3::ExpandErrorKind::OutputLimit(_)
                    | hotfix_k2hr3::ExpandErrorKind::WorkLimit(_)
            ),
            "{source}: {err}"
        );
    }
}

#[test]
fn deep_and_long_formulas_are_refused_not_overflowed() {
    let deep = format!("{{{{= {}1{} }}}}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(hotfix_k2hr3::parse(&deep).is_err());
    let long = format!("{{{{= 1{} }}}}", " + 1".repeat(100_000));
    assert!(hotfix_k2hr3::parse(&long).is_err());
    let nots = format!("{{{{= {}1 }}}}", "!".repeat(100_000));
    assert!(hotfix_k2hr3::parse(&nots).is_err());
    let blocks = "{{ if 1 }}".repeat(100_000);
    assert!(hotfix_k2hr3::parse(&blocks).is_err());
    // At the limit, the formula evaluates (no stack overflow in the expander).
    let longest = format!("{{{{= 0{} }}}}", " + 1".repeat(hotfix_k2hr3::MAX_OPERATORS));
    let template = hotfix_k2hr3::parse(&longest).expect("at the limit");
    let out = hotfix_k2hr3::expand(&template, &Variables::new(), LIMITS).expect("expands");
    assert_eq!(out, hotfix_k2hr3::MAX_OPERATORS.to_string());
}

#[test]
fn ifs_closed_twice_stop_at_their_depth_not_the_stack() {
    // Each `if` closed by two `endif`s whose condition does not hold runs the rest of the loop
    // body inside it: a long run of them is stopped (the engine would run the rest 2^N times),
    // also with a bound on iterations too high to stop it.
    let source = format!(
        "{{{{ while true }}}}{}{{{{ break }}}}{{{{ done }}}}",
        "{{ if false }}{{ endif }}{{ endif }}".repeat(100_000)
    );
    let template = hotfix_k2hr3::parse(&source).expect("parses");
    let limits = hotfix_k2hr3::Limits {
        max_iterations: u64::MAX,
        max_output: 1 << 16,
    };
    let err = hotfix_k2hr3::expand(&template, &Variables::new(), limits).expect_err("stops");
    assert!(
        matches!(err.kind, hotfix_k2hr3::ExpandErrorKind::RestDepth(64)),
        "{err}"
    );
    // A few of them run as the engine runs them.
    let source = "{{ while true }}{{ if false }}{{ endif }}{{ endif }}x{{ break }}{{ done }}";
    let template = hotfix_k2hr3::parse(source).expect("parses");
    let out = hotfix_k2hr3::expand(&template, &Variables::new(), LIMITS).expect("expands");
    assert_eq!(out, "x");
}

#[test]
fn numbers_print_as_javascript_writes_them() {
    // Where two shortest digit strings are equally close to the value, JavaScript takes the
    // even last digit (Rust's formatting takes the other); the rest is the shortest digits.
    for (n, text) in [
        // Exact in binary: 7664076732001677 / 4 and 243130342575229 / 16.
        (7_664_076_732_001_677.0 / 4.0, "1916019183000419.2"),
        (243_130_342_575_229.0 / 16.0, "15195646410951.812"),
        (0.1 + 0.2, "0.30000000000000004"),
        (5e-324, "5e-324"),
        (1.5, "1.5"),
        (2.5e-7, "2.5e-7"),
        (123_456_789_012_345_680_000.0, "123456789012345680000"),
        (0.000_001, "0.000001"),
        (1e21, "1e+21"),
        (4.35, "4.35"),
        (-0.5, "-0.5"),
    ] {
        assert_eq!(hotfix_k2hr3::number_to_string(n), text, "{n:e}");
    }
}
