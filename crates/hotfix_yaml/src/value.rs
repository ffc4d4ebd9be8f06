//! The value view: what PyYAML's constructor makes of the tree.
//!
//! `SafeConstructor.flatten_mapping` expands `<<` merge keys (the merged entries come first,
//! a list of mappings is merged last-to-first), and `construct_mapping` assigns entries into a
//! `dict` in order, so of repeated keys the last value wins while the key keeps the position of
//! its first occurrence. Keys compare as Python values: `True == 1 == 1.0`, every `.nan` is the
//! same object.

use std::collections::HashMap;

use crate::document::{Document, Entry, NodeId, NodeKind};
use crate::error::{LoadError, LoadErrorKind};
use crate::scalar::{Int, ScalarValue};

/// Expanded nodes allowed beyond ten per written node, before aliases count as a bomb.
const EXPANSION_ALLOWANCE: u64 = 1_000_000;

/// Up to how many entries a mapping's keys are compared pairwise instead of hashed.
const SMALL_MAPPING: usize = 24;

impl Document {
    /// The entries of the mapping behind `id` as PyYAML's `dict` holds them: merge keys
    /// expanded, one entry per distinct key (its first key node, its last value), in dict
    /// order. Empty when `id` is not a mapping.
    pub fn entries(&self, id: NodeId) -> Vec<Entry> {
        let mut flat = Vec::new();
        self.flatten(id, &mut flat);
        if flat.len() < 2 {
            return flat;
        }
        let mut out: Vec<Entry> = Vec::with_capacity(flat.len());
        // Most mappings are small: comparing each key with the ones before costs less than
        // building a hash map of them.
        if flat.len() <= SMALL_MAPPING {
            for entry in flat {
                match out.iter().position(|e| self.same_key(e.key, entry.key)) {
                    Some(i) => out[i].value = entry.value,
                    None => out.push(entry),
                }
            }
            return out;
        }
        self.distinct(flat, out)
    }

    /// One entry per distinct key of `flat` (its first key node, its last value), by hashing.
    fn distinct(&self, flat: Vec<Entry>, mut out: Vec<Entry>) -> Vec<Entry> {
        let mut seen: HashMap<KeyRepr, usize> = HashMap::with_capacity(flat.len());
        for entry in flat {
            let repr = self.key_repr(entry.key);
            if let Some(&i) = seen.get(&repr) {
                out[i].value = entry.value;
            } else {
                seen.insert(repr, out.len());
                out.push(entry);
            }
        }
        out
    }

    /// The value PyYAML would give `mapping[key]` for a string key: the last of repeated keys,
    /// merged keys included.
    pub fn get(&self, mapping: NodeId, key: &str) -> Option<NodeId> {
        let entries = self.raw_entries(mapping)?;
        let has_merge = entries.iter().any(|e| {
            matches!(
                self.scalar(e.key).map(|s| &s.value),
                Some(ScalarValue::Merge)
            )
        });
        if has_merge {
            return self
                .entries(mapping)
                .into_iter()
                .find(|e| self.is_str_key(e.key, key))
                .map(|e| e.value);
        }
        entries
            .iter()
            .rev()
            .find(|e| self.is_str_key(e.key, key))
            .map(|e| e.value)
    }

    /// The node of the key `key` as it first appears (the span a diagnostic should point at).
    pub fn get_key(&self, mapping: NodeId, key: &str) -> Option<NodeId> {
        self.entries(mapping)
            .into_iter()
            .find(|e| self.is_str_key(e.key, key))
            .map(|e| e.key)
    }

    fn is_str_key(&self, key: NodeId, text: &str) -> bool {
        self.scalar(key).is_some_and(|s| {
            s.text == text && matches!(s.value, ScalarValue::Str | ScalarValue::ValueKey)
        })
    }

