use foldhash::{HashMap, HashMapExt as _};
use hotfix_yaml::{Entry, KeyRepr, NodeId, NodeKind, ScalarValue, SourceFormat};

use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks that no mapping repeats a key, anywhere in the document. Keys compare as
    /// Python compares them: `a` and `"a"` are the same key, and so are `1`, `1.0` and
    /// `true`. Merged keys (`<<: *base`) are meant to be overridden and are not counted.
    /// Environment files are checked too.
    ///
    /// ## Why is this bad?
    /// Heat silently accepts it: its loader (PyYAML, or Python's `json` for JSON) keeps the
    /// last value and drops the others without a word. A second `resources:` section, or a
    /// property given twice, loses everything in the earlier one.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       name: first
    ///       name: second
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     properties:
    ///       name: second
    /// ```
    pub(crate) static RULE = {
        code: "H002",
        name: "duplicate-key",
        severity: Warning,
        fix: None,
        scope: Any,
        check: check,
    };
}

/// Whether a mapping may repeat a key: false when every key is a string (the common case) and
/// no two are equal, which is found without building a [`KeyRepr`] for each.
fn may_repeat(cx: &Context<'_>, entries: &[Entry]) -> bool {
    // The text of each string key; `None` for a merge key, which repeats nothing. Any other
    // key is compared as Python compares it.
    let text = |entry: &Entry| match cx.doc.scalar(entry.key) {
        Some(scalar) if matches!(scalar.value, ScalarValue::Str | ScalarValue::ValueKey) => {
            Ok(Some(scalar.text.as_str()))
        }
        Some(scalar) if matches!(scalar.value, ScalarValue::Merge) => Ok(None),
        _ => Err(()),
    };
    // Most mappings are small: each key compared with the ones after it, with nothing built.
    if entries.len() <= SMALL {
        for (i, entry) in entries.iter().enumerate() {
            let Ok(this) = text(entry) else {
                return true;
            };
            for later in &entries[i + 1..] {
                match text(later) {
                    Ok(that) if this.is_some() && that == this => return true,
                    Ok(_) => {}
                    Err(()) => return true,
                }
            }
        }
        return false;
    }
    let mut texts: Vec<&str> = Vec::with_capacity(entries.len());
    for entry in entries {
        match text(entry) {
            Ok(Some(text)) => texts.push(text),
            Ok(None) => {}
            Err(()) => return true,
        }
    }
    texts.sort_unstable();
    texts.windows(2).any(|pair| pair[0] == pair[1])
}

/// How many entries a mapping has at most for its keys to be compared pair by pair.
const SMALL: usize = 8;

/// The key as Python's `dict` compares it (`None` for a merge key: several merges in one
/// mapping are all applied).
fn key(cx: &Context<'_>, id: NodeId) -> Option<KeyRepr> {
    let scalar = cx.doc.scalar(id)?;
    (scalar.value != ScalarValue::Merge).then(|| cx.doc.key_repr(id))
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let doc = cx.doc;
    let loader = match doc.format() {
        SourceFormat::Json => "Heat's JSON loader",
        SourceFormat::Yaml => "Heat's YAML loader (PyYAML)",
    };
    for node in doc.nodes() {
        let NodeKind::Mapping { entries, .. } = &node.kind else {
            continue;
        };
        if entries.len() < 2 || !may_repeat(cx, entries) {
            continue;
        }
        let mut groups: HashMap<KeyRepr, Vec<NodeId>> = HashMap::new();
        let mut order: Vec<KeyRepr> = Vec::new();
        for entry in entries {
            let Some(k) = key(cx, entry.key) else {
                continue;
            };
            let group = groups.entry(k.clone()).or_default();
            if group.is_empty() {
                order.push(k);
            }
            group.push(entry.key);
        }
        for k in &order {
            let Some(keys) = groups.get(k) else {
                continue;
            };
            let (Some((&first, repeats)), Some(&last)) = (keys.split_first(), keys.last()) else {
                continue;
            };
            if repeats.is_empty() {
                continue;
            }
            let first_text = display(cx, first);
            let last_line = line(cx, last);
            for &repeat in repeats {
                let text = display(cx, repeat);
                let same = if text == first_text {
                    String::new()
                } else {
                    format!(" (equal to `{first_text}` once loaded)")
                };
                let wins = if repeat == last {
                    "this last one wins".to_owned()
                } else {
                    format!("the last one, on line {last_line}, wins")
                };
                sink.report(
                    cx.span(repeat),
                    format!("duplicate key `{text}`{same}: {wins}"),
                )
                .label(cx.span(first), "first defined here")
                .help(format!(
                    "remove or rename all but one: {loader} silently keeps only the last value given for this key and drops the others"
                ));
            }
        }
    }
}

/// The key as written, without quotes.
fn display<'a>(cx: &'a Context<'_>, id: NodeId) -> &'a str {
    cx.doc
        .scalar(id)
        .map_or_else(|| cx.text(id), |s| s.text.as_str())
}

fn line(cx: &Context<'_>, id: NodeId) -> usize {
    cx.doc
        .lines()
        .position(cx.doc.source(), cx.span(id).start)
        .line
}
