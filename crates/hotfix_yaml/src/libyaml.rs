//! libyaml's own rules where they differ from the YAML 1.2 parser's, applied to its result.
//!
//! Heat loads YAML with PyYAML's `CSafeLoader`, that is libyaml 0.2.5's scanner (`scanner.c`).
//! `granit-parser` follows YAML 1.2; where the two read a text differently, this module redoes
//! the piece the way libyaml does: a block scalar is scanned again with libyaml's algorithm
//! (`yaml_parser_scan_block_scalar`: its indentation, its tab checks, its value at the end of a
//! file without a line break, its Unicode line breaks), and tabs are refused where libyaml's
//! `yaml_parser_scan_to_next_token` does not skip them.

/// A failure as libyaml reports it: where, and its context and problem text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) offset: usize,
    pub(crate) message: String,
    /// PyYAML's pure-Python scanner does not refuse this.
    pub(crate) libyaml_only: bool,
}

impl Refusal {
    fn new(offset: usize, context: &str, problem: &str) -> Self {
        Self {
            offset,
            message: format!("{context}: {problem}"),
            libyaml_only: false,
        }
    }
}

/// The length of the line break at `at` (CR LF, CR, LF, NEL, LS, PS), 0 when there is none.
pub(crate) fn break_len(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at..).unwrap_or_default() {
        [b'\r', b'\n', ..] | [0xC2, 0x85, ..] => 2,
        [b'\r' | b'\n', ..] => 1,
        [0xE2, 0x80, 0xA8 | 0xA9, ..] => 3,
        _ => 0,
    }
}

/// What a line break reads as in a scalar's value (`READ_LINE`): CR LF, CR, LF and NEL as
/// `\n`, LS and PS as themselves.
fn read_line(source: &str, at: usize, len: usize) -> &str {
    if len == 3 {
        &source[at..at + len]
    } else {
        "\n"
    }
}

/// A block scalar read as libyaml reads it.
#[derive(Debug)]
pub(crate) struct BlockScalar {
    pub(crate) value: String,
    /// Where its lines start (after the header's line break).
    pub(crate) content: usize,
    /// Where libyaml stopped: the first character of the next line with content, or the end.
    pub(crate) end: usize,
}

/// A block scalar's header: its style, chomping, indentation indicator, and where its first
/// line starts.
struct Header {
    literal: bool,
    chomping: i8,
    increment: isize,
    next: usize,
}

