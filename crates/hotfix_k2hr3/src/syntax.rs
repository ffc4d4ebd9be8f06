//! The template's tree: statements found in the text, formulas parsed, blocks matched.

use std::ops::Range;

use crate::{ParseError, ParseErrorKind, Span};

/// How deep formulas (parentheses, unary operators) and blocks may nest. Deeper input is
/// refused, so that nothing recurses without bound.
pub const MAX_NESTING: usize = 100;

/// How many operators (unary, binary, assignments, increments, element reads) one formula may
/// hold. The tree of a formula is at most this deep, which bounds the expander's recursion.
pub const MAX_OPERATORS: usize = 500;

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The `{{#!NAME }}` header, when the template starts with one.
    pub header: Option<Header>,
    /// The top-level nodes, in order.
    pub body: Vec<Node>,
}

/// The engine header `{{#!k2hr3template }}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The whole statement.
    pub span: Span,
    /// The engine's name (always `k2hr3template` in a parsed template: the parser refuses
    /// other names).
    pub name: String,
    pub name_span: Span,
}

/// A piece of the template: text or a statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Static text, escapes already resolved (`{{{` is `{{`, `}}}` is `}}`) and the lines of
    /// statements that print nothing already removed. `span` is the source range it comes from.
    Text { span: Span, text: String },
    /// `{{# … }}`.
    Comment { span: Span },
    /// `{{= formula }}`.
    Print { span: Span, expr: Expr },
    /// `{{ formula }}`: evaluated for its effect, prints nothing.
    Eval { span: Span, expr: Expr },
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
    /// `{{ for init ; cond ; step }}` … `{{ done }}`; each part may be empty (an empty
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
    /// `{{ foreach %var% in formula }}` … `{{ done }}`.
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The `if` or `elif` statement.
    pub head: Span,
    pub cond: Expr,
    pub body: Vec<Node>,
}

/// A formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub span: Span,
    pub kind: ExprKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    /// `%name%`.
    Var(String),
    /// `%name%[index]` (`brace` false) or `%name%{key}` (`brace` true).
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
        brace: bool,
    },
    /// `.length`, `.size` or `.count`.
    Length {
        base: Box<Expr>,
        name_span: Span,
    },
    Unary {
        op: UnaryOp,
        op_span: Span,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `%name% = value`.
    Assign {
        name: String,
        name_span: Span,
        op_span: Span,
        value: Box<Expr>,
    },
    /// `++%name%`, `%name%++`, `--%name%`, `%name%--`.
    Step {
        name: String,
        name_span: Span,
        op_span: Span,
        increment: bool,
        prefix: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `!`
    Not,
    /// `-`
    Neg,
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
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
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
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
        }
    }

    /// Binding strength: higher binds tighter (C's order; the language has no `^`).
    fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 2,
            BinaryOp::And => 3,
            BinaryOp::BitOr => 4,
            BinaryOp::BitAnd => 5,
            BinaryOp::Eq | BinaryOp::Ne => 6,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => 7,
            BinaryOp::Shl | BinaryOp::Shr => 8,
            BinaryOp::Add | BinaryOp::Sub => 9,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 10,
        }
    }
}

/// The engine name the parser accepts in a header.
pub const ENGINE_NAME: &str = "k2hr3template";

/// Parses a template.
pub fn parse(source: &str) -> Result<Template, ParseError> {
    let segments = scan(source)?;
    let dropped = standalone_lines(source, &segments);
    let mut builder = Builder::new();
    let mut header = None;
    for segment in &segments {
        match *segment {
            Segment::Text(ref range) => {
                for piece in subtract(range.clone(), &dropped) {
                    if !piece.is_empty() {
                        builder.push(Node::Text {
                            span: Span::from(piece.clone()),
                            text: unescape_text(&source[piece]),
                        });
                    }
                }
            }
            Segment::Statement {
                ref whole,
                ref body,
                kind,
            } => {
                let whole = Span::from(whole.clone());
                match kind {
                    StatementKind::Header => {
                        let h = parse_header(source, whole, body.clone())?;
                        header = Some(h);
                    }
                    StatementKind::Comment => builder.push(Node::Comment { span: whole }),
                    StatementKind::Print => {
                        // Skip the `=`.
                        let start = body.start + leading_space(&source[body.clone()]) + 1;
                        let mut p = Parser::new(source, start..body.end);
                        let expr = p.expr_required("a formula to print after `=`")?;
                        p.expect_end()?;
                        builder.push(Node::Print { span: whole, expr });
                    }
                    StatementKind::Other => statement(source, whole, body.clone(), &mut builder)?,
                }
            }
        }
    }
    let body = builder.finish()?;
    Ok(Template { header, body })
}

