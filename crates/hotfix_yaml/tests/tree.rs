//! The node tree keeps what PyYAML throws away: spans of nodes, keys and comments, repeated
//! keys, anchors and tags.

use hotfix_yaml::{Document, NodeId, NodeKind, ScalarStyle, SourceFormat, Style};

fn parse(text: &str) -> Document {
    hotfix_yaml::parse(text).unwrap_or_else(|err| panic!("{text:?} should load: {err}"))
}

/// The text of the value stored under a top-level key.
fn value_text<'d>(doc: &'d Document, key: &str) -> &'d str {
    let id = doc
        .get(doc.root(), key)
        .unwrap_or_else(|| panic!("no key {key}"));
    doc.text(id)
}

#[test]
fn spans_cover_scalars_with_their_quotes_and_collections_with_their_brackets() {
    let text = "plain: word\nsingle: 'it''s'\ndouble: \"a\\nb\"\nflow: [1, {k: v}]\nempty: \nblock:\n  - x\n  - y   # trailing comment\n\nlast: |\n  lit\n";
    let doc = parse(text);
    assert_eq!(value_text(&doc, "plain"), "word");
    assert_eq!(value_text(&doc, "single"), "'it''s'");
    assert_eq!(value_text(&doc, "double"), "\"a\\nb\"");
    assert_eq!(value_text(&doc, "flow"), "[1, {k: v}]");
    assert_eq!(value_text(&doc, "block"), "- x\n  - y");
    assert_eq!(value_text(&doc, "last"), "|\n  lit");
    let single = doc.scalar(doc.get(doc.root(), "single").unwrap()).unwrap();
    assert_eq!(
        (single.text.as_str(), single.style),
        ("it's", ScalarStyle::SingleQuoted)
    );
}

#[test]
fn block_mapping_spans_end_at_their_last_value_not_at_trailing_comments() {
    let text = "outer:\n  a: 1\n  b: two # note\n# after\nnext: 3\n";
    let doc = parse(text);
    assert_eq!(value_text(&doc, "outer"), "a: 1\n  b: two");
    let root = doc.node(doc.root());
    assert_eq!(&text[root.span.range()], text.trim_end());
}

#[test]
fn every_key_carries_its_span_and_repeated_keys_stay_visible() {
    let text = "a: 1\nb: 2\na: 3\n";
    let doc = parse(text);
    let raw = doc.raw_entries(doc.root()).unwrap();
    let keys: Vec<_> = raw
        .iter()
        .map(|e| (doc.text(e.key), doc.node(e.key).span.start))
        .collect();
    assert_eq!(keys, [("a", 0), ("b", 5), ("a", 10)]);
    // The value view follows PyYAML: the last value wins, the first key keeps its place.
    let entries = doc.entries(doc.root());
    assert_eq!(entries.len(), 2);
    assert_eq!(doc.node(entries[0].key).span.start, 0);
    assert_eq!(doc.text(entries[0].value), "3");
    assert_eq!(doc.text(doc.get(doc.root(), "a").unwrap()), "3");
    assert_eq!(
        doc.node(doc.get_key(doc.root(), "a").unwrap()).span.start,
        0
    );
}

#[test]
fn comments_are_kept_with_their_spans() {
    let text = "# head\na: 1 # right\n  # indented\nb: [x, # inside\n  y]\n";
    let doc = parse(text);
    let comments: Vec<_> = doc
        .comments()
        .iter()
        .map(|c| (&text[c.span.range()], c.text.as_str()))
        .collect();
    assert_eq!(
        comments,
        [
            ("# head", " head"),
            ("# right", " right"),
            ("# indented", " indented"),
            ("# inside", " inside")
        ]
    );
}

#[test]
fn anchors_aliases_and_tags_keep_their_tokens() {
    let text = "a: &base {k: 1}\nb: *base\nc: !!str 012\n";
    let doc = parse(text);
    let a = doc.get(doc.root(), "a").unwrap();
    assert_eq!(&text[doc.node(a).anchor.unwrap().range()], "&base");
    let b = doc.get(doc.root(), "b").unwrap();
    assert_eq!(doc.text(b), "*base");
    assert!(matches!(doc.node(b).kind, NodeKind::Alias { target } if target == a));
    assert_eq!(doc.resolve(b), a);
    let c = doc.get(doc.root(), "c").unwrap();
    let tag = doc.node(c).tag.as_ref().unwrap();
    assert_eq!(tag.name, "tag:yaml.org,2002:str");
    assert_eq!(&text[tag.span.unwrap().range()], "!!str");
    assert_eq!(doc.str_value(c), Some("012"));
}

