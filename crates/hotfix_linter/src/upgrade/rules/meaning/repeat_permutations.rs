use hotfix_diagnostics::{Applicability, Fix, Severity, Span};
use hotfix_hot::{Function, Version};
use hotfix_yaml::{NodeId, NodeKind, ScalarValue};

use super::remove::remove_entry;
use crate::rule::Context;
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Reports `permutations` in a `repeat` call when leaving 2017-02-24: up to 2017-02-24
    /// Heat ignores the key and always nests the loops (every combination of the `for_each`
    /// lists); from 2017-09-01 `permutations: false` zips the lists instead.
    ///
    /// ## Why is this bad?
    /// The upgrade keeps the text and changes the result. Heat's engine shows it (the oracle
    /// sample `02_repeat_*`: ports `[80, 443]`, protocols `[tcp, udp]`): 2017-02-24 gives the
    /// four rules 80/tcp, 80/udp, 443/tcp, 443/udp; 2017-09-01 gives the two 80/tcp,
    /// 443/udp. Where the `for_each` lists are literal, the message gives both lengths.
    ///
    /// What 2017-09-01 rejects is an error (it blocks the step): lists of different lengths
    /// (`For repeat, the length of for_each values should be equal if no nested loop.`, an
    /// empty list included), a map as a `for_each` value (`The values of the "for_each"
    /// argument to "repeat" must be lists`), and a `permutations` that is not a YAML boolean
    /// (`"permutations" should be boolean type for repeat function.`: `"false"`, `null`, a
    /// `get_param`), all of which 2017-02-24 accepts and ignores.
    ///
    /// `permutations: true` (the default: nested, as before) is not reported, nor is
    /// `permutations: false` where zipping gives what nesting gives: a single literal list in
    /// `for_each` (zipping one list is nesting it), literal lists of one item each, or a
    /// `null` value (Heat takes it as an empty list it does not count: both results are
    /// empty).
    ///
    /// ## Fix safety
    /// The fix removes the `permutations` entry, which keeps the nested result of
    /// 2017-02-24 but drops what the author asked for, so it is Unsafe (`--unsafe-fixes`).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2017-02-24
    /// outputs:
    ///   pairs:
    ///     value:
    ///       repeat:
    ///         for_each:
    ///           <%port%>: ["80", "443"]
    ///           <%proto%>: [tcp, udp]
    ///         template: <%proto%>/<%port%>
    ///         permutations: false
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// # the four pairs that 2017-02-24 computes
    /// heat_template_version: 2017-09-01
    /// outputs:
    ///   pairs:
    ///     value:
    ///       repeat:
    ///         for_each:
    ///           <%port%>: ["80", "443"]
    ///           <%proto%>: [tcp, udp]
    ///         template: <%proto%>/<%port%>
    /// ```
    pub(crate) static RULE = {
        code: "U701",
        name: "repeat-permutations",
        step: Some((Version::V2017_02_24, Version::V2017_09_01)),
        severity: Warning,
        check: check,
    };
}

/// What is known of the `for_each` values.
enum Lists {
    /// Literal lists (`None`: `null`, which Heat takes as an empty list it does not count).
    Literal(Vec<Option<usize>>),
    /// At least one literal map.
    HasMap,
    /// A function (or something else) somewhere: only known when Heat resolves it.
    Dynamic { keys: Option<usize> },
}

fn is_call(cx: &Context<'_>, node: NodeId) -> bool {
    cx.semantic.call_at(node).is_some()
}

fn lists(cx: &Context<'_>, for_each: Option<NodeId>) -> Lists {
    let doc = cx.doc;
    let Some(for_each) = for_each.map(|n| doc.resolve(n)) else {
        return Lists::Dynamic { keys: None };
    };
    if is_call(cx, for_each) || !matches!(doc.node(for_each).kind, NodeKind::Mapping { .. }) {
        return Lists::Dynamic { keys: None };
    }
    let entries = doc.entries(for_each);
    let mut lengths = Vec::with_capacity(entries.len());
    let mut dynamic = false;
    for entry in &entries {
        let value = doc.resolve(entry.value);
        match &doc.node(value).kind {
            NodeKind::Sequence { items, .. } => lengths.push(Some(items.len())),
            NodeKind::Mapping { .. } if !is_call(cx, value) => return Lists::HasMap,
            NodeKind::Scalar(s) if s.value == ScalarValue::Null => lengths.push(None),
            _ => dynamic = true,
        }
    }
    if dynamic {
        Lists::Dynamic {
            keys: Some(entries.len()),
        }
    } else {
        Lists::Literal(lengths)
    }
}

