use crate::rule::{Context, Sink, declare_rule};
use crate::rules::outputs::shared::{NEWTON, mapping_outputs};

declare_rule! {
    /// ## What it does
    /// Checks for a `condition` on an output when the declared version is older than
    /// 2016-10-14 (newton), the first with conditions.
    ///
    /// ## Why is this bad?
    /// Heat silently ignores the key: the output's `value` is always computed, whatever the
    /// condition says. When the template is used as a nested or provider template, Heat
    /// refuses it: `"condition" is not a valid keyword inside a output definition`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-04-08
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// outputs:
    ///   server_id:
    ///     value: {get_resource: server}
    ///     condition: with_server
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// conditions:
    ///   with_server: true
    /// resources:
    ///   server: {type: OS::Heat::None}
    /// outputs:
    ///   server_id:
    ///     value: {get_resource: server}
    ///     condition: with_server
    /// ```
    pub(crate) static RULE = {
        code: "H704",
        name: "output-condition-ignored",
        severity: Warning,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    if version >= NEWTON {
        return;
    }
    for output in mapping_outputs(cx) {
        let Some(key) = cx.doc.get_key(output.value, "condition") else {
            continue;
        };
        sink.report(
            cx.span(key),
            format!(
                "`condition` on output `{}` is ignored in {version}: the value is always computed",
                output.name
            ),
        )
        .help(
            "output conditions need heat_template_version 2016-10-14 (newton) or later; upgrade, or remove `condition`. As a nested or provider template, Heat refuses it: `\"condition\" is not a valid keyword inside a output definition`",
        );
    }
}
