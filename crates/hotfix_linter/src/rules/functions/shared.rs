//! Helpers of the `functions` family: the calls and data mappings to check once each, and
//! the arguments of a call as Python sees them ([`crate::rules::py`]).

use foldhash::{HashSet, HashSetExt as _};
use hotfix_hot::{Call, CallStatus, DataMap, Named, Owner, Semantic, Version};

use crate::rule::Context;
use hotfix_yaml::{Document, NodeId};

pub(super) use crate::rules::py::{Arg, PyInt, str_repr};

/// How many characters of a value Heat's messages about function arguments show.
const SHOWN: usize = 200;

/// A template's nodes as Python sees them, in the version whose functions Heat calls.
#[derive(Debug)]
pub(super) struct View<'a> {
    py: crate::rules::py::View<'a>,
    pub(super) version: Version,
    semantic: &'a Semantic,
    /// The template's resources, which a `Ref` may name.
    resources: &'a [Named],
}

impl<'a> View<'a> {
    pub(super) fn new(
        doc: &'a Document,
        version: Version,
        semantic: &'a Semantic,
        resources: &'a [Named],
    ) -> View<'a> {
        View {
            py: crate::rules::py::View::new(doc, semantic),
            version,
            semantic,
            resources,
        }
    }

    /// Whether a `Ref` call's argument is the literal name of a resource of the template.
    pub(super) fn names_resource(&self, call: NodeId) -> bool {
        let Some(call) = self.semantic.call_at(self.doc.resolve(call)) else {
            return false;
        };
        self.str(call.args)
            .is_some_and(|name| self.resources.iter().any(|r| r.name == name))
    }

    /// Python's `repr()` of a literal node, cut to 200 characters as Heat cuts it; `None` when
    /// a call inside makes the value unknown.
    pub(super) fn repr(&self, id: NodeId) -> Option<String> {
        self.py.literal_repr(id, SHOWN)
    }
}

impl<'a> std::ops::Deref for View<'a> {
    type Target = crate::rules::py::View<'a>;

    fn deref(&self) -> &Self::Target {
        &self.py
    }
}

/// Python's `str()` of a literal node (what `%s` prints), for the texts that format with `%s`.
pub(super) fn py_str(view: &View<'_>, id: NodeId) -> Option<String> {
    view.literal_str(id, SHOWN)
}

/// Each call once: an alias makes Heat (and the model) see the same mapping twice.
pub(super) fn unique_calls(
    semantic: &Semantic,
    keep: impl Fn(&Call) -> bool,
) -> impl Iterator<Item = &Call> {
    let mut seen = HashSet::new();
    semantic
        .calls
        .iter()
        .filter(move |c| keep(c) && seen.insert((c.map, c.context)))
}

/// Each data mapping once, except the whole definition of a condition (a mapping there that
/// is not a call is `invalid-condition-definition`'s): found once per template for the rules
/// that look at data mappings.
pub(super) fn unique_data_maps<'s>(cx: &'s Context<'_>) -> impl Iterator<Item = &'s DataMap> {
    /// The indices of the unique data mappings in [`Semantic::data_maps`].
    #[derive(Clone)]
    struct Unique(std::rc::Rc<Vec<usize>>);
    let Unique(unique) = cx.memo(cx.doc.root(), || {
        let template = cx.template;
        let mut seen = HashSet::new();
        let roots: HashSet<NodeId> = template
            .conditions
            .iter()
            .map(|c| template.doc.resolve(c.value))
            .collect();
        Unique(std::rc::Rc::new(
            cx.semantic
                .data_maps
                .iter()
                .enumerate()
                .filter(|(_, d)| {
                    let root = matches!(d.owner, Owner::Condition(_)) && roots.contains(&d.map);
                    !root && seen.insert((d.map, d.context))
                })
                .map(|(i, _)| i)
                .collect(),
        ))
    });
    (0..unique.len()).map(move |n| &cx.semantic.data_maps[unique[n]])
}

/// Whether a call has this status.
pub(super) fn is_active(call: &Call) -> bool {
    matches!(call.status, CallStatus::Active(_))
}

/// A version for messages: `2016-10-14 (newton)`.
pub(super) fn version_label(version: Version) -> String {
    format!("{version} ({})", version.release())
}
