//! The evaluation of a whole template: parameters, conditions, resources, outputs, in the order
//! and with the error handling of the Heat oracle's `resolve` (which calls Heat's
//! `Template.resource_definitions`, `Template.outputs`, `Conditions.is_enabled` and
//! `function.resolve`).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt::Write as _;

use hotfix_hot::function_args::{self, Kind, Refusal, Shape};
use hotfix_hot::{Availability, ConditionAvailability, Function, Template, Version};
use hotfix_yaml::{Document, NodeId, NodeKind, Span};
use serde_json::{Map, Value as Json, json};

use crate::expr::{Call, Class, Expr};
use crate::functions::{self as f, ReplaceKind};
use crate::params::Parameters;
use crate::value::{Dict, Value, get};
use crate::{Fail, Inputs};

/// The result of evaluating a template.
#[derive(Debug)]
pub struct Evaluation {
    /// The oracle's answer shape: `version`, `template_class`, `parameters`, `conditions`,
    /// `resources`, `disabled_resources`, `outputs`, and the `*_error` entries.
    pub json: Json,
    /// Every error, with where it is in the template.
    pub problems: Vec<Problem>,
}

/// An error Heat would raise, located.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// What it belongs to: `parameters`, `conditions.c`, `resources.r.properties`,
    /// `outputs.o`, …
    pub path: String,
    /// Heat's text.
    pub message: String,
    /// The class of Heat's exception (`ValueError`, `StackValidationFailed`, …), or
    /// `NotEvaluated` for what cannot be computed offline.
    pub class: String,
    pub span: Option<Span>,
}

/// Evaluates a template loaded by `hotfix_yaml`.
pub fn evaluate(doc: &Document, inputs: &Inputs) -> Evaluation {
    let template = Template::new(doc);
    let mut eval = Evaluator {
        doc,
        template: &template,
        version: Version::LATEST,
        inputs,
        params: Params::Owned(Parameters::default()),
        conditions: HashMap::new(),
        condition_state: RefCell::new(HashMap::new()),
        problems: Vec::new(),
        enabled: Vec::new(),
        stack_error: None,
        spent: Cell::new(0),
    };
    let json = eval.run();
    Evaluation {
        json,
        problems: eval.problems,
    }
}

/// The value of a snippet computed from literals alone, as Heat would compute it in the
/// version: a call whose result does not depend on parameters, resources, files, conditions
/// or a cloud (`list_join` of literals, `str_split` of a literal, `repeat` over literal
/// lists, ...). `None` when any part depends on those, or Heat would raise.
///
/// Rules use it to see through calls without guessing: a value folded here is what Heat
/// computes whatever the stack's inputs.
pub fn fold(doc: &Document, version: Version, node: NodeId) -> Option<Value> {
    with_folding(doc, version, |eval| {
        let expr = eval.parse(node, Ctx::Value, "").ok()?;
        if !constant(&expr) || holds_function_objects(&expr) {
            return None;
        }
        eval.resolve(&expr).ok()
    })
}

/// `f` with an evaluator of the template `doc` in `version` that folds: no inputs, no
/// parameters.
fn with_folding<R>(
    doc: &Document,
    version: Version,
    f: impl FnOnce(&Evaluator<'_>) -> Option<R>,
) -> Option<R> {
    let template = Template::new(doc);
    let inputs = Inputs::default();
    let eval = Evaluator::folding(
        doc,
        &template,
        version,
        &inputs,
        Params::Owned(Parameters::default()),
    );
    f(&eval)
}

/// The error Heat raises when it parses a snippet (a field's value, or with `condition` a
/// condition's definition), if any: the constructor of one of its calls refuses its arguments
/// (Heat parses a call's arguments before it builds the call, so an inner call's error comes
/// first). Its `message` has the path from the snippet (`.list_join: Incorrect arguments …`),
/// its `span` is the refused call's.
pub fn parse_error(
    doc: &Document,
    version: Version,
    node: NodeId,
    condition: bool,
) -> Option<Problem> {
    let ctx = if condition {
        Ctx::Condition
    } else {
        Ctx::Value
    };
    let fail = with_folding(doc, version, |eval| eval.parse(node, ctx, "").err())?;
    Some(Problem {
        path: String::new(),
        message: fail.message,
        class: fail.class.to_owned(),
        span: fail.node.map(|n| doc.node(n).span),
    })
}

/// The value of a condition (a resource's `condition`, or a definition of the `conditions`
/// section) computed from literals alone, as Heat computes it in the version: `false`,
/// `{equals: [a, b]}`, `{not: true}`. `None` when it depends on parameters or on other
/// conditions (a name), or Heat would raise.
pub fn fold_condition(doc: &Document, version: Version, node: NodeId) -> Option<bool> {
    let template = Template::new(doc);
    let inputs = Inputs::default();
    let eval = Evaluator::folding(
        doc,
        &template,
        version,
        &inputs,
        Params::Owned(Parameters::default()),
    );
    let expr = eval.parse(node, Ctx::Condition, "").ok()?;
    if !constant_condition(&expr) {
        return None;
    }
    match eval.resolve(&expr).ok()? {
        Value::Bool(value) => Some(value),
        _ => None,
    }
}

/// [`constant`] for a condition: a boolean, or a condition function of values (`equals`,
/// `contains`) or of constant conditions (`not`, `and`, `or`). A string where a condition is
/// expected names another condition, which is not known here.
fn constant_condition(e: &Expr) -> bool {
    match e {
        Expr::Data(Value::Bool(_)) => true,
        Expr::Call(call) if !call.removed => match call.function {
            Function::Equals | Function::Contains => constant(&call.args),
            Function::Not => constant_condition(&call.args),
            Function::And | Function::Or => {
                matches!(&call.args, Expr::List(items) if items.iter().all(constant_condition))
            }
            _ => false,
        },
        _ => false,
    }
}

/// A value computed from literals and parameter defaults.
#[derive(Debug, Clone)]
pub struct Folded {
    pub value: Value,
    /// The parameters whose defaults the value used (each once, in the order met): empty when
    /// the value is computed from literals alone, and Heat computes it whatever the inputs.
    pub defaults: Vec<String>,
}

/// [`fold`], also through `get_param` of a template parameter that has a valid default, for
/// many snippets of one template: the template's model and its parameters are built once.
pub struct Folder<'a> {
    doc: &'a Document,
    version: Version,
    template: Model<'a>,
    inputs: Inputs,
    /// The parameters, with no input given; `None` when Heat refuses their schemas. Which of
    /// them takes its own valid default is asked of those a snippet uses, when it uses them.
    params: Option<Parameters>,
}

impl<'a> Folder<'a> {
    /// A folder for the template `doc` holds, read as `version`.
    pub fn new(doc: &'a Document, version: Version) -> Folder<'a> {
        Folder::of(doc, Model::Owned(Template::new(doc)), version)
    }

    /// [`Folder::new`] for a template whose model the caller has built already
    /// (`Template::new` of its document). A version assumed for it
    /// ([`Template::assume_version`]) changes nothing: the evaluator reads the declared one,
    /// as Heat does.
    pub fn with_template(template: &'a Template<'a>, version: Version) -> Folder<'a> {
        Folder::of(template.doc, Model::Borrowed(template), version)
    }

    fn of(doc: &'a Document, template: Model<'a>, version: Version) -> Folder<'a> {
        let inputs = Inputs::default();
        let params = Parameters::new(doc, &template, &inputs).ok();
        Folder {
            doc,
            version,
            template,
            inputs,
            params,
        }
    }

    /// The value Heat computes for the snippet at `node` when the stack is created with no
    /// value given for the parameters it uses (no `-P`, no environment). `Folded::defaults`
    /// names them, since a user value changes the result. `None` when anything else is
    /// needed (a parameter without a default, a pseudo parameter, a resource, a file, a
    /// condition), or Heat would raise.
    pub fn fold_with_defaults(&self, node: NodeId) -> Option<Folded> {
        let params = self.params.as_ref()?;
        let eval = Evaluator::folding(
            self.doc,
            &self.template,
            self.version,
            &self.inputs,
            Params::Borrowed(params),
        );
        let expr = eval.parse(node, Ctx::Value, "").ok()?;
        let mut defaults = Vec::new();
        if !eval.constant_with_defaults(&expr, &|name| params.defaulted(name), &mut defaults)
            || holds_function_objects(&expr)
        {
            return None;
        }
        let value = eval.resolve(&expr).ok()?;
        Some(Folded { value, defaults })
    }
}

impl std::fmt::Debug for Folder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Folder")
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// A [`Folder`]'s template model: its own, or its caller's.
enum Model<'a> {
    Owned(Template<'a>),
    Borrowed(&'a Template<'a>),
}

impl<'a> std::ops::Deref for Model<'a> {
    type Target = Template<'a>;

    fn deref(&self) -> &Template<'a> {
        match self {
            Model::Owned(t) => t,
            Model::Borrowed(t) => t,
        }
    }
}

/// The evaluator's parameters: its own, or a [`Folder`]'s.
enum Params<'a> {
    Owned(Parameters),
    Borrowed(&'a Parameters),
}

impl std::ops::Deref for Params<'_> {
    type Target = Parameters;

    fn deref(&self) -> &Parameters {
        match self {
            Params::Owned(p) => p,
            Params::Borrowed(p) => p,
        }
    }
}

/// Whether a parsed snippet computes the same value whatever the stack.
fn constant(e: &Expr) -> bool {
    match e {
        Expr::Data(_) => true,
        Expr::Ellipsis => false,
        Expr::List(items) => items.iter().all(constant),
        Expr::Map(entries) => entries.iter().all(|(_, v)| constant(v)),
        Expr::Call(call) => constant_function(call) && constant(&call.args),
    }
}

/// Whether a call computes the same value whatever the stack, given constant arguments.
fn constant_function(call: &Call) -> bool {
    !call.removed
        && !matches!(
            call.function,
            Function::GetParam
                | Function::GetResource
                | Function::GetAttr
                | Function::GetFile
                | Function::Yaql
                | Function::ResourceFacade
                | Function::FnResourceFacade
                | Function::Ref
                | Function::FnGetAzs
                | Function::If
        )
}

impl<'a> Evaluator<'a> {
    /// An evaluator for folding one snippet ([`fold`], [`fold_condition`],
    /// [`Folder::fold_with_defaults`]): no conditions parsed, no problems, no resources.
    fn folding(
        doc: &'a Document,
        template: &'a Template<'a>,
        version: Version,
        inputs: &'a Inputs,
        params: Params<'a>,
    ) -> Evaluator<'a> {
        Evaluator {
            doc,
            template,
            version,
            inputs,
            params,
            conditions: HashMap::new(),
            condition_state: RefCell::new(HashMap::new()),
            problems: Vec::new(),
            enabled: Vec::new(),
            stack_error: None,
            spent: Cell::new(0),
        }
    }
}