/// `nested: 2 × 3 = 6 items`, the nested count, and the zipped count when the lengths agree.
fn counts(lengths: &[Option<usize>]) -> (String, Option<usize>, Option<usize>) {
    let shown: Vec<String> = lengths.iter().map(|l| l.unwrap_or(0).to_string()).collect();
    let product = lengths
        .iter()
        .try_fold(1usize, |acc, l| acc.checked_mul(l.unwrap_or(0)));
    let nested = match product {
        Some(n) => format!("nested: {} = {n} item{}", shown.join(" × "), plural(n)),
        None => format!("nested: {} items", shown.join(" × ")),
    };
    let mut counted = lengths.iter().flatten();
    let zipped = match counted.next() {
        Some(&first) if counted.all(|&l| l == first) => {
            Some(if lengths.contains(&None) { 0 } else { first })
        }
        Some(_) => None,
        None => Some(0),
    };
    (nested, product, zipped)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    let to = ucx.to;
    for call in cx.semantic.calls_to(Function::Repeat) {
        let args = doc.resolve(call.args);
        if !matches!(doc.node(args).kind, NodeKind::Mapping { .. }) {
            continue;
        }
        let Some(entry) = doc
            .entries(args)
            .into_iter()
            .find(|e| doc.str_value(e.key) == Some("permutations"))
        else {
            continue;
        };
        let key_span = cx.span(entry.key);
        let span = Span::new(key_span.start, key_span.end.max(cx.span(entry.value).end));
        let value = doc.scalar(entry.value).map(|s| &s.value);
        let (message, error) = match value {
            Some(ScalarValue::Bool(true)) => continue,
            Some(ScalarValue::Bool(false)) => {
                match lists(cx, doc.get(args, "for_each")) {
                    Lists::Literal(lengths) if lengths.len() < 2 => continue,
                    Lists::Literal(lengths) => {
                        let (nested, product, zipped) = counts(&lengths);
                        match zipped {
                            // Lists of one item each, or an empty result either way.
                            Some(n) if product == Some(n) => continue,
                            Some(n) => (
                                format!(
                                    "`repeat` honours `permutations: false` from {to}: the `for_each` lists are zipped instead of nested ({nested}; zipped: {n} item{})",
                                    plural(n)
                                ),
                                false,
                            ),
                            None => (
                                format!(
                                    "`repeat` honours `permutations: false` from {to}, and zipping lists of different lengths fails: `For repeat, the length of for_each values should be equal if no nested loop.` ({nested})"
                                ),
                                true,
                            ),
                        }
                    }
                    Lists::HasMap => (
                        format!(
                            "`repeat` honours `permutations: false` from {to}, and zipping rejects a map in `for_each`: `The values of the \"for_each\" argument to \"repeat\" must be lists`"
                        ),
                        true,
                    ),
                    Lists::Dynamic { keys: Some(1) } => (
                        format!(
                            "`repeat` honours `permutations: false` from {to}: with one `for_each` value the result is the same, but a map there is rejected (`The values of the \"for_each\" argument to \"repeat\" must be lists`)"
                        ),
                        false,
                    ),
                    Lists::Dynamic { .. } => (
                        format!(
                            "`repeat` honours `permutations: false` from {to}: the `for_each` lists are zipped instead of nested (and Heat fails if their lengths differ)"
                        ),
                        false,
                    ),
                }
            }
            _ => (
                format!(
                    "`repeat` honours `permutations` from {to} and requires a boolean: `\"permutations\" should be boolean type for repeat function.` (before, the key was ignored)"
                ),
                true,
            ),
        };
        let diagnostic = sink.report(span, message);
        if error {
            diagnostic.severity = Severity::Error;
            diagnostic.help(format!(
                "remove `permutations` to keep the nested loops Heat computed before (every combination); to zip the lists instead, give them equal lengths (lists only) and `permutations: false` once the template is at {to}"
            ));
        } else {
            diagnostic.help(
                "remove `permutations` to keep the nested loops Heat computed before (every combination), or keep `permutations: false` if zipping the lists is what is meant",
            );
        }
        if let Some(edits) = remove_entry(doc, args, "permutations") {
            diagnostic.fix(Fix {
                message: "Remove `permutations` (keeps the nested loops, as before)".to_owned(),
                edits,
                applicability: Applicability::Unsafe,
            });
        }
    }
}
