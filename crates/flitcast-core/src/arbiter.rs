//! Arbitration: which of several requesters is served, shared by the switches (input and output
//! arbiters, buffer ports) and the selection functions (which granted output a packet takes).
//!
//! * [`RoundRobin`]: a pointer; the first requester at or after it wins (wrapping), and the pointer
//!   moves past the winner (Dally & Towles §18.4). Requesters are bits of a mask.
//! * [`Recency`]: a list from least to most recently used (study 002 §4.3's LRU lists, of which
//!   §5.3 counts the n(n+1)/2 latches); least or most recent among the requesters wins.
//! * [`least_served`]: the requester served longest ago by its own time stamp (the SP switch's
//!   central-buffer ports, study 000 §4.1).

use crate::bitset::{ones, ones128};
use crate::time::Cycle;

/// A round-robin pointer over requesters `0..n` (n ≤ 128): the next requester to favour.
#[derive(Debug, Clone, Copy, Default)]
pub struct RoundRobin {
    next: u32,
}

impl RoundRobin {
    /// The first requester of `mask` (not empty; a 64-bit set) in round-robin order.
    #[inline]
    pub fn first(&self, mask: u64) -> usize {
        debug_assert!(mask != 0);
        let from = mask & (u64::MAX << self.next);
        (if from != 0 { from } else { mask }).trailing_zeros() as usize
    }

    /// The requesters of `mask` in the order the pointer serves them: from it upwards, then from 0.
    #[inline]
    pub fn order(&self, mask: u64) -> impl Iterator<Item = usize> {
        let below = (1u64 << self.next) - 1;
        ones(mask & !below).chain(ones(mask & below))
    }

    /// [`order`](Self::order) over at most 32 requesters, by rotating the mask (the form the routers'
    /// per-cycle loops use: two instructions per requester).
    #[inline]
    pub fn order_narrow(&self, mask: u32) -> impl Iterator<Item = usize> {
        let next = self.next;
        let mut pending = mask.rotate_right(next);
        std::iter::from_fn(move || {
            (pending != 0).then(|| {
                let v = (pending.trailing_zeros() + next) & 31;
                pending &= pending - 1;
                v as usize
            })
        })
    }

    /// [`order`](Self::order) over 128 requesters.
    #[inline]
    pub fn order_wide(&self, mask: u128) -> impl Iterator<Item = usize> {
        let below = (1u128 << self.next) - 1;
        ones128(mask & !below).chain(ones128(mask & below))
    }

    /// `winner` of `n` requesters was served: the pointer moves just past it, wrapping at `n`.
    #[inline]
    pub fn served(&mut self, winner: usize, n: usize) {
        self.next = if winner + 1 == n { 0 } else { winner as u32 + 1 };
    }

    /// [`served`](Self::served) for [`order_narrow`](Self::order_narrow) alone, without the wrap: a
    /// rotation by `n` serves from 0 as a pointer at 0 does (no branch per flit in the routers).
    #[inline]
    pub fn served_narrow(&mut self, winner: usize) {
        self.next = winner as u32 + 1;
    }
}

/// Requesters `0..n` from least to most recently used. Initially in index order.
#[derive(Debug, Clone)]
pub struct Recency {
    order: Vec<u8>,
}

impl Recency {
    pub fn new(n: usize) -> Recency {
        Recency { order: (0..n as u8).collect() }
    }

    /// The least recently used requester of `mask`.
    #[inline]
    pub fn least_recent(&self, mask: u64) -> u8 {
        *self.order.iter().find(|&&p| mask & (1 << p) != 0).expect("a requester is in the list")
    }

    /// The most recently used requester of `mask`.
    #[inline]
    pub fn most_recent(&self, mask: u64) -> u8 {
        *self.order.iter().rev().find(|&&p| mask & (1 << p) != 0).expect("a requester is in the list")
    }

    /// `used` was just served: it becomes the most recent.
    #[inline]
    pub fn touch(&mut self, used: u8) {
        if let Some(i) = self.order.iter().position(|&p| p == used) {
            self.order[i..].rotate_left(1);
        }
    }

    #[cfg(test)]
    pub fn as_slice(&self) -> &[u8] {
        &self.order
    }
}

/// The requester served longest ago by its time stamp `served(requester)`, the first among ties.
#[inline]
pub fn least_served(requesters: impl Iterator<Item = usize>, served: impl Fn(usize) -> Cycle) -> Option<usize> {
    requesters.min_by_key(|&i| served(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_serves_from_the_pointer_and_wraps() {
        let mut rr = RoundRobin::default();
        assert_eq!(rr.first(0b1010), 1);
        rr.served(1, 4);
        assert_eq!(rr.first(0b1010), 3);
        assert_eq!(rr.order(0b1011).collect::<Vec<_>>(), vec![3, 0, 1]);
        assert_eq!(rr.order_wide(0b1011).collect::<Vec<_>>(), vec![3, 0, 1]);
        assert_eq!(rr.order_narrow(0b1011).collect::<Vec<_>>(), vec![3, 0, 1]);
        let mut narrow = RoundRobin::default();
        narrow.served_narrow(3);
        assert_eq!(narrow.order_narrow(0b1011).collect::<Vec<_>>(), vec![0, 1, 3], "a pointer at n is at 0");
        rr.served(3, 4);
        assert_eq!(rr.first(0b1010), 1, "past the last requester the pointer wraps to 0");
        let mut wide = RoundRobin::default();
        wide.served(99, 128);
        assert_eq!(wide.order_wide(1 | 1 << 101).collect::<Vec<_>>(), vec![101, 0]);
        wide.served(127, 128);
        assert_eq!(wide.order_wide(1 << 127 | 1).next(), Some(0));
    }

    #[test]
    fn recency_moves_the_used_to_the_back() {
        let mut o = Recency::new(4);
        o.touch(1);
        assert_eq!(o.as_slice(), &[0, 2, 3, 1]);
        assert_eq!(o.least_recent(0b1010), 3);
        assert_eq!(o.most_recent(0b1010), 1);
    }

    #[test]
    fn least_served_breaks_ties_by_index() {
        let stamps = [5, 3, 3, 9];
        assert_eq!(least_served(ones(0b1111), |i| stamps[i]), Some(1));
        assert_eq!(least_served(ones(0b1001), |i| stamps[i]), Some(0));
        assert_eq!(least_served(ones(0), |i| stamps[i]), None);
    }
}
