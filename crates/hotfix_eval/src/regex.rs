//! A small backtracking matcher for the subset of Python's `re` that `allowed_pattern`s use.
//!
//! Heat checks a value with `re.compile(pattern).match(value)` and accepts it only when the
//! match covers the whole value (`match.end() == len(value)`): the *first* match in Python's
//! backtracking order must reach the end; another alternative that would is never tried
//! (`a|ab` rejects `ab`). This module reproduces exactly that for literals, `.`, classes
//! (`[a-z]`, `[^…]`, `\d \w \s` and their negations), the quantifiers `* + ? {m} {m,} {,n}
//! {m,n}` (greedy and lazy), alternation, capturing and non-capturing groups, and the anchors
//! `^ $ \A \Z \b \B`. Anything else (flags, named groups, look-around, back-references, possessive
//! quantifiers, `\N{…}`, POSIX-like `[:…:]`) makes the pattern [`Compiled::Unsupported`], and a
//! class escape tested against a non-ASCII character, or a match that takes too many steps,
//! makes the result unknown: callers then say nothing.
//!
//! Syntax errors that are certain in Python are reported with Python's own text
//! (`unterminated character set at position 0`).

/// The outcome of compiling a pattern.
#[derive(Debug)]
pub enum Compiled {
    Regex(Regex),
    /// Python's `re.error` text, e.g. `nothing to repeat at position 0`.
    Invalid(String),
    /// Valid or not, the pattern uses syntax this module does not model.
    Unsupported,
}

/// A compiled pattern.
#[derive(Debug)]
pub struct Regex {
    root: Node,
}

#[derive(Debug, Clone)]
enum Node {
    Char(char),
    /// `.`: anything but a newline.
    Any,
    Class(Class),
    /// `^`, `\A`.
    Start,
    /// `$`: the end, or before a final newline.
    End,
    /// `\Z`.
    EndAbsolute,
    /// `\b` (true) and `\B` (false).
    WordBoundary(bool),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Builtin {
    Digit,
    Word,
    Space,
}

#[derive(Debug, Clone)]
enum ClassItem {
    Char(char),
    Range(char, char),
    /// `\d`, `\w`, `\s` (negated: `\D`, `\W`, `\S`).
    Builtin(Builtin, bool),
}

#[derive(Debug, Clone)]
struct Class {
    negated: bool,
    items: Vec<ClassItem>,
}

/// `None`: the answer depends on Unicode tables this module does not carry.
fn builtin_matches(builtin: Builtin, c: char) -> Option<bool> {
    if !c.is_ascii() {
        return None;
    }
    Some(match builtin {
        Builtin::Digit => c.is_ascii_digit(),
        Builtin::Word => c.is_ascii_alphanumeric() || c == '_',
        // Python's Unicode `\s` includes the ASCII separators \x1c-\x1f.
        Builtin::Space => matches!(
            c,
            ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '\x1c'..='\x1f'
        ),
    })
}

impl Class {
    fn matches(&self, c: char) -> Option<bool> {
        let mut unknown = false;
        let mut found = false;
        for item in &self.items {
            let hit = match *item {
                ClassItem::Char(x) => Some(x == c),
                ClassItem::Range(a, b) => Some(a <= c && c <= b),
                ClassItem::Builtin(b, negated) => builtin_matches(b, c).map(|m| m != negated),
            };
            match hit {
                Some(true) => {
                    found = true;
                    break;
                }
                Some(false) => {}
                None => unknown = true,
            }
        }
        if !found && unknown {
            return None;
        }
        Some(found != self.negated)
    }
}

/// Compiles a pattern with Python's syntax.
pub fn compile(pattern: &str) -> Compiled {
    let mut parser = Parser {
        chars: pattern.chars().collect(),
        pos: 0,
        depth: 0,
    };
    match parser.alternation() {
        Ok(root) => {
            if parser.pos < parser.chars.len() {
                // Only an unmatched `)` stops the top level early.
                return Compiled::Invalid(format!(
                    "unbalanced parenthesis at position {}",
                    parser.pos
                ));
            }
            Compiled::Regex(Regex { root })
        }
        Err(ParseError::Invalid(message)) => {
            // Python's tokenizer reads one token ahead, so a lone trailing backslash is
            // reported as soon as the token before it is read: before an error found there.
            let len = parser.chars.len();
            let trailing = parser
                .chars
                .iter()
                .rev()
                .take_while(|&&c| c == '\\')
                .count();
            if trailing % 2 == 1 && parser.pos + 1 >= len {
                return Compiled::Invalid(format!(
                    "bad escape (end of pattern) at position {}",
                    len - 1
                ));
            }
            Compiled::Invalid(message)
        }
        Err(ParseError::Unsupported) => Compiled::Unsupported,
    }
}

enum ParseError {
    Invalid(String),
    Unsupported,
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
}

const MAX_GROUP_DEPTH: usize = 50;

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn invalid<T>(message: String) -> Result<T, ParseError> {
        Err(ParseError::Invalid(message))
    }