impl Evaluator<'_> {
    /// [`constant`], with `get_param` of a defaulted parameter (by a literal name) allowed;
    /// the names go to `used`.
    fn constant_with_defaults(
        &self,
        e: &Expr,
        defaulted: &dyn Fn(&str) -> bool,
        used: &mut Vec<String>,
    ) -> bool {
        match e {
            Expr::Data(_) => true,
            Expr::Ellipsis => false,
            Expr::List(items) => items
                .iter()
                .all(|i| self.constant_with_defaults(i, defaulted, used)),
            Expr::Map(entries) => entries
                .iter()
                .all(|(_, v)| self.constant_with_defaults(v, defaulted, used)),
            Expr::Call(call) if call.function == Function::GetParam && !call.removed => {
                if !constant(&call.args) {
                    return false;
                }
                let name = match self.resolve(&call.args) {
                    Ok(Value::Str(name)) => name,
                    Ok(Value::List(items)) => match items.first() {
                        Some(Value::Str(name)) => name.clone(),
                        _ => return false,
                    },
                    _ => return false,
                };
                if !defaulted(&name) {
                    return false;
                }
                if !used.contains(&name) {
                    used.push(name);
                }
                true
            }
            Expr::Call(call) => {
                constant_function(call) && self.constant_with_defaults(&call.args, defaulted, used)
            }
        }
    }
}

struct Evaluator<'a> {
    doc: &'a Document,
    template: &'a Template<'a>,
    version: Version,
    inputs: &'a Inputs,
    params: Params<'a>,
    /// Parsed condition definitions.
    conditions: HashMap<String, Expr>,
    /// `Conditions._resolved`: `None` while in progress.
    condition_state: RefCell<HashMap<String, Option<Result<bool, Fail>>>>,
    problems: Vec<Problem>,
    /// The names of the resources that exist (enabled) in the stack.
    enabled: Vec<String>,
    /// Why the stack's resources cannot be looked up (their definitions failed): what every
    /// `get_resource`/`get_attr` of an output raises then.
    stack_error: Option<Fail>,
    /// The weight of the values computed so far ([`Value::weight`]), against
    /// [`crate::BUDGET`].
    spent: Cell<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Value,
    Condition,
}

