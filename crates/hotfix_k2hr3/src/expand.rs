//! Expansion: a parsed template and variables to the text the engine stores.

use std::collections::HashMap;

use crate::syntax::{BinaryOp, Expr, ExprKind, Node, Template};
use crate::value::{number_to_string, parse_int, string_to_number};
use crate::{Span, Value};

/// Variables by name (without the `%` signs).
pub type Variables = HashMap<String, Value>;

/// Where expansion stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Loop iterations over the whole template (all loops together).
    pub max_iterations: u64,
    /// Bytes of output, and of any string a formula builds.
    pub max_output: usize,
}

impl Default for Limits {
    /// One million iterations, 64 MiB.
    fn default() -> Self {
        Limits {
            max_iterations: 1_000_000,
            max_output: 64 << 20,
        }
    }
}

/// Why expansion failed, at which formula or statement, and what the engine keeps of the
/// output before it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ExpandError {
    pub kind: ExpandErrorKind,
    pub span: Span,
    /// The output the engine keeps before its error message: up to the top-level statement or
    /// block that failed, and the rounds of a top-level loop that ended before the failure.
    pub output: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpandErrorKind {
    #[error("`{op}` needs numbers, and {side} {found} is not one")]
    NotANumber {
        op: &'static str,
        side: &'static str,
        found: String,
    },
    #[error("`+` cannot add a string to a number: {0}")]
    NumberPlusString(String),
    #[error("`+` takes numbers and strings, and {side} {found} is neither")]
    NotAddable { side: &'static str, found: String },
    #[error("`{op}` compares numbers, and {side} {found} is not one")]
    NotComparable {
        op: &'static str,
        side: &'static str,
        found: String,
    },
    #[error("`!` needs a boolean, and {0} is not one")]
    NotABoolean(String),
    #[error("division by zero")]
    DivisionByZero,
    #[error("an index must be a number or a string, not {0}")]
    InvalidIndex(String),
    #[error("%{0}% is null: it has no elements (the engine stops with a TypeError)")]
    NullContainer(String),
    #[error("only a variable or an element can be assigned")]
    AssignTarget,
    #[error("`{{ }}` or `[ ]` assigns into an array or an object, and this is {0}")]
    NotAContainer(String),
    #[error("`foreach` walks an array or an object, and this is {0}")]
    NotIterable(String),
    #[error("more than {0} loop iterations: stopped (see --max-iterations)")]
    IterationLimit(u64),
    /// More than this many `if`s closed by two `endif`s, their conditions false, ran the rest
    /// of their block inside one another: the engine would run that rest 2^N times (or recurse
    /// that deep); the expander stops.
    #[error(
        "more than {0} `if`s closed by two `endif`s ran the rest of their block inside one \
         another: stopped"
    )]
    RestDepth(usize),
    #[error("the output would exceed {0} bytes")]
    OutputLimit(usize),
    /// The bytes built or copied in all (strings, values read from variables, output) passed
    /// [`WORK_PER_OUTPUT`] times [`Limits::max_output`]: a template that copies long strings in
    /// a loop would otherwise run for days within the other two bounds.
    #[error(
        "more than {0} bytes built or copied in all (the expansion's bound on total work and \
         memory): stopped"
    )]
    WorkLimit(usize),
}

/// How many runs of a block's rest may open inside each other (see
/// [`ExpandErrorKind::RestDepth`]).
const MAX_REST_DEPTH: usize = 64;

/// How far past an array's end an element is stored; further, JavaScript makes a sparse array
/// and the expander leaves the array as it is.
const SPARSE_GAP: usize = 4096;

/// How many bytes the expansion may build or copy in all, per byte of output it may write:
/// the bound on its total work and memory is this times [`Limits::max_output`] (1 GiB with the
/// default 64 MiB).
pub const WORK_PER_OUTPUT: usize = 16;