#[test]
fn merge_keys_are_visible_in_the_tree_and_expanded_in_the_value_view() {
    let text = "base: &b {x: 1, y: 2}\nv:\n  <<: *b\n  y: 3\n";
    let doc = parse(text);
    let v = doc.get(doc.root(), "v").unwrap();
    assert_eq!(doc.raw_entries(v).unwrap().len(), 2);
    let keys: Vec<_> = doc
        .entries(v)
        .iter()
        .map(|e| doc.text(e.key).to_owned())
        .collect();
    assert_eq!(keys, ["x", "y"]);
    assert_eq!(doc.text(doc.get(v, "y").unwrap()), "3");
    assert_eq!(doc.text(doc.get(v, "x").unwrap()), "1");
}

#[test]
fn json_templates_are_read_with_json_rules_and_spans() {
    let text = "{\n  \"heat_template_version\": \"2016-10-14\",\n  \"n\": 1e3,\n  \"l\": [true, null]\n}\n";
    let doc = parse(text);
    assert_eq!(doc.format(), SourceFormat::Json);
    assert_eq!(value_text(&doc, "n"), "1e3");
    assert_eq!(value_text(&doc, "l"), "[true, null]");
    assert_eq!(value_text(&doc, "heat_template_version"), "\"2016-10-14\"");
    let key = doc.get_key(doc.root(), "n").unwrap();
    assert_eq!(doc.text(key), "\"n\"");
    assert!(matches!(
        doc.node(doc.root()).kind,
        NodeKind::Mapping {
            style: Style::Flow,
            ..
        }
    ));
    assert_eq!(
        doc.to_python_json().unwrap(),
        r#"{"heat_template_version": "2016-10-14", "n": 1000.0, "l": [true, null]}"#
    );
}

#[test]
fn under_indented_quoted_lines_load_as_libyaml_loads_them_with_original_spans() {
    let text = "outer:\n  inner:\n    v: \"one,\n    two\"\n    w: after\n";
    let doc = parse(text);
    let outer = doc.get(doc.root(), "outer").unwrap();
    let inner = doc.get(outer, "inner").unwrap();
    let v = doc.get(inner, "v").unwrap();
    assert_eq!(doc.scalar(v).unwrap().text, "one, two");
    assert_eq!(doc.text(v), "\"one,\n    two\"");
    assert_eq!(doc.text(doc.get(inner, "w").unwrap()), "after");
}

#[test]
fn positions_count_lines_and_columns_of_any_node() {
    let text = "a:\r\n  b: \"é\"\r\n";
    let doc = parse(text);
    let a = doc.get(doc.root(), "a").unwrap();
    let b: NodeId = doc.get(a, "b").unwrap();
    let pos = doc.lines().position(doc.source(), doc.node(b).span.start);
    assert_eq!(
        (pos.line, pos.byte_col, pos.char_col, pos.utf16_col),
        (2, 6, 6, 6)
    );
    let end = doc.lines().position(doc.source(), doc.node(b).span.end);
    assert_eq!(
        (end.line, end.byte_col, end.char_col, end.utf16_col),
        (2, 10, 9, 9)
    );
}

#[test]
fn block_scalar_spans_run_from_the_indicator_to_the_last_content_character() {
    let text = "a:\n  k: >- # note\n    text\n    more\n  next: 1\nb: |\n  x\n\nc: 2\n";
    let doc = parse(text);
    let a = doc.get(doc.root(), "a").unwrap();
    assert_eq!(
        doc.text(doc.get(a, "k").unwrap()),
        ">- # note\n    text\n    more"
    );
    assert_eq!(doc.text(doc.get(doc.root(), "b").unwrap()), "|\n  x");
}

