//! Scatter + allgather broadcast (Barnett, van de Geijn et al.; Thakur, Rabenseifner and Gropp,
//! "Optimization of Collective Communication Operations in MPICH", IJHPCA 19(1), 2005: MPICH's broadcast
//! for medium and long messages): the root's vector, cut into P blocks, is scattered down the binomial
//! tree — each rank receives from its parent the blocks of its whole subtree — and an allgather then
//! gives every rank every block, in one of MPICH's two ways:
//!
//! - [`broadcast`] (`scatter_allgather`, MPICH's medium messages): by recursive doubling where P is a
//!   power of two (log₂ P rounds, the part exchanged doubling each round), else round the ring, as
//!   MPICH chooses for medium messages (MPIR_Bcast_intra_scatter_recursive_doubling_allgather);
//! - [`broadcast_ring`] (`scatter_ring_allgather`, MPICH's long messages, from 512 KB): round the ring
//!   whatever P (P − 1 rounds of one block; MPIR_Bcast_intra_scatter_ring_allgather), whose partners
//!   are neighbours in rank order where recursive doubling's are 2^k apart.
//!
//! Scatter ⌈log₂ P⌉·α + (P − 1)/P·n·β, then log₂ P·α (doubling) or (P − 1)·α (ring) + (P − 1)/P·n·β:
//! the vector crosses each rank's link twice instead of log₂ P times.

use super::binomial::down_the_tree;
use super::schedule::{block, blocks, Rank, Schedule};

/// Appends a scatter + allgather broadcast of `flits` from `root` to `s`: the allgather by recursive
/// doubling where P is a power of two, else round the ring.
pub fn broadcast(s: &mut Schedule, root: Rank, flits: u32) {
    allgather(s, root, flits, !s.size().is_power_of_two());
}

/// Appends a scatter + ring allgather broadcast of `flits` from `root` to `s`.
pub fn broadcast_ring(s: &mut Schedule, root: Rank, flits: u32) {
    allgather(s, root, flits, true);
}

/// The scatter, then the allgather round the ring where `ring`, else by recursive doubling (P a power
/// of two).
fn allgather(s: &mut Schedule, root: Rank, flits: u32, ring: bool) {
    let p = s.size();
    let real = |v: u32| (v + root) % p;
    // Scatter: relative rank v ends with block v; its parent sends it the blocks of its subtree.
    down_the_tree(s, root, |child, subtree| blocks(flits, p, child, subtree));
    if !ring {
        // Recursive doubling: before the round of `mask`, v holds the `mask` blocks from v rounded down
        // to a multiple of `mask`, and swaps them with v XOR mask.
        let mut mask = 1;
        while mask < p {
            let ids: Vec<u32> =
                (0..p).map(|v| s.send(real(v), real(v ^ mask), blocks(flits, p, v & !(mask - 1), mask))).collect();
            for v in 0..p {
                s.recv(real(v), ids[(v ^ mask) as usize]);
            }
            mask <<= 1;
        }
    } else {
        // Ring: in round k, v passes block v − k on to v + 1 and receives block v − k − 1 from v − 1.
        for k in 0..p - 1 {
            let ids: Vec<u32> =
                (0..p).map(|v| s.send(real(v), real((v + 1) % p), block(flits, p, (v + p - k) % p).1)).collect();
            for v in 0..p {
                s.recv(real(v), ids[((v + p - 1) % p) as usize]);
            }
        }
    }
}

/// Its messages: P − 1 in the scatter, then P·log₂ P (doubling) or P·(P − 1) (ring).
pub fn messages(p: u64, ring: bool) -> u64 {
    let allgather = if p.is_power_of_two() && !ring { p * p.trailing_zeros() as u64 } else { p * (p - 1) };
    p - 1 + allgather
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};
    use crate::collective::schedule::Message;

    #[test]
    fn the_vector_crosses_twice_with_2_log2_p_start_ups() {
        // α = 3, β = 1, blocks of 8 flits, no overheads: the scatter's deepest path is log₂ P messages
        // of n/2, n/4, … (log₂ P·α + (P − 1)/P·n·β), the doubling allgather log₂ P rounds of α plus
        // (P − 1)/P·n·β.
        let trip = |m: &Message, _| Trip { injection: m.flits as u64, latency: 3 + m.flits as u64 };
        for log in 1..=6u32 {
            let p = 1u32 << log;
            let n = 8 * p;
            let mut s = Schedule::new(p);
            broadcast(&mut s, p / 3, n);
            s.check().unwrap();
            assert_eq!(s.messages.len() as u64, messages(p as u64, false));
            let moved = 8 * (p as u64 - 1);
            let done = run(&s, &Costs::default(), trip).unwrap().completion();
            assert_eq!(done, 2 * log as u64 * 3 + 2 * moved, "p={p}");
        }
        for p in [3u32, 5, 6, 7, 12, 13] {
            let mut s = Schedule::new(p);
            broadcast(&mut s, 1, 10 * p);
            s.check().unwrap();
            assert_eq!(s.messages.len() as u64, messages(p as u64, false));
        }
    }

    #[test]
    fn the_ring_variant_takes_floor_log2_p_plus_p_minus_1_start_ups_for_any_p() {
        // α = 3, β = 1, blocks of 8 flits: the scatter's deepest rank, 2^⌊log₂ P⌋ − 1 (relative), has its
        // block after ⌊log₂ P⌋·α + (P − 1)/P·n·β, and the ring's P − 1 rounds then pass one block each,
        // every rank's message waiting for the one it received in the round before
        let trip = |m: &Message, _| Trip { injection: m.flits as u64, latency: 3 + m.flits as u64 };
        for p in 2..=20u32 {
            let n = 8 * p;
            let mut s = Schedule::new(p);
            broadcast_ring(&mut s, p / 3, n);
            s.check().unwrap();
            assert_eq!(s.messages.len() as u64, messages(p as u64, true));
            let done = run(&s, &Costs::default(), trip).unwrap().completion();
            let log = 31 - p.leading_zeros() as u64;
            assert_eq!(done, (log + p as u64 - 1) * 3 + 2 * 8 * (p as u64 - 1), "p={p}");
            // where P is not a power of two (or is 2: one exchange) both variants are the same schedule
            let mut medium = Schedule::new(p);
            broadcast(&mut medium, p / 3, n);
            assert_eq!(medium == s, !p.is_power_of_two() || p == 2, "p={p}");
        }
    }
}