    /// `flatten_mapping`: the pairs of a mapping with `<<` merges spliced in front.
    fn flatten(&self, id: NodeId, out: &mut Vec<Entry>) {
        let Some(entries) = self.raw_entries(id) else {
            return;
        };
        if !entries.iter().any(|e| self.is_merge_key(e.key)) {
            out.extend_from_slice(entries);
            return;
        }
        let mut merged = Vec::new();
        let mut own = Vec::with_capacity(entries.len());
        for entry in entries {
            if !matches!(
                self.scalar(entry.key).map(|s| &s.value),
                Some(ScalarValue::Merge)
            ) {
                own.push(*entry);
                continue;
            }
            let source = self.resolve(entry.value);
            match &self.node(source).kind {
                NodeKind::Mapping { .. } => self.flatten(source, &mut merged),
                NodeKind::Sequence { items, .. } => {
                    for &item in items.iter().rev() {
                        self.flatten(self.resolve(item), &mut merged);
                    }
                }
                // Rejected by `check`.
                _ => {}
            }
        }
        out.extend(merged);
        out.extend(own);
    }

    fn is_merge_key(&self, key: NodeId) -> bool {
        matches!(self.scalar(key).map(|s| &s.value), Some(ScalarValue::Merge))
    }

    /// Whether two keys are one key of a Python `dict`: `key_repr(a) == key_repr(b)`, without
    /// building either for the common case of string keys.
    fn same_key(&self, a: NodeId, b: NodeId) -> bool {
        let text = |id| {
            self.scalar(id).and_then(|s| match s.value {
                ScalarValue::Str | ScalarValue::ValueKey | ScalarValue::Merge => Some(&s.text),
                _ => None,
            })
        };
        match (text(a), text(b)) {
            (Some(a), Some(b)) => a == b,
            (Some(_), None) | (None, Some(_)) => false,
            (None, None) => self.key_repr(a) == self.key_repr(b),
        }
    }

    /// A mapping key as Python's `dict` compares it (through aliases).
    pub fn key_repr(&self, key: NodeId) -> KeyRepr {
        let Some(scalar) = self.scalar(key) else {
            // Collections are unhashable; `check` rejects them as keys.
            return KeyRepr::Unhashable(self.resolve(key));
        };
        match &scalar.value {
            ScalarValue::Null => KeyRepr::Null,
            ScalarValue::Bool(b) => KeyRepr::Int(Int::Small(i64::from(*b))),
            ScalarValue::Int(n) => KeyRepr::Int(n.clone()),
            ScalarValue::Float(f) => float_key(*f),
            ScalarValue::Str | ScalarValue::ValueKey | ScalarValue::Merge => {
                KeyRepr::Str(scalar.text.clone())
            }
            ScalarValue::Binary => KeyRepr::Bytes(scalar.text.clone()),
        }
    }
}

/// A mapping key as Python's `dict` compares it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyRepr {
    Null,
    Str(crate::Text),
    Bytes(crate::Text),
    /// Integers, booleans and integral floats (`1 == 1.0 == True`).
    Int(Int),
    /// Non-integral floats and infinities, by bit pattern.
    Float(u64),
    /// `.nan`: PyYAML returns one shared NaN object, so every `.nan` key is the same key.
    NaN,
    Unhashable(NodeId),
}

fn float_key(f: f64) -> KeyRepr {
    if f.is_nan() {
        return KeyRepr::NaN;
    }
    if f.is_finite() && f.fract() == 0.0 {
        let digits = format!("{f:.0}");
        let digits = if digits == "-0" {
            "0".to_owned()
        } else {
            digits
        };
        return KeyRepr::Int(match digits.parse::<i64>() {
            Ok(n) => Int::Small(n),
            Err(_) => Int::Big(digits),
        });
    }
    KeyRepr::Float(f.to_bits())
}

