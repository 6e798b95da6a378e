//! Workloads: who sends what to whom, and when (pattern × size × arrival process).

pub mod arrival;
pub mod pattern;

use crate::rng::{stream, Stream, StreamKind};
use crate::scenario::Scenario;
use crate::Cycle;

pub use arrival::Arrivals;
pub use pattern::Pattern;

/// Per-terminal traffic generator: its arrival process and destination stream.
#[derive(Debug, Clone)]
pub struct Source {
    pub arrivals: Arrivals,
    pub dest_rng: Stream,
}

#[derive(Debug, Clone)]
pub struct Traffic {
    pub pattern: Pattern,
    pub sources: Vec<Source>,
    pub message_flits: u32,
    pub packet_flits: u32,
}

impl Traffic {
    pub fn build(s: &Scenario, terminals: u32) -> Traffic {
        let wl = &s.workload;
        // Messages per terminal per cycle, so that flits per terminal per cycle = load.
        let rate = wl.load / wl.message_flits as f64;
        let sources = (0..terminals)
            .map(|t| Source {
                arrivals: Arrivals::new(wl.arrival, rate, stream(s.run.seed, StreamKind::Arrivals, t as u64)),
                dest_rng: stream(s.run.seed, StreamKind::Destinations, t as u64),
            })
            .collect();
        Traffic {
            pattern: Pattern::build(s, terminals),
            sources,
            message_flits: wl.message_flits,
            packet_flits: wl.packet_flits,
        }
    }

    /// First message arrival of every terminal.
    pub fn first_arrivals(&mut self) -> Vec<(Cycle, u32)> {
        self.sources.iter_mut().enumerate().map(|(t, s)| (s.arrivals.next_arrival(), t as u32)).collect()
    }

    /// Sizes (flits) of the packets of one message.
    pub fn packet_sizes(&self) -> impl Iterator<Item = u32> + '_ {
        let full = self.message_flits / self.packet_flits;
        let rest = self.message_flits % self.packet_flits;
        (0..full).map(|_| self.packet_flits).chain((rest > 0).then_some(rest))
    }
}
