//! Scalar resolution exactly as PyYAML's `SafeLoader` (YAML 1.1) with Heat's overrides.
//!
//! PyYAML picks a tag for every *plain* scalar by trying, in registration order, the implicit
//! resolvers of `yaml/resolver.py` (bool, float, int, merge, null, timestamp, value), then
//! constructs the value with `yaml/constructor.py`. Heat's loader
//! (`heat/common/template_format.py`) constructs timestamps as the original string, so a
//! timestamp is indistinguishable from a string and needs no resolver here. Each matcher below
//! is a transcription of one of PyYAML's regular expressions; the comments quote them.

use std::fmt;
use std::fmt::Write as _;

/// What PyYAML constructs from a scalar.
#[derive(Clone, Debug, PartialEq)]
pub enum ScalarValue {
    Null,
    Bool(bool),
    Int(Int),
    Float(f64),
    /// A Python `str`: the scalar's text.
    Str,
    /// `<<` (`tag:yaml.org,2002:merge`): merges mappings when used as a key; anything else fails.
    Merge,
    /// `=` (`tag:yaml.org,2002:value`): a key becomes the string `"="`; anything else fails.
    ValueKey,
    /// `!!binary`: Python `bytes`, which the command line sends decoded as UTF-8 (the scalar's
    /// text is the decoded text once the document has loaded; see [`crate::pyjson`]).
    Binary,
}

/// A Python `int`: arbitrary precision.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Int {
    Small(i64),
    /// Outside `i64`: the decimal digits, with a leading `-` when negative.
    Big(String),
    /// An integer given in base 2, 8 or 16 with more than 14,400 bits: more decimal digits
    /// than Python writes (`sys.get_int_max_str_digits()`), so `json.dumps` refuses it and a
    /// document that uses it never reaches Heat (the load refuses it); its value is not
    /// worked out (turning it into decimal digits costs time that grows as its square).
    Huge,
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(n) => write!(f, "{n}"),
            Int::Big(digits) => f.write_str(digits),
            Int::Huge => f.write_str("<an integer of more than 4300 digits>"),
        }
    }
}

/// Resolves a plain (unquoted, untagged) scalar as PyYAML does.
///
/// ```
/// use hotfix_yaml::{resolve_plain, Int, ScalarValue};
/// assert_eq!(resolve_plain("on"), ScalarValue::Bool(true));
/// assert_eq!(resolve_plain("012"), ScalarValue::Int(Int::Small(10)));
/// assert_eq!(resolve_plain("1e3"), ScalarValue::Str);
/// assert_eq!(resolve_plain("2016-10-14"), ScalarValue::Str);
/// ```
pub fn resolve_plain(text: &str) -> ScalarValue {
    construct_plain(text).unwrap_or(ScalarValue::Str)
}

/// Resolves and constructs a plain scalar, failing where PyYAML's constructor fails (`0b_` and
/// `0x_` match the int pattern but `int()` rejects them).
pub(crate) fn construct_plain(text: &str) -> Result<ScalarValue, String> {
    // Most scalars are words: only a few first characters can start anything but a string.
    let Some(&first) = text.as_bytes().first() else {
        return Ok(ScalarValue::Null);
    };
    if !matches!(
        first,
        b'0'..=b'9'
            | b'-'
            | b'+'
            | b'.'
            | b'y'
            | b'Y'
            | b'n'
            | b'N'
            | b't'
            | b'T'
            | b'f'
            | b'F'
            | b'o'
            | b'O'
            | b'~'
            | b'<'
            | b'='
            | b'!'
            | b'&'
            | b'*'
    ) {
        return Ok(ScalarValue::Str);
    }
    // PyYAML's resolver for `tag:yaml.org,2002:yaml`, which has no constructor: no plain scalar
    // is `!`, `&` or `*` alone, but a quoted one tagged `!` resolves as plain (`! "*"`).
    if matches!(text, "!" | "&" | "*") {
        return Err(
            "could not determine a constructor for the tag 'tag:yaml.org,2002:yaml'".to_owned(),
        );
    }
    if is_bool(text) {
        let truthy = matches!(
            text,
            "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON"
        );
        return Ok(ScalarValue::Bool(truthy));
    }
    if is_float(text)
        && let Ok(value) = construct_float(text)
    {
        return Ok(ScalarValue::Float(value));
    }
    if is_int(text) {
        return construct_int(text).map(ScalarValue::Int);
    }
    Ok(match text {
        "<<" => ScalarValue::Merge,
        "~" | "null" | "Null" | "NULL" => ScalarValue::Null,
        "=" => ScalarValue::ValueKey,
        _ => ScalarValue::Str,
    })
}

