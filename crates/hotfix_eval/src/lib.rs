//! What Heat computes from a template at stack create, offline and exactly: parameter values
//! (converted and checked as Heat does), condition values, which resources and outputs are
//! enabled, and every resource field and output value with every function that needs no cloud
//! evaluated, per the template's version.
//!
//! The answer has the shape of the Heat oracle's `resolve` answer (`scripts/heat_oracle.py`,
//! and `../shared/oracles/heat/resolve.py` in the team's shared folder beside the repository),
//! so the two compare directly. Resources act as created: `get_resource: r` is `"<ref:r>"`,
//! `get_attr: [r, a, 0]` is `"<attr:r.a.0>"` unless [`Inputs::attrs`] supplies the attribute.
//!
//! Not evaluated (reported as errors of type `NotEvaluated`): `yaql` (Heat's YAQL engine),
//! `digest` with an algorithm other than those of [`DIGEST_ALGORITHMS`], and a function given
//! the result of a removed function whose arguments hold calls (Heat then works on Python
//! function objects: it compares their results, prints their representations and fails to
//! serialise them, all deterministically, but that is not modelled here). `resource_facade` fails as in a stack without a parent; custom
//! constraints accept every value, and so does an `allowed_pattern` that [`regex`] does not
//! model.

pub mod constraints;
mod digest;
mod eval;
mod expr;
mod functions;
mod json;
mod params;
mod pyset;
pub mod regex;
mod value;
mod yaml_out;

pub use digest::ALGORITHMS as DIGEST_ALGORITHMS;
pub use eval::{Evaluation, Folded, Folder, Problem, evaluate, fold, fold_condition, parse_error};
pub use params::{PROJECT_ID, STACK_ID, STACK_NAME};
pub use value::{NotNumber, Num, Value};
pub use yaml_out::to_yaml;

use std::collections::BTreeMap;

use hotfix_yaml::NodeId;

/// How much memory the values one evaluation computes may take in all, about
/// ([`Value::weight`]): real templates compute a few megabytes at most; past this, hotfix
/// reports [`Fail::budget`] instead of computing on.
pub const BUDGET: usize = 64 << 20;

/// What `openstack stack create` sends with a template.
#[derive(Debug, Default, Clone)]
pub struct Inputs {
    /// User parameter values: the environments' `parameters`, then `-P` and
    /// `--parameter-file` values (strings), later ones winning.
    pub params: Vec<(String, Value)>,
    /// The environments' `parameter_defaults`.
    pub parameter_defaults: Vec<(String, Value)>,
    /// `get_file` contents by the key the template uses.
    pub files: BTreeMap<String, String>,
    /// Attribute values: `{resource: {attribute: value}}`.
    pub attrs: BTreeMap<String, Vec<(String, Value)>>,
}

impl Inputs {
    /// Takes an environment file's `parameters` and `parameter_defaults` (after those of the
    /// environments taken before, as `openstack stack create -e` takes them in order).
    ///
    /// # Errors
    /// Heat's words for a section it does not know, or one that is not a mapping.
    pub fn add_environment(&mut self, doc: &hotfix_yaml::Document) -> Result<(), String> {
        let root = doc.root();
        for entry in doc.entries(root) {
            let key = Value::from_node(doc, entry.key).py_str();
            let target = match key.as_str() {
                "parameters" => &mut self.params,
                "parameter_defaults" => &mut self.parameter_defaults,
                "resource_registry"
                | "encrypted_param_names"
                | "event_sinks"
                | "parameter_merge_strategies" => continue,
                other => return Err(format!("environment has unknown section \"{other}\"")),
            };
            match Value::from_node(doc, entry.value) {
                Value::Map(entries) => {
                    for (k, v) in entries {
                        target.push((k.py_str(), v));
                    }
                }
                Value::None => {}
                _ => return Err(format!("\"{key}\" must be a mapping")),
            }
        }
        Ok(())
    }
}

/// An exception Heat raises: its class and `str()`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fail {
    pub(crate) message: String,
    pub(crate) class: &'static str,
    /// Where in the template, when known.
    pub(crate) node: Option<NodeId>,
}

impl Fail {
    pub(crate) fn new(class: &'static str, message: String) -> Fail {
        Fail {
            message,
            class,
            node: None,
        }
    }

    pub(crate) fn type_error(message: String) -> Fail {
        Fail::new("TypeError", message)
    }

    pub(crate) fn value_error(message: String) -> Fail {
        Fail::new("ValueError", message)
    }

    /// A `KeyError`, whose `str()` is the `repr()` of its argument.
    pub(crate) fn key_error(key: &str) -> Fail {
        Fail::new("KeyError", value::str_repr(key))
    }

    pub(crate) fn attribute_error(v: &Value, attribute: &str) -> Fail {
        Fail::new(
            "AttributeError",
            format!("'{}' object has no attribute '{attribute}'", v.type_name()),
        )
    }

    pub(crate) fn not_evaluated(message: String) -> Fail {
        Fail::new("NotEvaluated", message)
    }

    /// `bytes` met where Heat would compute with them (what it makes of them is not
    /// modelled).
    pub(crate) fn bytes() -> Fail {
        Fail::not_evaluated("a !!binary value (Python bytes) is not evaluated".to_owned())
    }

    /// The values of one evaluation would outweigh [`BUDGET`]: where Heat itself would run
    /// out of memory or time (a `repeat` over the product of long lists, nested `repeat`s,
    /// `str_replace` and `list_join` multiplying long strings), hotfix stops.
    pub(crate) fn budget() -> Fail {
        Fail::not_evaluated(format!(
            "hotfix stops evaluating here: the values computed would take more than {} MiB \
             (its evaluation budget; Heat would need at least as much memory and time)",
            BUDGET >> 20
        ))
    }

    pub(crate) fn at(mut self, node: NodeId) -> Fail {
        if self.node.is_none() {
            self.node = Some(node);
        }
        self
    }

    pub(crate) fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": self.message, "error_type": self.class})
    }
}