#[test]
fn block_sequences_start_at_their_first_dash_indented_or_not() {
    let text = "a:\n- x\n- y\nb:\n  - z\n";
    let doc = parse(text);
    assert_eq!(doc.text(doc.get(doc.root(), "a").unwrap()), "- x\n- y");
    assert_eq!(doc.text(doc.get(doc.root(), "b").unwrap()), "- z");
}

/// What Heat's loader makes of a text, as `json.dumps` prints it.
fn json(text: &str) -> String {
    parse(text)
        .to_python_json()
        .unwrap_or_else(|err| panic!("{text:?} should load: {err}"))
}

/// Why a text is refused.
fn refusal(text: &str) -> String {
    match hotfix_yaml::parse(text) {
        Ok(_) => panic!("{text:?} should be refused"),
        Err(err) => err.message,
    }
}

#[test]
fn a_compact_nested_sequence_starts_at_its_own_dash() {
    // PyYAML's node `start_mark` for the inner sequence is its own `-` (offset 7).
    let text = "k:\n  - - {a: b}\n    - c\n";
    let doc = parse(text);
    let outer = doc.get(doc.root(), "k").expect("k");
    let inner = doc.items(outer).expect("a sequence")[0];
    assert_eq!(doc.node(inner).span.start, 7);
    assert_eq!(doc.text(inner), "- {a: b}\n    - c");
}