    fn alternation(&mut self) -> Result<Node, ParseError> {
        let mut branches = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.pos += 1;
            branches.push(self.sequence()?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Concat(Vec::new()))
        } else {
            Node::Alt(branches)
        })
    }

    fn sequence(&mut self) -> Result<Node, ParseError> {
        let mut items: Vec<Node> = Vec::new();
        // Whether the last item may take a quantifier, and whether it already has one.
        let mut last_repeatable = false;
        let mut last_repeated = false;
        while let Some(c) = self.peek() {
            match c {
                '|' | ')' => break,
                '*' | '+' | '?' | '{' => {
                    let start = self.pos;
                    let Some((min, max)) = self.quantifier()? else {
                        // A `{` that is not a repeat is a literal.
                        self.pos += 1;
                        items.push(Node::Char('{'));
                        last_repeatable = true;
                        last_repeated = false;
                        continue;
                    };
                    if last_repeated {
                        return Self::invalid(format!("multiple repeat at position {start}"));
                    }
                    if !last_repeatable {
                        return Self::invalid(format!("nothing to repeat at position {start}"));
                    }
                    let mut greedy = true;
                    match self.peek() {
                        Some('?') => {
                            self.pos += 1;
                            greedy = false;
                        }
                        // Possessive quantifiers (Python 3.11+).
                        Some('+') => return Err(ParseError::Unsupported),
                        _ => {}
                    }
                    let node = items.pop().unwrap_or(Node::Concat(Vec::new()));
                    items.push(Node::Repeat {
                        node: Box::new(node),
                        min,
                        max,
                        greedy,
                    });
                    last_repeated = true;
                }
                _ => {
                    let (node, repeatable) = self.atom()?;
                    items.push(node);
                    last_repeatable = repeatable;
                    last_repeated = false;
                }
            }
        }
        Ok(if items.len() == 1 {
            items.pop().unwrap_or(Node::Concat(Vec::new()))
        } else {
            Node::Concat(items)
        })
    }

    /// At `*`, `+`, `?` or `{`: the bounds, or `None` for a `{` that is a literal.
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, ParseError> {
        let start = self.pos;
        let c = self.peek();
        match c {
            Some('*') => {
                self.pos += 1;
                Ok(Some((0, None)))
            }
            Some('+') => {
                self.pos += 1;
                Ok(Some((1, None)))
            }
            Some('?') => {
                self.pos += 1;
                Ok(Some((0, Some(1))))
            }
            _ => {
                // `{m}`, `{m,}`, `{,n}`, `{m,n}`: digits only, else a literal `{`.
                let mut i = start + 1;
                let mut low = String::new();
                while let Some(d) = self.chars.get(i).filter(|d| d.is_ascii_digit()) {
                    low.push(*d);
                    i += 1;
                }
                let mut high = None;
                if self.chars.get(i) == Some(&',') {
                    i += 1;
                    let mut h = String::new();
                    while let Some(d) = self.chars.get(i).filter(|d| d.is_ascii_digit()) {
                        h.push(*d);
                        i += 1;
                    }
                    high = Some(h);
                }
                if self.chars.get(i) != Some(&'}') {
                    return Ok(None);
                }
                if high.is_none() && low.is_empty() {
                    return Ok(None);
                }
                let parse = |s: &str| -> Result<u32, ParseError> {
                    s.parse::<u32>().map_err(|_| ParseError::Unsupported)
                };
                let min = if low.is_empty() { 0 } else { parse(&low)? };
                let max = match &high {
                    None => Some(min),
                    Some(h) if h.is_empty() => None,
                    Some(h) => Some(parse(h)?),
                };
                if let Some(max) = max
                    && max < min
                {
                    self.pos = i + 1;
                    return Self::invalid(format!(
                        "min repeat greater than max repeat at position {}",
                        start + 1
                    ));
                }
                self.pos = i + 1;
                Ok(Some((min, max)))
            }
        }
    }

    /// One item; the flag says whether a quantifier may follow it.
    fn atom(&mut self) -> Result<(Node, bool), ParseError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(ParseError::Unsupported);
        };
        self.pos += 1;
        match c {
            '.' => Ok((Node::Any, true)),
            '^' => Ok((Node::Start, false)),
            '$' => Ok((Node::End, false)),
            '[' => self.class(start).map(|class| (Node::Class(class), true)),
            '(' => {
                if self.peek() == Some('?') {
                    // Only `(?:…)`: flags, named groups and look-around are not modelled.
                    if self.peek_at(1) != Some(':') {
                        return Err(ParseError::Unsupported);
                    }
                    self.pos += 2;
                }
                self.depth += 1;
                if self.depth > MAX_GROUP_DEPTH {
                    return Err(ParseError::Unsupported);
                }
                let inner = self.alternation()?;
                self.depth -= 1;
                if self.peek() != Some(')') {
                    return Self::invalid(format!(
                        "missing ), unterminated subpattern at position {start}"
                    ));
                }
                self.pos += 1;
                Ok((inner, true))
            }
            '\\' => self.escape(start),
            other => Ok((Node::Char(other), true)),
        }
    }

    /// After a backslash outside a class.
    fn escape(&mut self, start: usize) -> Result<(Node, bool), ParseError> {
        let Some(c) = self.peek() else {
            return Self::invalid(format!("bad escape (end of pattern) at position {start}"));
        };
        self.pos += 1;
        let class = |builtin, negated| {
            Ok((
                Node::Class(Class {
                    negated: false,
                    items: vec![ClassItem::Builtin(builtin, negated)],
                }),
                true,
            ))
        };
        match c {
            'd' => class(Builtin::Digit, false),
            'D' => class(Builtin::Digit, true),
            'w' => class(Builtin::Word, false),
            'W' => class(Builtin::Word, true),
            's' => class(Builtin::Space, false),
            'S' => class(Builtin::Space, true),
            'A' => Ok((Node::Start, false)),
            'Z' => Ok((Node::EndAbsolute, false)),
            'b' => Ok((Node::WordBoundary(true), false)),
            'B' => Ok((Node::WordBoundary(false), false)),
            _ => self.char_escape(c, start).map(|c| (Node::Char(c), true)),
        }
    }

    /// The character a `\c` escape stands for (shared by classes and the top level).
    fn char_escape(&mut self, c: char, start: usize) -> Result<char, ParseError> {
        match c {
            'n' => Ok('\n'),
            't' => Ok('\t'),
            'r' => Ok('\r'),
            'f' => Ok('\x0c'),
            'v' => Ok('\x0b'),
            'a' => Ok('\x07'),
            'x' => self.hex_escape(2, 'x', start),
            'u' => self.hex_escape(4, 'u', start),
            'U' => self.hex_escape(8, 'U', start),
            // Octal escapes, back-references, named characters.
            '0'..='9' | 'N' => Err(ParseError::Unsupported),
            c if c.is_ascii_alphabetic() => {
                Self::invalid(format!("bad escape \\{c} at position {start}"))
            }
            c => Ok(c),
        }
    }

    fn hex_escape(
        &mut self,
        digits: usize,
        letter: char,
        start: usize,
    ) -> Result<char, ParseError> {
        let mut text = String::new();
        while text.len() < digits {
            match self.peek() {
                Some(h) if h.is_ascii_hexdigit() => {
                    text.push(h);
                    self.pos += 1;
                }
                _ => break,
            }
        }
        if text.len() < digits {
            return Self::invalid(format!(
                "incomplete escape \\{letter}{text} at position {start}"
            ));
        }
        u32::from_str_radix(&text, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or(ParseError::Unsupported)
    }

    /// After `[`.
    fn class(&mut self, start: usize) -> Result<Class, ParseError> {
        let unterminated =
            || Self::invalid(format!("unterminated character set at position {start}"));
        let mut negated = false;
        if self.peek() == Some('^') {
            negated = true;
            self.pos += 1;
        }
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let item_start = self.pos;
            let Some(c) = self.peek() else {
                return unterminated();
            };
            self.pos += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            // Python warns about possible nested sets and set operations; not modelled.
            if (c == '[' && matches!(self.peek(), Some(':' | '=' | '.')))
                || (matches!(c, '-' | '&' | '~' | '|') && self.peek() == Some(c))
            {
                return Err(ParseError::Unsupported);
            }
            let low = if c == '\\' {
                match self.class_escape(item_start)? {
                    ClassAtom::Char(x) => x,
                    ClassAtom::Builtin(b, n) => {
                        if self.peek() == Some('-') && self.peek_at(1).is_some_and(|x| x != ']') {
                            // Python quotes the whole range: consume its high bound first.
                            self.pos += 1;
                            let high_start = self.pos;
                            if self.peek() == Some('\\') {
                                self.pos += 1;
                                self.class_escape(high_start)?;
                            } else {
                                self.pos += 1;
                            }
                            return self.bad_range(item_start);
                        }
                        items.push(ClassItem::Builtin(b, n));
                        continue;
                    }
                }
            } else {
                c
            };
            if self.peek() == Some('-') {
                match self.peek_at(1) {
                    None => return unterminated(),
                    Some(']') => {
                        items.push(ClassItem::Char(low));
                        continue;
                    }
                    Some(_) => {
                        self.pos += 1;
                        let high_start = self.pos;
                        let Some(h) = self.peek() else {
                            return unterminated();
                        };
                        self.pos += 1;
                        let high = if h == '\\' {
                            match self.class_escape(high_start)? {
                                ClassAtom::Char(x) => x,
                                ClassAtom::Builtin(..) => return self.bad_range(item_start),
                            }
                        } else {
                            h
                        };
                        if high < low {
                            return self.bad_range(item_start);
                        }
                        items.push(ClassItem::Range(low, high));
                        continue;
                    }
                }
            }
            items.push(ClassItem::Char(low));
        }
        Ok(Class { negated, items })
    }

    fn bad_range<T>(&self, start: usize) -> Result<T, ParseError> {
        // Python quotes the range as written: from `start` to the end of the high bound.
        let text: String = self
            .chars
            .get(start..self.pos)
            .unwrap_or_default()
            .iter()
            .collect();
        // With a hex escape in it, Python quotes and places the range oddly: not modelled.
        if text.contains("\\x") || text.contains("\\u") || text.contains("\\U") {
            return Err(ParseError::Unsupported);
        }
        Self::invalid(format!("bad character range {text} at position {start}"))
    }

    /// After a backslash inside a class.
    fn class_escape(&mut self, start: usize) -> Result<ClassAtom, ParseError> {
        let Some(c) = self.peek() else {
            return Self::invalid(format!("unterminated character set at position {start}"));
        };
        self.pos += 1;
        Ok(match c {
            'd' => ClassAtom::Builtin(Builtin::Digit, false),
            'D' => ClassAtom::Builtin(Builtin::Digit, true),
            'w' => ClassAtom::Builtin(Builtin::Word, false),
            'W' => ClassAtom::Builtin(Builtin::Word, true),
            's' => ClassAtom::Builtin(Builtin::Space, false),
            'S' => ClassAtom::Builtin(Builtin::Space, true),
            'b' => ClassAtom::Char('\x08'),
            _ => ClassAtom::Char(self.char_escape(c, start)?),
        })
    }
}

