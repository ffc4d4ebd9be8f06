//! Parallel work with results handled in order as they come: files are processed on every
//! core a chunk at a time, and each chunk's results are handed over (printed, written) in the
//! order of the files. Output appears while the run goes on, stays deterministic, and only a few
//! chunks are held at a time (at most [`AHEAD`]).
//!
//! The calling thread finds the items (a walk of folders) and hands results over while the
//! pool works on the chunks before: the walk and the output, which are serial, overlap the
//! parallel work instead of leaving the cores idle between chunks.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;

use rayon::prelude::*;

/// How many items are processed between two hand-overs: enough to keep every core busy, few
/// enough that output flows and memory stays small. Each hand-over wakes the calling thread,
/// and the pool's threads idle a moment around it (a wake-up costs more than the thread
/// switch on a virtual machine): 128 halved the thread switches of a corpus lint on two cores
/// and took 5% off its CPU time and 7% off its wall time against 64.
const CHUNK: usize = 128;

/// How many chunks are worked on at once: while one holds a large file (a 290 KB template
/// takes one core 14 ms), the others keep the rest of the cores busy. 512 files in flight:
/// fewer left a core idle at such files (corpus lint: A/B wall 0.98 with 512 against 192).
const IN_FLIGHT: usize = 4;

/// How many chunks may be started before the oldest is handed over: the chunks done after it
/// wait for it, and new ones are started meanwhile as long as the oldest's large file takes
/// (with at most [`IN_FLIGHT`] started, a core stood idle while the other finished such a file
/// and the results of the three chunks after it waited). At most 2,048 files' results held.
const AHEAD: usize = 16;

/// Runs `work` on every item in parallel and `handle` on each result, in the items' order, on
/// the calling thread. Items are taken from `items` a chunk at a time, so that an iterator that
/// finds them (a walk of folders) is read no further ahead than a few chunks of work. Stops at
/// the first error of `handle`: no chunk is started after it, and the chunks already started
/// are finished (their results dropped) before it returns.
///
/// # Panics
///
/// When `work` panics: the panic is raised again on the calling thread, once its chunk's turn
/// comes.
pub fn for_each_in_order<T: Send + Sync, R: Send, E>(
    items: impl IntoIterator<Item = T>,
    work: impl Fn(&T) -> R + Sync,
    handle: impl FnMut(T, R) -> Result<(), E>,
) -> Result<(), E> {
    for_each_in_order_first(Vec::new(), |_| None, items, work, handle)
}

/// What a job of [`for_each_in_order_first`] sends back: a chunk's items and results (by the
/// chunk's number), or the result of an item started first (by its index in `first`).
enum Done<T, R> {
    Chunk(usize, Vec<T>, std::thread::Result<Vec<R>>),
    First(usize, std::thread::Result<R>),
}

