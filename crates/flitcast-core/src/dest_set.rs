//! Destination sets of multicast packets, for any network size: one slab of bit sets of a fixed
//! width (⌈terminals / 64⌉ words), a set allocated when its packet is created and freed when the
//! packet has been delivered. The same words serve as the bit-string header of study 000 §3.2 (bit i
//! set: terminal i is a destination), so a switch's fan-out is a word-wise AND with its ports'
//! reachability strings (docs/engine.md, "Packets and copies").

use crate::bitset::ones;

/// Words of a set over `terminals` terminals (a bit-string header, a reachability string).
pub fn words_for(terminals: usize) -> usize {
    terminals.div_ceil(64).max(1)
}

/// The destinations of a packet or an operation still to be served, each exactly once: one terminal,
/// or a set in [`DestSets`] (kept apart from the packet's header, which never changes).
#[derive(Debug, Clone, Copy)]
pub struct Pending {
    left: u32,
    /// The terminal (one destination) or the set id (several).
    of: u32,
    set: bool,
}

impl Pending {
    pub fn one(terminal: u32) -> Pending {
        Pending { left: 1, of: terminal, set: false }
    }

    /// `destinations` (distinct), a set of its own in `sets` when there are several.
    pub fn new(destinations: &[u32], sets: &mut DestSets) -> Pending {
        match destinations {
            [one] => Pending::one(*one),
            many => Pending { left: many.len() as u32, of: sets.insert(many.iter().copied()), set: true },
        }
    }

    /// Destinations not served yet.
    #[inline]
    pub fn left(&self) -> u32 {
        self.left
    }

    /// `t` is a destination not served yet.
    #[inline]
    pub fn contains(&self, t: u32, sets: &DestSets) -> bool {
        if self.set {
            sets.contains(self.of, t)
        } else {
            self.of == t && self.left > 0
        }
    }

    /// Serves `t`; false if it is not a destination still to serve.
    #[inline]
    pub fn take(&mut self, t: u32, sets: &mut DestSets) -> bool {
        let served = if self.set { sets.take(self.of, t) } else { self.of == t && self.left > 0 };
        self.left -= served as u32;
        served
    }

    /// Gives its set back to `sets` (once every destination has been served).
    pub fn release(self, sets: &mut DestSets) {
        if self.set {
            sets.remove(self.of);
        }
    }
}

#[derive(Debug, Clone)]
pub struct DestSets {
    /// Words per set.
    width: usize,
    words: Vec<u64>,
    free: Vec<u32>,
}

impl DestSets {
    pub fn new(terminals: usize) -> DestSets {
        DestSets { width: words_for(terminals), words: Vec::new(), free: Vec::new() }
    }

    /// Words per set.
    pub fn width(&self) -> usize {
        self.width
    }

    /// A new set holding `members` (terminal ids below the network's size).
    pub fn insert(&mut self, members: impl IntoIterator<Item = u32>) -> u32 {
        let id = self.allocate();
        for t in members {
            self.set_mut(id)[t as usize / 64] |= 1 << (t % 64);
        }
        id
    }

    pub fn remove(&mut self, id: u32) {
        self.free.push(id);
    }

    /// Sets alive (inserted and not removed).
    pub fn len(&self) -> usize {
        self.words.len() / self.width - self.free.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The set's words (bit t of word t / 64: terminal t is a member).
    #[inline]
    pub fn words(&self, id: u32) -> &[u64] {
        &self.words[id as usize * self.width..(id as usize + 1) * self.width]
    }

    #[inline]
    pub fn contains(&self, id: u32, t: u32) -> bool {
        self.words(id)[t as usize / 64] & (1 << (t % 64)) != 0
    }

    /// Removes `t` from the set; false if it was not a member.
    #[inline]
    pub fn take(&mut self, id: u32, t: u32) -> bool {
        let word = &mut self.set_mut(id)[t as usize / 64];
        let bit = 1 << (t % 64);
        let had = *word & bit != 0;
        *word &= !bit;
        had
    }

    pub fn count(&self, id: u32) -> u32 {
        self.words(id).iter().map(|w| w.count_ones()).sum()
    }

    /// The members, in increasing order.
    pub fn members(&self, id: u32) -> impl Iterator<Item = u32> + '_ {
        self.words(id).iter().enumerate().flat_map(|(w, &word)| ones(word).map(move |b| (w * 64 + b) as u32))
    }

    fn allocate(&mut self) -> u32 {
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.words.resize(self.words.len() + self.width, 0);
                (self.words.len() / self.width - 1) as u32
            }
        };
        self.set_mut(id).fill(0);
        id
    }

    fn set_mut(&mut self, id: u32) -> &mut [u64] {
        &mut self.words[id as usize * self.width..(id as usize + 1) * self.width]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_wider_than_a_word_keep_their_members() {
        let mut sets = DestSets::new(256);
        assert_eq!(sets.width(), 4);
        let a = sets.insert([0, 63, 64, 200, 255]);
        let b = sets.insert(sets.members(a).collect::<Vec<_>>());
        assert!(sets.take(b, 200) && !sets.take(b, 200));
        assert_eq!(sets.members(a).collect::<Vec<_>>(), [0, 63, 64, 200, 255]);
        assert_eq!(sets.count(b), 4);
        assert!(sets.contains(a, 255) && !sets.contains(a, 1));
        sets.remove(a);
        let c = sets.insert([7]);
        assert_eq!(c, a, "a freed set is reused");
        assert_eq!(sets.members(c).collect::<Vec<_>>(), [7], "and starts empty");
        assert_eq!(sets.len(), 2);
    }
}
