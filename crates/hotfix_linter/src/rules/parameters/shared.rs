//! What the parameter rules share: parameter types, constraint items as Heat builds them
//! (`heat/engine/hot/parameters.py`, `heat/engine/constraints.py`), and how a default is
//! checked against them.

use hotfix_diagnostics::Span;
use hotfix_hot::parameter_schema::{ConstraintKind, ParameterType};
use hotfix_hot::{Named, Version};
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarStyle};

use hotfix_eval::constraints::{Rule, Verdict};

use super::regex::{self, Compiled};
use crate::rule::Context;
use crate::rules::py::{self, Num, Parsed, Value};
use crate::rules::util::{did_you_mean, is_mapping};

/// The parameter's definition, when it is a mapping (what Heat requires).
pub(in crate::rules) fn definition(cx: &Context<'_>, param: &Named) -> Option<NodeId> {
    is_mapping(cx.doc, param.value).then(|| cx.doc.resolve(param.value))
}

/// The parameter's type, when it is one Heat knows.
pub(in crate::rules) fn param_type(cx: &Context<'_>, param: &Named) -> Option<ParameterType> {
    let map = definition(cx, param)?;
    ParameterType::parse(cx.doc.str_value(cx.doc.get(map, "type")?)?)
}

/// The items of `constraints`, when it is a list.
pub(super) fn constraint_items(doc: &Document, definition: NodeId) -> Vec<NodeId> {
    doc.get(definition, "constraints")
        .and_then(|c| doc.items(c))
        .map(<[NodeId]>::to_vec)
        .unwrap_or_default()
}

/// A constraint kind found in an item: its key and value nodes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Found {
    pub(super) kind: ConstraintKind,
    pub(super) key: NodeId,
    pub(super) value: NodeId,
}

/// Every kind the version interprets in an item, in Heat's order: Heat uses the first.
pub(super) fn kinds(doc: &Document, item: NodeId, version: Version) -> Vec<Found> {
    if !is_mapping(doc, item) {
        return Vec::new();
    }
    ConstraintKind::ORDER
        .iter()
        .filter(|k| k.read_by(version))
        .filter_map(|&kind| {
            Some(Found {
                kind,
                key: doc.get_key(item, kind.key())?,
                value: doc.get(item, kind.key())?,
            })
        })
        .collect()
}

/// A number bound of a constraint: the value `Schema.str_to_num` returns, and its node.
#[derive(Clone, Debug)]
struct Bound {
    value: Value,
    node: NodeId,
}

/// A constraint as Heat builds it (the model `hotfix_eval` checks values with), with the nodes
/// its parts come from.
#[derive(Debug)]
pub(super) struct Built {
    pub(super) rule: Rule,
    /// The nodes of a range's or length's `min` and `max`, of a modulo's `step` and `offset`.
    pub(super) bounds: [Option<NodeId>; 2],
    /// The node of each of `allowed_values`.
    pub(super) allowed: Vec<NodeId>,
}

impl Built {
    fn of(rule: Rule) -> Built {
        Built {
            rule,
            bounds: [None, None],
            allowed: Vec::new(),
        }
    }
}

/// Why Heat cannot build a constraint: where, what, and Heat's text.
#[derive(Debug)]
pub(super) struct Problem {
    pub(super) node: NodeId,
    pub(super) message: String,
    /// What to do.
    pub(super) advice: String,
    pub(super) heat: String,
}

/// Building a constraint: built, refused, or beyond what this linter models.
#[derive(Debug)]
pub(super) enum Outcome {
    Built(Built),
    Problem(Problem),
    Unknown,
}

fn problem(
    node: NodeId,
    message: impl Into<String>,
    advice: impl Into<String>,
    heat: impl Into<String>,
) -> Outcome {
    Outcome::Problem(Problem {
        node,
        message: message.into(),
        advice: advice.into(),
        heat: heat.into(),
    })
}

