//! Binomial trees (MPICH's binomial broadcast and reduce; Thakur, Rabenseifner and Gropp, "Optimization
//! of Collective Communication Operations in MPICH", IJHPCA 19(1), 2005, on the broadcast and the reduce): ⌈log₂ P⌉ rounds, each
//! rank relaying to (or collecting from) ranks 2^k apart, counted from the root. A broadcast's rank
//! receives from the rank its lowest set bit away and sends to those a smaller power of two away,
//! largest first; a reduce runs the same tree upwards, a rank reducing each child's data as it
//! arrives (a commutative operation). Allreduce and barrier here are a reduce to the root followed by
//! a broadcast from it.

use super::schedule::{Rank, Schedule};

/// Appends a binomial broadcast of `flits` from `root` to `s`.
pub fn broadcast(s: &mut Schedule, root: Rank, flits: u32) {
    down_the_tree(s, root, |_, _| flits);
}

/// Appends the binomial tree from `root` downwards to `s`: each rank receives from its parent, then
/// sends to its children, farthest first; `flits(child, subtree)` is what the message to the child (a
/// rank relative to the root) carries, `subtree` the number of ranks the child's subtree holds.
pub(super) fn down_the_tree(s: &mut Schedule, root: Rank, flits: impl Fn(u32, u32) -> u32) {
    let p = s.size();
    let real = |v: u32| (v + root) % p;
    // (parents before children: a rank's message exists before its child waits for it)
    let mut from_parent = vec![None; p as usize];
    for v in 0..p {
        if let Some(id) = from_parent[v as usize] {
            s.recv(real(v), id);
        }
        let mut mask = lowest_bit_or_beyond(v, p) >> 1;
        while mask > 0 {
            let child = v + mask;
            if child < p {
                from_parent[child as usize] = Some(s.send(real(v), real(child), flits(child, mask.min(p - child))));
            }
            mask >>= 1;
        }
    }
}

/// Appends a binomial reduce of `flits` to `root` (with its compute cost where `reduce`) to `s`.
pub fn reduce(s: &mut Schedule, root: Rank, flits: u32, reduce: bool) {
    let p = s.size();
    let real = |v: u32| (v + root) % p;
    // (children, which have the higher relative ranks, before their parents)
    let mut to_parent = vec![None; p as usize];
    for v in (0..p).rev() {
        let mut mask = 1;
        while mask < p {
            if v & mask == 0 {
                if let Some(id) = to_parent.get((v | mask) as usize).copied().flatten() {
                    s.recv_reduce(real(v), id, reduce);
                }
            } else {
                to_parent[v as usize] = Some(s.send(real(v), real(v - mask), flits));
                break;
            }
            mask <<= 1;
        }
    }
}

/// The lowest set bit of `v`, or for the root (0) the first power of two at or above `p`.
fn lowest_bit_or_beyond(v: u32, p: u32) -> u32 {
    if v == 0 {
        p.next_power_of_two()
    } else {
        v & v.wrapping_neg()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};

    #[test]
    fn a_broadcast_takes_ceil_log2_p_rounds_and_a_reduce_too() {
        for p in 2..=33u32 {
            for root in [0, p / 2, p - 1] {
                let rounds = 32 - (p - 1).leading_zeros();
                let unit = |_: &_, _| Trip { injection: 10, latency: 10 };
                let mut s = Schedule::new(p);
                broadcast(&mut s, root, 10);
                s.check().unwrap();
                assert_eq!(s.messages.len() as u32, p - 1);
                // α = 0, β = 1: the root's NIC sends ⌈log₂ P⌉ messages one after the other
                assert_eq!(run(&s, &Costs::default(), unit).unwrap().completion(), 10 * rounds as u64, "p={p}");
                let mut s = Schedule::new(p);
                reduce(&mut s, root, 10, true);
                s.check().unwrap();
                let costs = Costs { reduce_per_flit: 1.0, ..Costs::default() };
                // each round: a message (10) and its reduction (10); with P not a power of two some
                // subtrees are shallower and the root may reduce a child's data the moment it is done
                let done = run(&s, &costs, unit).unwrap().completion();
                if p.is_power_of_two() {
                    assert_eq!(done, 20 * rounds as u64, "p={p}");
                } else {
                    assert!((10 * rounds as u64 + 10..=20 * rounds as u64).contains(&done), "p={p}: {done}");
                }
            }
        }
    }
}
