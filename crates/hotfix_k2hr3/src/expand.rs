//! Expansion: a parsed template and variables to the text the engine stores.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::syntax::{BinaryOp, Expr, ExprKind, Node, Template, UnaryOp};
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

/// Why expansion failed, and at which formula or statement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ExpandError {
    pub kind: ExpandErrorKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpandErrorKind {
    #[error("the variable %{0}% is not set")]
    UndefinedVariable(String),
    #[error("division by zero")]
    DivisionByZero,
    #[error("the result does not fit in a 64-bit integer")]
    Overflow,
    #[error("a shift count must be between 0 and 63, not {0}")]
    ShiftCount(i64),
    #[error("`{op}` needs numbers, and {side} {found} is not one")]
    NotANumber {
        op: &'static str,
        side: &'static str,
        found: String,
    },
    #[error("{0} has no elements to count")]
    NoLength(&'static str),
    #[error("{0} cannot be indexed")]
    NotIndexable(&'static str),
    #[error("`{{ }}` reads an object's key, and this is {0}")]
    NotAnObject(&'static str),
    #[error("`foreach` needs an array or an object, and this is {0}")]
    NotIterable(&'static str),
    #[error("more than {0} loop iterations: stopped (see --max-iterations)")]
    IterationLimit(u64),
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
    };
    machine.block(&template.body)?;
    Ok(machine.out)
}

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
}

type Result<T> = std::result::Result<T, ExpandError>;

fn fail<T>(kind: ExpandErrorKind, span: Span) -> Result<T> {
    Err(ExpandError { kind, span })
}

impl Machine {
    fn block(&mut self, nodes: &[Node]) -> Result<Flow> {
        for node in nodes {
            let flow = self.node(node)?;
            if flow != Flow::Normal {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
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

    /// A copy of a value, counted.
    fn copy(&mut self, value: &Value, span: Span) -> Result<Value> {
        self.spend(weight(value), span)?;
        Ok(value.clone())
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

    fn node(&mut self, node: &Node) -> Result<Flow> {
        match node {
            Node::Text { span, text } => self.write(text, *span)?,
            Node::Comment { .. } => {}
            Node::Print { span, expr } => {
                let text = self.eval(expr)?.to_text();
                self.write(&text, *span)?;
            }
            Node::Eval { expr, .. } => {
                self.eval(expr)?;
            }
            Node::If {
                branches,
                otherwise,
                ..
            } => {
                for branch in branches {
                    if self.eval(&branch.cond)?.truthy() {
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
                while self.eval(cond)?.truthy() {
                    self.tick(*head)?;
                    if self.block(body)? == Flow::Break {
                        break;
                    }
                }
            }
            Node::DoWhile {
                head, body, cond, ..
            } => loop {
                self.tick(*head)?;
                if self.block(body)? == Flow::Break || !self.eval(cond)?.truthy() {
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
                        && !self.eval(cond)?.truthy()
                    {
                        break;
                    }
                    self.tick(*head)?;
                    if self.block(body)? == Flow::Break {
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
            } => {
                let items: Vec<Value> = match self.eval(iterable)? {
                    Value::Array(items) => items,
                    Value::Object(entries) => {
                        entries.into_iter().map(|(k, _)| Value::Str(k)).collect()
                    }
                    other => {
                        return fail(
                            ExpandErrorKind::NotIterable(other.type_name()),
                            iterable.span,
                        );
                    }
                };
                for item in items {
                    self.tick(*head)?;
                    self.set(var, item);
                    if self.block(body)? == Flow::Break {
                        break;
                    }
                }
            }
            Node::Break { .. } => return Ok(Flow::Break),
            Node::Continue { .. } => return Ok(Flow::Continue),
        }
        Ok(Flow::Normal)
    }

    /// Sets a variable (without allocating its name again when it exists).
    fn set(&mut self, name: &str, value: Value) {
        if let Some(slot) = self.vars.get_mut(name) {
            *slot = value;
        } else {
            self.vars.insert(name.to_owned(), value);
        }
    }

    fn var(&self, name: &str, span: Span) -> Result<&Value> {
        match self.vars.get(name) {
            Some(value) => Ok(value),
            None => fail(ExpandErrorKind::UndefinedVariable(name.to_owned()), span),
        }
    }

    /// Evaluates a formula. Each kind of node has its own function, so that this one's stack
    /// frame (paid once per level of the formula's tree) stays small.
    fn eval(&mut self, expr: &Expr) -> Result<Value> {
        match &expr.kind {
            ExprKind::Null => Ok(Value::Null),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Int(n) => Ok(Value::Int(*n)),
            ExprKind::Str(s) => self.literal(s, expr.span),
            ExprKind::Var(name) => self.read_var(name, expr.span),
            ExprKind::Index { base, index, brace } => self.index(base, index, *brace),
            ExprKind::Length { base, .. } => self.length(base),
            ExprKind::Unary { op, operand, .. } => self.unary(expr, *op, operand),
            ExprKind::Binary { op, lhs, rhs, .. } => self.binary_node(expr, *op, lhs, rhs),
            ExprKind::Assign { name, value, .. } => self.assign(name, value, expr.span),
            ExprKind::Step {
                name,
                name_span,
                increment,
                prefix,
                op_span,
            } => self.step(name, *name_span, *op_span, *increment, *prefix),
        }
    }

    #[inline(never)]
    fn literal(&mut self, s: &str, span: Span) -> Result<Value> {
        self.spend(s.len(), span)?;
        Ok(Value::Str(s.to_owned()))
    }

    #[inline(never)]
    fn read_var(&mut self, name: &str, span: Span) -> Result<Value> {
        let value = self.var(name, span)?.clone();
        self.spend(weight(&value), span)?;
        Ok(value)
    }

    #[inline(never)]
    fn assign(&mut self, name: &str, value: &Expr, span: Span) -> Result<Value> {
        let v = self.eval(value)?;
        let copy = self.copy(&v, span)?;
        self.set(name, copy);
        Ok(v)
    }

    #[inline(never)]
    fn index(&mut self, base: &Expr, index: &Expr, brace: bool) -> Result<Value> {
        let key = self.eval(index)?;
        let ExprKind::Var(name) = &base.kind else {
            return fail(ExpandErrorKind::NotIndexable("this formula"), base.span);
        };
        let container = self.var(name, base.span)?;
        match container {
            Value::Object(_) => {}
            Value::Array(_) if !brace => {}
            other if brace => {
                return fail(ExpandErrorKind::NotAnObject(article(other)), base.span);
            }
            other => {
                return fail(ExpandErrorKind::NotIndexable(article(other)), base.span);
            }
        }
        let element = container.element(&key).cloned().unwrap_or(Value::Null);
        self.spend(weight(&element), base.span)?;
        Ok(element)
    }

    #[inline(never)]
    fn length(&mut self, base: &Expr) -> Result<Value> {
        let value = self.eval(base)?;
        let n = match &value {
            Value::Array(items) => items.len(),
            Value::Object(entries) => entries.len(),
            Value::Str(s) => {
                self.spend(s.len(), base.span)?;
                s.chars().count()
            }
            other => return fail(ExpandErrorKind::NoLength(article(other)), base.span),
        };
        Ok(Value::Int(i64::try_from(n).unwrap_or(i64::MAX)))
    }

    #[inline(never)]
    fn unary(&mut self, expr: &Expr, op: UnaryOp, operand: &Expr) -> Result<Value> {
        let value = self.eval(operand)?;
        match op {
            UnaryOp::Not => Ok(Value::Bool(!value.truthy())),
            UnaryOp::Neg => {
                let n = number(&value, "-", "its operand", operand.span)?;
                match n.checked_neg() {
                    Some(n) => Ok(Value::Int(n)),
                    None => fail(ExpandErrorKind::Overflow, expr.span),
                }
            }
        }
    }

    #[inline(never)]
    fn binary_node(&mut self, expr: &Expr, op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Result<Value> {
        match op {
            BinaryOp::And => {
                let l = self.eval(lhs)?.truthy();
                Ok(Value::Bool(l && self.eval(rhs)?.truthy()))
            }
            BinaryOp::Or => {
                let l = self.eval(lhs)?.truthy();
                Ok(Value::Bool(l || self.eval(rhs)?.truthy()))
            }
            _ => {
                let l = self.eval(lhs)?;
                let r = self.eval(rhs)?;
                // Joining or comparing strings reads them (and a joined string is built).
                self.spend(text_weight(&l).saturating_add(text_weight(&r)), expr.span)?;
                self.binary(op, &l, &r, expr, lhs.span, rhs.span)
            }
        }
    }

    #[inline(never)]
    fn step(
        &mut self,
        name: &str,
        name_span: Span,
        op_span: Span,
        increment: bool,
        prefix: bool,
    ) -> Result<Value> {
        let current = self.var(name, name_span)?;
        let sym = if increment { "++" } else { "--" };
        let old = number(current, sym, "the variable", name_span)?;
        let new = if increment {
            old.checked_add(1)
        } else {
            old.checked_sub(1)
        };
        let Some(new) = new else {
            return fail(ExpandErrorKind::Overflow, op_span);
        };
        self.set(name, Value::Int(new));
        Ok(Value::Int(if prefix { new } else { old }))
    }

    #[inline(never)]
    fn binary(
        &self,
        op: BinaryOp,
        l: &Value,
        r: &Value,
        expr: &Expr,
        lspan: Span,
        rspan: Span,
    ) -> Result<Value> {
        let sym = op.symbol();
        let overflow = || ExpandError {
            kind: ExpandErrorKind::Overflow,
            span: expr.span,
        };
        if let BinaryOp::Add = op
            && let Value::Str(s) = l
        {
            let right = r.to_text();
            if s.len() + right.len() > self.limits.max_output {
                return fail(
                    ExpandErrorKind::OutputLimit(self.limits.max_output),
                    expr.span,
                );
            }
            return Ok(Value::Str(format!("{s}{right}")));
        }
        let comparison = match op {
            BinaryOp::Eq => Some(compare(l, r) == Some(Ordering::Equal)),
            BinaryOp::Ne => Some(compare(l, r) != Some(Ordering::Equal)),
            BinaryOp::Lt => Some(compare(l, r) == Some(Ordering::Less)),
            BinaryOp::Gt => Some(compare(l, r) == Some(Ordering::Greater)),
            BinaryOp::Le => Some(matches!(
                compare(l, r),
                Some(Ordering::Less | Ordering::Equal)
            )),
            BinaryOp::Ge => Some(matches!(
                compare(l, r),
                Some(Ordering::Greater | Ordering::Equal)
            )),
            _ => None,
        };
        if let Some(result) = comparison {
            return Ok(Value::Bool(result));
        }
        let a = number(l, sym, "the left side", lspan)?;
        let b = number(r, sym, "the right side", rspan)?;
        let result = match op {
            BinaryOp::Add => a.checked_add(b).ok_or_else(overflow)?,
            BinaryOp::Sub => a.checked_sub(b).ok_or_else(overflow)?,
            BinaryOp::Mul => a.checked_mul(b).ok_or_else(overflow)?,
            BinaryOp::Div | BinaryOp::Rem => {
                if b == 0 {
                    return fail(ExpandErrorKind::DivisionByZero, expr.span);
                }
                if op == BinaryOp::Div {
                    a.checked_div(b).ok_or_else(overflow)?
                } else {
                    a.checked_rem(b).ok_or_else(overflow)?
                }
            }
            BinaryOp::BitAnd => a & b,
            BinaryOp::BitOr => a | b,
            BinaryOp::Shl | BinaryOp::Shr => {
                let Ok(count @ 0..=63) = u32::try_from(b) else {
                    return fail(ExpandErrorKind::ShiftCount(b), rspan);
                };
                if op == BinaryOp::Shl {
                    a.wrapping_shl(count)
                } else {
                    a >> count
                }
            }
            BinaryOp::And
            | BinaryOp::Or
            | BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Gt
            | BinaryOp::Le
            | BinaryOp::Ge => unreachable!("handled above"),
        };
        Ok(Value::Int(result))
    }
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
            Value::Null | Value::Bool(_) | Value::Int(_) => {}
        }
    }
    total
}

/// What a binary operator may read or build of an operand: a string's bytes, or the text of an
/// array or object (compared or joined as JSON).
fn text_weight(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(_) | Value::Int(_) => 0,
        other => weight(other),
    }
}

fn number(value: &Value, op: &'static str, side: &'static str, span: Span) -> Result<i64> {
    match value.to_int() {
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

fn describe(value: &Value) -> String {
    match value {
        Value::Str(s) => {
            let mut shown: String = s.chars().take(40).collect();
            if shown.len() < s.len() {
                shown.push('…');
            }
            format!("the string '{shown}'")
        }
        other => article(other).to_owned(),
    }
}

fn article(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Int(_) => "a number",
        Value::Str(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The order of `l` and `r` once `r` is aligned to `l`'s type; `None` when they do not
/// compare (then only `!=` holds).
fn compare(l: &Value, r: &Value) -> Option<Ordering> {
    match l {
        Value::Int(a) => r.to_int().map(|b| a.cmp(&b)),
        Value::Str(a) => match r {
            Value::Array(_) | Value::Object(_) => None,
            other => Some(a.as_str().cmp(other.to_text().as_str())),
        },
        Value::Bool(a) => Some(a.cmp(&r.truthy())),
        Value::Null => matches!(r, Value::Null).then_some(Ordering::Equal),
        Value::Array(_) | Value::Object(_) => (l == r).then_some(Ordering::Equal),
    }
}
