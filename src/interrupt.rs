//! Ctrl-C and `kill` during a run that writes files: the files being written are finished,
//! no new file is started, and the run says what it did before it ends.
//!
//! The first SIGINT or SIGTERM only raises a flag that the writers check between files; a
//! second one ends the process at once (exit 130), as users expect of a second Ctrl-C. Commands
//! that only read (`hotfix lint` without `--fix`) do not install this: the default action,
//! ending at once, is right for them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code of a run ended by a signal (128 + SIGINT), as shells report it.
pub(crate) const EXIT_CODE: u8 = 130;

/// Whether the run was asked to stop.
#[derive(Clone, Debug, Default)]
pub(crate) struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// Installs the handlers (where the platform has them; elsewhere the flag never rises).
    pub(crate) fn install() -> Interrupt {
        let flag = Arc::new(AtomicBool::new(false));
        #[cfg(unix)]
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            // The conditional shutdown goes first: it acts only when the flag is already up.
            let _ = signal_hook::flag::register_conditional_shutdown(
                signal,
                i32::from(EXIT_CODE),
                Arc::clone(&flag),
            );
            let _ = signal_hook::flag::register(signal, Arc::clone(&flag));
        }
        Interrupt(flag)
    }

    pub(crate) fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}
