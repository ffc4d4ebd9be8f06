use hotfix_diagnostics::Severity;
use hotfix_hot::{Call, Function, Owner};

use super::args::{self, Phase};
use super::shared::{View, is_active, unique_calls};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::references::shared::used_conditions;
use crate::rules::util::{in_never_created, output_never_shown};

declare_rule! {
    /// ## What it does
    /// Checks the shape of the arguments of every function call against what Heat's function
    /// classes accept in the declared version: `get_param`, `get_attr`, `get_resource`,
    /// `list_join`, `str_replace` (and `_strict`, `_vstrict`), `str_split`, `digest`,
    /// `map_merge`, `map_replace`, `resource_facade`, `filter`, `list_concat` (and `_unique`),
    /// `contains`, `make_url`, `yaql`, `equals`, and the CloudFormation-style functions of
    /// 2013-05-23 (`Fn::Join`, `Fn::Select`, `Fn::Split`, `Fn::Replace`, `Fn::Base64`,
    /// `Fn::MemberListToMap`, `Fn::ResourceFacade`, `Ref`). For example: `list_join` needs
    /// `[delimiter, list]` and cannot join numbers, `str_replace` needs `template` and
    /// `params`, `get_attr` needs a list, `make_url` knows only its eight keys and ports from
    /// 1 to 65535, `str_replace_strict` needs every placeholder to occur in the template.
    ///
    /// Only literal values are judged: a function call inside the arguments may return
    /// anything. But a call cannot stand for a whole argument that Heat checks before calling
    /// anything (`list_join: {get_param: x}` is not a list to Heat, whatever `x` holds). The
    /// argument of `get_file` is left to `non-literal-get-file`, the arguments of `if`, `not`,
    /// `and`, `or` to the conditions rules (`if-arguments`, …), and `repeat` to the `repeat`
    /// rules (`for-each-not-mapping`, …).
    ///
    /// ## Why is this bad?
    /// Heat rejects the call, with the error its function raises (quoted in each finding):
    /// some when it parses the template (`Incorrect arguments to "list_join" should be: …`),
    /// wherever the call is, even in a resource that is never created; some only when it
    /// resolves the value (`Items to join must be string, map or list not 80`), which
    /// `openstack orchestration template validate` does not catch. A resource's properties
    /// are resolved during stack create or update, so the stack fails. An output's value is
    /// resolved only when it is read (but for the arguments of `get_attr` and `get_resource`,
    /// resolved to find the resource): Heat accepts the template and creates the stack, and
    /// the output shows the error (`openstack stack output show`), so such a finding in an
    /// output is a warning, as it is in a condition that nothing uses (Heat resolves a
    /// condition only when a resource, an output or an `if` asks for it). A resource that is
    /// never created (`condition: false`) is never
    /// resolved, so it has no finding of the second kind, and an output whose condition is
    /// false whatever the inputs is not even validated, so it has none.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   host: {type: string}
    /// resources:
    ///   endpoint:
    ///     type: OS::Heat::Value
    ///     properties:
    ///       value: {list_join: [":", [{get_param: host}, 80]]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   host: {type: string}
    /// resources:
    ///   endpoint:
    ///     type: OS::Heat::Value
    ///     properties:
    ///       value: {list_join: [":", [{get_param: host}, "80"]]}
    /// ```
    pub(crate) static RULE = {
        code: "H205",
        name: "invalid-function-arguments",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let view = View::new(cx.doc, version, cx.semantic, &cx.template.resources);
    let mut used = None;
    for call in unique_calls(cx.semantic, is_active) {
        let Some(found) = args::check(&view, call) else {
            continue;
        };
        // Heat does not even validate an output whose condition is certainly false, and never
        // resolves anything in a resource it never creates.
        let resolved = found.when == Phase::Resolve;
        if output_never_shown(cx, call.owner) || (resolved && in_never_created(cx, call.owner)) {
            continue;
        }
        // It resolves an output's value only when the output is read (but for what a
        // reference names), and a condition only when something uses it.
        let read_only = resolved
            && matches!(call.owner, Owner::Output(_))
            && call.field == "value"
            && !in_reference(cx, call);
        let unused = resolved
            && match call.owner {
                Owner::Condition(i) => used
                    .get_or_insert_with(|| used_conditions(cx))
                    .get(i)
                    .is_some_and(|&used| !used),
                _ => false,
            };
        // An empty argument (`get_param:` with nothing) has an empty span: point at the key.
        let span = cx.span(found.node);
        let (span, elsewhere) = if span.is_empty() {
            (cx.span(call.key), false)
        } else {
            (span, found.node != call.args)
        };
        let diagnostic = sink.report(span, found.message);
        if elsewhere {
            diagnostic.label(
                cx.span(call.key),
                format!("in this `{}` call", call.status.function().name()),
            );
        }
        let separator = if found.advice.ends_with('?') { "" } else { ";" };
        let when = if read_only {
            diagnostic.severity = Severity::Warning;
            " (only when the output is read, as `openstack stack output show` does: Heat \
             accepts the template and creates the stack)"
        } else if unused {
            diagnostic.severity = Severity::Warning;
            " (as soon as a resource, output or `if` uses this condition; nothing does yet, so \
             Heat accepts the template)"
        } else {
            ""
        };
        diagnostic.help(format!(
            "{}{separator} Heat: `{}`{when}",
            found.advice, found.heat
        ));
    }
}

/// Whether a call is inside the arguments of a `get_attr`, `get_resource` or `Ref`: Heat
/// resolves those when it validates the template (to find the resource, and to check the
/// attribute), so an error there refuses the template even in an output.
fn in_reference(cx: &Context<'_>, call: &Call) -> bool {
    let inner = cx.doc.node(call.map).span;
    cx.semantic.calls.iter().any(|outer| {
        let within = cx.doc.node(outer.args).span;
        outer.owner == call.owner
            && outer.map != call.map
            && matches!(
                outer.status.function(),
                Function::GetAttr | Function::GetResource | Function::Ref
            )
            && within.start <= inner.start
            && inner.end <= within.end
    })
}
