//! The template's tree: statements found in the text, formulas parsed, blocks matched, each
//! refused where the engine refuses to load it.

use std::ops::Range;

use crate::{ParseError, ParseErrorKind, Span};

/// How deep blocks may nest. Deeper input is refused, so that nothing recurses without bound
/// (the engine itself refuses an `if` directly inside an `if` and a loop directly inside a
/// loop, so real templates nest a few levels at most).
pub const MAX_NESTING: usize = 100;

/// How many operators (unary, binary, assignments, increments, element reads) one formula may
/// hold. A formula's tree is at most this deep, which bounds the parser's and the expander's
/// recursion.
pub const MAX_OPERATORS: usize = 500;

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// The `{{#!NAME }}` header, when the template starts with one.
    pub header: Option<Header>,
    /// The top-level nodes, in order.
    pub body: Vec<Node>,
}

/// The engine header `{{#!k2hr3template }}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The whole statement (the line breaks after it, which vanish with it, excluded).
    pub span: Span,
    /// The engine's name (always `k2hr3template` in a parsed template: the parser refuses
    /// other names).
    pub name: String,
    pub name_span: Span,
}

/// A piece of the template: text or a statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// Static text, escapes already resolved (`{{{` is `{{`, `}}}` is `}}`). `span` is the
    /// source range it comes from.
    Text { span: Span, text: String },
    /// `{{# … }}`.
    Comment { span: Span },
    /// `{{= formula }}`.
    Print { span: Span, expr: Expr },
    /// `{{ formula ; formula … }}`: evaluated for their effect, print nothing.
    Eval { span: Span, exprs: Vec<Expr> },
    /// `{{ if }}` … `{{ elif }}` … `{{ else }}` … `{{ endif }}`.
    If {
        /// From the `if` statement's start to the `endif` statement's end.
        span: Span,
        /// The `if` branch and each `elif`.
        branches: Vec<Branch>,
        /// The `else` statement's span and its body.
        otherwise: Option<(Span, Vec<Node>)>,
        /// The `endif` statement.
        end: Span,
        /// Closed by a second `endif` right after the first (inside a loop), which the engine
        /// accepts: when the `if` condition holds, its branch runs (or, when that branch is
        /// empty, the `elif`s and `else` as usual); when it does not hold, the rest of the
        /// enclosing block runs first (the `elif`s and `else` never do), then the expansion
        /// goes on after the `if` (so the rest runs twice).
        doubled: bool,
    },
    /// `{{ while cond }}` … `{{ done }}`.
    While {
        span: Span,
        head: Span,
        cond: Expr,
        body: Vec<Node>,
        end: Span,
    },
    /// `{{ do }}` … `{{ while cond }}`.
    DoWhile {
        span: Span,
        head: Span,
        body: Vec<Node>,
        /// The closing `while` statement.
        end: Span,
        cond: Expr,
    },
    /// `{{ for init ; cond ; step }}` … `{{ done }}`; each part may be left out (a missing
    /// condition holds).
    For {
        span: Span,
        head: Span,
        init: Option<Expr>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Vec<Node>,
        end: Span,
    },
    /// `{{ foreach %var% in %list% }}` … `{{ done }}`.
    Foreach {
        span: Span,
        head: Span,
        var: String,
        var_span: Span,
        iterable: Expr,
        body: Vec<Node>,
        end: Span,
    },
    /// `{{ break }}`.
    Break { span: Span },
    /// `{{ continue }}`.
    Continue { span: Span },
}

/// A condition and the nodes it guards.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    /// The `if` or `elif` statement.
    pub head: Span,
    pub cond: Expr,
    pub body: Vec<Node>,
}

