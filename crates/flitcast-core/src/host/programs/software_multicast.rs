//! Software multicast: the binomial U-Min tree of unicasts (study 000 §7, after Xu, Gui and Ni, the
//! study's reference [46]; docs/models/multicast.md, "Software multicast").
//!
//! Each host creates m-way multicast operations as an open-loop source: Poisson (or Bernoulli)
//! arrivals at `load / (m · message_flits)` operations per cycle, so that the effective applied load
//! m·B_i is `load` (§7.2), and m destinations drawn uniformly among the other nodes. An operation is
//! sent as unicasts along a binomial tree over the address-sorted chain Φ = sort(D ∪ {source}):
//!
//! ```text
//! holder of the sub-chain [l, r] (its own position p):  while l < r:
//!     c = l + ⌈(r − l) / 2⌉
//!     if p < c: send to Φ[c], which holds [c, r];  r = c − 1
//!     else:     send to Φ[l], which holds [l, c − 1];  l = c
//! ```
//!
//! The root holds [0, m]; a receiver holds the range it was sent (it is the range's first element).
//! Every destination receives the message exactly once, in ⌈log₂(m + 1)⌉ phases. A host's sends
//! leave one after the other through its NIC; a receiver forwards as soon as the whole message has
//! arrived, after `workload.forward_cycles` (zero in the study, which "zeroes" this overhead to give
//! software multicast its best chance). Every host receives the same share, but over the address-sorted
//! chain some relay more than others: on 16 nodes the busiest injects 25/21 of the mean at m = 2 and 38/15
//! at m = 15, and its injection channel sets where software multicast saturates (unit test below).

use super::multiway;
use crate::facts::Facts;
use crate::host::program::{Delivered, Outbox, Priority, Program, Send, Serves, Site, Target};
use crate::packet::Slab;
use crate::params::{params, Flat, Kind, Problem};
use crate::sizing::{Part, Sizing};
use crate::time::Cycle;
use crate::workload::operations::{mway_unfit, Multiway, Operations, MWAY_NEEDS};

params! {
    /// Software multicast along the U-Min tree.
    pub struct Params {
        /// The m-way multicast traffic: load, arrival, destinations, multicast_fraction.
        traffic: Flat<Multiway> = Flat::default();
        /// Cycles a host spends between receiving a multicast and forwarding it (study 000 §7.2 sets
        /// it to zero).
        forward_cycles: u64 = 0, range(0, 1_000_000_000), unit("cycles");
    }
}

impl Kind for SoftwareMulticast {
    const NAME: &'static str = "software_multicast";
    const DOC: &'static str = "m-way multicasts as unicasts along the binomial U-Min tree (study 000 §7)";
    type Params = Params;
}

/// Timer tags below this are message arrivals; at or above, `FORWARD + i` is pending forward i.
const FORWARD: u32 = 1 << 31;

#[derive(Debug, Clone)]
pub struct SoftwareMulticast {
    operations: Operations,
    message_flits: u32,
    forward_cycles: Cycle,
    /// The chain Φ of each operation in flight, and how many of its destinations have not received it.
    chains: Slab<(Vec<u32>, u32)>,
    /// Forwards waiting for the host's overhead: (host, chain, l, r, operation).
    pending: Slab<(u32, u32, u32, u32, u32)>,
}

impl SoftwareMulticast {
    pub fn new(operations: Operations, message_flits: u32, forward_cycles: Cycle) -> SoftwareMulticast {
        SoftwareMulticast {
            operations,
            message_flits,
            forward_cycles,
            chains: Slab::default(),
            pending: Slab::default(),
        }
    }
}

impl Program for SoftwareMulticast {
    fn new(p: &Params, site: &Site) -> Self {
        let operations = Operations::of(&p.traffic, site.message_flits, site.seed, site.shape.nodes);
        SoftwareMulticast::new(operations, site.message_flits, p.forward_cycles)
    }