/// [`for_each_in_order`] with some items started before all others: `first`, which `items`
/// hold too (`is_first` tells each of them: its index in `first`). When `items` come to one of
/// them, it takes no part in a chunk: its result, from the job started first, is handed over
/// at its place. The items that take longest (the largest files) started first, a core is not
/// left alone with one of them at the end of the run while the other has nothing left to do.
/// An item of `first` that `items` never come to is worked on and its result dropped (a panic
/// of its work too: it has no turn). `is_first` must give each item of `items` that is one of
/// `first` the index of that one, and no other item an index.
///
/// The calling thread waits for the pool's threads: called from a thread of the pool, it
/// leaves that thread to wait (a pool of one thread would wait forever).
///
/// # Panics
///
/// When `work` panics: the panic is raised again on the calling thread, once its item's turn
/// comes; when `is_first` gives an index past the end of `first`.
pub fn for_each_in_order_first<T: Send + Sync, R: Send, E>(
    first: Vec<T>,
    is_first: impl Fn(&T) -> Option<usize>,
    items: impl IntoIterator<Item = T>,
    work: impl Fn(&T) -> R + Sync,
    mut handle: impl FnMut(T, R) -> Result<(), E>,
) -> Result<(), E> {
    let mut items = items.into_iter();
    let work = &work;
    rayon::in_place_scope(|scope| {
        let (done, results) = mpsc::channel::<Done<T, R>>();
        let mut met = vec![false; first.len()];
        for (index, item) in first.into_iter().enumerate() {
            let done = done.clone();
            scope.spawn(move |_| {
                // As a chunk's: the panic handed over, the receiver gone only at the end.
                let out = std::panic::catch_unwind(AssertUnwindSafe(|| work(&item)));
                let _ = done.send(Done::First(index, out));
            });
        }
        // The items of `first` met among `items`, by place (each with its index), and the
        // results of those started first, by index.
        let mut first_at: BTreeMap<usize, (usize, T)> = BTreeMap::new();
        let mut first_ready: BTreeMap<usize, std::thread::Result<R>> = BTreeMap::new();
        // Chunks finished out of order, by number, until their turn.
        let mut ready: BTreeMap<usize, (Vec<T>, std::thread::Result<Vec<R>>)> = BTreeMap::new();
        // Chunks started, handed over, and done (handed over or waiting in `ready`).
        let (mut started, mut next, mut done_count) = (0, 0, 0);
        let mut exhausted = false;
        // Items taken from `items`; the chunk being handed over, and the place of the next
        // item to hand over.
        let mut taken = 0;
        let mut current: Option<(std::vec::IntoIter<T>, std::vec::IntoIter<R>)> = None;
        let mut place = 0;
        loop {
            while !exhausted && started - done_count < IN_FLIGHT && started - next < AHEAD {
                let mut chunk: Vec<T> = Vec::with_capacity(CHUNK);
                while chunk.len() < CHUNK {
                    let Some(item) = items.next() else { break };
                    match is_first(&item) {
                        Some(index) if !std::mem::replace(&mut met[index], true) => {
                            first_at.insert(taken, (index, item));
                        }
                        _ => chunk.push(item),
                    }
                    taken += 1;
                }
                if chunk.is_empty() {
                    exhausted = true;
                    break;
                }
                let done = done.clone();
                let number = started;
                scope.spawn(move |_| {
                    // A panic is handed over too, and raised again on the calling thread,
                    // which would otherwise wait for these results for ever.
                    let out = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        chunk.par_iter().map(work).collect::<Vec<R>>()
                    }));
                    // The receiver is gone only once the loop below has returned.
                    let _ = done.send(Done::Chunk(number, chunk, out));
                });
                started += 1;
            }
            // Hand over what has its turn, when it is done.
            if let Some(entry) = first_at.first_entry()
                && *entry.key() == place
            {
                let index = entry.get().0;
                if let Some(out) = first_ready.remove(&index) {
                    let (_, item) = entry.remove();
                    place += 1;
                    handle(item, resume(out))?;
                    continue;
                }
            } else if let Some((chunk, out)) = current.as_mut() {
                if let (Some(item), Some(result)) = (chunk.next(), out.next()) {
                    place += 1;
                    handle(item, result)?;
                } else {
                    current = None;
                }
                continue;
            } else if let Some((chunk, out)) = ready.remove(&next) {
                next += 1;
                current = Some((chunk.into_iter(), resume(out).into_iter()));
                continue;
            } else if next == started && exhausted && first_at.is_empty() {
                return Ok(());
            }
            // It is not done yet (a chunk, or an item started first, is worked on): wait for
            // a job to be done.
            match results
                .recv()
                .expect("a started job sends its results before its sender is dropped")
            {
                Done::Chunk(number, chunk, out) => {
                    done_count += 1;
                    ready.insert(number, (chunk, out));
                }
                Done::First(index, out) => {
                    first_ready.insert(index, out);
                }
            }
        }
    })
}

