//! Conditions as boolean formulas, and whether one condition implies another.
//!
//! A condition is read as Heat evaluates it (`heat/engine/conditions.py`; `Not`, `And`, `Or`
//! and `If` in `heat/engine/hot/functions.py`): a boolean is itself; a string names a
//! condition and stands for its definition; `not`/`and`/`or` combine conditions; `null` is
//! true (`is_enabled(None)`). Everything else is an *atom* whose truth is not known
//! statically: `equals`, `get_param`, `contains`, `yaql`, an undefined or circular name, a
//! value Heat rejects. Atoms that are structurally equal are one variable.
//!
//! Two kinds of atom read a parameter's value, and atoms on the same parameter are tied
//! together: `equals` of `{get_param: p}` and a string (at most one such string equals the
//! value, whatever the parameter's type), and, for a `boolean` parameter, `{get_param: p}`
//! itself and `equals` of it and `true`/`false` (exactly one of the two holds; a string never
//! equals a boolean). Other literals are not tied: Python's `True == 1` would make such
//! reasoning wrong, so they stay independent atoms, which can only leave an implication
//! unproven, never prove a false one.
//!
//! Implication is decided by searching for a counterexample, assigning one variable at a
//! time and pruning as soon as the formula is decided. The search is bounded: beyond
//! [`STEP_LIMIT`] evaluation steps (or [`TOTAL_STEP_LIMIT`] for the whole template) nothing is
//! proven, and the rule reports as if the conditions were unrelated.

use foldhash::{HashMap, HashMapExt as _};
use std::cell::Cell;
use std::rc::Rc;

use hotfix_hot::{Availability, ConditionAvailability, Function, Version};
use hotfix_yaml::{NodeId, NodeKind, ScalarValue};

use crate::rule::Context;

/// How many formula nodes one search may evaluate before it gives up (not proven).
const STEP_LIMIT: usize = 1 << 20;
/// How many formula nodes the searches of one template may evaluate in all: past this, every
/// search gives up at once, so that a template full of hard conditions is still linted quickly.
const TOTAL_STEP_LIMIT: usize = 1 << 24;

/// A condition as a boolean formula over atoms.
#[derive(Debug)]
pub(super) enum Formula {
    Const(bool),
    /// True when the atom's variable has the atom's value.
    Atom(usize),
    Not(Rc<Formula>),
    And(Vec<Rc<Formula>>),
    Or(Vec<Rc<Formula>>),
}

/// An atom: true exactly when variable `var` takes value `value`.
#[derive(Clone, Copy, Debug)]
struct Atom {
    var: usize,
    value: usize,
}

/// A variable of the search.
#[derive(Debug)]
enum Var {
    /// An atom on its own: false (0) or true (1).
    Free,
    /// A `boolean` parameter: true (0) or false (1).
    Boolean,
    /// Another parameter compared with strings: one of them (by index), or none of them (the
    /// last value).
    Strings(Vec<String>),
}

impl Var {
    fn domain(&self) -> usize {
        match self {
            Var::Free | Var::Boolean => 2,
            Var::Strings(values) => values.len() + 1,
        }
    }
}

/// What identifies an atom.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// An opaque expression, by its JSON (its Python value as Heat loads it).
    Json(String),
    /// A condition name that cannot be expanded (undefined, or circular).
    Name(String),
    /// A boolean parameter is true.
    BooleanParam(String),
    /// A parameter equals a string.
    ParamEquals(String, String),
    /// An expression that cannot be identified: equal to nothing else.
    Unique(usize),
}

/// Builds formulas for the condition nodes of one template and decides implications.
pub(super) struct Logic<'c> {
    cx: &'c Context<'c>,
    version: Version,
    vars: Vec<Var>,
    atoms: Vec<Atom>,
    keys: HashMap<Key, usize>,
    /// Parameters' variables by name.
    params: HashMap<String, usize>,
    /// Expanded condition names (those whose expansion met no cycle).
    named: HashMap<String, Rc<Formula>>,
    /// Condition names being expanded, innermost last.
    expanding: Vec<String>,
    /// How many times an expansion met a name already being expanded.
    cycles_met: usize,
    unique: usize,
    /// Evaluation steps spent by all searches so far.
    spent: Cell<usize>,
}

impl<'c> Logic<'c> {
    pub(super) fn new(cx: &'c Context<'c>, version: Version) -> Self {
        Logic {
            cx,
            version,
            vars: Vec::new(),
            atoms: Vec::new(),
            keys: HashMap::new(),
            params: HashMap::new(),
            named: HashMap::new(),
            expanding: Vec::new(),
            cycles_met: 0,
            unique: 0,
            spent: Cell::new(0),
        }
    }

