//! Workloads: who sends what to whom, and when (pattern × size × arrival process).

pub mod arrival;
pub mod pattern;

use crate::rng::{stream, Stream, StreamKind};
use crate::scenario::Workload;

pub use arrival::Arrivals;
pub use pattern::Pattern;

/// Per-terminal traffic generator: its arrival process and destination stream.
#[derive(Debug, Clone)]
pub struct Source {
    pub arrivals: Arrivals,
    pub dest_rng: Stream,
}

/// Every host's open-loop source (`host/open_loop.rs`): rate `load / message_flits` messages per cycle.
pub fn sources(wl: &Workload, seed: u64, terminals: u32) -> Vec<Source> {
    // Messages per terminal per cycle, so that flits per terminal per cycle = load.
    let rate = wl.load / wl.message_flits as f64;
    (0..terminals)
        .map(|t| Source {
            arrivals: Arrivals::new(wl.arrival, rate, stream(seed, StreamKind::Arrivals, t as u64)),
            dest_rng: stream(seed, StreamKind::Destinations, t as u64),
        })
        .collect()
}
