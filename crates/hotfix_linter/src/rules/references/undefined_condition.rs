use hotfix_diagnostics::Severity;
use hotfix_hot::{Function, Owner, RefKind, Version};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::references::shared::{
    Paths, by_name, call_of, owner_name, section_usable, used_conditions, with_heat,
};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every condition name — a resource's or output's `condition`, the first
    /// argument of `if`, an argument of `not`, `and` or `or` — is defined in `conditions`.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `Invalid condition "nope"` (e.g.
    /// `resources.r.condition: Invalid condition "nope"`). In a condition that nothing uses,
    /// the name is only looked up once something uses the condition: there the finding is a
    /// warning (Heat accepts the template as it is).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   env: {type: string, default: dev}
    /// conditions:
    ///   is_prod: {equals: [{get_param: env}, prod]}
    /// resources:
    ///   backup:
    ///     type: OS::Heat::None
    ///     condition: is_production
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   env: {type: string, default: dev}
    /// conditions:
    ///   is_prod: {equals: [{get_param: env}, prod]}
    /// resources:
    ///   backup:
    ///     type: OS::Heat::None
    ///     condition: is_prod
    /// ```
    pub(crate) static RULE = {
        code: "H305",
        name: "undefined-condition",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none_or(|v| v < Version::V2016_10_14) || !section_usable(cx, "conditions") {
        return;
    }
    let conditions = by_name(&cx.template.conditions);
    let mut paths = Paths::new(cx);
    let used_conditions = used_conditions(cx);
    for reference in cx.semantic.references(RefKind::Condition) {
        let name = reference.name.as_str();
        if conditions.contains_key(name) {
            continue;
        }
        let invalid = format!("Invalid condition \"{name}\"");
        let call = call_of(cx, reference);
        let heat = match (call, reference.owner) {
            // A name directly in a resource's or output's `condition` field.
            (None, Owner::Resource(_)) => format!(
                "resources.{}.condition: {invalid}",
                owner_name(cx, reference.owner)
            ),
            (None, Owner::Output(_)) => format!(
                "outputs.{}.condition: {invalid}",
                owner_name(cx, reference.owner)
            ),
            // The first argument of an `if`.
            (Some(call), _) if call.status.function() == Function::If => {
                match paths.parse_path(call) {
                    Some(path) => format!("{path}: {invalid}"),
                    None => invalid,
                }
            }
            _ => invalid,
        };
        let unused = match reference.owner {
            Owner::Condition(i) => !used_conditions[i],
            _ => false,
        };
        let when = if unused {
            " (once something uses this condition; nothing does yet, so Heat accepts the \
             template)"
        } else if matches!(reference.owner, Owner::Condition(_)) {
            " (once something uses this condition)"
        } else {
            ""
        };
        let names = cx.template.conditions.iter().map(|c| c.name.as_str());
        let advice = match did_you_mean(name, names) {
            Some(suggestion) => format!("did you mean `{suggestion}`?"),
            None if matches!(name, "true" | "false" | "True" | "False") => format!(
                "write the boolean without quotes (`{}`), or define `{name}` under `conditions`",
                name.to_lowercase()
            ),
            None => format!("define `{name}` under `conditions`"),
        };
        let finding = sink
            .report(
                cx.span(reference.node),
                format!("condition `{name}` is not defined"),
            )
            .help(with_heat(&advice, &format!("Heat: `{heat}`{when}")));
        if unused {
            finding.severity = Severity::Warning;
        }
    }
}
