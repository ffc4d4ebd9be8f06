use hotfix_hot::key_name;
use hotfix_yaml::{NodeKind, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{a_type, python_type};

/// The sink types Heat registers (`heat.event_sinks` entry points of Heat 27.0.1).
const SINK_TYPES: [&str; 1] = ["zaqar-queue"];

/// The keys a `zaqar-queue` sink takes besides `type` (`ZaqarEventSink(target, ttl=None)`).
const ZAQAR_KEYS: [&str; 2] = ["target", "ttl"];

declare_rule! {
    /// ## What it does
    /// Checks the shape of `event_sinks`: a list of mappings, each with a `type` Heat knows
    /// (`zaqar-queue`), a `target`, and optionally `ttl`, nothing else.
    ///
    /// ## Why is this bad?
    /// Heat's engine builds each sink when it loads the environment, and fails with Python's
    /// own words instead of a message: `'str' object has no attribute 'copy'` (a mapping or a
    /// string where the list belongs), `KeyError: 'type'`, `KeyError: 'kafka'` (an unknown
    /// type), `ZaqarEventSink.__init__() missing 1 required positional argument: 'target'`.
    ///
    /// ## Example
    /// ```yaml
    /// event_sinks:
    ///   - type: zaqar-queue
    ///     queue: stack-events
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// event_sinks:
    ///   - type: zaqar-queue
    ///     target: stack-events
    /// ```
    pub(crate) static RULE = {
        code: "E006",
        name: "invalid-event-sink",
        severity: Error,
        fix: None,
        scope: Environment,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(env) = cx.environment else {
        return;
    };
    let Some(section) = env.section("event_sinks") else {
        return;
    };
    let doc = cx.doc;
    let value = doc.resolve(section.value);
    let items = match &doc.node(value).kind {
        NodeKind::Sequence { items, .. } => items.to_vec(),
        // Empty: E003. An empty mapping iterates as an empty list.
        NodeKind::Scalar(s) if s.value == ScalarValue::Null => return,
        NodeKind::Mapping { entries, .. } if entries.is_empty() => return,
        _ => {
            let kind = python_type(doc, value);
            let heat = match kind {
                "dict" | "str" => "Heat fails with `'str' object has no attribute 'copy'`",
                _ => "Heat fails when it loads the environment",
            };
            sink.report(
                cx.span(value),
                format!(
                    "`event_sinks` must be a list of sinks, not {}",
                    a_type(kind)
                ),
            )
            .help(format!(
                "write `- {{type: zaqar-queue, target: QUEUE}}`; {heat}"
            ));
            return;
        }
    };
    for item in items {
        let item = doc.resolve(item);
        if !matches!(doc.node(item).kind, NodeKind::Mapping { .. }) {
            let kind = python_type(doc, item);
            sink.report(
                cx.span(item),
                format!("an event sink must be a mapping, not {}", a_type(kind)),
            )
            .help(format!(
                "write `{{type: zaqar-queue, target: QUEUE}}`; Heat fails with `'{kind}' \
                     object has no attribute 'copy'`"
            ));
            continue;
        }
        let Some(kind) = doc.get(item, "type") else {
            sink.report(cx.span(item), "this event sink has no `type`")
                .help("add `type: zaqar-queue`; Heat fails with `KeyError: 'type'`");
            continue;
        };
        let name = doc.str_value(kind);
        if !name.is_some_and(|n| SINK_TYPES.contains(&n)) {
            let shown = name.map_or_else(|| doc.text(kind).to_owned(), str::to_owned);
            sink.report(
                cx.span(kind),
                format!("`{shown}` is not an event sink type"),
            )
            .help(format!(
                "the one type Heat has is `zaqar-queue`; Heat fails with `KeyError: '{shown}'`"
            ));
            continue;
        }
        let entries = doc.entries(item);
        let mut unknown = false;
        for entry in &entries {
            let key = key_name(doc, entry.key);
            if key == "type" || ZAQAR_KEYS.contains(&key.as_str()) {
                continue;
            }
            unknown = true;
            sink.report(
                cx.span(entry.key),
                format!("`{key}` is not a setting of a `zaqar-queue` sink"),
            )
            .help(format!(
                "its settings are `target` and `ttl`; Heat fails with \
                 `ZaqarEventSink.__init__() got an unexpected keyword argument '{key}'`"
            ));
        }
        // Python refuses an unexpected keyword before it looks for a missing one.
        if !unknown && doc.get(item, "target").is_none() {
            sink.report(cx.span(item), "this `zaqar-queue` sink has no `target`")
                .help(
                    "add `target: QUEUE`; Heat fails with `ZaqarEventSink.__init__() missing 1 \
                     required positional argument: 'target'`",
                );
        }
    }
}
