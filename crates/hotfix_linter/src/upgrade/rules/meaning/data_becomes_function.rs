use hotfix_diagnostics::Severity;
use hotfix_hot::{Availability, ConditionAvailability, Context, Owner, owner_definition};

use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Reports a map with a single key, in a field Heat parses (properties, metadata,
    /// outputs, conditions, …), whose key is not a function in the version the template
    /// leaves but is one in the next: `{repeat: …}` and `{digest: …}` from 2015-04-30,
    /// `{str_split: …}` from 2015-10-15, `{map_merge: …}` from 2016-04-08, `{if: …}`,
    /// `{yaql: …}`, `{map_replace: …}` from 2016-10-14, `{filter: …}` from 2017-02-24,
    /// `{contains: …}`, `{list_concat: …}`, `{make_url: …}` from 2017-09-01 (and `yaql`,
    /// `contains` in conditions from 2017-09-01).
    ///
    /// ## Why is this bad?
    /// Heat treats a map as a function call exactly when it has one key and the key is in the
    /// version's table; any other map is data. So the same text is a literal map before the
    /// upgrade and a call after it. Heat's engine shows it: in 2013-05-23 an output
    /// `{str_split: [",", "a,b"]}` resolves to that map, `{"str_split": [",", "a,b"]}`; in
    /// 2015-10-15 to `["a", "b"]`. In 2016-04-08 `{if: [true, a, b]}` is the map, in
    /// 2016-10-14 it is `a`; in 2017-02-24 `{contains: [a, [a]]}` is the map, in 2017-09-01
    /// it is `true`.
    ///
    /// In a condition the new name can also be a value function, which Heat rejects there
    /// (an error: it blocks the step): `{equals: [{list_concat: [[1], [2]]}, [1, 2]]}` is a
    /// false condition in 2017-02-24 and, in 2017-09-01, `conditions.c.equals[0].list_concat:
    /// The function "list_concat" is invalid in this context`.
    ///
    /// There is no fix: quoting the key changes nothing (Heat compares the loaded key). If
    /// the map is meant as data, restructure it so that it is not a single-key map, e.g. add
    /// a key or wrap it in a map of two keys (and change what reads it accordingly).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2017-02-24
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     metadata:
    ///       rule: {contains: [admin, users]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// # the data kept as data
    /// heat_template_version: 2017-09-01
    /// resources:
    ///   r:
    ///     type: OS::Heat::None
    ///     metadata:
    ///       rule: {op: contains, args: [admin, users]}
    /// ```
    pub(crate) static RULE = {
        code: "U901",
        name: "data-becomes-function",
        step: None,
        severity: Warning,
        check: check,
    };
}

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    let doc = cx.doc;
    let (from, to) = (ucx.from, ucx.to);
    for data in &cx.semantic.data_maps {
        let entries = doc.entries(data.map);
        let [entry] = entries.as_slice() else {
            continue;
        };
        let Some(name) = doc.str_value(entry.key) else {
            continue;
        };
        // A map an earlier rewrite of this upgrade wrote (U106 writes `str_split` for
        // `Fn::Split`) is meant to become a call.
        if ucx.is_written(cx.span(entry.key)) {
            continue;
        }
        // Whether the key becomes a call, or (in a condition) a value function Heat rejects.
        let rejected = match data.context {
            Context::Value => match (from.function(name), to.function(name)) {
                (Availability::Data, Availability::Function(_)) => false,
                _ => continue,
            },
            Context::Condition => {
                match (from.condition_function(name), to.condition_function(name)) {
                    (ConditionAvailability::Data, ConditionAvailability::Function(_)) => false,
                    (ConditionAvailability::Data, ConditionAvailability::Invalid(_)) => true,
                    _ => continue,
                }
            }
        };
        let definition = &owner_definition(cx.template, data.owner).name;
        let place = match data.owner {
            Owner::Resource(_) => format!("`{}` of resource `{definition}`", data.field),
            Owner::Output(_) => format!("`{}` of output `{definition}`", data.field),
            Owner::Condition(_) => format!("condition `{definition}`"),
        };
        let span = cx.span(entry.key);
        if rejected {
            let diagnostic = sink.report(
                span,
                format!(
                    "`{{{name}: …}}` is a plain map in {from} ({place}); in {to} Heat rejects it: `The function \"{name}\" is invalid in this context`"
                ),
            );
            diagnostic.severity = Severity::Error;
            diagnostic.help(
                "restructure the map so that it is not a single-key map (quoting the key does not help), or compute the value elsewhere (a parameter) and compare that",
            );
        } else {
            let diagnostic = sink.report(
                span,
                format!(
                    "`{{{name}: …}}` is a plain map in {from} ({place}); from {to} Heat calls `{name}` on it"
                ),
            );
            diagnostic.help(
                "if it is meant as data, restructure it so that it is not a single-key map, e.g. add a key or wrap it in a map of two keys (quoting the key does not help); if the call is meant, check its arguments",
            );
        }
    }
}
