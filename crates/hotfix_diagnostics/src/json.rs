//! A finding as `hotfix lint --format json` writes it, shared by the command line and the
//! playground.

use hotfix_yaml::LineIndex;
use serde_json::{Value, json};

use crate::{Diagnostic, Span, location};

/// One finding of `--format json`: its code, name, severity, message, help, path, start and
/// end (line, column, byte offset), its fix with each edit, and `related`, the other places
/// that matter (each label, with its path, message, start and end). `display` is the
/// finding's path as shown; `shown` turns another file's path (a label in another file) into
/// the path shown.
pub fn json_finding(
    display: &str,
    source: &str,
    lines: &LineIndex,
    d: &Diagnostic,
    shown: &dyn Fn(&str) -> String,
) -> Value {
    let (start, end) = location(lines, source, d.span);
    let place = |path: &str, lines: &LineIndex, source: &str, span: Span, message: &str| {
        let (s, t) = location(lines, source, span);
        json!({
            "path": path,
            "message": message,
            "start": {"line": s.line, "column": s.column, "offset": span.start},
            "end": {"line": t.line, "column": t.column, "offset": span.end},
        })
    };
    let mut related: Vec<Value> = d
        .labels
        .iter()
        .map(|l| place(display, lines, source, l.span, &l.message))
        .collect();
    for label in &d.file_labels {
        let other = LineIndex::new(&label.source);
        related.push(place(
            &shown(&label.path),
            &other,
            &label.source,
            label.span,
            &label.message,
        ));
    }
    let fix = d.fix.as_ref().map(|fix| {
        json!({
            "message": fix.message,
            "applicability": fix.applicability.as_str(),
            "edits": fix.edits.iter().map(|e| {
                let (s, t) = location(lines, source, e.span);
                json!({
                    "start": {"line": s.line, "column": s.column, "offset": e.span.start},
                    "end": {"line": t.line, "column": t.column, "offset": e.span.end},
                    "content": e.content,
                })
            }).collect::<Vec<_>>(),
        })
    });
    json!({
        "code": d.code,
        "name": d.name,
        "severity": d.severity.as_str(),
        "message": d.message,
        "help": d.help,
        "path": display,
        "start": {"line": start.line, "column": start.column, "offset": d.span.start},
        "end": {"line": end.line, "column": end.column, "offset": d.span.end},
        "fix": fix,
        "related": related,
    })
}