fn header(source: &str, at: usize) -> Result<Header, Refusal> {
    const CONTEXT: &str = "while scanning a block scalar";
    let bytes = source.as_bytes();
    let literal = bytes.get(at) == Some(&b'|');
    let mut i = at + 1;
    let mut chomping = 0i8;
    let mut increment = 0isize;
    let zero = || {
        Err(Refusal::new(
            at,
            CONTEXT,
            "found an indentation indicator equal to 0",
        ))
    };
    match bytes.get(i) {
        Some(&c @ (b'+' | b'-')) => {
            chomping = if c == b'+' { 1 } else { -1 };
            i += 1;
            match bytes.get(i) {
                Some(b'0') => return zero(),
                Some(d @ b'1'..=b'9') => {
                    increment = isize::from(d - b'0');
                    i += 1;
                }
                _ => {}
            }
        }
        Some(b'0') => return zero(),
        Some(d @ b'1'..=b'9') => {
            increment = isize::from(d - b'0');
            i += 1;
            if let Some(&c @ (b'+' | b'-')) = bytes.get(i) {
                chomping = if c == b'+' { 1 } else { -1 };
                i += 1;
            }
        }
        _ => {}
    }
    while matches!(bytes.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if bytes.get(i) == Some(&b'#') {
        while i < bytes.len() && break_len(bytes, i) == 0 {
            i += 1;
        }
    }
    if i < bytes.len() && break_len(bytes, i) == 0 {
        return Err(Refusal::new(
            at,
            CONTEXT,
            "did not find expected comment or line break",
        ));
    }
    i += break_len(bytes, i);
    Ok(Header {
        literal,
        chomping,
        increment,
        next: i,
    })
}

/// Scans the block scalar whose indicator (`|` or `>`) is at `at`, inside a block collection
/// indented by `parent_indent` columns (-1 at the top level), as
/// `yaml_parser_scan_block_scalar` does; `pure`: as PyYAML's pure-Python scanner does, which
/// takes a tab after the indentation for content where libyaml refuses it.
pub(crate) fn block_scalar(
    source: &str,
    at: usize,
    parent_indent: isize,
    pure: bool,
) -> Result<BlockScalar, Refusal> {
    let bytes = source.as_bytes();
    let Header {
        literal,
        chomping,
        increment,
        next: mut i,
    } = header(source, at)?;
    let content = i;
    let mut indent: isize = if increment > 0 {
        if parent_indent >= 0 {
            parent_indent + increment
        } else {
            increment
        }
    } else {
        0
    };
    let mut value = String::new();
    let mut leading_break: &str = "";
    let mut trailing_breaks = String::new();
    let mut leading_blank = false;
    // Column of `i`: `i` is always at a line start here.
    let mut column: isize;
    (i, column) = breaks(
        source,
        i,
        &mut indent,
        parent_indent,
        &mut trailing_breaks,
        (at, pure),
    )?;
    while column == indent && i < bytes.len() {
        let trailing_blank = matches!(bytes[i], b' ' | b'\t');
        if !literal && leading_break == "\n" && !leading_blank && !trailing_blank {
            if trailing_breaks.is_empty() {
                value.push(' ');
            }
        } else {
            value.push_str(leading_break);
        }
        leading_break = "";
        value.push_str(&trailing_breaks);
        trailing_breaks.clear();
        leading_blank = matches!(bytes[i], b' ' | b'\t');
        let start = i;
        while i < bytes.len() && break_len(bytes, i) == 0 {
            i += 1;
        }
        value.push_str(&source[start..i]);
        let len = break_len(bytes, i);
        if len > 0 {
            leading_break = read_line(source, i, len);
            i += len;
        }
        (i, column) = breaks(
            source,
            i,
            &mut indent,
            parent_indent,
            &mut trailing_breaks,
            (at, pure),
        )?;
    }
    if chomping != -1 {
        value.push_str(leading_break);
    }
    if chomping == 1 {
        value.push_str(&trailing_breaks);
    }
    Ok(BlockScalar {
        value,
        content,
        end: i,
    })
}

/// `yaml_parser_scan_block_scalar_breaks`: indentation and empty lines from the line start
/// `i`, up to the next line with content (or the end); sets `indent` when it is not known yet.
/// Returns where that line's content starts and its column.
fn breaks(
    source: &str,
    mut i: usize,
    indent: &mut isize,
    parent_indent: isize,
    out: &mut String,
    (at, pure): (usize, bool),
) -> Result<(usize, isize), Refusal> {
    let bytes = source.as_bytes();
    let mut max_indent = 0isize;
    let mut column: isize = 0;
    loop {
        while (*indent == 0 || column < *indent) && bytes.get(i) == Some(&b' ') {
            i += 1;
            column += 1;
        }
        max_indent = max_indent.max(column);
        if !pure && (*indent == 0 || column < *indent) && bytes.get(i) == Some(&b'\t') {
            return Err(Refusal {
                libyaml_only: true,
                ..Refusal::new(
                    at,
                    "while scanning a block scalar",
                    "found a tab character where an indentation space is expected",
                )
            });
        }
        let len = break_len(bytes, i);
        if len == 0 {
            break;
        }
        out.push_str(read_line(source, i, len));
        i += len;
        column = 0;
    }
    if *indent == 0 {
        *indent = max_indent.max(parent_indent + 1).max(1);
    }
    Ok((i, column))
}

/// `yaml_parser_scan_to_next_token` skips tabs only in a flow collection or where a simple key
/// is not allowed: at the start of a line in the block context, and after `- `, `? ` or a
/// `: ` that follows an explicit key, libyaml refuses a tab (`found character that cannot
/// start any token`). Finds the first such tab on a line that starts at `line` (offset of its
/// first character), a line that is neither in a flow collection nor inside a scalar, looking
/// from `from` on (where a scalar's white space ends).
pub(crate) fn tab_at_token_start(bytes: &[u8], line: usize, from: usize) -> Option<usize> {
    let mut i = from;
    // `yaml_parser_scan_to_next_token` skips a byte-order mark at the start of a line.
    if i == line && bytes[i..].starts_with("\u{feff}".as_bytes()) {
        i += 3;
    }
    loop {
        while bytes.get(i) == Some(&b' ') {
            i += 1;
        }
        match bytes.get(i) {
            Some(b'\t') => return Some(i),
            // An indicator that leaves simple keys allowed, followed by white space.
            Some(b'-' | b'?' | b':')
                if matches!(bytes.get(i + 1), Some(b' ' | b'\t'))
                    && (bytes[i] != b':' || i == line || only_spaces(&bytes[line..i])) =>
            {
                i += 1;
            }
            _ => return None,
        }
    }
}

fn only_spaces(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b == b' ')
}

