use hotfix_diagnostics::{Applicability, Edit, Fix, Span};
use hotfix_hot::{Call, CallStatus, Function, Version};
use hotfix_yaml::{Document, NodeId, NodeKind, Style};

use super::util::{
    NOT_IN_PLACE, after_colon, column, first_on_line, full_start, full_text, gap_comment,
    gap_comments, has_props, is_block_collection, keeps_trailing_lines, key_like, line_start,
    newline, plain_call, refers_to, rename, shift_lines, signed_delta, skip_trivia,
    trailing_block_scalar,
};
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Rewrites `Fn::Replace: [params, template]` as
    /// `str_replace: {template: template, params: params}` when leaving 2013-05-23:
    /// 2014-10-16 removed `Fn::Replace`. The mapping is written in the style of the call (flow
    /// or block); the two arguments keep their text, comments and indentation. When a comment
    /// sits between the items, or moving one past the other could change it (an alias to an
    /// anchor of the params, a `|+` block scalar), the items keep their places and `params`
    /// comes first.
    ///
    /// ## Why is this bad?
    /// From 2014-10-16 Heat rejects the template: `The template version is invalid: The
    /// function Fn::Replace is not supported in this version of HOT.` In 2013-05-23
    /// `Fn::Replace` is a subclass of `str_replace`'s class that only reads its two arguments
    /// from a list instead of a mapping, and later versions' `str_replace` only accepts more:
    /// the rewrite is exact (Safe). (From 2015-10-15 `str_replace` also accepts lists and maps
    /// as values, where `Fn::Replace` failed; that step reports it.) Arguments that are not a
    /// list of two fail in Heat already and are not rewritten.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// parameters:
    ///   name: {type: string, default: web}
    /// outputs:
    ///   url:
    ///     value:
    ///       Fn::Replace:
    ///         - {$host: {get_param: name}}
    ///         - http://$host/
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2014-10-16
    /// parameters:
    ///   name: {type: string, default: web}
    /// outputs:
    ///   url:
    ///     value:
    ///       str_replace:
    ///         template: http://$host/
    ///         params: {$host: {get_param: name}}
    /// ```
    pub(crate) static RULE = {
        code: "U103",
        name: "fn-replace",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::FnReplace) {
            continue;
        }
        let diagnostic = sink.report(
            cx.span(call.key),
            format!("`Fn::Replace` is removed in {}", ucx.to),
        );
        if !matches!(doc.items(call.args), Some([_, _])) {
            diagnostic
                .label(cx.span(call.args), "not a list of two items")
                .help(
                    "Heat already rejects these arguments: write `str_replace: {template: \
                     STRING, params: MAPPING}` by hand",
                );
            continue;
        }
        match rewrite(doc, call) {
            Some(edits) => {
                diagnostic
                    .help(
                        "`str_replace` takes the same two arguments by name (`template`, \
                         `params`) and computes the same string",
                    )
                    .fix(Fix {
                        message: "Replace `Fn::Replace: [PARAMS, TEMPLATE]` with \
                                  `str_replace: {template: TEMPLATE, params: PARAMS}`"
                            .to_owned(),
                        edits,
                        applicability: Applicability::Safe,
                    });
            }
            None => {
                diagnostic.help(format!(
                    "`str_replace: {{template: TEMPLATE, params: PARAMS}}` computes the same \
                     string; {NOT_IN_PLACE}"
                ));
            }
        }
    }
}

/// The edits that turn the call into `str_replace`.
fn rewrite(doc: &Document, call: &Call) -> Option<Vec<Edit>> {
    if !plain_call(doc, call) || has_props(doc, call.args) {
        return None;
    }
    let NodeKind::Sequence { items, style } = &doc.node(call.args).kind else {
        return None;
    };
    let [params, template] = items.as_slice() else {
        return None;
    };
    let (params, template) = (*params, *template);
    let key = |name: &str| key_like(doc, call.key, name);
    // `template` first, as Heat's documentation writes it, unless moving the texts past each
    // other could change them; then the texts stay in place, `params` first.
    let slots = if can_swap(doc, params, template) && !comments_between(doc, call) {
        [(key("template"), template), (key("params"), params)]
    } else {
        [(key("params"), params), (key("template"), template)]
    };
    let rename = rename(doc, call.key, "str_replace")?;
    let args = match style {
        Style::Flow => flow(doc, call.args, [params, template], &slots)?,
        Style::Block => block(doc, call, [params, template], &slots)?,
    };
    Some(vec![rename, args])
}

/// Whether `template`'s text can move in front of `params`'s (and `params`'s after it)
/// without changing either.
fn can_swap(doc: &Document, params: NodeId, template: NodeId) -> bool {
    if refers_to(doc, template, params) {
        return false;
    }
    let src = doc.source();
    // A block scalar at the end of a moved text needs a line break right after its new place,
    // and cannot take its trailing blank lines (kept by `|+`) along.
    [(template, params), (params, template)]
        .into_iter()
        .all(|(moved, place)| match trailing_block_scalar(doc, moved) {
            None => true,
            Some(scalar) => {
                !keeps_trailing_lines(doc, scalar)
                    && matches!(
                        src.as_bytes().get(doc.node(place).span.end),
                        Some(b'\n' | b'\r')
                    )
            }
        })
}