impl Evaluator<'_> {
    fn run(&mut self) -> Json {
        let mut out = Map::new();
        let Some(version) = self.template.version() else {
            let fail = self.version_error();
            self.problem("template", &fail);
            out.insert("error".into(), fail.to_json());
            return Json::Object(out);
        };
        self.version = version;
        let key = "heat_template_version";
        let written = self
            .doc
            .get(self.doc.root(), key)
            .and_then(|n| self.doc.str_value(n))
            .unwrap_or(version.date());
        out.insert("version".into(), json!(format!("{key}: {written}")));
        out.insert(
            "template_class".into(),
            json!(format!("HOTemplate{}", version.date().replace('-', ""))),
        );

        // The oracle's stack takes `set(resources)` first.
        if let Some(fail) = self.resource_names_error() {
            self.problem("resources", &fail);
            out.insert("error".into(), fail.to_json());
            return Json::Object(out);
        }

        // Parameters.
        match Parameters::new(self.doc, self.template, self.inputs) {
            Ok(params) => self.params = Params::Owned(params),
            Err(fail) => {
                self.problem("parameters", &fail);
                out.insert("error".into(), fail.to_json());
                return Json::Object(out);
            }
        }
        if let Err(fail) = self.params.validate() {
            self.problem("parameters", &fail);
            out.insert("parameter_error".into(), fail.to_json());
        }
        let mut params = Map::new();
        for (name, value) in self.params.listing() {
            let entry = match value {
                Ok(v) => json!({"value": v.to_json()}),
                Err(fail) => fail.to_json(),
            };
            params.insert(name, entry);
        }
        out.insert("parameters".into(), Json::Object(params));

        // Conditions.
        let conditions_ok = match self.parse_conditions() {
            Ok(names) => {
                let mut values = Map::new();
                for name in names {
                    let entry = match self.is_enabled(&Value::Str(name.clone())) {
                        Ok(b) => json!({"value": b}),
                        Err(fail) => {
                            self.problem(&format!("conditions.{name}"), &fail);
                            fail.to_json()
                        }
                    };
                    values.insert(name, entry);
                }
                if !values.is_empty() {
                    out.insert("conditions".into(), Json::Object(values));
                }
                Ok(())
            }
            Err(fail) => {
                self.problem("conditions", &fail);
                out.insert("conditions_error".into(), fail.to_json());
                Err(fail)
            }
        };

        self.resources(&mut out, conditions_ok.as_ref().err());
        self.outputs(&mut out, conditions_ok.as_ref().err());
        Json::Object(out)
    }

    /// Heat's error for a template without a version it accepts.
    fn version_error(&self) -> Fail {
        let root = self.doc.root();
        let cfn = ["AWSTemplateFormatVersion", "HeatTemplateFormatVersion"]
            .into_iter()
            .find(|key| self.doc.get(root, key).is_some());
        match (cfn, self.doc.get(root, "heat_template_version")) {
            (Some(key), None) => Fail::not_evaluated(format!(
                "a CloudFormation-format template ({key}) is not evaluated: only HOT \
                     templates (heat_template_version) are"
            )),
            (_, Some(node)) => match self.doc.str_value(node) {
                Some(text) => Fail::new(
                    "InvalidTemplateVersion",
                    format!(
                        "The template version is invalid: \"heat_template_version: {text}\". \
                             \"heat_template_version\" should be one of: {}",
                        Version::accepted_strings().join(", ")
                    ),
                )
                .at(node),
                None => Fail::new(
                    "InvalidTemplateVersion",
                    "The template version is invalid: Template version was not provided".to_owned(),
                )
                .at(node),
            },
            (None, None) => Fail::new(
                "InvalidTemplateVersion",
                "The template version is invalid: Template version was not provided".to_owned(),
            ),
        }
    }

    fn problem(&mut self, path: &str, fail: &Fail) {
        self.problems.push(Problem {
            path: path.to_owned(),
            message: fail.message.clone(),
            class: fail.class.to_owned(),
            span: fail.node.map(|n| self.doc.node(n).span),
        });
    }

    // ---------------------------------------------------------------------------------------
    // Conditions
    // ---------------------------------------------------------------------------------------

    fn parse_conditions(&mut self) -> Result<Vec<String>, Fail> {
        if self.version < Version::V2016_10_14 {
            return Ok(Vec::new());
        }
        let Some(section) = self.doc.get(self.doc.root(), "conditions") else {
            return Ok(Vec::new());
        };
        let section = self.doc.resolve(section);
        let mut names = Vec::new();
        match &self.doc.node(section).kind {
            NodeKind::Mapping { .. } => {}
            NodeKind::Scalar(s) if matches!(s.value, hotfix_yaml::ScalarValue::Null) => {
                return Err(Fail::new(
                    "StackValidationFailed",
                    "Conditions validation error: Condition definitions must be a map. Found a NoneType instead".to_owned(),
                )
                .at(section));
            }
            _ => {
                let found = Value::from_node(self.doc, section).type_name();
                return Err(Fail::new(
                    "StackValidationFailed",
                    format!("Conditions validation error: Condition definitions must be a map. Found a {found} instead"),
                )
                .at(section));
            }
        }
        for entry in self.doc.entries(section) {
            let key = Value::from_node(self.doc, entry.key);
            // `'.'.join([CONDITIONS, name])`: a name that is not a string (`off:` is false).
            if !matches!(key, Value::Str(_)) {
                return Err(Fail::type_error(format!(
                    "sequence item 1: expected str instance, {} found",
                    key.type_name()
                ))
                .at(entry.key));
            }
            let name = key.py_str();
            let parsed = self.parse(entry.value, Ctx::Condition, &format!("conditions.{name}"))?;
            self.conditions.insert(name.clone(), parsed);
            names.push(name);
        }
        names.sort();
        Ok(names)
    }

    /// `Conditions.is_enabled`.
    fn is_enabled(&self, name: &Value) -> Result<bool, Fail> {
        match name {
            Value::None => return Ok(true),
            Value::Bool(b) => return Ok(*b),
            _ => {}
        }
        let Some(key) = name.as_str().filter(|n| self.conditions.contains_key(*n)) else {
            return Err(Fail::value_error(format!(
                "Invalid condition \"{}\"",
                name.py_str()
            )));
        };
        let state = self.condition_state.borrow().get(key).cloned();
        match state {
            Some(Some(result)) => return result,
            Some(None) => {
                return Err(Fail::new(
                    "StackValidationFailed",
                    format!(
                        "Condition validation error: Circular definition for condition \"{key}\""
                    ),
                ));
            }
            None => {}
        }
        self.condition_state
            .borrow_mut()
            .insert(key.to_owned(), None);
        let expr = &self.conditions[key];
        let result = self.resolve(expr).and_then(|v| match v {
            Value::Bool(b) => Ok(b),
            other => Err(Fail::new(
                "StackValidationFailed",
                format!(
                    "Condition validation error: The definition of condition \"{key}\" is invalid: {}",
                    other.py_str()
                ),
            )),
        });
        // As in Heat, only a value is kept: after an error the condition stays "in
        // progress", so that asking again reports a circular definition.
        // What cannot be evaluated offline stays unknown, not "in progress".
        if result.is_ok() || result.as_ref().is_err_and(|f| f.class == "NotEvaluated") {
            self.condition_state
                .borrow_mut()
                .insert(key.to_owned(), Some(result.clone()));
        }
        result
    }

    // ---------------------------------------------------------------------------------------
    // Resources
    // ---------------------------------------------------------------------------------------

    /// The oracle's `resource_definitions`: all resources parsed together with the stack's
    /// conditions; when that fails, each alone (a template of its own, fresh conditions, every
    /// other resource of the section known to exist).
    fn resources(&mut self, out: &mut Map<String, Json>, conditions_error: Option<&Fail>) {
        let mut resources = Map::new();
        let mut disabled = Vec::new();
        let names: Vec<(String, NodeId)> = self
            .template
            .resources
            .iter()
            .map(|r| (r.name.clone(), r.value))
            .collect();
        let section_error = self.section_error("resources");
        let mut whole: Vec<(String, Option<ResourceDef>)> = Vec::new();
        let mut whole_error = conditions_error.cloned().or(section_error);
        if whole_error.is_none() {
            for (name, node) in &names {
                match self.resource_definition(name, *node) {
                    Ok(def) => whole.push((name.clone(), def)),
                    Err(fail) => {
                        whole_error = Some(fail);
                        break;
                    }
                }
            }
        }
        if let Some(fail) = &whole_error {
            self.problem("resources", fail);
            out.insert("resources_error".into(), fail.to_json());
            // Each alone: fresh conditions, every resource of the section exists.
            let shared = self.condition_state.replace(HashMap::new());
            self.enabled = names.iter().map(|(n, _)| n.clone()).collect();
            for (name, node) in &names {
                self.condition_state.replace(HashMap::new());
                let def = match conditions_error {
                    Some(fail) => Err(fail.clone()),
                    None => self.resource_definition(name, *node),
                };
                match def {
                    Ok(None) => disabled.push(name.clone()),
                    Ok(Some(def)) => {
                        let entry = self.resolve_resource(name, &def);
                        resources.insert(name.clone(), entry);
                    }
                    Err(fail) => {
                        self.problem(&format!("resources.{name}"), &fail);
                        resources.insert(name.clone(), json!({"parse_error": fail.to_json()}));
                    }
                }
            }
            self.condition_state.replace(shared);
            // The outputs' stack looks its resources up through the failing definitions.
            self.stack_error.clone_from(&whole_error);
        } else {
            self.enabled = whole
                .iter()
                .filter(|(_, d)| d.is_some())
                .map(|(n, _)| n.clone())
                .collect();
            for (name, def) in &whole {
                match def {
                    None => disabled.push(name.clone()),
                    Some(def) => {
                        let entry = self.resolve_resource(name, def);
                        resources.insert(name.clone(), entry);
                    }
                }
            }
        }
        out.insert("resources".into(), Json::Object(resources));
        if !disabled.is_empty() {
            disabled.sort();
            out.insert("disabled_resources".into(), json!(disabled));
        }
    }

    /// `set(resources section)`: fails for a number or a list holding collections.
    fn resource_names_error(&self) -> Option<Fail> {
        let node = self.doc.get(self.doc.root(), "resources")?;
        let fail = |message: String| Some(Fail::type_error(message).at(node));
        match Value::from_node(self.doc, node) {
            Value::List(items) => items
                .iter()
                .find(|i| matches!(i, Value::List(_) | Value::Map(_)))
                .and_then(|bad| fail(format!("unhashable type: '{}'", bad.type_name()))),
            v @ (Value::Int(_) | Value::BigInt(_) | Value::Float(_) | Value::Bool(true)) => {
                fail(format!("'{}' object is not iterable", v.type_name()))
            }
            _ => None,
        }
    }

    /// A `resources` or `outputs` section that is not a mapping: Heat's `.items()` fails.
    fn section_error(&self, section: &str) -> Option<Fail> {
        let node = self.doc.get(self.doc.root(), section)?;
        let value = Value::from_node(self.doc, node);
        match value {
            Value::Map(_) | Value::None => None,
            v if !v.truthy() => None,
            v => Some(
                Fail::new(
                    "AttributeError",
                    format!("'{}' object has no attribute 'items'", v.type_name()),
                )
                .at(node),
            ),
        }
    }

    /// `_rsrc_defn_args` and the condition check of `resource_definitions`; `None` when the
    /// resource's condition is false.
    #[allow(
        clippy::too_many_lines,
        reason = "Heat's `_rsrc_defn_args`, field by field in its order"
    )]
    fn resource_definition(&self, name: &str, node: NodeId) -> Result<Option<ResourceDef>, Fail> {
        let doc = self.doc;
        let node = doc.resolve(node);
        let fail = |message: String| Fail::new("StackValidationFailed", message).at(node);
        if !matches!(doc.node(node).kind, NodeKind::Mapping { .. }) {
            // `set(snippet) - valid_keys`: a str is a set of characters, a list of its items.
            let members: Vec<Value> = match Value::from_node(doc, node) {
                Value::Str(s) => s.chars().map(|c| Value::Str(c.to_string())).collect(),
                Value::List(items) => items,
                other => {
                    return Err(fail(format!(
                        "'{}' object is not iterable",
                        other.type_name()
                    )));
                }
            };
            if let Some(bad) = members
                .iter()
                .find(|m| matches!(m, Value::List(_) | Value::Map(_)))
            {
                return Err(fail(format!("unhashable type: '{}'", bad.type_name())));
            }
            let valid = self.version.resource_keys();
            let mut invalid: Vec<String> = Vec::new();
            for m in &members {
                let text = m.py_str();
                let valid_key = matches!(m, Value::Str(_)) && valid.contains(&text.as_str());
                if !valid_key && !invalid.contains(&text) {
                    invalid.push(text);
                }
            }
            // Heat joins a set: CPython's order, when every member is a str.
            let keys: Vec<&str> = members.iter().filter_map(Value::as_str).collect();
            if keys.len() == members.len()
                && let Some(ordered) = crate::pyset::difference(&keys, valid, false)
            {
                invalid = ordered;
            }
            if invalid.is_empty() {
                return Err(fail(format!("'Resource {name} is missing \"type\"'")));
            }
            return Err(fail(format!(
                "Invalid keyword(s) inside a resource definition: {}",
                invalid.join(", ")
            )));
        }
        let entries = doc.entries(node);
        let valid = self.version.resource_keys();
        let invalid: Vec<Value> = entries
            .iter()
            .map(|e| Value::from_node(doc, e.key))
            .filter(|k| !k.as_str().is_some_and(|k| valid.contains(&k)))
            .collect();
        // `', '.join(invalid_keys)` fails on the first key that is not a string, in the set's
        // order (CPython's, where every key is a str, an int or a bool).
        let all_keys: Vec<Value> = entries
            .iter()
            .map(|e| Value::from_node(doc, e.key))
            .collect();
        let as_keys: Option<Vec<crate::pyset::Key<'_>>> = all_keys
            .iter()
            .map(|k| match k {
                Value::Str(s) => Some(crate::pyset::Key::Str(s)),
                Value::Int(i) => Some(crate::pyset::Key::Int(*i)),
                Value::Bool(b) => Some(crate::pyset::Key::Bool(i64::from(*b))),
                _ => None,
            })
            .collect();
        let mut unique: Vec<crate::pyset::Key<'_>> = Vec::new();
        for k in as_keys.into_iter().flatten() {
            if !unique.contains(&k) {
                unique.push(k);
            }
        }
        if unique.len() == entries.len()
            && let Some(ordered) = crate::pyset::difference_of(&unique, valid, true)
            && let Some((i, bad)) = ordered
                .iter()
                .enumerate()
                .find(|(_, k)| !matches!(k, crate::pyset::Key::Str(_)))
        {
            let class = if matches!(bad, crate::pyset::Key::Bool(_)) {
                "bool"
            } else {
                "int"
            };
            return Err(fail(format!(
                "sequence item {i}: expected str instance, {class} found"
            )));
        }
        if let Some((i, bad)) = invalid
            .iter()
            .enumerate()
            .find(|(_, k)| k.as_str().is_none())
        {
            return Err(fail(format!(
                "sequence item {i}: expected str instance, {} found",
                bad.type_name()
            )));
        }
        let mut invalid: Vec<String> = invalid.iter().map(Value::py_str).collect();
        // Heat joins a set: CPython's order (string keys, each once as in the dict).
        let mut keys: Vec<&str> = Vec::with_capacity(entries.len());
        for e in &entries {
            if let Some(k) = doc.str_value(e.key)
                && !keys.contains(&k)
            {
                keys.push(k);
            }
        }
        if !invalid.is_empty()
            && keys.len() == entries.len()
            && let Some(ordered) = crate::pyset::difference(&keys, valid, true)
        {
            invalid = ordered;
        }
        if !invalid.is_empty() {
            return Err(fail(format!(
                "Invalid keyword(s) inside a resource definition: {}",
                invalid.join(", ")
            )));
        }
        let field = |key: &str| doc.get(node, key);
        let base = format!("resources.{name}");
        let wrap = |f: Fail| -> Fail {
            // resource_definitions turns TypeError/ValueError/KeyError into
            // StackValidationFailed(message=str(ex)); StackValidationFailed passes.
            if matches!(f.class, "TypeError" | "ValueError" | "KeyError") {
                Fail {
                    class: "StackValidationFailed",
                    ..f
                }
            } else {
                f
            }
        };
        let Some(type_node) = field("type") else {
            return Err(fail(format!("'Resource {name} is missing \"type\"'")));
        };
        let type_expr = self
            .parse(type_node, Ctx::Value, &format!("{base}.type"))
            .map_err(wrap)?;
        let Expr::Data(Value::Str(resource_type)) = type_expr else {
            return Err(fail(format!("Resource {name} type type must be string")));
        };
        let object = |key: &str| -> Result<Option<Expr>, Fail> {
            let Some(n) = field(key) else { return Ok(None) };
            let e = self
                .parse(n, Ctx::Value, &format!("{base}.{key}"))
                .map_err(wrap)?;
            if !(e.is_map() || e.is_call()) {
                return Err(Fail::new(
                    "StackValidationFailed",
                    format!("Resource {name} {key} type must be object"),
                )
                .at(n));
            }
            Ok(Some(e))
        };
        let properties = object("properties")?;
        let metadata = object("metadata")?;
        let depends = match field("depends_on") {
            None => None,
            Some(n) => match Value::from_node(doc, n) {
                Value::Str(s) => Some(vec![Value::Str(s)]),
                Value::List(items) => {
                    if items.iter().any(|i| !matches!(i, Value::Str(_))) {
                        return Err(Fail::new(
                            "StackValidationFailed",
                            format!("Resource {name} depends_on must be a list of strings"),
                        )
                        .at(n));
                    }
                    Some(items)
                }
                _ => {
                    return Err(fail(format!(
                        "Resource {name} depends_on type must be list or string"
                    )));
                }
            },
        };
        let deletion_policy = match field("deletion_policy") {
            None => None,
            Some(n) => {
                let e = self
                    .parse(n, Ctx::Value, &format!("{base}.deletion_policy"))
                    .map_err(wrap)?;
                if !(e.is_str() || e.is_call()) {
                    return Err(fail(format!(
                        "Resource {name} deletion_policy type must be string"
                    )));
                }
                let v = self.resolve(&e).map_err(wrap)?;
                if v.is_none() {
                    None
                } else {
                    if let Value::List(_) | Value::Map(_) = v {
                        return Err(fail(format!("unhashable type: '{}'", v.type_name())));
                    }
                    let text = v.py_str();
                    let policies = self.version.deletion_policies();
                    if !matches!(v, Value::Str(_)) || !policies.contains(&text.as_str()) {
                        return Err(fail(format!("Invalid deletion policy \"{text}\"")));
                    }
                    let mut normal = text.clone();
                    if let Some(first) = normal.get_mut(0..1) {
                        first.make_ascii_uppercase();
                    }
                    Some(Value::Str(normal))
                }
            }
        };
        let update_policy = object("update_policy")?;
        if let Some(n) = field("description")
            && !matches!(Value::from_node(doc, n), Value::Str(_))
        {
            return Err(fail(format!(
                "Resource {name} description type must be string"
            )));
        }
        let description = field("description").map(|n| Value::from_node(doc, n));
        let mut external_id = None;
        if self.version >= Version::V2016_10_14 {
            if let Some(n) = field("external_id") {
                let e = self
                    .parse(n, Ctx::Value, &format!("{base}.external_id"))
                    .map_err(wrap)?;
                if !(e.is_str() || e.is_call()) {
                    return Err(fail(format!(
                        "Resource {name} external_id type must be string"
                    )));
                }
                external_id = Some(e);
            }
            if let Some(n) = field("condition") {
                let e = self
                    .parse(n, Ctx::Condition, &format!("{base}.condition"))
                    .map_err(wrap)?;
                if !(e.is_str() || e.is_call() || matches!(e, Expr::Data(Value::Bool(_)))) {
                    return Err(fail(format!(
                        "Resource {name} condition type must be string_or_boolean"
                    )));
                }
                let cond = self.resolve(&e).map_err(wrap)?;
                let enabled = self.is_enabled(&cond).map_err(|f| {
                    if f.class == "ValueError" {
                        Fail::new(
                            "StackValidationFailed",
                            format!("{base}.condition: {}", f.message),
                        )
                        .at(n)
                    } else {
                        f
                    }
                })?;
                if !enabled {
                    return Ok(None);
                }
            }
        }
        let deletion_policy = if external_id.is_some() {
            Some(Value::Str("Retain".to_owned()))
        } else {
            deletion_policy
        };
        Ok(Some(ResourceDef {
            resource_type,
            properties,
            metadata,
            depends,
            deletion_policy,
            update_policy,
            external_id,
            description,
        }))
    }

    fn resolve_resource(&mut self, name: &str, def: &ResourceDef) -> Json {
        let mut entry = Map::new();
        entry.insert("type".into(), json!(def.resource_type));
        let mut validation = None;
        for (snippet, path) in [(&def.properties, "Properties"), (&def.metadata, "Metadata")] {
            if validation.is_none()
                && let Some(e) = snippet
                && let Err(fail) = self.validate(e, &[path.to_owned()])
            {
                validation = Some(fail);
            }
        }
        if validation.is_none()
            && let Some(e) = &def.update_policy
            && let Err(fail) = self.validate(e, &["UpdatePolicy".to_owned()])
        {
            validation = Some(fail);
        }
        if validation.is_none()
            && let Some(e) = &def.external_id
            && let Err(fail) = self.validate(e, &["external_id".to_owned()])
        {
            validation = Some(fail);
        }
        if let Some(fail) = validation {
            self.problem(&format!("resources.{name}"), &fail);
            entry.insert("validation_error".into(), fail.to_json());
        }
        let mut field = |this: &mut Self, key: &str, e: &Expr| {
            let value = match this.resolve(e) {
                Ok(v) => json!({"value": v.to_json()}),
                Err(fail) => {
                    this.problem(&format!("resources.{name}.{key}"), &fail);
                    fail.to_json()
                }
            };
            entry.insert(key.to_owned(), value);
        };
        if let Some(e) = &def.properties {
            field(self, "properties", e);
        }
        if let Some(e) = &def.metadata {
            field(self, "metadata", e);
        }
        if let Some(d) = &def.depends {
            field(self, "depends_on", &Expr::Data(Value::List(d.clone())));
        }
        if let Some(d) = &def.deletion_policy {
            field(self, "deletion_policy", &Expr::Data(d.clone()));
        }
        if let Some(e) = &def.update_policy {
            field(self, "update_policy", e);
        }
        if let Some(e) = &def.external_id {
            field(self, "external_id", e);
        }
        if let Some(d) = &def.description
            && d.truthy()
        {
            entry.insert("description".into(), d.to_json());
        }
        Json::Object(entry)
    }

    // ---------------------------------------------------------------------------------------
    // Outputs
    // ---------------------------------------------------------------------------------------

    /// The oracle's outputs: all parsed together; when that fails, each again alone (with
    /// the same stack and conditions).
    fn outputs(&mut self, out: &mut Map<String, Json>, conditions_error: Option<&Fail>) {
        let mut outputs = Map::new();
        let list: Vec<(String, NodeId)> = self
            .template
            .outputs
            .iter()
            .map(|o| (o.name.clone(), o.value))
            .collect();
        let mut whole = Vec::new();
        let mut whole_error = conditions_error.cloned().or(self.section_error("outputs"));
        if whole_error.is_none() {
            for (name, node) in &list {
                match self.output_definition(name, *node) {
                    Ok(def) => whole.push((name.clone(), Ok(def))),
                    Err(fail) => {
                        whole_error = Some(fail);
                        break;
                    }
                }
            }
        }
        if let Some(fail) = &whole_error {
            self.problem("outputs", fail);
            out.insert("outputs_error".into(), fail.to_json());
            let section_ok = self.section_error("outputs").is_none();
            whole = Vec::new();
            if section_ok {
                for (name, node) in &list {
                    let def = match conditions_error {
                        Some(fail) => Err(fail.clone()),
                        None => self.output_definition(name, *node),
                    };
                    whole.push((name.clone(), def));
                }
            }
        }
        for (name, def) in whole {
            match def {
                Ok((value, description)) => {
                    let mut entry = Map::new();
                    if let Some(e) = &value
                        && let Err(fail) = self.validate(e, &["Value".to_owned()])
                    {
                        self.problem(&format!("outputs.{name}"), &fail);
                        entry.insert("validation_error".into(), fail.to_json());
                    }
                    match value.as_ref().map_or(Ok(Value::None), |e| self.resolve(e)) {
                        Ok(v) => {
                            entry.insert("value".into(), v.to_json());
                        }
                        Err(fail) => {
                            self.problem(&format!("outputs.{name}"), &fail);
                            entry.insert("error".into(), json!(fail.message));
                            entry.insert("error_type".into(), json!(fail.class));
                        }
                    }
                    if let Some(d) = description {
                        entry.insert("description".into(), json!(d.py_str()));
                    }
                    outputs.insert(name, Json::Object(entry));
                }
                Err(fail) => {
                    self.problem(&format!("outputs.{name}"), &fail);
                    outputs.insert(name, json!({"parse_error": fail.to_json()}));
                }
            }
        }
        out.insert("outputs".into(), Json::Object(outputs));
    }

    fn output_definition(
        &self,
        name: &str,
        node: NodeId,
    ) -> Result<(Option<Expr>, Option<Value>), Fail> {
        let doc = self.doc;
        let node = doc.resolve(node);
        if !matches!(doc.node(node).kind, NodeKind::Mapping { .. }) {
            return Err(Fail::new(
                "StackValidationFailed",
                format!(
                    "Output validation error: outputs.{name}: Output definitions must be a map. Found a {} instead",
                    Value::from_node(doc, node).type_name()
                ),
            )
            .at(node));
        }
        let Some(value) = doc.get(node, "value") else {
            return Err(Fail::new(
                "StackValidationFailed",
                format!(
                    "Output validation error: outputs.{name}: Each output definition must contain a value key."
                ),
            )
            .at(node));
        };
        let description = doc
            .get(node, "description")
            .map(|n| Value::from_node(doc, n))
            .filter(|v| !v.is_none());
        if self.version >= Version::V2016_10_14 {
            let path = format!("outputs.{name}.condition");
            let cond = match doc.get(node, "condition") {
                Some(n) => {
                    let e = self.parse(n, Ctx::Condition, &path)?;
                    self.resolve(&e)?
                }
                None => Value::None,
            };
            let enabled = self.is_enabled(&cond).map_err(|f| {
                if f.class == "ValueError" {
                    Fail::new("StackValidationFailed", format!("{path}: {}", f.message))
                } else {
                    f
                }
            })?;
            if !enabled {
                return Ok((None, description));
            }
        }
        let e = self.parse(value, Ctx::Value, &format!("outputs.{name}.value"))?;
        Ok((Some(e), description))
    }

    // ---------------------------------------------------------------------------------------
    // parse
    // ---------------------------------------------------------------------------------------

    fn parse(&self, node: NodeId, ctx: Ctx, path: &str) -> Result<Expr, Fail> {
        self.parse_at(node, ctx, Where::Text(path))
    }

    /// [`Evaluator::parse`] of the snippet at `path`, whose text is worked out only for a
    /// message (not for each node of each property value).
    fn parse_at(&self, node: NodeId, ctx: Ctx, path: Where<'_>) -> Result<Expr, Fail> {
        let doc = self.doc;
        let node = doc.resolve(node);
        match &doc.node(node).kind {
            NodeKind::Sequence { items, .. } => {
                let mut out = Vec::with_capacity(items.len());
                for (i, &item) in items.iter().enumerate() {
                    out.push(self.parse_at(item, ctx, Where::Index(&path, i))?);
                }
                Ok(Expr::List(out))
            }
            NodeKind::Mapping { .. } => {
                let entries = doc.entries(node);
                if let [entry] = entries.as_slice()
                    && let Some(name) = doc.str_value(entry.key)
                {
                    let status = match ctx {
                        Ctx::Value => match self.version.function(name) {
                            Availability::Function(func) => Some((func, false)),
                            Availability::Removed(func) => Some((func, true)),
                            Availability::Data => None,
                        },
                        Ctx::Condition => match self.version.condition_function(name) {
                            ConditionAvailability::Function(func) => Some((func, false)),
                            ConditionAvailability::Removed(func) => Some((func, true)),
                            ConditionAvailability::Invalid(_) => {
                                return Err(Fail::new(
                                    "StackValidationFailed",
                                    format!(
                                        "{path}.{name}: The function \"{name}\" is invalid in this context"
                                    ),
                                )
                                .at(entry.key));
                            }
                            ConditionAvailability::Data => None,
                        },
                    };
                    if let Some((func, removed)) = status {
                        let path = Where::Key(&path, name);
                        return self
                            .parse_call(node, func, removed, entry.value, ctx, path)
                            .map_err(|fail| {
                                if matches!(fail.class, "TypeError" | "ValueError" | "KeyError") {
                                    Fail::new(
                                        "StackValidationFailed",
                                        format!("{path}: {}", fail.message),
                                    )
                                    .at(fail.node.unwrap_or(node))
                                } else {
                                    fail
                                }
                            });
                    }
                }
                let mut out = Vec::with_capacity(entries.len());
                for entry in entries {
                    let key = Value::from_node(doc, entry.key);
                    let parsed = self.parse_at(entry.value, ctx, Where::Value(&path, &key))?;
                    out.push((key, parsed));
                }
                Ok(Expr::Map(out))
            }
            NodeKind::Scalar(_) | NodeKind::Alias { .. } => {
                Ok(Expr::Data(Value::from_node(doc, node)))
            }
        }
    }

    /// One call: the arguments parsed (except for `if`), then the constructor's checks
    /// ([`function_args::constructor_refusal`]).
    fn parse_call(
        &self,
        node: NodeId,
        func: Function,
        removed: bool,
        args_node: NodeId,
        ctx: Ctx,
        path: Where<'_>,
    ) -> Result<Expr, Fail> {
        if func == Function::If && !removed {
            return self.parse_if(node, args_node, ctx, path);
        }
        let mut args = self.parse_at(args_node, ctx, path)?;
        let v = self.version;
        let mut class = Class::Plain;
        if !removed {
            let parsed = Parsed {
                ev: self,
                part: Part::Expr(&args),
            };
            if let Some(refusal) = function_args::constructor_refusal(func, v, &parsed) {
                return Err(refused(refusal));
            }
            class = match func {
                Function::GetAttr if v >= Version::V2015_10_15 => Class::GetAttAll,
                Function::GetAttr if v >= Version::V2014_10_16 => Class::GetAtt,
                Function::GetAttr => Class::GetAttThenSelect,
                Function::ListJoin if v.has_join_multiple() => Class::JoinMultiple,
                Function::ListJoin | Function::FnJoin => Class::Join,
                Function::StrReplaceStrict => Class::ReplaceJsonStrict,
                Function::StrReplaceVstrict => Class::ReplaceJsonVeryStrict,
                Function::StrReplace if v >= Version::V2015_10_15 => Class::ReplaceJson,
                Function::StrReplace | Function::FnReplace => Class::Replace,
                Function::Repeat if v.has_repeat_permutations() => Class::RepeatNested {
                    permutations: !matches!(
                        args.get("permutations"),
                        Some(Expr::Data(Value::Bool(false)))
                    ),
                },
                Function::Repeat if v >= Version::V2016_10_14 => Class::RepeatWithMap,
                Function::Repeat => Class::Repeat,
                _ => Class::Plain,
            };
            // `Fn::Select` and `Fn::MemberListToMap` keep their arguments unpacked.
            if let Function::FnSelect | Function::FnMemberListToMap = func {
                args = Expr::List(unpacked(&args));
            }
        }
        Ok(Expr::Call(Box::new(Call {
            function: func,
            removed,
            args,
            node,
            class,
        })))
    }

    /// `If.parse_args`: the condition resolved now, only the chosen branch parsed.
    fn parse_if(
        &self,
        node: NodeId,
        args_node: NodeId,
        ctx: Ctx,
        path: Where<'_>,
    ) -> Result<Expr, Fail> {
        let doc = self.doc;
        let nullable = self.version >= Version::V2021_04_16;
        let form = "Arguments to \"if\" must be of the form: [condition_name, value_if_true, value_if_false]";
        let items = match &doc.node(doc.resolve(args_node)).kind {
            NodeKind::Sequence { items, .. } => items.clone(),
            _ => return Err(Fail::value_error(form.to_owned())),
        };
        let ok = if nullable {
            (2..=3).contains(&items.len())
        } else {
            items.len() == 3
        };
        if !ok {
            return Err(Fail::value_error(form.to_owned()));
        }
        let cond = self.parse(items[0], Ctx::Condition, "if")?;
        let cond = self.resolve(&cond)?;
        let chosen = match cond {
            Value::Bool(b) => b,
            other => self.is_enabled(&other)?,
        };
        let _ = ctx;
        let parsed = if chosen {
            self.parse_at(items[1], Ctx::Value, path)?
        } else if let Some(&branch) = items.get(2) {
            self.parse_at(branch, Ctx::Value, path)?
        } else {
            Expr::Ellipsis
        };
        // A macro: a function object to the checks of the enclosing call and field.
        Ok(Expr::Call(Box::new(Call {
            function: Function::If,
            removed: false,
            args: parsed,
            node,
            class: Class::Plain,
        })))
    }

    // ---------------------------------------------------------------------------------------
    // validate
    // ---------------------------------------------------------------------------------------

    /// `function.validate(snippet, path)`: the checks of `Function.validate` (Removed,
    /// `get_attr` references, repeat's `for_each`, `make_url`'s arguments).
    fn validate(&self, e: &Expr, path: &[String]) -> Result<(), Fail> {
        match e {
            Expr::Data(_) | Expr::Ellipsis => Ok(()),
            Expr::Map(entries) => {
                for (k, v) in entries {
                    let mut p = path.to_vec();
                    p.push(k.py_str());
                    self.validate(v, &p)?;
                }
                Ok(())
            }
            Expr::List(items) => {
                let mut base = path.to_vec();
                let parent = base.pop().unwrap_or_default();
                for (i, v) in items.iter().enumerate() {
                    let mut p = base.clone();
                    p.push(format!("{parent}[{i}]"));
                    self.validate(v, &p)?;
                }
                Ok(())
            }
            Expr::Call(call) => self.validate_call(call).map_err(|fail| {
                let mut p = path.to_vec();
                p.push(call.function.name().to_owned());
                Fail::new(
                    "StackValidationFailed",
                    format!("{}{}", path_text(&p), fail.message),
                )
                .at(fail.node.unwrap_or(call.node))
            }),
        }
    }

    fn validate_call(&self, call: &Call) -> Result<(), Fail> {
        let name = call.function.name();
        if call.removed {
            return Err(Fail::new(
                "InvalidTemplateVersion",
                format!(
                    "The template version is invalid: The function {name} is not supported in this version of HOT."
                ),
            ));
        }
        self.validate(&call.args, &[])?;
        let parsed = Parsed {
            ev: self,
            part: Part::Expr(&call.args),
        };
        if let Some(refusal) = function_args::validate_refusal(call.function, &parsed) {
            return Err(refused(refusal));
        }
        if call.function == Function::GetAttr {
            let resource = match &call.args {
                Expr::List(items) => items.first(),
                e @ Expr::Data(_) => Some(e),
                _ => None,
            };
            if let Some(r) = resource {
                let r = self.resolve(r)?;
                self.reference(&r)?;
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // resolve
    // ---------------------------------------------------------------------------------------

    /// `function.resolve(snippet)`: a call's `Ellipsis` becomes `None`; lists and maps drop it.
    fn resolve(&self, e: &Expr) -> Result<Value, Fail> {
        match self.resolve_nullable(e)? {
            Value::Ellipsis => Ok(Value::None),
            v => Ok(v),
        }
    }

    fn resolve_nullable(&self, e: &Expr) -> Result<Value, Fail> {
        match e {
            // What Heat makes of `bytes` (its JSON encoder's list of byte values in an output,
            // the text of that list in a function) is not modelled.
            Expr::Data(Value::Bytes) => Err(Fail::bytes()),
            Expr::Data(v) => Ok(v.clone()),
            Expr::Ellipsis => Ok(Value::Ellipsis),
            Expr::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let v = self.resolve_nullable(item)?;
                    if !matches!(v, Value::Ellipsis) {
                        out.push(v);
                    }
                }
                Ok(Value::List(out))
            }
            Expr::Map(entries) => {
                let mut out = Dict::with_capacity(entries.len());
                for (k, item) in entries {
                    let v = self.resolve_nullable(item)?;
                    if !matches!(v, Value::Ellipsis) {
                        out.insert(k.clone(), v);
                    }
                }
                Ok(out.into_value())
            }
            Expr::Call(call) if call.function == Function::If => self.resolve_nullable(&call.args),
            Expr::Call(call) => {
                let v = self.call(call).map_err(|f| f.at(call.node))?;
                self.charge(&v).map_err(|f| f.at(call.node))?;
                match v {
                    // A function's own Ellipsis is not dropped by the enclosing list (resolve
                    // with nullable=False maps it to None).
                    Value::Ellipsis => Ok(Value::None),
                    v => Ok(v),
                }
            }
        }
    }

    /// What is left of the evaluation's budget ([`crate::BUDGET`]).
    fn remaining(&self) -> usize {
        crate::BUDGET.saturating_sub(self.spent.get())
    }

    /// Counts a computed value against the budget: every call's result is counted, so the
    /// work and memory of one evaluation stay within a few times [`crate::BUDGET`] however
    /// the template multiplies its values.
    fn charge(&self, v: &Value) -> Result<(), Fail> {
        let weight = v.weight(self.remaining());
        self.spend(weight)
    }

    fn spend(&self, weight: usize) -> Result<(), Fail> {
        if weight > self.remaining() {
            self.spent.set(crate::BUDGET.saturating_add(1));
            return Err(Fail::budget());
        }
        self.spent.set(self.spent.get() + weight);
        Ok(())
    }

    #[allow(
        clippy::too_many_lines,
        reason = "one arm per function, in Heat's order"
    )]
    fn call(&self, call: &Call) -> Result<Value, Fail> {
        let name = call.function.name();
        if call.removed {
            return Ok(Value::from_node(self.doc, call.node));
        }
        let args = &call.args;
        if holds_function_objects(args) {
            return Err(Fail::not_evaluated(format!(
                "{name} takes the result of a function that this version removed, whose \
                 arguments hold calls: Heat then works on Python function objects (it compares \
                 their results, prints their representations such as `<heat.engine.hot.\
                 functions.GetParam {{get_param: 'p'}} -> 'v'>`, fails to serialise them), \
                 which hotfix does not model"
            )));
        }
        let items = |e: &Expr| -> Vec<Expr> {
            match e {
                Expr::List(items) => items.clone(),
                _ => Vec::new(),
            }
        };
        match call.function {
            Function::GetParam => {
                let args = self.resolve(args)?;
                if !args.truthy() {
                    return Err(Fail::value_error(format!(
                        "Function \"{name}\" must have arguments"
                    )));
                }
                let (param, path) = match args {
                    Value::Str(s) => (Value::Str(s), Vec::new()),
                    Value::List(mut items) => {
                        let rest = items.split_off(1);
                        (items.pop().unwrap_or(Value::None), rest)
                    }
                    _ => {
                        return Err(Fail::type_error(format!(
                            "Argument to \"{name}\" must be string or list"
                        )));
                    }
                };
                let Value::Str(param) = param else {
                    return Err(Fail::type_error(format!(
                        "Parameter name in \"{name}\" must be string"
                    )));
                };
                let value = self.params.get(&param)?;
                Ok(get_param_path(value, &path))
            }
            Function::GetResource => {
                let r = self.resolve(args)?;
                self.reference(&r)?;
                Ok(Value::Str(format!("<ref:{}>", r.py_str())))
            }
            Function::Ref => {
                let r = self.resolve(args)?;
                let n = r.py_str();
                // Resources and parameters are named by strings: `5` names neither.
                if !matches!(r, Value::Str(_)) {
                    return Err(Fail::new(
                        "InvalidTemplateReference",
                        format!("The specified reference \"{n}\" (in unknown) is incorrect."),
                    ));
                }
                if self.template.resources.iter().any(|x| x.name == n) {
                    self.reference(&r)?;
                    return Ok(Value::Str(format!("<ref:{n}>")));
                }
                match self.params.get(&n) {
                    Ok(v) => Ok(v),
                    Err(_) => Err(Fail::new(
                        "InvalidTemplateReference",
                        format!("The specified reference \"{n}\" (in unknown) is incorrect."),
                    )),
                }
            }
            Function::GetAttr => self.get_attr(call),
            Function::GetFile => {
                let key = self.resolve(args)?;
                let Value::Str(key) = key else {
                    return Err(Fail::type_error(format!(
                        "Argument to \"{name}\" must be a string"
                    )));
                };
                match self.inputs.files.get(&key) {
                    Some(text) => Ok(Value::Str(text.clone())),
                    None => Err(Fail::value_error(format!(
                        "No content found in the \"files\" section for {name} path: {key}"
                    ))),
                }
            }
            Function::ListJoin | Function::FnJoin => {
                let items = items(args);
                if call.class == Class::JoinMultiple {
                    let mut lists = Vec::new();
                    for l in &items[1..] {
                        let v = self.resolve_nullable(l)?;
                        if !matches!(v, Value::Ellipsis) {
                            lists.push(v);
                        }
                    }
                    let delim = self.resolve(&items[0])?;
                    f::join_multiple(name, lists, delim, self.remaining())
                } else {
                    let strings = self.resolve(&items[1])?;
                    if !matches!(strings, Value::None | Value::List(_)) {
                        return Err(Fail::type_error(format!(
                            "\"{name}\" must operate on a list"
                        )));
                    }
                    let delim = self.resolve(&items[0])?;
                    f::join(name, delim, strings, self.remaining())
                }
            }
            Function::StrReplace
            | Function::StrReplaceStrict
            | Function::StrReplaceVstrict
            | Function::FnReplace => {
                let (mapping, template) = if call.function == Function::FnReplace {
                    let items = items(args);
                    (items[0].clone(), items[1].clone())
                } else {
                    (
                        args.get("params")
                            .cloned()
                            .unwrap_or(Expr::Data(Value::None)),
                        args.get("template")
                            .cloned()
                            .unwrap_or(Expr::Data(Value::None)),
                    )
                };
                let template = self.resolve(&template)?;
                let mapping = self.resolve(&mapping)?;
                let kind = match call.class {
                    Class::ReplaceJson => ReplaceKind::Json,
                    Class::ReplaceJsonStrict => ReplaceKind::Strict,
                    Class::ReplaceJsonVeryStrict => ReplaceKind::VeryStrict,
                    _ => ReplaceKind::Plain,
                };
                f::replace(name, kind, template, mapping, self.remaining())
            }
            Function::Repeat => self.repeat(call),
            Function::Digest => {
                let args = self.resolve(args)?;
                let strings = match &args {
                    Value::List(items) if items.iter().all(|i| matches!(i, Value::Str(_))) => items,
                    _ => {
                        return Err(Fail::type_error(format!(
                            "Argument to function \"{name}\" must be a list of strings"
                        )));
                    }
                };
                if strings.len() != 2 {
                    return Err(Fail::value_error(format!(
                        "Function \"{name}\" usage: [\"<algorithm>\", \"<value>\"]"
                    )));
                }
                let given = strings[0].py_str();
                let algorithm = given.to_lowercase();
                // `hashlib.new(name)` with the name as given: OpenSSL's digests take any case,
                // the ones Python builds in only their own.
                if given != algorithm
                    && matches!(
                        algorithm.as_str(),
                        "sha3_224"
                            | "sha3_256"
                            | "sha3_384"
                            | "sha3_512"
                            | "shake_128"
                            | "shake_256"
                            | "blake2b"
                            | "blake2s"
                    )
                {
                    return Err(Fail::value_error(format!("unsupported hash type {given}")));
                }
                let text = strings[1].py_str();
                let bytes = latin_1(&text)?;
                if matches!(algorithm.as_str(), "shake_128" | "shake_256") {
                    // hashlib's SHAKE digests need a length, which Heat does not give.
                    return Err(Fail::type_error(
                        "hexdigest() missing required argument 'length' (pos 1)".to_owned(),
                    ));
                }
                match crate::digest::hexdigest(&algorithm, &bytes) {
                    Some(hex) => Ok(Value::Str(hex)),
                    None => Err(Fail::not_evaluated(format!(
                        "digest with the algorithm {:?} is not computed offline (only {})",
                        strings[0].py_str(),
                        crate::digest::ALGORITHMS.join(", ")
                    ))),
                }
            }
            Function::StrSplit => {
                let args = self.resolve(args)?;
                f::str_split(name, args)
            }
            Function::FnSplit => {
                let items = items(args);
                let strings = self.resolve(&items[1])?;
                let Expr::Data(Value::Str(delim)) = &items[0] else {
                    return Err(Fail::type_error(format!(
                        "Delimiter for {name} must be string"
                    )));
                };
                let Value::Str(s) = strings else {
                    return Err(Fail::type_error(format!(
                        "String to split must be string; got {}",
                        strings.py_type()
                    )));
                };
                if delim.is_empty() {
                    return Err(Fail::value_error("empty separator".to_owned()));
                }
                Ok(Value::List(
                    s.split(delim.as_str())
                        .map(|p| Value::Str(p.to_owned()))
                        .collect(),
                ))
            }
            Function::MapMerge => f::map_merge(name, self.resolve(args)?),
            Function::MapReplace => f::map_replace(name, self.resolve(args)?),
            Function::Yaql => {
                // `_parse(resolve(expression))` comes first.
                if let Some(expression) = args.get("expression") {
                    let expression = self.resolve(expression)?;
                    let parsed = Parsed {
                        ev: self,
                        part: Part::Value(&expression),
                    };
                    if let Some(refusal) = function_args::yaql_expression_refusal(parsed) {
                        return Err(refused(refusal));
                    }
                }
                Err(Fail::not_evaluated(
                    "yaql is not evaluated offline (it needs Heat's YAQL engine)".to_owned(),
                ))
            }
            Function::If => self.resolve_nullable(args),
            Function::Filter => {
                let items = items(args);
                let sequence = self.resolve(&items[1])?;
                f::filter(name, sequence, || self.resolve(&items[0]))
            }
            Function::MakeUrl => {
                let resolved = self.resolve(args)?;
                // `_check_args` again, on the resolved arguments.
                if let Value::Map(_) = resolved
                    && let Some(refusal) = function_args::url_args_refusal(&Parsed {
                        ev: self,
                        part: Part::Value(&resolved),
                    })
                {
                    return Err(refused(refusal));
                }
                f::make_url(resolved)
            }
            Function::ListConcat => f::list_concat(name, &self.resolve(args)?, false),
            Function::ListConcatUnique => f::list_concat(name, &self.resolve(args)?, true),
            Function::Contains => {
                let items = items(args);
                let value = self.resolve(&items[0])?;
                let sequence = self.resolve(&items[1])?;
                f::contains(name, &value, &sequence)
            }
            Function::Equals => {
                let items = items(args);
                let a = self.resolve(&items[0])?;
                let b = self.resolve(&items[1])?;
                Ok(Value::Bool(a.py_eq(&b)))
            }
            Function::Not => {
                let cd = self.resolve(args)?;
                Ok(Value::Bool(!self.condition_of(&cd)?))
            }
            Function::And | Function::Or => {
                let Value::List(cds) = self.resolve(args)? else {
                    return Ok(Value::Bool(call.function == Function::And));
                };
                let all = call.function == Function::And;
                for cd in &cds {
                    let b = self.condition_of(cd)?;
                    if all && !b {
                        return Ok(Value::Bool(false));
                    }
                    if !all && b {
                        return Ok(Value::Bool(true));
                    }
                }
                Ok(Value::Bool(all))
            }
            Function::FnSelect => {
                let items = items(args);
                let index = self.resolve(&items[0])?;
                let strings = self.resolve(&items[1])?;
                f::select(name, index, strings)
            }
            Function::FnGetAzs => Ok(Value::List(vec![Value::Str("nova".into())])),
            Function::FnBase64 => {
                let v = self.resolve(args)?;
                match v {
                    Value::Str(_) => Ok(v),
                    _ => Err(Fail::type_error(format!(
                        "\"{name}\" argument must be a string"
                    ))),
                }
            }
            Function::FnMemberListToMap => {
                let items = items(args);
                let list = self.resolve(&items[2])?;
                let key = expr_value(self.doc, &items[0]).py_str();
                let value = expr_value(self.doc, &items[1]).py_str();
                f::member_list_to_map(&key, &value, list)
            }
            Function::ResourceFacade | Function::FnResourceFacade => {
                let attr = self.resolve(args)?.py_str();
                let method = match attr.as_str() {
                    "metadata" | "Metadata" => "metadata_get",
                    _ => "t",
                };
                Err(Fail::new(
                    "AttributeError",
                    format!("'NoneType' object has no attribute '{method}'"),
                ))
            }
        }
    }

    /// A condition argument of `not`/`and`/`or`: a bool, or a condition's name.
    fn condition_of(&self, cd: &Value) -> Result<bool, Fail> {
        match cd {
            Value::Bool(b) => Ok(*b),
            other => self.is_enabled(other),
        }
    }

    /// `self.stack[name]`: the resource must exist and be enabled.
    fn reference(&self, r: &Value) -> Result<(), Fail> {
        if let Value::List(_) | Value::Map(_) = r {
            return Err(Fail::type_error(format!(
                "unhashable type: '{}'",
                r.type_name()
            )));
        }
        if let Some(fail) = &self.stack_error {
            return Err(fail.clone());
        }
        if r.as_str()
            .is_some_and(|n| self.enabled.iter().any(|e| e == n))
        {
            return Ok(());
        }
        Err(Fail::new(
            "InvalidTemplateReference",
            format!(
                "The specified reference \"{}\" (in unknown) is incorrect.",
                r.py_str()
            ),
        ))
    }

    fn get_attr(&self, call: &Call) -> Result<Value, Fail> {
        let (resource, attribute, path) = match &call.args {
            Expr::List(items) if items.len() == 1 => (items[0].clone(), None, Vec::new()),
            Expr::List(items) => (
                items[0].clone(),
                Some(items[1].clone()),
                items[2..].to_vec(),
            ),
            Expr::Data(Value::Str(s)) => {
                let chars: Vec<Expr> = s
                    .chars()
                    .map(|c| Expr::Data(Value::Str(c.to_string())))
                    .collect();
                if chars.len() == 1 {
                    (chars[0].clone(), None, Vec::new())
                } else {
                    (
                        chars[0].clone(),
                        Some(chars[1].clone()),
                        chars[2..].to_vec(),
                    )
                }
            }
            _ => return Ok(Value::None),
        };
        let Some(attribute) = attribute else {
            let r = self.resolve(&resource)?;
            self.reference(&r)?;
            let name = r.py_str();
            return Ok(match self.inputs.attrs.get(&name) {
                Some(values) if !values.is_empty() => Value::Map(
                    values
                        .iter()
                        .map(|(k, v)| (Value::Str(k.clone()), v.clone()))
                        .collect(),
                ),
                _ => {
                    let p = format!("<attrs:{name}>");
                    Value::Map(vec![(Value::Str(p.clone()), Value::Str(p))])
                }
            });
        };
        let (path, attr, r) = if call.class == Class::GetAttThenSelect {
            let attr = self.resolve(&attribute)?;
            let r = self.resolve(&resource)?;
            self.reference(&r)?;
            let path = self.resolve(&Expr::List(path))?;
            (path, attr, r)
        } else {
            let path = self.resolve(&Expr::List(path))?;
            let attr = self.resolve(&attribute)?;
            let r = self.resolve(&resource)?;
            self.reference(&r)?;
            (path, attr, r)
        };
        let Value::List(path) = path else {
            return Ok(Value::None);
        };
        let name = r.py_str();
        let supplied = self
            .inputs
            .attrs
            .get(&name)
            .filter(|values| !values.is_empty())
            .and_then(|values| {
                attr.as_str()
                    .and_then(|a| values.iter().find(|(k, _)| k == a))
                    .map(|(_, v)| v)
            });
        if let Some(value) = supplied {
            return Ok(select_from_attribute(value.clone(), &path));
        }
        if self.inputs.attrs.get(&name).is_some_and(|v| !v.is_empty()) {
            // The oracle's Created.attribute: a name not among the supplied values is a
            // placeholder too.
        }
        // A placeholder, indexed by the path. 2013-05-23 selects from the placeholder string,
        // which only str and int keys index.
        let mut text = format!("<attr:{name}.{}", attr.py_str());
        for p in &path {
            if call.class == Class::GetAttThenSelect
                && !matches!(p, Value::Str(_) | Value::Int(_) | Value::BigInt(_))
            {
                return Ok(Value::None);
            }
            text.push('.');
            text.push_str(&p.py_str());
        }
        text.push('>');
        Ok(Value::Str(text))
    }

    fn repeat(&self, call: &Call) -> Result<Value, Fail> {
        let name = call.function.name();
        let args = &call.args;
        let for_each = self.resolve(args.get("for_each").unwrap_or(&Expr::Data(Value::None)))?;
        let Value::Map(for_each) = for_each else {
            return Err(Fail::attribute_error(&for_each, "items"));
        };
        if for_each.is_empty() {
            return Err(Fail::value_error(
                "not enough values to unpack (expected 2, got 0)".to_owned(),
            ));
        }
        let (nested, maps_ok) = match call.class {
            Class::RepeatNested { permutations } => (permutations, permutations),
            Class::RepeatWithMap => (true, true),
            _ => (true, false),
        };
        let mut keys = Vec::new();
        let mut values: Vec<Vec<Value>> = Vec::new();
        let mut lens = Vec::new();
        for (k, v) in for_each {
            keys.push(k);
            match v {
                Value::None => values.push(Vec::new()),
                Value::List(items) => {
                    lens.push(items.len());
                    values.push(items);
                }
                Value::Map(entries) if maps_ok => {
                    lens.push(entries.len());
                    values.push(entries.into_iter().map(|(k, _)| k).collect());
                }
                _ => {
                    let what = if maps_ok { "lists or maps" } else { "lists" };
                    return Err(Fail::type_error(format!(
                        "The values of the \"for_each\" argument to \"{name}\" must be {what}"
                    )));
                }
            }
        }
        if !nested && !lens.is_empty() && lens.iter().any(|l| *l != lens[0]) {
            return Err(Fail::value_error(format!(
                "For {name}, the length of for_each values should be equal if no nested loop."
            )));
        }
        let template = self.resolve(args.get("template").unwrap_or(&Expr::Data(Value::None)))?;
        // The result holds a copy of the template per combination (and the combinations a
        // reference per key): too many are refused before any is made.
        let count = if nested {
            lens.iter().fold(1usize, |n, l| n.saturating_mul(*l))
        } else {
            lens.iter().copied().min().unwrap_or(0)
        };
        let each = template
            .weight(self.remaining())
            .saturating_add(keys.len().saturating_mul(8));
        if count.saturating_mul(each) > self.remaining() {
            return Err(Fail::budget());
        }
        let combos: Vec<Vec<&Value>> = if nested {
            let mut combos: Vec<Vec<&Value>> = vec![Vec::new()];
            for list in &values {
                let mut next = Vec::with_capacity(combos.len() * list.len());
                for combo in &combos {
                    for item in list {
                        let mut c = combo.clone();
                        c.push(item);
                        next.push(c);
                    }
                }
                combos = next;
            }
            combos
        } else {
            let n = values.iter().map(Vec::len).min().unwrap_or(0);
            (0..n)
                .map(|i| values.iter().map(|l| &l[i]).collect())
                .collect()
        };
        let mut out = Vec::with_capacity(combos.len());
        // Replacing may lengthen the template's strings: their growth is counted too.
        let mut left = self.remaining();
        for combo in combos {
            out.push(do_replacement(&keys, &combo, &template, &mut left)?);
        }
        Ok(Value::List(out))
    }
}

