use hotfix_diagnostics::{Applicability, Fix};
use hotfix_hot::{Availability, Function, PSEUDO_PARAMETERS, Version};
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};

use super::edit::{
    Index, Piece, Rewrite, empty_string, has_yaml_references, rebuild_call, replace_node, text_of,
};
use crate::upgrade::shared::rename_key;
use crate::upgrade::{UpgradeContext, UpgradeSink, declare_upgrade_rule};

declare_upgrade_rule! {
    /// ## What it does
    /// Rewrites `Fn::Select: [index, collection]` when leaving 2015-04-30: 2015-10-15 removed
    /// `Fn::Select`. Depending on the collection it becomes a `get_param` path, a `get_attr`
    /// path, `str_split` with an index, or (for a literal list or map) the selected element.
    ///
    /// ## Why is this bad?
    /// From 2015-10-15 Heat rejects the template: `The template version is invalid: The
    /// function Fn::Select is not supported in this version of HOT.` The replacements do not
    /// all compute the same thing in every case (Heat's `Fn::Select` JSON-decodes strings,
    /// converts string indexes with `int()` and gives `''` for a missing element; paths do
    /// not decode, `get_attr` paths do not convert and give `null`; `str_split` fails out of
    /// range), so the rewrite is chosen by the collection:
    ///
    /// - `{get_param: P}` with `P` a `comma_delimited_list` parameter and an integer index
    ///   (literal, numeric string, or a `string`/`boolean` parameter):
    ///   `get_param: [P, index]`, Safe — both give the item or `''` (only an index Heat's
    ///   `Fn::Select` rejects now gives `''` instead of an error). A `number` parameter as
    ///   index is Unsafe (it may hold a float: `Fn::Select` truncates it, a path gives `''`).
    /// - `{get_param: P}` / `{get_param: [P, path…]}` with `P` a `json` parameter:
    ///   `get_param: [P, path…, index]`, Unsafe — the same for list and map values, but a
    ///   JSON value that is itself a string is decoded again by `Fn::Select` and indexed
    ///   character by character by the path, and an integer index on a map fails in
    ///   `Fn::Select` but gives `''` as a path.
    /// - `{get_param: P}` with `P` a `string` parameter (or an item of a list parameter):
    ///   `Fn::Select` decodes the string as JSON, a path indexes its characters: no rewrite.
    /// - `{get_attr: [R, A, path…]}` with a key or an integer index, `R` not a
    ///   `OS::Heat::ResourceGroup`/`OS::Heat::AutoScalingGroup`:
    ///   `get_attr: [R, A, path…, index]` (an integer, never `"0"`), Unsafe — the attribute's
    ///   type is unknown before the stack exists: a JSON string attribute is decoded by
    ///   `Fn::Select` only, and a missing element is `''` there but `null` in the path. On a
    ///   group the path applies to every member: no rewrite.
    /// - `{str_split: [d, S]}` (or `Fn::Split`) with a literal integer index:
    ///   `str_split: [d, S, index]`, Safe when `d` and `S` are literal strings and the index
    ///   is in range (out of range, where `Fn::Select` gives `''`, the call is replaced by
    ///   `''`), Unsafe otherwise: `str_split` fails when the index is out of range.
    /// - a literal list or map with a literal index: the selected element (or `''` when the
    ///   index or key is missing, as Heat computes), Safe when the other elements call no
    ///   function — otherwise Unsafe, since dropping them drops their dependencies
    ///   (`get_resource`, `get_attr`) and their validation.
    /// - a nested `Fn::Select`: the inner call is rewritten first, then this one.
    ///
    /// Anything else (a computed index over a literal list, a collection computed by another
    /// function, a string of JSON, YAML anchors or aliases inside the call) has no HOT
    /// equivalent in 2015-10-15: the finding blocks the step and says what to change by hand.
    ///
    /// ## Fix safety
    /// Each case above says whether its rewrite is Safe. The Unsafe ones compute something
    /// else than `Fn::Select` for some value Heat may be given: a `number` index holding a
    /// float, a `json` value that is itself a string, an attribute whose type is known only
    /// once the stack exists, an index out of range of a computed list, elements whose
    /// functions (and so their dependencies and validation) the rewrite drops. They are
    /// applied only with `--unsafe-fixes`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2015-04-30
    /// parameters:
    ///   nets: {type: comma_delimited_list, default: "a,b"}
    /// outputs:
    ///   first: {value: {Fn::Select: [0, {get_param: nets}]}}
    ///   size: {value: {Fn::Select: [1, [small, large]]}}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2015-10-15
    /// parameters:
    ///   nets: {type: comma_delimited_list, default: "a,b"}
    /// outputs:
    ///   first: {value: {get_param: [nets, 0]}}
    ///   size: {value: large}
    /// ```
    pub(crate) static RULE = {
        code: "U301",
        name: "fn-select",
        step: Some((Version::V2015_04_30, Version::V2015_10_15)),
        severity: Error,
        check: check,
    };
}

