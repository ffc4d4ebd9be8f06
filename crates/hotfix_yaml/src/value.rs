//! The value view: what PyYAML's constructor makes of the tree.
//!
//! `SafeConstructor.flatten_mapping` expands `<<` merge keys (the merged entries come first,
//! a list of mappings is merged last-to-first), and `construct_mapping` assigns entries into a
//! `dict` in order, so of repeated keys the last value wins while the key keeps the position of
//! its first occurrence. Keys compare as Python values: `True == 1 == 1.0`, every `.nan` is the
//! same object.

use std::collections::HashMap;

use crate::document::{Document, Entry, NodeId, NodeKind, Tag};
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
    Construction::run(doc, root)?;
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

/// PyYAML's `SafeConstructor` run over the tree, in its order, for what it refuses: a
/// collection's tag without a constructor (`!x {a: 1}`, `!!seq {}`), a `<<` or `=` (`!!merge`,
/// `!!value`) constructed as a value, a merge of a non-mapping, an unhashable key, an ordered map
/// or pairs item that is not a one-entry mapping.
///
/// The order matters, as it does in PyYAML: `construct_document` fills collections breadth
/// first (each `construct_yaml_map`/`_seq` generator yields its empty collection and is resumed
/// in a later round), and a mapping's `flatten_mapping` runs when its own generator is resumed.
/// That is when its keys tagged `!!value` are retagged `!!str` (so `? &x =\n: *x` loads as
/// `{"=": "="}`, while `a: [{&x = : 1}, *x]` constructs `*x` before its mapping is flattened
/// and fails). A collection that is only merged (`<<: !x {a: 1}`) is never constructed: its
/// entries are spliced into the mapping that merges it, and its tag is never looked at.
struct Construction<'d> {
    doc: &'d Document,
    /// Nodes (alias targets) constructed so far.
    constructed: Vec<bool>,
    /// Mappings flattened so far (`flatten_mapping` mutates the node: a second call is a no-op).
    flattened: Vec<bool>,
    /// Scalars tagged `!!value` that a flattened mapping has as a key: retagged `!!str`.
    retagged: Vec<bool>,
    /// Collections constructed whose generator has not run yet, in PyYAML's order.
    queue: std::collections::VecDeque<NodeId>,
}

impl<'d> Construction<'d> {
    fn run(doc: &'d Document, root: NodeId) -> Result<(), LoadError> {
        let len = doc.nodes.len();
        let mut run = Self {
            doc,
            constructed: vec![false; len],
            flattened: vec![false; len],
            retagged: vec![false; len],
            queue: std::collections::VecDeque::new(),
        };
        run.construct(root)?;
        while let Some(id) = run.queue.pop_front() {
            run.fill(id)?;
        }
        Ok(())
    }

    fn error(&self, message: String, at: NodeId) -> LoadError {
        LoadError::new(
            LoadErrorKind::Construct,
            message,
            Some(self.doc.node(at).span),
        )
    }

    /// `construct_object`: a scalar is made at once, a collection's constructor is looked up
    /// and its filling queued.
    fn construct(&mut self, id: NodeId) -> Result<(), LoadError> {
        let target = self.doc.resolve(id);
        if std::mem::replace(&mut self.constructed[target.index()], true) {
            return Ok(());
        }
        let node = self.doc.node(target);
        match &node.kind {
            NodeKind::Scalar(s) => match s.value {
                ScalarValue::Merge => Err(self.error(
                    "could not determine a constructor for the tag 'tag:yaml.org,2002:merge' (`<<` is only meaningful as a key)".to_owned(),
                    id,
                )),
                ScalarValue::ValueKey if !self.retagged[target.index()] => Err(self.error(
                    "could not determine a constructor for the tag 'tag:yaml.org,2002:value' (quote a lone `=`)".to_owned(),
                    id,
                )),
                _ => Ok(()),
            },
            NodeKind::Sequence { .. } | NodeKind::Mapping { .. } => {
                let sequence = matches!(node.kind, NodeKind::Sequence { .. });
                check_collection_tag(node.tag.as_deref(), sequence, node.span)?;
                self.queue.push_back(target);
                Ok(())
            }
            NodeKind::Alias { .. } => Ok(()),
        }
    }