    fn load(p: &Params) -> f64 {
        p.traffic.load
    }

    fn multicast_degree(p: &Params) -> Option<u32> {
        Some(p.traffic.destinations)
    }

    fn bytes(p: &Params, sizing: &Sizing) -> Vec<Part> {
        multiway::bytes(p.traffic.destinations, false, sizing)
    }

    fn needs(_: &Params) -> &'static str {
        MWAY_NEEDS
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        mway_unfit(p.traffic.destinations, f).into_iter().collect()
    }

    fn start(&mut self, out: &mut Outbox) {
        self.operations.start(&mut out.timers);
    }

    fn on_timer(&mut self, host: u32, tag: u32, _now: Cycle, out: &mut Outbox) {
        if tag >= FORWARD {
            let (host, chain, l, r, operation) = self.pending[tag - FORWARD];
            self.pending.remove(tag - FORWARD);
            self.forward(host, chain, l, r, l, Serves::Operation(operation), out);
            return;
        }
        let (dests, multicast) = self.operations.arrive(host, &mut out.timers);
        self.begin(host, dests, multicast, out);
    }

    /// `host` starts a multicast to `dests` (distinct, increasing, without `host`).
    fn begin_multicast(&mut self, host: u32, dests: Vec<u32>, out: &mut Outbox) -> bool {
        self.begin(host, dests, true, out);
        true
    }

    fn on_delivered(&mut self, host: u32, message: &Delivered, now: Cycle, out: &mut Outbox) {
        let (chain, l, r) = decode(message.tag);
        self.chains[chain].1 -= 1;
        if l < r {
            if self.forward_cycles == 0 {
                self.forward(host, chain, l, r, l, Serves::Operation(message.operation), out);
            } else {
                let i = self.pending.insert((host, chain, l, r, message.operation));
                out.timers.push((now + self.forward_cycles, host, FORWARD + i));
            }
        }
        // (the last destination to receive is a leaf of the tree: nothing forwards after it)
        if self.chains[chain].1 == 0 {
            self.chains.remove(chain);
        }
    }
}

impl SoftwareMulticast {
    /// `host` starts an operation to `dests` along the tree: a multicast (even of one destination),
    /// or one of bimodal traffic's unicasts.
    fn begin(&mut self, host: u32, dests: Vec<u32>, multicast: bool, out: &mut Outbox) {
        let mut chain = dests.clone();
        let at = chain.partition_point(|&d| d < host);
        chain.insert(at, host);
        let last = chain.len() as u32 - 1;
        let id = self.chains.insert((chain, dests.len() as u32));
        let first = if multicast { Serves::Open(dests) } else { Serves::NewOperation };
        self.forward(host, id, 0, last, at as u32, first, out);
    }

    /// `host`, at position `p` of the chain, sends the sub-chain [l, r] on down the tree. The first
    /// send serves `first` (a new operation at the root); the rest serve the same operation.
    #[allow(clippy::too_many_arguments)]
    fn forward(&mut self, host: u32, chain: u32, mut l: u32, mut r: u32, p: u32, first: Serves, out: &mut Outbox) {
        let mut serves = first;
        while l < r {
            let c = l + (r - l).div_ceil(2);
            let (to, range) = if p < c { (c, (c, r)) } else { (l, (l, c - 1)) };
            if p < c {
                r = c - 1;
            } else {
                l = c;
            }
            let dst = self.chains[chain].0[to as usize];
            out.sends.push(Send {
                src: host,
                target: Target::One(dst),
                flits: self.message_flits,
                header_flits: 0,
                serves: std::mem::replace(&mut serves, Serves::Previous),
                tag: encode(chain, range.0, range.1),
                priority: Priority::Unicast,
                cut_through: None,
            });
        }
    }
}

/// A message's tag: its chain, and the sub-chain [l, r] its receiver holds (m < 2^16).
fn encode(chain: u32, l: u32, r: u32) -> u64 {
    (chain as u64) << 32 | (l as u64) << 16 | r as u64
}