enum ClassAtom {
    Char(char),
    Builtin(Builtin, bool),
}

/// Steps (node visits) a match may take before the answer is declared unknown.
pub const MAX_STEPS: usize = 200_000;
/// Steps the matches of one file may take in all ([`Regex::full_match_within`]), as many as
/// twenty matches that each reach [`MAX_STEPS`]: a template of thousands of patterns that
/// backtrack for long (`(a+)+$` against `aaa…a!`, which Python's `re` takes exponential time
/// over: Heat does not answer either) is given up on after them, not after thousands of
/// matches of that cost (3,500 took 6.8 s).
pub const FILE_STEPS: usize = 20 * MAX_STEPS;
/// Nesting of the matcher's recursion before the answer is declared unknown.
const MAX_DEPTH: usize = 1_000;
/// Values longer than this (in characters) are not matched.
const MAX_TEXT: usize = 4096;

/// What has to match after the current node.
enum Next<'a> {
    Done,
    Seq(&'a [Node], &'a Next<'a>),
    /// Iteration `count` of a repeat has just matched, starting at `start`.
    Repeat {
        node: &'a Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        count: u32,
        start: usize,
        next: &'a Next<'a>,
    },
}

struct Matcher<'t> {
    text: &'t [char],
    steps: usize,
    /// The steps it may take.
    limit: usize,
    depth: usize,
    unknown: bool,
    end: Option<usize>,
}