/// A formula.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub span: Span,
    pub kind: ExprKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Null,
    Bool(bool),
    /// A number literal (integers only in the source: decimal, `0x`/`x`, `0o`, `0b`).
    Num(f64),
    Str(String),
    /// `%name%`.
    Var(String),
    /// `%name%[index]` (`brace` false) or `%name%{key}` (`brace` true).
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
        brace: bool,
    },
    /// `%name%.length`, `.size` or `.count`.
    Length {
        base: Box<Expr>,
        name_span: Span,
    },
    /// `!operand`.
    Not {
        op_span: Span,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `target = value`; the target is a variable or an element (anything else is an error
    /// when the formula runs).
    Assign {
        target: Box<Expr>,
        op_span: Span,
        value: Box<Expr>,
    },
    /// `++operand`, `operand++`, `--operand`, `operand--`. On a variable or an element it
    /// stores the new value; on anything else it only computes it.
    Step {
        operand: Box<Expr>,
        op_span: Span,
        increment: bool,
        prefix: bool,
    },
}

impl Expr {
    /// The variable a formula names when it is `%name%`, `%name%[…]` or `%name%{…}`.
    pub fn variable(&self) -> Option<(&str, Span)> {
        match &self.kind {
            ExprKind::Var(name) => Some((name, self.span)),
            ExprKind::Index { base, .. } => base.variable(),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    And,
    Or,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }

    /// Whether the operator compares or combines conditions (its result is a boolean).
    pub fn is_condition(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Gt
                | BinaryOp::Le
                | BinaryOp::Ge
                | BinaryOp::And
                | BinaryOp::Or
        )
    }
}

/// The engine name the parser accepts in a header.
pub const ENGINE_NAME: &str = "k2hr3template";

/// Parses a template, refusing what the engine refuses to load.
pub fn parse(source: &str) -> Result<Template, ParseError> {
    let (header, start) = header(source)?;
    let segments = scan(source, start);
    if segments.is_empty() {
        return Err(ParseError::new(
            ParseErrorKind::Empty,
            Span::new(0, source.len()),
        ));
    }
    let mut builder = Builder::new();
    for segment in segments {
        builder.previous_closer = builder.closer.take();
        builder.previous_operand_end = std::mem::take(&mut builder.operand_end);
        let swallow = builder.swallow.take();
        match segment {
            // Text that is exactly an operator, right after a statement whose formula has
            // operators, vanishes in the engine.
            Segment::Text { text, .. }
                if swallow.is_some_and(|ops| ops.contains(&text.as_str())) => {}
            Segment::Text { span, text } => builder.push(Node::Text { span, text }),
            Segment::Statement { whole, body } => statement(source, whole, body, &mut builder)?,
        }
    }
    let body = builder.finish()?;
    Ok(Template { header, body })
}

/// The value of a number literal's digits (`0x`, `x`, `0o`, `0b` prefixes; otherwise
/// decimal, a leading `0` included), or why it is not one.
pub(crate) fn parse_number_literal(text: &str) -> Option<f64> {
    let (digits, radix) = if let Some(rest) = text.strip_prefix("0x") {
        (rest, 16)
    } else if let Some(rest) = text.strip_prefix('x') {
        (rest, 16)
    } else if let Some(rest) = text.strip_prefix("0o") {
        (rest, 8)
    } else if let Some(rest) = text.strip_prefix("0b") {
        (rest, 2)
    } else {
        (text, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    Some(crate::value::digits_value(digits, radix))
}

// ---------------------------------------------------------------------------------------------
// The header.

/// The header, and where the template's body starts: `{{#!NAME}}` at byte 0, spaces and tabs
/// before `}}` allowed, the line breaks after it dropped with it.
fn header(source: &str) -> Result<(Option<Header>, usize), ParseError> {
    if !source.starts_with("{{#!") {
        return Ok((None, 0));
    }
    let line_end = source
        .find(['\n', '\r', '\u{2028}', '\u{2029}'])
        .unwrap_or(source.len());
    let Some(close) = source[..line_end].find("}}") else {
        let name = &source[4..line_end];
        return Err(ParseError::new(
            ParseErrorKind::UnknownEngine(name.to_owned()),
            Span::new(0, line_end),
        ));
    };
    let raw = &source[4..close];
    let name = raw.trim_end_matches([' ', '\t']);
    let name_span = Span::new(4, 4 + name.len());
    if name != ENGINE_NAME {
        return Err(ParseError::new(
            ParseErrorKind::UnknownEngine(name.to_owned()),
            if name.is_empty() {
                Span::new(0, close + 2)
            } else {
                name_span
            },
        ));
    }
    let span = Span::new(0, close + 2);
    let rest = &source[close + 2..];
    let breaks = rest.len() - rest.trim_start_matches(['\r', '\n']).len();
    Ok((
        Some(Header {
            span,
            name: name.to_owned(),
            name_span,
        }),
        close + 2 + breaks,
    ))
}

// ---------------------------------------------------------------------------------------------
// Finding statements in the text.

#[derive(Debug)]
enum Segment {
    Text {
        span: Span,
        text: String,
    },
    /// `whole` from `{{` to `}}` inclusive, `body` between them.
    Statement {
        whole: Span,
        body: Range<usize>,
    },
}

/// Splits the body into text and statements. `{{{` is an escaped `{{` and `}}}` an escaped
/// `}}`, in text and inside statements alike; a statement ends at the first `}}` that is not
/// an escape, or at the end of the template. As the engine does: an empty statement `{{ }}`
/// vanishes, and when the template ends with an escape, its last piece (the text after the
/// last statement, or a statement left open) is lost.
fn scan(source: &str, start: usize) -> Vec<Segment> {
    let bytes = source.as_bytes();
    let ends_with_escape = bytes.len() >= start + 3
        && (bytes.ends_with(b"{{{") || bytes.ends_with(b"}}}"))
        && ends_with_escape_token(&bytes[start..]);
    let mut segments = Vec::new();
    let mut text = String::new();
    let mut text_start = start;
    let mut piece_start = start;
    let mut i = start;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"{{{") || rest.starts_with(b"}}}") {
            text.push_str(&source[piece_start..i]);
            text.push_str(if rest[0] == b'{' { "{{" } else { "}}" });
            i += 3;
            piece_start = i;
            continue;
        }
        if !rest.starts_with(b"{{") {
            i += 1;
            continue;
        }
        text.push_str(&source[piece_start..i]);
        if !text.is_empty() {
            segments.push(Segment::Text {
                span: Span::new(text_start, i),
                text: std::mem::take(&mut text),
            });
        }
        let body_start = i + 2;
        // A statement that no `}}` closes runs to the end of the template, unless the template
        // ends with an escape (then it is lost, as the text after the last statement would be).
        let (close, end) = match statement_end(bytes, body_start) {
            Some(close) => (close, close + 2),
            None if ends_with_escape => return segments,
            None => (bytes.len(), bytes.len()),
        };
        let body = body_start..close;
        if !source[body.clone()].trim().is_empty() {
            segments.push(Segment::Statement {
                whole: Span::new(i, end),
                body,
            });
        }
        i = end;
        text_start = i;
        piece_start = i;
    }
    text.push_str(&source[piece_start..]);
    if !text.is_empty() && !ends_with_escape {
        segments.push(Segment::Text {
            span: Span::new(text_start, source.len()),
            text,
        });
    }
    segments
}

/// Where the statement whose body starts at `from` ends: the first `}}` that is not an escape
/// `}}}`.
fn statement_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut j = from;
    while j + 1 < bytes.len() {
        if bytes[j..].starts_with(b"}}}") {
            j += 3;
        } else if bytes[j..].starts_with(b"}}") {
            return Some(j);
        } else {
            j += 1;
        }
    }
    None
}

/// Whether the text's last token (escapes read from the left) is an escape `{{{` or `}}}`.
fn ends_with_escape_token(bytes: &[u8]) -> bool {
    let mut j = 0;
    let mut last_escape = false;
    while j < bytes.len() {
        if bytes[j..].starts_with(b"{{{") || bytes[j..].starts_with(b"}}}") {
            j += 3;
            last_escape = true;
        } else {
            j += 1;
            last_escape = false;
        }
    }
    last_escape
}

// ---------------------------------------------------------------------------------------------
// Statements and blocks.

fn statement(
    source: &str,
    whole: Span,
    body: Range<usize>,
    builder: &mut Builder,
) -> Result<(), ParseError> {
    let text = &source[body.clone()];
    let lead = text.len() - text.trim_start().len();
    let first = body.start + lead;
    match source.as_bytes()[first] {
        b'#' => {
            builder.push(Node::Comment { span: whole });
            return Ok(());
        }
        b'=' => {
            let mut p = Parser::new(source, first + 1..body.end);
            let expr = p.formula_required("a formula to print after `=`")?;
            p.expect_end()?;
            builder.swallow = swallowed_after(&expr);
            builder.push(Node::Print { span: whole, expr });
            return Ok(());
        }
        _ => {}
    }
    let word_len = source[first..body.end]
        .bytes()
        .take_while(u8::is_ascii_alphabetic)
        .count();
    let word = source[first..first + word_len].to_ascii_lowercase();
    let after = source[first + word_len..body.end].chars().next();
    let keyword = is_control_keyword(&word) && after.is_none_or(char::is_whitespace);
    if !keyword {
        let mut p = Parser::new(source, body);
        let mut exprs = vec![p.formula_required("a formula")?];
        while p.eat_semicolon()? {
            exprs.push(p.formula_required("a formula after `;`")?);
        }
        p.expect_end()?;
        builder.swallow = exprs.last().and_then(swallowed_after);
        return builder.push_eval(source, whole, exprs);
    }
    let keyword_span = Span::new(first, first + word_len);
    let mut p = Parser::new(source, first + word_len..body.end);
    match word.as_str() {
        "if" | "elif" | "while" => {
            let cond = p.formula_required("a condition")?;
            p.expect_end()?;
            builder.swallow = swallowed_after(&cond);
            match word.as_str() {
                "if" => builder.open_if(whole, cond),
                "elif" => builder.elif(whole, cond),
                _ => builder.while_statement(whole, cond),
            }
        }
        "else" => {
            p.expect_end()?;
            builder.otherwise(whole)
        }
        "endif" => {
            p.expect_end()?;
            builder.close_if(whole)
        }
        "do" => {
            p.expect_end()?;
            builder.open_loop(Frame::Do { head: whole })
        }
        "done" => {
            p.expect_end()?;
            builder.done(whole)
        }
        "for" => for_statement(&mut p, whole, builder),
        "foreach" => foreach(&mut p, whole, builder),
        _ => {
            // `break` and `continue`: what follows the word is ignored, as the engine does,
            // unless it holds braces.
            let junk = &source[first + word_len..body.end];
            if junk.contains(['{', '}']) {
                return Err(ParseError::new(
                    ParseErrorKind::Unexpected(format!("`{}`", junk.trim())),
                    Span::new(first + word_len, body.end),
                ));
            }
            builder.push(if word == "break" {
                Node::Break { span: whole }
            } else {
                Node::Continue { span: whole }
            });
            let _ = keyword_span;
            Ok(())
        }
    }
}