/// The value of a job's result, or its panic raised again.
fn resume<R>(out: std::thread::Result<R>) -> R {
    out.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
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
    fn a_panic_in_the_work_is_raised_on_the_calling_thread_not_a_hang() {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let caught = std::panic::catch_unwind(|| {
                let items: Vec<usize> = (0..500).collect();
                for_each_in_order(
                    &items,
                    |&&i| assert_ne!(i, 300, "the work fails here"),
                    |_, ()| Ok::<(), ()>(()),
                )
            });
            let _ = tx.send(caught.is_err());
        });
        let panicked = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("for_each_in_order returns or panics, it does not hang");
        assert!(panicked);
    }

    /// Runs `run` on a pool of three threads (the calling one, which `install` runs on the
    /// pool, one held by an item, one for the others), and its result, or fails after 30 s:
    /// what hangs when items are not worked on while another is held.
    fn on_three_threads<T: Send + 'static>(
        run: impl FnOnce(&Held) -> T + Send + 'static,
        hangs_when: &str,
    ) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(3)
                .build()
                .expect("a pool");
            let held = Held(std::sync::atomic::AtomicBool::new(false));
            let _ = tx.send(pool.install(|| run(&held)));
        });
        rx.recv_timeout(std::time::Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("{hangs_when}"))
    }

    /// An item held until another is done.
    struct Held(std::sync::atomic::AtomicBool);

    impl Held {
        /// The work of item `i`: item 0 waits until item `release` is done.
        fn work(&self, i: usize, release: usize) -> usize {
            use std::sync::atomic::Ordering::SeqCst;
            if i == 0 {
                while !self.0.load(SeqCst) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            if i == release {
                self.0.store(true, SeqCst);
            }
            i
        }
    }

    #[test]
    fn a_slow_item_does_not_hold_the_chunks_after_it() {
        // The first item waits until an item six chunks later is done: chunks must go on being
        // started while the first is held.
        let (result, handled) = on_three_threads(
            |held| {
                let later = 6 * CHUNK + 5;
                let items: Vec<usize> = (0..8 * CHUNK).collect();
                let mut handled = 0;
                let result = for_each_in_order(
                    &items,
                    |&&i| held.work(i, later),
                    |&i, got| {
                        assert_eq!(i, got);
                        handled += 1;
                        Ok::<(), ()>(())
                    },
                );
                (result, handled)
            },
            "the chunks after a held one are worked on meanwhile",
        );
        assert_eq!(result, Ok(()));
        assert_eq!(handled, 8 * CHUNK);
    }

    #[test]
    fn items_started_first_are_handed_over_at_their_places() {
        let all: Vec<usize> = (0..1000).collect();
        let cases: [&[usize]; 6] = [
            &[],
            &[0],
            &[3, 500, 999],
            &[999, 998, 997],
            &[0, 1, 2],
            &[5000],
        ];
        for first in cases {
            let mut seen = Vec::new();
            let mut worked = std::sync::Mutex::new(Vec::new());
            for_each_in_order_first(
                first.to_vec(),
                |i| first.iter().position(|f| f == i),
                all.iter().copied(),
                |&i| {
                    worked.lock().expect("not poisoned").push(i);
                    i * 2
                },
                |i, doubled| {
                    seen.push((i, doubled));
                    Ok::<(), ()>(())
                },
            )
            .expect("no error");
            assert_eq!(
                seen,
                all.iter().map(|&i| (i, i * 2)).collect::<Vec<_>>(),
                "{first:?}"
            );
            // Each item worked on once; one of `first` that the items never come to (5000)
            // is worked on, and not handed over.
            let mut worked = std::mem::take(worked.get_mut().expect("not poisoned"));
            worked.sort_unstable();
            let mut expected: Vec<usize> = all
                .iter()
                .copied()
                .chain(first.iter().copied().filter(|&f| f >= 1000))
                .collect();
            expected.sort_unstable();
            assert_eq!(worked, expected, "{first:?}");
        }
    }

    #[test]
    fn an_item_started_first_is_worked_on_before_the_chunks_reach_it() {
        // The first item waits until the last one is done, far more chunks ahead than are
        // started at once: only an item started first can be done meanwhile.
        let last = (AHEAD + 8) * CHUNK;
        let (result, handled) = on_three_threads(
            move |held| {
                let mut handled = Vec::new();
                let result = for_each_in_order_first(
                    vec![last],
                    |&i| (i == last).then_some(0),
                    0..=last,
                    |&i| held.work(i, last),
                    |i, got| {
                        assert_eq!(i, got);
                        handled.push(i);
                        Ok::<(), ()>(())
                    },
                );
                (result, handled)
            },
            "the item started first is done while the first chunk waits for it",
        );
        assert_eq!(result, Ok(()));
        assert_eq!(handled, (0..=last).collect::<Vec<_>>());
    }

    #[test]
    fn a_panic_in_an_item_started_first_is_raised_at_its_turn() {
        let handled = std::sync::Mutex::new(0);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for_each_in_order_first(
                vec![300],
                |&i: &usize| (i == 300).then_some(0),
                0..500,
                |&i| assert_ne!(i, 300, "the work fails here"),
                |_, ()| {
                    *handled.lock().expect("not poisoned") += 1;
                    Ok::<(), ()>(())
                },
            )
        }));
        assert!(caught.is_err());
        assert_eq!(
            *handled.lock().expect("not poisoned"),
            300,
            "the items before it, not after"
        );
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