#[test]
fn a_key_tagged_value_is_a_string_once_its_mapping_is_flattened() {
    // Heat's answers: PyYAML's flatten_mapping retags a `!!value` key `!!str`.
    assert_eq!(json("&a !!value : *a\n"), r#"{"": ""}"#);
    assert_eq!(json("? &x =\n: *x\n"), r#"{"=": "="}"#);
    assert_eq!(json("= : 1\n"), r#"{"=": 1}"#);
    // Constructed as a value before the mapping that has it as a key is flattened.
    for text in [
        "a: =\n",
        "a: &x =\nb: {*x : 1}\n",
        "a: [{&x = : 1}, *x]\n",
        "a: {b: {&x = : 1}}\nc: *x\n",
    ] {
        assert!(
            refusal(text).contains("'tag:yaml.org,2002:value'"),
            "{text:?}: {}",
            refusal(text)
        );
    }
}

#[test]
fn a_collection_that_is_only_merged_is_never_constructed() {
    // Heat's answers: the merged mapping's tag is never looked at.
    assert_eq!(json("<<: !x {a: 1}\n"), r#"{"a": 1}"#);
    assert_eq!(json("<<: [!x {a: 1}]\n"), r#"{"a": 1}"#);
    assert_eq!(json("<<: !x [{a: 1}]\n"), r#"{"a": 1}"#);
    assert_eq!(json("<<: !!seq {a: 1}\n"), r#"{"a": 1}"#);
    assert_eq!(json("<<: !!omap [{a: 1, b: 2}]\n"), r#"{"a": 1, "b": 2}"#);
    // Constructed elsewhere too: refused.
    assert_eq!(
        refusal("<<: &m !x {a: 1}\nb: *m\n"),
        "could not determine a constructor for the tag '!x'"
    );
    assert_eq!(
        refusal("a: !x {b: 1}\n"),
        "could not determine a constructor for the tag '!x'"
    );
}

#[test]
fn a_mapping_that_merges_itself_keeps_its_own_entries() {
    // Heat's answers: flatten_mapping deletes the merge key before it merges.
    assert_eq!(json("a: &x\n  <<: *x\n"), r#"{"a": {}}"#);
    assert_eq!(json("a: &x\n  b: 1\n  <<: *x\n"), r#"{"a": {"b": 1}}"#);
    assert_eq!(json("a: &x\n  <<: [*x, {c: 1}]\n"), r#"{"a": {"c": 1}}"#);
    assert_eq!(json("a: &x {b: 1, <<: *x}\n"), r#"{"a": {"b": 1}}"#);
    assert_eq!(json("a: &x {<<: [*x]}\n"), r#"{"a": {}}"#);
    assert_eq!(
        json("<<: &x {a: 1}\nb: {<<: *x}\n"),
        r#"{"a": 1, "b": {"a": 1}}"#
    );
    assert_eq!(
        json("a: &x {<<: {c: 1}, <<: *x, d: 2}\n"),
        r#"{"a": {"c": 1, "d": 2}}"#
    );
    // A cycle in a value that a repeated key drops: PyYAML builds it, the dict drops it.
    assert_eq!(json("'': &b0\n- *b0\n\"\":\n"), r#"{"": null}"#);
    assert_eq!(json("yes: &a\n- *a\non:\n"), r#"{"true": null}"#);
    assert!(refusal("a: &x\n- *x\n").contains("refers to a node that contains it"));
    // A real cycle is still one (Heat: `Circular reference detected`): through a value, and
    // through a merge that makes a mapping contain itself.
    assert!(refusal("a: &x\n  <<: *x\n  b: *x\n").contains("refers to a node that contains it"));
    for text in ["a: &x\n  b:\n    <<: *x\n", "&A {k: {<<: *A}}\n"] {
        assert!(
            refusal(text).contains("Circular reference detected"),
            "{text:?}: {}",
            refusal(text)
        );
    }
    // A merge through a sequence that holds the mapping, or of an ancestor whose entry
    // leading here the mapping's own key replaces: no cycle is left (Heat's answers).
    assert_eq!(json("a: &x [<<: *x]\n"), r#"{"a": [{}]}"#);
    assert_eq!(json("&A {k: {<<: *A, k: 1}}\n"), r#"{"k": {"k": 1}}"#);
    // A key tagged `!!merge` merges whatever node it is (PyYAML looks at the tag only).
    assert_eq!(json("? !!merge {x}\n: {b: 1}\n"), r#"{"b": 1}"#);
    // A mapping tagged as a scalar is the value of its first `=` key (construct_scalar).
    assert_eq!(json("O: !!str {=: a}\n"), r#"{"O": "a"}"#);
    assert_eq!(json("O: !!int {b: 1, =: {=: 0x1F}}\n"), r#"{"O": 31}"#);
    assert!(refusal("O: !!str [a]\n").contains("expected a scalar node, but found sequence"));
    assert!(refusal("O: !!str {a: 1}\n").contains("expected a scalar node, but found mapping"));
}

#[test]
fn a_scalar_tagged_with_the_non_specific_tag_resolves_before_a_final_line_break() {
    // Heat's answers: Python's `re.match(…$)` matches before a final line break, and `int()`
    // and `float()` skip it.
    assert_eq!(json("b: ! |\n 3\n"), r#"{"b": 3}"#);
    assert_eq!(json("v: ! |\n null\n"), r#"{"v": null}"#);
    assert_eq!(json("a: ! \"1:30\\n\"\n"), r#"{"a": 90}"#);
    assert_eq!(json("a: ! \"\\n\"\n"), r#"{"a": "\n"}"#);
    assert_eq!(json("a: ! \"3\\n\\n\"\n"), r#"{"a": "3\n\n"}"#);
    assert_eq!(json("? ! \"<<\\n\"\n: {a: 1}\n"), r#"{"a": 1}"#);
    // The boolean table and `.inf` keep the break: PyYAML fails (KeyError, ValueError).
    assert!(refusal("a: ! \"yes\\n\"\n").contains("KeyError"));
    assert!(refusal("a: ! \".inf\\n\"\n").contains("could not convert string to float"));
    // A mapping tagged as a scalar whose `=` value is empty is the empty string.
    assert_eq!(json("0: &a !!str\n =:\n"), r#"{"0": ""}"#);
}

#[test]
fn a_yaml_error_of_libyamls_rules_is_answered_by_the_pure_loader_as_heat_does() {
    // Heat's answers. `simple_parse` reads the text again with PyYAML's pure loader after any
    // `yaml.YAMLError` of the C loader, a composer's or constructor's too: a byte-order mark
    // at the start of a later line is skipped by libyaml (a duplicate anchor then) and is a
    // plain scalar's first character to the pure scanner.
    assert_eq!(json("&a_10\n\u{feff}&a_10:\n"), r#"{"\ufeff&a_10": null}"#);
    // An empty node tagged `!` is "" to libyaml's events and None to the pure parser's.
    assert_eq!(json("a: [! , b]\n"), r#"{"a": ["", "b"]}"#);
    assert_eq!(json("6: {v:[x,! ,1]}\n"), r#"{"6": {"v": ["x", null, 1]}}"#);
    // Python's own errors (`int()`'s ValueError) are not retried: the message is int()'s.
    assert!(refusal("a: !!int x\n").contains("invalid literal for int() with base 10"));
}

#[test]
fn an_explicit_integer_is_read_as_pythons_int_reads_it() {
    // Heat's answers: int() strips white space and then takes a sign, in each base-60 part too.
    assert_eq!(json("a: !!int \"\\n-1\"\n"), r#"{"a": -1}"#);
    assert_eq!(json("a: !!int \"- -1\"\n"), r#"{"a": 1}"#);
    assert_eq!(json("a: !!int \"0b -1\"\n"), r#"{"a": -1}"#);
    assert_eq!(json("a: !!int \"1:-30\"\n"), r#"{"a": 30}"#);
    assert_eq!(json("a: !!int \" 12\\u2003\"\n"), r#"{"a": 12}"#);
    assert!(refusal("a: !!int \"1\\x1f\"\n").contains("invalid literal for int()"));
    assert_eq!(json("a: !!int |\n \t+1\n"), r#"{"a": 1}"#);
    // `! "*"` resolves to PyYAML's `tag:yaml.org,2002:yaml`, which has no constructor.
    assert!(refusal("a: ! \"*\"\n").contains("tag:yaml.org,2002:yaml"));
}

#[test]
fn a_lone_surrogate_escape_loads_as_python_keeps_it() {
    // Heat's answers (libyaml refuses the escape; PyYAML's pure loader and json.loads keep the
    // lone surrogate in the string, which json.dumps writes as an escape).
    assert_eq!(json("a: \"\\ud83d\"\n"), r#"{"a": "\ud83d"}"#);
    assert_eq!(json("a: \"\\udc00\\ud800\"\n"), r#"{"a": "\udc00\ud800"}"#);
    assert_eq!(json("a: \"\\ud83d\\ude00\"\n"), r#"{"a": "\ud83d\ude00"}"#);
    assert_eq!(json("{\"a\": \"\\ud83d\\u0041\"}"), r#"{"a": "\ud83dA"}"#);
    // A key: the same surrogate is the same key; the character standing in for it is not.
    assert_eq!(
        json("\"\\ud800\": 1\n\"\\U0010F000\": 2\n\"\\ud800\": 3\n"),
        r#"{"\ud800": 3, "\udbfc\udc00": 2}"#
    );
    let doc = hotfix_yaml::parse("a: \"x\\ud83d\"\nb: x\n").expect("loads");
    let a = doc.get(doc.root(), "a").expect("a");
    assert!(doc.holds_lone_surrogates(a));
    let text = doc.scalar(a).expect("a scalar").text.as_str();
    assert_eq!(
        text.chars()
            .map(hotfix_yaml::surrogate_of)
            .collect::<Vec<_>>(),
        [None, Some(0xD83D)]
    );
    assert!(!doc.holds_lone_surrogates(doc.get(doc.root(), "b").expect("b")));
}

#[test]
fn invalid_yaml_is_reported_in_heats_words_where_heat_puts_it() {
    // Heat's own answers (simple_parse: PyYAML's pure loader's message, after libyaml's
    // refusal); tests/messages.rs asks Heat for more.
    let cases = [
        ("a: b\n c: d\n", "mapping values are not allowed here", 7),
        (
            "- a\nb: c\n",
            "while parsing a block collection: expected <block end>, but found '?'",
            4,
        ),
        (
            "a: {b: [1, 2}\n",
            "while parsing a flow sequence: expected ',' or ']', but got '}'",
            12,
        ),
        (
            "key: \"\\q\"\n",
            "while scanning a double-quoted scalar: found unknown escape character 'q'",
            7,
        ),
        (
            "a:\n\tb: 1\n",
            "while scanning for the next token: found character '\\t' that cannot start any token",
            3,
        ),
    ];
    for (text, message, at) in cases {
        let err = hotfix_yaml::parse(text).expect_err(text);
        assert_eq!(err.message, format!("invalid YAML: {message}"), "{text:?}");
        assert_eq!(err.span.map(|s| s.start), Some(at), "{text:?}");
    }
}
