//! Recursive doubling (Thakur, Rabenseifner and Gropp, IJHPCA 2005, on the allreduce; MPICH's allreduce for short
//! messages): in round k each rank exchanges its whole (partly reduced) vector with the rank 2^k away
//! (rank XOR 2^k) and reduces what it received, so after log₂ P rounds every rank holds the result:
//! log₂ P·(α + n·β + n·γ). A barrier is the same with one-flit messages and nothing to reduce.
//!
//! P not a power of two: MPICH's fold. With p' the largest power of two below P and r = P − p', the
//! first 2r ranks pair up; each even one sends its vector to the odd one above it (which reduces it)
//! and sits out; the p' ranks left run the algorithm; each odd one of the first 2r then sends the
//! result back to its even partner. (Rabenseifner's algorithm folds the same way: `rabenseifner.rs`.)

use super::schedule::{Rank, Schedule};

/// The ranks that run a power-of-two algorithm after the fold, and how the rest rejoin.
pub struct Fold {
    /// p': the largest power of two not above P.
    pub size: u32,
    rem: u32,
}

impl Fold {
    /// Folds `s`'s ranks onto a power of two: the even ranks of the first 2r send `flits` to their odd
    /// partners, which reduce them (where `reduce`).
    pub fn apply(s: &mut Schedule, flits: u32, reduce: bool) -> Fold {
        let p = s.size();
        let size = 1 << (31 - p.leading_zeros());
        let rem = p - size;
        for r in (0..2 * rem).step_by(2) {
            let id = s.send(r, r + 1, flits);
            s.recv_reduce(r + 1, id, reduce);
        }
        Fold { size, rem }
    }

    /// The rank of the folded rank `v` (0 to p' − 1).
    pub fn real(&self, v: u32) -> Rank {
        if v < self.rem {
            2 * v + 1
        } else {
            v + self.rem
        }
    }

    /// The odd ranks of the first 2r send the result (`flits`) back to their even partners.
    pub fn unfold(&self, s: &mut Schedule, flits: u32) {
        for r in (0..2 * self.rem).step_by(2) {
            let id = s.send(r + 1, r, flits);
            s.recv(r, id);
        }
    }
}

/// Appends a recursive-doubling allreduce of `flits` (with its compute cost where `reduce`) to `s`.
pub fn allreduce(s: &mut Schedule, flits: u32, reduce: bool) {
    let fold = Fold::apply(s, flits, reduce);
    let mut mask = 1;
    while mask < fold.size {
        // (each rank sends before it waits: the exchanges of a round overlap)
        let ids: Vec<u32> = (0..fold.size).map(|v| s.send(fold.real(v), fold.real(v ^ mask), flits)).collect();
        for v in 0..fold.size {
            s.recv_reduce(fold.real(v), ids[(v ^ mask) as usize], reduce);
        }
        mask <<= 1;
    }
    fold.unfold(s, flits);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};

    #[test]
    fn log2_p_exchanges_and_two_more_when_p_is_not_a_power_of_two() {
        for p in 2..=33u32 {
            let mut s = Schedule::new(p);
            allreduce(&mut s, 16, true);
            s.check().unwrap();
            let log = 31 - p.leading_zeros() as u64;
            let costs = Costs { reduce_per_flit: 0.5, ..Costs::default() };
            let trip = |_: &_, _| Trip { injection: 16, latency: 20 };
            // each exchange: α + β·n = 20, then γ·n = 8
            let done = run(&s, &costs, trip).unwrap().completion();
            if p.is_power_of_two() {
                assert_eq!(done, log * 28, "p={p}");
            } else {
                // the fold (20 + 8) comes first; the unfold's message (20) ends the folded ranks, and
                // their partners start the exchanges 28 late
                assert!((log * 28 + 28..=log * 28 + 48 + 16).contains(&done), "p={p}: {done}");
            }
        }
    }
}
