//! Packets and flits. A packet is an index into a slab; a flit is that index plus its
//! position flags, so moving a flit never allocates.

use crate::dest_set::Pending;
use crate::time::Cycle;

/// One flit in flight: the packet it belongs to and whether it is the head and/or tail, packed in
/// 32 bits (buffers and channels hold millions of them; smaller is faster).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flit(u32);

impl Flit {
    const HEAD: u32 = 1 << 31;
    const TAIL: u32 = 1 << 30;
    /// Packet indices must stay below this (checked when packets are created).
    pub const MAX_PACKETS: u32 = 1 << 30;

    #[inline]
    pub fn new(packet: u32, head: bool, tail: bool) -> Flit {
        debug_assert!(packet < Self::MAX_PACKETS);
        Flit(packet | if head { Self::HEAD } else { 0 } | if tail { Self::TAIL } else { 0 })
    }
    #[inline]
    pub fn packet(self) -> u32 {
        self.0 & (Self::MAX_PACKETS - 1)
    }
    #[inline]
    pub fn head(self) -> bool {
        self.0 & Self::HEAD != 0
    }
    #[inline]
    pub fn tail(self) -> bool {
        self.0 & Self::TAIL != 0
    }
}

/// Where a packet goes: one terminal, or every member of a destination set (`dest_set.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dest {
    One(u32),
    /// A set in the simulation's [`DestSets`](crate::dest_set::DestSets), by id.
    Set(u32),
}

/// What every copy of a packet carries, fixed when the packet is created ([`Header::new`]): the
/// switches read it, never write it. Per-copy state (the hops a copy has made, which source routing
/// reads as its route position) travels with the copy's head flit and is kept where the copy is
/// buffered (docs/engine.md, "Packets and copies").
#[derive(Debug, Clone, Copy)]
pub struct Header {
    pub src: u32,
    pub dest: Dest,
    pub message: u32,
    pub flits: u32,
    pub created: Cycle,
    pub measured: bool,
    /// Which of the pair's oblivious routes this packet takes (O4: 0–3; otherwise 0).
    pub variant: u8,
    /// A multicast's count field (study 000 §3.3): the up hops before it replicates, set by the
    /// routing when the packet is created (`Routing::turn`); 0 for a unicast.
    pub turn: u8,
}

impl Header {
    pub fn new(src: u32, dest: Dest, message: u32, flits: u32, created: Cycle, measured: bool, variant: u8) -> Header {
        Header { src, dest, message, flits, created, measured, variant, turn: 0 }
    }

    /// The destination of a unicast packet (`u32::MAX` for a destination set: routings that only
    /// route unicasts never see one).
    #[inline]
    pub fn dst(&self) -> u32 {
        match self.dest {
            Dest::One(d) => d,
            Dest::Set(_) => u32::MAX,
        }
    }
}

/// A packet in the network: its header and the source's bookkeeping of its delivery.
#[derive(Debug, Clone)]
pub struct Packet {
    pub header: Header,
    /// When its head left the source.
    pub injected: Cycle,
    /// Flits delivered so far, over all destinations (conservation check).
    pub delivered: u32,
    /// Destinations whose copy has not delivered its tail yet; the packet is freed when none is left.
    pub pending: Pending,
}

impl Packet {
    pub fn new(header: Header, pending: Pending, now: Cycle) -> Packet {
        Packet { header, injected: now, delivered: 0, pending }
    }

    pub fn unicast(header: Header) -> Packet {
        Packet::new(header, Pending::one(header.dst()), header.created)
    }
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
    /// Items alive (inserted and not removed).
    pub fn len(&self) -> usize {
        self.items.len() - self.free.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
