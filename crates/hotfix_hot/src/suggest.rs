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
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        // The distance is at least the difference in length: a candidate more than two
        // characters longer or shorter can be neither close enough nor, once one is, closer.
        if word.is_ascii() && candidate.is_ascii() && candidate.len().abs_diff(word.len()) > 2 {
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
        let rank = (distance, prefix);
        match best {
            Some((d, p)) if (d, p) == rank => found.push(candidate),
            Some((d, p)) if d < distance || (d == distance && p > prefix) => {}
            _ => {
                best = Some(rank);
                found = vec![candidate];
            }
        }
    }
    match best {
        Some((distance, _)) if distance <= 2 && distance * 2 < word.chars().count().max(2) => found,
        _ => Vec::new(),
    }
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
