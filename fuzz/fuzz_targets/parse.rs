//! Any bytes through the loader as a linter uses it: `check_bytes`, `parse_unlimited`,
//! `to_python_json`, then the value view of every mapping and the line and column of every
//! span. Nothing may panic, and every span of a loaded document must lie within the source
//! on character boundaries.

#![no_main]

use hotfix_yaml::{Document, NodeId, NodeKind, Span};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = hotfix_yaml::check_bytes(data) else {
        return;
    };
    let Ok(doc) = hotfix_yaml::parse_unlimited(text) else {
        return;
    };
    exercise(&doc);
});

fn exercise(doc: &Document) {
    let source = doc.source();
    let _ = doc.to_python_json();
    for id in node_ids(doc) {
        let node = doc.node(id);
        check_span(source, node.span, "node");
        if let Some(anchor) = node.anchor {
            check_span(source, anchor, "anchor");
        }
        if let Some(span) = node.tag.as_ref().and_then(|tag| tag.span) {
            check_span(source, span, "tag");
        }
        let _ = doc.text(id);
        let _ = doc.lines().position(source, node.span.start);
        let _ = doc.lines().position(source, node.span.end);
        if matches!(node.kind, NodeKind::Mapping { .. }) {
            for entry in doc.entries(id) {
                let _ = doc.node(entry.key);
                let _ = doc.node(entry.value);
            }
        }
    }
    for comment in doc.comments() {
        check_span(source, comment.span, "comment");
    }
}

/// The root and every node some node refers to (items, keys, values, alias targets).
fn node_ids(doc: &Document) -> Vec<NodeId> {
    let mut ids = vec![doc.root()];
    for node in doc.nodes() {
        match &node.kind {
            NodeKind::Scalar(_) => {}
            NodeKind::Sequence { items, .. } => ids.extend(items),
            NodeKind::Mapping { entries, .. } => {
                ids.extend(entries.iter().flat_map(|e| [e.key, e.value]));
            }
            NodeKind::Alias { target } => ids.push(*target),
        }
    }
    ids.sort_unstable();
    ids.dedup();
    ids
}

fn check_span(source: &str, span: Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= source.len(),
        "{what} span {span:?} is outside the source ({} bytes)",
        source.len()
    );
    assert!(
        source.is_char_boundary(span.start) && source.is_char_boundary(span.end),
        "{what} span {span:?} is not on character boundaries"
    );
}