/// Everything PyYAML's constructor would reject, and inputs too large to expand.
pub(crate) fn check(doc: &Document) -> Result<(), LoadError> {
    let Some(root) = doc.root else {
        return Ok(());
    };
    let written = doc.nodes.len() as u64;
    let limit = EXPANSION_ALLOWANCE + 10 * written;
    for i in 0..doc.nodes.len() {
        check_node(doc, NodeId(u32::try_from(i).unwrap_or(u32::MAX)))?;
    }
    // Without aliases the expansion is the tree itself: its size is the node count, and its
    // depth is bounded by the parsers' nesting limits, which are below `MAX_DEPTH`.
    if !doc
        .nodes
        .iter()
        .any(|n| matches!(n.kind, NodeKind::Alias { .. }))
    {
        return Ok(());
    }
    let mut size = vec![0u64; doc.nodes.len()];
    let mut depth = vec![0usize; doc.nodes.len()];
    settle(doc, &mut size, &mut depth);
    let root = root.index();
    if size[root] > limit {
        return Err(LoadError::new(
            LoadErrorKind::AliasBomb,
            format!(
                "aliases expand this document to more than {limit} nodes (an \"alias bomb\"); refusing to expand it"
            ),
            first_alias_span(doc),
        ));
    }
    if depth[root] > crate::MAX_DEPTH {
        return Err(LoadError::new(
            LoadErrorKind::TooDeep,
            format!(
                "collections nest deeper than {} levels (counting through aliases)",
                crate::MAX_DEPTH
            ),
            first_alias_span(doc),
        ));
    }
    Ok(())
}

/// Computes every node's expanded size (saturating) and depth, without recursion: an alias
/// bomb is measured in time linear in the text, and deep nesting cannot overflow the stack.
fn settle(doc: &Document, size: &mut [u64], depth: &mut [usize]) {
    let order = completion_order(doc);
    for id in order {
        let i = id.index();
        let (s, d) = match &doc.nodes[i].kind {
            NodeKind::Scalar(_) => (1, 1),
            NodeKind::Alias { target } => (size[target.index()], depth[target.index()]),
            NodeKind::Sequence { items, .. } => items.iter().fold((1u64, 0usize), |(s, d), c| {
                (s.saturating_add(size[c.index()]), d.max(depth[c.index()]))
            }),
            NodeKind::Mapping { entries, .. } => {
                entries.iter().fold((1u64, 0usize), |(s, d), e| {
                    (
                        s.saturating_add(size[e.key.index()])
                            .saturating_add(size[e.value.index()]),
                        d.max(depth[e.key.index()]).max(depth[e.value.index()]),
                    )
                })
            }
        };
        size[i] = s;
        depth[i] = d.saturating_add(usize::from(!matches!(
            doc.nodes[i].kind,
            NodeKind::Scalar(_) | NodeKind::Alias { .. }
        )));
    }
}

/// Node ids in the order their values become final: every node after its children and, for
/// an alias, after its target. This is the post-order of the written tree: an alias never
/// points at one of its ancestors (the builder rejects that), and post-order keeps document
/// order between nodes that do not contain each other.
fn completion_order(doc: &Document) -> Vec<NodeId> {
    let mut order = Vec::with_capacity(doc.nodes.len());
    let Some(root) = doc.root else {
        return order;
    };
    let mut stack = vec![(root, false)];
    while let Some((id, expanded)) = stack.pop() {
        if expanded {
            order.push(id);
            continue;
        }
        stack.push((id, true));
        match &doc.node(id).kind {
            NodeKind::Sequence { items, .. } => {
                stack.extend(items.iter().rev().map(|&c| (c, false)));
            }
            NodeKind::Mapping { entries, .. } => {
                for e in entries.iter().rev() {
                    stack.push((e.value, false));
                    stack.push((e.key, false));
                }
            }
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
        }
    }
    order
}

fn first_alias_span(doc: &Document) -> Option<crate::Span> {
    doc.nodes
        .iter()
        .find(|n| matches!(n.kind, NodeKind::Alias { .. }))
        .map(|n| n.span)
}