impl Regex {
    /// Whether `re.match(pattern, text)` matches and its match covers all of `text`.
    /// `None` when that cannot be decided here.
    pub fn full_match(&self, text: &str) -> Option<bool> {
        self.full_match_within(text, &std::sync::atomic::AtomicUsize::new(MAX_STEPS))
    }

    /// [`Regex::full_match`], taking at most `steps` steps (and at most [`MAX_STEPS`]), which
    /// it lessens by those it took: a budget shared by the matches of one file
    /// ([`FILE_STEPS`]). `None` once it is spent.
    pub fn full_match_within(
        &self,
        text: &str,
        steps: &std::sync::atomic::AtomicUsize,
    ) -> Option<bool> {
        let left = steps.load(std::sync::atomic::Ordering::Relaxed);
        if left == 0 {
            return None;
        }
        let chars: Vec<char> = text.chars().collect();
        if chars.len() > MAX_TEXT {
            return None;
        }
        let mut matcher = Matcher {
            text: &chars,
            steps: 0,
            limit: left.min(MAX_STEPS),
            depth: 0,
            unknown: false,
            end: None,
        };
        let found = matcher.node(&self.root, 0, &Next::Done);
        let taken = matcher.steps;
        let _ = steps.fetch_update(
            std::sync::atomic::Ordering::Relaxed,
            std::sync::atomic::Ordering::Relaxed,
            |left| Some(left.saturating_sub(taken)),
        );
        if matcher.unknown {
            return None;
        }
        Some(found && matcher.end == Some(chars.len()))
    }
}

