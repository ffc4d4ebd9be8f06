use hotfix_blueprint::Call;
use hotfix_yaml::NodeId;

use crate::rule::{Sink, declare_rule};
use crate::rules::blueprint::{BlueprintContext, Py, legal_path_items};

declare_rule! {
    /// ## What it does
    /// Checks the arguments of every intrinsic function as Cloudify's `dsl_parser` does when a
    /// blueprint is uploaded: how many (`string_find` two, `string_replace` three or four,
    /// `string_split` two or three, `get_property` and `get_attribute` a node and at least one
    /// name, `get_capability` and `get_group_capability` at least two, `get_label` one or two,
    /// `get_sys` two, `get_secret` a string or a list of at least two), their kinds (strings,
    /// ints and functions in paths; `merge` takes mappings; `string_*` take strings, their
    /// count and index ints), and `get_consumers`' one of `ids`, `names`, `count`.
    ///
    /// ## Why is this bad?
    /// Cloudify refuses the blueprint when it is uploaded, with the function's own message,
    /// for example `Illegal arguments passed to get_attribute function. Expected: [
    /// node_name\function, attribute_name\function [, nested-attribute-1\function, ... ] but
    /// got: ['vm'].` or `string_find function: should be called with exactly two parameters`.
    ///
    /// ## Example
    /// ```yaml
    /// tosca_definitions_version: cloudify_dsl_1_4
    /// node_templates:
    ///   vm:
    ///     type: cloudify.nodes.Compute
    /// outputs:
    ///   ip: {value: {get_attribute: [vm]}}
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
        code: "C004",
        name: "invalid-intrinsic-arguments",
        severity: Error,
        fix: None,
        blueprint_check: check,
    };
}

fn check(cx: &BlueprintContext<'_>, sink: &mut Sink<'_>) {
    for (_, call) in cx.validated_calls() {
        let Some(problem) = problem(cx, call) else {
            continue;
        };
        let name = call.function.name;
        let node = problem.at.unwrap_or(call.args);
        let diagnostic = sink.report(
            cx.span(node),
            format!("invalid arguments to `{name}`: {}", problem.what),
        );
        diagnostic.primary_label(problem.what.clone());
        diagnostic.help(format!("Cloudify, on upload: `{}`", problem.quoted));
    }
}

struct Problem {
    what: String,
    /// `dsl_parser`'s message (the part that does not repeat the arguments).
    quoted: String,
    /// The argument at fault, when one is.
    at: Option<NodeId>,
}

