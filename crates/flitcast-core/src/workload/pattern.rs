//! Traffic patterns: the destination of each message (Dally & Towles §3.2; study 002 §5.1 for
//! bit-reversal, bit-complement and matrix transpose on node ids).
//!
//! Node ids are terminal numbers; on a k-ary n-cube terminal r sits on router r, whose digit d
//! (base k) is its coordinate in dimension d. Bit patterns act on the b = log2(N) bits of the id:
//! * `bit_reversal`: d = s_0 s_1 … s_{b−1};  `bit_complement`: d = ¬s;
//! * `transpose`: swap the upper and lower halves of the bits — (x, y) → (y, x) on a 2^m × 2^m mesh;
//!   for odd b (e.g. 128 nodes, which study 002 leaves undefined) the upper ⌈b/2⌉ bits become the
//!   lower ones (`workload.transpose_split = "floor"`: ⌊b/2⌋);
//! * `shuffle`: rotate the b bits left by one.
//!
//! Coordinate patterns act digit-wise: `tornado` x → (x + ⌈k/2⌉ − 1) mod k, `neighbor` x → (x + 1)
//! mod k. `uniform` picks uniformly among all other nodes (or all nodes with
//! `uniform_include_self`); `hotspot` sends a fraction of messages to a node drawn uniformly from
//! `hotspot_nodes` and the rest uniformly. A permutation may map a node to itself: such messages go
//! into the node's router and straight back out.

use rand::Rng;

use crate::error::Error;
use crate::rng::Stream;
use crate::scenario::{Network, PatternKind, TopologyKind, TransposeSplit, Workload};

#[derive(Debug, Clone)]
pub struct Pattern {
    kind: PatternKind,
    nodes: u32,
    bits: u32,
    k: u32,
    n: u32,
    include_self: bool,
    /// Transpose: how many of the upper bits move down.
    upper_bits: u32,
    hotspots: Vec<u32>,
    hotspot_fraction: f64,
}

/// Rejects sizes a pattern is not defined for.
pub fn check_size(wl: &Workload, nodes: u32, _net: &Network) -> Result<(), Error> {
    let pow2 = nodes.is_power_of_two();
    let (ok, allowed) = match wl.pattern {
        PatternKind::BitReversal | PatternKind::BitComplement | PatternKind::Shuffle => {
            (pow2, format!("a network with a power-of-two node count for this pattern; this one has {nodes} nodes"))
        }
        PatternKind::Transpose => {
            (pow2, format!("a network with a power-of-two node count for transpose; this one has {nodes} nodes"))
        }
        PatternKind::Hotspot => (
            !wl.hotspot_nodes.is_empty() && wl.hotspot_fraction > 0.0,
            "hotspot with workload.hotspot_nodes non-empty and workload.hotspot_fraction > 0".to_string(),
        ),
        _ => (true, String::new()),
    };
    if ok {
        Ok(())
    } else {
        Err(Error::config("workload.pattern", format!("{:?}", wl.pattern).to_lowercase(), allowed))
    }
}

impl Pattern {
    /// The pattern of workload `wl` over the `nodes` terminals of network `net`.
    pub fn build(wl: &Workload, net: &Network, nodes: u32) -> Pattern {
        Pattern {
            kind: wl.pattern,
            nodes,
            bits: nodes.trailing_zeros(),
            k: net.k,
            n: if net.topology == TopologyKind::Ring { 1 } else { net.n },
            include_self: wl.uniform_include_self,
            upper_bits: match wl.transpose_split {
                TransposeSplit::Ceil => nodes.trailing_zeros().div_ceil(2),
                TransposeSplit::Floor => nodes.trailing_zeros() / 2,
            },
            hotspots: wl.hotspot_nodes.clone(),
            hotspot_fraction: wl.hotspot_fraction,
        }
    }

    fn uniform(&self, src: u32, rng: &mut Stream) -> u32 {
        if self.include_self {
            rng.random_range(0..self.nodes)
        } else {
            let d = rng.random_range(0..self.nodes - 1);
            if d >= src {
                d + 1
            } else {
                d
            }
        }
    }

    fn digits(&self, src: u32, f: impl Fn(u32) -> u32) -> u32 {
        let (mut out, mut stride) = (0, 1);
        for _ in 0..self.n {
            out += f((src / stride) % self.k) * stride;
            stride *= self.k;
        }
        out
    }