/// Resource types whose `get_attr` paths apply to each member (§4.2).
const GROUPS: [&str; 2] = ["OS::Heat::ResourceGroup", "OS::Heat::AutoScalingGroup"];

/// How deep nested `Fn::Select` calls are followed to explain why the outer one waits.
const MAX_NESTING: usize = 16;

fn check(ucx: &UpgradeContext<'_>, sink: &mut UpgradeSink<'_>) {
    let cx = ucx.cx;
    for call in cx.semantic.calls_to(Function::FnSelect) {
        let span = cx.span(call.key);
        match plan(ucx, call.map, call.key, call.args, 0) {
            Plan::Fix {
                message,
                rewrite,
                applicability,
                help,
            } => {
                let diagnostic =
                    sink.report(span, format!("`Fn::Select` is removed in {}", ucx.to));
                diagnostic.help(if applicability == Applicability::Unsafe {
                    format!("the rewrite is Unsafe (applied with `--unsafe-fixes`): {help}")
                } else {
                    help
                });
                let message = match rewrite.dropped_comments {
                    0 => message,
                    1 => format!("{message} (the comment inside the call is dropped)"),
                    n => format!("{message} (the {n} comments inside the call are dropped)"),
                };
                diagnostic.fix(Fix {
                    message,
                    edits: rewrite.edits,
                    applicability,
                });
            }
            Plan::Manual { reason, help } => {
                let diagnostic = sink.report(
                    span,
                    format!(
                        "`Fn::Select` is removed in {} and this call needs a manual change: {reason}",
                        ucx.to
                    ),
                );
                diagnostic.help(help);
            }
        }
    }
}

enum Plan {
    Fix {
        message: String,
        rewrite: Rewrite,
        applicability: Applicability,
        help: String,
    },
    Manual {
        reason: String,
        help: String,
    },
}

fn manual(reason: impl Into<String>, help: impl Into<String>) -> Plan {
    Plan::Manual {
        reason: reason.into(),
        help: help.into(),
    }
}

const LAYOUT: &str = "the call is written in a way hotfix cannot rewrite in place";
const LAYOUT_HELP: &str = "rewrite it by hand as a `get_param`/`get_attr` path, `str_split` with an index, or the selected value";

/// What to do with one `Fn::Select` call (`map` = `{Fn::Select: args}`).
fn plan(ucx: &UpgradeContext<'_>, map: NodeId, key: NodeId, args: NodeId, depth: usize) -> Plan {
    let doc = ucx.cx.doc;
    if has_yaml_references(doc, map) {
        return manual(
            "it uses YAML anchors, aliases or tags, which cannot be taken apart safely",
            LAYOUT_HELP,
        );
    }
    let Some(&[index, collection]) = doc.items(args) else {
        return manual(
            "its arguments are not `[index, collection]`",
            "Heat rejects them (`Arguments to \"Fn::Select\" must be of the form [index, collection]`); write the value you want instead",
        );
    };
    let call = SelectCall {
        ucx,
        doc,
        map,
        key,
        args,
        index,
    };
    match &doc.node(collection).kind {
        NodeKind::Sequence { items, .. } => call.fold(items, None),
        NodeKind::Mapping { .. } => {
            let entries = doc.entries(collection);
            if let [entry] = entries.as_slice()
                && let Some(name) = doc.str_value(entry.key)
            {
                match name {
                    "get_param" => return call.via_get_param(entry.value),
                    "get_attr" => return call.via_get_attr(entry.value),
                    // Only a `str_split` this upgrade wrote (U106, from an `Fn::Split` of
                    // 2013-05-23) is a call here: at 2015-04-30 an author's `{str_split: …}`
                    // is a plain map, and a left-over `Fn::Split` already fails in Heat.
                    "str_split"
                        if ucx.is_written(doc.node(entry.key).span)
                            || ucx.from.function(name) != Availability::Data =>
                    {
                        return call.via_split(name, entry.value);
                    }
                    "Fn::Select" => {
                        return call.nested(collection, entry.key, entry.value, depth);
                    }
                    _ => {}
                }
                if ucx.from.function(name) != Availability::Data {
                    return manual(
                        format!(
                            "the collection is computed by `{name}`, and no HOT path or function selects from it as `Fn::Select` does (it JSON-decodes strings, gives `''` for a missing element)"
                        ),
                        format!(
                            "select the value another way (a `get_param`/`get_attr` path on the data `{name}` reads, or `yaql` from 2016-10-14), or keep the template at {}",
                            ucx.from
                        ),
                    );
                }
            }
            call.fold(&[], Some(collection))
        }
        NodeKind::Scalar(scalar) => call.scalar_collection(&scalar.value, &scalar.text),
        NodeKind::Alias { .. } => manual(LAYOUT, LAYOUT_HELP),
    }
}

