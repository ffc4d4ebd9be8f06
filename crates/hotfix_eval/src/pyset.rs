//! The iteration order of a Python `set` of `str`, as `CPython` 3.11 builds it with hash
//! randomization off (`PYTHONHASHSEED=0`, which the Heat oracles set): `str` hashes are
//! SipHash-1-3 with a zero key over the string's internal representation (1, 2 or 4 bytes a
//! character), and the set is an open-addressing table (`Objects/setobject.c`). Heat prints such
//! a set in one error text: `Invalid keyword(s) inside a resource definition: …`, the keys of a
//! resource snippet minus the version's resource keys.

/// `', '.join(set(keys) - frozenset(valid))`'s order: the items of `keys` that are not in
/// `valid`. `keys` are a dict's keys (in insertion order, each once) when `from_dict`, else
/// the items of another iterable (a str's characters, a list's items), which `set()` adds one
/// by one. `None` where `CPython` takes another path than the one modelled here (a set more
/// than four times larger than `valid`).
pub(crate) fn difference(keys: &[&str], valid: &[&str], from_dict: bool) -> Option<Vec<String>> {
    let keys: Vec<Key<'_>> = keys.iter().map(|k| Key::Str(k)).collect();
    let found = difference_of(&keys, valid, from_dict)?;
    Some(
        found
            .into_iter()
            .map(|k| match k {
                Key::Str(s) => s.to_owned(),
                Key::Int(i) | Key::Bool(i) => i.to_string(),
            })
            .collect(),
    )
}

/// A hashable key: a str, an int, or a bool (`True == 1` in Python; a dict never holds both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key<'a> {
    Str(&'a str),
    Int(i64),
    Bool(i64),
}

impl Key<'_> {
    /// `hash()`: an int's is itself below 2**61 - 1 (`-1` is `-2`), a bool's is 0 or 1.
    fn hash(self) -> Option<i64> {
        match self {
            Key::Str(s) => Some(str_hash(s)),
            Key::Int(-1) => Some(-2),
            Key::Int(i) | Key::Bool(i) if i.unsigned_abs() < (1u64 << 61) - 1 => Some(i),
            Key::Int(_) | Key::Bool(_) => None,
        }
    }

    fn same(self, other: Key<'_>) -> bool {
        match (self, other) {
            (Key::Str(a), Key::Str(b)) => a == b,
            (Key::Int(a) | Key::Bool(a), Key::Int(b) | Key::Bool(b)) => a == b,
            _ => false,
        }
    }
}

/// [`difference`] over keys of several types, in the set's order.
pub(crate) fn difference_of<'a>(
    keys: &[Key<'a>],
    valid: &[&str],
    from_dict: bool,
) -> Option<Vec<Key<'a>>> {
    let mut unique_valid: Vec<&str> = valid.to_vec();
    unique_valid.sort_unstable();
    unique_valid.dedup();
    // `set_difference` copies the set and discards instead when it is much larger.
    let mut whole = Set::new();
    if from_dict {
        whole.update_from_dict(keys)?;
    } else {
        for &key in keys {
            whole.add(key, key.hash()?);
        }
    }
    if (whole.iter().count() >> 2) > unique_valid.len() {
        return None;
    }
    let mut result = Set::new();
    for (key, hash) in whole.iter() {
        if !matches!(key, Key::Str(k) if unique_valid.contains(&k)) {
            result.add(key, hash);
        }
    }
    Some(result.iter().map(|(k, _)| k).collect())
}

const MINSIZE: usize = 8;
const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

/// A set table: slots of `(key, hash)`.
struct Set<'a> {
    table: Vec<Option<(Key<'a>, i64)>>,
    fill: usize,
}