/// Whether a refusal of [`construct_plain`], [`construct_nonspecific`] or [`construct_tagged`]
/// is Python's own (`int()`'s and `float()`'s `ValueError`, an `IndexError` on an empty value,
/// the boolean table's `KeyError`) rather than PyYAML's `ConstructorError`.
pub(crate) fn not_yaml_error(message: &str) -> bool {
    [
        "invalid literal for int()",
        "Exceeds the limit (4300 digits)",
        "invalid integer",
        "could not convert string to float",
        "invalid boolean",
        "PyYAML cannot construct the boolean",
    ]
    .iter()
    .any(|start| message.starts_with(start))
}

/// Resolves and constructs a quoted or block scalar tagged `!` (libyaml resolves it as if it
/// were plain: `! '12'` is 12). Its text may end with a line break, before which Python's
/// `re.match(…$)` also matches: `! |` holding `3` is the integer 3, `null` is `None`; then
/// `int()` and `float()` skip the break, and the boolean table and `.inf` do not (`KeyError`,
/// `ValueError`).
pub(crate) fn construct_nonspecific(text: &str) -> Result<ScalarValue, String> {
    let Some(stripped) = text.strip_suffix('\n') else {
        return construct_plain(text);
    };
    // The resolvers are chosen by the first character: a line break has none.
    if stripped.is_empty() {
        return Ok(ScalarValue::Str);
    }
    match construct_plain(stripped)? {
        ScalarValue::Bool(_) => Err(format!(
            "PyYAML cannot construct the boolean {text:?}: its table has no such key (KeyError)"
        )),
        ScalarValue::Float(f) if !f.is_finite() => {
            Err(format!("could not convert string to float: {text:?}"))
        }
        value => Ok(value),
    }
}

/// Constructs a scalar that carries an explicit tag (`!!int "12"`), as PyYAML's constructor
/// for that tag does. `tag` is the resolved name (`tag:yaml.org,2002:int`, `!custom`).
pub(crate) fn construct_tagged(tag: &str, text: &str) -> Result<ScalarValue, String> {
    let Some(core) = tag.strip_prefix("tag:yaml.org,2002:") else {
        return Err(format!(
            "could not determine a constructor for the tag '{tag}'"
        ));
    };
    match core {
        "str" | "timestamp" => Ok(ScalarValue::Str),
        "null" => Ok(ScalarValue::Null),
        "bool" => match text.to_lowercase().as_str() {
            "yes" | "true" | "on" => Ok(ScalarValue::Bool(true)),
            "no" | "false" | "off" => Ok(ScalarValue::Bool(false)),
            _ => Err(format!("invalid boolean {text:?} for the tag '!!bool'")),
        },
        "int" => construct_int(text).map(ScalarValue::Int),
        "float" => construct_float(text).map(ScalarValue::Float),
        "binary" => check_base64(text).map(|()| ScalarValue::Binary),
        "merge" => Ok(ScalarValue::Merge),
        "value" => Ok(ScalarValue::ValueKey),
        "seq" | "omap" | "pairs" => Err(format!(
            "expected a sequence node for the tag '{tag}', but found a scalar"
        )),
        "map" | "set" => Err(format!(
            "expected a mapping node for the tag '{tag}', but found a scalar"
        )),
        _ => Err(format!(
            "could not determine a constructor for the tag '{tag}'"
        )),
    }
}

