//! The node tree: every node, key and comment with its byte span.

use std::fmt;
use std::ops::Range;

use crate::error::{LoadError, LoadErrorKind};
use crate::lines::LineIndex;
use crate::scalar::ScalarValue;

/// A byte range `start..end` of the source text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }

    pub const fn len(self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub const fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// The smallest span that covers both.
    #[must_use]
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl From<Span> for Range<usize> {
    fn from(span: Span) -> Self {
        span.range()
    }
}

/// Index of a node in [`Document::nodes`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Which loader read the text: Heat tries JSON first, then YAML.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    Json,
    Yaml,
}

/// Block (indented) or flow (`[...]`, `{...}`) notation of a collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Block,
    Flow,
}

/// How a scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// An explicit tag (`!!str`, `!custom`), resolved to its full name
/// (`tag:yaml.org,2002:str`, `!custom`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    /// The tag token in the source, when the parser reports it.
    pub span: Option<Span>,
}

/// A scalar's decoded text: stored inline when short (most are), so that loading a template
/// does not allocate once per scalar. Derefs to `str`.
pub type Text = compact_str::CompactString;

/// A scalar: its decoded text, how it was written, and what PyYAML makes of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    pub text: Text,
    pub style: ScalarStyle,
    pub value: ScalarValue,
}

/// One `key: value` pair of a mapping, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: NodeId,
    pub value: NodeId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Scalar(Scalar),
    Sequence {
        items: Children<NodeId, 8>,
        style: Style,
    },
    /// Entries in document order, repeated keys included.
    Mapping {
        entries: Children<Entry, 4>,
        style: Style,
    },
    /// `*name`: the same node as `target` (PyYAML shares the object).
    Alias {
        target: NodeId,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The node's text: a scalar with its quotes, a flow collection with its brackets, a block
    /// collection from its first to its last character. Anchors and tags are not included.
    pub span: Span,
    pub kind: NodeKind,
    /// The `&name` token that defines an anchor on this node.
    pub anchor: Option<Span>,
    /// An explicit tag (boxed: rare, and nodes are many).
    pub tag: Option<Box<Tag>>,
}

/// A `# comment`; the span covers the `#` and the text, not the line break.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub span: Span,
    pub text: String,
}

