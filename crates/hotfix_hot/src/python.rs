//! Python's conversions of a `str` that Heat applies to the values of a template: `int()`,
//! `float()`, Heat's `Schema.str_to_num` (`int()`, else `float()`) and oslo's
//! `bool_from_string`. One model for every part of hotfix (the linter's checks of literal values
//! and the evaluator's values alike), pinned by what Python answers.
//!
//! ```
//! use hotfix_hot::python::{Int, NotConverted, int_of_str, float_of_str};
//!
//! assert_eq!(int_of_str(" 1_000 "), Ok(Int::Small(1000)));
//! assert_eq!(int_of_str("+-5"), Err(NotConverted::ValueError));
//! assert_eq!(float_of_str("1_0.5"), Ok(10.5));
//! assert_eq!(float_of_str("1_.5"), Err(NotConverted::ValueError));
//! ```

use hotfix_yaml::python_str_repr;

/// Why a `str` does not convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotConverted {
    /// Python raises `ValueError`.
    ValueError,
    /// Not modelled: the text holds characters that may be Unicode digits, which Python reads
    /// (`int('١٢')` is 12).
    Unknown,
}

/// An `int`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Int {
    Small(i128),
    /// Outside `i128`: its `str()` (a sign, digits without leading zeros).
    Big(String),
}

/// A number `str_to_num` returns.
#[derive(Clone, Debug, PartialEq)]
pub enum Number {
    Int(Int),
    Float(f64),
}

/// How many digits `int()` reads from a `str` (`sys.get_int_max_str_digits()`); beyond, it
/// raises `ValueError`.
const MAX_STR_DIGITS: usize = 4300;

/// Python's `str.strip()`: white space, and the separators `\x1c`..`\x1f` (which `int()` and
/// `float()` do not strip).
pub fn strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
}

/// Digits with single underscores between them (`1_000`), as `int()` and `float()` accept.
fn digit_run(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('_')
        && !s.ends_with('_')
        && !s.contains("__")
        && s.bytes().all(|c| c.is_ascii_digit() || c == b'_')
}

/// What a text that is not ASCII fails with: `Unknown` when a character may be a Unicode
/// digit, else `ValueError`.
fn not_ascii(t: &str) -> NotConverted {
    if t.chars().any(|c| !c.is_ascii() && c.is_numeric()) {
        NotConverted::Unknown
    } else {
        NotConverted::ValueError
    }
}