    /// A collection's generator, resumed: its items, or its entries after `flatten_mapping`.
    fn fill(&mut self, id: NodeId) -> Result<(), LoadError> {
        let node = self.doc.node(id);
        match &node.kind {
            NodeKind::Sequence { items, .. } => {
                let pairs = node.tag.as_ref().is_some_and(|t| {
                    matches!(
                        t.name.as_str(),
                        "tag:yaml.org,2002:omap" | "tag:yaml.org,2002:pairs"
                    )
                });
                for &item in items {
                    if !pairs {
                        self.construct(item)?;
                        continue;
                    }
                    // `construct_yaml_omap`/`_pairs`: each item a mapping of one entry, whose
                    // key and value are constructed (the item itself never is).
                    match &self.doc.node(self.doc.resolve(item)).kind {
                        NodeKind::Mapping { entries, .. } if entries.len() == 1 => {
                            let entry = entries[0];
                            self.construct(entry.key)?;
                            self.construct(entry.value)?;
                        }
                        NodeKind::Mapping { .. } => {
                            return Err(self.error(
                                "expected a single mapping item in an ordered map or pairs"
                                    .to_owned(),
                                item,
                            ));
                        }
                        _ => {
                            return Err(self.error(
                                "expected a mapping of length 1 in an ordered map or pairs"
                                    .to_owned(),
                                item,
                            ));
                        }
                    }
                }
                Ok(())
            }
            NodeKind::Mapping { entries, .. } => {
                self.flatten(id)?;
                let merges = entries.iter().any(|e| self.doc.is_merge_key(e.key));
                let flat;
                let pairs: &[Entry] = if merges {
                    let mut all = Vec::new();
                    self.doc.flatten(id, &mut all);
                    flat = all;
                    &flat
                } else {
                    entries
                };
                for entry in pairs {
                    self.construct(entry.key)?;
                    if !matches!(
                        self.doc.node(self.doc.resolve(entry.key)).kind,
                        NodeKind::Scalar(_)
                    ) {
                        return Err(self.error(
                            "found unhashable key (a list or mapping used as a mapping key)"
                                .to_owned(),
                            entry.key,
                        ));
                    }
                    self.construct(entry.value)?;
                }
                Ok(())
            }
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => Ok(()),
        }
    }

    /// `flatten_mapping`'s checks and its retagging of `!!value` keys, on the mapping and on
    /// every mapping it merges.
    fn flatten(&mut self, id: NodeId) -> Result<(), LoadError> {
        let id = self.doc.resolve(id);
        if std::mem::replace(&mut self.flattened[id.index()], true) {
            return Ok(());
        }
        let Some(entries) = self.doc.raw_entries(id) else {
            return Ok(());
        };
        for entry in entries {
            let key = self.doc.resolve(entry.key);
            match self.doc.scalar(key).map(|s| &s.value) {
                Some(ScalarValue::ValueKey) => self.retagged[key.index()] = true,
                Some(ScalarValue::Merge) => {
                    let source = self.doc.resolve(entry.value);
                    match &self.doc.node(source).kind {
                        NodeKind::Mapping { .. } => self.flatten(source)?,
                        NodeKind::Sequence { items, .. } => {
                            for &item in items {
                                if !matches!(
                                    self.doc.node(self.doc.resolve(item)).kind,
                                    NodeKind::Mapping { .. }
                                ) {
                                    return Err(self.error(
                                        "expected a mapping for merging, but found something else"
                                            .to_owned(),
                                        item,
                                    ));
                                }
                                self.flatten(item)?;
                            }
                        }
                        _ => {
                            return Err(self.error(
                                "expected a mapping or list of mappings for merging (`<<`), but found a scalar".to_owned(),
                                entry.value,
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// Tags PyYAML's `SafeConstructor` accepts on a collection.
pub(crate) fn check_collection_tag(
    tag: Option<&Tag>,
    sequence: bool,
    span: crate::Span,
) -> Result<(), LoadError> {
    let Some(tag) = tag.map(|t| t.name.as_str()) else {
        return Ok(());
    };
    let ok = match (tag.strip_prefix("tag:yaml.org,2002:"), sequence) {
        _ if tag == "!" => true,
        (Some("seq" | "omap" | "pairs"), true) | (Some("map" | "set"), false) => true,
        (Some("seq" | "omap" | "pairs"), false) => {
            return Err(LoadError::new(
                LoadErrorKind::Construct,
                format!("expected a sequence for the tag '{tag}', but found a mapping"),
                Some(span),
            ));
        }
        (Some("map" | "set"), true) => {
            return Err(LoadError::new(
                LoadErrorKind::Construct,
                format!("expected a mapping for the tag '{tag}', but found a sequence"),
                Some(span),
            ));
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(LoadError::new(
            LoadErrorKind::Construct,
            format!("could not determine a constructor for the tag '{tag}'"),
            Some(span),
        ))
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
