//! What another thread may ask of a running simulation: stop soon, and how far it has got.
//!
//! The engine reads the stop flag once per simulated cycle (a relaxed load: no measurable cost) and
//! publishes the cycle it has reached, so a front end can stop a run within milliseconds of Ctrl-C and
//! show progress on a long one (docs/engine.md "Interrupts and progress").

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use crate::error::Error;
use crate::time::Cycle;

/// Shared between a running simulation and whoever started it (e.g. behind an `Arc`).
#[derive(Debug, Default)]
pub struct Control {
    stop: Arc<AtomicBool>,
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

    /// Runs `build` (a simulation's set-up, on this thread) so that its long loops can stop when this
    /// control is interrupted ([`building_interrupted`]).
    pub fn building<T>(&self, build: impl FnOnce() -> T) -> T {
        /// Forgets the flag however `build` ends (a panic included), so no later set-up reads it.
        struct Forget;
        impl Drop for Forget {
            fn drop(&mut self) {
                BUILDING.with(|b| *b.borrow_mut() = None);
            }
        }
        BUILDING.with(|b| *b.borrow_mut() = Some(self.stop.clone()));
        let _forget = Forget;
        build()
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

thread_local! {
    /// The stop flag of the simulation being set up on this thread ([`Control::building`]).
    static BUILDING: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// `Err(Error::Interrupted)` (at cycle 0) if the set-up running on this thread was asked to stop: what a
/// set-up loop that may take seconds (a collective's route searches on 16,384 nodes) checks once per
/// step, so Ctrl-C stops it within a second at any phase.
pub fn building_interrupted() -> Result<(), Error> {
    let stopped = BUILDING.with(|b| b.borrow().as_ref().is_some_and(|stop| stop.load(Relaxed)));
    if stopped {
        Err(Error::Interrupted { cycle: 0 })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_hears_its_own_control_only_while_it_runs() {
        let control = Control::new();
        control.interrupt();
        assert!(control.building(building_interrupted).is_err());
        assert!(building_interrupted().is_ok(), "forgotten after the set-up");
        // a set-up that panics forgets it too
        let panicked = std::panic::catch_unwind(|| control.building(|| panic!("in the set-up")));
        assert!(panicked.is_err());
        assert!(building_interrupted().is_ok());
    }
}