/// `construct_yaml_binary`: ASCII, and base64 that Python's `base64.decodebytes` decodes.
fn check_base64(text: &str) -> Result<(), String> {
    decode_base64(text).map(|_| ())
}

/// The bytes of a `!!binary` scalar as PyYAML's `construct_yaml_binary` makes them: ASCII text,
/// decoded by `base64.decodebytes` (`binascii.a2b_base64` of Python 3.11, not strict). It skips
/// characters outside the alphabet, stops at the `=` that completes a group (what follows is
/// ignored: `aGk=aG` is `hi`), and refuses a partial last group: one character, or two or three
/// without their padding.
pub(crate) fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    if !text.is_ascii() {
        return Err("failed to convert base64 data into ascii".to_owned());
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut quad, mut left, mut pads) = (0u8, 0u8, 0u8);
    for byte in text.bytes() {
        if byte == b'=' {
            if quad >= 2 {
                pads += 1;
                if quad + pads >= 4 {
                    return Ok(out);
                }
            }
            continue;
        }
        let sextet = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        pads = 0;
        match quad {
            0 => left = sextet,
            1 => {
                out.push((left << 2) | (sextet >> 4));
                left = sextet & 0x0f;
            }
            2 => {
                out.push((left << 4) | (sextet >> 2));
                left = sextet & 0x03;
            }
            _ => out.push((left << 6) | sextet),
        }
        quad = (quad + 1) % 4;
    }
    match quad {
        0 => Ok(out),
        1 => Err(format!(
            "failed to decode base64 data: Invalid base64-encoded string: number of data \
             characters ({}) cannot be 1 more than a multiple of 4",
            out.len() / 3 * 4 + 1
        )),
        _ => Err("failed to decode base64 data: Incorrect padding".to_owned()),
    }
}

// ^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$
fn is_bool(text: &str) -> bool {
    matches!(
        text,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    )
}

/// A cursor over ASCII bytes for the hand-written matchers.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            bytes: text.as_bytes(),
            pos: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn eat(&mut self, pred: impl Fn(u8) -> bool) -> bool {
        match self.peek() {
            Some(b) if pred(b) => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }

    fn eat_byte(&mut self, byte: u8) -> bool {
        self.eat(|b| b == byte)
    }

    fn eat_many(&mut self, pred: impl Fn(u8) -> bool + Copy) -> usize {
        let start = self.pos;
        while self.eat(pred) {}
        self.pos - start
    }

    fn eat_sign(&mut self) {
        self.eat(|b| b == b'-' || b == b'+');
    }

    fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }

    /// `(?::[0-5]?[0-9])+`
    fn sexagesimal_parts(&mut self) -> bool {
        let mut parts = 0;
        loop {
            let save = self.pos;
            if !self.eat_byte(b':') {
                break;
            }
            let digits = self.eat_many(|b| b.is_ascii_digit());
            let ok = match digits {
                1 => true,
                2 => self.bytes[self.pos - 2] <= b'5',
                _ => false,
            };
            if !ok {
                self.pos = save;
                break;
            }
            parts += 1;
        }
        parts > 0
    }
}

fn is_digit(b: u8) -> bool {
    b.is_ascii_digit()
}

fn is_digit_(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}

