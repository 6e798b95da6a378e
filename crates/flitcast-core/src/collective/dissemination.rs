//! The dissemination barrier (Hensgen, Finkel and Manber, "Two algorithms for barrier
//! synchronization", IJPP 17(1), 1988; MPICH's barrier, MPIR_Barrier_intra_dissemination): in round
//! k = 0 … ⌈log₂ P⌉ − 1 rank i sends to (i + 2^k) mod P and receives from (i − 2^k) mod P. After
//! round k every rank has heard, directly or through others, from the 2^(k+1) ranks before it, so
//! after ⌈log₂ P⌉ rounds from all: ⌈log₂ P⌉·α for any P, where recursive doubling folds a P that is
//! not a power of two and pays two more start-ups.

use super::schedule::Schedule;

/// Appends a dissemination barrier (one-flit messages) to `s`.
pub fn barrier(s: &mut Schedule) {
    let p = s.size();
    let mut mask = 1;
    while mask < p {
        // (each rank sends before it waits: the rounds' messages overlap as the other algorithms')
        let ids: Vec<u32> = (0..p).map(|i| s.send(i, (i + mask) % p, 1)).collect();
        for i in 0..p {
            s.recv(i, ids[((i + p - mask) % p) as usize]);
        }
        mask <<= 1;
    }
}

/// Its rounds, ⌈log₂ P⌉, of P messages each.
pub fn rounds(p: u64) -> u64 {
    u64::from(64 - (p.max(1) - 1).leading_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};

    #[test]
    fn ceil_log2_p_rounds_of_p_messages_for_any_p() {
        // P = 3 (the case recursive doubling folds): 2 rounds, 6 messages
        let mut s = Schedule::new(3);
        barrier(&mut s);
        s.check().unwrap();
        let pairs: Vec<(u32, u32)> = s.messages.iter().map(|m| (m.from, m.to[0])).collect();
        assert_eq!(pairs, [(0, 1), (1, 2), (2, 0), (0, 2), (1, 0), (2, 1)]);
        let trip = |_: &_, _| Trip { injection: 1, latency: 10 };
        assert_eq!(run(&s, &Costs::default(), trip).unwrap().completion(), 20);
        for p in 2..=40u32 {
            let mut s = Schedule::new(p);
            barrier(&mut s);
            s.check().unwrap();
            let log = rounds(p as u64);
            assert_eq!(s.messages.len() as u64, p as u64 * log, "p={p}");
            // one start-up a round, whatever P
            assert_eq!(run(&s, &Costs::default(), trip).unwrap().completion(), 10 * log, "p={p}");
        }
        assert_eq!((rounds(2), rounds(3), rounds(4), rounds(5), rounds(1024), rounds(1025)), (1, 2, 2, 3, 10, 11));
    }
}
