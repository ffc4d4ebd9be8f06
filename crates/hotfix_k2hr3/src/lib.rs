//! K2HR3 templates: a parser to a tree with byte spans, and an expander.
//!
//! K2HR3 stores RESOURCE data as strings that its template engine (the API server's
//! `k2hr3template` module) expands. Its manual describes the language loosely, and the engine
//! disagrees with it in many places; this crate follows the engine, as observed on it (the
//! `shared_` conformance test compares the two on every fixture and on generated templates).
//! Everything here works on `&str` and returns values: nothing reads files or prints.
//!
//! # The language, as the engine runs it
//!
//! * **Statements** are `{{ … }}` and end at the first `}}` that is not an escape (`}}}` is
//!   one: write `%o%{'k'} }}`), or at the end of the template. `{{{` is an escaped `{{` and
//!   `}}}` an escaped `}}`, in text and in statements. When the template ends with an escape,
//!   what follows its last statement is lost; an empty template is refused
//!   ([`ParseErrorKind::Empty`]).
//! * **Header**: `{{#!k2hr3template }}` at byte 0 is removed with the line breaks after it; any
//!   other name there is refused ([`ParseErrorKind::UnknownEngine`]). Anywhere else `{{#!…}}` is
//!   a comment.
//! * **Lines**: nothing is adjusted. A statement vanishes, the text around it (its line break
//!   too) stays.
//! * **Comments** `{{# … }}`; **prints** `{{= formula }}`; control statements (`if`, `elif`,
//!   `else`, `endif`, `while`, `done`, `do`, `for`, `foreach`, `break`, `continue`, in any
//!   case); any other statement is formulas separated by `;`, evaluated for their effect.
//! * **Blocks**: an `if` directly inside an `if`, and a loop directly inside a loop, are
//!   refused ([`ParseErrorKind::DirectlyNested`]); with the other kind between them they are
//!   accepted. `break` and `continue` leave the innermost loop, or the `if` they are in when no
//!   loop is open; at the top level they do nothing. A second `done` right after the `done` of
//!   a loop inside an `if` does nothing; a second `endif` right after the `endif` of an `if`
//!   inside a loop keeps only that `if`'s first branch, and when its condition does not hold
//!   the rest of the loop body runs once there, then again after the `if`.
//!   Inside a block where a `do … while` has ended, any later `while` in that block is refused
//!   (the engine takes it as closing that `do` again).
//! * **Operator text**: a text that is exactly an operator (`-`, `<`, `&&`…) right after a
//!   statement whose formula has operators vanishes (`{{= %p% + 1 }}-{{= %p% + 9 }}` prints no
//!   `-`); inside a block, a formula starting with `++` or `--` right after a formula that
//!   ends as a number, a variable or a calculation is refused.
//! * **Literals**: decimal (a leading `0` stays decimal), `0x` or `x` hexadecimal, `0o` octal,
//!   `0b` binary (prefixes in lower case), no fraction, no sign; `'…'` and `"…"` strings,
//!   without escapes, never empty; `null`, `true`, `false`. No parentheses.
//! * **Variables** `%name%` (any characters but spaces and `%`), `%v%[i]` or `%v%{k}` (one
//!   level), `%v%.length` (`.size`, `.count`). A variable never set reads as `null`.
//! * **Formulas** are read from the left: an operand, then an operator whose right side is the
//!   rest of the formula, so equal priorities group to the right (`10 - 2 - 3` is 11); an
//!   operator binding tighter than the rest's top operator takes the rest's left operand, one
//!   level only. Priorities: `* / %`, `+ -`, `<< >>`, `< > <= >=`, `== !=`, `&`, `|`, `&&`,
//!   `||`, `=`; prefix `! ++ --` above all. Each operator accepts only some kinds of operands
//!   (`7 - 3 == 2`, `2 > 1 && 1 < 2` and `'a' - 1` do not load): [`ParseErrorKind::Operands`].
//! * **Values** are JavaScript's: numbers are doubles (`7 / 2` is 3.5, bitwise operators work
//!   on 32 bits), text is JavaScript's `String()` (`null` prints nothing, arrays their elements
//!   joined by commas, objects `[object Object]`). Each operator's conversions are as the engine
//!   applies them ([`expand`]); where it refuses a value, expansion fails.
//! * **Conditions** (`if`, `while`, `&&`, `||`) and comparisons see numbers by their integer
//!   part (`parseInt` of their text: `0.1` is false, `1e21 > 12` is false); `==` has the
//!   engine's own rules (`null == 0`, `null == [0]`, `true == 'a'`, a number never equals a
//!   string, an object or an array that is no number equals only itself). A missing element
//!   is `undefined`, which most operators refuse. Reading a variable never set sets it to
//!   `null` (`.length` is empty before, 0 after). An array keeps the properties that are no
//!   index (`%a%['k'] = 1`): reads and `foreach` see them, printing and `.length` do not.
//! * **Branches**: a branch with nothing in it is passed over even when its condition holds
//!   (`{{ if true }}{{ else }}b{{ endif }}` gives `b`).
//! * **`foreach`** walks a variable: an array's indexes (as strings `'0'`, `'1'`…) or an
//!   object's keys; any other value fails.
//! * **Failures**: the engine writes its error in the output and goes on; hotfix stops at the
//!   first one, and [`ExpandError::output`] holds what the engine keeps before its message.
//! * **Bounds**: the engine has none (it loops for ever on `while true`). The expander counts
//!   loop iterations over the whole template and stops with [`ExpandErrorKind::IterationLimit`]
//!   when [`Limits::max_iterations`] is passed, with [`ExpandErrorKind::OutputLimit`] when the
//!   output or a string would grow past [`Limits::max_output`] bytes, and with
//!   [`ExpandErrorKind::WorkLimit`] when the bytes built or copied in all pass
//!   [`WORK_PER_OUTPUT`] times that. Blocks nested deeper than [`MAX_NESTING`] and formulas of
//!   more than [`MAX_OPERATORS`] operators are refused by the parser.

