//! The value view: what PyYAML's constructor makes of the tree.
//!
//! `SafeConstructor.flatten_mapping` expands `<<` merge keys (the merged entries come first,
//! a list of mappings is merged last-to-first), and `construct_mapping` assigns entries into a
//! `dict` in order, so of repeated keys the last value wins while the key keeps the position of
//! its first occurrence. Keys compare as Python values: `True == 1 == 1.0`, every `.nan` is the
//! same object.

use foldhash::{HashMap, HashMapExt as _};

use crate::document::{Document, Entry, NodeId, NodeKind, Tag};
use crate::error::{LoadError, LoadErrorKind};
use crate::scalar::{Int, ScalarValue};

/// Expanded nodes allowed beyond ten per written node, before aliases count as a bomb.
const EXPANSION_ALLOWANCE: u64 = 1_000_000;

/// Up to how many entries a mapping's keys are compared pairwise instead of hashed.
const SMALL_MAPPING: usize = 24;

/// The entries of a mapping as [`Document::entries`] gives them: the written entries lent
/// (most mappings), or the merged and distinct ones made for the call. A slice to read, and
/// entries by value to iterate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entries<'d>(std::borrow::Cow<'d, [Entry]>);

impl Default for Entries<'_> {
    fn default() -> Self {
        Entries(std::borrow::Cow::Borrowed(&[]))
    }
}

impl Entries<'_> {
    pub fn as_slice(&self) -> &[Entry] {
        &self.0
    }
}

impl std::ops::Deref for Entries<'_> {
    type Target = [Entry];

    fn deref(&self) -> &[Entry] {
        &self.0
    }
}

impl<'d> IntoIterator for Entries<'d> {
    type Item = Entry;
    type IntoIter = EntriesIter<'d>;

    fn into_iter(self) -> EntriesIter<'d> {
        match self.0 {
            std::borrow::Cow::Borrowed(lent) => EntriesIter::Lent(lent.iter()),
            std::borrow::Cow::Owned(made) => EntriesIter::Made(made.into_iter()),
        }
    }
}

impl<'a> IntoIterator for &'a Entries<'_> {
    type Item = &'a Entry;
    type IntoIter = std::slice::Iter<'a, Entry>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl From<Entries<'_>> for Vec<Entry> {
    fn from(entries: Entries<'_>) -> Vec<Entry> {
        entries.0.into_owned()
    }
}

/// The entries of an [`Entries`], by value.
#[derive(Clone, Debug)]
pub enum EntriesIter<'d> {
    Lent(std::slice::Iter<'d, Entry>),
    Made(std::vec::IntoIter<Entry>),
}

impl Iterator for EntriesIter<'_> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        match self {
            EntriesIter::Lent(lent) => lent.next().copied(),
            EntriesIter::Made(made) => made.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            EntriesIter::Lent(lent) => lent.size_hint(),
            EntriesIter::Made(made) => made.size_hint(),
        }
    }
}

impl DoubleEndedIterator for EntriesIter<'_> {
    fn next_back(&mut self) -> Option<Entry> {
        match self {
            EntriesIter::Lent(lent) => lent.next_back().copied(),
            EntriesIter::Made(made) => made.next_back(),
        }
    }
}

impl ExactSizeIterator for EntriesIter<'_> {}

