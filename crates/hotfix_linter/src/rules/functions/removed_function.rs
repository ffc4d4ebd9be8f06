use hotfix_hot::{Availability, Call, CallStatus, Function, Version};
use hotfix_yaml::{NodeId, NodeKind};

use super::shared::unique_calls;
use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for CloudFormation-style functions that the declared HOT version has removed:
    /// `Fn::Select` from 2015-10-15, and `Fn::Join`, `Fn::Split`, `Fn::Replace`, `Fn::Base64`,
    /// `Fn::GetAZs`, `Fn::MemberListToMap`, `Fn::ResourceFacade` and `Ref` from 2014-10-16.
    /// Only 2013-05-23 (and 2014-10-16, 2015-04-30 for `Fn::Select`) still has them.
    ///
    /// ## Why is this bad?
    /// Heat rejects the template when it validates the call: `The template version is
    /// invalid: The function Fn::Join is not supported in this version of HOT.` Heat only
    /// validates what it uses, so a removed function inside the branch of an `if` that is not
    /// taken, or in a resource or output whose condition is false, slips through until the
    /// condition changes; it is reported here anyway. Each has a HOT replacement (`list_join`,
    /// `str_replace`, `str_split`, `get_param`, `get_resource`, path-based `get_attr`), and
    /// `hotfix upgrade` rewrites the ones that have an exact equivalent.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   names: {type: comma_delimited_list}
    /// outputs:
    ///   joined:
    ///     value: {"Fn::Join": [",", {get_param: names}]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   names: {type: comma_delimited_list}
    /// outputs:
    ///   joined:
    ///     value: {list_join: [",", {get_param: names}]}
    /// ```
    pub(crate) static RULE = {
        code: "H201",
        name: "removed-function",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    for call in unique_calls(cx.semantic, |c| matches!(c.status, CallStatus::Removed(_))) {
        let function = call.status.function();
        let name = function.name();
        let removed = match function.removed_in() {
            Some(removed) if removed == version => ", which removed it".to_owned(),
            Some(removed) => format!(" (removed in {removed})"),
            None => String::new(),
        };
        sink.report(
            cx.span(call.key),
            format!("`{name}` is not supported in heat_template_version {version}{removed}"),
        )
        .help(format!(
            "{}{}. Heat: `The template version is invalid: The function {name} is not supported in this version of HOT.`",
            replacement(cx, call, version),
            upgrade_note(function, version)
        ));
    }
    check_unparsed(cx, sink, version);
}

/// What to write instead.
/// Removed functions under resource keys Heat does not know (`parameters:`, `Path:` in
/// pre-HOT style templates): Heat rejects the key before it parses the value, but the
/// function is just as removed, and the template was plainly written for an older version.
fn check_unparsed(cx: &Context<'_>, sink: &mut Sink<'_>, version: Version) {
    const PARSED: [&str; 9] = [
        "type",
        "properties",
        "metadata",
        "update_policy",
        "deletion_policy",
        "external_id",
        "condition",
        "depends_on",
        "description",
    ];
    for resource in &cx.template.resources {
        for entry in cx.doc.entries(resource.value) {
            let Some(key) = cx.doc.str_value(entry.key) else {
                continue;
            };
            if PARSED.contains(&key) {
                continue;
            }
            let mut stack = vec![entry.value];
            while let Some(node) = stack.pop() {
                let node = cx.doc.resolve(node);
                match &cx.doc.node(node).kind {
                    NodeKind::Sequence { items, .. } => stack.extend(items.iter().rev()),
                    NodeKind::Mapping { .. } => {
                        let entries = cx.doc.entries(node);
                        if let [only] = entries.as_slice()
                            && let Some(function) = removed(cx, only.key, version)
                        {
                            sink.report(
                                    cx.span(only.key),
                                    format!(
                                        "`{}` is not supported in heat_template_version {version}",
                                        function.name()
                                    ),
                                )
                                .help(format!(
                                    "the template was written for an older version: `{key}` is not a resource key, so Heat rejects it before reaching this function. Heat: `The template version is invalid: The function {} is not supported in this version of HOT.`",
                                    function.name()
                                ));
                        }
                        stack.extend(entries.iter().rev().map(|e| e.value));
                    }
                    NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
                }
            }
        }
    }
}

fn removed(cx: &Context<'_>, key: NodeId, version: Version) -> Option<Function> {
    match version.function(cx.doc.str_value(key)?) {
        Availability::Removed(function) => Some(function),
        _ => None,
    }
}

fn replacement(cx: &Context<'_>, call: &Call, version: Version) -> String {
    match call.status.function() {
        Function::FnJoin => "use `list_join: [delimiter, list]`, which behaves the same".to_owned(),
        Function::FnSelect => "index with a path instead: `get_param: [name, index]`, `get_attr: [resource, attribute, index]`, or `str_split: [delimiter, string, index]`".to_owned(),
        Function::Ref => ref_replacement(cx, call),
        Function::FnBase64 => {
            "use the value itself: Heat's `Fn::Base64` never encoded anything".to_owned()
        }
        Function::FnReplace => "use `str_replace: {template: …, params: …}` (`Fn::Replace` takes `[params, template]`, in the other order)".to_owned(),
        Function::FnResourceFacade => {
            "use `resource_facade` with `metadata`, `deletion_policy` or `update_policy`".to_owned()
        }
        Function::FnSplit if version.functions().contains(&Function::StrSplit) => {
            "use `str_split: [delimiter, string]`".to_owned()
        }
        Function::FnSplit => format!(
            "HOT has no split function in {version}: `str_split` needs heat_template_version 2015-10-15 or later"
        ),
        Function::FnGetAzs => {
            "HOT has no equivalent: pass the availability zones in a parameter".to_owned()
        }
        Function::FnMemberListToMap => {
            "HOT has no equivalent: pass the map in a `json` parameter".to_owned()
        }
        other => format!("replace `{}` with a HOT function", other.name()),
    }
}

/// Whether `hotfix upgrade` can do it for the user.
fn upgrade_note(function: Function, version: Version) -> &'static str {
    match function {
        Function::FnGetAzs | Function::FnMemberListToMap => "",
        Function::FnSplit if !version.functions().contains(&Function::StrSplit) => {
            "; `hotfix upgrade` to 2015-10-15 or later rewrites it"
        }
        _ => "; `hotfix upgrade` rewrites it where the rewrite is exact",
    }
}

/// `Ref: x` becomes `get_resource: x` when `x` is a resource, else `get_param: x`.
fn ref_replacement(cx: &Context<'_>, call: &Call) -> String {
    match cx.doc.str_value(call.args) {
        Some(name) if cx.template.resource(name).is_some() => {
            format!("use `get_resource: {name}` (`{name}` is a resource)")
        }
        Some(name) if cx.template.parameter(name).is_some() || name.starts_with("OS::") => {
            format!("use `get_param: {name}` (`{name}` is a parameter)")
        }
        _ => "use `get_param: name` for a parameter or `get_resource: name` for a resource"
            .to_owned(),
    }
}
