//! Collective operations (docs/models/collectives.md): broadcast, reduce, allreduce, barrier and
//! all-to-all over a group of hosts, each by one of several algorithms, one file per algorithm. An
//! algorithm builds the operation's [`Schedule`] (who sends what to whom, who waits for what, who
//! reduces); the `collective` host program runs it on the network, and [`estimate`] runs it in the
//! α-β-γ model beside it. This file is the table of which algorithm serves which operation.

pub mod binomial;
pub mod chain;
pub mod dissemination;
pub mod estimate;
pub mod hardware;
pub mod pairwise;
pub mod rabenseifner;
pub mod recursive_doubling;
pub mod ring;
pub mod scatter_allgather;
pub mod schedule;

pub use schedule::{Rank, Schedule};

use crate::params::choice;

choice! {
    /// The collective operation.
    pub enum Operation {
        /// The root's message to every rank.
        Broadcast = "broadcast",
        /// Every rank's vector combined at the root.
        Reduce = "reduce",
        /// Every rank's vector combined, the result at every rank.
        Allreduce = "allreduce",
        /// No rank leaves before every rank has arrived (one-flit messages, nothing reduced).
        Barrier = "barrier",
        /// Every rank's own block to every other rank.
        Alltoall = "alltoall",
    }
}

choice! {
    /// How the operation is carried out.
    pub enum Algorithm {
        /// Binomial tree (broadcast, reduce; allreduce and barrier as reduce then broadcast).
        Binomial = "binomial",
        /// Pipelined chain in segments (broadcast).
        Chain = "chain",
        /// Scatter down the binomial tree, then allgather by recursive doubling (P a power of two) or
        /// the ring (broadcast; MPICH's for medium messages).
        ScatterAllgather = "scatter_allgather",
        /// Scatter down the binomial tree, then allgather round the ring whatever P (broadcast; MPICH's
        /// for long messages).
        ScatterRingAllgather = "scatter_ring_allgather",
        /// Recursive doubling (allreduce, barrier).
        RecursiveDoubling = "recursive_doubling",
        /// Dissemination: in round k rank i sends to i + 2^k and receives from i − 2^k, mod P (barrier;
        /// MPICH's).
        Dissemination = "dissemination",
        /// Ring reduce-scatter then allgather (allreduce).
        Ring = "ring",
        /// Rabenseifner's reduce-scatter by recursive halving then allgather by recursive doubling
        /// (allreduce).
        Rabenseifner = "rabenseifner",
        /// Pairwise exchange (all-to-all).
        Pairwise = "pairwise",
        /// One multidestination worm the switches replicate (broadcast; allreduce as a binomial
        /// reduce then that broadcast).
        Hardware = "hardware",
    }
}

/// The algorithms that carry out `operation`, its default first.
pub fn algorithms(operation: Operation) -> &'static [Algorithm] {
    use Algorithm::*;
    match operation {
        Operation::Broadcast => &[Binomial, Chain, ScatterAllgather, ScatterRingAllgather, Hardware],
        Operation::Reduce => &[Binomial],
        Operation::Allreduce => &[RecursiveDoubling, Ring, Rabenseifner, Binomial, Hardware],
        // (dissemination first: MPICH's barrier, ⌈log₂ P⌉ rounds for any P; docs/models/collectives.md)
        Operation::Barrier => &[Dissemination, RecursiveDoubling, Binomial],
        Operation::Alltoall => &[Pairwise],
    }
}

/// What a collective is: the operation, its algorithm, the group's size, the root's rank (broadcast,
/// reduce, and the binomial and hardware allreduce), the vector (or an all-to-all's block) in flits, and
/// the chain's segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    pub operation: Operation,
    pub algorithm: Algorithm,
    pub ranks: u32,
    pub root: Rank,
    pub flits: u32,
    pub segment_flits: u32,
}

