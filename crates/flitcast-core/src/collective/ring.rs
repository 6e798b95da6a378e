//! Ring allreduce (Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
//! workstations", JPDC 69(2), 2009; the ring of NCCL and Horovod): the vector is cut into P blocks;
//! a reduce-scatter of P − 1 rounds, in which each rank sends one block to the next rank of the ring
//! and reduces the block the previous one sent, leaves each rank with one block of the result, and an
//! allgather of P − 1 rounds passes the reduced blocks round the ring:
//! 2(P − 1)·α + 2·(P − 1)/P·n·β + (P − 1)/P·n·γ — bandwidth-optimal, latency linear in P.

use super::schedule::{block, Schedule};

/// Appends a ring allreduce of `flits` (with its compute cost where `reduce`) to `s`.
pub fn allreduce(s: &mut Schedule, flits: u32, reduce: bool) {
    let p = s.size();
    let next = |r: u32| (r + 1) % p;
    let prev = |r: u32| (r + p - 1) % p;
    // Reduce-scatter: in round k rank r sends block r − k and reduces block r − k − 1; allgather:
    // in round k rank r sends block r + 1 − k, which it holds reduced, and keeps block r − k.
    for (offset, reducing) in [(0, true), (1, false)] {
        for k in 0..p - 1 {
            let ids: Vec<u32> =
                (0..p).map(|r| s.send(r, next(r), block(flits, p, (r + offset + p * 2 - k) % p).1)).collect();
            for r in 0..p {
                s.recv_reduce(r, ids[prev(r) as usize], reduce && reducing);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};
    use crate::collective::schedule::Message;

    #[test]
    fn two_p_minus_2_rounds_of_a_block() {
        for p in 2..=12u32 {
            let n = 12 * p; // blocks of 12 flits
            let mut s = Schedule::new(p);
            allreduce(&mut s, n, true);
            s.check().unwrap();
            assert_eq!(s.messages.len() as u32, 2 * p * (p - 1));
            let costs = Costs { reduce_per_flit: 1.0, ..Costs::default() };
            let trip = |m: &Message, _| Trip { injection: m.flits as u64, latency: 5 + m.flits as u64 };
            // a round: α + β·n/P = 17, and γ·n/P = 12 in the reduce-scatter
            let want = (p as u64 - 1) * (17 + 12) + (p as u64 - 1) * 17;
            assert_eq!(run(&s, &costs, trip).unwrap().completion(), want, "p={p}");
        }
    }
}
