//! Ending a saturated run early (`run.saturation_stop = "backlog"`; docs/engine.md "Saturated runs
//! end early").
//!
//! A run past saturation spends most of its time proving what its first tenth already shows: the
//! source queues grow without bound. The test watches the source backlog (flits created but not yet
//! injected) at checkpoints every `interval` cycles of the measurement window and stops the run at
//! checkpoint j (never before `earliest`) when both hold:
//!
//! 1. the backlog grew over the second half of the elapsed window, B(j) − B(j/2), by more than the
//!    end-of-run saturation threshold of the *whole* window (max(1% of the flits the full window
//!    offers, two messages per node); rule 2 in `stats/mod.rs`), so the full run, whose backlog keeps
//!    growing at that rate, would be declared saturated too;
//! 2. the backlog rose at each of the last four checkpoints (a drift, not one burst).
//!
//! In a network below saturation the backlog is a stationary queue: it does not grow by 1% of a
//! whole window's offered traffic, so the test does not fire. Loads of a stopped run are measured
//! over the part of the window that ran (`measured_cycles`, at least `earliest`), where the network
//! is already in its saturated steady state, so peak-throughput figures keep their meaning.

use crate::Cycle;

/// Checkpoints kept at most: one per `interval`, at most 100 per window.
const CHECKPOINTS: u64 = 100;
/// Checkpoints over which the backlog must have risen at every step.
const RISING: usize = 4;

#[derive(Debug, Clone, Default)]
pub struct EarlyStop {
    enabled: bool,
    pub interval: Cycle,
    earliest: Cycle,
    /// Backlog growth that marks the whole window saturated (rule 2 of `stats/mod.rs`).
    threshold: f64,
    /// Backlog at each checkpoint so far (index j: window start + j · interval).
    samples: Vec<u64>,
}

impl EarlyStop {
    /// `threshold` is the end-of-run backlog-growth limit of the full window.
    pub fn new(enabled: bool, measure: Cycle, threshold: f64) -> EarlyStop {
        let interval = (measure / CHECKPOINTS).max(1000);
        let samples = Vec::with_capacity((measure / interval + 1) as usize);
        EarlyStop { enabled, interval, earliest: (measure / 10).max(10 * interval), threshold, samples }
    }

    /// Heap bytes: at most one sample per checkpoint, a bounded number per window.
    pub fn heap_bytes(&self) -> usize {
        self.samples.capacity() * 8
    }

    /// Records the backlog at the next checkpoint; returns why the run should stop, if it should.
    pub fn sample(&mut self, backlog: u64) -> Option<String> {
        self.samples.push(backlog);
        let j = self.samples.len() - 1;
        if !self.enabled || (j as Cycle) * self.interval < self.earliest {
            return None;
        }
        let growth = backlog.saturating_sub(self.samples[j / 2]);
        let rising = self.samples[j - RISING..].windows(2).all(|w| w[1] > w[0]);
        (growth as f64 > self.threshold && rising).then(|| {
            format!(
                "stopped early after {} measured cycles: source queues grew by {growth} flits over the last {} \
                 cycles, past the whole window's limit of {:.0} (run.saturation_stop)",
                j as Cycle * self.interval,
                (j - j / 2) as Cycle * self.interval,
                self.threshold
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_growing_backlog_stops_after_the_earliest_checkpoint() {
        let mut e = EarlyStop::new(true, 1_000_000, 10_000.0);
        assert_eq!((e.interval, e.earliest), (10_000, 100_000));
        let mut stopped = None;
        for j in 0..100u64 {
            if let Some(reason) = e.sample(1_000 * j) {
                stopped = Some((j, reason));
                break;
            }
        }
        // growth over the second half: 1000 · (j − j/2) > 10 000 from j = 21 on; earliest j = 10.
        let (j, reason) = stopped.unwrap();
        assert_eq!(j, 21);
        assert!(reason.contains("210000 measured cycles"), "{reason}");
    }

    #[test]
    fn a_stationary_or_bursty_backlog_never_stops() {
        let mut e = EarlyStop::new(true, 1_000_000, 10_000.0);
        // A burst larger than the threshold that then drains: not rising at every step.
        for j in 0..100u64 {
            let b = if j % 7 == 3 { 50_000 } else { 100 + j % 3 };
            assert!(e.sample(b).is_none(), "checkpoint {j}");
        }
        let mut off = EarlyStop::new(false, 1_000_000, 10_000.0);
        assert!((0..100u64).all(|j| off.sample(1_000_000 * j).is_none()));
    }
}
