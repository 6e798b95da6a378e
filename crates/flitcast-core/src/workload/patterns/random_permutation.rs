//! Random permutation: every node sends all its messages to one partner, the partners a permutation of
//! the nodes drawn uniformly at random, once, from `workload.permutation_seed` (Dally & Towles §3.2
//! list random permutations among the standard patterns; BookSim's `randperm` with its `perm_seed`).
//! The permutation has its own seed so that one permutation can be kept while `run.seed` varies.
//! A node may draw itself: its messages go into its router and straight back out, as with the other
//! permutations.

use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::pattern::{Shape, TrafficPattern};
use crate::params::{params, Kind};
use crate::rng::Stream;

params! {
    /// A random permutation of the nodes.
    pub struct Params {
        /// Seed the permutation is drawn from (independent of run.seed).
        permutation_seed: u64 = 1, range(0, 9_223_372_036_854_775_807);
    }
}

#[derive(Debug, Clone)]
pub struct RandomPermutation {
    partner: Vec<u32>,
}

impl Kind for RandomPermutation {
    const NAME: &'static str = "random_permutation";
    const DOC: &'static str =
        "d = a fixed partner of s, the partners a random permutation drawn from workload.permutation_seed";
    type Params = Params;
}

impl TrafficPattern for RandomPermutation {
    fn new(p: &Params, shape: &Shape) -> Self {
        let mut partner: Vec<u32> = (0..shape.nodes).collect();
        partner.shuffle(&mut Stream::seed_from_u64(p.permutation_seed));
        RandomPermutation { partner }
    }

    fn destination(&self, src: u32, _: &mut Stream) -> u32 {
        self.partner[src as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    fn pattern(seed: u64, nodes: u32) -> RandomPermutation {
        RandomPermutation::new(&Params { permutation_seed: seed }, &Shape { nodes, digits: None, groups: None })
    }

    #[test]
    fn a_permutation_fixed_by_its_seed() {
        let mut rng = stream(1, StreamKind::Destinations, 0);
        let p = pattern(5, 100);
        let mut seen = [false; 100];
        for s in 0..100 {
            let d = p.destination(s, &mut rng);
            assert!(!seen[d as usize], "node {d} is the partner of two nodes");
            seen[d as usize] = true;
            assert_eq!(p.destination(s, &mut rng), d, "a node's partner never changes");
        }
        assert_eq!(pattern(5, 100).partner, p.partner, "the same seed draws the same permutation");
        assert_ne!(pattern(6, 100).partner, p.partner, "another seed draws another one");
        assert_ne!(p.partner, (0..100).collect::<Vec<u32>>(), "not the identity");
    }
}