/// A timestamp as PyYAML's `construct_yaml_timestamp` reads it (`timestamp_regexp`): the date,
/// the time if any, the time zone's offset in minutes if any, and whether the month and day
/// have two digits each.
struct Timestamp {
    date: (u32, u32, u32),
    time: Option<(u32, u32, u32)>,
    zone_minutes: Option<u32>,
    two_digit_date: bool,
}

fn digits(bytes: &[u8], i: &mut usize, min: usize, max: usize) -> Option<u32> {
    let start = *i;
    while *i < bytes.len() && *i - start < max && bytes[*i].is_ascii_digit() {
        *i += 1;
    }
    if *i - start < min {
        return None;
    }
    std::str::from_utf8(&bytes[start..*i]).ok()?.parse().ok()
}

fn timestamp(text: &str) -> Option<Timestamp> {
    let b = text.as_bytes();
    let mut i = 0;
    let year = digits(b, &mut i, 4, 4)?;
    let expect = |i: &mut usize, c: u8| (b.get(*i) == Some(&c)).then(|| *i += 1);
    expect(&mut i, b'-')?;
    let m0 = i;
    let month = digits(b, &mut i, 1, 2)?;
    let two_month = i - m0 == 2;
    expect(&mut i, b'-')?;
    let d0 = i;
    let day = digits(b, &mut i, 1, 2)?;
    let two_digit_date = two_month && i - d0 == 2;
    let mut out = Timestamp {
        date: (year, month, day),
        time: None,
        zone_minutes: None,
        two_digit_date,
    };
    if i == b.len() {
        return Some(out);
    }
    match b[i] {
        b'T' | b't' => i += 1,
        b' ' | b'\t' => {
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
        }
        _ => return None,
    }
    let hour = digits(b, &mut i, 1, 2)?;
    expect(&mut i, b':')?;
    let minute = digits(b, &mut i, 2, 2)?;
    expect(&mut i, b':')?;
    let second = digits(b, &mut i, 2, 2)?;
    out.time = Some((hour, minute, second));
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    match b.get(i) {
        None => {}
        Some(b'Z') => {
            i += 1;
            out.zone_minutes = Some(0);
        }
        Some(b'+' | b'-') => {
            i += 1;
            let hours = digits(b, &mut i, 1, 2)?;
            let mut minutes = 0;
            if b.get(i) == Some(&b':') {
                i += 1;
                minutes = digits(b, &mut i, 2, 2)?;
            }
            out.zone_minutes = Some(hours * 60 + minutes);
        }
        Some(_) => return None,
    }
    (i == b.len()).then_some(out)
}