/// A loaded template: the node tree, its comments, and the source it spans.
#[derive(Clone, Debug)]
pub struct Document {
    pub(crate) source: String,
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: Option<NodeId>,
    pub(crate) comments: Vec<Comment>,
    pub(crate) format: SourceFormat,
    /// Built on first use: loading never needs it, diagnostics do.
    pub(crate) lines: std::sync::OnceLock<LineIndex>,
    /// The entries PyYAML's constructor leaves in each mapping that has a merge key (merged
    /// entries first, merge keys gone), as [`crate::value`]'s construction computed them.
    pub(crate) flat: foldhash::HashMap<NodeId, Vec<Entry>>,
    /// Each alias to a node that contains it, written as a merge's value (`&x [<<: *x]`): the
    /// empty mapping standing in for it in the tree (which keeps no cycle), and its target.
    pub(crate) merge_aliases: Vec<(NodeId, NodeId)>,
    /// Scalars PyYAML refuses to construct (`!!int x`, `!!binary` that is not base64): refused
    /// when construction reaches them.
    pub(crate) refused: Vec<(NodeId, LoadError)>,
    /// Scalars holding lone surrogate escapes, by id: in their text each lone surrogate is the
    /// character [`crate::surrogate_char`] gives it.
    pub(crate) surrogates: Vec<NodeId>,
    /// Timestamps PyYAML's pure-Python loader made dates of (Heat's second try), by id, with
    /// the Python type's name: their text is the one the command line sends
    /// ([`crate::timestamp`]), and as a mapping's key they end the request.
    pub(crate) dates: Vec<(NodeId, &'static str)>,
    /// Set by [`crate::value`]'s check when PyYAML constructs the tree as it is written: no
    /// tag, no `<<` or `=` scalar, so no mapping has a merge key (a lookup need not look for
    /// one).
    pub(crate) as_written: bool,
    /// One bit per node, set for a mapping whose written entries are its `dict`'s (no merge,
    /// no two keys one key of a `dict`), found once by the check of a document constructed as
    /// written; empty otherwise (then [`Document::entries`] works it out at each call).
    pub(crate) plain_maps: Vec<u64>,
}

thread_local! {
    /// The node list of a document dropped on this thread (emptied), for the next one built
    /// here: the list is a file's largest allocation (tens of bytes a node, two nodes a line),
    /// and a list allocated and freed for each file leaves the C allocator holding freed
    /// blocks of every size it met (a lint of ten copies of the corpus: 5 MB more resident).
    static SPARE_NODES: std::cell::Cell<Vec<Node>> = const { std::cell::Cell::new(Vec::new()) };
}

/// How much larger than asked a spare node list may be: a document kept for the whole run
/// (a nested template the tree's checks hold) keeps the capacity it was given.
const SPARE_SLACK: usize = 4;

/// The largest node list kept as a spare (in nodes, 4 MB of them: a file of about 600 KB): a
/// huge file's list is given back, and a long-running server holds little.
const SPARE_MAX: usize = (4 << 20) / std::mem::size_of::<Node>();

impl Drop for Document {
    fn drop(&mut self) {
        let mut nodes = std::mem::take(&mut self.nodes);
        if nodes.capacity() == 0 || nodes.capacity() > SPARE_MAX {
            return;
        }
        nodes.clear();
        // The larger of the two is kept: it serves the largest files, which churn the most.
        // (`try_with`: a document dropped while its thread ends has no spare to fill.)
        let _ = SPARE_NODES.try_with(|spare| {
            let kept = spare.take();
            spare.set(if kept.capacity() >= nodes.capacity() {
                kept
            } else {
                nodes
            });
        });
    }
}

impl Document {
    pub(crate) fn new(source: &str, format: SourceFormat) -> Self {
        Self {
            source: source.to_owned(),
            nodes: Vec::new(),
            root: None,
            comments: Vec::new(),
            format,
            lines: std::sync::OnceLock::new(),
            flat: foldhash::HashMap::default(),
            merge_aliases: Vec::new(),
            as_written: false,
            plain_maps: Vec::new(),
            refused: Vec::new(),
            surrogates: Vec::new(),
            dates: Vec::new(),
        }
    }

    /// An empty node list with room for `wanted` nodes: the spare list of this thread when it
    /// is large enough and not much larger ([`SPARE_NODES`]), else a new one.
    pub(crate) fn node_list(wanted: usize) -> Vec<Node> {
        SPARE_NODES.with(|spare| {
            let list = spare.take();
            if (wanted..=wanted.saturating_mul(SPARE_SLACK)).contains(&list.capacity()) {
                list
            } else {
                spare.set(list);
                Vec::with_capacity(wanted)
            }
        })
    }

