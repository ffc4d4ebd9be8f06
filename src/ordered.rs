//! Parallel work with results handled in order as they come: files are processed on every
//! core a chunk at a time, and each chunk's results are handed over (printed, written) in the
//! order of the files before the next chunk starts. Output appears while the run goes on, stays
//! deterministic, and only one chunk of results is held at a time.

use rayon::prelude::*;

/// How many items are processed between two hand-overs: enough to keep every core busy, few
/// enough that output flows and memory stays small.
const CHUNK: usize = 64;

/// Runs `work` on every item in parallel and `handle` on each result, in the items' order, on
/// the calling thread. Items are taken from `items` a chunk at a time, so that an iterator that
/// finds them (a walk of folders) is read no further ahead than the work. Stops at the first
/// error of `handle`.
pub(crate) fn for_each_in_order<T: Sync, R: Send, E>(
    items: impl IntoIterator<Item = T>,
    work: impl Fn(&T) -> R + Sync,
    mut handle: impl FnMut(T, R) -> Result<(), E>,
) -> Result<(), E> {
    let mut items = items.into_iter();
    loop {
        let chunk: Vec<T> = items.by_ref().take(CHUNK).collect();
        if chunk.is_empty() {
            return Ok(());
        }
        let results: Vec<R> = chunk.par_iter().map(&work).collect();
        for (item, result) in chunk.into_iter().zip(results) {
            handle(item, result)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_results_over_in_order() {
        let items: Vec<usize> = (0..1000).collect();
        let mut seen = Vec::new();
        for_each_in_order(
            &items,
            |&&i| i * 2,
            |&i, doubled| {
                seen.push((i, doubled));
                Ok::<(), ()>(())
            },
        )
        .expect("no error");
        assert_eq!(seen, items.iter().map(|&i| (i, i * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn stops_at_the_first_error() {
        let items: Vec<usize> = (0..200).collect();
        let mut handled = 0;
        let result = for_each_in_order(
            &items,
            |&&i| i,
            |_, i| {
                handled += 1;
                if i == 70 { Err(i) } else { Ok(()) }
            },
        );
        assert_eq!(result, Err(70));
        assert_eq!(handled, 71);
    }
}