struct ResourceDef {
    resource_type: String,
    properties: Option<Expr>,
    metadata: Option<Expr>,
    depends: Option<Vec<Value>>,
    deletion_policy: Option<Value>,
    update_policy: Option<Expr>,
    external_id: Option<Expr>,
    description: Option<Value>,
}

/// Whether a snippet holds (at any depth, through calls) a call of a removed function whose
/// own arguments hold calls: its result (`{name: args}`) then holds Python function objects.
fn holds_function_objects(e: &Expr) -> bool {
    match e {
        Expr::Data(_) | Expr::Ellipsis => false,
        Expr::List(items) => items.iter().any(holds_function_objects),
        Expr::Map(entries) => entries.iter().any(|(_, v)| holds_function_objects(v)),
        Expr::Call(call) => {
            (call.removed && has_call(&call.args)) || holds_function_objects(&call.args)
        }
    }
}

fn has_call(e: &Expr) -> bool {
    match e {
        Expr::Data(_) | Expr::Ellipsis => false,
        Expr::List(items) => items.iter().any(has_call),
        Expr::Map(entries) => entries.iter().any(|(_, v)| has_call(v)),
        Expr::Call(_) => true,
    }
}

/// `text.encode('latin-1')`, or Python's `UnicodeEncodeError` (consecutive characters it
/// cannot encode are named together).
fn latin_1(text: &str) -> Result<Vec<u8>, Fail> {
    let chars: Vec<char> = text.chars().collect();
    let mut bytes = Vec::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        if let Ok(b) = u8::try_from(u32::from(c)) {
            bytes.push(b);
            continue;
        }
        let end = i + chars[i..]
            .iter()
            .take_while(|&&c| u32::from(c) > 0xff)
            .count();
        let message = if end == i + 1 {
            let code = u32::from(c);
            let escaped = if code > 0xffff {
                format!("\\U{code:08x}")
            } else {
                format!("\\u{code:04x}")
            };
            format!(
                "'latin-1' codec can't encode character '{escaped}' in position {i}: ordinal not in range(256)"
            )
        } else {
            format!(
                "'latin-1' codec can't encode characters in position {i}-{}: ordinal not in range(256)",
                end - 1
            )
        };
        return Err(Fail::new("UnicodeEncodeError", message));
    }
    Ok(bytes)
}

