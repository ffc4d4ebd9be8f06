//! "Did you mean": the closest known name to a misspelt one.

/// The closest candidate to `word`, if it is close enough to be a likely typo: a different
/// case, or at most two edits (and fewer than half the word) away. Ties go to the candidate
/// sharing the longest prefix (`2016-10-15` → `2016-10-14`), then to the first.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    closest(word, candidates).first().copied()
}

/// Every candidate as close to `word` as the closest one (same distance, same shared prefix),
/// in the candidates' order, when that is close enough for [`did_you_mean`]; else none.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Vec<&'c str> {
    let lower = word.to_lowercase();
    let length = lower.chars().count();
    let mut best: Option<(usize, usize)> = None;
    let mut found = Vec::new();
    let mut candidate_lower = String::new();
    let mut rows = (Vec::new(), Vec::new());
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        if word.is_ascii() && candidate.is_ascii() {
            // The distance is at least the difference in length: a candidate more than two
            // characters longer or shorter can be neither close enough nor, once one is, closer.
            if candidate.len().abs_diff(word.len()) > 2 {
                continue;
            }
            // ASCII names (nearly all) are compared byte by byte, lowercased on the fly, and
            // only as far as matters: a distance over two is never suggested, so every such
            // distance counts as three (a template naming thousands of missing names against
            // thousands of resources spent seconds in full distances and copies).
            // Each edit adds or removes at most one letter from the set of letters written, so
            // two names whose sets differ by more than four letters are too far apart.
            if (letters(lower.as_bytes()) ^ letters(candidate.as_bytes())).count_ones() > 4 {
                continue;
            }
            let distance = capped_distance(lower.as_bytes(), candidate.as_bytes(), &mut rows);
            let prefix = lower
                .bytes()
                .zip(candidate.bytes())
                .take_while(|(a, b)| *a == b.to_ascii_lowercase())
                .count();
            rank(&mut best, &mut found, (distance, prefix), candidate);
            continue;
        }
        candidate_lower.clear();
        candidate_lower.extend(candidate.chars().flat_map(char::to_lowercase));
        if candidate_lower.chars().count().abs_diff(length) > 2 {
            continue;
        }
        let distance = if candidate_lower == lower {
            0
        } else {
            levenshtein(&lower, &candidate_lower)
        };
        let prefix = lower
            .chars()
            .zip(candidate_lower.chars())
            .take_while(|(a, b)| a == b)
            .count();
        rank(&mut best, &mut found, (distance, prefix), candidate);
    }
    match best {
        Some((distance, _)) if distance <= 2 && distance * 2 < word.chars().count().max(2) => found,
        _ => Vec::new(),
    }
}

/// Keeps `candidate` among the closest found so far (`found`, at `best`: distance, shared
/// prefix) when its `rank` is as good, in their place when better.
fn rank<'c>(
    best: &mut Option<(usize, usize)>,
    found: &mut Vec<&'c str>,
    rank: (usize, usize),
    candidate: &'c str,
) {
    let (distance, prefix) = rank;
    match *best {
        Some(known) if known == rank => found.push(candidate),
        Some((d, p)) if d < distance || (d == distance && p > prefix) => {}
        _ => {
            *best = Some(rank);
            *found = vec![candidate];
        }
    }
}

/// The set of lowercased ASCII letters (and other bytes, folded onto 64 bits) of `text`.
fn letters(text: &[u8]) -> u64 {
    text.iter()
        .fold(0, |set, b| set | 1 << (b.to_ascii_lowercase() % 64))
}

/// The distance [`closest`] takes as too far to suggest: every distance from here counts as this.
const TOO_FAR: usize = 3;

/// [`levenshtein`] between `lower` (lowercase ASCII) and `candidate` (ASCII, lowercased here),
/// or [`TOO_FAR`] when it is that or more: only the cells within [`TOO_FAR`] of the diagonal
/// are computed, in the two rows `rows` lends.
fn capped_distance(lower: &[u8], candidate: &[u8], rows: &mut (Vec<usize>, Vec<usize>)) -> usize {
    let (n, m) = (lower.len(), candidate.len());
    if n.abs_diff(m) >= TOO_FAR {
        return TOO_FAR;
    }
    let (previous, current) = rows;
    previous.clear();
    previous.extend((0..=m).map(|j| j.min(TOO_FAR)));
    current.clear();
    current.resize(m + 1, TOO_FAR);
    for i in 1..=n {
        let low = i.saturating_sub(TOO_FAR);
        let high = (i + TOO_FAR).min(m);
        // Cells outside the band of the row before count as too far.
        if high == i + TOO_FAR {
            previous[high] = TOO_FAR;
        }
        let first = if low == 0 {
            current[0] = i.min(TOO_FAR);
            1
        } else {
            current[low - 1] = TOO_FAR;
            low
        };
        let mut row_min = if low == 0 { current[0] } else { TOO_FAR };
        let a = lower[i - 1];
        for j in first..=high {
            let substitution =
                previous[j - 1] + usize::from(a != candidate[j - 1].to_ascii_lowercase());
            let cell = substitution
                .min(previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(TOO_FAR);
            current[j] = cell;
            row_min = row_min.min(cell);
        }
        if row_min >= TOO_FAR {
            return TOO_FAR;
        }
        std::mem::swap(previous, current);
    }
    previous[m].min(TOO_FAR)
}

/// Edit distance (insertions, deletions, substitutions) between two strings.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capped_distance_is_the_distance_up_to_too_far() {
        let words = [
            "", "a", "ab", "ba", "abc", "acb", "server", "Server", "sever", "servers", "srever",
            "server1", "server12", "xerver", "port_a", "port_b", "por", "network", "netwrok",
            "kitten", "sitting", "aaaa", "aaab", "abab", "r0123", "z0123", "r0124",
        ];
        let mut rows = (Vec::new(), Vec::new());
        for a in words {
            let lower = a.to_ascii_lowercase();
            for b in words {
                let full = levenshtein(&lower, &b.to_ascii_lowercase()).min(TOO_FAR);
                let capped = capped_distance(lower.as_bytes(), b.as_bytes(), &mut rows);
                assert_eq!(capped, full, "{a} / {b}");
            }
        }
    }

    #[test]
    fn the_closest_of_thousands_of_names_is_found() {
        let names: Vec<String> = (0..5000).map(|i| format!("resource_{i}")).collect();
        let candidates = || names.iter().map(String::as_str);
        assert_eq!(
            did_you_mean("resource_4999x", candidates()),
            Some("resource_4999")
        );
        assert_eq!(
            did_you_mean("RESOURCE_12", candidates()),
            Some("resource_12")
        );
        assert_eq!(
            did_you_mean("resuorce_777", candidates()),
            Some("resource_777")
        );
        assert_eq!(did_you_mean("volume_1", candidates()), None);
        // Equally close: the ones sharing the longest prefix, in order.
        assert_eq!(
            closest("resource_100000", candidates()),
            vec!["resource_1000"]
        );
    }
}