/// `for init ; cond ; step`: parts beyond the third are read and dropped, as the engine does.
fn for_statement(p: &mut Parser<'_>, whole: Span, builder: &mut Builder) -> Result<(), ParseError> {
    let mut parts = Vec::new();
    loop {
        parts.push(p.formula_optional()?);
        if !p.eat_semicolon()? {
            break;
        }
    }
    p.expect_end()?;
    if parts.iter().all(Option::is_none) {
        return Err(ParseError::new(
            ParseErrorKind::Expected("an initialisation, a condition or a step in `for`"),
            whole,
        ));
    }
    let mut parts = parts.into_iter();
    let init = parts.next().flatten();
    let cond = parts.next().flatten();
    let step = parts.next().flatten();
    // After a `for` without a condition, every operator text vanishes; otherwise its last
    // part decides.
    builder.swallow = match (&init, &cond, &step) {
        (_, None, _) => Some(OPERATORS_AFTER_ARITHMETIC),
        (_, _, Some(last)) | (_, Some(last), None) => swallowed_after(last),
    };
    builder.open_loop(Frame::For {
        head: whole,
        init,
        cond,
        step,
    })
}

fn foreach(p: &mut Parser<'_>, whole: Span, builder: &mut Builder) -> Result<(), ParseError> {
    let tok = p.next()?;
    let TokenKind::Var(var) = tok.kind else {
        return Err(ParseError::new(
            ParseErrorKind::Expected("a variable after `foreach`"),
            tok.span,
        ));
    };
    let in_tok = p.next()?;
    if !matches!(&in_tok.kind, TokenKind::Word(w) if w.eq_ignore_ascii_case("in")) {
        return Err(ParseError::new(
            ParseErrorKind::Expected("`in` after the variable of `foreach`"),
            in_tok.span,
        ));
    }
    let iterable = p.formula_required("a variable after `in`")?;
    p.expect_end()?;
    if !matches!(iterable.kind, ExprKind::Var(_) | ExprKind::Index { .. }) {
        return Err(ParseError::new(
            ParseErrorKind::Expected("a variable after `in`: `foreach` walks a variable"),
            iterable.span,
        ));
    }
    builder.open_loop(Frame::Foreach {
        head: whole,
        var,
        var_span: tok.span,
        iterable,
    })
}

/// The texts that vanish right after a formula with an arithmetic, bitwise or assignment
/// operator, `!`, or a prefix `++`/`--`.
const OPERATORS_AFTER_ARITHMETIC: &[&str] = &[
    "+", "-", "*", "/", "%", "&", "|", "<", ">", "<=", ">=", "==", "!=", "&&", "||",
];

/// The texts that vanish right after a formula whose operators all compare or combine
/// conditions.
const OPERATORS_AFTER_CONDITION: &[&str] =
    &["&", "|", "<", ">", "<=", ">=", "==", "!=", "&&", "||"];

/// Which texts vanish when they follow, alone, a statement whose (last) formula is `expr`: as
/// the engine does, a text that is exactly an operator is taken into the formula before it
/// and dropped, when that formula has operators (those inside an element's brackets and a
/// postfix `++`/`--` do not count).
fn swallowed_after(expr: &Expr) -> Option<&'static [&'static str]> {
    match operator_class(expr) {
        0 => None,
        1 => Some(OPERATORS_AFTER_CONDITION),
        _ => Some(OPERATORS_AFTER_ARITHMETIC),
    }
}

/// 2 when `expr` has an arithmetic, bitwise or assignment operator, `!` or a prefix step; 1
/// when its operators all compare or combine; 0 without operators.
fn operator_class(expr: &Expr) -> u8 {
    let mut class = 0;
    let mut pending = vec![expr];
    while let Some(e) = pending.pop() {
        match &e.kind {
            ExprKind::Binary { op, lhs, rhs, .. } => {
                class = class.max(if op.is_condition() { 1 } else { 2 });
                pending.push(lhs);
                pending.push(rhs);
            }
            ExprKind::Assign { .. }
            | ExprKind::Not { .. }
            | ExprKind::Step { prefix: true, .. } => {
                return 2;
            }
            ExprKind::Step { operand, .. } => pending.push(operand),
            _ => {}
        }
    }
    class
}

/// Whether a formula ends as an operand a following `++` or `--` would take: a number, a
/// variable, an element, a `.length`, an increment or a calculation.
fn ends_as_operand(expr: &Expr) -> bool {
    match kind_of(expr) {
        Kind::Num
        | Kind::StrNum
        | Kind::Var
        | Kind::Len
        | Kind::Post
        | Kind::PreVar
        | Kind::PreLit => true,
        Kind::Binary(op) => !op.is_condition(),
        _ => false,
    }
}

fn is_control_keyword(word: &str) -> bool {
    matches!(
        word,
        "if" | "elif"
            | "else"
            | "endif"
            | "while"
            | "do"
            | "done"
            | "for"
            | "foreach"
            | "break"
            | "continue"
    )
}

#[derive(Debug)]
enum Frame {
    If {
        head: Span,
        branches: Vec<Branch>,
        /// The open branch: its statement and condition (body in the frame's nodes).
        current: (Span, Expr),
        /// Set at `else`.
        otherwise: Option<Span>,
    },
    While {
        head: Span,
        cond: Expr,
    },
    Do {
        head: Span,
    },
    For {
        head: Span,
        init: Option<Expr>,
        cond: Option<Expr>,
        step: Option<Expr>,
    },
    Foreach {
        head: Span,
        var: String,
        var_span: Span,
        iterable: Expr,
    },
}

impl Frame {
    fn head(&self) -> Span {
        match self {
            Frame::If { head, .. }
            | Frame::While { head, .. }
            | Frame::Do { head }
            | Frame::For { head, .. }
            | Frame::Foreach { head, .. } => *head,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Frame::If { .. } => "if",
            Frame::While { .. } => "while",
            Frame::Do { .. } => "do",
            Frame::For { .. } => "for",
            Frame::Foreach { .. } => "foreach",
        }
    }
}

#[derive(Debug)]
struct Builder {
    /// Open blocks with the nodes gathered so far in each; `stack[0]` is the top level.
    stack: Vec<(Option<Frame>, Vec<Node>)>,
    /// `done` or `endif` when the statement being read closed a block that way.
    closer: Option<&'static str>,
    /// The same for the piece before it (text, a comment or any statement in between clears
    /// it; an empty `{{ }}` vanishes before this and does not).
    previous_closer: Option<&'static str>,
    /// The operators a text right after the statement being read vanishes as, when it is
    /// exactly one of them ([`swallowed_after`]).
    swallow: Option<&'static [&'static str]>,
    /// Whether the statement being read is a formula statement ending as an operand (see
    /// [`Builder::push_eval`]), and whether the piece before it was one.
    operand_end: bool,
    previous_operand_end: bool,
    /// The depths of the stack (its length) at which a `do … while` ended inside a block that
    /// is still open (entries deeper than the stack are stale).
    closed_do: Vec<usize>,
}

impl Builder {
    fn new() -> Self {
        Builder {
            stack: vec![(None, Vec::new())],
            closer: None,
            previous_closer: None,
            swallow: None,
            operand_end: false,
            previous_operand_end: false,
            closed_do: Vec::new(),
        }
    }

    fn push(&mut self, node: Node) {
        if let Some(top) = self.stack.last_mut() {
            top.1.push(node);
        }
    }