/// The value of an unresolved snippet that holds no call.
fn expr_value(doc: &Document, e: &Expr) -> Value {
    match e {
        Expr::Data(v) => v.clone(),
        Expr::List(items) => Value::List(items.iter().map(|i| expr_value(doc, i)).collect()),
        Expr::Map(entries) => Value::Map(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), expr_value(doc, v)))
                .collect(),
        ),
        Expr::Call(c) => Value::from_node(doc, c.node),
        Expr::Ellipsis => Value::Ellipsis,
    }
}

/// `HeatExceptionWithPath`'s path text, with the `": "` after it.
fn path_text(path: &[String]) -> String {
    let mut out = String::new();
    for item in path {
        if !item.is_empty() && item.chars().all(|c| c.is_ascii_digit()) {
            let _ = write!(out, "[{item}]");
        } else if !out.is_empty() {
            out.push('.');
            out.push_str(item);
        } else {
            out.push_str(item);
        }
    }
    if out.is_empty() {
        out
    } else {
        format!("{out}: ")
    }
}

/// `GetParam`'s path walk: any failure gives `''`.
fn get_param_path(value: Value, path: &[Value]) -> Value {
    let mut current = value;
    for key in path {
        let next = match (&current, key) {
            (Value::Map(entries), Value::Str(_) | Value::Int(_)) => get(entries, key).cloned(),
            (Value::List(items), Value::Int(i)) => {
                f::py_index(items.len(), *i).map(|i| items[i].clone())
            }
            (Value::List(items), Value::Str(s)) => f::py_int(&Value::Str(s.clone()))
                .and_then(|i| f::py_index(items.len(), i))
                .map(|i| items[i].clone()),
            (Value::Str(s), Value::Int(i)) => {
                let chars: Vec<char> = s.chars().collect();
                f::py_index(chars.len(), *i).map(|i| Value::Str(chars[i].to_string()))
            }
            (Value::Str(s), Value::Str(k)) => f::py_int(&Value::Str(k.clone())).and_then(|i| {
                let chars: Vec<char> = s.chars().collect();
                f::py_index(chars.len(), i).map(|i| Value::Str(chars[i].to_string()))
            }),
            _ => None,
        };
        match next {
            Some(v) => current = v,
            None => return Value::Str(String::new()),
        }
    }
    current
}

