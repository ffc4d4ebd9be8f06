//! Small helpers shared by rules.

use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};

/// The closest candidate to `word`, if it is close enough to be a likely typo: a different
/// case, or at most two edits (and fewer than half the word) away.
pub(crate) fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let lower = word.to_lowercase();
    // Ties go to the candidate sharing the longest prefix: `2016-10-15` → `2016-10-14`.
    let mut best: Option<(usize, usize, &str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let distance = if candidate.to_lowercase() == lower {
            0
        } else {
            levenshtein(&lower, &candidate.to_lowercase())
        };
        let prefix = lower
            .chars()
            .zip(candidate.to_lowercase().chars())
            .take_while(|(a, b)| a == b)
            .count();
        if best.is_none_or(|(d, p, _)| distance < d || (distance == d && prefix > p)) {
            best = Some((distance, prefix, candidate));
        }
    }
    let (distance, _, candidate) = best?;
    (distance <= 2 && distance * 2 < word.chars().count().max(2)).then_some(candidate)
}

/// Edit distance (insertions, deletions, substitutions) between two strings.
pub(crate) fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// What Python calls the type of the value a node loads as (`str`, `int`, `list`, …).
pub(crate) fn python_type(doc: &Document, id: NodeId) -> &'static str {
    let id = doc.resolve(id);
    match &doc.node(id).kind {
        NodeKind::Mapping { .. } => "dict",
        NodeKind::Sequence { .. } => "list",
        NodeKind::Alias { .. } => "alias",
        NodeKind::Scalar(s) => match s.value {
            ScalarValue::Null => "NoneType",
            ScalarValue::Bool(_) => "bool",
            ScalarValue::Int(_) => "int",
            ScalarValue::Float(_) => "float",
            ScalarValue::Binary => "bytes",
            ScalarValue::Str | ScalarValue::Merge | ScalarValue::ValueKey => "str",
        },
    }
}

/// Whether the node is a mapping (through aliases).
pub(crate) fn is_mapping(doc: &Document, id: NodeId) -> bool {
    matches!(doc.node(doc.resolve(id)).kind, NodeKind::Mapping { .. })
}

/// Whether the node is a sequence (through aliases).
pub(crate) fn is_sequence(doc: &Document, id: NodeId) -> bool {
    matches!(doc.node(doc.resolve(id)).kind, NodeKind::Sequence { .. })
}

/// Whether the node loads as `None`.
pub(crate) fn is_null(doc: &Document, id: NodeId) -> bool {
    doc.scalar(id).is_some_and(|s| s.value == ScalarValue::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_misses_only() {
        let versions = ["2016-10-14", "newton", "2017-02-24"];
        assert_eq!(did_you_mean("2016-10-15", versions), Some("2016-10-14"));
        assert_eq!(did_you_mean("Newton", versions), Some("newton"));
        assert_eq!(did_you_mean("2020-08-07", versions), None);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
    }
}
