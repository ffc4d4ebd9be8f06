use super::pyjson;
use super::shared::{
    Check, Outcome, build, check as check_constraint, constraint_items, default_for_constraints,
    definition, description, kinds, param_type, shown_value, span_in,
};
use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{self, Value};
use hotfix_hot::parameter_schema::{ConstraintKind, ParameterType};

declare_rule! {
    /// ## What it does
    /// Checks a parameter's literal `default` against its constraints, as Heat does when it
    /// validates the template: `range`, `length`, `modulo` (Python's `%`, so `-3 % 2 == 1`),
    /// `allowed_values` (compared after converting both sides to the parameter's type), and
    /// `allowed_pattern` (Python's `re.match`, which must cover the whole default). Custom
    /// constraints need the cloud and are not checked (template validate skips them for
    /// defaults too). Patterns that use regular expression features beyond the common ones
    /// (flags, named groups, look-around, back-references) are skipped, and so is a match that
    /// takes too many steps (Python's `re` backtracking for long, where Heat does not answer
    /// either); after twenty such matches in a template, its other patterns are not checked.
    ///
    /// Template validate checks the default as written; stack create checks the parsed value
    /// too, which differs for a `comma_delimited_list` default `''` (no items, not one empty
    /// item) and a `json` string (its parsed length, not the string's): those failures are
    /// reported as well.
    ///
    /// A default is data: Heat evaluates no function written in it, so `default: {list_join:
    /// …}` is checked as the map it is, as Heat checks it (`Invalid default {'list_join': …}`).
    /// Values computed from a default (a `get_param` of it inside a property) are checked
    /// against the property's constraints by `invalid-property-value`.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template, even in `openstack orchestration template validate`:
    /// `Parameter 'size' is invalid: Invalid default 40 (40 is out of range (min: 1, max: 10))`.
    /// A constraint's `description` replaces the text in parentheses. (An environment's
    /// `parameter_defaults` replaces the template's default before this check, so a template
    /// always deployed with one may never meet the error; the default is still wrong.)
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   size:
    ///     type: number
    ///     default: 40
    ///     constraints:
    ///       - range: {min: 1, max: 10}
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   size:
    ///     type: number
    ///     default: 4
    ///     constraints:
    ///       - range: {min: 1, max: 10}
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H406",
        name: "default-violates-constraint",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    let doc = cx.doc;
    // One budget for every pattern of the template: thousands that backtrack for long are not
    // each matched to their own limit.
    let steps = std::sync::atomic::AtomicUsize::new(hotfix_eval::regex::FILE_STEPS);
    for param in &cx.template.parameters {
        let (Some(map), Some(ty)) = (definition(cx, param), param_type(cx, param)) else {
            continue;
        };
        let Some(default_node) = doc.get(map, "default") else {
            continue;
        };
        let Some(raw) = py::load(doc, default_node) else {
            continue;
        };
        if matches!(raw, Value::None) {
            continue;
        }
        let Some(value) = default_for_constraints(ty, &raw) else {
            continue;
        };
        let create = create_value(ty, &raw);
        for item in constraint_items(doc, map) {
            let Some(first) = kinds(doc, item, version).into_iter().next() else {
                continue;
            };
            if !first.kind.applies_to(ty) || first.kind == ConstraintKind::CustomConstraint {
                continue;
            }
            let Outcome::Built(built) = build(cx, &first) else {
                continue;
            };
            // Template validate checks the default as written (a list string split on
            // commas); stack create checks the parsed value, which differs for `''` lists and
            // JSON strings.
            let ((text, raised), at_create) = match check_constraint(&built, ty, &value, &steps) {
                Check::Fail(text) => ((text, false), false),
                Check::Raised(text) => ((text, true), false),
                _ => match create
                    .as_ref()
                    .map(|v| check_constraint(&built, ty, v, &steps))
                {
                    Some(Check::Fail(text)) => ((text, false), true),
                    Some(Check::Raised(text)) => ((text, true), true),
                    _ => continue,
                },
            };
            // A `description` replaces the constraint's own failure, not what Python raised.
            let desc = description(doc, item).filter(|_| !raised);
            let one_line = |t: &str| t.replace('\n', "\\n");
            let reason = one_line(desc.as_deref().unwrap_or(&text));
            let shown = one_line(&raw.py_str());
            let message = format!(
                "default {} of parameter `{}` violates its `{}` constraint",
                shown_value(&raw),
                param.name,
                first.kind.key()
            );
            let help = if at_create {
                format!(
                    "change the default or the constraint; template validate passes, stack create fails; Heat: `Parameter '{}' is invalid: {reason}`",
                    param.name
                )
            } else {
                format!(
                    "change the default or the constraint; Heat: `Parameter '{}' is invalid: Invalid default {shown} ({reason})`",
                    param.name
                )
            };
            sink.report(span_in(cx, param, default_node), message)
                .label(cx.span(first.key), "the constraint")
                .help(help);
        }
    }
}

/// The value stack create checks, when it differs from the one template validate checks:
/// `''` is an empty `comma_delimited_list` (`[]`, not `['']`), and a `json` string is parsed
/// (only its length matters: `length` is the one constraint a `json` parameter takes).
fn create_value(ty: ParameterType, raw: &Value) -> Option<Value> {
    match (ty, raw) {
        (ParameterType::CommaDelimitedList, Value::Str(s)) if s.is_empty() => {
            Some(Value::List(Vec::new()))
        }
        (ParameterType::Json, Value::Str(s)) if !s.is_empty() => {
            pyjson::top_level_len(s).map(|n| Value::List(vec![Value::None; n]))
        }
        _ => None,
    }
}