/// ```text
/// ^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
///   |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
///   |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
///   |[-+]?\.(?:inf|Inf|INF)
///   |\.(?:nan|NaN|NAN))$
/// ```
fn is_float(text: &str) -> bool {
    let (unsigned, signed) = match text.as_bytes().first() {
        Some(b'-' | b'+') => (&text[1..], true),
        Some(_) => (text, false),
        None => return false,
    };
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    if !signed && matches!(unsigned, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let exponent = |c: &mut Cursor<'_>| {
        let save = c.pos;
        if c.eat(|b| b == b'e' || b == b'E') {
            if c.eat(|b| b == b'-' || b == b'+') && c.eat_many(is_digit) > 0 {
                return;
            }
            c.pos = save;
        }
    };
    // \.[0-9][0-9_]*(?:[eE][-+][0-9]+)?  (no sign allowed)
    if !signed && unsigned.starts_with('.') {
        let mut c = Cursor::new(unsigned);
        c.pos = 1;
        if !c.eat(is_digit) {
            return false;
        }
        c.eat_many(is_digit_);
        exponent(&mut c);
        return c.at_end();
    }
    let mut c = Cursor::new(unsigned);
    if !c.eat(is_digit) {
        return false;
    }
    c.eat_many(is_digit_);
    if c.peek() == Some(b':') {
        // [0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
        if !c.sexagesimal_parts() || !c.eat_byte(b'.') {
            return false;
        }
        c.eat_many(is_digit_);
        return c.at_end();
    }
    if !c.eat_byte(b'.') {
        return false;
    }
    c.eat_many(is_digit_);
    exponent(&mut c);
    c.at_end()
}

/// ```text
/// ^(?:[-+]?0b[0-1_]+
///   |[-+]?0[0-7_]+
///   |[-+]?(?:0|[1-9][0-9_]*)
///   |[-+]?0x[0-9a-fA-F_]+
///   |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$
/// ```
fn is_int(text: &str) -> bool {
    let mut c = Cursor::new(text);
    c.eat_sign();
    let rest = &text[c.pos..];
    let all = |s: &str, pred: fn(u8) -> bool| !s.is_empty() && s.bytes().all(pred);
    if let Some(bin) = rest.strip_prefix("0b") {
        return all(bin, |b| matches!(b, b'0' | b'1' | b'_'));
    }
    if let Some(hex) = rest.strip_prefix("0x") {
        return all(hex, |b| b.is_ascii_hexdigit() || b == b'_');
    }
    if rest == "0" {
        return true;
    }
    if let Some(oct) = rest.strip_prefix('0') {
        return all(oct, |b| matches!(b, b'0'..=b'7' | b'_'));
    }
    if !c.eat(|b| matches!(b, b'1'..=b'9')) {
        return false;
    }
    c.eat_many(is_digit_);
    if c.at_end() {
        return true;
    }
    c.sexagesimal_parts() && c.at_end()
}

/// `SafeConstructor.construct_yaml_int`.
fn construct_int(text: &str) -> Result<Int, String> {
    // Most integers are short decimals: at most 18 digits always fit an `i64`. What this skips
    // handles `_`, the other bases, base 60 and big values.
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if (1..=18).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && let Ok(value) = digits.parse::<i64>()
    {
        return Ok(Int::Small(if text.starts_with('-') {
            -value
        } else {
            value
        }));
    }
    construct_int_general(text)
}