/// The number a literal denotes: decimal, `0x`/`x` hexadecimal, `0o` (or a leading `0`)
/// octal, `0b` binary.
pub(crate) fn parse_number_literal(text: &str) -> Result<i64, NumberError> {
    let lower = text.to_ascii_lowercase();
    let (digits, radix) = if let Some(rest) = lower.strip_prefix("0x") {
        (rest, 16)
    } else if let Some(rest) = lower.strip_prefix('x') {
        (rest, 16)
    } else if let Some(rest) = lower.strip_prefix("0o") {
        (rest, 8)
    } else if let Some(rest) = lower.strip_prefix("0b") {
        (rest, 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8)
    } else {
        (lower.as_str(), 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(NumberError::Invalid);
    }
    i64::from_str_radix(digits, radix).map_err(|_| NumberError::TooLarge)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberError {
    Invalid,
    TooLarge,
}

// ---------------------------------------------------------------------------------------------
// Finding statements in the text.

#[derive(Debug)]
enum Segment {
    Text(Range<usize>),
    Statement {
        /// From `{{` to `}}` inclusive.
        whole: Range<usize>,
        /// Between `{{` and `}}`.
        body: Range<usize>,
        kind: StatementKind,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StatementKind {
    Header,
    Comment,
    Print,
    Other,
}

/// Splits the source into text and statements. `{{{` in text is an escaped `{{`. A comment or
/// header ends at the first `}}`; any other statement at the first `}}` outside a quoted string
/// and outside `{ }` braces (so `%o%{'k'}}}` ends after the last two braces).
fn scan(source: &str) -> Result<Vec<Segment>, ParseError> {
    let bytes = source.as_bytes();
    let mut segments = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'{' || bytes.get(i + 1) != Some(&b'{') {
            i += 1;
            continue;
        }
        if bytes.get(i + 2) == Some(&b'{') {
            i += 3;
            continue;
        }
        if text_start < i {
            segments.push(Segment::Text(text_start..i));
        }
        let body_start = i + 2;
        let lead = leading_space(&source[body_start..]);
        let first = bytes.get(body_start + lead).copied();
        let kind = match first {
            Some(b'#') if bytes.get(body_start + lead + 1) == Some(&b'!') => StatementKind::Header,
            Some(b'#') => StatementKind::Comment,
            Some(b'=') if bytes.get(body_start + lead + 1) != Some(&b'=') => StatementKind::Print,
            _ => StatementKind::Other,
        };
        let body_end = if matches!(kind, StatementKind::Header | StatementKind::Comment) {
            find_plain_end(bytes, body_start)
        } else {
            find_statement_end(bytes, body_start)?
        };
        let Some(body_end) = body_end else {
            return Err(ParseError::new(
                ParseErrorKind::UnclosedStatement,
                Span::new(i, i + 2),
            ));
        };
        segments.push(Segment::Statement {
            whole: i..body_end + 2,
            body: body_start..body_end,
            kind,
        });
        i = body_end + 2;
        text_start = i;
    }
    if text_start < bytes.len() {
        segments.push(Segment::Text(text_start..bytes.len()));
    }
    Ok(segments)
}

fn find_plain_end(bytes: &[u8], from: usize) -> Option<usize> {
    (from..bytes.len().saturating_sub(1)).find(|&j| bytes[j] == b'}' && bytes[j + 1] == b'}')
}

fn find_statement_end(bytes: &[u8], from: usize) -> Result<Option<usize>, ParseError> {
    let mut depth = 0usize;
    let mut j = from;
    while j < bytes.len() {
        match bytes[j] {
            quote @ (b'\'' | b'"') => {
                let open = j;
                j += 1;
                loop {
                    match bytes.get(j) {
                        None => {
                            return Err(ParseError::new(
                                ParseErrorKind::UnterminatedString,
                                Span::new(open, open + 1),
                            ));
                        }
                        Some(b'\\') => j += 2,
                        Some(&c) if c == quote => break,
                        Some(_) => j += 1,
                    }
                }
            }
            b'{' => depth += 1,
            b'}' if depth > 0 => depth -= 1,
            b'}' if bytes.get(j + 1) == Some(&b'}') => return Ok(Some(j)),
            _ => {}
        }
        j += 1;
    }
    Ok(None)
}

fn leading_space(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// The source ranges of the lines that hold only statements printing nothing (and spaces):
/// those lines, their line break included, vanish from the output. A line with text or a
/// `{{= }}` keeps everything but its statements.
fn standalone_lines(source: &str, segments: &[Segment]) -> Vec<Range<usize>> {
    struct Line {
        start: usize,
        statements: bool,
        prints: bool,
        blank: bool,
    }
    impl Line {
        fn close(&self, end: usize, dropped: &mut Vec<Range<usize>>) {
            if self.statements && !self.prints && self.blank {
                dropped.push(self.start..end);
            }
        }
    }
    // A byte-order mark counts as blank, so that it goes with the header's line.
    let is_blank = |s: &str| {
        s.chars()
            .all(|c| matches!(c, ' ' | '\t' | '\r' | '\u{feff}'))
    };
    let mut dropped = Vec::new();
    let mut line = Line {
        start: 0,
        statements: false,
        prints: false,
        blank: true,
    };
    for segment in segments {
        match segment {
            Segment::Statement { kind, .. } => {
                line.statements = true;
                line.prints |= *kind == StatementKind::Print;
            }
            Segment::Text(range) => {
                let mut pos = range.start;
                for (offset, _) in source[range.clone()].match_indices('\n') {
                    let newline = range.start + offset;
                    line.blank &= is_blank(&source[pos..newline]);
                    line.close(newline + 1, &mut dropped);
                    line = Line {
                        start: newline + 1,
                        statements: false,
                        prints: false,
                        blank: true,
                    };
                    pos = newline + 1;
                }
                line.blank &= is_blank(&source[pos..range.end]);
            }
        }
    }
    line.close(source.len(), &mut dropped);
    dropped
}

/// `range` without the (sorted, disjoint) `dropped` ranges.
fn subtract(range: Range<usize>, dropped: &[Range<usize>]) -> Vec<Range<usize>> {
    let first = dropped.partition_point(|d| d.end <= range.start);
    let mut pieces = Vec::new();
    let mut start = range.start;
    for d in &dropped[first..] {
        if d.start >= range.end {
            break;
        }
        if d.start > start {
            pieces.push(start..d.start);
        }
        start = start.max(d.end);
    }
    if start < range.end {
        pieces.push(start..range.end);
    }
    pieces
}

fn unescape_text(text: &str) -> String {
    text.replace("{{{", "{{").replace("}}}", "}}")
}

fn parse_header(source: &str, whole: Span, body: Range<usize>) -> Result<Header, ParseError> {
    let text = &source[body.clone()];
    let lead = leading_space(text);
    let name_start = body.start + lead + 2;
    let raw = &source[name_start..body.end];
    let name_offset = name_start + leading_space(raw);
    let name = raw.trim();
    let name_span = Span::new(name_offset, name_offset + name.len());
    // A byte-order mark (which an editor may save) is not a character of the template.
    let first = if source.starts_with('\u{feff}') { 3 } else { 0 };
    if whole.start != first {
        return Err(ParseError::new(ParseErrorKind::MisplacedHeader, whole));
    }
    if name != ENGINE_NAME {
        return Err(ParseError::new(
            ParseErrorKind::UnknownEngine(name.to_owned()),
            if name.is_empty() { whole } else { name_span },
        ));
    }
    Ok(Header {
        span: whole,
        name: name.to_owned(),
        name_span,
    })
}

// ---------------------------------------------------------------------------------------------
// Control statements and blocks.

fn statement(
    source: &str,
    whole: Span,
    body: Range<usize>,
    builder: &mut Builder,
) -> Result<(), ParseError> {
    let mut p = Parser::new(source, body);
    let keyword = match p.peek()? {
        Token {
            kind: TokenKind::Word(w),
            span,
        } if is_control_keyword(&w) => Some((w, span)),
        _ => None,
    };
    let Some((keyword, keyword_span)) = keyword else {
        let expr = p.expr_required("a statement")?;
        p.expect_end()?;
        builder.push(Node::Eval { span: whole, expr });
        return Ok(());
    };
    p.next()?;
    match keyword.as_str() {
        "if" => {
            let cond = p.expr_required("a condition after `if`")?;
            p.expect_end()?;
            builder.open(Frame::If {
                head: whole,
                branches: Vec::new(),
                current: (whole, cond),
                otherwise: None,
            })
        }
        "elif" => {
            let cond = p.expr_required("a condition after `elif`")?;
            p.expect_end()?;
            builder.elif(whole, cond)
        }
        "else" => {
            p.expect_end()?;
            builder.otherwise(whole)
        }
        "endif" => {
            p.expect_end()?;
            builder.close_if(whole)
        }
        "while" => {
            let cond = p.expr_required("a condition after `while`")?;
            p.expect_end()?;
            builder.while_statement(whole, cond)
        }
        "do" => {
            p.expect_end()?;
            builder.open(Frame::Do { head: whole })
        }
        "done" => {
            p.expect_end()?;
            builder.done(whole, keyword_span)
        }
        "for" => {
            let init = p.expr_optional()?;
            p.expect_semicolon("`;` after the initialisation of `for`")?;
            let cond = p.expr_optional()?;
            p.expect_semicolon("`;` after the condition of `for`")?;
            let step = p.expr_optional()?;
            p.expect_end()?;
            builder.open(Frame::For {
                head: whole,
                init,
                cond,
                step,
            })
        }
        "foreach" => foreach(&mut p, whole, builder),
        "break" | "continue" => {
            p.expect_end()?;
            if !builder.in_loop() {
                return Err(ParseError::new(
                    ParseErrorKind::OutsideLoop(if keyword == "break" {
                        "break"
                    } else {
                        "continue"
                    }),
                    whole,
                ));
            }
            builder.push(if keyword == "break" {
                Node::Break { span: whole }
            } else {
                Node::Continue { span: whole }
            });
            Ok(())
        }
        _ => unreachable!("is_control_keyword lists the keywords handled above"),
    }
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
    if in_tok.kind != TokenKind::Word("in".to_owned()) {
        return Err(ParseError::new(
            ParseErrorKind::Expected("`in` after the variable of `foreach`"),
            in_tok.span,
        ));
    }
    let iterable = p.expr_required("a formula after `in`")?;
    p.expect_end()?;
    builder.open(Frame::Foreach {
        head: whole,
        var,
        var_span: tok.span,
        iterable,
    })
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
        /// Set at `else`: the `else` statement and the nodes of the branches before.
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

    fn is_loop(&self) -> bool {
        !matches!(self, Frame::If { .. })
    }
}

#[derive(Debug)]
struct Builder {
    /// Open blocks with the nodes gathered so far in each; `stack[0]` is the top level.
    stack: Vec<(Option<Frame>, Vec<Node>)>,
}

impl Builder {
    fn new() -> Self {
        Builder {
            stack: vec![(None, Vec::new())],
        }
    }

    fn push(&mut self, node: Node) {
        if let Some(top) = self.stack.last_mut() {
            top.1.push(node);
        }
    }

    fn open(&mut self, frame: Frame) -> Result<(), ParseError> {
        if self.stack.len() > MAX_NESTING {
            return Err(ParseError::new(ParseErrorKind::TooDeep, frame.head()));
        }
        self.stack.push((Some(frame), Vec::new()));
        Ok(())
    }

    fn in_loop(&self) -> bool {
        self.stack
            .iter()
            .any(|(frame, _)| frame.as_ref().is_some_and(Frame::is_loop))
    }

    fn top_frame(&self) -> Option<&Frame> {
        self.stack.last().and_then(|(frame, _)| frame.as_ref())
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
        });
        Ok(())
    }

    /// `while`: closes an open `do`, else opens a loop.
    fn while_statement(&mut self, span: Span, cond: Expr) -> Result<(), ParseError> {
        if !matches!(self.top_frame(), Some(Frame::Do { .. })) {
            return self.open(Frame::While { head: span, cond });
        }
        let Some((Some(Frame::Do { head }), body)) = self.stack.pop() else {
            return Err(self.mismatch(span, "while"));
        };
        self.push(Node::DoWhile {
            span: head.to(span),
            head,
            body,
            end: span,
            cond,
        });
        Ok(())
    }

    fn done(&mut self, end: Span, _keyword: Span) -> Result<(), ParseError> {
        if !matches!(
            self.top_frame(),
            Some(Frame::While { .. } | Frame::For { .. } | Frame::Foreach { .. })
        ) {
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

#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    kind: TokenKind,
    span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum TokenKind {
    Int(i64),
    Str(String),
    Var(String),
    Word(String),
    Punct(&'static str),
    End,
}

const PUNCTS: [&str; 27] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+", "-", "*", "/", "%", "&", "|",
    "!", "<", ">", "=", "(", ")", "[", "]", "{", "}",
];

struct Parser<'a> {
    source: &'a str,
    pos: usize,
    end: usize,
    /// Whether the last token ended an operand (so that `%` there is the remainder operator).
    after_operand: bool,
    peeked: Option<Token>,
    depth: usize,
    /// Operators in the formula so far (see [`MAX_OPERATORS`]).
    operators: usize,
}

impl<'a> Parser<'a> {
    fn new(source: &'a str, range: Range<usize>) -> Self {
        Parser {
            source,
            pos: range.start,
            end: range.end,
            after_operand: false,
            peeked: None,
            depth: 0,
            operators: 0,
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

    fn lex(&mut self) -> Result<Token, ParseError> {
        let tok = self.lex_raw()?;
        self.after_operand = match &tok.kind {
            TokenKind::Int(_) | TokenKind::Str(_) | TokenKind::Var(_) => true,
            TokenKind::Word(w) => matches!(
                w.as_str(),
                "true" | "false" | "null" | "length" | "size" | "count"
            ),
            TokenKind::Punct(p) => matches!(*p, ")" | "]" | "}"),
            TokenKind::End => false,
        };
        Ok(tok)
    }

    fn lex_raw(&mut self) -> Result<Token, ParseError> {
        let bytes = self.source.as_bytes();
        while self.pos < self.end && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        if start >= self.end {
            return Ok(Token {
                kind: TokenKind::End,
                span: Span::new(self.end, self.end),
            });
        }
        let rest = &self.source[start..self.end];
        let c = bytes[start];
        let token = |kind, end| Token {
            kind,
            span: Span::new(start, end),
        };
        if c.is_ascii_digit() || c == b'_' || c.is_ascii_alphabetic() {
            let len = rest
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
                    Ok(n) => Ok(token(TokenKind::Int(n), self.pos)),
                    Err(NumberError::Invalid) => Err(ParseError::new(
                        ParseErrorKind::InvalidNumber(word.to_owned()),
                        span,
                    )),
                    Err(NumberError::TooLarge) => Err(ParseError::new(
                        ParseErrorKind::NumberTooLarge(word.to_owned()),
                        span,
                    )),
                };
            }
            return Ok(token(TokenKind::Word(word.to_owned()), self.pos));
        }
        if c == b'\'' || c == b'"' {
            let mut value = String::new();
            let mut chars = rest.char_indices().skip(1);
            while let Some((i, ch)) = chars.next() {
                if ch == char::from(c) {
                    self.pos = start + i + 1;
                    return Ok(token(TokenKind::Str(value), self.pos));
                }
                if ch == '\\' {
                    match chars.next() {
                        Some((_, escaped)) => value.push(escaped),
                        None => break,
                    }
                } else {
                    value.push(ch);
                }
            }
            return Err(ParseError::new(
                ParseErrorKind::UnterminatedString,
                Span::new(start, start + 1),
            ));
        }
        if c == b'%' && !self.after_operand {
            let name_len = rest[1..]
                .find(|ch: char| ch == '%' || !is_name_char(ch))
                .unwrap_or(rest.len() - 1);
            if name_len > 0 && rest[1 + name_len..].starts_with('%') {
                let name = &rest[1..=name_len];
                self.pos = start + name_len + 2;
                return Ok(token(TokenKind::Var(name.to_owned()), self.pos));
            }
        }
        if c == b';' {
            self.pos = start + 1;
            return Ok(token(TokenKind::Punct(";"), self.pos));
        }
        if c == b'.' {
            self.pos = start + 1;
            return Ok(token(TokenKind::Punct("."), self.pos));
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

    /// Counts one more operator at `span`, refusing too many.
    fn count_operator(&mut self, span: Span) -> Result<(), ParseError> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(ParseError::new(ParseErrorKind::TooManyOperators, span));
        }
        Ok(())
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

    fn expect_semicolon(&mut self, what: &'static str) -> Result<(), ParseError> {
        let tok = self.next()?;
        if tok.kind == TokenKind::Punct(";") {
            Ok(())
        } else {
            Err(ParseError::new(ParseErrorKind::Expected(what), tok.span))
        }
    }

    fn expr_optional(&mut self) -> Result<Option<Expr>, ParseError> {
        match self.peek()?.kind {
            TokenKind::End | TokenKind::Punct(";") => Ok(None),
            _ => self.expr(0).map(Some),
        }
    }

    fn expr_required(&mut self, what: &'static str) -> Result<Expr, ParseError> {
        let tok = self.peek()?;
        if tok.kind == TokenKind::End {
            return Err(ParseError::new(ParseErrorKind::Expected(what), tok.span));
        }
        self.expr(0)
    }

    /// Precedence climbing; `min` is the weakest binding accepted. Assignment (weakest,
    /// right-associative) is handled here too.
    fn expr(&mut self, min: u8) -> Result<Expr, ParseError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let span = self.peek()?.span;
            return Err(ParseError::new(ParseErrorKind::TooDeep, span));
        }
        let mut lhs = self.unary()?;
        loop {
            let tok = self.peek()?;
            let TokenKind::Punct(p) = tok.kind else { break };
            if p == "=" {
                if min > 1 {
                    break;
                }
                self.next()?;
                self.count_operator(tok.span)?;
                let ExprKind::Var(name) = &lhs.kind else {
                    return Err(ParseError::new(ParseErrorKind::AssignTarget, lhs.span));
                };
                let value = self.operand_after(tok.span, 1)?;
                lhs = Expr {
                    span: lhs.span.to(value.span),
                    kind: ExprKind::Assign {
                        name: name.clone(),
                        name_span: lhs.span,
                        op_span: tok.span,
                        value: Box::new(value),
                    },
                };
                continue;
            }
            let Some(op) = binary_op(p) else { break };
            let prec = op.precedence();
            if prec < min {
                break;
            }
            self.next()?;
            self.count_operator(tok.span)?;
            let rhs = self.operand_after(tok.span, prec + 1)?;
            lhs = Expr {
                span: lhs.span.to(rhs.span),
                kind: ExprKind::Binary {
                    op,
                    op_span: tok.span,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
            };
        }
        self.depth -= 1;
        Ok(lhs)
    }

    /// The right operand of the operator at `op_span`.
    fn operand_after(&mut self, op_span: Span, min: u8) -> Result<Expr, ParseError> {
        self.check_operand(op_span)?;
        self.expr(min)
    }

    /// Refuses an operator at `op_span` that nothing follows.
    fn check_operand(&mut self, op_span: Span) -> Result<(), ParseError> {
        let tok = self.peek()?;
        if matches!(
            tok.kind,
            TokenKind::End | TokenKind::Punct(";" | ")" | "]" | "}")
        ) {
            return Err(ParseError::new(ParseErrorKind::MissingOperand, op_span));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        let tok = self.peek()?;
        match tok.kind {
            TokenKind::Punct(p @ ("!" | "-")) => {
                self.next()?;
                self.count_operator(tok.span)?;
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    return Err(ParseError::new(ParseErrorKind::TooDeep, tok.span));
                }
                self.check_operand(tok.span)?;
                let operand = self.unary()?;
                self.depth -= 1;
                Ok(Expr {
                    span: tok.span.to(operand.span),
                    kind: ExprKind::Unary {
                        op: if p == "!" { UnaryOp::Not } else { UnaryOp::Neg },
                        op_span: tok.span,
                        operand: Box::new(operand),
                    },
                })
            }
            TokenKind::Punct(p @ ("++" | "--")) => {
                self.next()?;
                self.count_operator(tok.span)?;
                let target = self.next()?;
                let TokenKind::Var(name) = target.kind else {
                    return Err(ParseError::new(ParseErrorKind::StepTarget, target.span));
                };
                Ok(Expr {
                    span: tok.span.to(target.span),
                    kind: ExprKind::Step {
                        name,
                        name_span: target.span,
                        op_span: tok.span,
                        increment: p == "++",
                        prefix: true,
                    },
                })
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> Result<Expr, ParseError> {
        let mut expr = self.primary()?;
        loop {
            let tok = self.peek()?;
            match tok.kind {
                TokenKind::Punct(open @ ("[" | "{")) => {
                    if !matches!(expr.kind, ExprKind::Var(_)) {
                        return Err(ParseError::new(
                            if matches!(expr.kind, ExprKind::Index { .. }) {
                                ParseErrorKind::MultiLevel
                            } else {
                                ParseErrorKind::IndexTarget
                            },
                            tok.span,
                        ));
                    }
                    self.next()?;
                    self.count_operator(tok.span)?;
                    let close = if open == "[" { "]" } else { "}" };
                    let index = self.expr_required(if open == "[" {
                        "an index inside `[ ]`"
                    } else {
                        "a key inside `{ }`"
                    })?;
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
                    expr = Expr {
                        span: expr.span.to(end.span),
                        kind: ExprKind::Index {
                            base: Box::new(expr),
                            index: Box::new(index),
                            brace: open == "{",
                        },
                    };
                }
                TokenKind::Punct(".") => {
                    self.next()?;
                    self.count_operator(tok.span)?;
                    let name = self.next()?;
                    let is_length = matches!(&name.kind, TokenKind::Word(w)
                        if matches!(w.as_str(), "length" | "size" | "count"));
                    if !is_length {
                        return Err(ParseError::new(
                            ParseErrorKind::Expected("`length`, `size` or `count` after `.`"),
                            name.span,
                        ));
                    }
                    if !matches!(expr.kind, ExprKind::Var(_) | ExprKind::Index { .. }) {
                        return Err(ParseError::new(ParseErrorKind::IndexTarget, tok.span));
                    }
                    expr = Expr {
                        span: expr.span.to(name.span),
                        kind: ExprKind::Length {
                            base: Box::new(expr),
                            name_span: name.span,
                        },
                    };
                }
                TokenKind::Punct(p @ ("++" | "--")) => {
                    let ExprKind::Var(name) = &expr.kind else {
                        return Err(ParseError::new(ParseErrorKind::StepTarget, expr.span));
                    };
                    self.next()?;
                    self.count_operator(tok.span)?;
                    expr = Expr {
                        span: expr.span.to(tok.span),
                        kind: ExprKind::Step {
                            name: name.clone(),
                            name_span: expr.span,
                            op_span: tok.span,
                            increment: p == "++",
                            prefix: false,
                        },
                    };
                }
                _ => return Ok(expr),
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        let tok = self.next()?;
        let kind = match tok.kind {
            TokenKind::Int(n) => ExprKind::Int(n),
            TokenKind::Str(s) => ExprKind::Str(s),
            TokenKind::Var(name) => ExprKind::Var(name),
            TokenKind::Word(w) => match w.as_str() {
                "null" => ExprKind::Null,
                "true" => ExprKind::Bool(true),
                "false" => ExprKind::Bool(false),
                _ => {
                    return Err(ParseError::new(ParseErrorKind::UnknownWord(w), tok.span));
                }
            },
            TokenKind::Punct("(") => {
                let inner = self.expr_required("a formula inside `( )`")?;
                let close = self.next()?;
                if close.kind != TokenKind::Punct(")") {
                    return Err(ParseError::new(
                        ParseErrorKind::Expected("`)` closing the parenthesis"),
                        close.span,
                    ));
                }
                return Ok(Expr {
                    span: tok.span.to(close.span),
                    kind: inner.kind,
                });
            }
            TokenKind::End => {
                return Err(ParseError::new(
                    ParseErrorKind::Expected("an operand"),
                    tok.span,
                ));
            }
            other @ TokenKind::Punct(_) => {
                return Err(ParseError::new(
                    ParseErrorKind::Unexpected(describe(&other)),
                    tok.span,
                ));
            }
        };
        Ok(Expr {
            span: tok.span,
            kind,
        })
    }
}

/// Characters a variable's name may hold: anything but spaces, `%`, quotes and brackets (so
/// `%yrn:yahoo:::tenant:role:name/hosts/ip%` is one name).
fn is_name_char(c: char) -> bool {
    !(c.is_whitespace() || matches!(c, '%' | '\'' | '"' | '[' | ']' | '{' | '}' | '(' | ')'))
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
        TokenKind::Int(n) => format!("number {n}"),
        TokenKind::Str(_) => "string".to_owned(),
        TokenKind::Var(name) => format!("variable %{name}%"),
        TokenKind::Word(w) => format!("`{w}`"),
        TokenKind::Punct(p) => format!("`{p}`"),
        TokenKind::End => "end of statement".to_owned(),
    }
}
