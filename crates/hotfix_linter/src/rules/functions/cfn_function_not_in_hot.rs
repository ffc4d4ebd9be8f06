use hotfix_hot::{NEVER_HOT_FUNCTIONS, Version};

use super::shared::unique_data_maps;
use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for a single-key mapping whose key is a CloudFormation-style function that no HOT
    /// version has ever had: `Fn::GetAtt`, `Fn::If`, `Fn::Equals`, `Fn::And`, `Fn::Or`,
    /// `Fn::Not`, `Fn::Sub`, `Fn::FindInMap`, `Fn::ImportValue`, `Fn::Cidr`, `Fn::Transform`,
    /// `Fn::Length`; and any other `Prefix::Name` key that looks like a function but is none,
    /// such as TripleO's pre-processor construct `Merge::Map`. (A whole condition definition
    /// that is not a call is left to `invalid-condition-definition`.)
    ///
    /// ## Why is this bad?
    /// Heat does not complain: in a HOT template these names are not functions, so the
    /// mapping is plain data and `{"Fn::GetAtt": [server, first_address]}` is passed on
    /// unchanged instead of the attribute's value. The property or output then holds the
    /// mapping, which fails later (if a property schema rejects it) or silently does the wrong
    /// thing. Use the HOT function instead (`get_attr`, `if`, `equals`, `str_replace`, …).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties: {image: cirros, flavor: m1.tiny}
    /// outputs:
    ///   ip:
    ///     value: {"Fn::GetAtt": [server, first_address]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties: {image: cirros, flavor: m1.tiny}
    /// outputs:
    ///   ip:
    ///     value: {get_attr: [server, first_address]}
    /// ```
    pub(crate) static RULE = {
        code: "H204",
        name: "cfn-function-not-in-hot",
        severity: Warning,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    for data in unique_data_maps(cx) {
        let entries = cx.doc.entries(data.map);
        let [entry] = entries.as_slice() else {
            continue;
        };
        let Some(name) = cx.doc.str_value(entry.key) else {
            continue;
        };
        if !NEVER_HOT_FUNCTIONS.contains(&name) {
            if looks_like_a_function(name) {
                sink.report(
                    cx.span(entry.key),
                    format!("`{name}` looks like a function, but no Heat version has it"),
                )
                .primary_label("Heat treats this mapping as data")
                .help(format!(
                    "Heat passes the mapping on unchanged; `{name}` may belong to a pre-processor (TripleO's merge tool had `Merge::Map`): resolve it before Heat sees the template"
                ));
            }
            continue;
        }
        sink.report(
            cx.span(entry.key),
            format!("`{name}` is a CloudFormation function, not a HOT function"),
        )
        .primary_label("Heat treats this mapping as data")
        .help(format!(
            "{}; Heat does not call `{name}` in a HOT template and passes the mapping on unchanged",
            equivalent(name, version)
        ));
    }
}

/// The HOT way to do what the CloudFormation-style function does.
/// `Prefix::Name` with one `::`, capitalised parts and no function of that name in any
/// version: CloudFormation's style, or a pre-processor's (`Merge::Map`). Resource types
/// (`OS::Nova::Server`) have two `::`.
fn looks_like_a_function(name: &str) -> bool {
    let Some((prefix, function)) = name.split_once("::") else {
        return false;
    };
    let word = |w: &str| {
        w.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && w.chars().all(|c| c.is_ascii_alphanumeric())
    };
    word(prefix) && word(function) && hotfix_hot::Function::from_name(name).is_none()
}

fn equivalent(name: &str, version: Version) -> String {
    let conditions = version >= Version::V2016_10_14;
    let needs_newton = if conditions {
        ""
    } else {
        " (needs heat_template_version 2016-10-14 or later)"
    };
    match name {
        "Fn::GetAtt" => "use `get_attr: [resource, attribute]`".to_owned(),
        "Fn::If" => format!("use `if: [condition, value_if_true, value_if_false]`{needs_newton}"),
        "Fn::Equals" => format!("use `equals: [value_1, value_2]` in a condition{needs_newton}"),
        "Fn::And" | "Fn::Or" | "Fn::Not" => {
            let hot = name.trim_start_matches("Fn::").to_lowercase();
            format!("use `{hot}` in a condition{needs_newton}")
        }
        "Fn::Sub" => "use `str_replace: {template: …, params: …}`".to_owned(),
        "Fn::FindInMap" => "HOT has no mappings: put the map in a `json` parameter and read it with `get_param: [name, key, …]`".to_owned(),
        "Fn::Length" if version >= Version::V2016_10_14 => {
            "use `yaql: {expression: $.data.l.len(), data: {l: …}}`".to_owned()
        }
        _ => "HOT has no equivalent: pass the value in a parameter".to_owned(),
    }
}
