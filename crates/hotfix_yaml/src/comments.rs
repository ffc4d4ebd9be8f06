//! Finding comments from the finished tree.
//!
//! In YAML a comment starts at a `#` that follows white space (or starts a line) and is not
//! part of a scalar; it runs to the end of the line. Once the tree is built, every scalar's
//! span is known (quoted and block scalars included), so the comments are exactly the `#`s
//! outside those spans with white space before them, found in one pass over the text.
//! `tests/reader.rs` checks that these are the comments the reader skips, on the corpus and
//! `testdata/`.

use crate::document::{Comment, Document, NodeKind, Span};

pub(crate) fn scan(doc: &mut Document) {
    let source = doc.source.as_bytes();
    // A `#` after white space (or at the start) is a comment unless it is inside a scalar.
    // Tags, anchors and aliases cannot contain white space, so only scalars matter.
    let candidates: Vec<usize> = memchr::memchr_iter(b'#', source)
        .filter(|&at| at == 0 || matches!(source[at - 1], b' ' | b'\t' | b'\n' | b'\r'))
        .collect();
    if candidates.is_empty() {
        return;
    }
    // Scalar spans in document order: node ids are assigned in document order.
    let mut scalars = doc
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Scalar(_)))
        .map(|n| n.span)
        .peekable();
    let mut comment_end = 0;
    let mut comments = Vec::new();
    for at in candidates {
        if at < comment_end {
            continue;
        }
        while scalars.next_if(|s| s.end <= at).is_some() {}
        if scalars.peek().is_some_and(|s| s.start <= at) {
            continue;
        }
        let end = memchr::memchr2(b'\n', b'\r', &source[at..]).map_or(source.len(), |n| at + n);
        comments.push(Comment {
            span: Span::new(at, end),
            text: doc.source[at + 1..end].to_owned(),
        });
        comment_end = end;
    }
    doc.comments = comments;
}