    /// The formula of a condition: a `condition:` field, an `if`'s test, a definition.
    pub(super) fn formula(&mut self, node: NodeId) -> Rc<Formula> {
        let doc = self.cx.doc;
        let node = doc.resolve(node);
        match &doc.node(node).kind {
            NodeKind::Scalar(scalar) => match scalar.value {
                ScalarValue::Bool(b) => Rc::new(Formula::Const(b)),
                ScalarValue::Null => Rc::new(Formula::Const(true)),
                _ => match doc.str_value(node) {
                    Some(name) => self.name(name),
                    None => self.opaque(node),
                },
            },
            NodeKind::Mapping { .. } => self.call(node),
            NodeKind::Sequence { .. } | NodeKind::Alias { .. } => self.opaque(node),
        }
    }

    /// Whether some assignment makes `formula` true: `Some(false)` when none does,
    /// `None` when the search was too large to tell.
    pub(super) fn satisfiable(&self, formula: &Formula) -> Option<bool> {
        let left = TOTAL_STEP_LIMIT.checked_sub(self.spent.get())?;
        let mut search = Search {
            logic: self,
            assignment: vec![None; self.vars.len()],
            steps: 0,
            limit: left.min(STEP_LIMIT),
        };
        let result = search.run(formula);
        self.spent.set(self.spent.get() + search.steps);
        result
    }

    /// Whether `premise` implies `conclusion` (proven; `false` when not proven).
    pub(super) fn implies(&self, premise: &Rc<Formula>, conclusion: &Rc<Formula>) -> bool {
        let counterexample = Formula::And(vec![
            Rc::clone(premise),
            Rc::new(Formula::Not(Rc::clone(conclusion))),
        ]);
        self.satisfiable(&counterexample) == Some(false)
    }

    /// Whether `a` and `b` can never hold together (proven).
    pub(super) fn exclusive(&self, a: &Rc<Formula>, b: &Rc<Formula>) -> bool {
        let both = Formula::And(vec![Rc::clone(a), Rc::clone(b)]);
        self.satisfiable(&both) == Some(false)
    }

    /// A condition name: its definition, or an atom when it has none or is being expanded
    /// (a cycle, which Heat reports as `Circular definition for condition`).
    fn name(&mut self, name: &str) -> Rc<Formula> {
        if let Some(formula) = self.named.get(name) {
            return Rc::clone(formula);
        }
        let definition = self.cx.template.condition(name).map(|c| c.value);
        let cyclic = self.expanding.iter().any(|n| n == name);
        let Some(definition) = definition.filter(|_| !cyclic) else {
            self.cycles_met += usize::from(cyclic);
            return self.atom(Key::Name(name.to_owned()));
        };
        let cycles_before = self.cycles_met;
        self.expanding.push(name.to_owned());
        let formula = self.formula(definition);
        self.expanding.pop();
        if self.cycles_met == cycles_before {
            self.named.insert(name.to_owned(), Rc::clone(&formula));
        }
        formula
    }

    /// A mapping in a condition context: a call when it has one key that the version's
    /// condition table knows (as Heat's `parse` decides), else data (an atom).
    fn call(&mut self, node: NodeId) -> Rc<Formula> {
        let doc = self.cx.doc;
        let entries = doc.entries(node);
        let [entry] = entries.as_slice() else {
            return self.opaque(node);
        };
        let Some(key) = doc.str_value(entry.key) else {
            return self.opaque(node);
        };
        let ConditionAvailability::Function(function) = self.version.condition_function(key) else {
            return self.opaque(node);
        };
        let args = entry.value;
        match function {
            Function::Not => Rc::new(Formula::Not(self.formula(args))),
            Function::And | Function::Or => {
                let Some(items) = doc.items(doc.resolve(args)) else {
                    return self.opaque(node);
                };
                let parts = items.iter().map(|&item| self.formula(item)).collect();
                Rc::new(if function == Function::And {
                    Formula::And(parts)
                } else {
                    Formula::Or(parts)
                })
            }
            Function::Equals => self.equals(node, args),
            Function::GetParam => match self.parameter(node) {
                Some(name) if self.is_boolean(name) => {
                    self.atom(Key::BooleanParam(name.to_owned()))
                }
                _ => self.opaque(node),
            },
            _ => self.opaque(node),
        }
    }

