//! Whatever the input, loading it never panics, and a loaded document's spans are sound.
//!
//! Three generators: arbitrary bytes (binary, invalid UTF-8, text); strings over an alphabet
//! of YAML indicators, which reach deeper into the scanner but seldom load; and template-like
//! trees rendered as block or flow YAML (anchors, aliases, merge keys, tags, block scalars,
//! escapes), a third of which load, now and then damaged by one character. Every document
//! that loads is printed as Python's JSON, every mapping is flattened with
//! [`Document::entries`], every span is checked to lie within the source on character
//! boundaries and converted to a line and column. `PROPTEST_CASES` raises the case count for
//! a longer run.

use std::collections::BTreeSet;
use std::fmt::Write;

use hotfix_yaml::{Document, NodeId, NodeKind, Span};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Every node id a document refers to: the root and every child, key, value and alias target.
fn node_ids(doc: &Document) -> BTreeSet<NodeId> {
    let mut ids = BTreeSet::from([doc.root()]);
    for node in doc.nodes() {
        match &node.kind {
            NodeKind::Scalar(_) => {}
            NodeKind::Sequence { items, .. } => ids.extend(items),
            NodeKind::Mapping { entries, .. } => {
                ids.extend(entries.iter().flat_map(|e| [e.key, e.value]));
            }
            NodeKind::Alias { target } => {
                ids.insert(*target);
            }
        }
    }
    ids
}

fn assert_span(source: &str, span: Span, what: &str) {
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

/// hotfix's own reader (`hotfix_yaml::reader`, not yet under `parse`) over the text, with
/// libyaml's rules and with PyYAML's pure-Python ones: every event's and refusal's marks within
/// the source, on character boundaries, in order.
fn read(source: &str) {
    read_with(source, hotfix_yaml::reader::Parser::new(source));
    read_with(source, hotfix_yaml::reader::Parser::pure(source));
}

fn read_with<'a>(source: &'a str, mut parser: hotfix_yaml::reader::Parser<'a>) {
    let on_boundary = |at: usize, what: &str| {
        assert!(
            at <= source.len() && source.is_char_boundary(at),
            "{what} at {at} is outside the source or inside a character"
        );
    };
    for event in parser.by_ref() {
        match event {
            Ok(event) => {
                on_boundary(event.start.offset, "an event's start");
                on_boundary(event.end.offset, "an event's end");
                assert!(
                    event.start.offset <= event.end.offset,
                    "an event ends before it starts"
                );
            }
            Err(err) => {
                on_boundary(err.problem_mark.offset, "a refusal");
                break;
            }
        }
    }
    for &(start, end) in parser.comments() {
        on_boundary(start, "a comment's start");
        on_boundary(end, "a comment's end");
        assert!(source[start..end].starts_with('#'), "a comment without '#'");
    }
}

/// Everything a linter does with a loaded document, with the span checks.
fn exercise(doc: &Document) {
    let source = doc.source();
    let _ = doc.to_python_json();
    for id in node_ids(doc) {
        assert!(
            id.index() < doc.nodes().len(),
            "node {id:?} out of range ({} nodes)",
            doc.nodes().len()
        );
        let node = doc.node(id);
        assert_span(source, node.span, "node");
        let _ = doc.text(id);
        if let Some(anchor) = node.anchor {
            assert_span(source, anchor, "anchor");
        }
        if let Some(span) = node.tag.as_ref().and_then(|tag| tag.span) {
            assert_span(source, span, "tag");
        }
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
        assert_span(source, comment.span, "comment");
    }
}

fn regex(pattern: &str) -> BoxedStrategy<String> {
    prop::string::string_regex(pattern)
        .expect("a valid regex")
        .boxed()
}

/// A template-like tree, rendered as block or flow YAML by [`Writer`].
#[derive(Clone, Debug)]
enum Tree {
    /// A scalar as written (plain, quoted, tagged, a number, a timestamp), and whether it
    /// carries an anchor.
    Scalar(String, bool),
    /// A `|` or `>` block scalar: its header and its lines.
    Block(String, Vec<String>),
    /// `*name`: one of the anchors written so far, or an unknown one when there is none.
    Alias(prop::sample::Index),
    /// Entries, flow style, anchor.
    Map(Vec<(String, Tree)>, bool, bool),
    /// Items, flow style, anchor.
    Seq(Vec<Tree>, bool, bool),
}

