use hotfix_hot::{Call, CallStatus, Function, Version, key_name};
use hotfix_yaml::{NodeId, NodeKind};

use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Reports `list_join` items and `str_replace` params that are literal lists or maps (and
    /// the same in `Fn::Join`/`Fn::Replace`) when leaving 2015-04-30.
    ///
    /// ## Why is this bad?
    /// Up to 2015-04-30 Heat rejects them: `Items to join must be strings not [...]`,
    /// `"str_replace" params must be strings or numbers, param $x is not valid`. From
    /// 2015-10-15 `list_join` and `str_replace` accept them and write them as JSON
    /// (`json.dumps` with sorted keys, `", "` and `": "` separators, e.g.
    /// `{"a": [1], "k": "v"}`). A template that failed now gives a value, which may not be
    /// the one intended.
    ///
    /// There is no fix: check that the JSON text is what you want, or write the item as a
    /// string.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2015-04-30
    /// outputs:
    ///   o: {value: {list_join: [",", [a, [b, c]]]}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// # the JSON text written out, if that is what is meant
    /// heat_template_version: 2015-10-15
    /// outputs:
    ///   o: {value: {list_join: [",", [a, '["b", "c"]']]}}
    /// ```
    pub(crate) static RULE = {
        code: "U302",
        name: "join-replace-non-string",
        step: Some((Version::V2015_04_30, Version::V2015_10_15)),
        severity: Warning,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        let function = match call.status {
            CallStatus::Active(f) | CallStatus::Removed(f) => f,
            CallStatus::Invalid(_) => continue,
        };
        let name = function.name();
        // `Fn::Join`/`Fn::Replace` in 2015-04-30 are Heat's `Removed`: they fail either way,
        // and change meaning once rewritten as `list_join`/`str_replace`.
        let from_then = match (call.status, function) {
            (CallStatus::Removed(_), Function::FnJoin) => format!(
                "`Fn::Join` itself is removed since 2014-10-16; rewritten as `list_join`, from {} Heat",
                ucx.to
            ),
            (CallStatus::Removed(_), _) => format!(
                "`Fn::Replace` itself is removed since 2014-10-16; rewritten as `str_replace`, from {} Heat",
                ucx.to
            ),
            _ => format!("from {} Heat", ucx.to),
        };
        match function {
            Function::ListJoin | Function::FnJoin => {
                let Some(args) = doc.items(call.args) else {
                    continue;
                };
                if let Some(list) = args.get(1).and_then(|&l| doc.items(l)) {
                    for &item in list {
                        let Some(kind) = literal_collection(ucx, item) else {
                            continue;
                        };
                        sink.report(
                            cx.span(item),
                            format!(
                                "this {kind} among the items of `{name}` makes Heat fail before {to} (`Items to join must be strings`); {from_then} joins its JSON text",
                                to = ucx.to
                            ),
                        )
                        .help(HELP);
                    }
                }
            }
            Function::StrReplace | Function::FnReplace => {
                let Some(params) = replace_params(ucx, call) else {
                    continue;
                };
                for entry in doc.entries(params) {
                    let Some(kind) = literal_collection(ucx, entry.value) else {
                        continue;
                    };
                    let param = key_name(doc, entry.key);
                    sink.report(
                        cx.span(entry.value),
                        format!(
                            "the value of `{param}` in the params of `{name}` is a {kind}, which makes Heat fail before {to} (`\"str_replace\" params must be strings or numbers, param {param} is not valid`); {from_then} substitutes its JSON text",
                            to = ucx.to
                        ),
                    )
                    .help(HELP);
                }
            }
            _ => {}
        }
    }
}

const HELP: &str = "the template could not be used before; check that the JSON text Heat now writes (`json.dumps` with sorted keys, `\", \"` and `\": \"` separators) is what you want, or write the value as a string";

/// The params map of a `str_replace` (`{template, params}`) or `Fn::Replace` (`[params,
/// template]`), when it is a literal map.
fn replace_params(ucx: &UpgradeContext<'_>, call: &Call) -> Option<NodeId> {
    let doc = ucx.cx.doc;
    let params = match call.status.function() {
        Function::StrReplace => doc.get(call.args, "params")?,
        _ => *doc.items(call.args)?.first()?,
    };
    let params = doc.resolve(params);
    let is_map = matches!(doc.node(params).kind, NodeKind::Mapping { .. });
    (is_map && !is_call(ucx, params)).then_some(params)
}

/// `"list"` or `"map"` when the node is a literal list or a map that is not a call.
fn literal_collection(ucx: &UpgradeContext<'_>, node: NodeId) -> Option<&'static str> {
    let doc = ucx.cx.doc;
    let node = doc.resolve(node);
    match doc.node(node).kind {
        NodeKind::Sequence { .. } => Some("list"),
        NodeKind::Mapping { .. } if !is_call(ucx, node) => Some("map"),
        _ => None,
    }
}

fn is_call(ucx: &UpgradeContext<'_>, map: NodeId) -> bool {
    ucx.cx.semantic.call_at(map).is_some()
}