/// `attributes.select_from_attribute`: any failure gives `None`; no str→int conversion.
fn select_from_attribute(value: Value, path: &[Value]) -> Value {
    let mut current = value;
    for key in path {
        let next = match (&current, key) {
            (Value::Map(entries), Value::Str(_) | Value::Int(_)) => get(entries, key).cloned(),
            (Value::List(items), Value::Int(i)) => {
                f::py_index(items.len(), *i).map(|i| items[i].clone())
            }
            (Value::Str(s), Value::Int(i)) => {
                let chars: Vec<char> = s.chars().collect();
                f::py_index(chars.len(), *i).map(|i| Value::Str(chars[i].to_string()))
            }
            _ => None,
        };
        match next {
            Some(v) => current = v,
            None => return Value::None,
        }
    }
    current
}

/// `Repeat._do_replacement`; `left` is what the strings made may still take
/// ([`Fail::budget`] past it).
fn do_replacement(
    keys: &[Value],
    values: &[&Value],
    template: &Value,
    left: &mut usize,
) -> Result<Value, Fail> {
    match template {
        Value::Str(s) => {
            let mut s = s.clone();
            for (k, v) in keys.iter().zip(values) {
                let Value::Str(k) = k else {
                    return Err(Fail::type_error(format!(
                        "replace() argument 1 must be str, not {}",
                        k.type_name()
                    )));
                };
                let Value::Str(v) = v else {
                    let type_name = match v {
                        Value::None => "None",
                        other => other.type_name(),
                    };
                    return Err(Fail::type_error(format!(
                        "replace() argument 2 must be str, not {type_name}"
                    )));
                };
                if v.len() > k.len() {
                    // An empty key matches around every character, as in Python.
                    let hits = if k.is_empty() {
                        s.chars().count() + 1
                    } else {
                        s.matches(k.as_str()).count()
                    };
                    let grows = hits.saturating_mul(v.len() - k.len());
                    if grows > *left {
                        return Err(Fail::budget());
                    }
                    *left -= grows;
                }
                s = s.replace(k.as_str(), v);
            }
            Ok(Value::Str(s))
        }
        Value::List(items) => Ok(Value::List(
            items
                .iter()
                .map(|i| do_replacement(keys, values, i, left))
                .collect::<Result<_, _>>()?,
        )),
        Value::Map(entries) => {
            let mut out = Dict::with_capacity(entries.len());
            for (k, v) in entries {
                let k = do_replacement(keys, values, k, left)?;
                let v = do_replacement(keys, values, v, left)?;
                out.insert(k, v);
            }
            Ok(out.into_value())
        }
        other => Ok(other.clone()),
    }
}