    /// `equals: [a, b]`: a test of a parameter's value when one side is `{get_param: p}` and
    /// the other a string (or, for a boolean parameter, a boolean), else an atom whose key
    /// does not depend on the order of the two sides.
    fn equals(&mut self, node: NodeId, args: NodeId) -> Rc<Formula> {
        let doc = self.cx.doc;
        let Some(&[a, b]) = doc.items(doc.resolve(args)) else {
            return self.opaque(node);
        };
        for (side, other) in [(a, b), (b, a)] {
            let Some(param) = self.parameter_call(side) else {
                continue;
            };
            let boolean = self.is_boolean(param);
            let Some(literal) = doc.scalar(doc.resolve(other)) else {
                continue;
            };
            match (&literal.value, boolean) {
                (ScalarValue::Str, true) => return Rc::new(Formula::Const(false)),
                (ScalarValue::Str, false) => {
                    let Some(text) = doc.str_value(doc.resolve(other)) else {
                        continue;
                    };
                    return self.atom(Key::ParamEquals(param.to_owned(), text.to_owned()));
                }
                (ScalarValue::Bool(true), true) => {
                    return self.atom(Key::BooleanParam(param.to_owned()));
                }
                (ScalarValue::Bool(false), true) => {
                    let is_true = self.atom(Key::BooleanParam(param.to_owned()));
                    return Rc::new(Formula::Not(is_true));
                }
                _ => {}
            }
        }
        let mut sides = [self.json(a), self.json(b)];
        let (Some(x), Some(y)) = (sides[0].take(), sides[1].take()) else {
            return self.opaque(node);
        };
        let (first, second) = if x <= y { (x, y) } else { (y, x) };
        self.atom(Key::Json(format!("equals:{first},{second}")))
    }

    /// The parameter `{get_param: p}` (the plain form) names, if `node` is that call.
    fn parameter_call(&self, node: NodeId) -> Option<&'c str> {
        let doc = self.cx.doc;
        let node = doc.resolve(node);
        let entries = doc.entries(node);
        let [entry] = entries.as_slice() else {
            return None;
        };
        let key = doc.str_value(entry.key)?;
        let ConditionAvailability::Function(Function::GetParam) =
            self.version.condition_function(key)
        else {
            return None;
        };
        self.parameter(node)
    }

    /// The parameter a `get_param` mapping names, when it is the plain form `{get_param: p}`.
    fn parameter(&self, node: NodeId) -> Option<&'c str> {
        let doc = self.cx.doc;
        let entries = doc.entries(doc.resolve(node));
        let [entry] = entries.as_slice() else {
            return None;
        };
        doc.str_value(doc.resolve(entry.value))
    }

    /// Whether `name` is a parameter declared with `type: boolean`, whose value Heat always
    /// converts to a Python `bool`.
    fn is_boolean(&self, name: &str) -> bool {
        let (doc, template) = (self.cx.doc, self.cx.template);
        template
            .parameter(name)
            .and_then(|p| doc.get(p.value, "type"))
            .and_then(|t| doc.str_value(t))
            == Some("boolean")
    }

    /// An atom for an expression known only by its value.
    fn opaque(&mut self, node: NodeId) -> Rc<Formula> {
        if let Some(json) = self.json(node) {
            self.atom(Key::Json(json))
        } else {
            self.unique += 1;
            self.atom(Key::Unique(self.unique))
        }
    }

    fn json(&self, node: NodeId) -> Option<String> {
        self.cx.doc.node_to_python_json(node).ok()
    }

    /// The atom for `key`, created on first use with its variable.
    fn atom(&mut self, key: Key) -> Rc<Formula> {
        if let Some(&atom) = self.keys.get(&key) {
            return Rc::new(Formula::Atom(atom));
        }
        let atom = match &key {
            Key::BooleanParam(param) => Atom {
                var: self.param_var(param, || Var::Boolean),
                value: 0,
            },
            Key::ParamEquals(param, text) => {
                let var = self.param_var(param, || Var::Strings(Vec::new()));
                let value = match self.vars.get_mut(var) {
                    Some(Var::Strings(values)) => {
                        values.push(text.clone());
                        values.len() - 1
                    }
                    _ => return Rc::new(Formula::Const(false)),
                };
                Atom { var, value }
            }
            Key::Json(_) | Key::Name(_) | Key::Unique(_) => {
                self.vars.push(Var::Free);
                Atom {
                    var: self.vars.len() - 1,
                    value: 1,
                }
            }
        };
        self.atoms.push(atom);
        let index = self.atoms.len() - 1;
        self.keys.insert(key, index);
        Rc::new(Formula::Atom(index))
    }

    /// The variable of a parameter, created as `new()` on first use.
    fn param_var(&mut self, param: &str, new: impl FnOnce() -> Var) -> usize {
        if let Some(&var) = self.params.get(param) {
            return var;
        }
        self.vars.push(new());
        let var = self.vars.len() - 1;
        self.params.insert(param.to_owned(), var);
        var
    }
}