    pub(crate) fn push(&mut self, node: Node) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        self.nodes.push(node);
        id
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn format(&self) -> SourceFormat {
        self.format
    }

    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.source))
    }

    /// The top-level node (always a mapping once [`crate::parse`] has succeeded).
    ///
    /// # Panics
    /// Never for a document returned by [`crate::parse`]; the root is checked there.
    pub fn root(&self) -> NodeId {
        self.root.unwrap_or(NodeId(0))
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Every node with its id, in the order of [`Document::nodes`].
    pub fn ids(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, node)| (NodeId(u32::try_from(i).unwrap_or(u32::MAX)), node))
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn comments(&self) -> &[Comment] {
        &self.comments
    }

    /// The text a node spans.
    pub fn text(&self, id: NodeId) -> &str {
        &self.source[self.node(id).span.range()]
    }

    /// Follows aliases to the node they stand for.
    pub fn resolve(&self, mut id: NodeId) -> NodeId {
        // Alias chains cannot loop: an alias always points at an earlier, different node.
        while let NodeKind::Alias { target } = self.node(id).kind {
            id = target;
        }
        id
    }

    /// The scalar behind `id` (through aliases), if it is one.
    pub fn scalar(&self, id: NodeId) -> Option<&Scalar> {
        match &self.node(self.resolve(id)).kind {
            NodeKind::Scalar(scalar) => Some(scalar),
            _ => None,
        }
    }

    /// Whether the scalar behind `id` holds lone surrogates (`"\ud83d"`, which PyYAML's pure
    /// loader keeps in a Python string): its text then has [`crate::surrogate_char`]'s
    /// stand-ins, which [`crate::surrogate_of`] turns back.
    pub fn holds_lone_surrogates(&self, id: NodeId) -> bool {
        !self.surrogates.is_empty() && self.surrogates.binary_search(&self.resolve(id)).is_ok()
    }

    /// The string value of a scalar that PyYAML loads as `str`.
    pub fn str_value(&self, id: NodeId) -> Option<&str> {
        self.scalar(id)
            .filter(|s| matches!(s.value, ScalarValue::Str))
            .map(|s| s.text.as_str())
    }

    /// The items of the sequence behind `id`, if it is one.
    pub fn items(&self, id: NodeId) -> Option<&[NodeId]> {
        match &self.node(self.resolve(id)).kind {
            NodeKind::Sequence { items, .. } => Some(items),
            _ => None,
        }
    }

    /// The entries of the mapping behind `id` as written (repeated keys and `<<` included).
    pub fn raw_entries(&self, id: NodeId) -> Option<&[Entry]> {
        match &self.node(self.resolve(id)).kind {
            NodeKind::Mapping { entries, .. } => Some(entries),
            _ => None,
        }
    }

    pub(crate) fn check_top_level(&self) -> Result<(), LoadError> {
        let Some(root) = self.root else {
            return Err(LoadError::new(
                LoadErrorKind::Empty,
                "the document is empty: Template format version not found.".to_owned(),
                None,
            ));
        };
        let root = self.resolve(root);
        match &self.node(root).kind {
            // A `!!set` is a Python set, not a dict.
            NodeKind::Mapping { .. } if !self.has_tag(root, "set") => Ok(()),
            // YAML `~` or `null` loads as None, which Heat turns into `{}`.
            NodeKind::Scalar(s)
                if self.format == SourceFormat::Yaml && matches!(s.value, ScalarValue::Null) =>
            {
                Err(LoadError::new(
                    LoadErrorKind::Empty,
                    "the document is null: Template format version not found.".to_owned(),
                    Some(self.node(root).span),
                ))
            }
            _ => Err(LoadError::new(
                LoadErrorKind::NotMapping,
                "The template is not a JSON object or YAML mapping.".to_owned(),
                Some(self.node(root).span),
            )),
        }
    }
}

/// The children of a collection: up to `N` held in place, more in a list of their own. Most
/// mappings of a template have one to four entries (`{get_param: x}`, a resource's `type` and
/// `properties`) and most sequences a few items, and a list for each would be most of the
/// allocations of a load; in place they cost nothing more, a scalar being larger. Read as a
/// slice.
#[derive(Clone)]
pub struct Children<T: Child, const N: usize>(Held<T, N>);

#[derive(Clone)]
enum Held<T: Child, const N: usize> {
    InPlace { len: u8, items: [T; N] },
    Listed(Vec<T>),
}

impl<T: Child, const N: usize> Children<T, N> {
    /// None.
    pub fn new() -> Self {
        Children(Held::InPlace {
            len: 0,
            items: [T::NONE; N],
        })
    }