/// Whether Python's `datetime` accepts the timestamp's fields.
fn valid(t: &Timestamp) -> bool {
    let (year, month, day) = t.date;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    let time_ok = t.time.is_none_or(|(h, m, s)| h < 24 && m < 60 && s < 60);
    year >= 1 && (1..=days).contains(&day) && time_ok && t.zone_minutes.is_none_or(|z| z < 24 * 60)
}

/// PyYAML's pure-Python loader (Heat's second try, with no timestamp override) constructs a
/// timestamp as a Python date: a `!!timestamp` that is not one, or a date or time out of range
/// (`2001-13-01`), fails there. `explicit`: tagged `!!timestamp` (else a plain scalar, which
/// is a timestamp only where the resolver's pattern says so).
pub(crate) fn pure_timestamp_fails(text: &str, explicit: bool) -> bool {
    match timestamp(text) {
        None => explicit,
        // The resolver wants two-digit months and days without a time.
        Some(t) if !explicit && t.time.is_none() && !t.two_digit_date => false,
        Some(t) => !valid(&t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(source: &str, parent: isize) -> Result<String, String> {
        let at = source.find(['|', '>']).expect("an indicator");
        block_scalar(source, at, parent, false)
            .map(|s| s.value)
            .map_err(|r| r.message)
    }

    #[test]
    fn a_block_scalar_reads_as_libyaml_reads_it() {
        // Values from PyYAML 6.0.3's CSafeLoader.
        assert_eq!(value("a: |\n  x\n", 0).unwrap(), "x\n");
        assert_eq!(value("a: |+\n  x", 0).unwrap(), "x");
        assert_eq!(value("a: |\n  x", 0).unwrap(), "x");
        assert_eq!(value("a: |+\n  x\n  ", 0).unwrap(), "x\n");
        assert_eq!(value("a: >\n  x\n\n  y", 0).unwrap(), "x\ny");
        assert_eq!(value("a: |+\n  x\n \n", 0).unwrap(), "x\n\n");
        assert_eq!(value("a: |2\n   x\n", 0).unwrap(), " x\n");
        assert_eq!(value("a: |\n  x\u{2028}  y\n", 0).unwrap(), "x\u{2028}y\n");
        assert_eq!(value("a: >\n  x\n  y\u{2029}", 0).unwrap(), "x y\u{2029}");
        assert!(
            value("a: |\n  x\n\t\n", 0)
                .unwrap_err()
                .contains("tab character")
        );
        assert!(value("a: |0\n  x\n", 0).unwrap_err().contains("equal to 0"));
    }

    #[test]
    fn a_timestamp_that_pyyaml_cannot_construct() {
        assert!(!pure_timestamp_fails("2001-12-14", false));
        assert!(!pure_timestamp_fails("2001-12-14t21:59:43.10-05:00", true));
        assert!(pure_timestamp_fails("2001-13-14", false));
        assert!(pure_timestamp_fails("2001-02-29", false));
        assert!(!pure_timestamp_fails("2000-02-29", false));
        assert!(pure_timestamp_fails("", true));
        assert!(pure_timestamp_fails("x", true));
        assert!(!pure_timestamp_fails("x", false));
        assert!(!pure_timestamp_fails("2001-1-1", false));
        assert!(pure_timestamp_fails("2001-1-1 25:00:00", false));
    }

    #[test]
    fn a_tab_that_libyaml_does_not_skip() {
        assert_eq!(tab_at_token_start(b"\t", 0, 0), Some(0));
        assert_eq!(tab_at_token_start(b"  \t# c", 0, 0), Some(2));
        assert_eq!(tab_at_token_start(b"- \ta", 0, 0), Some(2));
        assert_eq!(tab_at_token_start(b"- - \ta", 0, 0), Some(4));
        assert_eq!(tab_at_token_start(b": \ta", 0, 0), Some(2));
        assert_eq!(tab_at_token_start(b"a: \tb", 0, 0), None);
        assert_eq!(tab_at_token_start(b"- a: \tb", 0, 0), None);
        assert_eq!(tab_at_token_start(b"  a", 0, 0), None);
    }
}