/// `construct_int` for every integer PyYAML accepts.
fn construct_int_general(text: &str) -> Result<Int, String> {
    let cleaned: String = text.chars().filter(|&c| c != '_').collect();
    let (negative, value) = match cleaned.as_bytes().first() {
        None => return Err("invalid integer: empty value".to_owned()),
        Some(b'-') => (true, &cleaned[1..]),
        Some(b'+') => (false, &cleaned[1..]),
        Some(_) => (false, cleaned.as_str()),
    };
    let invalid = |base: u32| format!("invalid literal for int() with base {base}: {text:?}");
    // Python's int() takes white space around the digits and a sign after it (`!!int "1\n"`
    // is 1, `!!int "\n-1"` is -1: the constructor's own sign test sees the line break).
    let mut big = BigUint::zero();
    let mut negative = negative;
    let mut huge = false;
    let mut digits = |body: &str, radix: u32, big: &mut BigUint| -> Result<(), String> {
        let (inner, body) = python_int_sign(body);
        if radix == 10 {
            within_digit_limit(body)?;
        } else if body.chars().all(|c| c.is_digit(radix)) {
            // `radix` is 2, 8 or 16: each significant digit holds `log2(radix)` bits.
            let bits_per_digit = radix.trailing_zeros() as usize;
            let significant = body.trim_start_matches('0').len();
            if significant > 0 && bits_per_digit * (significant - 1) + 1 > HUGE_BITS {
                huge = true;
                return Ok(());
            }
        }
        big.push_digits(body, radix).ok_or_else(|| invalid(radix))?;
        negative ^= inner;
        Ok(())
    };
    if value == "0" {
        return Ok(Int::Small(0));
    } else if let Some(bin) = value.strip_prefix("0b") {
        digits(bin, 2, &mut big)?;
    } else if let Some(hex) = value.strip_prefix("0x") {
        digits(hex, 16, &mut big)?;
    } else if value.starts_with('0') {
        // Python's int(value, 8) also accepts an `0o` prefix.
        let oct = value.strip_prefix("0o").unwrap_or(value);
        digits(oct, 8, &mut big)?;
    } else if value.contains(':') {
        // Each part is int()'d on its own, white space and sign included.
        let mut total: i128 = 0;
        for part in value.split(':') {
            let (minus, body) = python_int_sign(part);
            within_digit_limit(body)?;
            let mut part_value = BigUint::zero();
            part_value
                .push_digits(body, 10)
                .ok_or_else(|| invalid(10))?;
            let part_value = part_value.to_i128().ok_or_else(|| invalid(10))?;
            total = total
                .checked_mul(60)
                .and_then(|t| t.checked_add(if minus { -part_value } else { part_value }))
                .ok_or_else(|| invalid(10))?;
        }
        let total = if negative { -total } else { total };
        return Ok(i64::try_from(total).map_or_else(|_| Int::Big(total.to_string()), Int::Small));
    } else {
        digits(value, 10, &mut big)?;
    }
    if huge {
        return Ok(Int::Huge);
    }
    Ok(big.into_int(negative))
}

/// The bits beyond which an integer has more than [`INT_MAX_STR_DIGITS`] decimal digits
/// whatever its value (2^14,400 has 4,335 digits): [`Int::Huge`].
const HUGE_BITS: usize = 14_400;

/// Python's limit on the digits `int()` reads in base 10 (`sys.get_int_max_str_digits()`,
/// 4,300 since `CPython` 3.11; Heat's interpreter has it): a longer run of digits is a
/// `ValueError`, raised before the rest of the text is looked at.
pub(crate) const INT_MAX_STR_DIGITS: usize = 4300;

/// The `ValueError` of `int()` for a text whose leading run of decimal digits is longer than
/// [`INT_MAX_STR_DIGITS`] (`body`: after the sign).
///
/// # Errors
/// Python's text, with the number of digits.
pub(crate) fn within_digit_limit(body: &str) -> Result<(), String> {
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    if digits > INT_MAX_STR_DIGITS {
        return Err(format!(
            "Exceeds the limit ({INT_MAX_STR_DIGITS} digits) for integer string conversion: value \
             has {digits} digits; use sys.set_int_max_str_digits() to increase the limit"
        ));
    }
    Ok(())
}

/// The white space `int()` and `float()` strip around a number: Unicode's `White_Space` (not
/// the separators U+001C..U+001F that `str.isspace` also takes; checked against `CPython` 3.11).
/// Left: both also read the decimal digits of other scripts (`int("١٢")` is 12).
fn python_space(c: char) -> bool {
    c.is_whitespace()
}

/// `int()`'s reading of its argument: white space around it stripped, then one sign.
fn python_int_sign(text: &str) -> (bool, &str) {
    let text = text.trim_matches(python_space);
    match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    }
}