    /// Pushes a formula statement. Inside a block, the engine refuses one that starts with
    /// `++` or `--` right after another formula statement (nothing but an empty `{{ }}`
    /// between them) whose last formula ends as an operand `++` could follow: a number, a
    /// variable, an element, a `.length`, an increment or a calculation (not a string, a
    /// boolean, `null`, a negation, a condition or an assignment).
    /// The same holds for a formula after `;` in one statement.
    fn push_eval(&mut self, source: &str, whole: Span, exprs: Vec<Expr>) -> Result<(), ParseError> {
        let starts_with_step = |e: &Expr| {
            matches!(first_operand(e).kind, ExprKind::Step { prefix: true, .. })
                || source[e.span.range()].starts_with(['+', '-'])
        };
        if self.stack.len() > 1 {
            let mut after_operand = self.previous_operand_end;
            for (i, e) in exprs.iter().enumerate() {
                if after_operand && starts_with_step(e) {
                    return Err(ParseError::new(
                        ParseErrorKind::Unexpected(
                            "`++` or `--` starting a formula right after a formula that ends \
                             with a number, a variable or a calculation (the engine reads \
                             them as one)"
                                .to_owned(),
                        ),
                        if i == 0 { whole } else { e.span },
                    ));
                }
                after_operand = ends_as_operand(e);
            }
        }
        self.operand_end = exprs.last().is_some_and(ends_as_operand);
        self.push(Node::Eval { span: whole, exprs });
        Ok(())
    }

    fn top_frame(&self) -> Option<&Frame> {
        self.stack.last().and_then(|(frame, _)| frame.as_ref())
    }

    /// Opens a block: the engine refuses an `if` right inside an `if`, a `while`, `for` or
    /// `foreach` right inside one of those, and a `do` right inside a `do` (with another kind
    /// of block between them, they are accepted).
    fn open(&mut self, frame: Frame) -> Result<(), ParseError> {
        // A block that closed took its ended `do`s with it.
        self.closed_do.retain(|&depth| depth <= self.stack.len());
        let family = |f: &Frame| match f {
            Frame::If { .. } => 0,
            Frame::Do { .. } => 1,
            _ => 2,
        };
        if let Some(parent) = self.top_frame()
            && family(parent) == family(&frame)
        {
            return Err(ParseError::new(
                ParseErrorKind::DirectlyNested {
                    inner: frame.name(),
                    outer: (parent.name(), parent.head()),
                },
                frame.head(),
            ));
        }
        if self.stack.len() > MAX_NESTING {
            return Err(ParseError::new(ParseErrorKind::TooDeep, frame.head()));
        }
        self.stack.push((Some(frame), Vec::new()));
        Ok(())
    }

    fn open_if(&mut self, head: Span, cond: Expr) -> Result<(), ParseError> {
        self.open(Frame::If {
            head,
            branches: Vec::new(),
            current: (head, cond),
            otherwise: None,
        })
    }

    fn open_loop(&mut self, frame: Frame) -> Result<(), ParseError> {
        self.open(frame)
    }

    fn mismatch(&self, span: Span, closer: &'static str) -> ParseError {
        let open = self.top_frame().map(|f| (f.name(), f.head()));
        ParseError::new(ParseErrorKind::Mismatched { closer, open }, span)
    }

    fn elif(&mut self, span: Span, cond: Expr) -> Result<(), ParseError> {
        let Some((
            Some(Frame::If {
                branches,
                current,
                otherwise: None,
                ..
            }),
            nodes,
        )) = self.stack.last_mut()
        else {
            return Err(self.mismatch(span, "elif"));
        };
        let (head, old) = std::mem::replace(current, (span, cond));
        branches.push(Branch {
            head,
            cond: old,
            body: std::mem::take(nodes),
        });
        Ok(())
    }

    fn otherwise(&mut self, span: Span) -> Result<(), ParseError> {
        let Some((
            Some(Frame::If {
                branches,
                current,
                otherwise: otherwise @ None,
                ..
            }),
            nodes,
        )) = self.stack.last_mut()
        else {
            return Err(self.mismatch(span, "else"));
        };
        branches.push(Branch {
            head: current.0,
            cond: current.1.clone(),
            body: std::mem::take(nodes),
        });
        *otherwise = Some(span);
        Ok(())
    }

    fn close_if(&mut self, end: Span) -> Result<(), ParseError> {
        if !matches!(self.top_frame(), Some(Frame::If { .. })) {
            // A second `endif` right after the one closing an `if` inside a loop: the engine
            // accepts it, and runs that `if` its own way.
            if self.previous_closer == Some("endif")
                && self.top_frame().is_some()
                && let Some((_, nodes)) = self.stack.last_mut()
                && let Some(Node::If {
                    doubled: doubled @ false,
                    span,
                    ..
                }) = nodes.last_mut()
            {
                *doubled = true;
                *span = span.to(end);
                return Ok(());
            }
            return Err(self.mismatch(end, "endif"));
        }
        let Some((
            Some(Frame::If {
                head,
                mut branches,
                current,
                otherwise,
            }),
            nodes,
        )) = self.stack.pop()
        else {
            return Err(self.mismatch(end, "endif"));
        };
        let otherwise = if let Some(else_span) = otherwise {
            Some((else_span, nodes))
        } else {
            branches.push(Branch {
                head: current.0,
                cond: current.1,
                body: nodes,
            });
            None
        };
        self.push(Node::If {
            span: head.to(end),
            branches,
            otherwise,
            end,
            doubled: false,
        });
        self.closer = Some("endif");
        Ok(())
    }

    /// `while`: closes an open `do`, else opens a loop.
    fn while_statement(&mut self, span: Span, cond: Expr) -> Result<(), ParseError> {
        if !matches!(self.top_frame(), Some(Frame::Do { .. })) {
            // Inside a block where a `do … while` has ended, the engine takes any later
            // `while` in that block as closing that `do` again (a `while … done` loop there
            // does not load; a lone second `while` loops in ways not modelled).
            self.closed_do.retain(|&depth| depth <= self.stack.len());
            if !self.closed_do.is_empty() {
                return Err(ParseError::new(
                    ParseErrorKind::Unexpected(
                        "`while` in a block after a `do … while` ended in it: the engine takes \
                         it as closing that `do` again"
                            .to_owned(),
                    ),
                    span,
                ));
            }
            return self.open_loop(Frame::While { head: span, cond });
        }
        let Some((Some(Frame::Do { head }), body)) = self.stack.pop() else {
            return Err(self.mismatch(span, "while"));
        };
        self.closed_do.retain(|&depth| depth <= self.stack.len());
        if self.stack.len() > 1 {
            self.closed_do.push(self.stack.len());
        }
        self.push(Node::DoWhile {
            span: head.to(span),
            head,
            body,
            end: span,
            cond,
        });
        Ok(())
    }

