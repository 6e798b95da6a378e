//! Ending a saturated run early (`run.saturation_stop = "backlog"`; docs/engine.md "Saturated runs
//! end early").
//!
//! A run past saturation spends its window proving what part of it already shows: the source queues
//! grow without bound. But its accepted load — the number peak-throughput figures are made of — is
//! only worth keeping once it is both precise and settled: near saturation it keeps falling for a long
//! time as more and more sources become backlogged. The test samples the source backlog and the flits
//! accepted so far at checkpoints every `interval` cycles of the measurement window, and stops the run
//! at checkpoint j (never before `earliest`) when all hold:
//!
//! 1. **clearly saturated**: the backlog grew over the second half of the elapsed window, B(j) − B(j/2),
//!    by more than the end-of-run saturation threshold of the *whole* window (max(1% of the flits the
//!    full window offers, two messages per node); rule 2 in `stats/mod.rs`) and by more than
//!    `DEFICIT` (10%) of the flits offered over that half, and rose at each of the last four
//!    checkpoints. The deficit guards against networks near saturation that switch between a congested
//!    and a free-flowing state over hundreds of thousands of cycles: the 128-node SP network with O4 at
//!    offered 0.7 and 128-byte messages accepts 0.645 (8% short) for its first 480k measured cycles and
//!    then drains its queues, ending the full window unsaturated at 0.707;
//! 2. **precise**: the accepted load over the elapsed window, by batch means over the checkpoint
//!    intervals, has a 95% half-width of at most `PRECISION` (0.005 flits/node/cycle);
//! 3. **settled**: the accepted load of the second half of the elapsed window is within `PRECISION` of
//!    the first half's, so it is no longer drifting.
//!
//! Below saturation rule 1 never holds (a stationary queue does not grow by 1% of a whole window's
//! traffic); small networks with long messages rarely reach rule 2 within the window and run it whole.

use crate::time::Cycle;

/// Checkpoints kept at most: one per `interval`, at most 100 per window.
const CHECKPOINTS: u64 = 100;
/// Checkpoints over which the backlog must have risen at every step.
const RISING: usize = 4;
/// Largest 95% half-width of the accepted load, and largest drift between the two halves of the
/// elapsed window, with which a run may stop (flits/node/cycle).
pub const PRECISION: f64 = 0.005;
/// Least shortfall of accepted against offered traffic, over the second half of the elapsed window, that
/// counts as clearly saturated.
pub const DEFICIT: f64 = 0.1;

#[derive(Debug, Clone, Default)]
pub struct EarlyStop {
    enabled: bool,
    pub interval: Cycle,
    earliest: Cycle,
    /// Backlog growth that marks the whole window saturated (rule 2 of `stats/mod.rs`).
    threshold: f64,
    nodes: f64,
    /// Flits offered per cycle at the run's load (all nodes).
    offered_per_cycle: f64,
    /// Backlog at each checkpoint so far (index j: window start + j · interval).
    samples: Vec<u64>,
    /// Flits accepted in the window up to each checkpoint.
    accepted: Vec<u64>,
}

impl EarlyStop {
    /// `threshold` is the end-of-run backlog-growth limit of the full window; `load` the offered load
    /// (flits/node/cycle).
    pub fn new(enabled: bool, measure: Cycle, threshold: f64, nodes: u32, load: f64) -> EarlyStop {
        let interval = (measure / CHECKPOINTS).max(1000);
        let checkpoints = (measure / interval + 1) as usize;
        EarlyStop {
            enabled,
            interval,
            earliest: (measure / 10).max(10 * interval),
            threshold,
            nodes: nodes as f64,
            offered_per_cycle: load * nodes as f64,
            samples: Vec::with_capacity(checkpoints),
            accepted: Vec::with_capacity(checkpoints),
        }
    }

    /// Heap bytes: at most one sample per checkpoint, a bounded number per window.
    pub fn heap_bytes(&self) -> usize {
        (self.samples.capacity() + self.accepted.capacity()) * 8
    }

