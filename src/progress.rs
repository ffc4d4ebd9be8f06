//! A progress bar on stderr for long runs: files done out of the total.
//!
//! Drawn only when stderr is a terminal, and only once a run has taken [`DELAY`]: a quick run
//! shows nothing, a long one shows that it is working. Callers decide whether the output
//! format allows it (machine formats never get one). It never writes to stdout.

use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before the bar appears.
pub(crate) const DELAY: Duration = Duration::from_secs(1);

/// A progress bar that appears after a delay and vanishes when the work is done.
#[derive(Debug)]
pub(crate) struct Progress {
    bar: ProgressBar,
    done: Option<mpsc::Sender<()>>,
    waiter: Option<JoinHandle<()>>,
}

impl Progress {
    /// Whether [`Progress::start`] would draw a bar: `enabled`, and stderr is a terminal.
    pub(crate) fn would_draw(enabled: bool) -> bool {
        enabled && std::io::IsTerminal::is_terminal(&std::io::stderr())
    }

    /// A bar on stderr when `enabled` and stderr is a terminal; otherwise nothing at all.
    pub(crate) fn start(total: usize, enabled: bool) -> Progress {
        if Progress::would_draw(enabled) {
            Progress::with_target(total, DELAY, ProgressDrawTarget::stderr())
        } else {
            Progress {
                bar: ProgressBar::hidden(),
                done: None,
                waiter: None,
            }
        }
    }

    /// A bar that starts drawing on `target` after `delay`, unless finished before.
    pub(crate) fn with_target(
        total: usize,
        delay: Duration,
        target: ProgressDrawTarget,
    ) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        if let Ok(style) =
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} files ({elapsed})")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix("hotfix: linting");
        let (done, finished) = mpsc::channel::<()>();
        let shown = bar.clone();
        let waiter = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(delay) {
                shown.set_draw_target(target);
                shown.enable_steady_tick(Duration::from_millis(200));
                let _ = finished.recv();
            }
        });
        Progress {
            bar,
            done: Some(done),
            waiter: Some(waiter),
        }
    }

    /// One more file done.
    pub(crate) fn inc(&self) {
        self.bar.inc(1);
    }

    /// Runs `f` with the bar cleared from the screen, and draws it again after: for writing to
    /// the same terminal while the bar may be shown.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar (if it was drawn).
    pub(crate) fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
        if let Some(waiter) = self.waiter.take() {
            let _ = waiter.join();
        }
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use std::io;
    use std::sync::{Arc, Mutex};

    use indicatif::TermLike;

    use super::*;

    /// A terminal that records what is written to it.
    #[derive(Clone, Debug, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl Screen {
        fn text(&self) -> String {
            self.0.lock().unwrap().clone()
        }
    }

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            100
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.write_str(s)?;
            self.write_str("\n")
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> io::Result<()> {
            self.write_str("<clear>")
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_quick_run_draws_nothing() {
        let screen = Screen::default();
        let progress = Progress::with_target(
            3,
            Duration::from_secs(60),
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        for _ in 0..3 {
            progress.inc();
        }
        progress.finish();
        assert_eq!(screen.text(), "");
    }

    #[test]
    fn a_long_run_draws_files_done_and_clears_the_bar() {
        let screen = Screen::default();
        let progress = Progress::with_target(
            4,
            Duration::from_millis(10),
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        progress.inc();
        std::thread::sleep(Duration::from_millis(400));
        progress.inc();
        std::thread::sleep(Duration::from_millis(400));
        let drawn = screen.text();
        assert!(drawn.contains("hotfix: linting"), "{drawn:?}");
        assert!(drawn.contains("2/4 files"), "{drawn:?}");
        progress.finish();
        assert!(screen.text().ends_with("<clear>"), "{:?}", screen.text());
    }
}