impl Matcher<'_> {
    fn give_up(&mut self) -> bool {
        self.unknown = true;
        false
    }

    fn next(&mut self, next: &Next<'_>, pos: usize) -> bool {
        if self.unknown {
            return false;
        }
        match *next {
            Next::Done => {
                self.end = Some(pos);
                true
            }
            Next::Seq(nodes, rest) => match nodes.split_first() {
                None => self.next(rest, pos),
                Some((first, tail)) => self.node(first, pos, &Next::Seq(tail, rest)),
            },
            Next::Repeat {
                node,
                min,
                max,
                greedy,
                count,
                start,
                next,
            } => {
                if pos == start && count >= min {
                    // An empty iteration ends the loop.
                    return self.next(next, pos);
                }
                self.repeat(node, min, max, greedy, count, pos, next)
            }
        }
    }

    #[allow(clippy::too_many_arguments, reason = "the state of one repeat")]
    fn repeat(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        count: u32,
        pos: usize,
        next: &Next<'_>,
    ) -> bool {
        let again = Next::Repeat {
            node,
            min,
            max,
            greedy,
            count: count.saturating_add(1),
            start: pos,
            next,
        };
        if count < min {
            return self.node(node, pos, &again);
        }
        if max.is_some_and(|m| count >= m) {
            return self.next(next, pos);
        }
        #[allow(
            clippy::if_same_then_else,
            reason = "the order of the two tries is the point"
        )]
        if greedy {
            self.node(node, pos, &again) || self.next(next, pos)
        } else {
            self.next(next, pos) || self.node(node, pos, &again)
        }
    }

    fn node(&mut self, node: &Node, pos: usize, next: &Next<'_>) -> bool {
        self.steps += 1;
        if self.unknown || self.steps > self.limit || self.depth > MAX_DEPTH {
            return self.give_up();
        }
        self.depth += 1;
        let result = self.node_inner(node, pos, next);
        self.depth -= 1;
        result
    }

    fn node_inner(&mut self, node: &Node, pos: usize, next: &Next<'_>) -> bool {
        let len = self.text.len();
        let here = self.text.get(pos).copied();
        match node {
            Node::Char(c) => here == Some(*c) && self.next(next, pos + 1),
            Node::Any => here.is_some_and(|c| c != '\n') && self.next(next, pos + 1),
            Node::Class(class) => match here.map(|c| class.matches(c)) {
                None | Some(Some(false)) => false,
                Some(Some(true)) => self.next(next, pos + 1),
                Some(None) => self.give_up(),
            },
            Node::Start => pos == 0 && self.next(next, pos),
            Node::End => {
                (pos == len || (pos + 1 == len && here == Some('\n'))) && self.next(next, pos)
            }
            Node::EndAbsolute => pos == len && self.next(next, pos),
            Node::WordBoundary(want) => {
                let before = pos
                    .checked_sub(1)
                    .and_then(|p| self.text.get(p))
                    .map(|&c| builtin_matches(Builtin::Word, c));
                let after = here.map(|c| builtin_matches(Builtin::Word, c));
                let (Some(before), Some(after)) =
                    (before.unwrap_or(Some(false)), after.unwrap_or(Some(false)))
                else {
                    return self.give_up();
                };
                ((before != after) == *want) && self.next(next, pos)
            }
            Node::Concat(nodes) => self.next(&Next::Seq(nodes, next), pos),
            Node::Alt(branches) => {
                for branch in branches {
                    if self.node(branch, pos, next) {
                        return true;
                    }
                    if self.unknown {
                        return false;
                    }
                }
                false
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => self.repeat(node, *min, *max, *greedy, 0, pos, next),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(pattern: &str, text: &str) -> Option<bool> {
        match compile(pattern) {
            Compiled::Regex(r) => r.full_match(text),
            other => panic!("{pattern}: {other:?}"),
        }
    }

    fn error(pattern: &str) -> String {
        match compile(pattern) {
            Compiled::Invalid(m) => m,
            other => panic!("{pattern}: {other:?}"),
        }
    }

    #[test]
    fn the_matches_of_one_file_share_one_budget_of_steps() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let Compiled::Regex(backtracks) = compile("(a+)+$") else {
            panic!("compiles");
        };
        let Compiled::Regex(simple) = compile("a+") else {
            panic!("compiles");
        };
        let text = format!("{}!", "a".repeat(40));
        let steps = AtomicUsize::new(FILE_STEPS);
        // Each match gives up at its own limit, and spends it.
        for spent in 1..=FILE_STEPS / MAX_STEPS {
            assert_eq!(backtracks.full_match_within(&text, &steps), None);
            assert!(steps.load(Ordering::Relaxed) <= FILE_STEPS - spent * MAX_STEPS);
        }
        assert_eq!(steps.load(Ordering::Relaxed), 0);
        // Once spent, no match is tried: the answer is unknown, never a guess.
        assert_eq!(simple.full_match_within("aaa", &steps), None);
        // A match that ends takes only the steps it took.
        let fresh = AtomicUsize::new(FILE_STEPS);
        assert_eq!(simple.full_match_within("aaa", &fresh), Some(true));
        let left = fresh.load(Ordering::Relaxed);
        assert!(left < FILE_STEPS && left > FILE_STEPS - 100, "{left}");
        // Without a shared budget, each match has its own.
        assert_eq!(simple.full_match("aaa"), Some(true));
    }

    #[test]
    fn matches_like_python_re_match_with_end_check() {
        assert_eq!(full("[a-z]+", "abc"), Some(true));
        assert_eq!(full("[a-z]+", "abc1"), Some(false));
        assert_eq!(full("a|ab", "ab"), Some(false));
        assert_eq!(full("ab|a", "ab"), Some(true));
        assert_eq!(full("ab$", "ab\n"), Some(false));
        assert_eq!(full("ab$", "ab"), Some(true));
        assert_eq!(full("^[A-Z][a-z0-9_-]*$", "Web-01"), Some(true));
        assert_eq!(full("\\d{2,3}", "1234"), Some(false));
        assert_eq!(full("\\d{2,3}", "123"), Some(true));
        assert_eq!(full("(a|b)*c", "ababc"), Some(true));
        assert_eq!(full("a*?", "aaa"), Some(false));
        assert_eq!(full("a*?b", "aaab"), Some(true));
        assert_eq!(full("(?:a?)*", "aa"), Some(true));
        assert_eq!(full("[^ ]+", "a b"), Some(false));
        assert_eq!(full("\\w+", "é"), None);
        assert_eq!(full("x{", "x{"), Some(true));
        assert_eq!(full("[]a]+", "]a"), Some(true));
        assert_eq!(full("[a-]+", "-a"), Some(true));
        assert_eq!(full("\\bfoo\\b", "foo"), Some(true));
        assert_eq!(full(".*", "a\nb"), Some(false));
        assert_eq!(full("", ""), Some(true));
    }

    #[test]
    fn reports_syntax_errors_with_python_text() {
        assert_eq!(error("[a-z"), "unterminated character set at position 0");
        assert_eq!(
            error("(a"),
            "missing ), unterminated subpattern at position 0"
        );
        assert_eq!(error("a)"), "unbalanced parenthesis at position 1");
        assert_eq!(error("*a"), "nothing to repeat at position 0");
        assert_eq!(error("a**"), "multiple repeat at position 2");
        assert_eq!(error("a{2}*"), "multiple repeat at position 4");
        assert_eq!(error("a|*b"), "nothing to repeat at position 2");
        assert_eq!(error("(*a)"), "nothing to repeat at position 1");
        assert_eq!(error("\\"), "bad escape (end of pattern) at position 0");
        assert_eq!(error("a\\q"), "bad escape \\q at position 1");
        assert_eq!(error("[z-a]"), "bad character range z-a at position 1");
        assert_eq!(
            error("a{3,2}"),
            "min repeat greater than max repeat at position 2"
        );
        assert_eq!(error("^*"), "nothing to repeat at position 1");
        assert_eq!(error("\\b+"), "nothing to repeat at position 2");
        assert_eq!(error("\\x4"), "incomplete escape \\x4 at position 0");
        assert_eq!(error("[\\q]"), "bad escape \\q at position 1");
        assert_eq!(error("a{1,2}{3}"), "multiple repeat at position 6");
        assert_eq!(
            error("((a)"),
            "missing ), unterminated subpattern at position 0"
        );
        assert_eq!(error("(a))"), "unbalanced parenthesis at position 3");
        assert_eq!(error("a[b"), "unterminated character set at position 1");
        assert_eq!(error("\\d+\\"), "bad escape (end of pattern) at position 3");
        assert_eq!(error("[a-\\d]"), "bad character range a-\\d at position 1");
        assert_eq!(error("[\\d-z]"), "bad character range \\d-z at position 1");
        assert_eq!(error("a+?+"), "multiple repeat at position 3");
    }

    #[test]
    fn leaves_unmodelled_syntax_alone() {
        for pattern in [
            "(?i)a",
            "a*+",
            "\\1",
            "[[:alpha:]]",
            "\\N{DIGIT ONE}",
            "(?=a)",
            "(?",
        ] {
            assert!(
                matches!(compile(pattern), Compiled::Unsupported),
                "{pattern}"
            );
        }
    }
}
