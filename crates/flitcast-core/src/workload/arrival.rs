//! Message arrival processes of an open network.
//!
//! * Poisson: exponential inter-arrival times in continuous time at `rate` messages per cycle; a
//!   message arriving at time τ is created in cycle ⌊τ⌋ (several may fall in one cycle).
//! * Bernoulli: in every cycle a message is created with probability `rate` (≤ 1); the gap to the
//!   next one is drawn directly from the geometric distribution, so idle cycles cost nothing.

use rand::Rng;

use crate::params::choice;
use crate::rng::Stream;
use crate::time::Cycle;

choice! {
    /// How messages (operations) arrive at each host.
    pub enum Arrival {
        /// Exponential inter-arrival times (an open network).
        Poisson = "poisson",
        /// A message each cycle with probability rate (the gap drawn from the geometric distribution).
        Bernoulli = "bernoulli",
    }
}

#[derive(Debug, Clone)]
pub struct Arrivals {
    kind: Arrival,
    rate: f64,
    rng: Stream,
    /// Poisson: continuous time of the next arrival. Bernoulli: the next cycle as a float.
    next: f64,
    started: bool,
}

impl Arrivals {
    pub fn new(kind: Arrival, rate: f64, rng: Stream) -> Arrivals {
        Arrivals { kind, rate, rng, next: 0.0, started: false }
    }

    /// The cycle of the next message arrival (advances the process).
    pub fn next_arrival(&mut self) -> Cycle {
        let u: f64 = 1.0 - self.rng.random::<f64>(); // in (0, 1]
        match self.kind {
            Arrival::Poisson => {
                self.next += -u.ln() / self.rate;
            }
            Arrival::Bernoulli => {
                // Number of failures before the first success, plus one step.
                let gap = if self.rate >= 1.0 { 0.0 } else { (u.ln() / (1.0 - self.rate).ln()).floor() };
                self.next += if self.started { 1.0 + gap } else { gap };
            }
        }
        self.started = true;
        self.next.min(u64::MAX as f64 / 2.0) as Cycle
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    fn mean_rate(kind: Arrival, rate: f64) -> f64 {
        let mut a = Arrivals::new(kind, rate, stream(3, StreamKind::Arrivals, 0));
        let n = 200_000;
        let mut last = 0;
        for _ in 0..n {
            last = a.next_arrival();
        }
        n as f64 / last as f64
    }

    #[test]
    fn arrival_rates_match() {
        for &kind in &[Arrival::Poisson, Arrival::Bernoulli] {
            for &rate in &[0.01, 0.1, 0.5] {
                let r = mean_rate(kind, rate);
                assert!((r - rate).abs() / rate < 0.02, "{kind:?} {rate}: {r}");
            }
        }
    }

    #[test]
    fn bernoulli_at_most_one_per_cycle() {
        let mut a = Arrivals::new(Arrival::Bernoulli, 0.9, stream(5, StreamKind::Arrivals, 0));
        let mut prev = a.next_arrival();
        for _ in 0..10_000 {
            let t = a.next_arrival();
            assert!(t > prev);
            prev = t;
        }
    }
}
