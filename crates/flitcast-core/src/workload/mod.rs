//! Workloads: who sends what to whom, and when (pattern × size × arrival process).

pub mod arrival;
pub mod operations;
pub mod patterns;
pub mod sizes;

use rand::Rng;

use crate::rng::{stream, Stream, StreamKind};

pub use arrival::{Arrival, Arrivals};
pub use patterns::{Pattern, PatternKind, Shape};
pub use sizes::Sizes;

/// Per-terminal traffic generator: its arrival process and destination stream.
#[derive(Debug, Clone)]
pub struct Source {
    pub arrivals: Arrivals,
    pub dest_rng: Stream,
}

/// Every host's open-loop source (`host/programs/open_loop.rs` and the multicast operations of
/// `operations.rs`): `arrival` at `flits_per_cycle / message_flits` messages (operations) per cycle
/// each, so that each host creates `flits_per_cycle` flits per cycle.
pub fn sources(arrival: Arrival, flits_per_cycle: f64, message_flits: u32, seed: u64, terminals: u32) -> Vec<Source> {
    let rate = flits_per_cycle / message_flits as f64;
    (0..terminals)
        .map(|t| Source {
            arrivals: Arrivals::new(arrival, rate, stream(seed, StreamKind::Arrivals, t as u64)),
            dest_rng: stream(seed, StreamKind::Destinations, t as u64),
        })
        .collect()
}

/// `m` distinct destinations drawn uniformly among the `nodes − 1` nodes other than `src` (Floyd's
/// algorithm: exactly m draws), in increasing order.
pub fn multicast_destinations(src: u32, m: u32, nodes: u32, rng: &mut Stream) -> Vec<u32> {
    let others = nodes - 1;
    let mut picked: Vec<u32> = Vec::with_capacity(m as usize);
    for j in others - m..others {
        let t = rng.random_range(0..=j);
        let choice = if picked.contains(&t) { j } else { t };
        picked.push(choice);
    }
    // (ids among the others: skip the source)
    let mut out: Vec<u32> = picked.into_iter().map(|d| if d >= src { d + 1 } else { d }).collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multicast_destinations_are_distinct_others_and_uniform() {
        let mut rng = stream(7, StreamKind::Destinations, 3);
        let mut counts = [0u32; 16];
        for _ in 0..16_000 {
            let d = multicast_destinations(3, 5, 16, &mut rng);
            assert_eq!(d.len(), 5);
            assert!(d.windows(2).all(|w| w[0] < w[1]) && !d.contains(&3) && d.iter().all(|&x| x < 16));
            for x in d {
                counts[x as usize] += 1;
            }
        }
        // each of the 15 others is picked with probability 5/15: 5,333 of 16,000 expected
        for (node, &c) in counts.iter().enumerate().filter(|&(n, _)| n != 3) {
            assert!((5_033..5_633).contains(&c), "node {node} picked {c} times");
        }
        assert_eq!(multicast_destinations(0, 15, 16, &mut rng), (1..16).collect::<Vec<_>>());
    }
}