    fn done(&mut self, end: Span) -> Result<(), ParseError> {
        if !matches!(
            self.top_frame(),
            Some(Frame::While { .. } | Frame::For { .. } | Frame::Foreach { .. })
        ) {
            // A second `done` right after the one closing a loop inside an `if` or a `do`: the
            // engine accepts it, and it does nothing.
            if self.previous_closer == Some("done")
                && matches!(self.top_frame(), Some(Frame::If { .. } | Frame::Do { .. }))
            {
                return Ok(());
            }
            return Err(self.mismatch(end, "done"));
        }
        let Some((Some(frame), body)) = self.stack.pop() else {
            return Err(self.mismatch(end, "done"));
        };
        let node = match frame {
            Frame::While { head, cond } => Node::While {
                span: head.to(end),
                head,
                cond,
                body,
                end,
            },
            Frame::For {
                head,
                init,
                cond,
                step,
            } => Node::For {
                span: head.to(end),
                head,
                init,
                cond,
                step,
                body,
                end,
            },
            Frame::Foreach {
                head,
                var,
                var_span,
                iterable,
            } => Node::Foreach {
                span: head.to(end),
                head,
                var,
                var_span,
                iterable,
                body,
                end,
            },
            Frame::If { .. } | Frame::Do { .. } => return Err(self.mismatch(end, "done")),
        };
        self.push(node);
        self.closer = Some("done");
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<Node>, ParseError> {
        if let Some(frame) = self.top_frame() {
            return Err(ParseError::new(
                ParseErrorKind::UnclosedBlock(frame.name()),
                frame.head(),
            ));
        }
        Ok(self.stack.pop().map(|(_, nodes)| nodes).unwrap_or_default())
    }
}

// ---------------------------------------------------------------------------------------------
// Formulas.
//
// The engine reads a formula from the left: an operand, then an operator whose right side is
// the whole rest of the formula (so operators of equal priority group to the right:
// `10 - 2 - 3` is 11). When the operator binds tighter than the rest's top operator, it takes
// the rest's left operand instead, one level only (`7 * 3 + 2 << 1` is `(7 * (3 + 2)) << 1`).
// Prefix operators (`!`, `++`, `--`) take the rest the same way. Before that regrouping, each
// operator checks the kinds of its two sides, and the template does not load when the pair is
// one the engine refuses (`BINARY`, `NOT`, `PREFIX_STEP`, measured on the engine).

/// What the load-time check sees of an operand: its form, not its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Num,
    /// A string literal that JavaScript's `Number()` reads as a number (`'5'`).
    StrNum,
    Str,
    Bool,
    Null,
    /// A variable or an element.
    Var,
    /// `%v%.length`.
    Len,
    /// `x++`, `x--`.
    Post,
    /// `!` on a variable, or on a literal.
    NotVar,
    NotLit,
    /// `++`/`--` before a variable, or before a literal.
    PreVar,
    PreLit,
    /// A formula whose top operator is this one.
    Binary(BinaryOp),
    Assign,
}

impl Kind {
    /// The bit of this kind in the tables below.
    fn index(self) -> u32 {
        match self {
            Kind::Num => 0,
            Kind::StrNum => 1,
            Kind::Str => 2,
            Kind::Bool => 3,
            Kind::Null => 4,
            Kind::Var => 5,
            Kind::Len => 6,
            Kind::Post => 7,
            Kind::NotVar => 8,
            Kind::NotLit => 9,
            Kind::PreVar => 10,
            Kind::PreLit => 11,
            Kind::Binary(op) => 12 + op_index(Some(op)),
            Kind::Assign => 12 + op_index(None),
        }
    }

    /// The row of a left operand in `BINARY`; `None` for kinds never on the left (a prefix
    /// operator takes the whole rest of the formula).
    fn left_index(self) -> Option<usize> {
        let i = self.index();
        (i < 8).then_some(i as usize)
    }
}

/// The operators in the order of the tables: `+ - * / % & | << >> == != < > <= >= && || =`.
fn op_index(op: Option<BinaryOp>) -> u32 {
    match op {
        Some(BinaryOp::Add) => 0,
        Some(BinaryOp::Sub) => 1,
        Some(BinaryOp::Mul) => 2,
        Some(BinaryOp::Div) => 3,
        Some(BinaryOp::Rem) => 4,
        Some(BinaryOp::BitAnd) => 5,
        Some(BinaryOp::BitOr) => 6,
        Some(BinaryOp::Shl) => 7,
        Some(BinaryOp::Shr) => 8,
        Some(BinaryOp::Eq) => 9,
        Some(BinaryOp::Ne) => 10,
        Some(BinaryOp::Lt) => 11,
        Some(BinaryOp::Gt) => 12,
        Some(BinaryOp::Le) => 13,
        Some(BinaryOp::Ge) => 14,
        Some(BinaryOp::And) => 15,
        Some(BinaryOp::Or) => 16,
        None => 17,
    }
}

/// Which right operands each binary operator (`=` last) accepts after each left operand, as the
/// engine loads them: `BINARY[op][left]` has bit `k` set when the kind numbered `k` (see
/// [`Kind::index`]) is accepted. Measured on the engine, every operator and every pair of kinds.
const BINARY: [[u32; 8]; 18] = [
    // `+`
    [
        0x3fff_f3ff,
        0x3fff_f3ff,
        0x3fff_f3ff,
        0x0000_0000,
        0x3fff_f3ff,
        0x001f_f0f7,
        0x0000_0000,
        0x3fff_f3ff,
    ],
    // `-`
    NUMERIC_ROW,
    // `*`
    NUMERIC_ROW,
    // `/`
    NUMERIC_ROW,
    // `%`
    NUMERIC_ROW,
    // `&`
    BIT_ROW,
    // `|`
    BIT_ROW,
    // `<<`
    SHIFT_ROW,
    // `>>`
    SHIFT_ROW,
    // `==`
    EQUALITY_ROW,
    // `!=`
    EQUALITY_ROW,
    // `<`
    ORDER_ROW,
    // `>`
    ORDER_ROW,
    // `<=`
    ORDER_ROW,
    // `>=`
    ORDER_ROW,
    // `&&`
    EQUALITY_ROW,
    // `||`
    EQUALITY_ROW,
    // `=`
    [0, 0, 0, 0, 0, 0x1fff_ffff, 0, 0],
];

const NUMERIC_ROW: [u32; 8] = [
    0x001f_f0e3,
    0x001f_f0e3,
    0,
    0,
    0,
    0x001f_f0e3,
    0,
    0x001f_f0e3,
];
const SHIFT_ROW: [u32; 8] = [0x001f_f0e3, 0x001f_f0e3, 0, 0, 0, 0x001f_f0e3, 0, 0];
const BIT_ROW: [u32; 8] = [
    0x3fff_f3ff,
    0x3fff_f3ff,
    0,
    0x3fff_f3ff,
    0,
    0x1fff_f3eb,
    0,
    0x3fff_f3ff,
];
const EQUALITY_ROW: [u32; 8] = [
    0x3fff_ffff,
    0x3fff_ffff,
    0x3fff_ffff,
    0x3fff_ffff,
    0x3fff_ffff,
    0x3fff_ffff,
    0,
    0x3fff_ffff,
];
const ORDER_ROW: [u32; 8] = [
    0x001f_fce3,
    0x001f_fce3,
    0,
    0,
    0,
    0x001f_fce3,
    0,
    0x001f_fce3,
];
/// The operands `!` accepts.
const NOT: u32 = 0x1fe6_0368;
/// The operands `++` and `--` written before them accept.
const PREFIX_STEP: u32 = 0x001f_f0e3;

/// How tightly an operator binds (higher is tighter); `=` is the loosest.
fn priority(op: Option<BinaryOp>) -> u8 {
    match op {
        Some(BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem) => 10,
        Some(BinaryOp::Add | BinaryOp::Sub) => 9,
        Some(BinaryOp::Shl | BinaryOp::Shr) => 8,
        Some(BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge) => 7,
        Some(BinaryOp::Eq | BinaryOp::Ne) => 6,
        Some(BinaryOp::BitAnd) => 5,
        Some(BinaryOp::BitOr) => 4,
        Some(BinaryOp::And) => 3,
        Some(BinaryOp::Or) => 2,
        None => 1,
    }
}