#[allow(
    clippy::too_many_lines,
    reason = "one arm per function, in the order of dsl_parser's functions.py"
)]
fn problem(cx: &BlueprintContext<'_>, call: &Call) -> Option<Problem> {
    let name = call.function.name;
    let kind = cx.py(call.args);
    let items = cx.arg_items(call).unwrap_or_default();
    let doc = cx.doc;
    let p = |what: &str, quoted: String| {
        Some(Problem {
            what: what.to_owned(),
            quoted,
            at: None,
        })
    };
    let path_expected = |noun: &str| {
        format!(
            "Illegal arguments passed to {name} function. Expected: [ node_name\\function, \
             {noun}_name\\function [, nested-{noun}-1\\function, ... ] but got: …"
        )
    };
    match name {
        "get_input" => {
            let ok = matches!(kind, Py::Str | Py::Function)
                || (kind == Py::List && !items.is_empty() && legal_path_items(doc, items));
            if ok {
                return None;
            }
            p(
                "expected an input name, a function, or a list [input, key or index, …] of \
                 strings, ints and functions",
                format!(
                    "Illegal argument(s) passed to {name} function. Expected either a string, \
                     or a function, or a list [input_name\\function [, key1\\index1\\function \
                     [,...]]] but got …"
                ),
            )
        }
        "get_sys" => {
            if kind == Py::List && items.len() >= 2 && legal_path_items(doc, items) {
                return None;
            }
            p(
                "expected a list [entity, property] such as [tenant, name] or [deployment, id]",
                "Illegal argument(s) passed to get_sys function. Expected a 2-element list \
                 identifying an entity and its requested property (e.g. [tenant, name] or \
                 [deployment, id]) but got …"
                    .to_owned(),
            )
        }
        "get_consumers" => {
            let ok = doc
                .str_value(call.args)
                .is_some_and(|s| ["ids", "names", "count"].contains(&s));
            if ok {
                return None;
            }
            p(
                "expected one of `ids`, `names`, `count`",
                "Illegal argument passed to get_consumers function. Expected a property string \
                 (one of: ids, names, count), but got …"
                    .to_owned(),
            )
        }
        "get_property" | "get_attribute" | "get_attributes_list" => {
            if kind == Py::List && items.len() >= 2 && legal_path_items(doc, items) {
                return None;
            }
            let noun = if name == "get_property" {
                "property"
            } else {
                "attribute"
            };
            p(
                &format!(
                    "expected a list [node, {noun}, …] of at least two strings, ints or functions"
                ),
                path_expected(noun),
            )
        }
        "get_attributes_dict" => attributes_dict(cx, kind, items),
        "get_secret" => {
            let ok =
                matches!(kind, Py::Str | Py::Function) || (kind == Py::List && items.len() > 1);
            if ok {
                return None;
            }
            p(
                "expected a secret name, a function, or a list of at least two items",
                "`get_secret` function argument should be a list with at least 2 elements, a \
                 string, or a dict (a function)."
                    .to_owned(),
            )
        }
        "concat" | "merge" => {
            if kind != Py::List {
                return p(
                    "expected a list",
                    format!(
                        "Illegal arguments passed to {name} function. Expected: \
                         [arg1\\function1, arg2\\function2, ...]but got: …"
                    ),
                );
            }
            if name == "merge" && call.function.since <= cx.blueprint.version.unwrap_or((1, 0)) {
                let bad = items
                    .iter()
                    .find(|&&i| !matches!(cx.py(i), Py::Dict | Py::Function))?;
                return Some(Problem {
                    what: "every item of `merge` must be a mapping".to_owned(),
                    quoted: format!("Encountered non-dict element for merge: {}", doc.text(*bad)),
                    at: Some(*bad),
                });
            }
            None
        }
        "get_capability" | "get_group_capability" => {
            let what = if name == "get_capability" {
                "deployment ID"
            } else {
                "group ID"
            };
            if kind != Py::List {
                return p(
                    "expected a list",
                    format!("`{name}` function argument should be a list."),
                );
            }
            if items.len() < 2 {
                return p(
                    &format!("expected a list [{what}, capability ID, …] of at least two items"),
                    format!(
                        "`{name}` function argument should be a list with 2 elements at least - \
                         [ {what}, capability ID [, key/index[, key/index [...]]] ]."
                    ),
                );
            }
            for (index, &item) in items.iter().enumerate() {
                let kind = cx.py(item);
                if index == 1 && name == "get_group_capability" && kind == Py::List {
                    continue;
                }
                if !matches!(kind, Py::Str | Py::Int | Py::Function) {
                    return Some(Problem {
                        what: "only strings, ints and functions are accepted".to_owned(),
                        quoted: format!(
                            "`{name}` function arguments can't be complex values; only \
                             strings/ints/functions are accepted."
                        ),
                        at: Some(item),
                    });
                }
            }
            None
        }
        "get_label" => label(cx, kind, items),
        "get_environment_capability" => environment_capability(cx, kind, items),
        "string_find" => strings(cx, call, kind, items, 2, 2, "exactly two parameters"),
        "string_replace" => strings(cx, call, kind, items, 3, 4, "three or four parameters"),
        "string_split" => strings(cx, call, kind, items, 2, 3, "two or three parameters"),
        "string_lower" | "string_upper" => match kind {
            Py::Str | Py::Function => None,
            Py::Dict if doc.entries(call.args).len() == 1 => p(
                "expected a string",
                format!(
                    "{name} function: argument `input` should be of type <class 'str'> but is \
                     <class 'dict'>"
                ),
            ),
            _ => p(
                "expected exactly one parameter, a string",
                format!("{name} function: should be called with exactly one parameter"),
            ),
        },
        _ => None,
    }
}

fn attributes_dict(cx: &BlueprintContext<'_>, kind: Py, items: &[NodeId]) -> Option<Problem> {
    if kind != Py::List {
        return None;
    }
    let quoted = "Illegal arguments passed to get_attributes_dict function. Expected: [ \
                  node_name\\function, list of attribute_name\\function or \
                  [attribute_name\\function, nested-attribute-1\\function], ... ] but got: …"
        .to_owned();
    let Some((&node, paths)) = items.split_first() else {
        return Some(Problem {
            what: "expected a list [node, attribute, …]".to_owned(),
            quoted: "IndexError: list index out of range".to_owned(),
            at: None,
        });
    };
    let node_ok = matches!(cx.py(node), Py::Str | Py::Int | Py::Function);
    for &path in paths {
        let ok = node_ok
            && match cx.py(path) {
                Py::List => cx
                    .doc
                    .items(path)
                    .is_some_and(|p| !p.is_empty() && legal_path_items(cx.doc, p)),
                Py::Str | Py::Int | Py::Function => true,
                _ => false,
            };
        if !ok {
            return Some(Problem {
                what: "each attribute path must be a string, an int, a function or a list of them"
                    .to_owned(),
                quoted,
                at: Some(path),
            });
        }
    }
    if !node_ok {
        return Some(Problem {
            what: "the node must be a string, an int or a function".to_owned(),
            quoted,
            at: Some(node),
        });
    }
    None
}