/// The checks of PyYAML's constructor for one written node.
fn check_node(doc: &Document, id: NodeId) -> Result<(), LoadError> {
    let node = doc.node(id);
    let err = |message: String, at: NodeId| {
        Err(LoadError::new(
            LoadErrorKind::Construct,
            message,
            Some(doc.node(at).span),
        ))
    };
    match &node.kind {
        NodeKind::Mapping { entries, .. } => {
            for entry in entries {
                let key = doc.resolve(entry.key);
                match &doc.node(key).kind {
                    NodeKind::Scalar(s) if matches!(s.value, ScalarValue::Merge) => {
                        let source = doc.resolve(entry.value);
                        match &doc.node(source).kind {
                            NodeKind::Mapping { .. } => {}
                            NodeKind::Sequence { items, .. } => {
                                for &item in items {
                                    if !matches!(
                                        doc.node(doc.resolve(item)).kind,
                                        NodeKind::Mapping { .. }
                                    ) {
                                        return err(
                                            "expected a mapping for merging, but found something else".to_owned(),
                                            item,
                                        );
                                    }
                                }
                            }
                            _ => {
                                return err(
                                    "expected a mapping or list of mappings for merging (`<<`), but found a scalar".to_owned(),
                                    entry.value,
                                );
                            }
                        }
                    }
                    NodeKind::Scalar(_) => {}
                    _ => {
                        return err(
                            "found unhashable key (a list or mapping used as a mapping key)"
                                .to_owned(),
                            entry.key,
                        );
                    }
                }
                if let NodeKind::Scalar(s) = &doc.node(doc.resolve(entry.value)).kind {
                    check_scalar_value(&s.value).or_else(|m| err(m, entry.value))?;
                }
            }
        }
        NodeKind::Sequence { items, .. } => {
            let pairs = node.tag.as_ref().is_some_and(|t| {
                matches!(
                    t.name.as_str(),
                    "tag:yaml.org,2002:omap" | "tag:yaml.org,2002:pairs"
                )
            });
            for &item in items {
                let target = doc.node(doc.resolve(item));
                match &target.kind {
                    NodeKind::Mapping { entries, .. } if pairs && entries.len() != 1 => {
                        return err(
                            "expected a single mapping item in an ordered map or pairs".to_owned(),
                            item,
                        );
                    }
                    _ if pairs && !matches!(target.kind, NodeKind::Mapping { .. }) => {
                        return err(
                            "expected a mapping of length 1 in an ordered map or pairs".to_owned(),
                            item,
                        );
                    }
                    NodeKind::Scalar(s) => {
                        check_scalar_value(&s.value).or_else(|m| err(m, item))?;
                    }
                    _ => {}
                }
            }
        }
        NodeKind::Scalar(s) if doc.root == Some(id) => {
            check_scalar_value(&s.value).or_else(|m| err(m, id))?;
        }
        NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
    }
    Ok(())
}

/// `<<` and `=` only mean something as mapping keys; as values PyYAML has no constructor.
fn check_scalar_value(value: &ScalarValue) -> Result<(), String> {
    match value {
        ScalarValue::Merge => Err(
            "could not determine a constructor for the tag 'tag:yaml.org,2002:merge' (`<<` is only meaningful as a key)".to_owned(),
        ),
        ScalarValue::ValueKey => Err(
            "could not determine a constructor for the tag 'tag:yaml.org,2002:value' (quote a lone `=`)".to_owned(),
        ),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    /// Keys that Python's `dict` tells apart or takes as one in every way YAML 1.1 writes them.
    const KEYS: &[&str] = &[
        "1",
        "1.0",
        "true",
        "yes",
        "on",
        "0x1",
        "\"1\"",
        "'1'",
        "!!str 1",
        "null",
        "~",
        "''",
        "a",
        "\"a\"",
        "0",
        "false",
        "off",
        "0.0",
        "-0.0",
        ".nan",
        ".inf",
        "1_0",
        "10",
        "012",
        "!!binary YQ==",
        "1:0",
        "60",
    ];

    #[test]
    fn small_mappings_keep_the_keys_a_dict_keeps() {
        // Mappings of up to SMALL_MAPPING keys drawn (with repeats) from KEYS: the pairwise
        // comparison must give what hashing gives.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..3000 {
            let len = 2 + usize::try_from(next() % (SMALL_MAPPING as u64 - 1)).unwrap();
            let mut text = String::new();
            for i in 0..len {
                let key = KEYS[usize::try_from(next() % KEYS.len() as u64).unwrap()];
                writeln!(text, "{key}: {i}").expect("a String takes any text");
            }
            let doc = crate::parse(&text).expect(&text);
            let root = doc.root();
            let mut flat = Vec::new();
            doc.flatten(root, &mut flat);
            let hashed = doc.distinct(flat, Vec::new());
            assert_eq!(doc.entries(root), hashed, "{text}");
        }
    }
}
