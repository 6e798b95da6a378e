//! Bit sets: the ports of a router by state (`switch/central_buffer.rs`) and the routers and NICs
//! with work (`engine.rs`). Setting a bit costs no branch, where a list with a membership flag
//! costs one per arriving flit; the engine's run is bound by branch mispredictions.

/// Bit positions set in `mask`, lowest first.
#[inline]
pub fn ones(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

/// Bit positions set in `mask`, lowest first (128-bit sets: the InfiniBand switch's input lanes).
#[inline]
pub fn ones128(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

/// A set of ids `0..n`, visited in increasing order.
#[derive(Debug, Clone)]
pub struct IdSet {
    words: Vec<u64>,
}

impl IdSet {
    pub fn new(n: usize) -> IdSet {
        IdSet { words: vec![0; n.div_ceil(64)] }
    }
    #[inline]
    pub fn insert(&mut self, id: usize) {
        self.words[id / 64] |= 1 << (id % 64);
    }
    pub fn contains(&self, id: usize) -> bool {
        self.words[id / 64] & (1 << (id % 64)) != 0
    }
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
    /// Calls `keep` on every member in increasing order and removes those it returns false for
    /// (without a branch on the answer).
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        for (w, word) in self.words.iter_mut().enumerate() {
            for b in ones(*word) {
                *word &= !((!keep(w * 64 + b) as u64) << b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retain_visits_in_order_and_drops_what_it_is_told() {
        let mut set = IdSet::new(130);
        for id in [129, 3, 64, 70] {
            set.insert(id);
        }
        let mut seen = Vec::new();
        set.retain(|id| {
            seen.push(id);
            id != 64
        });
        assert_eq!(seen, [3, 64, 70, 129]);
        assert!(set.contains(70) && !set.contains(64));
        set.retain(|_| false);
        assert!(set.is_empty());
        assert_eq!(ones(0b1010_0001).collect::<Vec<_>>(), [0, 5, 7]);
    }
}
