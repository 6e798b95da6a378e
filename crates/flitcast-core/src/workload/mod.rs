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

    /// Number of packets of one message.
    pub fn packets_per_message(&self) -> u32 {
        self.message_flits.div_ceil(self.packet_flits)
    }

    /// Size (flits) of packet `i` of a message: full packets, the last one possibly shorter.
    pub fn packet_size(&self, i: u32) -> u32 {
        (self.message_flits - i * self.packet_flits).min(self.packet_flits)
    }
}