    pub fn destination(&self, src: u32, rng: &mut Stream) -> u32 {
        let b = self.bits;
        let mask = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        match self.kind {
            PatternKind::Uniform => self.uniform(src, rng),
            PatternKind::BitReversal => src.reverse_bits() >> (32 - b),
            PatternKind::BitComplement => !src & mask,
            PatternKind::Transpose => {
                // The lower b − u bits move up, the upper u bits move down.
                let low = b - self.upper_bits;
                ((src & ((1 << low) - 1)) << self.upper_bits) | (src >> low)
            }
            PatternKind::Shuffle => ((src << 1) | (src >> (b - 1))) & mask,
            PatternKind::Tornado => self.digits(src, |x| (x + self.k.div_ceil(2) - 1) % self.k),
            PatternKind::Neighbor => self.digits(src, |x| (x + 1) % self.k),
            PatternKind::Hotspot => {
                if rng.random::<f64>() < self.hotspot_fraction {
                    self.hotspots[rng.random_range(0..self.hotspots.len())]
                } else {
                    self.uniform(src, rng)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};
    use crate::Scenario;

    fn pattern(kind: PatternKind, k: u32, n: u32) -> Pattern {
        let mut s = Scenario::default();
        s.network.k = k;
        s.network.n = n;
        s.workload.pattern = kind;
        Pattern::build(&s.workload, &s.network, k.pow(n))
    }

    #[test]
    fn permutations_are_bijective_and_match_definitions() {
        let mut rng = stream(1, StreamKind::Destinations, 0);
        for kind in [
            PatternKind::BitReversal,
            PatternKind::BitComplement,
            PatternKind::Transpose,
            PatternKind::Shuffle,
            PatternKind::Tornado,
            PatternKind::Neighbor,
        ] {
            let p = pattern(kind, 8, 2);
            let mut seen = [false; 64];
            for s in 0..64 {
                let d = p.destination(s, &mut rng);
                assert!(!seen[d as usize], "{kind:?} not a permutation");
                seen[d as usize] = true;
            }
        }
        let mut rng = stream(1, StreamKind::Destinations, 0);
        let br = pattern(PatternKind::BitReversal, 4, 2); // 16 nodes, 4 bits
        assert_eq!(br.destination(0b0001, &mut rng), 0b1000);
        assert_eq!(br.destination(0b0110, &mut rng), 0b0110);
        let tr = pattern(PatternKind::Transpose, 8, 2); // (x=1, y=2) -> (x=2, y=1)
        assert_eq!(tr.destination(2 * 8 + 1, &mut rng), 8 + 2);
        let to = pattern(PatternKind::Tornado, 8, 2); // +3 in each digit
        assert_eq!(to.destination(0, &mut rng), 3 * 8 + 3);
        let sh = pattern(PatternKind::Shuffle, 4, 2);
        assert_eq!(sh.destination(0b1001, &mut rng), 0b0011);
        // 128 nodes, 7 bits: the upper 4 bits come down, the lower 3 go up.
        let mut s = Scenario::default();
        s.workload.pattern = PatternKind::Transpose;
        let t7 = Pattern::build(&s.workload, &s.network, 128);
        assert_eq!(t7.destination(0b000_0001, &mut rng), 0b001_0000);
        assert_eq!(t7.destination(0b100_0000, &mut rng), 0b000_1000);
        let mut seen = [false; 128];
        for v in 0..128 {
            let d = t7.destination(v, &mut rng) as usize;
            assert!(!seen[d]);
            seen[d] = true;
        }
    }

    #[test]
    fn uniform_never_picks_self_unless_asked() {
        let p = pattern(PatternKind::Uniform, 4, 1);
        let mut rng = stream(1, StreamKind::Destinations, 0);
        let mut counts = [0u32; 4];
        for _ in 0..30_000 {
            let d = p.destination(2, &mut rng);
            counts[d as usize] += 1;
        }
        assert_eq!(counts[2], 0);
        for &c in &[counts[0], counts[1], counts[3]] {
            assert!((c as f64 - 10_000.0).abs() < 500.0, "{counts:?}");
        }
    }
}