/// `SafeConstructor.construct_yaml_float`.
fn construct_float(text: &str) -> Result<f64, String> {
    let cleaned: String = text
        .chars()
        .filter(|&c| c != '_')
        .collect::<String>()
        .to_lowercase();
    let (sign, value) = match cleaned.as_bytes().first() {
        None => return Err("could not convert string to float: ''".to_owned()),
        Some(b'-') => (-1.0, &cleaned[1..]),
        Some(b'+') => (1.0, &cleaned[1..]),
        Some(_) => (1.0, cleaned.as_str()),
    };
    let invalid = || format!("could not convert string to float: {text:?}");
    if value == ".inf" {
        return Ok(sign * f64::INFINITY);
    }
    if value == ".nan" {
        return Ok(f64::NAN);
    }
    if value.contains(':') {
        let mut total = 0.0;
        let mut base = 1.0;
        for part in value.rsplit(':') {
            total += python_float(part).ok_or_else(invalid)? * base;
            base *= 60.0;
        }
        return Ok(sign * total);
    }
    python_float(value).map(|v| sign * v).ok_or_else(invalid)
}

/// Python's `float(str)` for the forms YAML produces: digits with an optional `.`, an
/// exponent, `inf`, `nan`, surrounding white space.
fn python_float(text: &str) -> Option<f64> {
    let text = text.trim_matches(python_space);
    let body = text.trim_start_matches(['+', '-']);
    if body.is_empty() || text.len() - body.len() > 1 {
        return None;
    }
    let lower = body.to_ascii_lowercase();
    let special = matches!(lower.as_str(), "inf" | "infinity" | "nan");
    let numeric = !special
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && body.bytes().any(|b| b.is_ascii_digit());
    if !special && !numeric {
        return None;
    }
    text.parse::<f64>().ok()
}

/// Just enough of an unsigned big integer for YAML literals: base 10^9 limbs, little-endian.
struct BigUint {
    limbs: Vec<u32>,
}

const LIMB: u64 = 1_000_000_000;

impl BigUint {
    fn zero() -> Self {
        Self { limbs: vec![0] }
    }

    fn mul_add(&mut self, mul: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.limbs {
            let v = u64::from(*limb) * u64::from(mul) + carry;
            *limb = u32::try_from(v % LIMB).unwrap_or(0);
            carry = v / LIMB;
        }
        while carry > 0 {
            self.limbs.push(u32::try_from(carry % LIMB).unwrap_or(0));
            carry /= LIMB;
        }
    }

    /// Appends the digits of `text` in `radix`; `None` when a character is not a digit or
    /// there are none (as Python's `int()` fails).
    fn push_digits(&mut self, text: &str, radix: u32) -> Option<()> {
        if text.is_empty() {
            return None;
        }
        for c in text.chars() {
            let digit = c.to_digit(radix)?;
            self.mul_add(radix, digit);
        }
        Some(())
    }

    fn to_i128(&self) -> Option<i128> {
        let mut value: i128 = 0;
        for limb in self.limbs.iter().rev() {
            value = value
                .checked_mul(1_000_000_000)?
                .checked_add(i128::from(*limb))?;
        }
        Some(value)
    }