#[cfg(test)]
mod fold_condition_tests {
    use super::*;

    fn folded(version: &str, condition: &str) -> Option<bool> {
        let text = format!("heat_template_version: {version}\nc: {condition}\n");
        let doc = hotfix_yaml::parse(&text).expect("loads");
        let node = doc.get(doc.root(), "c").expect("c");
        let version = Version::parse(version).expect("version");
        fold_condition(&doc, version, node)
    }

    #[test]
    fn folds_conditions_of_literals_alone() {
        assert_eq!(folded("2016-10-14", "false"), Some(false));
        assert_eq!(folded("2016-10-14", "true"), Some(true));
        assert_eq!(folded("2016-10-14", "{equals: [a, b]}"), Some(false));
        assert_eq!(folded("2016-10-14", "{equals: [1, '1']}"), Some(false));
        assert_eq!(folded("2016-10-14", "{not: true}"), Some(false));
        assert_eq!(
            folded("2016-10-14", "{and: [true, {equals: [a, b]}]}"),
            Some(false)
        );
        assert_eq!(
            folded("2016-10-14", "{or: [false, {not: false}]}"),
            Some(true)
        );
        assert_eq!(folded("2017-09-01", "{contains: [a, [b, c]]}"), Some(false));
    }

    #[test]
    fn leaves_what_depends_on_inputs_or_other_conditions() {
        assert_eq!(folded("2016-10-14", "other"), None);
        assert_eq!(folded("2016-10-14", "{not: other}"), None);
        assert_eq!(folded("2016-10-14", "{and: [false, other]}"), None);
        assert_eq!(folded("2016-10-14", "{equals: [{get_param: p}, b]}"), None);
        // `contains` is Pike's: Newton has no such condition function.
        assert_eq!(folded("2016-10-14", "{contains: [a, [b, c]]}"), None);
    }
}

