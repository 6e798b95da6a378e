//! What another thread may ask of a running simulation: stop soon, and how far it has got.
//!
//! The engine reads the stop flag once per simulated cycle (a relaxed load: no measurable cost) and
//! publishes the cycle it has reached, so a front end can stop a run within milliseconds of Ctrl-C and
//! show progress on a long one (docs/engine.md "Interrupts and progress").

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use crate::time::Cycle;

/// Shared between a running simulation and whoever started it (e.g. behind an `Arc`).
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    now: AtomicU64,
    planned: AtomicU64,
}

impl Control {
    pub fn new() -> Control {
        Control::default()
    }

    /// Asks the simulation (or every simulation sharing this control) to stop at its next cycle.
    pub fn interrupt(&self) {
        self.stop.store(true, Relaxed);
    }

    pub fn interrupted(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// The cycle the simulation has reached and the cycle its measurement window ends at (the drain
    /// that follows is open-ended). Both 0 before the run starts.
    pub fn progress(&self) -> (Cycle, Cycle) {
        (self.now.load(Relaxed), self.planned.load(Relaxed))
    }

    pub(crate) fn start(&self, planned: Cycle) {
        self.planned.store(planned, Relaxed);
    }

    #[inline]
    pub(crate) fn reached(&self, now: Cycle) {
        self.now.store(now, Relaxed);
    }
}