/// Expands `template` with `variables` (which the template may change as it runs: they are
/// copied).
pub fn expand(
    template: &Template,
    variables: &Variables,
    limits: Limits,
) -> std::result::Result<String, ExpandError> {
    let mut machine = Machine {
        vars: variables.clone(),
        out: String::new(),
        iterations: 0,
        work: 0,
        limits,
        depth: 0,
        committed: 0,
        commit_iterations: false,
        rest_depth: 0,
        props: HashMap::new(),
    };
    for node in &template.body {
        let before = machine.out.len();
        machine.committed = before;
        machine.commit_iterations = matches!(
            node,
            Node::While { .. } | Node::DoWhile { .. } | Node::For { .. } | Node::Foreach { .. }
        );
        // At the top level, `break` and `continue` do nothing.
        if let Err(failure) = machine.node(node) {
            // The engine keeps what came before the failing top-level statement, and the rounds
            // of a top-level loop that ended; a failing block's own output is dropped.
            machine.out.truncate(machine.committed.max(before));
            return Err(ExpandError {
                kind: failure.kind,
                span: failure.span,
                output: machine.out,
            });
        }
    }
    Ok(machine.out)
}

/// Where an operand was read: a variable, and the key of its element.
type Place<'a> = (&'a str, Option<String>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Normal,
    Break,
    Continue,
}

struct Machine {
    vars: Variables,
    out: String,
    iterations: u64,
    /// Bytes built or copied so far, against [`WORK_PER_OUTPUT`] times the output bound.
    work: usize,
    limits: Limits,
    /// Blocks open around the node being expanded.
    depth: usize,
    /// The output a failure keeps: up to the top-level node, or to its last finished round.
    committed: usize,
    /// Whether the top-level node is a loop (whose finished rounds are kept).
    commit_iterations: bool,
    /// How many runs of a block's rest (after an `if` closed twice) are open inside each other.
    rest_depth: usize,
    /// Properties that are no index (`%a%['k'] = 1`) stored on the array a variable holds, in
    /// the order they were first set: JavaScript keeps them beside the elements, where reads
    /// and `foreach` (after the indexes) find them, and printing and `.length` do not.
    props: HashMap<String, Vec<(String, Value)>>,
}

/// A failure before the output is attached.
struct Failure {
    kind: ExpandErrorKind,
    span: Span,
}

type Result<T> = std::result::Result<T, Failure>;

fn fail<T>(kind: ExpandErrorKind, span: Span) -> Result<T> {
    Err(Failure { kind, span })
}

impl Machine {
    fn block(&mut self, nodes: &[Node]) -> Result<Flow> {
        self.depth += 1;
        let flow = self.block_inner(nodes);
        self.depth -= 1;
        flow
    }