impl<'a> Set<'a> {
    fn new() -> Set<'a> {
        Set {
            table: vec![None; MINSIZE],
            fill: 0,
        }
    }

    fn mask(&self) -> usize {
        self.table.len() - 1
    }

    /// `set_update_internal` with an exact dict: one resize up front, then each key.
    fn update_from_dict(&mut self, keys: &[Key<'a>]) -> Option<()> {
        if (self.fill + keys.len()) * 5 >= self.mask() * 3 {
            self.resize((self.fill + keys.len()) * 2);
        }
        for &key in keys {
            self.add(key, key.hash()?);
        }
        Some(())
    }

    /// `set_add_entry` (no dummies: nothing is ever removed here).
    fn add(&mut self, key: Key<'a>, hash: i64) {
        let mask = self.mask();
        for (i, probes) in probe_starts(hash, mask) {
            for j in i..=i + probes {
                match self.table[j] {
                    None => {
                        self.table[j] = Some((key, hash));
                        self.fill += 1;
                        if self.fill * 5 >= mask * 3 {
                            self.resize(self.fill * 4);
                        }
                        return;
                    }
                    Some((k, h)) if h == hash && k.same(key) => return,
                    Some(_) => {}
                }
            }
        }
    }

    /// `set_table_resize`: the smallest power of two above `minused`, entries re-inserted in
    /// table order (`set_insert_clean`).
    fn resize(&mut self, minused: usize) {
        let mut size = MINSIZE;
        while size <= minused {
            size <<= 1;
        }
        let old = std::mem::replace(&mut self.table, vec![None; size]);
        let mask = size - 1;
        for (key, hash) in old.into_iter().flatten() {
            'probe: for (i, probes) in probe_starts(hash, mask) {
                for j in i..=i + probes {
                    if self.table[j].is_none() {
                        self.table[j] = Some((key, hash));
                        break 'probe;
                    }
                }
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = (Key<'a>, i64)> + '_ {
        self.table.iter().flatten().copied()
    }
}

/// The slots where each probe of a table of `mask + 1` slots starts for `hash`, with how many
/// slots after it are looked at too (`LINEAR_PROBES` when they fit before the end): the
/// sequence `set_add_entry` and `set_insert_clean` follow. Endless; the caller stops.
fn probe_starts(hash: i64, mask: usize) -> impl Iterator<Item = (usize, usize)> {
    #[allow(
        clippy::cast_sign_loss,
        reason = "`CPython`'s (size_t)hash, on a 64-bit build"
    )]
    let mut perturb = hash as u64;
    let wide_mask = mask as u64;
    let mut i = perturb & wide_mask;
    std::iter::from_fn(move || {
        let start = usize::try_from(i).unwrap_or(0);
        let probes = if start + LINEAR_PROBES <= mask {
            LINEAR_PROBES
        } else {
            0
        };
        perturb >>= PERTURB_SHIFT;
        i = (i.wrapping_mul(5).wrapping_add(1).wrapping_add(perturb)) & wide_mask;
        Some((start, probes))
    })
}

/// `hash(s)` with `PYTHONHASHSEED=0`: SipHash-1-3, zero key, over the internal representation
/// (Latin-1 bytes, else UCS-2, else UCS-4, little-endian); `-1` becomes `-2`; `''` is `0`.
fn str_hash(s: &str) -> i64 {
    let widest = s.chars().map(|c| c as u32).max().unwrap_or(0);
    let mut bytes = Vec::with_capacity(s.len() * 4);
    for c in s.chars() {
        let c = c as u32;
        if widest < 0x100 {
            bytes.push(c.to_le_bytes()[0]);
        } else if widest < 0x1_0000 {
            bytes.extend_from_slice(&c.to_le_bytes()[..2]);
        } else {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
    }
    if bytes.is_empty() {
        return 0;
    }
    #[allow(
        clippy::cast_possible_wrap,
        reason = "`CPython`'s (Py_hash_t) of the u64"
    )]
    let hash = siphash13(&bytes) as i64;
    if hash == -1 { -2 } else { hash }
}

