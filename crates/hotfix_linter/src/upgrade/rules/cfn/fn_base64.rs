use hotfix_diagnostics::{Applicability, Edit, Fix, Span};
use hotfix_hot::{Call, CallStatus, Function, Version};
use hotfix_yaml::{Document, NodeId, NodeKind, Style};

use super::util::{
    NOT_IN_PLACE, after_colon, column, content_start, full_start, full_text, gap_comment,
    gap_comments, has_indentation_indicator, is_block_collection, newline, plain_call, returns_str,
    shift_lines, signed_delta,
};
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Replaces `Fn::Base64: X` with `X` when leaving 2013-05-23: 2014-10-16 removed
    /// `Fn::Base64`.
    ///
    /// ## Why is this bad?
    /// From 2014-10-16 Heat rejects the template: `The template version is invalid: The
    /// function Fn::Base64 is not supported in this version of HOT.` Despite its name, Heat's
    /// `Fn::Base64` encodes nothing: it returns its argument unchanged (Heat takes user data as
    /// plain text), and fails with `"Fn::Base64" argument must be a string` when the argument
    /// is not a string.
    ///
    /// ## Fix safety
    /// When the argument is a literal string or a function that only returns strings
    /// (`list_join`, `str_replace`, `get_file`, `get_resource`, `get_param` of a `string`
    /// parameter, …) the rewrite is exact (Safe). Otherwise it is Unsafe: where Heat failed,
    /// the value (a number, a list, a map) would now be used as it is.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2013-05-23
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       image: cirros
    ///       flavor: m1.small
    ///       user_data:
    ///         Fn::Base64: |
    ///           #!/bin/sh
    ///           echo hello
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2014-10-16
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       image: cirros
    ///       flavor: m1.small
    ///       user_data: |
    ///           #!/bin/sh
    ///           echo hello
    /// ```
    pub(crate) static RULE = {
        code: "U104",
        name: "fn-base64",
        step: Some((Version::V2013_05_23, Version::V2014_10_16)),
        severity: Error,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    for call in &cx.semantic.calls {
        if call.status != CallStatus::Active(Function::FnBase64) {
            continue;
        }
        let safe = returns_str(cx.template, cx.semantic, call.args);
        let diagnostic = sink.report(
            cx.span(call.key),
            format!("`Fn::Base64` is removed in {}", ucx.to),
        );
        let help = if safe {
            "`Fn::Base64` encodes nothing: it returns its argument, here always a string, \
             unchanged, so the argument can stand alone"
        } else {
            diagnostic.label(cx.span(call.args), "not known to be a string");
            "`Fn::Base64` encodes nothing: it returns its argument unchanged, but fails when the \
             argument is not a string; without it such a value would be used instead of failing, \
             so make sure the argument is a string"
        };
        let Some(edits) = unwrap(doc, call) else {
            diagnostic.help(format!("{help}; {NOT_IN_PLACE}"));
            continue;
        };
        diagnostic.help(help).fix(Fix {
            message: "Replace `Fn::Base64: X` with `X`".to_owned(),
            edits,
            applicability: if safe {
                Applicability::Safe
            } else {
                Applicability::Unsafe
            },
        });
    }
}

/// The edits that put the argument's text where the `{Fn::Base64: X}` mapping is.
fn unwrap(doc: &Document, call: &Call) -> Option<Vec<Edit>> {
    // A block scalar's indentation indicator counts from the mapping that goes away.
    if !plain_call(doc, call)
        || doc.node(call.map).tag.is_some()
        || has_indentation_indicator(doc, call.args)
    {
        return None;
    }
    let src = doc.source();
    let map = doc.node(call.map).span;
    let x = call.args;
    let x_start = full_start(doc, x)?;
    let x_end = doc.node(x).span.end;
    let colon = after_colon(src, doc.node(call.key).span.end)?;
    if !(map.start <= colon && colon <= x_start && x_end <= map.end) {
        return None;
    }
    let gap = Span::new(colon, x_start);
    let NodeKind::Mapping { style, .. } = doc.node(call.map).kind else {
        return None;
    };
    if style == Style::Flow {
        return Some(unwrap_flow(
            src,
            map,
            colon,
            x_start,
            Span::new(x_end, map.end),
        ));
    }
    if gap_comments(src, gap) > 1 {
        return None;
    }
    let comment = gap_comment(src, gap);
    let nl = newline(src);
    let k = column(src, map.start);
    let indent = " ".repeat(k);
    if is_block_collection(doc, x) {
        // Its lines move to the mapping's column.
        let delta = signed_delta(k, column(src, content_start(doc, x)?));
        let body = shift_lines(full_text(doc, x)?, delta, true);
        let prefix = comment
            .map(|c| format!("{c}{nl}{indent}"))
            .unwrap_or_default();
        return Some(vec![Edit::replace(
            Span::new(map.start, x_end),
            format!("{prefix}{body}"),
        )]);
    }
    // A scalar, flow collection or alias: its lines stay where they are, which is deeper
    // than the mapping's parent; it moves up to the parent's key when nothing but a line
    // break separates them.
    let edit = match (parent_colon(doc, call.map), comment) {
        (Some(at), None) => Edit::replace(Span::new(at, x_start), " "),
        (Some(at), Some(c)) => Edit::replace(Span::new(at, x_start), format!(" {c}{nl}{indent}")),
        (None, None) => Edit::delete(Span::new(map.start, x_start)),
        (None, Some(c)) => Edit::replace(Span::new(map.start, x_start), format!("{c}{nl}{indent}")),
    };
    Some(vec![edit])
}

/// `{Fn::Base64: X}` → `X`: deletes what is around `X`, keeping any comment.
fn unwrap_flow(src: &str, map: Span, colon: usize, x_start: usize, post: Span) -> Vec<Edit> {
    let mut edits = Vec::new();
    // Before X: `{Fn::Base64:` and the spaces after it; a comment there stays.
    let rest = src.get(colon..x_start).unwrap_or_default();
    if rest.contains('#') {
        edits.push(Edit::delete(Span::new(map.start, colon)));
    } else {
        edits.push(Edit::delete(Span::new(map.start, x_start)));
    }
    // After X: spaces, a trailing comma, comments, `}`.
    let tail = src.get(post.range()).unwrap_or_default();
    if tail.contains('#') {
        let mut kept = String::with_capacity(tail.len());
        for line in tail.split_inclusive('\n') {
            let (code, comment) = line.split_at(line.find('#').unwrap_or(line.len()));
            kept.extend(code.chars().filter(|&c| c != ',' && c != '}'));
            kept.push_str(comment);
        }
        edits.push(Edit::replace(post, kept));
    } else {
        edits.push(Edit::delete(post));
    }
    edits
}

/// The position just after the `:` of the key whose value is `map`, when only spaces and
/// one line break separate them (no comment, no anchor or tag).
fn parent_colon(doc: &Document, map: NodeId) -> Option<usize> {
    if doc.node(map).anchor.is_some() || doc.node(map).tag.is_some() {
        return None;
    }
    let src = doc.source();
    let key = doc.nodes().iter().find_map(|node| match &node.kind {
        NodeKind::Mapping { entries, .. } => entries.iter().find(|e| e.value == map).map(|e| e.key),
        _ => None,
    })?;
    let at = after_colon(src, doc.node(key).span.end)?;
    let between = src.get(at..doc.node(map).span.start)?;
    let only_space = between
        .chars()
        .all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'));
    (only_space && between.matches('\n').count() == 1).then_some(at)
}