mod expand;
mod syntax;
mod value;

use std::fmt;
use std::ops::Range;

pub use expand::{ExpandError, ExpandErrorKind, Limits, Variables, WORK_PER_OUTPUT, expand};
pub use syntax::{
    BinaryOp, Branch, ENGINE_NAME, Expr, ExprKind, Header, MAX_NESTING, MAX_OPERATORS, Node,
    Template, parse,
};
pub use value::{Value, number_to_string, string_to_number};

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
    #[error("the template is empty: the engine refuses a template with nothing in it")]
    Empty,
    #[error("a string is not closed by its quote")]
    UnterminatedString,
    #[error("an empty string `''` is refused by the engine")]
    EmptyString,
    #[error("a variable is not closed by its `%`")]
    UnclosedVariable,
    #[error("unknown template engine `{0}`: only `k2hr3template` is supported")]
    UnknownEngine(String),
    #[error("`{0}` is never closed")]
    UnclosedBlock(&'static str),
    #[error("{}", mismatched(closer, *open))]
    Mismatched {
        closer: &'static str,
        open: Option<(&'static str, Span)>,
    },
    #[error("`{inner}` directly inside `{}`: the engine refuses this nesting", outer.0)]
    DirectlyNested {
        inner: &'static str,
        outer: (&'static str, Span),
    },
    #[error("an operator is missing its operand")]
    MissingOperand,
    #[error("`{op}` does not take {left} on its left and {right} on its right")]
    Operands {
        op: &'static str,
        left: &'static str,
        right: &'static str,
    },
    #[error("`{op}` does not take {found}")]
    Operand {
        op: &'static str,
        found: &'static str,
    },
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
    #[error("`.length` is read on a variable, not on an element")]
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