/// A search for an assignment that makes a formula true.
struct Search<'l, 'c> {
    logic: &'l Logic<'c>,
    assignment: Vec<Option<usize>>,
    steps: usize,
    limit: usize,
}

impl Search<'_, '_> {
    /// `Some(true)`: an assignment exists; `Some(false)`: none does; `None`: gave up.
    fn run(&mut self, formula: &Formula) -> Option<bool> {
        let mut branch = None;
        let value = self.eval(formula, &mut branch);
        if self.steps > self.limit {
            return None;
        }
        if let Some(value) = value {
            return Some(value);
        }
        let var = branch?;
        let domain = self.logic.vars.get(var).map_or(0, Var::domain);
        let mut result = Some(false);
        for value in 0..domain {
            if let Some(slot) = self.assignment.get_mut(var) {
                *slot = Some(value);
            }
            match self.run(formula) {
                Some(true) => {
                    result = Some(true);
                    break;
                }
                Some(false) => {}
                None => {
                    result = None;
                    break;
                }
            }
        }
        if let Some(slot) = self.assignment.get_mut(var) {
            *slot = None;
        }
        result
    }

    /// The formula's value under the partial assignment (`None`: not decided yet); `branch`
    /// receives the first unassigned variable met.
    fn eval(&mut self, formula: &Formula, branch: &mut Option<usize>) -> Option<bool> {
        self.steps += 1;
        if self.steps > self.limit {
            return None;
        }
        match formula {
            Formula::Const(b) => Some(*b),
            Formula::Atom(index) => {
                let atom = self.logic.atoms.get(*index)?;
                let value = self.assignment.get(atom.var).copied().flatten();
                if value.is_none() {
                    branch.get_or_insert(atom.var);
                }
                value.map(|value| value == atom.value)
            }
            Formula::Not(inner) => self.eval(inner, branch).map(|b| !b),
            Formula::And(parts) | Formula::Or(parts) => {
                // `and` is decided by a false part, `or` by a true one.
                let decisive = matches!(formula, Formula::Or(_));
                let mut undecided = false;
                for part in parts {
                    match self.eval(part, branch) {
                        Some(b) if b == decisive => return Some(decisive),
                        Some(_) => {}
                        None => undecided = true,
                    }
                }
                (!undecided).then_some(!decisive)
            }
        }
    }
}

