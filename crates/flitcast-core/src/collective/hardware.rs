//! Collectives over hardware multicast (docs/models/collectives.md): where the switches replicate
//! multidestination worms (study 000's fat trees; meshes with forwarding tables, study 003), a
//! broadcast is one worm from the root to every other rank — α + β·n whatever P, but for the worm's
//! header and the replication — and an allreduce is a binomial reduce to the root in software followed
//! by that one-worm broadcast of the result.

use super::binomial;
use super::schedule::{Rank, Schedule};

/// Appends a one-worm broadcast of `flits` from `root` to `s`.
pub fn broadcast(s: &mut Schedule, root: Rank, flits: u32) {
    let others: Vec<Rank> = (0..s.size()).filter(|&r| r != root).collect();
    let id = s.multicast(root, others.clone(), flits);
    for r in others {
        s.recv(r, id);
    }
}

/// Appends a binomial reduce to `root` and a one-worm broadcast of the result to `s`.
pub fn allreduce(s: &mut Schedule, root: Rank, flits: u32, reduce: bool) {
    binomial::reduce(s, root, flits, reduce);
    broadcast(s, root, flits);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};

    #[test]
    fn one_worm_whatever_the_group() {
        for p in 2..=40u32 {
            let mut s = Schedule::new(p);
            broadcast(&mut s, p / 3, 32);
            s.check().unwrap();
            assert_eq!(s.messages.len(), 1);
            let trip = |_: &_, _| Trip { injection: 32, latency: 40 };
            assert_eq!(run(&s, &Costs::default(), trip).unwrap().completion(), 40);
        }
    }
}