fn decode(tag: u64) -> (u32, u32, u32) {
    ((tag >> 32) as u32, (tag >> 16) as u32 & 0xFFFF, tag as u32 & 0xFFFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree U-Min builds from `root` over `chain`: (sender, receiver, phase) per unicast.
    fn tree(chain: &[u32], root: usize) -> Vec<(u32, u32, u32)> {
        let mut edges = Vec::new();
        let mut stack = vec![(root as u32, 0u32, chain.len() as u32 - 1, 0u32)];
        while let Some((p, mut l, mut r, mut phase)) = stack.pop() {
            while l < r {
                let c = l + (r - l).div_ceil(2);
                phase += 1;
                if p < c {
                    edges.push((chain[p as usize], chain[c as usize], phase));
                    stack.push((c, c, r, phase));
                    r = c - 1;
                } else {
                    edges.push((chain[p as usize], chain[l as usize], phase));
                    stack.push((l, l, c - 1, phase));
                    l = c;
                }
            }
        }
        edges
    }

    #[test]
    fn every_destination_once_in_log_phases() {
        for m in 1..=15u32 {
            let chain: Vec<u32> = (0..=m).collect();
            for root in 0..=m as usize {
                let edges = tree(&chain, root);
                let mut got: Vec<u32> = edges.iter().map(|e| e.1).collect();
                got.sort_unstable();
                let expected: Vec<u32> = (0..=m).filter(|&x| x != root as u32).collect();
                assert_eq!(got, expected, "m = {m}, root at {root}");
                let phases = edges.iter().map(|e| e.2).max().unwrap();
                assert_eq!(phases, (m + 1).next_power_of_two().trailing_zeros(), "⌈log2(m+1)⌉ phases, m = {m}");
            }
        }
    }

    /// How many unicasts each of `n` hosts injects over every root and every m-set of destinations
    /// (each such operation equally likely: uniform roots, uniform destinations).
    fn injections(n: u32, m: usize) -> Vec<u64> {
        fn sets(from: &[u32], m: usize, acc: &mut Vec<u32>, out: &mut dyn FnMut(&[u32])) {
            if acc.len() == m {
                return out(acc);
            }
            for (i, &x) in from.iter().enumerate() {
                acc.push(x);
                sets(&from[i + 1..], m, acc, out);
                acc.pop();
            }
        }
        let mut sent = vec![0u64; n as usize];
        for root in 0..n {
            let others: Vec<u32> = (0..n).filter(|&x| x != root).collect();
            sets(&others, m, &mut Vec::new(), &mut |dests| {
                let mut chain = dests.to_vec();
                let at = chain.partition_point(|&d| d < root);
                chain.insert(at, root);
                for (sender, _, _) in tree(&chain, at) {
                    sent[sender as usize] += 1;
                }
            });
        }
        sent
    }

    #[test]
    fn hosts_inject_unevenly() {
        // Every host receives the same share, but the address-sorted chain makes some relay more: the
        // busiest host injects this multiple of the mean (exact), so its injection channel is full at
        // the reciprocal of it in effective load (docs/models/multicast.md, "What a software multicast
        // costs").
        for (m, busiest, share) in
            [(2, 10, (25, 21)), (4, 0, (5, 4)), (6, 1, (17, 15)), (9, 0, (16, 9)), (15, 0, (38, 15))]
        {
            let sent = injections(16, m);
            let total: u64 = sent.iter().sum();
            let max = *sent.iter().max().unwrap();
            assert_eq!(sent.iter().position(|&x| x == max), Some(busiest), "m = {m}");
            // max / (total / 16) = share
            assert_eq!(max * 16 * share.1, total * share.0, "m = {m}: {sent:?}");
        }
    }

    #[test]
    fn tags_round_trip() {
        assert_eq!(decode(encode(123_456, 7, 65_535)), (123_456, 7, 65_535));
    }
}