/// The arguments of `node` when it is an `if` call in a value context of `version`: a
/// mapping with the single key `if`, as Heat's `parse` decides.
pub(super) fn value_if(cx: &Context<'_>, version: Version, node: NodeId) -> Option<NodeId> {
    let doc = cx.doc;
    let entries = doc.entries(doc.resolve(node));
    let [entry] = entries.as_slice() else {
        return None;
    };
    let key = doc.str_value(entry.key)?;
    matches!(version.function(key), Availability::Function(Function::If)).then_some(entry.value)
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use hotfix_hot::{Semantic, Template};

    use super::*;

    /// Runs `check` with the logic of a template whose `conditions` are given in YAML.
    fn with_conditions(
        conditions: &str,
        check: impl FnOnce(&mut Logic<'_>, &dyn Fn(&str) -> NodeId),
    ) {
        let text = format!(
            "heat_template_version: 2018-08-31\n\
             parameters:\n  flag: {{type: boolean}}\n  mode: {{type: string}}\n\
             conditions:\n{conditions}"
        );
        let doc = hotfix_yaml::parse(&text).expect("a template");
        let template = Template::new(&doc);
        let semantic = Semantic::new(&template);
        let cx = Context::new("t.yaml", &doc, &template, &semantic);
        let node = |name: &str| template.condition(name).expect("a condition").key;
        let mut logic = Logic::new(&cx, Version::V2018_08_31);
        check(&mut logic, &node);
    }

    /// Whether condition `a` implies condition `b`, both given by name.
    fn implies(logic: &mut Logic<'_>, node: &dyn Fn(&str) -> NodeId, a: &str, b: &str) -> bool {
        let a = logic.formula(node(a));
        let b = logic.formula(node(b));
        logic.implies(&a, &b)
    }

    #[test]
    fn sees_implications_through_and_or_not_and_names() {
        with_conditions(
            "  a: {get_param: flag}\n  b: {equals: [{get_param: mode}, x]}\n  \
             both: {and: [a, b]}\n  either: {or: [b, {not: {not: a}}]}\n  \
             neither: {not: {or: [a, b]}}\n  not_a: {not: a}\n",
            |logic, node| {
                assert!(implies(logic, node, "both", "either"));
                assert!(implies(logic, node, "a", "either"));
                assert!(implies(logic, node, "neither", "not_a"));
                assert!(!implies(logic, node, "either", "both"));
                assert!(!implies(logic, node, "not_a", "neither"));
            },
        );
    }

    #[test]
    fn tests_of_one_parameter_against_different_strings_exclude_each_other() {
        with_conditions(
            "  x: {equals: [{get_param: mode}, x]}\n  y: {equals: [y, {get_param: mode}]}\n  \
             not_y: {not: y}\n  x_or_y: {or: [x, y]}\n",
            |logic, node| {
                assert!(implies(logic, node, "x", "not_y"));
                assert!(!implies(logic, node, "not_y", "x"));
                assert!(!implies(logic, node, "x_or_y", "x"));
            },
        );
    }

    #[test]
    fn a_boolean_parameter_is_true_or_false_and_never_a_string() {
        with_conditions(
            "  set: {get_param: flag}\n  is_true: {equals: [{get_param: flag}, true]}\n  \
             is_false: {equals: [{get_param: flag}, false]}\n  \
             is_text: {equals: [{get_param: flag}, 'true']}\n  unset: {not: set}\n  never: false\n",
            |logic, node| {
                assert!(implies(logic, node, "set", "is_true"));
                assert!(implies(logic, node, "is_true", "set"));
                assert!(implies(logic, node, "is_false", "unset"));
                assert!(implies(logic, node, "unset", "is_false"));
                // Heat compares the string 'true' with the boolean True: never equal.
                assert!(implies(logic, node, "is_text", "never"));
            },
        );
    }

    #[test]
    fn a_boolean_parameter_compared_with_a_number_stays_an_unknown() {
        // Python's `True == 1`: tying the number to the parameter's value would be wrong.
        with_conditions(
            "  set: {get_param: flag}\n  one: {equals: [{get_param: flag}, 1]}\n  \
             not_one: {not: one}\n",
            |logic, node| {
                assert!(!implies(logic, node, "set", "not_one"));
                assert!(!implies(logic, node, "set", "one"));
            },
        );
    }

    #[test]
    fn a_circular_or_undefined_name_is_an_unknown_atom() {
        with_conditions(
            "  a: {not: b}\n  b: {not: a}\n  c: nope\n  d: {and: [c, a]}\n",
            |logic, node| {
                assert!(implies(logic, node, "a", "a"));
                assert!(implies(logic, node, "d", "c"));
                assert!(!implies(logic, node, "c", "d"));
            },
        );
    }

    #[test]
    fn identical_opaque_tests_are_one_variable() {
        with_conditions(
            "  a: {contains: [{get_param: mode}, [x, y]]}\n  \
             b: {and: [{contains: [{get_param: mode}, [x, y]]}, {get_param: flag}]}\n  \
             c: {contains: [{get_param: mode}, [y, x]]}\n",
            |logic, node| {
                assert!(implies(logic, node, "b", "a"));
                assert!(!implies(logic, node, "a", "c"));
            },
        );
    }

    #[test]
    fn gives_up_instead_of_searching_without_end() {
        // Forty pairs of unknown tests, each pair true in three ways, then a contradiction
        // the search meets last: 3^40 partial assignments to refute one by one.
        let mut pairs = String::new();
        for i in 0..40 {
            write!(
                pairs,
                "{{or: [{{yaql: {{expression: a{i}}}}}, {{yaql: {{expression: b{i}}}}}]}}, "
            )
            .expect("write to a String");
        }
        with_conditions(
            &format!(
                "  hard: {{and: [{pairs}{{get_param: flag}}, {{not: {{get_param: flag}}}}]}}\n"
            ),
            |logic, node| {
                let hard = logic.formula(node("hard"));
                assert_eq!(logic.satisfiable(&hard), None);
            },
        );
    }
}
