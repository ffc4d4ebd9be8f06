//! Timestamps as PyYAML's pure-Python loader constructs them: Heat's second try (where libyaml
//! refuses a text) makes Python dates, and fails on one Python cannot make.

/// A timestamp as PyYAML's `construct_yaml_timestamp` reads it (`timestamp_regexp`): the date,
/// the time if any, the time zone's offset in minutes if any, and whether the month and day
/// have two digits each.
struct Timestamp {
    date: (u32, u32, u32),
    time: Option<(u32, u32, u32)>,
    /// The fraction of a second as PyYAML keeps it: its first six digits, padded with zeros.
    micros: u32,
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
    // Python's `re.match(…$)` matches before a final line break too (`!!timestamp >` folds one
    // in).
    let text = text.strip_suffix('\n').unwrap_or(text);
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
        micros: 0,
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
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let kept = &text[start..i.min(start + 6)];
        out.micros = format!("{kept:0<6}").parse().unwrap_or(0);
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

/// A timestamp that PyYAML's pure-Python loader constructs (a Python `date` or `datetime`), as
/// the request that `openstack stack create` sends holds it: python-heatclient encodes the
/// template with oslo.serialization's `jsonutils.dumps`, whose `to_primitive` writes a date with
/// `strftime('%Y-%m-%d')` and a datetime with `strftime('%Y-%m-%dT%H:%M:%S.%f')` (the time
/// zone dropped, the time kept as written). glibc's `%Y` does not pad a year below 1000.
/// Returns the text and the Python type's name; `None` where the scalar stays a string (not a
/// timestamp to the resolver) or the loader fails on it ([`pure_timestamp_fails`]).
pub(crate) fn pure_timestamp_wire(text: &str, explicit: bool) -> Option<(String, &'static str)> {
    if pure_timestamp_fails(text, explicit) {
        return None;
    }
    let t = timestamp(text)?;
    if !explicit && t.time.is_none() && !t.two_digit_date {
        return None;
    }
    let (year, month, day) = t.date;
    Some(match t.time {
        None => (format!("{year}-{month:02}-{day:02}"), "datetime.date"),
        Some((hour, minute, second)) => (
            format!(
                "{year}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{:06}",
                t.micros
            ),
            "datetime.datetime",
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_timestamp_as_the_command_line_client_sends_it() {
        let wire = |text, explicit| pure_timestamp_wire(text, explicit).map(|(t, _)| t);
        assert_eq!(wire("2001-12-14", false).as_deref(), Some("2001-12-14"));
        assert_eq!(
            wire("2001-12-14t21:59:43.10-05:00", false).as_deref(),
            Some("2001-12-14T21:59:43.100000")
        );
        assert_eq!(
            wire("2001-12-14 21:59:43.1234567 Z", false).as_deref(),
            Some("2001-12-14T21:59:43.123456")
        );
        assert_eq!(wire("2002-1-1", true).as_deref(), Some("2002-01-01"));
        assert_eq!(wire("0005-01-02", false).as_deref(), Some("5-01-02"));
        assert_eq!(wire("2002-1-2\n", true).as_deref(), Some("2002-01-02"));
        assert_eq!(wire("2002-1-2\n\n", true), None);
        assert_eq!(wire("2002-1-1", false), None);
        assert_eq!(wire("2001-13-14", false), None);
        assert_eq!(wire("x", false), None);
    }
}