    /// Records the backlog and the flits accepted so far at the next checkpoint; returns why the run
    /// should stop, if it should.
    pub fn sample(&mut self, backlog: u64, accepted: u64) -> Option<String> {
        self.samples.push(backlog);
        self.accepted.push(accepted);
        let j = self.samples.len() - 1;
        if !self.enabled || (j as Cycle) * self.interval < self.earliest {
            return None;
        }
        let growth = backlog.saturating_sub(self.samples[j / 2]);
        let rising = self.samples[j - RISING..].windows(2).all(|w| w[1] > w[0]);
        let half_offered = self.offered_per_cycle * ((j - j / 2) as Cycle * self.interval) as f64;
        if growth as f64 <= self.threshold.max(DEFICIT * half_offered) || !rising {
            return None;
        }
        // Accepted load of each checkpoint interval: the batches of the batch-means estimate.
        let per = self.nodes * self.interval as f64;
        let rates: Vec<f64> = self.accepted.windows(2).map(|w| (w[1] - w[0]) as f64 / per).collect();
        let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
        let m = mean(&rates);
        let var = rates.iter().map(|r| (r - m) * (r - m)).sum::<f64>() / (rates.len() - 1) as f64;
        let half_width = super::student_t::student_t_975(rates.len() - 1) * (var / rates.len() as f64).sqrt();
        let drift = (mean(&rates[..j / 2]) - mean(&rates[j / 2..])).abs();
        (half_width <= PRECISION && drift <= PRECISION).then(|| {
            format!(
                "stopped early after {} measured cycles: source queues grew by {growth} flits over the last {} \
                 cycles, past the whole window's limit of {:.0}, and the accepted load {m:.4} is settled \
                 (±{half_width:.4}, halves {drift:.4} apart; run.saturation_stop)",
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

    /// Feeds checkpoints with a backlog growing by 1000 flits each and the accepted load of each
    /// interval from `rate(j)` (10 nodes, 10 000-cycle intervals); returns the checkpoint it stopped at.
    fn stop_at(rate: impl Fn(u64) -> f64) -> Option<(u64, String)> {
        // offered 0.01 flits/node/cycle: 100 flits per interval, so the 10% deficit stays below the
        // backlog's growth of 1000 per interval
        let mut e = EarlyStop::new(true, 1_000_000, 10_000.0, 10, 0.01);
        assert_eq!((e.interval, e.earliest), (10_000, 100_000));
        let mut accepted = 0.0;
        for j in 0..=100u64 {
            if j > 0 {
                accepted += rate(j) * 10.0 * 10_000.0;
            }
            if let Some(reason) = e.sample(1_000 * j, accepted as u64) {
                return Some((j, reason));
            }
        }
        None
    }

    #[test]
    fn a_growing_backlog_with_a_settled_throughput_stops_once_it_is_saturated() {
        // growth over the second half: 1000 · (j − j/2) > 10 000 from j = 21 on; earliest j = 10.
        let (j, reason) = stop_at(|j| 0.5 + 0.002 * (j % 2) as f64).unwrap();
        assert_eq!(j, 21);
        assert!(reason.contains("210000 measured cycles") && reason.contains("settled"), "{reason}");
    }

    #[test]
    fn a_drifting_or_noisy_throughput_keeps_the_run_going() {
        // falling by 0.001 per interval: the halves stay more than 0.005 apart
        assert!(stop_at(|j| 0.6 - 0.001 * j as f64).is_none());
        // noisy: ±0.05 from interval to interval, a half-width far above 0.005 for 100 intervals
        assert!(stop_at(|j| 0.5 + if j % 2 == 0 { 0.05 } else { -0.05 }).is_none());
        // a short transient: stops once its weight in the first half's mean has faded
        let (j, _) = stop_at(|j| 0.5 + 0.1 * (-(j as f64)).exp()).unwrap();
        assert!(j > 21, "{j}");
    }

    #[test]
    fn a_small_shortfall_keeps_the_run_going() {
        // offered 0.1 flits/node/cycle: 10 000 flits per interval; a backlog growing by 1000 per interval
        // is a 10% shortfall at most, not clearly saturated
        let mut e = EarlyStop::new(true, 1_000_000, 10_000.0, 10, 0.1);
        assert!((0..=100u64).all(|j| e.sample(990 * j, j * 90_000).is_none()));
    }

    #[test]
    fn a_stationary_or_bursty_backlog_never_stops() {
        let mut e = EarlyStop::new(true, 1_000_000, 10_000.0, 10, 0.01);
        // A burst larger than the threshold that then drains: not rising at every step.
        for j in 0..100u64 {
            let b = if j % 7 == 3 { 50_000 } else { 100 + j % 3 };
            assert!(e.sample(b, j * 50_000).is_none(), "checkpoint {j}");
        }
        let mut off = EarlyStop::new(false, 1_000_000, 10_000.0, 10, 0.01);
        assert!((0..100u64).all(|j| off.sample(1_000_000 * j, j * 50_000).is_none()));
    }
}
