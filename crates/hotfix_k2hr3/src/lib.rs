//! K2HR3 templates: a parser to a tree with byte spans, and an expander.
//!
//! K2HR3 stores RESOURCE data as strings that its template engine expands. The only
//! description of the language is the engine's documentation ("K2HR3 Template Engine"); this
//! crate follows it, and where it is silent makes the choices listed below. Everything here
//! works on `&str` and returns values: nothing reads files or prints.
//!
//! # The language, as implemented
//!
//! * **Statements** are `{{ … }}`. `{{{` in text is an escaped `{{`, `}}}` an escaped `}}`.
//!   A statement ends at the first `}}` outside a quoted string and outside `{ }` braces (so
//!   `{{= %o%{'k'}}}` is one statement); a comment or header ends at the first `}}`.
//! * **Header**: `{{#!k2hr3template }}` may open the template (byte 0, or right after a UTF-8
//!   byte-order mark, which vanishes with the header's line). Any other engine name
//!   is refused ([`ParseErrorKind::UnknownEngine`]), and so is a header anywhere else
//!   ([`ParseErrorKind::MisplacedHeader`]).
//! * **Comments** `{{# … }}`; **prints** `{{= formula }}`; any other statement is a control
//!   statement (`if`, `elif`, `else`, `endif`, `while`, `done`, `do`, `for`, `foreach`,
//!   `break`, `continue`) or a formula evaluated for its effect (`{{ %a% = 1 }}`).
//! * **Lines**: a line holding only statements that print nothing (everything but `{{= }}`)
//!   and spaces or tabs is removed with its line break, as the documentation's sample shows
//!   ("line feeds are adjusted"). On any other line only the statements themselves vanish.
//! * **Literals**: decimal; `0x` or `x` hexadecimal; `0o` octal, and a leading `0` (the
//!   documentation's octal example is `01234`) octal too; `0b` binary; `'…'` and `"…"`
//!   strings where `\` makes the next character literal (`\n` is `n`); `null`, `true`,
//!   `false`.
//! * **Variables** `%name%`: the name is any run of characters but spaces, `%`, quotes and
//!   brackets. `%v%[i]` indexes an array (a number or a numeric string) or an object (a key);
//!   `%v%{k}` reads an object's key; `.length`, `.size`, `.count` give the number of elements
//!   (characters for a string). A second index (`%v%[0][1]`) is refused, as the documentation
//!   says multi-level access is not supported. After an operand, `%` is the remainder operator.
//! * **Operators**, tightest first (C's order): postfix `++ --`, index, `.length`; prefix
//!   `! - ++ --`; `* / %`; `+ -`; `<< >>`; `< <= > >=`; `== !=`; `&`; `|`; `&&`; `||`; `=`
//!   (right-associative, only a plain variable on its left). Parentheses group. Unary `-` is
//!   not in the documentation and is accepted so that negative numbers can be written.
//! * **Numbers** are 64-bit signed integers. `/` truncates toward zero, `%` takes the sign of
//!   the dividend; division or remainder by zero and overflow are errors; `&`, `|`, `<<`, `>>`
//!   work on the 64-bit two's complement (`>>` keeps the sign; a shift count outside 0..=63 is
//!   an error; bits shifted out of `<<` are lost).
//! * **Types** (the documentation: "aligned to the type on the left side as much as
//!   possible"): `+` with a string on the left concatenates the right side's text; otherwise
//!   arithmetic and bitwise operators convert both sides to numbers (`true` 1, `false` and
//!   `null` 0, a string holding a number literal its number) and fail when one cannot be.
//!   Comparisons convert the right side to the left side's type: to a number (when it cannot
//!   be, `==` is false, `!=` true and orderings false), to text (strings compare by code
//!   point), to a boolean (truthiness; `false < true`); `null` equals only `null`; arrays and
//!   objects compare equal when their contents are, and never order.
//! * **Truthiness**: `false`, `null`, `0`, `''` are false; every other value is true.
//! * **Printing**: strings as they are, numbers in decimal, `true`/`false`/`null`, arrays and
//!   objects as compact JSON.
//! * **Variables not set** (neither given nor assigned) make expansion fail
//!   ([`ExpandErrorKind::UndefinedVariable`]); an element that is not there (an index past the
//!   end, a missing key) reads as `null`.
//! * **`foreach`** visits an array's elements, or an object's keys in their order; other
//!   values are an error. `while` closes the innermost open `do`; elsewhere it opens a loop.
//!   `break` and `continue` outside every loop are refused by the parser; `continue` in a
//!   `for` runs the step, then the condition.
//! * **Bounds**: the documentation states none (so the engine, as documented, loops for ever
//!   on `while true`). The expander counts loop iterations over the whole template and stops
//!   with [`ExpandErrorKind::IterationLimit`] when [`Limits::max_iterations`] is passed, and
//!   with [`ExpandErrorKind::OutputLimit`] when the output or a string would grow past
//!   [`Limits::max_output`] bytes, and with [`ExpandErrorKind::WorkLimit`] when the bytes built
//!   or copied in all (the bound on total work and memory) pass [`WORK_PER_OUTPUT`] times
//!   that; nothing is returned then. Formulas and blocks nested deeper
//!   than [`MAX_NESTING`], and formulas of more than [`MAX_OPERATORS`] operators, are refused
//!   by the parser.

