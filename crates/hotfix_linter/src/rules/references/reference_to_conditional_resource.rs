use std::collections::HashMap;

use hotfix_hot::{Call, Owner, RefKind, Version, owner_definition};
use hotfix_yaml::{NodeId, Span};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::references::shared::{
    Paths, by_name, calls_by_map, contains, implies, is_value_if, literal_condition, section_usable,
};

declare_rule! {
    /// ## What it does
    /// Checks `get_resource` and `get_attr` that refer to a resource with a `condition`, when
    /// nothing guarantees that the condition holds where the reference is used: the referring
    /// resource or output does not have the same condition, and the reference is not in a
    /// branch of an `if` on that condition.
    ///
    /// ## Why is this bad?
    /// When the condition is false the resource does not exist and Heat fails, e.g.
    /// `The specified reference "db" (in app.Properties.metadata.db_host) is incorrect.` (in an
    /// output:
    /// `outputs.o.value.get_attr: The specified reference "db" (in unknown) is incorrect.`).
    /// A `depends_on` naming such a resource is fine: Heat silently ignores it when the resource is
    /// disabled.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   with_db: {type: boolean, default: false}
    /// conditions:
    ///   has_db: {get_param: with_db}
    /// resources:
    ///   db:
    ///     type: OS::Nova::Server
    ///     condition: has_db
    ///   app:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       metadata:
    ///         db_host: {get_attr: [db, first_address]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   with_db: {type: boolean, default: false}
    /// conditions:
    ///   has_db: {get_param: with_db}
    /// resources:
    ///   db:
    ///     type: OS::Nova::Server
    ///     condition: has_db
    ///   app:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       metadata:
    ///         db_host: {if: [has_db, {get_attr: [db, first_address]}, '']}
    /// ```
    pub(crate) static RULE = {
        code: "H303",
        name: "reference-to-conditional-resource",
        severity: Warning,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none_or(|v| v < Version::V2016_10_14) || !section_usable(cx, "resources") {
        return;
    }
    let calls = calls_by_map(cx);
    let mut ifs: HashMap<Owner, Vec<&Call>> = HashMap::new();
    for call in cx.semantic.calls.iter().filter(|c| is_value_if(c)) {
        ifs.entry(call.owner).or_default().push(call);
    }
    let resources = by_name(&cx.template.resources);
    let mut paths = Paths::new(cx);
    for reference in &cx.semantic.references {
        let function = match reference.kind {
            RefKind::Resource => "get_resource",
            RefKind::Attribute => "get_attr",
            _ => continue,
        };
        let Some(&target) = resources.get(reference.name.as_str()) else {
            continue;
        };
        if !cx.template.is_mapping(target.value) {
            continue;
        }
        let Some(condition) = cx.template.field(target, "condition") else {
            continue;
        };
        let literal = literal_condition(cx, condition);
        if literal == Some(true) {
            continue;
        }
        let name = cx.doc.str_value(condition);
        if name.is_some_and(|n| cx.template.condition(n).is_none()) {
            // An undefined condition: H305 reports it.
            continue;
        }
        // The referring resource or output exists only when its own condition holds.
        let owner = owner_definition(cx.template, reference.owner);
        let owner_condition = match reference.owner {
            Owner::Resource(_) | Owner::Output(_) => cx.template.field(owner, "condition"),
            Owner::Condition(_) => None,
        };
        if owner_condition.is_some_and(|c| implies(cx, &calls, c, true, condition)) {
            continue;
        }
        let at = cx.span(reference.node);
        let ifs_here = ifs.get(&reference.owner).map_or(&[][..], Vec::as_slice);
        let guard = branch_guard(cx, &calls, ifs_here, at, condition);
        if guard == Guard::Guarded {
            continue;
        }
        let wrong_branch = guard == Guard::WrongBranch;
        let resource = &target.name;
        let message = match (literal, name) {
            (Some(false), _) => format!(
                "`{function}` refers to `{resource}`, which is never created (its condition is false)"
            ),
            (_, Some(c)) => format!(
                "`{function}` refers to `{resource}`, which exists only when condition `{c}` is true"
            ),
            _ => format!(
                "`{function}` refers to `{resource}`, which exists only when its condition is true"
            ),
        };
        let kind = match reference.owner {
            Owner::Output(_) => "output",
            _ => "resource",
        };
        let heat = paths.missing_resource_error(reference);
        let help = if literal == Some(false) {
            format!("remove the reference or the resource's `condition`; Heat fails: `{heat}`")
        } else if wrong_branch {
            format!(
                "the reference is in the branch of the `if` taken when `{resource}` does not \
                 exist; move it to the other branch. Heat fails: `{heat}`"
            )
        } else {
            let inside = name.map_or_else(
                || "an `if` on the same condition".to_owned(),
                |guard| format!("`if: [{guard}, …, …]`"),
            );
            format!(
                "use the reference inside {inside}, or give {kind} `{}` the same condition; \
                 when `{resource}` is disabled Heat fails: `{heat}`",
                owner.name
            )
        };
        let label = if literal == Some(false) {
            format!("`{resource}` is never created")
        } else {
            format!("`{resource}` exists only when this is true")
        };
        sink.report(at, message)
            .label(cx.span(condition), label)
            .help(help);
    }
}

/// What the `if`s around a reference say about a resource's condition.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Guard {
    /// In a branch taken only when the condition holds.
    Guarded,
    /// In a branch taken only when the condition does not hold.
    WrongBranch,
    /// Nothing known.
    None,
}

/// Whether the reference at `at` lies in a branch of one of `ifs` that is taken only when
/// `condition` holds (or only when it does not). Branch nodes' spans contain the spans of what
/// is inside them.
fn branch_guard(
    cx: &Context<'_>,
    calls: &HashMap<NodeId, &Call>,
    ifs: &[&Call],
    at: Span,
    condition: NodeId,
) -> Guard {
    let mut guard = Guard::None;
    for call in ifs {
        let items = cx.doc.items(call.args).unwrap_or_default();
        let Some((&test, branches)) = items.split_first() else {
            continue;
        };
        for (i, &branch) in branches.iter().enumerate() {
            if !contains(cx.span(cx.doc.resolve(branch)), at) {
                continue;
            }
            // The first branch is taken when the test is true, the second when it is false.
            let taken_when = i == 0;
            if implies(cx, calls, test, taken_when, condition) {
                return Guard::Guarded;
            }
            if implies(cx, calls, test, !taken_when, condition) {
                guard = Guard::WrongBranch;
            }
        }
    }
    guard
}
