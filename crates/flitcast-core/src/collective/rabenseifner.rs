//! Rabenseifner's allreduce (Rabenseifner, "Optimization of Collective Reduction Operations", ICCS
//! 2004; Thakur, Rabenseifner and Gropp, IJHPCA 2005, on the allreduce; MPICH's allreduce for long messages): a
//! reduce-scatter by recursive halving — in round k each rank sends the half of its current part that
//! its partner (rank XOR p'/2^(k+1)) keeps and reduces the half it keeps — then an allgather by recursive
//! doubling, which returns the halves in the opposite order: 2·log₂ P·α + 2·(P − 1)/P·n·β +
//! (P − 1)/P·n·γ. P not a power of two folds first as recursive doubling does (`recursive_doubling.rs`).

use super::recursive_doubling::Fold;
use super::schedule::{blocks, Schedule};

/// Appends Rabenseifner's allreduce of `flits` (with its compute cost where `reduce`) to `s`.
pub fn allreduce(s: &mut Schedule, flits: u32, reduce: bool) {
    let fold = Fold::apply(s, flits, reduce);
    let n = fold.size;
    // each folded rank's part of the vector, as a range of the p' blocks: first, count
    let mut part: Vec<(u32, u32)> = vec![(0, n); n as usize];
    let mut mask = n / 2;
    while mask > 0 {
        let kept = |v: u32, (first, count): (u32, u32)| {
            let half = count / 2;
            if v & mask == 0 {
                (first, half)
            } else {
                (first + half, count - half)
            }
        };
        let ids: Vec<u32> = (0..n)
            .map(|v| {
                let (first, count) = kept(v ^ mask, part[v as usize]);
                s.send(fold.real(v), fold.real(v ^ mask), blocks(flits, n, first, count))
            })
            .collect();
        for v in 0..n {
            s.recv_reduce(fold.real(v), ids[(v ^ mask) as usize], reduce);
            part[v as usize] = kept(v, part[v as usize]);
        }
        mask /= 2;
    }
    let mut mask = 1;
    while mask < n {
        let ids: Vec<u32> = (0..n)
            .map(|v| {
                let (first, count) = part[v as usize];
                s.send(fold.real(v), fold.real(v ^ mask), blocks(flits, n, first, count))
            })
            .collect();
        let before = part.clone();
        for v in 0..n {
            s.recv(fold.real(v), ids[(v ^ mask) as usize]);
            let (mine, theirs) = (before[v as usize], before[(v ^ mask) as usize]);
            part[v as usize] = (mine.0.min(theirs.0), mine.1 + theirs.1);
        }
        mask <<= 1;
    }
    debug_assert!(part.iter().all(|&q| q == (0, n)));
    fold.unfold(s, flits);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};
    use crate::collective::schedule::Message;

    #[test]
    fn halving_then_doubling_moves_twice_the_vector_less_a_block() {
        for log in 1..=5u32 {
            let p = 1 << log;
            let n = 8 * p;
            let mut s = Schedule::new(p);
            allreduce(&mut s, n, true);
            s.check().unwrap();
            let costs = Costs { reduce_per_flit: 1.0, ..Costs::default() };
            let trip = |m: &Message, _| Trip { injection: m.flits as u64, latency: 3 + m.flits as u64 };
            // 2·log₂ P·α + 2·(P − 1)/P·n·β + (P − 1)/P·n·γ with α = 3, β = γ = 1
            let moved = (p as u64 - 1) * 8;
            let want = 2 * log as u64 * 3 + 2 * moved + moved;
            assert_eq!(run(&s, &costs, trip).unwrap().completion(), want, "p={p}");
        }
        for p in [3u32, 5, 6, 7, 12, 13] {
            let mut s = Schedule::new(p);
            allreduce(&mut s, 100, true);
            s.check().unwrap();
        }
    }
}