/// A parsed argument, or a part of it, as Heat's constructor sees it.
#[derive(Clone, Copy)]
struct Parsed<'e, 'a> {
    ev: &'e Evaluator<'a>,
    part: Part<'e>,
}

#[derive(Clone, Copy)]
enum Part<'e> {
    Expr(&'e Expr),
    /// A key of a mapping, or a value inside one.
    Value(&'e Value),
}

impl<'e> Parsed<'e, '_> {
    fn with(&self, part: Part<'e>) -> Self {
        Parsed { ev: self.ev, part }
    }
}

impl function_args::Arg for Parsed<'_, '_> {
    fn shape(&self) -> Shape<'_> {
        let value = match self.part {
            Part::Expr(Expr::Data(v)) | Part::Value(v) => v,
            Part::Expr(Expr::List(_)) => return Shape::List,
            Part::Expr(Expr::Map(_)) => return Shape::Map,
            Part::Expr(Expr::Call(call)) => return Shape::Call(call.function),
            Part::Expr(Expr::Ellipsis) => return Shape::Unknown,
        };
        match value {
            Value::None => Shape::Null,
            Value::Bool(b) => Shape::Bool(*b),
            Value::Int(_) | Value::BigInt(_) => Shape::Int,
            Value::Float(_) => Shape::Float,
            Value::Str(s) => Shape::Str(s),
            Value::Bytes => Shape::Bytes,
            Value::List(_) => Shape::List,
            Value::Map(_) => Shape::Map,
            Value::Ellipsis => Shape::Unknown,
        }
    }

    fn truthy(&self) -> Option<bool> {
        Some(match self.part {
            Part::Expr(e) => e.truthy(),
            Part::Value(v) => v.truthy(),
        })
    }

    fn items(&self) -> Vec<Self> {
        match self.part {
            Part::Expr(Expr::List(items)) => {
                items.iter().map(|i| self.with(Part::Expr(i))).collect()
            }
            Part::Expr(Expr::Data(Value::List(items))) | Part::Value(Value::List(items)) => {
                items.iter().map(|i| self.with(Part::Value(i))).collect()
            }
            _ => Vec::new(),
        }
    }

    fn entries(&self) -> Vec<(Self, Self)> {
        match self.part {
            Part::Expr(Expr::Map(entries)) => entries
                .iter()
                .map(|(k, v)| (self.with(Part::Value(k)), self.with(Part::Expr(v))))
                .collect(),
            Part::Expr(Expr::Data(Value::Map(entries))) | Part::Value(Value::Map(entries)) => {
                entries
                    .iter()
                    .map(|(k, v)| (self.with(Part::Value(k)), self.with(Part::Value(v))))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    fn py_str(&self) -> Option<String> {
        match self.part {
            Part::Value(v) | Part::Expr(Expr::Data(v)) => Some(v.py_str()),
            // A call prints as the object it is (`<…GetParam object at 0x…>`): not modelled.
            Part::Expr(e) if has_call(e) => None,
            Part::Expr(e) => Some(expr_value(self.ev.doc, e).py_str()),
        }
    }

    fn int(&self) -> function_args::IntOf {
        use function_args::IntOf;
        let value = match self.part {
            Part::Value(v) | Part::Expr(Expr::Data(v)) => v.clone(),
            Part::Expr(Expr::Call(_) | Expr::Ellipsis) => return IntOf::Unknown,
            Part::Expr(e) => expr_value(self.ev.doc, e),
        };
        match f::int_of(&value) {
            Ok(n) => IntOf::Value(n.as_i128(), n.py_str()),
            Err(fail) => match fail.class {
                "ValueError" => IntOf::ValueError,
                "NotEvaluated" => IntOf::Unknown,
                class => IntOf::Raised(class, fail.message),
            },
        }
    }

    fn get(&self, key: &str) -> Option<Self> {
        match self.part {
            Part::Expr(e @ Expr::Map(_)) => e.get(key).map(|v| self.with(Part::Expr(v))),
            _ => self
                .entries()
                .into_iter()
                .find(|(k, _)| k.shape() == Shape::Str(key))
                .map(|(_, v)| v),
        }
    }

    fn names_resource(&self) -> bool {
        let Part::Expr(Expr::Call(call)) = self.part else {
            return false;
        };
        let resources = &self.ev.template.resources;
        matches!(&call.args, Expr::Data(Value::Str(name)) if resources.iter().any(|r| r.name == *name))
    }

    fn result_str(&self) -> Option<Option<String>> {
        let Part::Expr(e @ Expr::Call(_)) = self.part else {
            return None;
        };
        let value = self.ev.resolve(e).ok();
        Some(
            value
                .as_ref()
                .and_then(Value::as_str)
                .map(ToOwned::to_owned),
        )
    }
}

/// The exception of a refusal.
fn refused(refusal: Refusal<Parsed<'_, '_>>) -> Fail {
    match (refusal.kind, refusal.class) {
        (Kind::Bytes, _) => Fail::bytes(),
        (_, "KeyError") => Fail::key_error(&refusal.text),
        (_, class) => Fail::new(class, refusal.text),
    }
}

/// The items of arguments that unpack (a list's items, a string's characters, a mapping's
/// keys), as Python's `a, b = args` gives them.
fn unpacked(args: &Expr) -> Vec<Expr> {
    match args {
        Expr::List(items) => items.clone(),
        Expr::Data(Value::Str(s)) => s
            .chars()
            .map(|c| Expr::Data(Value::Str(c.to_string())))
            .collect(),
        Expr::Map(entries) => entries.iter().map(|(k, _)| Expr::Data(k.clone())).collect(),
        _ => Vec::new(),
    }
}

/// Where a snippet is, as Heat's messages name it (`resources.r.properties.p[0].a`): the
/// text is written only when a message needs it.
#[derive(Clone, Copy)]
enum Where<'a> {
    Text(&'a str),
    /// An item of the sequence at the first.
    Index(&'a Where<'a>, usize),
    /// A function's name, or a key, under the first.
    Key(&'a Where<'a>, &'a str),
    /// A key of the mapping at the first, as Python prints it.
    Value(&'a Where<'a>, &'a Value),
}

impl std::fmt::Display for Where<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Where::Text(text) => f.write_str(text),
            Where::Index(within, i) => write!(f, "{within}[{i}]"),
            Where::Key(within, key) => write!(f, "{within}.{key}"),
            Where::Value(within, key) => write!(f, "{within}.{}", key.py_str()),
        }
    }
}
