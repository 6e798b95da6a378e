//! Traffic patterns: the destination of each message (Dally & Towles §3.2; study 002 §5.1 for
//! bit-reversal, bit-complement and matrix transpose on node ids). One pattern per file implementing
//! [`TrafficPattern`] (`pattern.rs`); this file is their registry (`workload.pattern`).
//!
//! Node ids are terminal numbers; on a k-ary n-cube terminal r sits on router r, whose digit d (base
//! k) is its coordinate in dimension d. Bit patterns act on the b = log2(N) bits of the id; coordinate
//! patterns act digit-wise. A permutation may map a node to itself: such messages go into the node's
//! router and straight back out.

pub mod bit_complement;
pub mod bit_reversal;
pub mod dragonfly_worst_case;
pub mod hotspot;
pub mod neighbor;
pub mod pattern;
pub mod random_permutation;
pub mod shuffle;
pub mod tornado;
pub mod transpose;
pub mod uniform;

pub use pattern::{Shape, TrafficPattern};

use crate::family::family;
use crate::params::Problem;
use crate::rng::Stream;

family! {
    /// The destination pattern of every host.
    pub enum Pattern: TrafficPattern {
        Uniform(uniform::Uniform),
        BitReversal(bit_reversal::BitReversal),
        BitComplement(bit_complement::BitComplement),
        Transpose(transpose::Transpose),
        Shuffle(shuffle::Shuffle),
        Tornado(tornado::Tornado),
        Neighbor(neighbor::Neighbor),
        Hotspot(hotspot::Hotspot),
        RandomPermutation(random_permutation::RandomPermutation),
        DragonflyWorstCase(dragonfly_worst_case::DragonflyWorstCase),
    }
    mut {}
    ref {
        /// The destination of a message from `src`.
        fn destination(src: u32, rng: &mut Stream) -> u32;
    }
    params
    /// The destination pattern, and its parameters.
    pub enum PatternKind tag "pattern"
    static {
        fn unfit(shape: &Shape) -> Option<Problem>;
    }
    build(shape: &Shape);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    fn pattern(name: &str, k: u32, n: u32) -> Pattern {
        let shape = Shape { nodes: k.pow(n), digits: Some((k, n)), groups: None };
        Pattern::build(&PatternKind::of_name(name).expect("a pattern"), &shape)
    }

    #[test]
    fn permutations_are_bijective_and_match_definitions() {
        let mut rng = stream(1, StreamKind::Destinations, 0);
        for name in ["bit_reversal", "bit_complement", "transpose", "shuffle", "tornado", "neighbor"] {
            let p = pattern(name, 8, 2);
            let mut seen = [false; 64];
            for s in 0..64 {
                let d = p.destination(s, &mut rng);
                assert!(!seen[d as usize], "{name} not a permutation");
                seen[d as usize] = true;
            }
        }
        let mut rng = stream(1, StreamKind::Destinations, 0);
        let br = pattern("bit_reversal", 4, 2); // 16 nodes, 4 bits
        assert_eq!(br.destination(0b0001, &mut rng), 0b1000);
        assert_eq!(br.destination(0b0110, &mut rng), 0b0110);
        let tr = pattern("transpose", 8, 2); // (x=1, y=2) -> (x=2, y=1)
        assert_eq!(tr.destination(2 * 8 + 1, &mut rng), 8 + 2);
        let to = pattern("tornado", 8, 2); // +3 in each digit
        assert_eq!(to.destination(0, &mut rng), 3 * 8 + 3);
        let sh = pattern("shuffle", 4, 2);
        assert_eq!(sh.destination(0b1001, &mut rng), 0b0011);
        // 128 nodes, 7 bits: the upper 4 bits come down, the lower 3 go up.
        let t7 = Pattern::build(
            &PatternKind::of_name("transpose").unwrap(),
            &Shape { nodes: 128, digits: None, groups: None },
        );
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
        let p = pattern("uniform", 4, 1);
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

    #[test]
    fn bit_patterns_need_a_power_of_two_and_coordinate_patterns_coordinates() {
        let odd = Shape { nodes: 12, digits: None, groups: None };
        for name in ["bit_reversal", "bit_complement", "transpose", "shuffle"] {
            assert!(PatternKind::of_name(name).unwrap().unfit(&odd).is_some(), "{name}");
        }
        for name in ["tornado", "neighbor"] {
            assert!(PatternKind::of_name(name).unwrap().unfit(&odd).is_some(), "{name}");
        }
        assert!(PatternKind::of_name("uniform").unwrap().unfit(&odd).is_none());
    }
}