/// `_check_dict`: a mapping with only `allowed` keys.
fn check_dict(cx: &Context<'_>, found: &Found, entity: &str, allowed: &[&str]) -> Option<Outcome> {
    let doc = cx.doc;
    if !is_mapping(doc, found.value) {
        return Some(problem(
            found.value,
            format!(
                "`{}` must be a mapping of {}",
                found.kind.key(),
                allowed
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
            format!(
                "write `{}: {{{}}}`",
                found.kind.key(),
                allowed
                    .iter()
                    .map(|k| format!("{k}: …"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!("Invalid {entity}, expected a mapping"),
        ));
    }
    for entry in doc.entries(found.value) {
        let name = hotfix_hot::key_name(doc, entry.key);
        if doc
            .str_value(entry.key)
            .is_none_or(|k| !allowed.contains(&k))
        {
            return Some(problem(
                entry.key,
                format!(
                    "`{name}` is not a key of a `{}` constraint",
                    found.kind.key()
                ),
                did_you_mean(&name, allowed.iter().copied()).map_or_else(
                    || {
                        format!(
                            "use only {}",
                            allowed
                                .iter()
                                .map(|k| format!("`{k}`"))
                                .collect::<Vec<_>>()
                                .join(" and ")
                        )
                    },
                    |k| format!("did you mean `{k}`?"),
                ),
                format!("Invalid key '{name}' for {entity}"),
            ));
        }
    }
    None
}

/// `Schema.get_num`: the bound under `key`, converted as Heat converts it. The error is
/// `None` when the value is beyond what this linter models.
fn get_num(cx: &Context<'_>, map: NodeId, key: &str) -> Result<Option<Bound>, Option<Problem>> {
    let Some(node) = cx.doc.get(map, key) else {
        return Ok(None);
    };
    let value = py::load(cx.doc, node).ok_or(None)?;
    if matches!(value, Value::None) {
        return Ok(None);
    }
    match py::to_num(&value) {
        Parsed::Num(num) => Ok(Some(Bound {
            value: py::num_value(&value, num),
            node,
        })),
        Parsed::Error(heat) => Err(Some(Problem {
            node,
            message: format!("`{key}` must be a number, not `{}`", value.py_str()),
            advice: "write a number".to_owned(),
            heat,
        })),
        Parsed::Unknown => Err(None),
    }
}

/// The outcome for a failed `get_num`.
fn num_failure(failure: Option<Problem>) -> Outcome {
    failure.map_or(Outcome::Unknown, Outcome::Problem)
}

/// Builds the constraint Heat builds from `found` (`_constraint_from_def` and the
/// constraint classes' constructors), or says why Heat refuses it.
pub(super) fn build(cx: &Context<'_>, found: &Found) -> Outcome {
    match found.kind {
        ConstraintKind::Range | ConstraintKind::Length => build_range(cx, found),
        ConstraintKind::Modulo => build_modulo(cx, found),
        ConstraintKind::AllowedValues => {
            let Some(items) = cx.doc.items(found.value) else {
                return problem(
                    found.value,
                    "`allowed_values` must be a list",
                    cx.doc.str_value(found.value).map_or_else(
                        || "write a list: `allowed_values: [a, b]`".to_owned(),
                        |text| {
                            let items: Vec<&str> = text.split(',').map(str::trim).collect();
                            format!("write a list: `allowed_values: [{}]`", items.join(", "))
                        },
                    ),
                    "AllowedValues must be a list",
                );
            };
            let mut values = Vec::with_capacity(items.len());
            for &item in items {
                let Some(value) = py::load(cx.doc, item) else {
                    return Outcome::Unknown;
                };
                values.push(value);
            }
            Outcome::Built(Built {
                allowed: items.to_vec(),
                ..Built::of(Rule::AllowedValues(values))
            })
        }
        ConstraintKind::AllowedPattern => {
            let Some(pattern) = cx.doc.str_value(found.value) else {
                return problem(
                    found.value,
                    "`allowed_pattern` must be a string",
                    "quote the pattern",
                    "AllowedPattern must be a string",
                );
            };
            match regex::compile(pattern) {
                Compiled::Regex(r) => {
                    Outcome::Built(Built::of(Rule::Pattern(pattern.to_owned(), Some(r))))
                }
                Compiled::Unsupported => {
                    Outcome::Built(Built::of(Rule::Pattern(pattern.to_owned(), None)))
                }
                Compiled::Invalid(heat) => problem(
                    found.value,
                    "`allowed_pattern` is not a valid regular expression",
                    if pattern.starts_with('*') {
                        "a pattern is a Python regular expression, not a glob: `*` repeats the item before it (write `.*` for anything)"
                    } else {
                        "fix the pattern (Python `re` syntax)"
                    },
                    heat,
                ),
            }
        }
        ConstraintKind::CustomConstraint => Outcome::Built(Built::of(Rule::Custom)),
    }
}

fn build_range(cx: &Context<'_>, found: &Found) -> Outcome {
    let key = found.kind.key();
    let entity = format!("{key} constraint");
    if let Some(p) = check_dict(cx, found, &entity, &["min", "max"]) {
        return p;
    }
    let min = match get_num(cx, found.value, "min") {
        Ok(b) => b,
        Err(failure) => return num_failure(failure),
    };
    let max = match get_num(cx, found.value, "max") {
        Ok(b) => b,
        Err(failure) => return num_failure(failure),
    };
    if min.is_none() && max.is_none() {
        return problem(
            found.value,
            format!("`{key}` has neither `min` nor `max`"),
            format!("give `{key}` a `min`, a `max`, or both"),
            format!("A {key} constraint must have a min value and/or a max value specified."),
        );
    }
    if found.kind == ConstraintKind::Length {
        for bound in [&min, &max].into_iter().flatten() {
            if matches!(bound.value, Value::Float(_)) {
                return problem(
                    bound.node,
                    format!(
                        "a `length` bound must be an integer, not `{}`",
                        bound.value.py_str()
                    ),
                    "write a whole number",
                    "min/max length must be integral",
                );
            }
        }
    }
    let bounds = [min.as_ref().map(|b| b.node), max.as_ref().map(|b| b.node)];
    let (min, max) = (min.map(|b| b.value), max.map(|b| b.value));
    let rule = if found.kind == ConstraintKind::Length {
        Rule::Length { min, max }
    } else {
        Rule::Range { min, max }
    };
    Outcome::Built(Built {
        bounds,
        ..Built::of(rule)
    })
}

fn build_modulo(cx: &Context<'_>, found: &Found) -> Outcome {
    if let Some(p) = check_dict(cx, found, "modulo constraint", &["step", "offset"]) {
        return p;
    }
    let step = match get_num(cx, found.value, "step") {
        Ok(b) => b,
        Err(failure) => return num_failure(failure),
    };
    let offset = match get_num(cx, found.value, "offset") {
        Ok(b) => b,
        Err(failure) => return num_failure(failure),
    };
    let (Some(step), Some(offset)) = (step, offset) else {
        return problem(
            found.value,
            "`modulo` needs both `step` and `offset`",
            "give both, e.g. `modulo: {step: 2, offset: 0}`",
            "A modulo constraint must have a step value and an offset value specified.",
        );
    };
    let mut ints = [0i128; 2];
    for (slot, bound) in ints.iter_mut().zip([&step, &offset]) {
        let Some(num) = bound.value.as_num() else {
            return Outcome::Unknown;
        };
        *slot = match num {
            Num::Int(n) => n,
            Num::Float(f) if f.is_nan() => {
                return problem(
                    bound.node,
                    "`modulo` bounds must be integers",
                    "write a whole number",
                    "cannot convert float NaN to integer",
                );
            }
            Num::Float(f) if f.is_infinite() => {
                return problem(
                    bound.node,
                    "`modulo` bounds must be integers",
                    "write a whole number",
                    "cannot convert float infinity to integer",
                );
            }
            Num::Float(f) if f.fract() != 0.0 => {
                return problem(
                    bound.node,
                    format!(
                        "`modulo` bounds must be integers, not `{}`",
                        bound.value.py_str()
                    ),
                    "write a whole number",
                    "step/offset must be integer",
                );
            }
            #[allow(clippy::cast_possible_truncation, reason = "an integral, finite float")]
            Num::Float(f) => f as i128,
        };
    }
    let [s, o] = ints;
    if s == 0 {
        return problem(
            step.node,
            "`step` cannot be 0",
            "use a non-zero `step`",
            "step cannot be 0.",
        );
    }
    if o.unsigned_abs() >= s.unsigned_abs() {
        return problem(
            offset.node,
            format!("`offset` {o} is not smaller than `step` {s} (by absolute value)"),
            "use an `offset` from 0 up to `step` - 1 (for a negative `step`, down to `step` + 1)",
            "offset must be smaller (by absolute value) than step.",
        );
    }
    if (s < 0 && o > 0) || (s > 0 && o < 0) {
        return problem(
            offset.node,
            "`step` and `offset` have different signs",
            "give `step` and `offset` the same sign",
            "step and offset must be both positive or both negative.",
        );
    }
    Outcome::Built(Built {
        bounds: [Some(step.node), Some(offset.node)],
        ..Built::of(Rule::Modulo {
            step: step.value,
            offset: offset.value,
        })
    })
}

/// The result of checking a value against a constraint.
pub(super) enum Check {
    Pass,
    /// Heat's failure text (before a `description` replaces it).
    Fail(String),
    /// What Python raises while checking (`len()` of an `int`, a pattern over a number):
    /// Heat's text as it is, which no `description` replaces.
    Raised(String),
    /// Not decidable here, or a failure another rule reports (an unconvertible value).
    Unknown,
}

/// `Constraint.validate(value, schema)` for one built constraint, as `_validate_default`
/// runs it (custom constraints skipped), with `hotfix_eval`'s checks; a pattern matched within
/// what is left of `steps`, the budget of the file's checks
/// ([`hotfix_eval::regex::FILE_STEPS`]).
pub(super) fn check(
    built: &Built,
    ty: ParameterType,
    value: &Value,
    steps: &std::sync::atomic::AtomicUsize,
) -> Check {
    match built.rule.check_within(ty, value, steps) {
        Verdict::Pass => Check::Pass,
        Verdict::Violated(text) => Check::Fail(text),
        // `len()` and `re` raise on a value of the wrong type: the constraint fails there.
        Verdict::Raised { message, .. }
            if matches!(built.rule, Rule::Length { .. } | Rule::Pattern(..)) =>
        {
            Check::Raised(message)
        }
        // A value a number constraint or `allowed_values` cannot convert: the type rules
        // report it.
        Verdict::Raised { .. } | Verdict::Unknown => Check::Unknown,
    }
}

/// The value `_validate_default` checks: a `comma_delimited_list` string is split on commas
/// and list items are stringified; other types are checked as written. `None` when Heat
/// cannot even prepare it (a list default that is neither a list nor a string).
pub(super) fn default_for_constraints(ty: ParameterType, raw: &Value) -> Option<Value> {
    if ty != ParameterType::CommaDelimitedList {
        return Some(raw.clone());
    }
    match raw {
        Value::List(items) => Some(Value::List(
            items.iter().map(|i| Value::Str(i.py_str())).collect(),
        )),
        Value::Str(s) => Some(Value::List(
            s.split(',').map(|p| Value::Str(p.to_owned())).collect(),
        )),
        _ => None,
    }
}

/// The constraint's `description`, which replaces Heat's failure text when it is truthy.
pub(super) fn description(doc: &Document, item: NodeId) -> Option<String> {
    let node = doc.get(item, "description")?;
    let value = py::load(doc, node)?;
    value.truthy().then(|| value.py_str())
}

/// Python's `str()` of a node's value (`True`, `['a', 1]`), or its source text when it is too
/// large to model.
pub(super) fn py_str(doc: &Document, id: NodeId) -> String {
    py::load(doc, id).map_or_else(|| doc.text(id).to_owned(), |v| v.py_str())
}

/// `text` written with the quotes of the scalar it replaces (so that JSON stays JSON).
pub(super) fn same_quotes(doc: &Document, node: NodeId, text: &str) -> String {
    match doc.scalar(node).map(|s| s.style) {
        Some(ScalarStyle::DoubleQuoted) => format!("\"{text}\""),
        Some(ScalarStyle::SingleQuoted) => format!("'{text}'"),
        _ => text.to_owned(),
    }
}

/// Where to report a node of a parameter's definition: the node itself when it is written
/// inside the definition; otherwise (the definition is an alias, `b: *a`, or merges another,
/// `<<: *a`) the alias, or the parameter's name, so that each parameter gets its own place.
pub(super) fn span_in(cx: &Context<'_>, param: &Named, node: NodeId) -> Span {
    let own = cx.span(param.value);
    let at = cx.span(node);
    if own.start <= at.start && at.end <= own.end {
        at
    } else if matches!(cx.doc.node(param.value).kind, NodeKind::Alias { .. }) {
        own
    } else {
        cx.span(param.key)
    }
}

/// The default as shown in a message: short values in backticks, long ones elided.
pub(super) fn shown_value(raw: &Value) -> String {
    let text = raw.py_str().replace('\n', "\\n");
    if text.is_empty() {
        return "`''`".to_owned();
    }
    if text.chars().count() > 40 {
        let head: String = text.chars().take(37).collect();
        format!("`{head}…`")
    } else {
        format!("`{text}`")
    }
}
