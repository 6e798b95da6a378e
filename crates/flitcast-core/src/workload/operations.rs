//! The operations multicast programs start (study 000 §7.1, §7.6): per host an open-loop arrival
//! process of operations, each an m-way multicast to m distinct destinations drawn uniformly among
//! the other nodes — or, in bimodal traffic, a unicast to one of them with the probability that
//! leaves multicasts `multicast_fraction` of the *received* load.
//!
//! Rates: with a share q of operations multicast, an operation delivers q·m + (1 − q) messages on
//! average, so operations arrive at `load / (message_flits · (q·m + 1 − q))` per cycle and the
//! effective applied load (flits received per node per cycle offered, m·B_i in §7.2) is `load`.
//! A received-load fraction f of multicasts needs q·m / (q·m + 1 − q) = f, i.e. q = f / (m(1 − f) + f).

use rand::Rng;

use crate::facts::Facts;
use crate::params::{params, Problem};
use crate::time::Cycle;
use crate::workload::{multicast_destinations, sources, Arrival, Source};

params! {
    /// m-way multicast traffic (study 000 §7.1, §7.2, §7.6), the keys of the software and hardware
    /// multicast programs.
    pub struct Multiway {
        /// Effective applied load m·B_i in flits per node per cycle received (study 000 §7.2; 1.0 = every
        /// node receiving at the link rate).
        load: f64 = 0.1, above(0.0, 1.0), unit("flits/node/cycle");
        /// Operation arrival process at each node.
        arrival: Arrival = Arrival::Poisson;
        /// m: destinations of each multicast, drawn uniformly among the other nodes (study 000 §7.1).
        destinations: u32 = 2, range(1, 1_048_575);
        /// Share of the received load carried by multicasts; the rest is unicasts to uniform
        /// destinations (bimodal traffic, study 000 §7.6: 0.2 with 4-way multicasts). 1: every operation
        /// is a multicast.
        multicast_fraction: f64 = 1.0, above(0.0, 1.0);
    }
}

#[derive(Debug, Clone)]
pub struct Operations {
    sources: Vec<Source>,
    nodes: u32,
    m: u32,
    /// Probability that an operation is a multicast (1 outside bimodal traffic: no draw is made).
    multicast_share: f64,
}

impl Operations {
    /// The operations of `traffic` at every host of `nodes`, messages of `message_flits` flits.
    pub fn of(traffic: &Multiway, message_flits: u32, seed: u64, nodes: u32) -> Operations {
        // (load is the effective applied load m·B_i: `new` sets the operations' rate)
        let t = traffic;
        Operations::new(t.destinations, t.multicast_fraction, t.load, t.arrival, message_flits, seed, nodes)
    }

    /// m-way multicasts (`fraction` of the received load; the rest unicasts) arriving by `arrival` at
    /// every host of `nodes`, `load` flits per node per cycle received, messages of `message_flits`.
    pub fn new(
        m: u32,
        fraction: f64,
        load: f64,
        arrival: Arrival,
        message_flits: u32,
        seed: u64,
        nodes: u32,
    ) -> Operations {
        let (m, f) = (m, fraction);
        let q = f / (m as f64 * (1.0 - f) + f);
        let messages_per_operation = q * m as f64 + 1.0 - q;
        Operations {
            sources: sources(arrival, load / messages_per_operation, message_flits, seed, nodes),
            nodes,
            m,
            multicast_share: q,
        }
    }

    /// Every host's first arrival, as a host program's timer (when, host, tag 0).
    pub fn start(&mut self, timers: &mut Vec<(Cycle, u32, u32)>) {
        for (host, source) in self.sources.iter_mut().enumerate() {
            timers.push((source.arrivals.next_arrival(), host as u32, 0));
        }
    }

    /// An operation arrives at `host`: its destinations (increasing, without `host`) and whether it is
    /// a multicast (of m destinations, even m = 1) rather than one of bimodal traffic's unicasts; the
    /// host's next arrival is scheduled among `timers`.
    pub fn arrive(&mut self, host: u32, timers: &mut Vec<(Cycle, u32, u32)>) -> (Vec<u32>, bool) {
        let source = &mut self.sources[host as usize];
        let multicast = self.multicast_share >= 1.0 || source.dest_rng.random::<f64>() < self.multicast_share;
        let m = if multicast { self.m } else { 1 };
        let dests = multicast_destinations(host, m, self.nodes, &mut source.dest_rng);
        timers.push((source.arrivals.next_arrival(), host, 0));
        (dests, multicast)
    }
}

/// An m-way multicast's need: a destination set the other nodes can make up.
pub const MWAY_NEEDS: &str = "at most nodes − 1 destinations (`workload.destinations`)";

/// An m-way multicast of `m` destinations where `f` holds, with more than the other nodes.
pub fn mway_unfit(m: u32, f: &Facts) -> Option<Problem> {
    let allowed = format!("an integer from 1 to {} (the other nodes)", f.nodes.saturating_sub(1));
    (m as u64 >= f.nodes).then(|| Problem::new("workload.destinations", m.to_string(), allowed, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bimodal_share_gives_the_received_fraction() {
        let mut ops = Operations::new(4, 0.2, 0.1, Arrival::Poisson, 64, 3, 16);
        let mut timers = Vec::new();
        let (mut multicast, mut unicast) = (0u64, 0u64);
        for _ in 0..40_000 {
            match ops.arrive(5, &mut timers).0.len() {
                4 => multicast += 4,
                1 => unicast += 1,
                n => panic!("{n} destinations"),
            }
        }
        let f = multicast as f64 / (multicast + unicast) as f64;
        assert!((f - 0.2).abs() < 0.01, "multicasts carry {f} of the received messages, not 0.2");
    }
}