impl Document {
    /// The entries of the mapping behind `id` as PyYAML's `dict` holds them: merge keys
    /// expanded, one entry per distinct key (its first key node, its last value), in dict
    /// order. Empty when `id` is not a mapping.
    pub fn entries(&self, id: NodeId) -> Entries<'_> {
        // Most mappings have a few distinct string keys and no merge: their entries are the
        // written ones, found without building the merged list and comparing keys as `dict`,
        // and lent, not copied.
        if let Some(raw) = self.raw_entries(id)
            && (self.plain_map(self.resolve(id)) || self.distinct_text_keys(raw))
        {
            return Entries(std::borrow::Cow::Borrowed(raw));
        }
        let mut flat = Vec::new();
        self.flatten(id, &mut flat);
        if flat.len() < 2 {
            return Entries(std::borrow::Cow::Owned(flat));
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
            return Entries(std::borrow::Cow::Owned(out));
        }
        Entries(std::borrow::Cow::Owned(self.distinct(flat, out)))
    }

    /// Whether the check of the document found the mapping `id` (not an alias) plain: its
    /// written entries are its entries.
    fn plain_map(&self, id: NodeId) -> bool {
        let i = id.index();
        self.plain_maps
            .get(i / 64)
            .is_some_and(|word| word >> (i % 64) & 1 == 1)
    }

    /// Whether `raw` has at most [`SMALL_MAPPING`] entries whose keys are plain strings (not `<<`
    /// nor `=`) of distinct texts: then no two are one key of a `dict` and none merges, and the
    /// mapping's entries are `raw` itself. Two keys of the same text are left to [`Self::entries`]'s
    /// comparison (which tells a lone surrogate from its stand-in).
    fn distinct_text_keys(&self, raw: &[Entry]) -> bool {
        if raw.len() > SMALL_MAPPING {
            return false;
        }
        let mut texts: [&str; SMALL_MAPPING] = [""; SMALL_MAPPING];
        for (i, entry) in raw.iter().enumerate() {
            let Some(scalar) = self.scalar(entry.key) else {
                return false;
            };
            if scalar.value != ScalarValue::Str {
                return false;
            }
            let text = scalar.text.as_str();
            if texts[..i].contains(&text) {
                return false;
            }
            texts[i] = text;
        }
        true
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
        let has_merge = !self.as_written && entries.iter().any(|e| self.is_merge_key(e.key));
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

    /// A table answering [`Self::get`] for every string key of `mapping` at once (empty when
    /// `mapping` is no mapping): for a caller that looks up many keys of one large mapping, where
    /// calling `get` for each would scan the mapping once per key.
    pub fn str_key_values(&self, mapping: NodeId) -> std::collections::HashMap<&str, NodeId> {
        let mut table = std::collections::HashMap::new();
        let Some(entries) = self.raw_entries(mapping) else {
            return table;
        };
        let has_merge = !self.as_written && entries.iter().any(|e| self.is_merge_key(e.key));
        let mut record = |entry: &Entry, first_wins: bool| {
            if let Some(s) = self.scalar(entry.key)
                && matches!(s.value, ScalarValue::Str | ScalarValue::ValueKey)
            {
                if first_wins {
                    table.entry(s.text.as_str()).or_insert(entry.value);
                } else {
                    table.insert(s.text.as_str(), entry.value);
                }
            }
        };
        if has_merge {
            for entry in self.entries(mapping) {
                record(&entry, true);
            }
        } else {
            for entry in entries {
                record(entry, false);
            }
        }
        table
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
        // What PyYAML's constructor left in the node (every mapping of the loaded value).
        if let Some(flat) = self.flat.get(&self.resolve(id)) {
            out.extend_from_slice(flat);
            return;
        }
        let mut merged = Vec::new();
        let mut own = Vec::with_capacity(entries.len());
        for entry in entries {
            if !self.is_merge_key(entry.key) {
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

    /// Whether PyYAML takes the key as a merge (`key_node.tag == 'tag:yaml.org,2002:merge'`):
    /// `<<`, or any node tagged `!!merge`.
    pub(crate) fn is_merge_key(&self, key: NodeId) -> bool {
        self.has_tag(self.resolve(key), "merge")
    }

    /// Whether the node's tag is `tag:yaml.org,2002:NAME` for `merge` or `value`: a scalar
    /// resolved to it (`<<`, `=`), or a collection tagged so.
    #[inline]
    pub(crate) fn has_tag(&self, id: NodeId, name: &str) -> bool {
        let node = self.node(id);
        match &node.kind {
            NodeKind::Scalar(s) => match name {
                "merge" => s.value == ScalarValue::Merge,
                "value" => s.value == ScalarValue::ValueKey,
                _ => false,
            },
            NodeKind::Sequence { .. } | NodeKind::Mapping { .. } => {
                node.tag
                    .as_ref()
                    .and_then(|t| t.name.strip_prefix("tag:yaml.org,2002:"))
                    == Some(name)
            }
            NodeKind::Alias { .. } => false,
        }
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
            (Some(ta), Some(tb)) => {
                ta == tb && self.holds_lone_surrogates(a) == self.holds_lone_surrogates(b)
            }
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
            ScalarValue::Str | ScalarValue::ValueKey | ScalarValue::Merge
                if self.holds_lone_surrogates(key) =>
            {
                KeyRepr::StrWithSurrogates(scalar.text.clone())
            }
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
    /// A string holding lone surrogates: its text has [`crate::surrogate_char`]'s stand-ins,
    /// which a [`KeyRepr::Str`] with the same characters does not.
    StrWithSurrogates(crate::Text),
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
pub(crate) fn check(doc: &mut Document) -> Result<(), LoadError> {
    let Some(root) = doc.root else {
        return Ok(());
    };
    let written = doc.nodes.len() as u64;
    let limit = EXPANSION_ALLOWANCE + 10 * written;
    doc.as_written = constructs_as_written(doc);
    // Without aliases the expansion is the tree itself: its size is the node count, and its
    // depth is bounded by the parsers' nesting limits, which are below `MAX_DEPTH`.
    let aliases = doc
        .nodes
        .iter()
        .any(|n| matches!(n.kind, NodeKind::Alias { .. }));
    let mut expansion_checked = false;
    if doc.as_written {
        doc.plain_maps = plain_maps(doc);
    } else {
        // Construction copies each merged mapping's entries into the mapping that merges it: a
        // thousand mappings merging one of a thousand keys would take gigabytes before the
        // expansion below refused them. Measured first when construction cannot change what
        // it measures (no merge reaches a mapping containing it, no mapping is tagged as a
        // scalar): the same answer, before the memory is taken.
        let tagged_mapping = doc
            .nodes
            .iter()
            .any(|n| n.tag.is_some() && matches!(n.kind, NodeKind::Mapping { .. }));
        if aliases && doc.merge_aliases.is_empty() && !tagged_mapping {
            check_expansion(doc, root, limit)?;
            expansion_checked = true;
        }
        let constructed = Construction::run(doc, root)?;
        doc.flat = constructed.flat;
        for (id, scalar) in constructed.scalars {
            doc.nodes[id.index()].kind = NodeKind::Scalar(scalar);
        }
    }
    if !doc.merge_aliases.is_empty() {
        // A merge reached a mapping that contains it: the value may now be a graph with
        // cycles (which `json.dumps` refuses) or share what it merged many times.
        check_value_graph(doc, root, limit)?;
    }
    if aliases && !expansion_checked {
        check_expansion(doc, root, limit)?;
    }
    Ok(())
}

/// Refuses a tree whose aliases expand it to more than `limit` nodes (an alias bomb), or
/// deeper than [`crate::MAX_DEPTH`] levels.
fn check_expansion(doc: &Document, root: NodeId, limit: u64) -> Result<(), LoadError> {
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

/// The mappings of a document constructed as written whose written entries are their `dict`'s
/// (no two keys one key), one bit per node: asked once here, not at each [`Document::entries`].
fn plain_maps(doc: &Document) -> Vec<u64> {
    let mut bits = vec![0u64; doc.nodes.len().div_ceil(64)];
    for (i, node) in doc.nodes.iter().enumerate() {
        if let NodeKind::Mapping { entries, .. } = &node.kind {
            let id = NodeId(u32::try_from(i).unwrap_or(u32::MAX));
            if doc.entries(id).len() == entries.len() {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
    }
    bits
}

/// Whether PyYAML's constructor takes the tree as it is written, changing and refusing
/// nothing, which one look at each node tells (most templates): no explicit tag, no `<<` or
/// `=` scalar (no merge, no value key), no scalar the builder refused, and every mapping key a
/// scalar (through aliases). [`Construction`] is then skipped: it would flatten nothing, make
/// no scalar of a collection and raise nothing.
fn constructs_as_written(doc: &Document) -> bool {
    doc.refused.is_empty()
        && doc.merge_aliases.is_empty()
        && doc.nodes.iter().all(|node| {
            node.tag.is_none()
                && match &node.kind {
                    NodeKind::Scalar(s) => {
                        !matches!(s.value, ScalarValue::Merge | ScalarValue::ValueKey)
                    }
                    NodeKind::Mapping { entries, .. } => entries
                        .iter()
                        .all(|e| matches!(doc.node(doc.resolve(e.key)).kind, NodeKind::Scalar(_))),
                    NodeKind::Sequence { .. } | NodeKind::Alias { .. } => true,
                }
        })
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
/// or pairs item that is not a one-entry mapping; and for what it makes of merges and of a
/// mapping tagged as a scalar.
///
/// The order matters, as it does in PyYAML: `construct_document` fills collections breadth
/// first (each `construct_yaml_map`/`_seq` generator yields its empty collection and is resumed
/// in a later round), and a mapping's `flatten_mapping` runs when its own generator is resumed.
/// `flatten_mapping` changes the node it flattens: it deletes each merge entry before it
/// flattens what that entry merges, retags `!!value` keys `!!str`, and then replaces the node's
/// list of entries by the merged entries followed by its own. A merge that reaches the mapping
/// itself (`&x {<<: *x}`, `&x [<<: *x]`) therefore finds the merge entry gone: the lists here
/// follow PyYAML's, list for list. A collection that is only merged (`<<: !x {a: 1}`) is never
/// constructed: its entries are spliced into the mapping that merges it, and its tag is never
/// looked at.
struct Construction<'d> {
    doc: &'d Document,
    /// Nodes (alias targets) constructed so far.
    constructed: Vec<bool>,
    /// Scalars (or collections) tagged `!!value` that a flattened mapping has as a key: retagged
    /// `!!str`.
    retagged: Vec<bool>,
    /// Collections constructed whose generator has not run yet, in PyYAML's order.
    queue: std::collections::VecDeque<NodeId>,
    /// The entry lists of PyYAML's mapping nodes (`node.value`), made on first use.
    lists: Vec<Vec<Entry>>,
    /// A mapping's current list in `lists`, plus one (zero: still its written entries).
    list_of: Vec<u32>,
    /// Mappings tagged with a scalar's tag (`!!str {=: a}`): the scalar PyYAML constructs.
    scalars: Vec<(NodeId, crate::document::Scalar)>,
}

/// Nested merges PyYAML follows before its recursion limit (each level is several Python
/// frames; Python's limit is 1,000 frames).
const MAX_MERGE_DEPTH: usize = 200;

impl<'d> Construction<'d> {
    fn run(doc: &'d Document, root: NodeId) -> Result<Constructed, LoadError> {
        let len = doc.nodes.len();
        let mut run = Self {
            doc,
            constructed: vec![false; len],
            retagged: vec![false; len],
            queue: std::collections::VecDeque::new(),
            lists: Vec::new(),
            list_of: Vec::new(),
            scalars: Vec::new(),
        };
        run.construct(root)?;
        while let Some(id) = run.queue.pop_front() {
            run.fill(id)?;
        }
        let mut flat = HashMap::new();
        for (i, &list) in run.list_of.iter().enumerate() {
            if list > 0 {
                let id = NodeId(u32::try_from(i).unwrap_or(u32::MAX));
                flat.insert(id, std::mem::take(&mut run.lists[list as usize - 1]));
            }
        }
        Ok(Constructed {
            flat,
            scalars: run.scalars,
        })
    }

    fn error(&self, message: String, at: NodeId) -> LoadError {
        LoadError::new(
            LoadErrorKind::Construct,
            message,
            Some(self.doc.node(at).span),
        )
    }

    /// The node a merge's value stands for: through aliases, and through the stand-in of an
    /// alias to a node that contains it.
    fn merged(&self, id: NodeId) -> NodeId {
        let id = self.doc.resolve(id);
        self.doc
            .merge_aliases
            .iter()
            .find(|(stand_in, _)| *stand_in == id)
            .map_or(id, |&(_, target)| self.doc.resolve(target))
    }

    /// The mapping's current entries (`node.value`): its written entries until a merge changed
    /// them.
    fn entries_of(&self, id: NodeId) -> &[Entry] {
        match self.list_of.get(id.index()) {
            Some(&list) if list > 0 => &self.lists[list as usize - 1],
            _ => self.doc.raw_entries(id).unwrap_or_default(),
        }
    }

    /// The index in `lists` of the mapping's current entries (`node.value`), made from its
    /// written entries the first time a merge changes them.
    fn list(&mut self, id: NodeId) -> usize {
        if self.list_of.len() <= id.index() {
            self.list_of.resize(self.doc.nodes.len(), 0);
        }
        if self.list_of[id.index()] == 0 {
            let entries = self.doc.raw_entries(id).unwrap_or_default().to_vec();
            self.lists.push(entries);
            self.list_of[id.index()] = u32::try_from(self.lists.len()).unwrap_or(u32::MAX);
        }
        self.list_of[id.index()] as usize - 1
    }

    /// Whether `key_node.tag == 'tag:yaml.org,2002:merge'`.
    fn merge_key(&self, key: NodeId) -> bool {
        self.doc.is_merge_key(key)
    }

    /// Whether `key_node.tag == 'tag:yaml.org,2002:value'` (and not retagged since).
    fn value_key(&self, key: NodeId) -> bool {
        let key = self.doc.resolve(key);
        !self.retagged[key.index()] && self.doc.has_tag(key, "value")
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
            NodeKind::Scalar(_) if !self.doc.refused.is_empty() => {
                if let Some((_, err)) = self.doc.refused.iter().find(|(at, _)| *at == target) {
                    return Err(err.clone());
                }
                self.construct_written_scalar(id, target)
            }
            NodeKind::Scalar(_) => self.construct_written_scalar(id, target),
            NodeKind::Sequence { .. } | NodeKind::Mapping { .. } => {
                let sequence = matches!(node.kind, NodeKind::Sequence { .. });
                let tag = if self.retagged[target.index()] {
                    Some("tag:yaml.org,2002:str")
                } else {
                    node.tag.as_deref().map(|t| t.name.as_str())
                };
                if let Some(tag) = tag.filter(|t| scalar_tag(t)) {
                    return self.construct_scalar(target, tag);
                }
                check_collection_tag(node.tag.as_deref(), sequence, node.span)?;
                self.queue.push_back(target);
                Ok(())
            }
            NodeKind::Alias { .. } => Ok(()),
        }
    }

    /// A written scalar, constructed: `<<` and `=` have no constructor of their own.
    fn construct_written_scalar(&self, id: NodeId, target: NodeId) -> Result<(), LoadError> {
        let NodeKind::Scalar(s) = &self.doc.node(target).kind else {
            return Ok(());
        };
        match s.value {
            ScalarValue::Merge => Err(self.error(
                "could not determine a constructor for the tag 'tag:yaml.org,2002:merge' (`<<` is only meaningful as a key)".to_owned(),
                id,
            )),
            ScalarValue::ValueKey if !self.retagged[target.index()] => Err(self.error(
                "could not determine a constructor for the tag 'tag:yaml.org,2002:value' (quote a lone `=`)".to_owned(),
                id,
            )),
            _ => Ok(()),
        }
    }

    /// A collection tagged with a scalar's tag: `SafeConstructor.construct_scalar` takes the
    /// value of a mapping's first `!!value` key (recursively), and refuses anything else.
    fn construct_scalar(&mut self, id: NodeId, tag: &str) -> Result<(), LoadError> {
        let mut at = id;
        loop {
            let node = self.doc.node(at);
            match &node.kind {
                NodeKind::Scalar(s) => {
                    // An empty node's text in the tree is `~`; PyYAML's value is "".
                    let empty = s.style == crate::document::ScalarStyle::Plain
                        && node.span.is_empty()
                        && s.text == "~";
                    let text = if empty { "" } else { s.text.as_str() };
                    let value = crate::scalar::construct_tagged(tag, text)
                        .map_err(|message| self.error(message, at))?;
                    let scalar = crate::document::Scalar {
                        text: text.into(),
                        style: s.style,
                        value,
                    };
                    self.scalars.push((id, scalar));
                    return Ok(());
                }
                NodeKind::Mapping { .. } => {
                    let found = self
                        .entries_of(at)
                        .iter()
                        .find(|e| self.value_key(e.key))
                        .map(|e| e.value);
                    match found {
                        Some(value) => at = self.doc.resolve(value),
                        None => {
                            return Err(self.error(
                                "expected a scalar node, but found mapping".to_owned(),
                                at,
                            ));
                        }
                    }
                }
                NodeKind::Sequence { .. } => {
                    return Err(
                        self.error("expected a scalar node, but found sequence".to_owned(), at)
                    );
                }
                NodeKind::Alias { target } => at = *target,
            }
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
                    let item_id = self.doc.resolve(item);
                    if !matches!(self.doc.node(item_id).kind, NodeKind::Mapping { .. }) {
                        return Err(self.error(
                            "expected a mapping of length 1 in an ordered map or pairs".to_owned(),
                            item,
                        ));
                    }
                    let &[entry] = self.entries_of(item_id) else {
                        return Err(self.error(
                            "expected a single mapping item in an ordered map or pairs".to_owned(),
                            item,
                        ));
                    };
                    self.construct(entry.key)?;
                    self.construct(entry.value)?;
                }
                Ok(())
            }
            NodeKind::Mapping { .. } => {
                self.flatten(id, 0)?;
                // `construct_mapping` constructs keys and values only shallowly: nothing it does
                // changes this mapping's entries while it goes through them.
                let mut i = 0;
                while let Some(&entry) = self.entries_of(id).get(i) {
                    i += 1;
                    self.construct(entry.key)?;
                    let key = self.doc.resolve(entry.key);
                    let scalar = matches!(self.doc.node(key).kind, NodeKind::Scalar(_))
                        || self.scalars.iter().any(|(made, _)| *made == key);
                    if !scalar {
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

    /// `SafeConstructor.flatten_mapping`, step for step, on the lists of this run.
    fn flatten(&mut self, id: NodeId, depth: usize) -> Result<(), LoadError> {
        if depth > MAX_MERGE_DEPTH {
            return Err(LoadError::new(
                LoadErrorKind::TooDeep,
                format!("merges (`<<`) nest deeper than {MAX_MERGE_DEPTH} levels"),
                Some(self.doc.node(id).span),
            ));
        }
        let mut merge: Vec<Entry> = Vec::new();
        let mut index = 0;
        // `node.value` is looked up again each round: a merge that reached this mapping may
        // have replaced its list.
        while let Some(&entry) = self.entries_of(id).get(index) {
            if self.merge_key(entry.key) {
                let list = self.list(id);
                self.lists[list].remove(index);
                let source = self.merged(entry.value);
                match &self.doc.node(source).kind {
                    NodeKind::Mapping { .. } => {
                        self.flatten(source, depth + 1)?;
                        merge.extend_from_slice(self.entries_of(source));
                    }
                    NodeKind::Sequence { items, .. } => {
                        // `submerge` holds the lists themselves: what a later step deletes
                        // from one is gone from the merge too.
                        let mut submerge = Vec::with_capacity(items.len());
                        for &item in items {
                            let item = self.merged(item);
                            if !matches!(self.doc.node(item).kind, NodeKind::Mapping { .. }) {
                                return Err(self.error(
                                    "expected a mapping for merging, but found something else"
                                        .to_owned(),
                                    item,
                                ));
                            }
                            self.flatten(item, depth + 1)?;
                            submerge.push(self.list(item));
                        }
                        for from in submerge.into_iter().rev() {
                            merge.extend_from_slice(&self.lists[from]);
                        }
                    }
                    _ => {
                        return Err(self.error(
                            "expected a mapping or list of mappings for merging (`<<`), but found a scalar".to_owned(),
                            entry.value,
                        ));
                    }
                }
            } else {
                if self.value_key(entry.key) {
                    let key = self.doc.resolve(entry.key);
                    self.retagged[key.index()] = true;
                }
                index += 1;
            }
        }
        if !merge.is_empty() {
            merge.extend_from_slice(self.entries_of(id));
            self.lists.push(merge);
            if self.list_of.len() <= id.index() {
                self.list_of.resize(self.doc.nodes.len(), 0);
            }
            self.list_of[id.index()] = u32::try_from(self.lists.len()).unwrap_or(u32::MAX);
        }
        Ok(())
    }
}

/// What construction leaves on the tree: the entries of each mapping PyYAML flattened, and the
/// scalars that mappings tagged as scalars stand for.
struct Constructed {
    flat: HashMap<NodeId, Vec<Entry>>,
    scalars: Vec<(NodeId, crate::document::Scalar)>,
}

/// The tags whose constructor reads a scalar (`construct_scalar`).
fn scalar_tag(tag: &str) -> bool {
    matches!(
        tag.strip_prefix("tag:yaml.org,2002:"),
        Some("str" | "null" | "bool" | "int" | "float" | "binary" | "timestamp")
    )
}

/// The loaded value as a graph, after merges that reached a mapping containing them: refused
/// where it has a cycle (`json.dumps`: `Circular reference detected`), and where it expands to
/// more than `limit` nodes (an alias bomb made of merges).
fn check_value_graph(doc: &Document, root: NodeId, limit: u64) -> Result<(), LoadError> {
    // 0: not seen, 1: on the path, 2: done.
    let mut state = vec![0u8; doc.nodes.len()];
    let mut size = vec![0u64; doc.nodes.len()];
    let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = Vec::new();
    let children = |id: NodeId| -> Vec<NodeId> {
        match &doc.node(id).kind {
            // A `!!set` keeps its keys only.
            NodeKind::Mapping { .. } if doc.has_tag(id, "set") => doc
                .entries(id)
                .into_iter()
                .map(|e| doc.resolve(e.key))
                .collect(),
            NodeKind::Mapping { .. } => doc
                .entries(id)
                .into_iter()
                .flat_map(|e| [doc.resolve(e.key), doc.resolve(e.value)])
                .collect(),
            NodeKind::Sequence { items, .. } => items.iter().map(|&i| doc.resolve(i)).collect(),
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => Vec::new(),
        }
    };
    let root = doc.resolve(root);
    state[root.index()] = 1;
    stack.push((root, children(root), 0));
    while let Some((id, kids, next)) = stack.last_mut() {
        let id = *id;
        if let Some(&child) = kids.get(*next) {
            *next += 1;
            match state[child.index()] {
                0 => {
                    state[child.index()] = 1;
                    let grandchildren = children(child);
                    stack.push((child, grandchildren, 0));
                }
                1 => {
                    return Err(LoadError::new(
                        LoadErrorKind::Construct,
                        "Circular reference detected: a merge (`<<`) makes this mapping contain \
                         itself, which Heat cannot use"
                            .to_owned(),
                        Some(doc.node(child).span),
                    )
                    .not_yaml_error());
                }
                _ => {}
            }
            continue;
        }
        let total = kids
            .iter()
            .fold(1u64, |s, c| s.saturating_add(size[c.index()]));
        size[id.index()] = total;
        state[id.index()] = 2;
        stack.pop();
    }
    if size[root.index()] > limit {
        return Err(LoadError::new(
            LoadErrorKind::AliasBomb,
            format!(
                "aliases expand this document to more than {limit} nodes (an \"alias bomb\"); refusing to expand it"
            ),
            first_alias_span(doc),
        ));
    }
    Ok(())
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
            // Before the encoding, which refuses the `!!binary` key.
            let doc = crate::build::load_unsent(&text).expect(&text);
            let root = doc.root();
            let mut flat = Vec::new();
            doc.flatten(root, &mut flat);
            let hashed = doc.distinct(flat, Vec::new());
            assert_eq!(doc.entries(root).as_slice(), hashed, "{text}");
        }
    }

    #[test]
    fn the_table_of_string_keys_answers_as_get_does() {
        let mut text = String::from("base: &b {a: 1, z: 2}\nplain:\n");
        for i in 0..300 {
            let _ = writeln!(text, "  k{}: {i}", i % 100);
        }
        text.push_str("  1: one\n  '2': two\nmerged: {<<: *b, a: 3, k: 4, k: 5}\n");
        let doc = crate::parse_unlimited(&text).expect("parses");
        let root = doc.root();
        for section in ["plain", "merged"] {
            let mapping = doc.get(root, section).expect("the section");
            let table = doc.str_key_values(mapping);
            let mut keys: Vec<String> = (0..100).map(|i| format!("k{i}")).collect();
            keys.extend(["1", "2", "a", "z", "k", "<<", "missing"].map(str::to_owned));
            for key in &keys {
                assert_eq!(
                    table.get(key.as_str()).copied(),
                    doc.get(mapping, key),
                    "{key}"
                );
            }
        }
    }

    #[test]
    fn many_mappings_merging_one_large_mapping_are_an_alias_bomb() {
        // 1,100 mappings each merging one of 1,000 keys: 2.2 million nodes once expanded.
        let mut text = String::from("base: &b\n");
        for i in 0..1000 {
            let _ = writeln!(text, "  k{i}: {i}");
        }
        text.push_str("all:\n");
        for _ in 0..1100 {
            text.push_str("- {<<: *b}\n");
        }
        let err = crate::parse_unlimited(&text).expect_err("an alias bomb");
        assert_eq!(err.kind, LoadErrorKind::AliasBomb, "{}", err.message);
        // A few of them merge as PyYAML merges.
        let few: String = text.lines().take(1010).collect::<Vec<_>>().join("\n");
        let doc = crate::parse_unlimited(&few).expect("a few merges load");
        let all = doc.get(doc.root(), "all").expect("all");
        let first = doc.items(all).expect("a list")[0];
        assert_eq!(doc.entries(first).len(), 1000);
    }
}