/// The schedule of `spec` (an algorithm [`algorithms`] allows for its operation).
pub fn schedule(spec: &Spec) -> Schedule {
    use Algorithm::*;
    use Operation::*;
    let Spec { operation, algorithm, ranks, root, flits, segment_flits } = *spec;
    assert!(algorithms(operation).contains(&algorithm), "{algorithm:?} does not carry out {operation:?}");
    let mut s = Schedule::new(ranks);
    // (a barrier moves one flit per message and reduces nothing)
    let (flits, reduce) = if operation == Barrier { (1, false) } else { (flits, true) };
    match (operation, algorithm) {
        (Broadcast, Binomial) => binomial::broadcast(&mut s, root, flits),
        (Broadcast, Chain) => chain::broadcast(&mut s, root, flits, segment_flits),
        (Broadcast, ScatterAllgather) => scatter_allgather::broadcast(&mut s, root, flits),
        (Broadcast, ScatterRingAllgather) => scatter_allgather::broadcast_ring(&mut s, root, flits),
        (Broadcast, Hardware) => hardware::broadcast(&mut s, root, flits),
        (Reduce, _) => binomial::reduce(&mut s, root, flits, reduce),
        (Allreduce | Barrier, RecursiveDoubling) => recursive_doubling::allreduce(&mut s, flits, reduce),
        (Barrier, Dissemination) => dissemination::barrier(&mut s),
        (Allreduce, Ring) => ring::allreduce(&mut s, flits, reduce),
        (Allreduce, Rabenseifner) => rabenseifner::allreduce(&mut s, flits, reduce),
        (Allreduce | Barrier, Binomial) => {
            binomial::reduce(&mut s, root, flits, reduce);
            binomial::broadcast(&mut s, root, flits);
        }
        (Allreduce, Hardware) => hardware::allreduce(&mut s, root, flits, reduce),
        (Alltoall, _) => pairwise::alltoall(&mut s, flits),
        _ => unreachable!("checked against algorithms() above"),
    }
    s
}

/// How many messages the schedule of `spec` has, without building it (the memory estimate, which
/// runs before anything is allocated: an all-to-all of P ranks has P(P − 1)).
pub fn messages(spec: &Spec) -> u64 {
    use Algorithm::*;
    use Operation::*;
    let p = spec.ranks as u64;
    let pof2 = 1u64 << (63 - p.leading_zeros());
    let folded = pof2 * pof2.trailing_zeros() as u64 + 2 * (p - pof2);
    match (spec.operation, spec.algorithm) {
        (Broadcast, Chain) => (p - 1) * chain::segments(spec.flits, spec.segment_flits).count() as u64,
        (Broadcast, Hardware) => 1,
        (Broadcast, ScatterAllgather) => scatter_allgather::messages(p, false),
        (Broadcast, ScatterRingAllgather) => scatter_allgather::messages(p, true),
        (Broadcast | Reduce, _) => p - 1,
        (Allreduce | Barrier, RecursiveDoubling) => folded,
        (Barrier, Dissemination) => p * dissemination::rounds(p),
        (Allreduce, Rabenseifner) => 2 * folded - 2 * (p - pof2),
        (Allreduce, Ring) => 2 * p * (p - 1),
        (Allreduce | Barrier, Binomial) => 2 * (p - 1),
        (Allreduce, Hardware) => p,
        (Alltoall, _) => p * (p - 1),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every schedule of every operation and algorithm delivers each message exactly once to each
        /// of its receivers and runs to the end.
        #[test]
        fn every_schedule_is_exactly_once_and_runs_to_the_end(
            op in 0..Operation::ALL.len(), alg in 0..Algorithm::ALL.len(), ranks in 2u32..40, root in 0u32..40,
            flits in 1u32..300, segment in 1u32..64,
        ) {
            let operation = Operation::ALL[op];
            let allowed = algorithms(operation);
            let algorithm = allowed[alg % allowed.len()];
            let spec = Spec { operation, algorithm, ranks, root: root % ranks, flits, segment_flits: segment };
            let s = schedule(&spec);
            prop_assert_eq!(s.check(), Ok(()));
            prop_assert_eq!(messages(&spec), s.messages.len() as u64);
            prop_assert_eq!(estimate::runs_to_the_end(&s), Ok(()));
            // every rank's data is reduced into the result: (P − 1) · n flits at least, over all ranks
            let reduced: u64 = s.ranks.iter().flatten().map(|st| match st {
                schedule::Step::Reduce { flits } => *flits as u64,
                _ => 0,
            }).sum();
            if matches!(operation, Operation::Reduce | Operation::Allreduce) {
                prop_assert!(reduced >= (ranks as u64 - 1) * flits as u64);
            }
        }
    }
}
