//! Destination sets of multicast packets, for any network size: one slab of bit sets of a fixed
//! width (⌈terminals / 64⌉ words), a set allocated when its packet is created and freed when the
//! packet has been delivered. The same words serve as the bit-string header of study 000 §3.2 (bit i
//! set: terminal i is a destination), so a switch's fan-out is a word-wise AND with its ports'
//! reachability strings (docs/engine.md, "Packets and copies").

use crate::bitset::ones;

#[derive(Debug, Clone)]
pub struct DestSets {
    /// Words per set.
    width: usize,
    words: Vec<u64>,
    free: Vec<u32>,
}

impl DestSets {
    pub fn new(terminals: usize) -> DestSets {
        DestSets { width: terminals.div_ceil(64).max(1), words: Vec::new(), free: Vec::new() }
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

    /// A new set with the members of `id`.
    pub fn duplicate(&mut self, id: u32) -> u32 {
        let copy = self.allocate();
        let (w, a, b) = (self.width, id as usize, copy as usize);
        self.words.copy_within(a * w..(a + 1) * w, b * w);
        copy
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
        let b = sets.duplicate(a);
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