/// A single-quoted scalar, quotes doubled inside.
fn single_quoted() -> BoxedStrategy<String> {
    regex("'([a-z :#,é]|''){0,6}'")
}

/// A double-quoted scalar with escapes, now and then one that PyYAML refuses.
fn double_quoted() -> BoxedStrategy<String> {
    prop_oneof![
        9 => regex("\"([a-z :#,é]|\\\\[n\\\\\"0t ]|\\\\x[0-9a-f]{2}|\\\\u00e9|\\\\U0001d11e){0,6}\""),
        1 => regex("\"([a-z\\\\]|\\\\ud834){0,4}\""),
    ]
    .boxed()
}

/// A mapping key: plain, quoted, numeric, boolean, null, merge.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => regex("[a-z_]{1,3}"),
        1 => Just("<<".to_owned()),
        1 => single_quoted(),
        1 => double_quoted(),
        1 => regex("[0-9]{1,2}|~|null|yes|on|1\\.5|\\.nan|2016-10-14"),
    ]
}

/// A scalar as written, mostly ones that also fit in a flow collection.
fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => regex("[a-z][a-z0-9 ._/-]{0,8}"),
        2 => single_quoted(),
        3 => double_quoted(),
        4 => regex("0x1f|0o17|017|0b101|1_000|1:30|1e3|6\\.8e-3|-\\.inf|\\.NaN|2016-10-14|2016-10-14 12:00:00|2001-12-14t21:59:43\\.10-05:00|yes|No|off|null|~|=|<<|''|\"\""),
        2 => regex("!!(str [a-z0-9]{0,3}|int 1[0-9]{0,3}|float 1\\.5|bool yes|null ~|binary aGk=|timestamp 2001-12-14)"),
        1 => regex("!!(int|float|bool|binary|timestamp|set|omap|pairs|python/tuple) [a-zA-Z0-9=+/]{0,5}|![a-z]{1,3} [a-z]{0,3}"),
        1 => regex("[a-z]{1,4} # [a-z]{0,4}"),
    ]
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        20 => (scalar(), prop::bool::weighted(0.05)).prop_map(|(text, anchor)| Tree::Scalar(text, anchor)),
        2 => (regex("[|>][-+]?|[|>][1-3]"), proptest::collection::vec(regex("[a-z #]{0,8}"), 0..3))
            .prop_map(|(header, lines)| Tree::Block(header, lines)),
        1 => any::<prop::sample::Index>().prop_map(Tree::Alias),
    ];
    leaf.prop_recursive(5, 48, 5, move |inner| {
        prop_oneof![
            3 => (
                proptest::collection::vec((key(), inner.clone()), 0..5),
                prop::bool::weighted(0.25),
                prop::bool::weighted(0.1),
            )
                .prop_map(|(entries, flow, anchor)| Tree::Map(entries, flow, anchor)),
            2 => (
                proptest::collection::vec(inner, 0..5),
                prop::bool::weighted(0.25),
                prop::bool::weighted(0.1),
            )
                .prop_map(|(items, flow, anchor)| Tree::Seq(items, flow, anchor)),
        ]
    })
}

/// Renders a [`Tree`], naming anchors `a0`, `a1`, ... in document order so that aliases
/// mostly point at an anchor that exists.
#[derive(Default)]
struct Writer {
    out: String,
    anchors: usize,
}

impl Writer {
    fn anchor(&mut self, anchor: bool) {
        if anchor {
            write!(self.out, "&a{} ", self.anchors).expect("writing to a String");
            self.anchors += 1;
        }
    }