/// Whether a comment sits next to an item outside it (between the items, after a `-`, at the
/// end of the last item's line): swapping the items would leave it next to the other one.
fn comments_between(doc: &Document, call: &Call) -> bool {
    let src = doc.source();
    let Some(&[first, second]) = doc.items(call.args) else {
        return false;
    };
    // From the `[` or the first `-` on.
    let Some(open) = after_colon(src, doc.node(call.key).span.end).map(|at| skip_trivia(src, at))
    else {
        return true;
    };
    let (Some(start1), Some(start2)) = (full_start(doc, first), full_start(doc, second)) else {
        return true;
    };
    let end = doc.node(second).span.end;
    // After the last item: up to the `]`, or the end of its line.
    let after = match doc.node(call.args).kind {
        NodeKind::Sequence {
            style: Style::Flow, ..
        } => doc.node(call.args).span.end,
        _ => src
            .get(end..)
            .and_then(|rest| rest.find('\n'))
            .map_or(src.len(), |i| end + i),
    };
    [
        Span::new(open, start1),
        Span::new(doc.node(first).span.end, start2),
        Span::new(end, after),
    ]
    .into_iter()
    .any(|span| gap_comments(src, span) > 0)
}

/// `[P, T]` → `{template: T, params: P}`: the brackets become braces, each item gets its
/// key; spaces, line breaks and comments stay.
fn flow(
    doc: &Document,
    args: NodeId,
    items: [NodeId; 2],
    slots: &[(String, NodeId); 2],
) -> Option<Edit> {
    let src = doc.source();
    let span = doc.node(args).span;
    let bytes = src.as_bytes();
    let close = span.end.checked_sub(1)?;
    if bytes.get(span.start) != Some(&b'[') || bytes.get(close) != Some(&b']') {
        return None;
    }
    let [first, second] = items;
    let [(key1, x1), (key2, x2)] = slots;
    let text = format!(
        "{{{}{key1}: {}{}{key2}: {}{}}}",
        src.get(span.start + 1..full_start(doc, first)?)?,
        full_text(doc, *x1)?,
        src.get(doc.node(first).span.end..full_start(doc, second)?)?,
        full_text(doc, *x2)?,
        src.get(doc.node(second).span.end..close)?,
    );
    Some(Edit::replace(span, text))
}

/// A block list → a block mapping: each `-` becomes its key, each item keeps its lines.
fn block(
    doc: &Document,
    call: &Call,
    items: [NodeId; 2],
    slots: &[(String, NodeId); 2],
) -> Option<Edit> {
    let src = doc.source();
    let [first, second] = items;
    let colon = after_colon(src, doc.node(call.key).span.end)?;
    let dash1 = skip_trivia(src, colon);
    let dash2 = skip_trivia(src, doc.node(first).span.end);
    for (dash, item) in [(dash1, first), (dash2, second)] {
        if src.as_bytes().get(dash) != Some(&b'-')
            || full_start(doc, item).is_none_or(|start| dash >= start)
            || !first_on_line(src, dash)
        {
            return None;
        }
    }
    let nl = newline(src);
    let [(key1, x1), (key2, x2)] = slots;
    let entry1 = slot(
        doc,
        key1,
        *x1,
        Span::new(dash1 + 1, full_start(doc, first)?),
        nl,
    )?;
    let entry2 = slot(
        doc,
        key2,
        *x2,
        Span::new(dash2 + 1, full_start(doc, second)?),
        nl,
    )?;
    let start = line_start(src, dash1);
    let end = doc.node(second).span.end;
    let text = format!(
        "{}{entry1}{}{entry2}",
        src.get(start..dash1)?,
        src.get(doc.node(first).span.end..dash2)?,
    );
    // A list may sit at its key's column; a mapping must be deeper.
    let (dash, key) = (
        column(src, dash1),
        column(src, doc.node(call.key).span.start),
    );
    let shift = if dash <= key {
        signed_delta(key + 2, dash)
    } else {
        0
    };
    Some(Edit::replace(
        Span::new(start, end),
        shift_lines(&text, shift, false),
    ))
}

/// One entry of the new mapping, where a `-` and the gap after it were: `key: X`, or `key:`
/// and X on the next lines at the column its text was written at.
fn slot(doc: &Document, key: &str, x: NodeId, gap: Span, nl: &str) -> Option<String> {
    let src = doc.source();
    if gap_comments(src, gap) > 1 {
        return None;
    }
    let comment = gap_comment(src, gap);
    let text = full_text(doc, x)?;
    if comment.is_some() || (is_block_collection(doc, x) && !has_props(doc, x)) {
        let indent = " ".repeat(column(src, full_start(doc, x)?));
        let comment = comment.map(|c| format!(" {c}")).unwrap_or_default();
        return Some(format!("{key}:{comment}{nl}{indent}{text}"));
    }
    if text.is_empty() {
        // An empty (null) item.
        return Some(format!("{key}:"));
    }
    Some(format!("{key}: {text}"))
}
