//! Packets, messages and flits. A packet is an index into a slab; a flit is that index plus its
//! position flags, so moving a flit never allocates.

use crate::Cycle;

/// One flit in flight: the packet it belongs to and whether it is the head and/or tail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flit {
    pub packet: u32,
    pub head: bool,
    pub tail: bool,
}

#[derive(Debug, Clone)]
pub struct Packet {
    pub src: u32,
    pub dst: u32,
    pub message: u32,
    pub flits: u32,
    pub created: Cycle,
    pub injected: Cycle,
    /// Router-to-router channels traversed so far.
    pub hops: u32,
    /// Flits of this packet delivered so far (conservation check).
    pub delivered: u32,
    pub measured: bool,
}

#[derive(Debug, Clone)]
pub struct Message {
    pub created: Cycle,
    pub packets_left: u32,
    pub measured: bool,
}

/// A vector with a free list: stable indices, no allocation in steady state.
#[derive(Debug, Clone)]
pub struct Slab<T> {
    items: Vec<T>,
    free: Vec<u32>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Slab { items: Vec::new(), free: Vec::new() }
    }
}

impl<T> Slab<T> {
    pub fn insert(&mut self, item: T) -> u32 {
        if let Some(i) = self.free.pop() {
            self.items[i as usize] = item;
            i
        } else {
            self.items.push(item);
            (self.items.len() - 1) as u32
        }
    }
    pub fn remove(&mut self, i: u32) {
        self.free.push(i);
    }
    pub fn live(&self) -> usize {
        self.items.len() - self.free.len()
    }
}

impl<T> std::ops::Index<u32> for Slab<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: u32) -> &T {
        &self.items[i as usize]
    }
}

impl<T> std::ops::IndexMut<u32> for Slab<T> {
    #[inline]
    fn index_mut(&mut self, i: u32) -> &mut T {
        &mut self.items[i as usize]
    }
}
