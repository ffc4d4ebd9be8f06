use hotfix_blueprint::Scope;

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::BlueprintContext;
use crate::rules::blueprint::undefined_node_template::{KEYWORDS, NODE_FUNCTIONS, shape_checked};

declare_rule! {
    /// ## What it does
    /// Checks for `SELF`, `SOURCE` and `TARGET` where they name no node: `SELF` outside a node
    /// template's properties and operation inputs, `SOURCE` and `TARGET` outside a
    /// relationship's operation inputs, any of them in outputs, capabilities or policies.
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded. For `get_property`: `SELF can only be
    /// used in a context of node template but appears in outputs.`, `TARGET can only be used
    /// within a relationship but is used in PATH`; for `get_attribute` (and
    /// `get_attributes_list`, `get_attributes_dict`): `SELF cannot be used with get_attribute
    /// function in PATH` (in capabilities and policies its check fails with a bare
    /// `KeyError: 'capabilities'`). It checks only calls none of whose arguments is a
    /// function.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    /// outputs:
    ///   ip: {value: {get_attribute: [SELF, ip]}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    /// outputs:
    ///   ip: {value: {get_attribute: [vm, ip]}}
    /// ```
    pub(crate) static RULE = {
        code: "C003",
        name: "invalid-node-keyword",
        severity: Error,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    for (_, call) in cx.validated_calls() {
        let name = call.function.name;
        if !NODE_FUNCTIONS.contains(&name) {
            continue;
        }
        let Some(items) = cx.arg_items(call) else {
            continue;
        };
        let Some(&first) = items.first() else {
            continue;
        };
        if !shape_checked(cx, name, items) {
            continue;
        }
        let Some(keyword) = cx.doc.str_value(first).filter(|k| KEYWORDS.contains(k)) else {
            continue;
        };
        let Some((why, quoted)) = misuse(name, keyword, call.scope) else {
            continue;
        };
        let diagnostic = sink.report(
            cx.span(first),
            format!("`{keyword}` names no node template {why}"),
        );
        diagnostic.primary_label(format!("`{keyword}` {}", allowed(keyword)));
        diagnostic.help(format!(
            "name the node template instead; Cloudify, on upload: `{quoted}`"
        ));
    }
}

/// Where each keyword may be used.
fn allowed(keyword: &str) -> &'static str {
    if keyword == "SELF" {
        "is allowed in a node template's properties and operation inputs"
    } else {
        "is allowed only in a relationship's operation inputs"
    }
}

/// Why `keyword` is refused in `scope`, and `dsl_parser`'s words, when it is.
fn misuse(function: &str, keyword: &str, scope: Scope) -> Option<(&'static str, String)> {
    let place = match scope {
        Scope::NodeTemplate { .. } => "in a node template",
        Scope::Relationship { .. } => "in a relationship's operation inputs",
        Scope::Outputs => "in outputs",
        Scope::Capabilities => "in capabilities",
        Scope::Policies => "in policies",
        Scope::Labels | Scope::DeploymentSettings | Scope::InputDefault => return None,
    };
    if function == "get_property" {
        return match keyword {
            "SELF" if !matches!(scope, Scope::NodeTemplate { .. }) => Some((
                place,
                format!(
                    "SELF can only be used in a context of node template but appears in {}.",
                    scope.dsl_name()
                ),
            )),
            "SOURCE" | "TARGET" if !matches!(scope, Scope::Relationship { .. }) => Some((
                place,
                format!("{keyword} can only be used within a relationship but is used in …"),
            )),
            _ => None,
        };
    }
    let refused = match scope {
        Scope::Outputs => true,
        Scope::Relationship { .. } => keyword == "SELF",
        Scope::NodeTemplate { .. } => keyword != "SELF",
        Scope::Capabilities | Scope::Policies => {
            return Some((place, format!("KeyError: '{}'", scope.dsl_name())));
        }
        _ => false,
    };
    refused.then(|| {
        (
            place,
            format!("{keyword} cannot be used with {function} function in …"),
        )
    })
}
