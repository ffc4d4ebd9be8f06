//! Whether Python's `json.loads` accepts a string, and if not, its exact error text
//! (`Expecting value: line 1 column 1 (char 0)`), read by [`hotfix_yaml::json_loads`].
//!
//! Heat parses a `json` parameter's string value with `jsonutils.loads`, which is
//! `json.loads`: it accepts `NaN`, `Infinity` and `-Infinity`, rejects control characters in
//! strings, and reports the first error with a line, column and character offset.

use hotfix_yaml::json_loads::{Build, Check, LoadsError};

/// How deep arrays and objects may nest before the answer is declared unknown (Heat deeper in
/// its call stack stops earlier than `hotfix_eval`'s measured 987 levels).
const MAX_DEPTH: usize = 200;

/// `Ok(())` when `json.loads(text)` succeeds, `Err(message)` with Python's message when it
/// fails, `None` when nesting is too deep to tell.
pub(in crate::rules) fn loads(text: &str) -> Option<Result<(), String>> {
    match hotfix_yaml::json_loads::loads(text, MAX_DEPTH, &mut Check) {
        Ok(()) => Some(Ok(())),
        Err(LoadsError::Syntax(message)) => Some(Err(message)),
        Err(LoadsError::TooDeep { .. }) => None,
    }
}

/// `len(json.loads(text))` for a document whose top level is an array, an object (repeated
/// keys count once, as in a `dict`) or a string; `None` for anything else or invalid JSON.
pub(super) fn top_level_len(text: &str) -> Option<usize> {
    hotfix_yaml::json_loads::loads(text, MAX_DEPTH, &mut Length).ok()?
}

/// `len()` of each value read, where Python has one (a `list`, a `dict`, a `str`).
struct Length;

impl Build for Length {
    type Value = Option<usize>;
    fn null(&mut self) -> Option<usize> {
        None
    }
    fn boolean(&mut self, _: bool) -> Option<usize> {
        None
    }
    fn number(&mut self, _: &str, _: bool) -> Option<usize> {
        None
    }
    fn string(&mut self, code_points: &[u32]) -> Option<usize> {
        Some(code_points.len())
    }
    fn list(&mut self, items: Vec<Option<usize>>) -> Option<usize> {
        Some(items.len())
    }
    fn object(&mut self, entries: Vec<(Vec<u32>, Option<usize>)>) -> Option<usize> {
        let keys: std::collections::HashSet<&[u32]> =
            entries.iter().map(|(key, _)| key.as_slice()).collect();
        Some(keys.len())
    }
}

#[cfg(test)]
mod tests {
    use super::{loads, top_level_len};

    #[test]
    fn answers_as_json_loads_and_len() {
        // Python's messages are hotfix_yaml::json_loads's (tested there).
        assert_eq!(
            loads("[1,"),
            Some(Err("Expecting value: line 1 column 4 (char 3)".to_owned()))
        );
        for ok in [
            "-Infinity",
            "NaN",
            "1e5",
            "1E+5",
            "-0",
            "  {}  ",
            "{\"a\":1, \"a\":2}",
            "{\"\\ud800\": 1}",
        ] {
            assert_eq!(loads(ok), Some(Ok(())), "{ok:?}");
        }
        // Deeper than it can tell.
        assert_eq!(
            loads(&format!("{}{}", "[".repeat(201), "]".repeat(201))),
            None
        );
        assert_eq!(top_level_len("[1, [2, 3], {}]"), Some(3));
        assert_eq!(top_level_len(" {\"a\": 1, \"a\": 2, \"b\": []} "), Some(2));
        assert_eq!(top_level_len("\"\\ud83d\\ude00x\""), Some(2));
        // Lone surrogates are two keys, as in Python's `dict`.
        assert_eq!(top_level_len("{\"\\ud800\": 1, \"\\udc00\": 2}"), Some(2));
        assert_eq!(top_level_len("5"), None);
        assert_eq!(top_level_len("[1,"), None);
    }
}