fn label(cx: &BlueprintContext<'_>, kind: Py, items: &[NodeId]) -> Option<Problem> {
    match kind {
        Py::Str | Py::Function => None,
        Py::List if items.len() == 2 => {
            if !matches!(cx.py(items[0]), Py::Str | Py::Function) {
                return Some(Problem {
                    what: "the label key must be a string or a function".to_owned(),
                    quoted: "`get_label` function: the <label-key> should be a string or a dict \
                             (a function)."
                        .to_owned(),
                    at: Some(items[0]),
                });
            }
            let index = items[1];
            let ok = match cx.py(index) {
                Py::Int => true,
                Py::Str => cx
                    .doc
                    .str_value(index)
                    .is_some_and(|s| !s.is_empty() && s.chars().all(char::is_numeric)),
                _ => false,
            };
            if ok {
                return None;
            }
            Some(Problem {
                what: "the index into the label's values must be a number".to_owned(),
                quoted: "`get_label` function: the <label-values list index> should be a number \
                         (in string or int form)."
                    .to_owned(),
                at: Some(index),
            })
        }
        _ => Some(Problem {
            what: "expected a label key, a function, or a list [label key, index]".to_owned(),
            quoted: "`get_label` function argument should be a list of 2 elements ([<label-key>, \
                     <label-values list index>]), a string (<label-key>), or a dict (a function)."
                .to_owned(),
            at: None,
        }),
    }
}

fn environment_capability(
    cx: &BlueprintContext<'_>,
    kind: Py,
    items: &[NodeId],
) -> Option<Problem> {
    let name = "get_environment_capability";
    match kind {
        Py::Str => None,
        Py::List if items.len() < 2 => Some(Problem {
            what: "a list needs at least two items".to_owned(),
            quoted: format!(
                "`{name}` function arguments can't be list with only one item; only string or list \
                 with more than one item are accepted."
            ),
            at: None,
        }),
        Py::List => items
            .iter()
            .find(|&&i| !matches!(cx.py(i), Py::Str | Py::Int | Py::Function))
            .map(|&i| Problem {
                what: "only strings, ints and functions are accepted".to_owned(),
                quoted: format!(
                    "`{name}` function arguments can't be complex values; only \
                     strings/ints/functions are accepted."
                ),
                at: Some(i),
            }),
        _ => Some(Problem {
            what: "expected a string or a list of at least two items".to_owned(),
            quoted: format!(
                "`{name}` function argument should be a string or list with more than one item \
                 are accepted."
            ),
            at: None,
        }),
    }
}

/// `string_find`, `string_replace`, `string_split`: a list of `min..=max` items, strings (or
/// functions) but for `string_replace`'s count and `string_split`'s index, ints.
fn strings(
    cx: &BlueprintContext<'_>,
    call: &Call,
    kind: Py,
    items: &[NodeId],
    min: usize,
    max: usize,
    count: &str,
) -> Option<Problem> {
    let name = call.function.name;
    if kind != Py::List || items.len() < min || items.len() > max {
        return Some(Problem {
            what: format!("expected {count}"),
            quoted: format!("{name} function: should be called with {count}"),
            at: None,
        });
    }
    let names: &[&str] = match name {
        "string_find" => &["haystack", "needle"],
        "string_replace" => &["haystack", "needle", "replacement", "count"],
        _ => &["input", "separator", "index"],
    };
    for (i, &item) in items.iter().enumerate() {
        let wants_int = matches!(names[i], "count" | "index");
        let kind = cx.py(item);
        let ok = kind == Py::Function
            || if wants_int {
                kind == Py::Int
            } else {
                kind == Py::Str
            };
        if !ok {
            let (wanted, noun) = if wants_int {
                ("int", "an int")
            } else {
                ("str", "a string")
            };
            return Some(Problem {
                what: format!("argument `{}` must be {noun}", names[i]),
                quoted: format!(
                    "{name} function: argument `{}` should be of type <class '{wanted}'> but is …",
                    names[i]
                ),
                at: Some(item),
            });
        }
    }
    None
}