/// The priority of prefix operators: above every binary operator.
const PREFIX_PRIORITY: u8 = 11;

/// A piece of a formula: the prefix operators before an operand, the operand, and the
/// operator after it (`None` inside for `=`) with its span.
type Piece = (
    Vec<(&'static str, Span)>,
    Parsed,
    Option<(Option<BinaryOp>, Span)>,
);

/// A parsed formula and its kind for the load-time checks.
struct Parsed {
    expr: Expr,
    kind: Kind,
}

/// The priority of a formula's top operator, when it has one.
fn top_priority(expr: &Expr) -> Option<u8> {
    match &expr.kind {
        ExprKind::Binary { op, .. } => Some(priority(Some(*op))),
        ExprKind::Assign { .. } => Some(priority(None)),
        _ => None,
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Token {
    kind: TokenKind,
    span: Span,
}

#[derive(Debug, Clone, PartialEq)]
enum TokenKind {
    Num(f64),
    Str(String),
    Var(String),
    Word(String),
    Punct(&'static str),
    End,
}

const PUNCTS: [&str; 26] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+", "-", "*", "/", "%", "&", "|",
    "!", "<", ">", "=", "[", "]", "{", "}", ";",
];

struct Parser<'a> {
    source: &'a str,
    pos: usize,
    end: usize,
    /// Whether the last token ended an operand (so that `%` there is the remainder operator).
    after_operand: bool,
    peeked: Option<Token>,
    /// Operators in the formula so far (see [`MAX_OPERATORS`]).
    operators: usize,
    /// Index formulas open around the current one (see [`MAX_NESTING`]).
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(source: &'a str, range: Range<usize>) -> Self {
        Parser {
            source,
            pos: range.start,
            end: range.end,
            after_operand: false,
            peeked: None,
            operators: 0,
            depth: 0,
        }
    }

    fn peek(&mut self) -> Result<Token, ParseError> {
        if let Some(tok) = &self.peeked {
            return Ok(tok.clone());
        }
        let tok = self.lex()?;
        self.peeked = Some(tok.clone());
        Ok(tok)
    }

    fn next(&mut self) -> Result<Token, ParseError> {
        match self.peeked.take() {
            Some(tok) => Ok(tok),
            None => self.lex(),
        }
    }

    fn eat_semicolon(&mut self) -> Result<bool, ParseError> {
        if self.peek()?.kind == TokenKind::Punct(";") {
            self.next()?;
            return Ok(true);
        }
        Ok(false)
    }

    fn expect_end(&mut self) -> Result<(), ParseError> {
        let tok = self.next()?;
        if tok.kind == TokenKind::End {
            Ok(())
        } else {
            Err(ParseError::new(
                ParseErrorKind::Unexpected(describe(&tok.kind)),
                tok.span,
            ))
        }
    }

    fn formula_optional(&mut self) -> Result<Option<Expr>, ParseError> {
        match self.peek()?.kind {
            TokenKind::End | TokenKind::Punct(";") => Ok(None),
            _ => self.formula().map(|p| Some(p.expr)),
        }
    }

    fn formula_required(&mut self, what: &'static str) -> Result<Expr, ParseError> {
        let tok = self.peek()?;
        if matches!(tok.kind, TokenKind::End | TokenKind::Punct(";")) {
            return Err(ParseError::new(ParseErrorKind::Expected(what), tok.span));
        }
        self.formula().map(|p| p.expr)
    }

    /// Counts one more operator at `span`, refusing too many.
    fn count_operator(&mut self, span: Span) -> Result<(), ParseError> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(ParseError::new(ParseErrorKind::TooManyOperators, span));
        }
        Ok(())
    }

    /// The rest of the formula, up to `;`, `]`, `}` or the statement's end: its pieces read
    /// from the left, then put together from the right (each operator takes the rest), without
    /// recursion.
    fn formula(&mut self) -> Result<Parsed, ParseError> {
        // Each piece: the prefix operators before an operand, the operand, the operator after.
        let mut pieces: Vec<Piece> = Vec::new();
        loop {
            let mut prefixes = Vec::new();
            loop {
                let tok = self.peek()?;
                let TokenKind::Punct(p @ ("!" | "++" | "--")) = tok.kind else {
                    break;
                };
                self.next()?;
                self.count_operator(tok.span)?;
                self.check_operand(tok.span)?;
                prefixes.push((p, tok.span));
            }
            let unit = self.unit()?;
            let tok = self.peek()?;
            let op = match tok.kind {
                TokenKind::Punct("=") => Some(None),
                TokenKind::Punct(p) => binary_op(p).map(Some),
                _ => None,
            };
            let Some(op) = op else {
                pieces.push((prefixes, unit, None));
                break;
            };
            self.next()?;
            self.count_operator(tok.span)?;
            self.check_operand(tok.span)?;
            pieces.push((prefixes, unit, Some((op, tok.span))));
        }
        let mut rest: Option<Parsed> = None;
        while let Some((prefixes, unit, op)) = pieces.pop() {
            let mut current = match (op, rest.take()) {
                (Some((op, op_span)), Some(rest)) => binary(unit, op, op_span, rest)?,
                _ => unit,
            };
            for (p, span) in prefixes.into_iter().rev() {
                current = prefix(p, span, current)?;
            }
            rest = Some(current);
        }
        rest.ok_or_else(|| {
            ParseError::new(
                ParseErrorKind::Expected("an operand"),
                Span::new(self.pos, self.pos),
            )
        })
    }

    /// Refuses an operator at `op_span` that nothing follows.
    fn check_operand(&mut self, op_span: Span) -> Result<(), ParseError> {
        let tok = self.peek()?;
        if matches!(tok.kind, TokenKind::End | TokenKind::Punct(";" | "]" | "}")) {
            return Err(ParseError::new(ParseErrorKind::MissingOperand, op_span));
        }
        Ok(())
    }

    /// An operand: a literal or a variable (with an element and `.length`), with `++`/`--`
    /// after it.
    fn unit(&mut self) -> Result<Parsed, ParseError> {
        let tok = self.next()?;
        let (mut expr, mut kind) = match tok.kind {
            TokenKind::Num(n) => (ExprKind::Num(n), Kind::Num),
            TokenKind::Str(s) => {
                let kind = if crate::value::string_to_number(&s).is_some() {
                    Kind::StrNum
                } else {
                    Kind::Str
                };
                (ExprKind::Str(s), kind)
            }
            TokenKind::Var(name) => (ExprKind::Var(name), Kind::Var),
            TokenKind::Word(w) => match w.as_str() {
                "null" => (ExprKind::Null, Kind::Null),
                "true" => (ExprKind::Bool(true), Kind::Bool),
                "false" => (ExprKind::Bool(false), Kind::Bool),
                _ => {
                    return Err(ParseError::new(ParseErrorKind::UnknownWord(w), tok.span));
                }
            },
            TokenKind::End => {
                return Err(ParseError::new(
                    ParseErrorKind::Expected("an operand"),
                    tok.span,
                ));
            }
            TokenKind::Punct(p) => {
                return Err(ParseError::new(
                    ParseErrorKind::Unexpected(format!("`{p}`")),
                    tok.span,
                ));
            }
        };
        let mut span = tok.span;
        if kind == Kind::Var {
            let next = self.peek()?;
            if let TokenKind::Punct(open @ ("[" | "{")) = next.kind {
                let indexed = self.element(Expr { span, kind: expr }, open, next.span)?;
                span = indexed.span;
                expr = indexed.kind;
            }
            if let TokenKind::Word(w) = &self.peek()?.kind
                && let Some(name) = w.strip_prefix('.')
            {
                let name_tok = self.next()?;
                if !matches!(name, "length" | "size" | "count") {
                    return Err(ParseError::new(
                        ParseErrorKind::Expected("`length`, `size` or `count` after `.`"),
                        name_tok.span,
                    ));
                }
                if matches!(expr, ExprKind::Index { .. }) {
                    return Err(ParseError::new(ParseErrorKind::IndexTarget, name_tok.span));
                }
                self.count_operator(name_tok.span)?;
                let base = Expr { span, kind: expr };
                span = span.to(name_tok.span);
                expr = ExprKind::Length {
                    base: Box::new(base),
                    name_span: name_tok.span,
                };
                kind = Kind::Len;
            }
        }
        let next = self.peek()?;
        if let TokenKind::Punct(p @ ("++" | "--")) = next.kind {
            if !matches!(kind, Kind::Num | Kind::StrNum | Kind::Var) {
                return Err(ParseError::new(
                    ParseErrorKind::Operand {
                        op: p,
                        found: kind_name(kind),
                    },
                    span.to(next.span),
                ));
            }
            self.next()?;
            self.count_operator(next.span)?;
            let operand = Expr { span, kind: expr };
            span = span.to(next.span);
            expr = ExprKind::Step {
                operand: Box::new(operand),
                op_span: next.span,
                increment: p == "++",
                prefix: false,
            };
            kind = Kind::Post;
        }
        Ok(Parsed {
            expr: Expr { span, kind: expr },
            kind,
        })
    }

    /// `base[index]` or `base{key}`, the opening bracket at `open_span` (one level only).
    fn element(
        &mut self,
        base: Expr,
        open: &'static str,
        open_span: Span,
    ) -> Result<Expr, ParseError> {
        self.next()?;
        self.count_operator(open_span)?;
        let close = if open == "[" { "]" } else { "}" };
        let index_start = self.peek()?.span;
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(ParseError::new(ParseErrorKind::TooDeep, open_span));
        }
        self.check_operand(open_span)?;
        let index = self.formula()?;
        self.depth -= 1;
        if matches!(index.kind, Kind::Bool | Kind::Null) {
            return Err(ParseError::new(
                ParseErrorKind::Operand {
                    op: if open == "[" { "[ ]" } else { "{ }" },
                    found: kind_name(index.kind),
                },
                index_start.to(index.expr.span),
            ));
        }
        let end = self.next()?;
        if end.kind != TokenKind::Punct(close) {
            return Err(ParseError::new(
                ParseErrorKind::Expected(if close == "]" {
                    "`]` closing the index"
                } else {
                    "`}` closing the key"
                }),
                end.span,
            ));
        }
        if let TokenKind::Punct("[" | "{") = self.peek()?.kind {
            return Err(ParseError::new(
                ParseErrorKind::MultiLevel,
                self.peek()?.span,
            ));
        }
        Ok(Expr {
            span: base.span.to(end.span),
            kind: ExprKind::Index {
                base: Box::new(base),
                index: Box::new(index.expr),
                brace: open == "{",
            },
        })
    }

    fn lex(&mut self) -> Result<Token, ParseError> {
        let tok = self.lex_raw()?;
        self.after_operand = match &tok.kind {
            TokenKind::Num(_) | TokenKind::Str(_) | TokenKind::Var(_) | TokenKind::Word(_) => true,
            TokenKind::Punct(p) => matches!(*p, "]" | "}"),
            TokenKind::End => false,
        };
        Ok(tok)
    }

    fn lex_raw(&mut self) -> Result<Token, ParseError> {
        let rest_all = &self.source[self.pos..self.end];
        self.pos += rest_all.len() - rest_all.trim_start().len();
        let start = self.pos;
        if start >= self.end {
            return Ok(Token {
                kind: TokenKind::End,
                span: Span::new(self.end, self.end),
            });
        }
        let bytes = self.source.as_bytes();
        let rest = &self.source[start..self.end];
        let c = bytes[start];
        let token = |kind, end| Token {
            kind,
            span: Span::new(start, end),
        };
        if c.is_ascii_alphanumeric() || c == b'_' || (c == b'.' && self.after_operand) {
            let len = 1 + rest[1..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            let word = &rest[..len];
            self.pos = start + len;
            let span = Span::new(start, start + len);
            let is_hex_word = word.len() > 1
                && word.starts_with('x')
                && word[1..].bytes().all(|b| b.is_ascii_hexdigit());
            if c.is_ascii_digit() || is_hex_word {
                return match parse_number_literal(word) {
                    Some(n) => Ok(token(TokenKind::Num(n), self.pos)),
                    None => Err(ParseError::new(
                        ParseErrorKind::InvalidNumber(word.to_owned()),
                        span,
                    )),
                };
            }
            return Ok(token(TokenKind::Word(word.to_owned()), self.pos));
        }
        if c == b'\'' || c == b'"' {
            // A backslash keeps the next character in the string (both stay in its text).
            let mut close = None;
            let mut escaped = false;
            for (i, ch) in rest[1..].char_indices() {
                if escaped {
                    escaped = false;
                } else if ch == '\\' {
                    escaped = true;
                } else if ch == char::from(c) {
                    close = Some(i);
                    break;
                }
            }
            let Some(close) = close else {
                return Err(ParseError::new(
                    ParseErrorKind::UnterminatedString,
                    Span::new(start, start + 1),
                ));
            };
            if close == 0 {
                return Err(ParseError::new(
                    ParseErrorKind::EmptyString,
                    Span::new(start, start + 2),
                ));
            }
            self.pos = start + close + 2;
            return Ok(token(TokenKind::Str(rest[1..=close].to_owned()), self.pos));
        }
        // `%` followed by a space is the remainder operator; otherwise it opens a variable,
        // which a `%` must close.
        if c == b'%' && !rest[1..].chars().next().is_none_or(char::is_whitespace) {
            let name_len = rest[1..]
                .find(|ch: char| ch == '%' || ch.is_whitespace())
                .unwrap_or(rest.len() - 1);
            if name_len > 0 && rest[1 + name_len..].starts_with('%') {
                let name = &rest[1..=name_len];
                self.pos = start + name_len + 2;
                return Ok(token(TokenKind::Var(name.to_owned()), self.pos));
            }
            return Err(ParseError::new(
                ParseErrorKind::UnclosedVariable,
                Span::new(start, start + 1),
            ));
        }
        if let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) {
            self.pos = start + p.len();
            return Ok(token(TokenKind::Punct(p), self.pos));
        }
        let ch_len = rest.chars().next().map_or(1, char::len_utf8);
        Err(ParseError::new(
            ParseErrorKind::UnexpectedCharacter(rest[..ch_len].to_owned()),
            Span::new(start, start + ch_len),
        ))
    }
}