    /// A copy of `items`.
    pub fn from_slice(items: &[T]) -> Self {
        if items.len() <= N {
            let mut held = [T::NONE; N];
            held[..items.len()].copy_from_slice(items);
            // At most N, which is far below 256.
            let len = u8::try_from(items.len()).unwrap_or(u8::MAX);
            Children(Held::InPlace { len, items: held })
        } else {
            Children(Held::Listed(items.to_vec()))
        }
    }

    /// Them as a slice.
    pub fn as_slice(&self) -> &[T] {
        self
    }

    /// Adds `item` at the end.
    pub fn push(&mut self, item: T) {
        match &mut self.0 {
            Held::InPlace { len, items } if usize::from(*len) < N => {
                items[usize::from(*len)] = item;
                *len += 1;
            }
            Held::InPlace { len, items } => {
                let mut listed = Vec::with_capacity(N * 2);
                listed.extend_from_slice(&items[..usize::from(*len)]);
                listed.push(item);
                self.0 = Held::Listed(listed);
            }
            Held::Listed(listed) => listed.push(item),
        }
    }
}

impl<T: Child, const N: usize> Default for Children<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Child, const N: usize> std::ops::Deref for Children<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.0 {
            Held::InPlace { len, items } => &items[..usize::from(*len)],
            Held::Listed(listed) => listed,
        }
    }
}

impl<T: Child, const N: usize> std::ops::DerefMut for Children<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.0 {
            Held::InPlace { len, items } => &mut items[..usize::from(*len)],
            Held::Listed(listed) => listed,
        }
    }
}

impl<T: Child, const N: usize> From<Vec<T>> for Children<T, N> {
    fn from(items: Vec<T>) -> Self {
        if items.len() <= N {
            Self::from_slice(&items)
        } else {
            Children(Held::Listed(items))
        }
    }
}

impl<T: Child, const N: usize> FromIterator<T> for Children<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut children = Self::new();
        for item in iter {
            children.push(item);
        }
        children
    }
}

impl<'c, T: Child, const N: usize> IntoIterator for &'c Children<T, N> {
    type Item = &'c T;
    type IntoIter = std::slice::Iter<'c, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Child + PartialEq, const N: usize> PartialEq for Children<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Child + Eq, const N: usize> Eq for Children<T, N> {}

impl<T: Child + std::fmt::Debug, const N: usize> std::fmt::Debug for Children<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// What [`Children`] holds: a node of a sequence, an entry of a mapping.
pub trait Child: Copy + sealed::Sealed {
    /// What fills the places not taken.
    #[doc(hidden)]
    const NONE: Self;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::NodeId {}
    impl Sealed for super::Entry {}
}

impl Child for NodeId {
    const NONE: Self = NodeId(u32::MAX);
}

impl Child for Entry {
    const NONE: Self = Entry {
        key: NodeId::NONE,
        value: NodeId::NONE,
    };
}

#[cfg(test)]
mod children_tests {
    use super::*;

    #[test]
    fn children_read_as_the_list_they_were_made_from_in_place_or_not() {
        let ids: Vec<NodeId> = (0..20).map(NodeId).collect();
        for n in 0..ids.len() {
            let made = &ids[..n];
            let copied: Children<NodeId, 8> = Children::from_slice(made);
            let moved: Children<NodeId, 8> = made.to_vec().into();
            let collected: Children<NodeId, 8> = made.iter().copied().collect();
            let mut pushed: Children<NodeId, 8> = Children::new();
            for &id in made {
                pushed.push(id);
            }
            for children in [&copied, &moved, &collected, &pushed] {
                assert_eq!(children.as_slice(), made);
                assert_eq!(children.len(), n);
                assert_eq!(format!("{children:?}"), format!("{made:?}"));
            }
            assert_eq!(copied, pushed);
            let mut changed = copied.clone();
            if let Some(first) = changed.first_mut() {
                *first = NodeId(99);
                assert_ne!(changed, copied);
            }
        }
    }
}