mod expand;
mod syntax;
mod value;

use std::fmt;
use std::ops::Range;

pub use expand::{ExpandError, ExpandErrorKind, Limits, Variables, WORK_PER_OUTPUT, expand};
pub use syntax::{
    BinaryOp, Branch, ENGINE_NAME, Expr, ExprKind, Header, MAX_NESTING, MAX_OPERATORS, Node,
    Template, UnaryOp, parse,
};
pub use value::Value;

/// A byte range of the template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// From this span's start to `other`'s end.
    #[must_use]
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start, other.end.max(self.start))
    }

    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

impl From<Range<usize>> for Span {
    fn from(range: Range<usize>) -> Self {
        Span::new(range.start, range.end)
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// Why a template does not parse, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ParseError {
    pub kind: ParseErrorKind,
    pub span: Span,
}

impl ParseError {
    pub fn new(kind: ParseErrorKind, span: Span) -> Self {
        ParseError { kind, span }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    #[error("`{{{{` opens a statement that no `}}}}` closes")]
    UnclosedStatement,
    #[error("a string is not closed by its quote")]
    UnterminatedString,
    #[error("the engine header `{{{{#!…}}}}` must start the template")]
    MisplacedHeader,
    #[error("unknown template engine `{0}`: only `k2hr3template` is supported")]
    UnknownEngine(String),
    #[error("`{0}` is never closed")]
    UnclosedBlock(&'static str),
    #[error("{}", mismatched(closer, *open))]
    Mismatched {
        closer: &'static str,
        open: Option<(&'static str, Span)>,
    },
    #[error("`{0}` outside a loop")]
    OutsideLoop(&'static str),
    #[error("an operator is missing its operand")]
    MissingOperand,
    #[error("expected {0}")]
    Expected(&'static str),
    #[error("unexpected {0}")]
    Unexpected(String),
    #[error("unexpected character `{0}`")]
    UnexpectedCharacter(String),
    #[error("unknown word `{0}`: a variable is written `%{0}%`")]
    UnknownWord(String),
    #[error("invalid number `{0}`")]
    InvalidNumber(String),
    #[error("the number `{0}` is larger than 2^63-1")]
    NumberTooLarge(String),
    #[error("only a variable can be assigned")]
    AssignTarget,
    #[error("only a variable can be incremented or decremented")]
    StepTarget,
    #[error("only a variable can be indexed")]
    IndexTarget,
    #[error(
        "multi-level arrays and objects are not supported: assign the element to a variable first"
    )]
    MultiLevel,
    #[error("nested more than {} levels deep", MAX_NESTING)]
    TooDeep,
    #[error("more than {} operators in one formula", MAX_OPERATORS)]
    TooManyOperators,
}

fn mismatched(closer: &str, open: Option<(&str, Span)>) -> String {
    let expected = match closer {
        "elif" | "else" | "endif" => "an open `if`",
        "while" => "an open `do`",
        _ => "an open `while`, `for` or `foreach`",
    };
    match open {
        Some((name, _)) => {
            format!("`{closer}` needs {expected}, but the innermost open block is `{name}`")
        }
        None => format!("`{closer}` needs {expected}, and no block is open"),
    }
}