    fn into_int(self, negative: bool) -> Int {
        let mut digits = String::new();
        for (i, limb) in self.limbs.iter().rev().enumerate() {
            if i == 0 {
                digits.push_str(&limb.to_string());
            } else {
                let _ = write!(digits, "{limb:09}");
            }
        }
        let digits = digits.trim_start_matches('0');
        let digits = if digits.is_empty() { "0" } else { digits };
        let signed = if negative && digits != "0" {
            format!("-{digits}")
        } else {
            digits.to_owned()
        };
        match signed.parse::<i64>() {
            Ok(n) => Int::Small(n),
            Err(_) => Int::Big(signed),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn integers_beyond_pythons_digit_limit() {
        let int = |text: &str| construct_int(text);
        // Base 10: `int()` refuses more than 4,300 digits, however written.
        assert!(matches!(int(&"1".repeat(4300)), Ok(Int::Big(d)) if d.len() == 4300));
        let limit = "Exceeds the limit (4300 digits) for integer string conversion: value has \
                     4301 digits; use sys.set_int_max_str_digits() to increase the limit";
        assert_eq!(int(&"1".repeat(4301)), Err(limit.to_owned()));
        assert_eq!(
            int(&format!("-{}", "1".repeat(4301))),
            Err(limit.to_owned())
        );
        assert_eq!(
            int(&format!("{}:00", "1".repeat(4301))),
            Err(limit.to_owned())
        );
        // Other bases have no limit: an integer beyond 14,400 bits is Huge (its decimal
        // digits, which json.dumps would refuse to write, are not worked out).
        assert_eq!(int(&format!("0x{}", "f".repeat(3601))), Ok(Int::Huge));
        assert_eq!(int(&format!("0b1{}", "0".repeat(14_400))), Ok(Int::Huge));
        assert!(
            matches!(int(&format!("0b1{}", "0".repeat(14_399))), Ok(Int::Big(d)) if d.len() == 4335)
        );
        assert_eq!(
            int(&format!("0x{}{}", "0".repeat(9000), "f".repeat(3))),
            Ok(Int::Small(4095))
        );
        assert_eq!(int(&format!("0{}", "7".repeat(4801))), Ok(Int::Huge));
        assert_eq!(
            int(&format!("0x{}g", "f".repeat(9000))),
            Err(format!(
                "invalid literal for int() with base 16: {:?}",
                format!("0x{}g", "f".repeat(9000))
            ))
        );
    }

    use super::*;

    /// As Python's `base64.decodebytes` (Python 3.11) decodes these.
    #[test]
    fn base64_as_python_decodes_it() {
        let ok = |text: &str, bytes: &[u8]| assert_eq!(decode_base64(text).as_deref(), Ok(bytes));
        ok("aGk=", b"hi");
        ok("aGk=aG", b"hi");
        ok("aGk==x", b"hi");
        ok("aG==aGk=", b"h");
        ok("====", b"");
        ok("aGk =", b"hi");
        ok("a$Gk=", b"hi");
        let padding = "failed to decode base64 data: Incorrect padding";
        for text in ["aG=k", "a=Gk", "aGk", "aGVsbG8"] {
            assert_eq!(decode_base64(text), Err(padding.to_owned()), "{text}");
        }
        assert!(
            decode_base64("a")
                .unwrap_err()
                .contains("number of data characters (1)")
        );
        assert!(
            decode_base64("aGVsbG8hx")
                .unwrap_err()
                .contains("characters (9)")
        );
        assert!(decode_base64("é").is_err());
    }

    fn int(n: i64) -> ScalarValue {
        ScalarValue::Int(Int::Small(n))
    }

    #[test]
    fn resolves_yaml_1_1_booleans_but_not_y_and_n() {
        for t in [
            "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
        ] {
            assert_eq!(resolve_plain(t), ScalarValue::Bool(true), "{t}");
        }
        for f in [
            "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
        ] {
            assert_eq!(resolve_plain(f), ScalarValue::Bool(false), "{f}");
        }
        for s in ["y", "n", "Y", "N", "yEs", "oN", "tRUE"] {
            assert_eq!(resolve_plain(s), ScalarValue::Str, "{s}");
        }
    }

    #[test]
    fn resolves_yaml_1_1_integers() {
        assert_eq!(resolve_plain("012"), int(10));
        assert_eq!(resolve_plain("-012"), int(-10));
        assert_eq!(resolve_plain("0b1_0"), int(2));
        assert_eq!(resolve_plain("0x_1F"), int(31));
        assert_eq!(resolve_plain("1_000"), int(1000));
        assert_eq!(resolve_plain("+5"), int(5));
        assert_eq!(resolve_plain("190:20:30"), int(685_230));
        assert_eq!(resolve_plain("1:20"), int(80));
        assert_eq!(resolve_plain("-0"), int(0));
        assert_eq!(resolve_plain("0_"), int(0));
        for s in [
            "09", "0o17", "1:70", "1:", ":1", "0b", "0x", "+", "-", "1__:2_",
        ] {
            assert_eq!(resolve_plain(s), ScalarValue::Str, "{s}");
        }
        assert_eq!(
            resolve_plain("12345678901234567890"),
            ScalarValue::Int(Int::Big("12345678901234567890".to_owned()))
        );
        assert_eq!(
            resolve_plain("-0x1_0000_0000_0000_0000"),
            ScalarValue::Int(Int::Big("-18446744073709551616".to_owned()))
        );
    }

    #[test]
    fn integer_like_scalars_that_python_cannot_convert_fail_to_construct() {
        assert!(construct_plain("0b_").is_err());
        assert!(construct_plain("0x_").is_err());
        assert_eq!(construct_plain("0_7"), Ok(int(7)));
    }

    #[test]
    fn resolves_yaml_1_1_floats() {
        assert_eq!(resolve_plain("1.0e+3"), ScalarValue::Float(1000.0));
        assert_eq!(resolve_plain("0."), ScalarValue::Float(0.0));
        assert_eq!(resolve_plain(".5"), ScalarValue::Float(0.5));
        assert_eq!(resolve_plain("1_000.5"), ScalarValue::Float(1000.5));
        assert_eq!(resolve_plain("1:20.5"), ScalarValue::Float(80.5));
        assert_eq!(
            resolve_plain("-.inf"),
            ScalarValue::Float(f64::NEG_INFINITY)
        );
        assert_eq!(resolve_plain("+.Inf"), ScalarValue::Float(f64::INFINITY));
        assert!(matches!(resolve_plain(".NaN"), ScalarValue::Float(f) if f.is_nan()));
        for s in [
            "1.0e3", "1e3", "1e20", "+.5", "-.5", "-.nan", ".", "1.0e+", ".e+1", "1.2.3",
        ] {
            assert_eq!(resolve_plain(s), ScalarValue::Str, "{s}");
        }
    }

    #[test]
    fn resolves_nulls_merge_and_value_keys() {
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(resolve_plain(s), ScalarValue::Null, "{s:?}");
        }
        assert_eq!(resolve_plain("nULL"), ScalarValue::Str);
        assert_eq!(resolve_plain("<<"), ScalarValue::Merge);
        assert_eq!(resolve_plain("="), ScalarValue::ValueKey);
    }

    #[test]
    fn constructs_explicitly_tagged_scalars() {
        let t = |suffix: &str, text: &str| {
            construct_tagged(&format!("tag:yaml.org,2002:{suffix}"), text)
        };
        assert_eq!(t("int", "0x10"), Ok(int(16)));
        assert_eq!(t("int", "0o17"), Ok(int(15)));
        assert!(t("int", "abc").is_err());
        assert!(t("int", "").is_err());
        assert_eq!(t("float", "1"), Ok(ScalarValue::Float(1.0)));
        assert_eq!(t("float", "1e-7"), Ok(ScalarValue::Float(1e-7)));
        assert_eq!(t("bool", "YeS"), Ok(ScalarValue::Bool(true)));
        assert!(t("bool", "maybe").is_err());
        assert_eq!(t("null", "x"), Ok(ScalarValue::Null));
        assert_eq!(t("str", "12"), Ok(ScalarValue::Str));
        assert_eq!(t("timestamp", "2001-01-01"), Ok(ScalarValue::Str));
        assert!(construct_tagged("!custom", "x").is_err());
    }

    #[test]
    fn the_short_decimal_path_constructs_what_the_general_one_does() {
        for text in [
            "0",
            "-0",
            "+0",
            "7",
            "-7",
            "+7",
            "10",
            "1_0",
            "010",
            "0x1f",
            "0b11",
            "0o17",
            "1:30",
            "-1:30",
            "999999999999999999",
            "-999999999999999999",
            "9223372036854775807",
            "-9223372036854775808",
            "9223372036854775808",
            "12345678901234567890",
            "",
            "-",
            "+",
            "--1",
            "+-1",
            "1a",
            "\u{663}",
        ] {
            assert_eq!(construct_int(text), construct_int_general(text), "{text:?}");
        }
    }
}