    fn block_inner(&mut self, nodes: &[Node]) -> Result<Flow> {
        for (i, node) in nodes.iter().enumerate() {
            let flow = match node {
                Node::If {
                    doubled: true,
                    branches,
                    otherwise,
                    span,
                    ..
                } => self.doubled_if(
                    branches,
                    otherwise.as_ref().map(|(_, body)| body.as_slice()),
                    *span,
                    &nodes[i + 1..],
                )?,
                _ => self.node(node)?,
            };
            if flow != Flow::Normal {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    /// An `if` closed by two `endif`s: its first branch when its condition holds (the other
    /// branches as usual when that one is empty); otherwise the rest of the enclosing block
    /// (`rest`) runs once here, then the caller goes on with it.
    fn doubled_if(
        &mut self,
        branches: &[crate::Branch],
        otherwise: Option<&[Node]>,
        span: Span,
        rest: &[Node],
    ) -> Result<Flow> {
        let Some((first, others)) = branches.split_first() else {
            return Ok(Flow::Normal);
        };
        if self.holds(&first.cond)? {
            if !first.body.is_empty() {
                return self.block(&first.body);
            }
            for branch in others {
                if self.holds(&branch.cond)? && !branch.body.is_empty() {
                    return self.block(&branch.body);
                }
            }
            return match otherwise {
                Some(body) => self.block(body),
                None => Ok(Flow::Normal),
            };
        }
        self.tick(span)?;
        if self.rest_depth >= MAX_REST_DEPTH {
            return fail(ExpandErrorKind::RestDepth(MAX_REST_DEPTH), span);
        }
        self.rest_depth += 1;
        let flow = self.block(rest);
        self.rest_depth -= 1;
        flow
    }

    /// A loop's round ended: when the loop is the top-level node, its output is kept.
    fn round_ended(&mut self) {
        if self.commit_iterations && self.depth == 0 {
            self.committed = self.out.len();
        }
    }

    fn write(&mut self, text: &str, span: Span) -> Result<()> {
        if self.out.len() + text.len() > self.limits.max_output {
            return fail(ExpandErrorKind::OutputLimit(self.limits.max_output), span);
        }
        self.spend(text.len(), span)?;
        self.out.push_str(text);
        Ok(())
    }

    /// Counts `bytes` built or copied against the bound on total work.
    fn spend(&mut self, bytes: usize, span: Span) -> Result<()> {
        let bound = self.limits.max_output.saturating_mul(WORK_PER_OUTPUT);
        self.work = self.work.saturating_add(bytes);
        if self.work > bound {
            return fail(ExpandErrorKind::WorkLimit(bound), span);
        }
        Ok(())
    }

    fn tick(&mut self, span: Span) -> Result<()> {
        self.iterations += 1;
        if self.iterations > self.limits.max_iterations {
            return fail(
                ExpandErrorKind::IterationLimit(self.limits.max_iterations),
                span,
            );
        }
        Ok(())
    }

    fn holds(&mut self, cond: &Expr) -> Result<bool> {
        Ok(self.eval(cond)?.truthy())
    }

    fn node(&mut self, node: &Node) -> Result<Flow> {
        match node {
            Node::Text { span, text } => self.write(text, *span)?,
            Node::Comment { .. } => {}
            Node::Print { span, expr } => {
                let text = self.eval(expr)?.to_text();
                self.write(&text, *span)?;
            }
            Node::Eval { exprs, .. } => {
                for expr in exprs {
                    self.eval(expr)?;
                }
            }
            Node::If {
                branches,
                otherwise,
                ..
            } => {
                // A branch with nothing in it is passed over even when its condition holds:
                // the engine then goes on to the next `elif` or the `else`.
                for branch in branches {
                    if self.holds(&branch.cond)? && !branch.body.is_empty() {
                        return self.block(&branch.body);
                    }
                }
                if let Some((_, body)) = otherwise {
                    return self.block(body);
                }
            }
            Node::While {
                head, cond, body, ..
            } => {
                while self.holds(cond)? {
                    self.tick(*head)?;
                    let flow = self.block(body)?;
                    self.round_ended();
                    if flow == Flow::Break {
                        break;
                    }
                }
            }
            Node::DoWhile {
                head, body, cond, ..
            } => loop {
                self.tick(*head)?;
                let flow = self.block(body)?;
                self.round_ended();
                if flow == Flow::Break || !self.holds(cond)? {
                    break;
                }
            },
            Node::For {
                head,
                init,
                cond,
                step,
                body,
                ..
            } => {
                if let Some(init) = init {
                    self.eval(init)?;
                }
                loop {
                    if let Some(cond) = cond
                        && !self.holds(cond)?
                    {
                        break;
                    }
                    self.tick(*head)?;
                    let flow = self.block(body)?;
                    self.round_ended();
                    if flow == Flow::Break {
                        break;
                    }
                    if let Some(step) = step {
                        self.eval(step)?;
                    }
                }
            }
            Node::Foreach {
                head,
                var,
                iterable,
                body,
                ..
            } => self.foreach(*head, var, iterable, body)?,
            Node::Break { .. } => return Ok(Flow::Break),
            Node::Continue { .. } => return Ok(Flow::Continue),
        }
        Ok(Flow::Normal)
    }

    /// `foreach`: the variable takes each index of an array (as a string) or key of an object.
    fn foreach(&mut self, head: Span, var: &str, iterable: &Expr, body: &[Node]) -> Result<()> {
        let props = match &iterable.kind {
            ExprKind::Var(name) => self
                .props
                .get(name)
                .map(|p| p.iter().map(|(k, _)| k.clone())),
            _ => None,
        }
        .map(Iterator::collect::<Vec<String>>);
        let keys: Vec<String> = match self.eval(iterable)? {
            Value::Array(items) => (0..items.len())
                .map(|i| i.to_string())
                .chain(props.into_iter().flatten())
                .collect(),
            Value::Object(entries) => entries.into_iter().map(|(k, _)| k).collect(),
            other => {
                return fail(
                    ExpandErrorKind::NotIterable(describe(&other)),
                    iterable.span,
                );
            }
        };
        for key in keys {
            self.tick(head)?;
            self.spend(key.len(), head)?;
            self.set(var, Value::Str(key));
            let flow = self.block(body)?;
            self.round_ended();
            if flow == Flow::Break {
                break;
            }
        }
        Ok(())
    }

    /// Sets a variable (without allocating its name again when it exists).
    fn set(&mut self, name: &str, value: Value) {
        if !self.props.is_empty() {
            self.props.remove(name);
        }
        if let Some(slot) = self.vars.get_mut(name) {
            *slot = value;
        } else {
            self.vars.insert(name.to_owned(), value);
        }
    }

    /// Evaluates a formula. Each kind of node has its own function, so that this one's stack
    /// frame (paid once per level of the formula's tree) stays small.
    fn eval(&mut self, expr: &Expr) -> Result<Value> {
        match &expr.kind {
            ExprKind::Null => Ok(Value::Null),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Num(n) => Ok(Value::Num(*n)),
            ExprKind::Str(s) => self.literal(s, expr.span),
            ExprKind::Var(name) => self.read_var(name, expr.span),
            ExprKind::Index { base, index, .. } => self.index(base, index),
            ExprKind::Length { base, .. } => self.length(base),
            ExprKind::Not { operand, .. } => self.not(operand),
            ExprKind::Binary { op, lhs, rhs, .. } => self.binary_node(expr, *op, lhs, rhs),
            ExprKind::Assign { target, value, .. } => self.assign(target, value, expr.span),
            ExprKind::Step {
                operand,
                increment,
                prefix,
                ..
            } => self.step(operand, *increment, *prefix),
        }
    }

    #[inline(never)]
    fn literal(&mut self, s: &str, span: Span) -> Result<Value> {
        self.spend(s.len(), span)?;
        Ok(Value::Str(s.to_owned()))
    }

    #[inline(never)]
    fn read_var(&mut self, name: &str, span: Span) -> Result<Value> {
        // A variable holding a missing element reads as `null`, as an unset one does, and
        // reading either sets it to `null` (which `.length` and elements tell apart).
        let value = match self.vars.get_mut(name) {
            None => {
                self.vars.insert(name.to_owned(), Value::Null);
                Value::Null
            }
            Some(slot @ Value::Undefined) => {
                *slot = Value::Null;
                Value::Null
            }
            Some(value) => value.clone(),
        };
        self.spend(weight(&value), span)?;
        Ok(value)
    }

    /// The key an index formula gives: a string, or a value JavaScript reads as a number.
    fn key(&mut self, index: &Expr) -> Result<Value> {
        let key = self.eval(index)?;
        let valid = match &key {
            Value::Str(_) | Value::Num(_) | Value::Bool(_) => true,
            Value::Null | Value::Undefined => false,
            other => js_number(other).is_some(),
        };
        if valid {
            Ok(key)
        } else {
            fail(ExpandErrorKind::InvalidIndex(describe(&key)), index.span)
        }
    }

    #[inline(never)]
    fn index(&mut self, base: &Expr, index: &Expr) -> Result<Value> {
        let key = self.key(index)?;
        self.element(base, &key)
    }

    /// An operand of `==` or `!=`, with the place it was read from when it is a variable or
    /// an element: two reads of the same place give the same array or object, which the
    /// engine compares by identity.
    fn operand<'a>(&mut self, expr: &'a Expr) -> Result<(Value, Option<Place<'a>>)> {
        match &expr.kind {
            ExprKind::Var(name) => Ok((self.read_var(name, expr.span)?, Some((name, None)))),
            ExprKind::Index { base, index, .. } => {
                let key = self.key(index)?;
                let value = self.element(base, &key)?;
                let place = match &base.kind {
                    ExprKind::Var(name) => Some((name.as_str(), Some(key.to_text()))),
                    _ => None,
                };
                Ok((value, place))
            }
            _ => Ok((self.eval(expr)?, None)),
        }
    }

    fn element(&mut self, base: &Expr, key: &Value) -> Result<Value> {
        let ExprKind::Var(name) = &base.kind else {
            return Ok(Value::Undefined);
        };
        if let Some(Value::Array(_)) = self.vars.get(name)
            && let Some(props) = self.props.get(name)
        {
            let key = key.to_text();
            if array_index(&key).is_none() {
                let element = props
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map_or(Value::Undefined, |(_, v)| v.clone());
                self.spend(weight(&element), base.span)?;
                return Ok(element);
            }
        }
        let element = match self.vars.get(name) {
            // The engine throws reading an element of `null`; an element of a missing element
            // kept in a variable is `null`.
            Some(Value::Null) => {
                return fail(ExpandErrorKind::NullContainer(name.clone()), base.span);
            }
            Some(Value::Undefined) => {
                self.vars.insert(name.clone(), Value::Null);
                Value::Null
            }
            Some(container) => container.element(key).unwrap_or(Value::Undefined),
            None => {
                self.vars.insert(name.clone(), Value::Null);
                Value::Undefined
            }
        };
        self.spend(weight(&element), base.span)?;
        Ok(element)
    }

    #[inline(never)]
    /// `.length`: an array's or object's count; 0 for other values, `null` among them; `null`
    /// (printed as nothing) for a variable never set nor read before, or holding a missing
    /// element.
    fn length(&mut self, base: &Expr) -> Result<Value> {
        if let ExprKind::Var(name) = &base.kind {
            match self.vars.get(name) {
                None | Some(Value::Undefined) => {
                    self.vars.insert(name.clone(), Value::Null);
                    return Ok(Value::Null);
                }
                _ => {}
            }
        }
        let value = self.eval(base)?;
        #[allow(clippy::cast_precision_loss, reason = "JavaScript numbers are doubles")]
        Ok(match &value {
            Value::Array(items) => Value::Num(items.len() as f64),
            Value::Object(entries) => Value::Num(entries.len() as f64),
            Value::Undefined => Value::Null,
            Value::Null | Value::Bool(_) | Value::Num(_) | Value::Str(_) => Value::Num(0.0),
        })
    }

    #[inline(never)]
    fn not(&mut self, operand: &Expr) -> Result<Value> {
        match self.eval(operand)? {
            Value::Bool(b) => Ok(Value::Bool(!b)),
            other => fail(ExpandErrorKind::NotABoolean(describe(&other)), operand.span),
        }
    }

    #[inline(never)]
    fn assign(&mut self, target: &Expr, value: &Expr, span: Span) -> Result<Value> {
        if !matches!(target.kind, ExprKind::Var(_) | ExprKind::Index { .. }) {
            return fail(ExpandErrorKind::AssignTarget, target.span);
        }
        let v = self.eval(value)?;
        self.spend(weight(&v), span)?;
        self.store(target, v.clone())?;
        // `%x% = %a%` shares the array in the engine: its properties come along.
        if let (ExprKind::Var(to), ExprKind::Var(from)) = (&target.kind, &value.kind)
            && to != from
            && let Some(props) = self.props.get(from).cloned()
        {
            self.props.insert(to.clone(), props);
        }
        Ok(v)
    }

    /// Stores `value` in the variable or element `target` names (other formulas store nothing).
    fn store(&mut self, target: &Expr, value: Value) -> Result<()> {
        match &target.kind {
            ExprKind::Var(name) => self.set(name, value),
            // `++%v%.length` stores the count plus one in `%v%`, as the engine does.
            ExprKind::Length { base, .. } => return self.store(base, value),
            ExprKind::Index { base, index, .. } => {
                let ExprKind::Var(name) = &base.kind else {
                    return Ok(());
                };
                let key = self.key(index)?;
                // With a boolean index the engine stores the value in the variable itself.
                if matches!(key, Value::Bool(_)) {
                    self.set(name, value);
                    return Ok(());
                }
                let key = match key {
                    Value::Str(s) => s,
                    other => other.to_text(),
                };
                // Growing an array costs its new slots.
                if let (Some(Value::Array(items)), Some(i)) =
                    (self.vars.get(name), array_index(&key))
                    && i >= items.len()
                    && i <= items.len() + SPARSE_GAP
                {
                    self.spend((i + 1 - items.len()).saturating_mul(16), target.span)?;
                }
                if let Some(Value::Array(_)) = self.vars.get(name)
                    && array_index(&key).is_none()
                {
                    self.spend(key.len().saturating_add(weight(&value)), target.span)?;
                    let props = self.props.entry(name.clone()).or_default();
                    if let Some(slot) = props.iter_mut().find(|(k, _)| *k == key) {
                        slot.1 = value;
                    } else {
                        props.push((key, value));
                    }
                    return Ok(());
                }
                match self.vars.get_mut(name) {
                    Some(Value::Array(items)) => {
                        // Far past the end JavaScript makes a sparse array; the expander does
                        // not store there (only printing it, a string of commas past every
                        // bound, would show the difference).
                        if let Some(i) = array_index(&key)
                            && i <= items.len().saturating_add(SPARSE_GAP)
                        {
                            if i >= items.len() {
                                items.resize(i + 1, Value::Undefined);
                            }
                            items[i] = value;
                        }
                    }
                    Some(Value::Object(entries)) => {
                        if let Some(slot) = entries.iter_mut().find(|(k, _)| *k == key) {
                            slot.1 = value;
                        } else {
                            entries.push((key, value));
                        }
                    }
                    other => {
                        let found = other.map_or_else(|| "null".to_owned(), |v| describe(v));
                        return fail(ExpandErrorKind::NotAContainer(found), base.span);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    #[inline(never)]
    fn step(&mut self, operand: &Expr, increment: bool, prefix: bool) -> Result<Value> {
        let current = self.eval(operand)?;
        let sym = if increment { "++" } else { "--" };
        let old = number(&current, sym, "its operand", operand.span, false)?;
        let new = if increment { old + 1.0 } else { old - 1.0 };
        self.store(operand, Value::Num(new))?;
        // After the operand, the value before, as it was (`%e%++` on `[]` prints nothing).
        Ok(if prefix { Value::Num(new) } else { current })
    }

    #[inline(never)]
    fn binary_node(&mut self, expr: &Expr, op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Result<Value> {
        let (l, r, same_place) = if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            let (l, left_place) = self.operand(lhs)?;
            let (r, right_place) = self.operand(rhs)?;
            (l, r, left_place.is_some() && left_place == right_place)
        } else {
            (self.eval(lhs)?, self.eval(rhs)?, false)
        };
        // Joining or comparing strings reads them (and a joined string is built).
        self.spend(text_weight(&l).saturating_add(text_weight(&r)), expr.span)?;
        let spans = (lhs.span, rhs.span);
        match op {
            BinaryOp::Add => self.add(l, &r, expr.span, spans),
            BinaryOp::And => Ok(Value::Bool(l.truthy() && r.truthy())),
            BinaryOp::Or => Ok(Value::Bool(l.truthy() || r.truthy())),
            BinaryOp::Eq | BinaryOp::Ne => Ok(Value::Bool(
                equal(&l, &r, same_place) == (op == BinaryOp::Eq),
            )),
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => {
                order(op, &l, &r, spans).map(Value::Bool)
            }
            _ => arithmetic(op, &l, &r, expr.span, spans).map(Value::Num),
        }
    }

    /// `+`, as the engine does it: it refuses missing elements, objects, arrays that are no
    /// number, `NaN`, and a number or boolean (or array) on the left of a string; `null` on the
    /// right leaves the left side as it is, `null` on the left makes `'0'` and the right side's
    /// text (or the string on the right); the rest is JavaScript's `+` (strings join, arrays as
    /// their text).
    fn add(&self, l: Value, r: &Value, span: Span, spans: (Span, Span)) -> Result<Value> {
        let refuse = |v: &Value| match v {
            Value::Undefined | Value::Object(_) => true,
            Value::Num(n) => n.is_nan(),
            Value::Array(_) => js_number(v).is_none(),
            _ => false,
        };
        if refuse(&l) {
            return fail(
                ExpandErrorKind::NotAddable {
                    side: "the left side",
                    found: describe(&l),
                },
                spans.0,
            );
        }
        if refuse(r) {
            return fail(
                ExpandErrorKind::NotAddable {
                    side: "the right side",
                    found: describe(r),
                },
                spans.1,
            );
        }
        let sum = match (l, r) {
            (l @ (Value::Num(_) | Value::Bool(_) | Value::Array(_)), Value::Str(s)) => {
                return fail(
                    ExpandErrorKind::NumberPlusString(format!(
                        "{} + {}",
                        l.to_json(),
                        Value::Str(s.clone()).to_json()
                    )),
                    span,
                );
            }
            (Value::Null, Value::Str(s)) => Value::Str(s.clone()),
            (Value::Null, Value::Null) => Value::Null,
            (Value::Null, r) => Value::Str(format!("0{}", r.to_text())),
            (l, Value::Null) => l,
            (l, r) => {
                let text = |v: &Value| matches!(v, Value::Str(_) | Value::Array(_));
                if text(&l) || text(r) {
                    let mut s = l.to_text();
                    let right = r.to_text();
                    if s.len() + right.len() > self.limits.max_output {
                        return fail(ExpandErrorKind::OutputLimit(self.limits.max_output), span);
                    }
                    s.push_str(&right);
                    Value::Str(s)
                } else {
                    Value::Num(as_number(&l) + as_number(r))
                }
            }
        };
        Ok(sum)
    }
}

/// A number or a boolean as a number (the callers have ruled out the rest).
fn as_number(value: &Value) -> f64 {
    match value {
        Value::Num(n) => *n,
        Value::Bool(true) => 1.0,
        _ => 0.0,
    }
}

/// `- * / % << >> & |` on two values.
fn arithmetic(op: BinaryOp, l: &Value, r: &Value, span: Span, spans: (Span, Span)) -> Result<f64> {
    let sym = op.symbol();
    let bitwise = matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr);
    let a = number(l, sym, "the left side", spans.0, bitwise)?;
    let b = number(r, sym, "the right side", spans.1, bitwise)?;
    Ok(match op {
        BinaryOp::Sub => a - b,
        BinaryOp::Mul => a * b,
        BinaryOp::Div | BinaryOp::Rem => {
            // Only the number 0 is refused: `'0'`, `false`, `[]` divide to Infinity or NaN.
            if *r == Value::Num(0.0) {
                return fail(ExpandErrorKind::DivisionByZero, span);
            }
            if op == BinaryOp::Div { a / b } else { a % b }
        }
        BinaryOp::BitAnd => f64::from(to_int32(a) & to_int32(b)),
        BinaryOp::BitOr => f64::from(to_int32(a) | to_int32(b)),
        BinaryOp::Shl => f64::from(to_int32(a).wrapping_shl(shift_count(b))),
        BinaryOp::Shr => f64::from(to_int32(a) >> shift_count(b)),
        _ => f64::NAN,
    })
}

/// `< > <= >=`: numbers compare by their integer part (JavaScript's `parseInt` of their text:
/// `0.1 > 0` is false), strings that hold a number too; a boolean or `null` on either side
/// makes the comparison false; `NaN`, other strings, arrays that are no number, objects and
/// missing elements fail.
fn order(op: BinaryOp, l: &Value, r: &Value, spans: (Span, Span)) -> Result<bool> {
    let side = |v: &Value, which: &'static str, span: Span| -> Result<Option<f64>> {
        let refuse = || {
            fail(
                ExpandErrorKind::NotComparable {
                    op: op.symbol(),
                    side: which,
                    found: describe(v),
                },
                span,
            )
        };
        match v {
            // `NaN` (from `0 / 0` or `[] % []`) is refused; `Infinity` compares false.
            Value::Num(n) if n.is_nan() => refuse(),
            Value::Num(n) => Ok(Some(parse_int(&number_to_string(*n)))),
            Value::Str(_) | Value::Array(_) => match js_number(v) {
                // `parseInt` of the text: `''` and `[]` are NaN, and compare false.
                Some(_) => Ok(Some(parse_int(&v.to_text())).filter(|n| !n.is_nan())),
                None => refuse(),
            },
            Value::Bool(_) | Value::Null => Ok(None),
            Value::Object(_) | Value::Undefined => refuse(),
        }
    };
    let a = side(l, "the left side", spans.0)?;
    let b = side(r, "the right side", spans.1)?;
    let (Some(a), Some(b)) = (a, b) else {
        return Ok(false);
    };
    Ok(match op {
        BinaryOp::Lt => a < b,
        BinaryOp::Gt => a > b,
        BinaryOp::Le => a <= b,
        _ => a >= b,
    })
}

/// `==`, as the engine decides it (`!=` is its negation):
///
/// * a missing element equals only a missing element (and `null`, or `false` on the left);
/// * an array on the left of a boolean by its text (`[]` true, `[0]` false, `[1, 2]` neither);
///   an object there never; a boolean on the left equals what has its truth on the right
///   (`true == 'a'`, `false == [0]`);
/// * `null`, numbers and arrays whose text is a number compare by their integer part
///   (`parseInt` of their text, `null` as 0; `Infinity` equals nothing); an array whose text
///   is no number (`['a']`, `[0, 1]`) or an object equals only itself (`same_place`: both
///   read from the same variable or element); `[]` not even itself;
/// * `null` on the left equals the empty string (not on the right); strings equal strings;
///   a number never equals a string.
#[allow(clippy::float_cmp, reason = "JavaScript's `==` on numbers is exact")]
fn equal(l: &Value, r: &Value, same_place: bool) -> bool {
    // `parseInt` of a number's text; `None` when the value compares as no number.
    let numeric = |v: &Value| match v {
        Value::Null => Some(0.0),
        Value::Num(n) => Some(parse_int(&number_to_string(*n))),
        Value::Array(_) => {
            let text = v.to_text();
            string_to_number(&text).map(|_| parse_int(&text))
        }
        _ => None,
    };
    match (l, r) {
        (Value::Undefined, r) => matches!(r, Value::Undefined),
        (Value::Bool(b), Value::Undefined) => !*b,
        (l, Value::Undefined) => matches!(l, Value::Null),
        (Value::Array(_), Value::Bool(b)) => l.array_truth() == Some(*b),
        (Value::Object(_), _) => same_place,
        (Value::Bool(b), r) | (r, Value::Bool(b)) => r.truthy() == *b,
        (Value::Null, Value::Str(s)) => s.is_empty(),
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::Array(_), Value::Array(_)) => match (numeric(l), numeric(r)) {
            (Some(a), Some(b)) => a == b,
            (None, None) => same_place,
            _ => false,
        },
        (l, r) => matches!((numeric(l), numeric(r)), (Some(a), Some(b)) if a == b),
    }
}

/// A value as an operand of an arithmetic operator: what JavaScript's `Number()` makes of it
/// (booleans 1 and 0, strings that hold a number, arrays through their text), refusing what it
/// makes `NaN` of, and `null` but for the bitwise operators (as 0).
fn number(
    value: &Value,
    op: &'static str,
    side: &'static str,
    span: Span,
    bitwise: bool,
) -> Result<f64> {
    let n = match value {
        Value::Null if !bitwise => None,
        other => js_number(other).filter(|n| !n.is_nan()),
    };
    match n {
        Some(n) => Ok(n),
        None => fail(
            ExpandErrorKind::NotANumber {
                op,
                side,
                found: describe(value),
            },
            span,
        ),
    }
}

/// JavaScript's `Number(value)`; `None` for `NaN`.
fn js_number(value: &Value) -> Option<f64> {
    match value {
        Value::Null => Some(0.0),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::Num(n) => Some(*n),
        Value::Str(s) => string_to_number(s),
        Value::Array(_) => string_to_number(&value.to_text()),
        Value::Object(_) | Value::Undefined => None,
    }
}

/// JavaScript's `ToInt32`.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "ToInt32 is a truncation modulo 2^32"
)]
fn to_int32(n: f64) -> i32 {
    if !n.is_finite() {
        return 0;
    }
    let m = n.trunc().rem_euclid(4_294_967_296.0);
    (m as u64 as u32).cast_signed()
}

/// A shift count: JavaScript's `ToUint32`, masked to 5 bits.
fn shift_count(n: f64) -> u32 {
    to_int32(n).cast_unsigned() & 31
}

/// An array index written as JavaScript writes it.
fn array_index(key: &str) -> Option<usize> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse().ok()
}

/// About how many bytes a copy of `value` takes: its strings, and 16 per element.
fn weight(value: &Value) -> usize {
    let mut total = 0usize;
    let mut pending = vec![value];
    while let Some(v) = pending.pop() {
        total = total.saturating_add(16);
        match v {
            Value::Str(s) => total = total.saturating_add(s.len()),
            Value::Array(items) => pending.extend(items),
            Value::Object(entries) => {
                for (k, v) in entries {
                    total = total.saturating_add(k.len());
                    pending.push(v);
                }
            }
            Value::Null | Value::Undefined | Value::Bool(_) | Value::Num(_) => {}
        }
    }
    total
}

/// What a binary operator may read or build of an operand: a string's bytes, or the text of an
/// array or object.
fn text_weight(value: &Value) -> usize {
    match value {
        Value::Null | Value::Undefined | Value::Bool(_) | Value::Num(_) => 0,
        other => weight(other),
    }
}

/// A value as messages show it: its JSON (`NaN` and `Infinity` as written), cut at 40
/// characters.
fn describe(value: &Value) -> String {
    if let Value::Num(n) = value
        && !n.is_finite()
    {
        return number_to_string(*n);
    }
    let json = value.to_json();
    let mut shown: String = json.chars().take(40).collect();
    if shown.len() < json.len() {
        shown.push('…');
    }
    shown
}