    /// A node in flow notation (block scalars become double-quoted, comments are dropped).
    fn flow(&mut self, tree: &Tree) {
        match tree {
            Tree::Scalar(text, anchor) => {
                self.anchor(*anchor);
                // A comment would swallow the rest of a flow collection.
                self.out
                    .push_str(text.split(" #").next().unwrap_or_default());
            }
            Tree::Block(_, lines) => {
                write!(self.out, "\"{}\"", lines.join(" ")).expect("writing to a String");
            }
            Tree::Alias(index) => self.alias(*index),
            Tree::Map(entries, _, anchor) => {
                self.anchor(*anchor);
                self.out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.out.push_str(key);
                    self.out.push_str(": ");
                    self.flow(value);
                }
                self.out.push('}');
            }
            Tree::Seq(items, _, anchor) => {
                self.anchor(*anchor);
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.flow(item);
                }
                self.out.push(']');
            }
        }
    }

    fn alias(&mut self, index: prop::sample::Index) {
        if self.anchors == 0 {
            self.out.push_str("*unknown");
        } else {
            write!(self.out, "*a{}", index.index(self.anchors)).expect("writing to a String");
        }
    }

    /// Writes what follows a `key:` or a `-` at `indent`.
    fn value(&mut self, tree: &Tree, indent: usize) {
        match tree {
            Tree::Block(header, lines) => {
                self.out.push(' ');
                self.out.push_str(header);
                self.out.push('\n');
                for line in lines {
                    self.out.push_str(&" ".repeat(indent + 2));
                    self.out.push_str(line);
                    self.out.push('\n');
                }
            }
            Tree::Map(entries, false, anchor) if !entries.is_empty() => {
                if *anchor {
                    self.out.push(' ');
                    self.anchor(true);
                }
                self.out.push('\n');
                self.map(entries, indent + 2);
            }
            Tree::Seq(items, false, anchor) if !items.is_empty() => {
                if *anchor {
                    self.out.push(' ');
                    self.anchor(true);
                }
                self.out.push('\n');
                self.seq(items, indent + 2);
            }
            _ => {
                self.out.push(' ');
                self.flow(tree);
                self.out.push('\n');
            }
        }
    }

    fn map(&mut self, entries: &[(String, Tree)], indent: usize) {
        for (key, value) in entries {
            self.out.push_str(&" ".repeat(indent));
            self.out.push_str(key);
            self.out.push(':');
            self.value(value, indent);
        }
    }

    fn seq(&mut self, items: &[Tree], indent: usize) {
        for item in items {
            self.out.push_str(&" ".repeat(indent));
            self.out.push('-');
            self.value(item, indent);
        }
    }
}

/// A template: a top-level mapping in block or flow notation, now and then damaged by one
/// inserted or deleted character so that the error paths see near-valid text too.
fn template() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec((key(), tree()), 1..6),
        any::<bool>(),
        prop::option::weighted(
            0.25,
            (
                any::<prop::sample::Index>(),
                prop::option::of(prop::sample::select(
                    " \n\t-:{}[],&*!|>'\"#%@.?\\é".chars().collect::<Vec<_>>(),
                )),
            ),
        ),
    )
        .prop_map(|(entries, block, damage)| {
            let mut writer = Writer::default();
            if block {
                writer.map(&entries, 0);
            } else {
                writer.flow(&Tree::Map(entries, true, false));
            }
            let mut text = writer.out;
            if let Some((at, insert)) = damage {
                let mut at = at.index(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                match insert {
                    Some(c) => text.insert(at, c),
                    None if at < text.len() => {
                        text.remove(at);
                    }
                    None => {}
                }
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(text) = hotfix_yaml::check_bytes(&bytes) {
            read(text);
            if let Ok(doc) = hotfix_yaml::parse_unlimited(text) {
                exercise(&doc);
            }
        }
    }

    #[test]
    fn yaml_like_text_never_panics(
        text in prop::string::string_regex("[-a-z0-9:{}\\[\\],&*!|>'\"#%@ \\n\\t.<=~?]{0,300}")
            .expect("a valid regex")
    ) {
        read(&text);
        if let Ok(doc) = hotfix_yaml::parse_unlimited(&text) {
            exercise(&doc);
        }
    }

    #[test]
    fn template_like_text_never_panics(text in template()) {
        read(&text);
        if let Ok(doc) = hotfix_yaml::parse_unlimited(&text) {
            exercise(&doc);
        }
    }

    /// The reader alone, on YAML's indicators with every line break libyaml knows, escapes, a
    /// byte-order mark and multi-byte characters.
    #[test]
    fn the_reader_never_panics(
        text in prop::string::string_regex(
            "[-a-z0-9:{}\\[\\],&*!|>'\"#%@ \\n\\r\\t.<=~?\\\\\u{85}\u{2028}\u{feff}é+]{0,300}"
        )
            .expect("a valid regex")
    ) {
        read(&text);
    }
}