/// `left op rest`, checked as the engine checks the pair when it loads the template.
fn binary(
    left: Parsed,
    op: Option<BinaryOp>,
    op_span: Span,
    rest: Parsed,
) -> Result<Parsed, ParseError> {
    let accepted = left
        .kind
        .left_index()
        .is_some_and(|row| BINARY[op_index(op) as usize][row] & (1 << rest.kind.index()) != 0);
    if !accepted {
        return Err(ParseError::new(
            ParseErrorKind::Operands {
                op: op.map_or("=", BinaryOp::symbol),
                left: kind_name(left.kind),
                right: kind_name(rest.kind),
            },
            left.expr.span.to(rest.expr.span),
        ));
    }
    let expr = combine(left.expr, op, op_span, rest.expr);
    let kind = kind_of(&expr);
    Ok(Parsed { expr, kind })
}

/// A prefix operator (`!`, `++`, `--`) on the rest of the formula, checked as the engine does.
fn prefix(p: &'static str, op_span: Span, rest: Parsed) -> Result<Parsed, ParseError> {
    let allowed = if p == "!" { NOT } else { PREFIX_STEP };
    if allowed & (1 << rest.kind.index()) == 0 {
        return Err(ParseError::new(
            ParseErrorKind::Operand {
                op: p,
                found: kind_name(rest.kind),
            },
            op_span.to(rest.expr.span),
        ));
    }
    let make = |operand: Expr| -> Expr {
        let span = op_span.to(operand.span);
        let operand = Box::new(operand);
        let kind = if p == "!" {
            ExprKind::Not { op_span, operand }
        } else {
            ExprKind::Step {
                operand,
                op_span,
                increment: p == "++",
                prefix: true,
            }
        };
        Expr { span, kind }
    };
    let expr = match rotate_prefix(rest.expr, make) {
        Ok(expr) | Err(expr) => expr,
    };
    // Regrouped, `!` takes the kind of the formula's top operator, while `++` and `--` keep
    // their own.
    let kind = if p == "!" {
        kind_of(&expr)
    } else {
        kind_of(first_operand(&expr))
    };
    Ok(Parsed { expr, kind })
}