struct SelectCall<'a> {
    ucx: &'a UpgradeContext<'a>,
    doc: &'a Document,
    map: NodeId,
    key: NodeId,
    args: NodeId,
    index: NodeId,
}

/// What a `get_param` collection holds, by the parameter's type and path.
enum Held<'t> {
    /// A list of strings (`comma_delimited_list`, no path).
    List,
    /// Any JSON value (`json`).
    Json,
    /// A string (`string`, a pseudo parameter, an item of a list parameter).
    Str,
    /// `number` or `boolean`: `Fn::Select` always fails.
    Scalar(&'t str),
}

impl SelectCall<'_> {
    /// The call rewritten as `name: [pieces…]`, with `applicability`, or a manual plan when
    /// the layout does not allow it.
    fn rebuild(
        &self,
        name: &str,
        pieces: &[Piece],
        applicability: Applicability,
        help: String,
    ) -> Plan {
        let Some(rename) = rename_key(self.doc, self.key, name) else {
            return manual(LAYOUT, LAYOUT_HELP);
        };
        match rebuild_call(self.doc, self.map, rename, name, self.args, pieces) {
            Some(rewrite) if rewrite.verified(self.doc) => Plan::Fix {
                message: format!("Use `{name}: {}`", preview(self.doc, pieces)),
                rewrite,
                applicability,
                help,
            },
            _ => manual(LAYOUT, LAYOUT_HELP),
        }
    }

    /// The call replaced by `element`.
    fn replace(
        &self,
        element: &Piece,
        message: String,
        applicability: Applicability,
        help: String,
    ) -> Plan {
        match replace_node(self.doc, self.map, element) {
            Some(rewrite) if rewrite.verified(self.doc) => Plan::Fix {
                message,
                rewrite,
                applicability,
                help,
            },
            _ => manual(LAYOUT, LAYOUT_HELP),
        }
    }

    fn index_text(&self) -> String {
        short(text_of(self.doc, self.index))
    }

    /// `Fn::Select: [i, {get_param: …}]`.
    fn via_get_param(&self, target: NodeId) -> Plan {
        let doc = self.doc;
        let (name_node, path): (NodeId, &[NodeId]) = if doc.str_value(target).is_some() {
            (target, &[])
        } else {
            match doc.items(target) {
                Some([first, rest @ ..]) if doc.str_value(*first).is_some() => (*first, rest),
                _ => {
                    return manual(
                        "the parameter name of its `get_param` is not a literal",
                        "with a literal parameter name hotfix could turn the call into a `get_param` path; write the path by hand",
                    );
                }
            }
        };
        let name = doc.str_value(name_node).unwrap_or_default();
        let Some(ty) = parameter_type(self.ucx, name) else {
            return manual(
                format!("`{name}` is not a parameter of this template with a type Heat knows"),
                format!(
                    "declare `{name}` (type `json` or `comma_delimited_list`) and select with `get_param: [{name}, {}]`",
                    self.index_text()
                ),
            );
        };
        let held = match (ty, path.is_empty()) {
            ("comma_delimited_list", true) => Held::List,
            ("json", _) => Held::Json,
            ("comma_delimited_list" | "string", _) => Held::Str,
            (other, true) => Held::Scalar(other),
            (other, false) => {
                return manual(
                    format!(
                        "`{name}` is a `{other}` parameter: the path into it always gives `''`, and so does this call"
                    ),
                    "write `''` (or the value you meant) instead of the call",
                );
            }
        };
        let mut pieces: Vec<Piece> = std::iter::once(name_node)
            .chain(path.iter().copied())
            .map(Piece::Node)
            .collect();
        pieces.push(Piece::Node(self.index));
        let index = Index::of(doc, self.index);
        match held {
            Held::List => self.param_list_index(name, &index, &pieces),
            Held::Json => match index {
                Index::Int(_)
                | Index::BigInt
                | Index::NumStr(_)
                | Index::Str(_)
                | Index::Bool(_) => {
                    self.rebuild("get_param", &pieces, Applicability::Unsafe, json_help(name))
                }
                Index::Collection if self.index_is_call() => {
                    self.rebuild("get_param", &pieces, Applicability::Unsafe, json_help(name))
                }
                _ => manual(
                    format!(
                        "the index `{}` is neither an integer nor a key",
                        self.index_text()
                    ),
                    "Heat's `Fn::Select` fails on it; write the integer index or the key",
                ),
            },
            Held::Str => {
                let what = if path.is_empty() {
                    format!("the `{ty}` parameter `{name}`")
                } else {
                    format!("an item of the `{ty}` parameter `{name}`")
                };
                manual(
                    format!(
                        "`Fn::Select` decodes {what} as JSON, while a `get_param` path would index its characters"
                    ),
                    format!(
                        "declare `{name}` with `type: json` (Heat then decodes the value when the stack is created; check the values you pass) and write `get_param: [{name}, …, {}]`, or keep the template at {}",
                        self.index_text(),
                        self.ucx.from
                    ),
                )
            }
            Held::Scalar(ty) => manual(
                format!(
                    "`{name}` is a `{ty}` parameter, and Heat's `Fn::Select` always fails on it (`Arguments to Fn::Select not fully resolved`)"
                ),
                "write the value you want instead of the call",
            ),
        }
    }

    /// A `get_param` of a `comma_delimited_list`: the index decides.
    fn param_list_index(&self, name: &str, index: &Index, pieces: &[Piece]) -> Plan {
        let exact = format!(
            "both take item {} of the list `{name}` (negative indexes count from the end) and give `''` when there is none",
            self.index_text()
        );
        match index {
            Index::Int(_) | Index::BigInt | Index::NumStr(_) | Index::Bool(_) => {
                self.rebuild("get_param", pieces, Applicability::Safe, exact)
            }
            Index::Str(s) => manual(
                format!(
                    "the index `{}` is not an integer, and Heat's `Fn::Select` fails on it (`Index to \"Fn::Select\" must be an integer`)",
                    short(s)
                ),
                format!("write the integer index: `get_param: [{name}, <index>]`"),
            ),
            Index::Float(_) => manual(
                format!(
                    "the index `{}` is a float, which `Fn::Select` truncates and a `get_param` path does not (it gives `''`)",
                    self.index_text()
                ),
                format!("write the integer index: `get_param: [{name}, <index>]`"),
            ),
            Index::Null => manual(
                "the index is null, and Heat's `Fn::Select` fails on it",
                format!("write the integer index: `get_param: [{name}, <index>]`"),
            ),
            Index::Collection => {
                if !self.index_is_call() {
                    return manual(
                        "the index is a list or map, and Heat's `Fn::Select` fails on it",
                        format!("write the integer index: `get_param: [{name}, <index>]`"),
                    );
                }
                match self.index_parameter_type() {
                    Some("string" | "boolean") => self.rebuild(
                        "get_param",
                        pieces,
                        Applicability::Safe,
                        format!(
                            "the index parameter is converted with `int()` by both, so both take the same item of `{name}` and give `''` when there is none"
                        ),
                    ),
                    Some("number") => self.rebuild(
                        "get_param",
                        pieces,
                        Applicability::Unsafe,
                        format!(
                            "the same item of `{name}` for an integer index; but a `number` parameter can hold a float (`1.0`), which `Fn::Select` truncates and a `get_param` path does not (it gives `''`)"
                        ),
                    ),
                    _ => self.rebuild(
                        "get_param",
                        pieces,
                        Applicability::Unsafe,
                        format!(
                            "the same item of `{name}` when the computed index is an integer or a numeric string; other values (a float) give `''` in the path where `Fn::Select` truncated them"
                        ),
                    ),
                }
            }
        }
    }

    /// Whether the index is a function call.
    fn index_is_call(&self) -> bool {
        self.ucx.cx.semantic.call_at(self.index).is_some()
    }

    /// The type of the parameter a `{get_param: name}` index reads (no path).
    fn index_parameter_type(&self) -> Option<&str> {
        let doc = self.doc;
        let entries = doc.entries(self.index);
        let [entry] = entries.as_slice() else {
            return None;
        };
        if doc.str_value(entry.key) != Some("get_param") {
            return None;
        }
        parameter_type(self.ucx, doc.str_value(entry.value)?)
    }

    /// `Fn::Select: [i, {get_attr: …}]`.
    fn via_get_attr(&self, target: NodeId) -> Plan {
        let doc = self.doc;
        let template = self.ucx.cx.template;
        let Some(items @ [resource, _, ..]) = doc.items(target) else {
            return manual(
                "its `get_attr` is not `[resource, attribute, …]`",
                "write the `get_attr` with its path by hand",
            );
        };
        let Some(name) = doc.str_value(*resource) else {
            return manual(
                "the resource name of its `get_attr` is not a literal",
                "write the `get_attr` with its path by hand",
            );
        };
        let Some(definition) = template.resource(name) else {
            return manual(
                format!("`{name}` is not a resource of this template"),
                "fix the `get_attr`, then upgrade again",
            );
        };
        if let Some(ty) = template.resource_type(definition)
            && GROUPS.contains(&ty)
        {
            return manual(
                format!(
                    "`{name}` is an `{ty}`: since 2014-10-16 a `get_attr` path applies to each member of the group, while `Fn::Select` picks from the list of the members' values"
                ),
                format!(
                    "for one member of a ResourceGroup use `get_attr: [{name}, resource.<index>, <attribute>]` (check that the member names match the indexes), or keep the template at {}",
                    self.ucx.from
                ),
            );
        }
        let mut pieces: Vec<Piece> = items.iter().copied().map(Piece::Node).collect();
        let index = Index::of(doc, self.index);
        let common = "the attribute's type is not known before the stack exists: the path gives the same value when the attribute is a list (integer index) or a map (key), but not when it is a JSON string (`Fn::Select` decoded it, the path indexes its characters), and a missing element or a resource not created yet gives `null` where `Fn::Select` gave `''`";
        match index {
            Index::Int(_) | Index::BigInt | Index::Str(_) => {
                pieces.push(Piece::Node(self.index));
                self.rebuild(
                    "get_attr",
                    &pieces,
                    Applicability::Unsafe,
                    common.to_owned(),
                )
            }
            Index::NumStr(n) => {
                pieces.push(Piece::int(n));
                self.rebuild(
                    "get_attr",
                    &pieces,
                    Applicability::Unsafe,
                    format!(
                        "the index {} is written as the integer {n}, because a `get_attr` path does not convert strings (if the attribute is a map with the key {0}, keep the string); {common}",
                        self.index_text()
                    ),
                )
            }
            _ => manual(
                format!(
                    "the index `{}` is not a literal integer or key, and a `get_attr` path does not convert it as `Fn::Select` does",
                    self.index_text()
                ),
                "write the integer index or the key into the `get_attr` path by hand",
            ),
        }
    }

    /// `Fn::Select: [i, {str_split: [d, S]}]` (or `Fn::Split`, from the 2013-05-23 form).
    fn via_split(&self, function: &str, target: NodeId) -> Plan {
        let doc = self.doc;
        let Some(&[delimiter, string]) = doc.items(target) else {
            return manual(
                format!("its `{function}` is not `[delimiter, string]`"),
                "write `str_split: [delimiter, string, index]` by hand",
            );
        };
        let index = Index::of(doc, self.index);
        let Some(n) = index.as_int() else {
            return manual(
                format!(
                    "the index `{}` is not a literal integer, and `str_split` fails where `Fn::Select` gives `''`",
                    self.index_text()
                ),
                "write `str_split: [delimiter, string, index]` with the integer index by hand",
            );
        };
        let pieces = [
            Piece::Node(delimiter),
            Piece::Node(string),
            Piece::Node(self.index),
        ];
        match (doc.str_value(delimiter), doc.str_value(string)) {
            (Some(d), Some(s)) if !d.is_empty() => {
                let parts = s.split(d).count();
                if n.position(parts).is_some() {
                    self.rebuild(
                        "str_split",
                        &pieces,
                        Applicability::Safe,
                        format!(
                            "the string and the delimiter are literals with {parts} parts, so the index is in range and both give the same part"
                        ),
                    )
                } else {
                    self.replace(
                        &Piece::empty(empty_string(doc, self.map)),
                        "Replace the call with `''`, what Heat computes (the index is out of range)".to_owned(),
                        Applicability::Safe,
                        format!(
                            "the literal string has {parts} parts: `Fn::Select` gives `''` for index {}, and `str_split` would fail",
                            self.index_text()
                        ),
                    )
                }
            }
            _ => self.rebuild(
                "str_split",
                &pieces,
                Applicability::Unsafe,
                "the same part while the index is in range; but out of range `str_split` fails (`Incorrect index to \"str_split\" should be between 0 and N`) where `Fn::Select` gave `''`, and a null string gives `null` instead of an error".to_owned(),
            ),
        }
    }

    /// `Fn::Select: [i, {Fn::Select: …}]`: the inner call goes first.
    fn nested(&self, inner: NodeId, key: NodeId, args: NodeId, depth: usize) -> Plan {
        let help = "the inner `Fn::Select` is rewritten first, then this one".to_owned();
        if depth >= MAX_NESTING {
            return manual("its collection is a deeply nested `Fn::Select`", help);
        }
        match plan(self.ucx, inner, key, args, depth + 1) {
            Plan::Fix {
                applicability: Applicability::Unsafe,
                help: inner_help,
                ..
            } => manual(
                "its collection is another `Fn::Select`, whose rewrite is Unsafe",
                format!(
                    "run with `--unsafe-fixes` to rewrite the inner call (then this one) if this is acceptable: {inner_help}"
                ),
            ),
            Plan::Fix { .. } => manual(
                "its collection is another `Fn::Select`, which is rewritten first",
                help,
            ),
            Plan::Manual {
                reason,
                help: inner_help,
            } => manual(
                format!(
                    "its collection is another `Fn::Select`, which needs a manual change: {reason}"
                ),
                inner_help,
            ),
        }
    }

    /// A literal list (`items`) or map (`map`) with a literal index: the element.
    fn fold(&self, items: &[NodeId], map: Option<NodeId>) -> Plan {
        let doc = self.doc;
        let index = Index::of(doc, self.index);
        let (selected, what): (Option<NodeId>, &str) = match map {
            None => {
                let Some(n) = index.as_int() else {
                    return self.fold_refused(&index, "list");
                };
                (
                    n.position(items.len()).and_then(|p| items.get(p).copied()),
                    "index",
                )
            }
            Some(map) => {
                let Some(key) = doc.str_value(self.index) else {
                    return self.fold_refused(&index, "map");
                };
                (doc.get(map, key), "key")
            }
        };
        let others: Vec<NodeId> = match map {
            None => items
                .iter()
                .copied()
                .filter(|&i| Some(i) != selected)
                .collect(),
            Some(map) => doc
                .raw_entries(map)
                .unwrap_or_default()
                .iter()
                .map(|e| e.value)
                .filter(|&v| Some(v) != selected)
                .collect(),
        };
        let mut functions: Vec<&str> = Vec::new();
        for &other in &others {
            functions_in(doc, other, &mut functions);
        }
        functions.sort_unstable();
        functions.dedup();
        let (applicability, help) = if functions.is_empty() {
            (
                Applicability::Safe,
                "the index and the collection are literals, and the other elements call no function: the value is what Heat computes".to_owned(),
            )
        } else {
            (
                Applicability::Unsafe,
                format!(
                    "the other elements call {}: Heat resolved and validated them, and a `get_resource`/`get_attr` among them made the resource depend on another; the folded value drops all that",
                    functions
                        .iter()
                        .map(|f| format!("`{f}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        };
        match selected {
            Some(element) => self.replace(
                &Piece::Node(element),
                format!(
                    "Replace the call with the selected element `{}`",
                    short(text_of(doc, element))
                ),
                applicability,
                help,
            ),
            None => self.replace(
                &Piece::empty(empty_string(doc, self.map)),
                format!("Replace the call with `''`, what Heat computes (the {what} is missing)"),
                applicability,
                help,
            ),
        }
    }

    /// Why a literal collection cannot be folded with this index.
    fn fold_refused(&self, index: &Index, kind: &str) -> Plan {
        if *index == Index::Collection && self.index_is_call() {
            return manual(
                format!(
                    "the index is computed, and no HOT function of 2015-10-15 selects from a literal {kind} by a computed index"
                ),
                format!(
                    "make the {kind} a `json` parameter (or a `comma_delimited_list` one) and write `get_param: [<parameter>, <index>]`; `yaql` (from 2016-10-14) could select too, but reports errors differently"
                ),
            );
        }
        let needed = if kind == "map" {
            "`Index to \"Fn::Select\" must be a string`"
        } else {
            "`Index to \"Fn::Select\" must be an integer`"
        };
        manual(
            format!(
                "the index `{}` does not fit a {kind}, and Heat's `Fn::Select` fails on it ({needed})",
                self.index_text()
            ),
            "write the element you want instead of the call",
        )
    }

    /// A scalar collection: `''` and `null` give `''`; a string is decoded as JSON.
    fn scalar_collection(&self, value: &ScalarValue, text: &str) -> Plan {
        let literal_index = !matches!(Index::of(self.doc, self.index), Index::Collection);
        let empty = match value {
            ScalarValue::Null => true,
            ScalarValue::Str => text.is_empty(),
            _ => false,
        };
        if empty && literal_index {
            return self.replace(
                &Piece::empty(empty_string(self.doc, self.map)),
                "Replace the call with `''`, what Heat computes for an empty collection".to_owned(),
                Applicability::Safe,
                "Heat's `Fn::Select` gives `''` for an empty or null collection".to_owned(),
            );
        }
        if matches!(value, ScalarValue::Str) {
            return manual(
                "the collection is a string, which `Fn::Select` decodes as JSON",
                "write the selected element instead of the call (or a `json` parameter and a `get_param` path)",
            );
        }
        manual(
            "the collection is not a list, a map or a string, and Heat's `Fn::Select` fails on it",
            "write the value you want instead of the call",
        )
    }
}

/// The type of a parameter a `get_param` names: declared, or `string` for a pseudo parameter.
fn parameter_type<'a>(ucx: &UpgradeContext<'a>, name: &str) -> Option<&'a str> {
    let template = ucx.cx.template;
    if let Some(parameter) = template.parameter(name) {
        let ty = template
            .doc
            .str_value(template.doc.get(parameter.value, "type")?)?;
        return hotfix_hot::PARAMETER_TYPES.contains(&ty).then_some(ty);
    }
    PSEUDO_PARAMETERS.contains(&name).then_some("string")
}

fn json_help(name: &str) -> String {
    format!(
        "the same for list and map values of `{name}`; but a `json` value that is itself a string is JSON-decoded again by `Fn::Select` while the path indexes its characters, and where `Fn::Select` failed (an integer index on a map, a key on a list) the path gives `''`"
    )
}

/// The names of the functions (single-key maps with a function's name) inside a node.
fn functions_in<'d>(doc: &'d Document, node: NodeId, out: &mut Vec<&'d str>) {
    let mut stack = vec![node];
    while let Some(id) = stack.pop() {
        match &doc.node(id).kind {
            NodeKind::Sequence { items, .. } => stack.extend(items.iter().copied()),
            NodeKind::Mapping { entries, .. } => {
                if let [entry] = entries.as_slice()
                    && let Some(name) = doc.str_value(entry.key)
                    && Function::from_name(name).is_some()
                {
                    out.push(name);
                }
                stack.extend(entries.iter().map(|e| e.value));
            }
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => {}
        }
    }
}

/// A short one-line form of a node's text, for messages.
fn short(text: &str) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 40 {
        let cut: String = line.chars().take(37).collect();
        format!("{cut}...")
    } else {
        line
    }
}

/// `[a, b, c]` from the pieces' texts, for the fix message.
fn preview(doc: &Document, pieces: &[Piece]) -> String {
    let texts: Vec<String> = pieces
        .iter()
        .map(|p| match p {
            Piece::Node(id) => short(text_of(doc, *id)),
            Piece::Text { text, .. } => text.clone(),
        })
        .collect();
    short(&format!("[{}]", texts.join(", ")))
}
