use hotfix_hot::resource_types;
use hotfix_hot::{CallStatus, Function, Version};
use hotfix_yaml::{NodeId, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::Value;
use crate::rules::resources::param_ref::{ParamRef, get_param};
use crate::rules::resources::shared::{Registered, call_at, validated_resources};
use hotfix_hot::parameter_schema::ParameterType;

declare_rule! {
    /// ## What it does
    /// Checks the `deletion_policy` of a resource of a registered type: `Snapshot` (or
    /// `snapshot`, from 2016-10-14) on a type that cannot snapshot (only `OS::Cinder::Volume`,
    /// `OS::Nova::Server`, `OS::Heat::DeployedServer` and `AWS::EC2::Volume` can), and a
    /// policy read with `{get_param: NAME}` that is never a policy (a `number`, `boolean` or
    /// `comma_delimited_list` parameter) or whose default is not one Heat accepts for the
    /// version and type. A branch of an `if` is checked as if it were chosen.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template when it validates it, before anything is created:
    /// `resources.backup.deletion_policy: "Snapshot" deletion policy not supported`. A
    /// policy read from a parameter is checked when Heat reads the template with the
    /// parameter's value: a parameter whose default is not a policy fails
    /// `openstack orchestration template validate` (without a value for it) and any stack
    /// create that gives it no value (`Invalid deletion policy "Keep"`); a `number` or
    /// `boolean` parameter always fails (`Invalid deletion policy "1"`), and so does a list
    /// or a map (`unhashable type: 'list'`).
    ///
    /// A literal policy Heat does not know at all (`retain` before 2016-10-14, `Keep`) is
    /// `invalid-deletion-policy`'s. Not checked: a `json` default written as a string, a
    /// default whose parameter has constraints other than `allowed_values` listing it (Heat
    /// checks those first).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   port:
    ///     type: OS::Neutron::Port
    ///     deletion_policy: Snapshot
    ///     properties: {network: private}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   port:
    ///     type: OS::Neutron::Port
    ///     deletion_policy: Retain
    ///     properties: {network: private}
    /// ```
    pub(crate) static RULE = {
        code: "H617",
        name: "snapshot-unsupported",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// How deep nested `if`s are followed.
const MAX_DEPTH: usize = 64;

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    for registered in validated_resources(cx) {
        if let Some(value) = cx.template.field(registered.resource, "deletion_policy") {
            check_value(cx, sink, version, &registered, value, 0, false);
        }
    }
}

fn check_value(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    version: Version,
    registered: &Registered<'_>,
    value: NodeId,
    depth: usize,
    in_if: bool,
) {
    let doc = cx.doc;
    // Heat reads a branch of an `if` only when the condition chooses it.
    let when = if in_if {
        " when the `if` chooses this branch"
    } else {
        ""
    };
    if let Some(param) = get_param(cx, value) {
        check_param(cx, sink, version, registered, value, &param, when);
        return;
    }
    if let Some(call) = call_at(cx, value) {
        if call.status == CallStatus::Active(Function::If)
            && depth < MAX_DEPTH
            && let Some(items) = doc.items(call.args)
        {
            for &branch in items.iter().skip(1) {
                check_value(cx, sink, version, registered, branch, depth + 1, true);
            }
        }
        return;
    }
    let Some(scalar) = doc.scalar(value) else {
        return;
    };
    if !matches!(scalar.value, ScalarValue::Str) {
        return;
    }
    let text: &str = &scalar.text;
    // Another spelling is `invalid-deletion-policy`'s.
    if !is_snapshot(version, text) || registered.schema.snapshot {
        return;
    }
    sink.report(
        cx.span(value),
        format!(
            "{} cannot snapshot: `{text}` is not a deletion policy it supports",
            registered.type_name
        ),
    )
    .help(format!(
        "template validate fails{when}; use `Delete` or `Retain` ({}); Heat: `\"Snapshot\" deletion policy not supported`",
        can_snapshot()
    ));
}

fn check_param(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    version: Version,
    registered: &Registered<'_>,
    value: NodeId,
    param: &ParamRef<'_>,
    when: &str,
) {
    let name = &param.param.name;
    let ty = param.ty.name();
    let default = param.default.as_ref();
    // `deletion_policy not in deletion_policies`: a number or a boolean is never one of the
    // names, and a list or a map cannot be looked up at all.
    let never = match param.ty {
        ParameterType::Number | ParameterType::Boolean => Some(format!(
            "Invalid deletion policy \"{}\"",
            default.map_or_else(|| "…".to_owned(), |(d, _)| d.py_str())
        )),
        ParameterType::CommaDelimitedList => Some("unhashable type: 'list'".to_owned()),
        ParameterType::String | ParameterType::Json => None,
    };
    if let Some(heat) = never {
        sink.report(
            cx.span(value),
            format!("the {ty} parameter `{name}` is never a deletion policy"),
        )
        .label(cx.span(param.type_node), format!("declared as {ty} here"))
        .help(format!(
            "Heat refuses the template whatever the value (template validate fails{when}); declare `{name}` as a string with `allowed_values: [{}]`; Heat: `{heat}`",
            policies(version, registered.schema.snapshot)
        ));
        return;
    }
    let Some((default, node)) = default else {
        return;
    };
    let (message, heat) = match default {
        Value::Str(text) if is_snapshot(version, text) => {
            if registered.schema.snapshot {
                return;
            }
            (
                format!(
                    "the default `{text}` of parameter `{name}` is a deletion policy {} does not support",
                    registered.type_name
                ),
                "\"Snapshot\" deletion policy not supported".to_owned(),
            )
        }
        Value::Str(text) if version.deletion_policies().contains(&text.as_str()) => return,
        Value::Str(text) => (
            format!(
                "the default `{text}` of parameter `{name}` is not a deletion policy in {version}"
            ),
            format!("Invalid deletion policy \"{text}\""),
        ),
        Value::List(_) | Value::Map(_) => (
            format!(
                "the default of parameter `{name}` is a {}, not a deletion policy",
                default.type_name()
            ),
            format!("unhashable type: '{}'", default.type_name()),
        ),
        _ => return,
    };
    sink.report(cx.span(value), message)
        .label(cx.span(*node), "the default")
        .help(format!(
            "template validate without a value for `{name}`, and a stack create that gives none, fail{when}; use one of {}; Heat: `{heat}`",
            policies(version, registered.schema.snapshot)
        ));
}

/// Whether `text` is the version's spelling of `Snapshot`.
fn is_snapshot(version: Version, text: &str) -> bool {
    text.eq_ignore_ascii_case("snapshot") && version.deletion_policies().contains(&text)
}

/// The policies of the version the type supports: `Delete, Retain, Snapshot`.
fn policies(version: Version, snapshot: bool) -> String {
    version
        .deletion_policies()
        .iter()
        .filter(|p| snapshot || !p.eq_ignore_ascii_case("snapshot"))
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// The types that can snapshot, from Heat's registry.
fn can_snapshot() -> String {
    let names: Vec<&str> = resource_types::all()
        .iter()
        .filter(|(_, t)| t.snapshot)
        .map(|(name, _)| name)
        .collect();
    format!("only {} can snapshot", names.join(", "))
}

#[cfg(test)]
mod tests {
    use hotfix_hot::resource_types;

    #[test]
    fn the_docs_name_every_type_that_can_snapshot() {
        let doc = super::RULE.documentation();
        let what = doc.split("## Why").next().expect("a first section");
        let what = what.split_whitespace().collect::<Vec<_>>().join(" ");
        let listed = what
            .split("(only ")
            .nth(1)
            .and_then(|rest| rest.split(" can)").next())
            .expect("the docs list the types that can snapshot");
        let mut named: Vec<&str> = listed
            .split(['`', ',', ' '])
            .filter(|w| w.contains("::"))
            .collect();
        named.sort_unstable();
        let snapshot: Vec<&str> = resource_types::all()
            .iter()
            .filter(|(_, t)| t.snapshot)
            .map(|(name, _)| name)
            .collect();
        assert_eq!(named, snapshot);
    }
}