/// Python's `int(s)` for a `str`: surrounding white space, a sign, digits with single
/// underscores between them, at most 4,300 of them.
///
/// # Errors
/// When Python raises `ValueError`, or the text is beyond this model.
pub fn int_of_str(s: &str) -> Result<Int, NotConverted> {
    let t = s.trim();
    if !t.is_ascii() {
        return Err(not_ascii(t));
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    if !digit_run(unsigned) {
        return Err(NotConverted::ValueError);
    }
    let digits: String = unsigned.chars().filter(|&c| c != '_').collect();
    if digits.len() > MAX_STR_DIGITS {
        return Err(NotConverted::ValueError);
    }
    let negative = t.starts_with('-');
    if let Ok(n) = digits.parse::<i128>() {
        return Ok(Int::Small(if negative { -n } else { n }));
    }
    let digits = digits.trim_start_matches('0');
    Ok(Int::Big(if negative {
        format!("-{digits}")
    } else {
        digits.to_owned()
    }))
}

/// Python's `float(s)` for a `str`: surrounding white space, a sign, then `inf`, `infinity`
/// or `nan` in any case, or digits with single underscores between them, a fraction and an
/// exponent.
///
/// # Errors
/// When Python raises `ValueError`, or the text is beyond this model.
pub fn float_of_str(s: &str) -> Result<f64, NotConverted> {
    let t = s.trim();
    if !t.is_ascii() {
        return Err(not_ascii(t));
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    let sign = if t.starts_with('-') { -1.0 } else { 1.0 };
    match unsigned.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => return Ok(sign * f64::INFINITY),
        "nan" => return Ok(sign * f64::NAN),
        _ => {}
    }
    if !valid_float(unsigned) {
        return Err(NotConverted::ValueError);
    }
    let clean: String = unsigned.chars().filter(|&c| c != '_').collect();
    clean
        .parse::<f64>()
        .map(|f| sign * f)
        .map_err(|_| NotConverted::ValueError)
}

/// `digits [. digits] [e [sign] digits]` or `. digits …`, underscores between digits.
fn valid_float(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            (int.is_empty() || digit_run(int))
                && (frac.is_empty() || digit_run(frac))
                && !(int.is_empty() && frac.is_empty())
        }
        None => digit_run(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digit_run(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

/// Heat's `Schema.str_to_num` for a `str`: `int(s)`, else `float(s)`.
///
/// # Errors
/// When both raise (the message is then [`float_error`]'s), or the text is beyond this model.
pub fn str_to_num(s: &str) -> Result<Number, NotConverted> {
    match int_of_str(s) {
        Ok(n) => Ok(Number::Int(n)),
        Err(NotConverted::Unknown) => Err(NotConverted::Unknown),
        Err(NotConverted::ValueError) => float_of_str(s).map(Number::Float),
    }
}

/// The `ValueError` text of `float(s)`.
pub fn float_error(s: &str) -> String {
    format!("could not convert string to float: {}", python_str_repr(s))
}

/// `oslo_utils.strutils.bool_from_string(subject, strict=True)` for the `str()` of a value.
///
/// # Errors
/// oslo's `ValueError` text.
pub fn bool_from_string(subject: &str) -> Result<bool, String> {
    match strip(subject).to_lowercase().as_str() {
        "1" | "t" | "true" | "on" | "y" | "yes" => Ok(true),
        "0" | "f" | "false" | "off" | "n" | "no" => Ok(false),
        _ => Err(format!(
            "Unrecognized value '{subject}', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_as_cpython_does() {
        // Each answer is Python 3.11's (the interpreter of the Heat oracle).
        let int = |s: &str| int_of_str(s);
        assert_eq!(int(" 5 "), Ok(Int::Small(5)));
        assert_eq!(int("\u{a0}5"), Ok(Int::Small(5)));
        assert_eq!(int("\u{85} 7"), Ok(Int::Small(7)));
        assert_eq!(int("-0"), Ok(Int::Small(0)));
        assert_eq!(int("007"), Ok(Int::Small(7)));
        assert_eq!(int("\x1c5"), Err(NotConverted::ValueError));
        assert_eq!(int("+-5"), Err(NotConverted::ValueError));
        assert_eq!(int("1_.5"), Err(NotConverted::ValueError));
        assert_eq!(int("0x10"), Err(NotConverted::ValueError));
        assert_eq!(int("١٢"), Err(NotConverted::Unknown));
        assert_eq!(
            int("-000170141183460469231731687303715884105728"),
            Ok(Int::Big(
                "-170141183460469231731687303715884105728".to_owned()
            ))
        );
        assert_eq!(int(&"1".repeat(4300)).map(|_| ()), Ok(()));
        assert_eq!(int(&"1".repeat(4301)), Err(NotConverted::ValueError));

        let float = |s: &str| float_of_str(s);
        assert_eq!(float("1_0.5"), Ok(10.5));
        assert_eq!(float("+.5"), Ok(0.5));
        assert_eq!(float("5."), Ok(5.0));
        assert_eq!(float("1e5_0"), Ok(1e50));
        assert_eq!(float("-Infinity"), Ok(f64::NEG_INFINITY));
        assert_eq!(float("+inf"), Ok(f64::INFINITY));
        assert!(float("nAn").is_ok_and(f64::is_nan));
        assert_eq!(float(&"1".repeat(4301)), Ok(f64::INFINITY));
        for refused in [
            "1_.5", "1._5", "1_e5", "+-inf", "+-5", "0x10", "\x1c5", ".", "e5", "",
        ] {
            assert_eq!(float(refused), Err(NotConverted::ValueError), "{refused:?}");
        }

        assert_eq!(
            str_to_num("99999999999999999999"),
            Ok(Number::Int(Int::Small(99_999_999_999_999_999_999)))
        );
        assert_eq!(str_to_num("1.50"), Ok(Number::Float(1.5)));
        assert_eq!(
            str_to_num(&"1".repeat(4301)),
            Ok(Number::Float(f64::INFINITY))
        );
        assert_eq!(
            float_error("x'"),
            "could not convert string to float: \"x'\""
        );

        assert_eq!(bool_from_string("\x1c TRUE\x1f"), Ok(true));
        assert_eq!(bool_from_string(" no"), Ok(false));
        assert!(bool_from_string("2").is_err());
    }
}
