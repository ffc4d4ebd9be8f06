//! Removing one `key: value` entry from a mapping, keeping the YAML (and JSON) valid and every
//! other byte as it is.

use hotfix_diagnostics::{Edit, Span};
use hotfix_yaml::{Document, Entry, NodeId, NodeKind, ScalarValue, Style};

/// The edits that remove the entry `name` from `mapping`: in block style the whole line(s) of
/// the entry (with a comment that ends them); in flow style the entry and one comma next to
/// it. `None` when that cannot be done safely: the key is missing, repeated, or only merged in
/// (`<<`); the entry is the mapping's only one; the mapping has an anchor (another place may use
/// it); the removed text defines an anchor; the key has a tag or an anchor; or the entry shares
/// its line with other content.
pub(super) fn remove_entry(doc: &Document, mapping: NodeId, name: &str) -> Option<Vec<Edit>> {
    let mapping = doc.resolve(mapping);
    let node = doc.node(mapping);
    let NodeKind::Mapping { entries, style } = &node.kind else {
        return None;
    };
    if node.anchor.is_some() || entries.len() < 2 {
        return None;
    }
    if entries.iter().any(|e| {
        matches!(
            doc.scalar(e.key).map(|s| &s.value),
            Some(ScalarValue::Merge)
        )
    }) {
        return None;
    }
    let matching: Vec<usize> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| is_key(doc, e.key, name))
        .map(|(i, _)| i)
        .collect();
    let [index] = matching[..] else {
        return None;
    };
    // A tag or anchor on the key stands before the key's own span: the removal would leave it
    // behind, dangling in front of the next entry.
    let key = doc.node(entries[index].key);
    if key.tag.is_some() || key.anchor.is_some() {
        return None;
    }
    let edits = match style {
        Style::Block => vec![Edit::delete(block_lines(doc, *entries.get(index)?)?)],
        Style::Flow => flow_entry(doc, entries, index)?,
    };
    // An anchor in the removed text may be used by an alias elsewhere.
    let removes_anchor = doc.nodes().iter().any(|n| {
        n.anchor.is_some_and(|a| {
            edits
                .iter()
                .any(|e| e.span.start <= a.start && a.end <= e.span.end)
        })
    });
    (!removes_anchor).then_some(edits)
}

fn is_key(doc: &Document, key: NodeId, name: &str) -> bool {
    doc.scalar(key)
        .is_some_and(|s| matches!(s.value, ScalarValue::Str) && s.text == name)
}

/// Where the entry's text ends: its value's end, or its key's when the value is empty.
fn entry_end(doc: &Document, entry: Entry) -> usize {
    doc.node(entry.key)
        .span
        .end
        .max(doc.node(entry.value).span.end)
}

fn line_start(source: &str, at: usize) -> usize {
    source
        .get(..at)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// Whether only spaces precede `at` on its line.
fn first_on_line(source: &str, at: usize) -> bool {
    source
        .get(line_start(source, at)..at)
        .is_some_and(|s| s.bytes().all(|b| b == b' '))
}

/// The lines of a block-style entry, line break included. The key must start its line, and
/// only spaces and a comment may follow the value on its last line.
fn block_lines(doc: &Document, entry: Entry) -> Option<Span> {
    let source = doc.source();
    let start = doc.node(entry.key).span.start;
    let end = entry_end(doc, entry);
    if !first_on_line(source, start) {
        return None;
    }
    let head = source.get(..end)?;
    let stop = if head.ends_with('\n') {
        end
    } else {
        let rest = source.get(end..)?;
        let line_end = rest.find('\n').map_or(source.len(), |i| end + i + 1);
        // An empty value leaves the `:` after the key on the line.
        let tail = source.get(end..line_end)?.trim_start();
        let tail = tail.strip_prefix(':').unwrap_or(tail).trim();
        if !(tail.is_empty() || tail.starts_with('#')) {
            return None;
        }
        line_end
    };
    Some(Span::new(line_start(source, start), stop))
}

/// The first byte at or after `at` that is not white space or part of a comment.
fn skip_trivia(source: &str, mut at: usize) -> usize {
    let bytes = source.as_bytes();
    while let Some(&b) = bytes.get(at) {
        match b {
            b' ' | b'\t' | b'\r' | b'\n' => at += 1,
            b'#' => {
                at = source
                    .get(at..)
                    .and_then(|s| s.find('\n'))
                    .map_or(source.len(), |i| at + i);
            }
            _ => break,
        }
    }
    at
}

/// After `at`: spaces, then the line break; the offset past the break.
fn line_break_after_spaces(source: &str, at: usize) -> Option<usize> {
    let rest = source.get(at..)?;
    let trimmed = rest.trim_start_matches([' ', '\t']);
    let skipped = rest.len() - trimmed.len();
    if trimmed.starts_with("\r\n") {
        Some(at + skipped + 2)
    } else if trimmed.starts_with('\n') {
        Some(at + skipped + 1)
    } else {
        None
    }
}

/// A flow-style entry and a comma: the one after it, or, for the last entry, the one before.
fn flow_entry(doc: &Document, entries: &[Entry], index: usize) -> Option<Vec<Edit>> {
    let source = doc.source();
    let bytes = source.as_bytes();
    let entry = *entries.get(index)?;
    if doc.node(entry.value).span.is_empty() {
        return None;
    }
    let start = doc.node(entry.key).span.start;
    let end = entry_end(doc, entry);
    let after = skip_trivia(source, end);
    if bytes.get(after) == Some(&b',') {
        let mut stop = after + 1;
        while matches!(bytes.get(stop), Some(b' ' | b'\t')) {
            stop += 1;
        }
        if first_on_line(source, start)
            && let Some(past) = line_break_after_spaces(source, stop)
        {
            return Some(vec![Edit::delete(Span::new(
                line_start(source, start),
                past,
            ))]);
        }
        return Some(vec![Edit::delete(Span::new(start, stop))]);
    }
    // The last entry: remove the comma that ends the previous one.
    let previous = *entries.get(index.checked_sub(1)?)?;
    let comma = skip_trivia(source, entry_end(doc, previous));
    if bytes.get(comma) != Some(&b',') || comma >= start {
        return None;
    }
    let between = source.get(comma + 1..start)?;
    if between.bytes().all(|b| b.is_ascii_whitespace()) {
        return Some(vec![Edit::delete(Span::new(comma, end))]);
    }
    // A comment between them stays where it is.
    let comma_edit = Edit::delete(Span::new(comma, comma + 1));
    if first_on_line(source, start)
        && let Some(past) = line_break_after_spaces(source, end)
    {
        return Some(vec![
            comma_edit,
            Edit::delete(Span::new(line_start(source, start), past)),
        ]);
    }
    Some(vec![comma_edit, Edit::delete(Span::new(start, end))])
}
