//! Pairwise exchange all-to-all (Thakur, Rabenseifner and Gropp, IJHPCA 2005, on the all-to-all: MPICH's all-to-all
//! for long messages): P − 1 rounds; in round k each rank sends its block for rank r + k and receives
//! the block of rank r − k (mod P), so every round is a permutation: (P − 1)·(α + n·β) for blocks of n
//! flits.

use super::schedule::Schedule;

/// Appends a pairwise-exchange all-to-all of `flits` per pair of ranks to `s`.
pub fn alltoall(s: &mut Schedule, flits: u32) {
    let p = s.size();
    for k in 1..p {
        let ids: Vec<u32> = (0..p).map(|r| s.send(r, (r + k) % p, flits)).collect();
        for r in 0..p {
            s.recv(r, ids[((r + p - k) % p) as usize]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};

    #[test]
    fn p_minus_1_rounds_and_every_pair_once() {
        for p in 2..=10u32 {
            let mut s = Schedule::new(p);
            alltoall(&mut s, 6);
            s.check().unwrap();
            let mut pairs: Vec<(u32, u32)> = s.messages.iter().map(|m| (m.from, m.to[0])).collect();
            pairs.sort_unstable();
            pairs.dedup();
            assert_eq!(pairs.len() as u32, p * (p - 1));
            let trip = |_: &_, _| Trip { injection: 6, latency: 10 };
            assert_eq!(run(&s, &Costs::default(), trip).unwrap().completion(), (p as u64 - 1) * 10);
        }
    }
}