/// `left op rest`, regrouped one level when `op` binds tighter than the rest's top operator.
fn combine(left: Expr, op: Option<BinaryOp>, op_span: Span, rest: Expr) -> Expr {
    let make = |lhs: Expr, rhs: Expr| -> Expr {
        let span = lhs.span.to(rhs.span);
        let kind = match op {
            Some(op) => ExprKind::Binary {
                op,
                op_span,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            None => ExprKind::Assign {
                target: Box::new(lhs),
                op_span,
                value: Box::new(rhs),
            },
        };
        Expr { span, kind }
    };
    let tighter = top_priority(&rest).is_some_and(|inner| priority(op) > inner);
    if !tighter {
        return make(left, rest);
    }
    regroup(rest, |inner_left| make(left, inner_left))
}

/// A formula with a top operator, its left operand replaced by `make(left operand)`.
fn regroup(rest: Expr, make: impl FnOnce(Expr) -> Expr) -> Expr {
    let Expr { span, kind } = rest;
    match kind {
        ExprKind::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } => {
            let lhs = make(*lhs);
            Expr {
                span: lhs.span.to(rhs.span),
                kind: ExprKind::Binary {
                    op,
                    op_span,
                    lhs: Box::new(lhs),
                    rhs,
                },
            }
        }
        ExprKind::Assign {
            target,
            op_span,
            value,
        } => {
            let target = make(*target);
            Expr {
                span: target.span.to(value.span),
                kind: ExprKind::Assign {
                    target: Box::new(target),
                    op_span,
                    value,
                },
            }
        }
        other => make(Expr { span, kind: other }),
    }
}

/// A prefix operator on the rest of the formula: regrouped one level when the rest has a top
/// operator (`Ok`), else applied to it (`Err`, the operand is a single unit).
fn rotate_prefix(rest: Expr, make: impl Fn(Expr) -> Expr) -> Result<Expr, Expr> {
    if top_priority(&rest).is_none_or(|inner| inner >= PREFIX_PRIORITY) {
        return Err(make(rest));
    }
    Ok(regroup(rest, make))
}

/// The leftmost operand of a formula (down its left operands).
fn first_operand(expr: &Expr) -> &Expr {
    match &expr.kind {
        ExprKind::Binary { lhs, .. } => first_operand(lhs),
        ExprKind::Assign { target, .. } => first_operand(target),
        _ => expr,
    }
}

/// Whether a formula is a variable, an element or a `.length`, under `!`, `++` and `--`.
fn names_variable(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Var(_) | ExprKind::Index { .. } | ExprKind::Length { .. } => true,
        ExprKind::Not { operand, .. } | ExprKind::Step { operand, .. } => names_variable(operand),
        _ => false,
    }
}

/// What the load-time checks see of a formula.
fn kind_of(expr: &Expr) -> Kind {
    let on_variable = names_variable;
    match &expr.kind {
        ExprKind::Null => Kind::Null,
        ExprKind::Bool(_) => Kind::Bool,
        ExprKind::Num(_) => Kind::Num,
        ExprKind::Str(s) => {
            if crate::value::string_to_number(s).is_some() {
                Kind::StrNum
            } else {
                Kind::Str
            }
        }
        ExprKind::Var(_) | ExprKind::Index { .. } => Kind::Var,
        ExprKind::Length { .. } => Kind::Len,
        ExprKind::Not { operand, .. } => {
            if on_variable(operand) {
                Kind::NotVar
            } else {
                Kind::NotLit
            }
        }
        ExprKind::Step {
            operand,
            prefix: true,
            ..
        } => {
            if on_variable(operand) {
                Kind::PreVar
            } else {
                Kind::PreLit
            }
        }
        ExprKind::Step { .. } => Kind::Post,
        ExprKind::Binary { op, .. } => Kind::Binary(*op),
        ExprKind::Assign { .. } => Kind::Assign,
    }
}

/// How messages name an operand's kind.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Num => "a number",
        Kind::StrNum | Kind::Str => "a string",
        Kind::Bool => "a boolean",
        Kind::Null => "null",
        Kind::Var => "a variable",
        Kind::Len => "a `.length`",
        Kind::Post | Kind::PreVar | Kind::PreLit => "an increment or decrement",
        Kind::NotVar | Kind::NotLit => "a negation `!`",
        Kind::Binary(op) if op.is_condition() => "a condition",
        Kind::Binary(_) => "a calculation",
        Kind::Assign => "an assignment",
    }
}

fn binary_op(p: &str) -> Option<BinaryOp> {
    Some(match p {
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::Div,
        "%" => BinaryOp::Rem,
        "&" => BinaryOp::BitAnd,
        "|" => BinaryOp::BitOr,
        "<<" => BinaryOp::Shl,
        ">>" => BinaryOp::Shr,
        "&&" => BinaryOp::And,
        "||" => BinaryOp::Or,
        "==" => BinaryOp::Eq,
        "!=" => BinaryOp::Ne,
        "<" => BinaryOp::Lt,
        ">" => BinaryOp::Gt,
        "<=" => BinaryOp::Le,
        ">=" => BinaryOp::Ge,
        _ => return None,
    })
}

fn describe(kind: &TokenKind) -> String {
    match kind {
        TokenKind::Num(n) => format!("number {}", crate::value::number_to_string(*n)),
        TokenKind::Str(_) => "string".to_owned(),
        TokenKind::Var(name) => format!("variable %{name}%"),
        TokenKind::Word(w) => format!("`{w}`"),
        TokenKind::Punct(p) => format!("`{p}`"),
        TokenKind::End => "end of statement".to_owned(),
    }
}