fn siphash13(data: &[u8]) -> u64 {
    let mut v0: u64 = 0x736f_6d65_7073_6575;
    let mut v1: u64 = 0x646f_7261_6e64_6f6d;
    let mut v2: u64 = 0x6c79_6765_6e65_7261;
    let mut v3: u64 = 0x7465_6462_7974_6573;
    let round = |v0: &mut u64, v1: &mut u64, v2: &mut u64, v3: &mut u64| {
        *v0 = v0.wrapping_add(*v1);
        *v2 = v2.wrapping_add(*v3);
        *v1 = v1.rotate_left(13) ^ *v0;
        *v3 = v3.rotate_left(16) ^ *v2;
        *v0 = v0.rotate_left(32);
        *v2 = v2.wrapping_add(*v1);
        *v0 = v0.wrapping_add(*v3);
        *v1 = v1.rotate_left(17) ^ *v2;
        *v3 = v3.rotate_left(21) ^ *v0;
        *v2 = v2.rotate_left(32);
    };
    let mut chunks = data.chunks_exact(8);
    for chunk in &mut chunks {
        let m = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        v3 ^= m;
        round(&mut v0, &mut v1, &mut v2, &mut v3);
        v0 ^= m;
    }
    let mut last = [0u8; 8];
    let rest = chunks.remainder();
    last[..rest.len()].copy_from_slice(rest);
    let b = ((data.len() as u64) << 56) | u64::from_le_bytes(last);
    v3 ^= b;
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    v0 ^= b;
    v2 ^= 0xff;
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    (v0 ^ v1) ^ (v2 ^ v3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `hash()` of these strings in `CPython` 3.11 with `PYTHONHASHSEED=0`.
    #[test]
    fn str_hashes_are_cpythons_with_hash_randomization_off() {
        assert_eq!(str_hash("a"), 4_644_417_185_603_328_019);
        assert_eq!(str_hash(""), 0);
        assert_eq!(str_hash("alpha"), 6_408_890_135_650_488_130);
        assert_eq!(str_hash("é"), 6_047_309_291_227_476_195);
        assert_eq!(str_hash("€x"), -483_395_623_852_268_653);
        assert_eq!(str_hash("😀"), -3_536_540_696_076_613_844);
    }

    /// `', '.join(set(dict.fromkeys(keys)) - frozenset(HOT's resource keys))` in `CPython` 3.11
    /// with `PYTHONHASHSEED=0`.
    #[test]
    fn set_difference_iterates_in_cpythons_order() {
        let valid = [
            "type",
            "properties",
            "metadata",
            "depends_on",
            "deletion_policy",
            "update_policy",
            "description",
            "external_id",
            "condition",
        ];
        let join = |keys: &[&str]| difference(keys, &valid, true).map(|v| v.join(", "));
        assert_eq!(
            join(&["type", "propertys", "metdata", "dependson", "alpha"]).as_deref(),
            Some("metdata, alpha, dependson, propertys")
        );
        let many: Vec<String> = std::iter::once("type".to_owned())
            .chain((0..30).map(|i| format!("k{i}")))
            .collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            join(&many).as_deref(),
            Some(
                "k1, k28, k25, k8, k14, k18, k7, k29, k15, k9, k3, k0, k10, k5, k20, k24, k19, \
                 k22, k17, k6, k16, k11, k12, k23, k21, k2, k26, k27, k13, k4"
            )
        );
        assert_eq!(
            join(&["properties", "é", "€x", "😀", "zz", "type"]).as_deref(),
            Some("zz, é, €x, 😀")
        );
        assert_eq!(
            join(&["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]).as_deref(),
            Some("d, f, g, h, k, b, i, c, a, j, e, l")
        );
        // `set('OS::Heat::None') - …`: a str's characters, added one by one.
        let chars: Vec<String> = "OS::Heat::None".chars().map(String::from).collect();
        let chars: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(
            difference(&chars, &valid, false)
                .map(|v| v.join(", "))
                .as_deref(),
            Some("S, n, t, H, N, :, a, o, e, O")
        );
    }
}
