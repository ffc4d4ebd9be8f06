//! Eight bytes at a time: the runs the scanner skips most (indentation, a plain scalar's
//! ordinary characters, a comment's text, the printable check) are found a word at a time,
//! without `unsafe`.
//!
//! Each mask below sets the high bit of the bytes it flags. A mask may flag a byte that does
//! not match only above (after, in memory) one that does, so its lowest flag is exact: the
//! first matching byte is the mask's trailing zeros over eight (the word is read
//! little-endian, its first byte lowest). Masks are combined with `|`, which keeps that.

pub(crate) const ONES: u64 = u64::from_le_bytes([0x01; 8]);
pub(crate) const HIGHS: u64 = ONES * 0x80;

/// The eight bytes at `at`, first byte lowest; `None` within eight bytes of the end.
#[inline]
pub(crate) fn word(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(chunk))
}

/// Bytes equal to zero (exact for the lowest).
#[inline]
pub(crate) const fn zero(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// Bytes equal to `c` (exact for the lowest).
#[inline]
pub(crate) const fn eq(x: u64, c: u8) -> u64 {
    zero(x ^ (ONES * c as u64))
}

/// Bytes below `n` (`n` at most 0x80; exact for the lowest).
#[inline]
pub(crate) const fn below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * n as u64) & !x & HIGHS
}

/// Bytes that are not zero (exact for every byte).
#[inline]
pub(crate) const fn nonzero(x: u64) -> u64 {
    (((x & !HIGHS) + !HIGHS) | x) & HIGHS
}

/// The index (0..8) of the lowest flagged byte of a mask that is not zero.
#[inline]
pub(crate) const fn first(mask: u64) -> usize {
    (mask.trailing_zeros() / 8) as usize
}

/// How many bytes from `at` are spaces (and tabs, with `tabs`).
#[inline]
pub(crate) fn blanks(bytes: &[u8], at: usize, tabs: bool) -> usize {
    let mut i = at;
    while let Some(x) = word(bytes, i) {
        let mut other = nonzero(x ^ (ONES * u64::from(b' ')));
        if tabs {
            other &= nonzero(x ^ (ONES * u64::from(b'\t')));
        }
        if other != 0 {
            return i + first(other) - at;
        }
        i += 8;
    }
    while i < bytes.len() && (bytes[i] == b' ' || (tabs && bytes[i] == b'\t')) {
        i += 1;
    }
    i - at
}

/// The offset of the first byte from `at` that `pred` holds for (the length when none), with
/// `hit`, a word test that flags exactly those bytes (its lowest flag exact).
#[inline]
pub(crate) fn find(
    bytes: &[u8],
    at: usize,
    hit: impl Fn(u64) -> u64,
    pred: impl Fn(u8) -> bool,
) -> usize {
    let mut i = at;
    while let Some(x) = word(bytes, i) {
        let mask = hit(x);
        if mask != 0 {
            return i + first(mask);
        }
        i += 8;
    }
    while i < bytes.len() && !pred(bytes[i]) {
        i += 1;
    }
    i
}

/// How many bytes from `at` are none of `stops` (a byte table), with a word test `hit` that
/// flags at least every stop byte (it may flag more: a byte it flags is then looked up).
#[inline]
pub(crate) fn run_until(
    bytes: &[u8],
    at: usize,
    stops: &[bool; 256],
    hit: impl Fn(u64) -> u64,
) -> usize {
    let mut i = at;
    while let Some(x) = word(bytes, i) {
        let mask = hit(x);
        if mask == 0 {
            i += 8;
            continue;
        }
        let j = i + first(mask);
        if stops[bytes[j] as usize] {
            return j - at;
        }
        i = j + 1;
    }
    while i < bytes.len() && !stops[bytes[i] as usize] {
        i += 1;
    }
    i - at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_find_the_first_matching_byte_at_every_position() {
        let probes = [
            0u8, 1, 8, 9, 10, 13, 31, 32, 33, 58, 63, 91, 123, 125, 127, 128, 194, 255,
        ];
        for fill in [b'a', b' ', 0x7F, 0xFF, 0x00] {
            for probe in probes {
                for pos in 0..8 {
                    let mut w = [fill; 8];
                    w[pos] = probe;
                    let x = u64::from_le_bytes(w);
                    let naive = |f: &dyn Fn(u8) -> bool| w.iter().position(|&b| f(b));
                    let got = |m: u64| (m != 0).then(|| first(m));
                    assert_eq!(got(zero(x)), naive(&|b| b == 0), "{w:?}");
                    assert_eq!(got(eq(x, b':')), naive(&|b| b == b':'), "{w:?}");
                    assert_eq!(got(below(x, 0x21)), naive(&|b| b < 0x21), "{w:?}");
                    assert_eq!(got(below(x, 0x80)), naive(&|b| b < 0x80), "{w:?}");
                    assert_eq!(got(nonzero(x)), naive(&|b| b != 0), "{w:?}");
                    assert_eq!(got(x & HIGHS), naive(&|b| b >= 0x80), "{w:?}");
                }
            }
        }
    }

    #[test]
    fn blanks_and_runs_match_a_byte_loop() {
        let mut table = [false; 256];
        table[b':' as usize] = true;
        table[b'\n' as usize] = true;
        let text = b"  \t  a:b  \t\t\n x:                  \tz ok\n";
        for at in 0..text.len() {
            for tabs in [false, true] {
                let naive = text[at..]
                    .iter()
                    .position(|&b| !(b == b' ' || (tabs && b == b'\t')))
                    .unwrap_or(text.len() - at);
                assert_eq!(blanks(text, at, tabs), naive, "{at} {tabs}");
            }
            let naive = text[at..]
                .iter()
                .position(|&b| table[b as usize])
                .unwrap_or(text.len() - at);
            // A test that flags more than the table's stops (every byte below 0x3B).
            assert_eq!(run_until(text, at, &table, |x| below(x, 0x3B)), naive);
        }
    }
}
