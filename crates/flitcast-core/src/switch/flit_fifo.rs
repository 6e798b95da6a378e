//! An input FIFO of flits (the central-buffer and input-FIFO switches' inputs), with each copy's
//! route position — the hops it had made on arriving — kept beside its head (docs/engine.md,
//! "Packets and copies").
//!
//! A ring of fixed capacity, allocated once: credits bound what a FIFO holds, so it never grows, and
//! a power-of-two size makes every index a mask (no reallocation checks, no wrap branches on the
//! path every flit takes).

use crate::packet::Flit;

#[derive(Debug, Clone)]
pub struct FlitFifo {
    flits: Box<[Flit]>,
    /// The hops of the copies whose heads are in the FIFO, oldest first (a ring of the same size:
    /// there are never more heads than flits).
    heads: Box<[u16]>,
    mask: u32,
    front: u32,
    len: u32,
    heads_front: u32,
    heads_len: u32,
    /// The hops of the copy whose flits are leaving (set as its head leaves).
    pub hops: u16,
}

impl FlitFifo {
    /// A FIFO for at most `flits` flits.
    pub fn new(flits: u32) -> FlitFifo {
        let size = Self::slots(flits);
        FlitFifo {
            flits: vec![Flit::new(0, false, false); size].into_boxed_slice(),
            heads: vec![0; size].into_boxed_slice(),
            mask: size as u32 - 1,
            front: 0,
            len: 0,
            heads_front: 0,
            heads_len: 0,
            hops: 0,
        }
    }

    /// The slots a FIFO for `flits` flits allocates (for memory estimates).
    pub fn slots(flits: u32) -> usize {
        flits.max(1).next_power_of_two() as usize
    }

    /// Appends `flit`; the caller keeps the FIFO within the capacity it was made for.
    #[inline]
    pub fn push(&mut self, flit: Flit, hops: u16) {
        debug_assert!(self.len <= self.mask, "FIFO overflow");
        if flit.head() {
            self.heads[((self.heads_front + self.heads_len) & self.mask) as usize] = hops;
            self.heads_len += 1;
        }
        self.flits[((self.front + self.len) & self.mask) as usize] = flit;
        self.len += 1;
    }

    /// Takes the front flit out (a head brings its copy's hops along).
    #[inline]
    pub fn pop(&mut self) -> Option<Flit> {
        if self.len == 0 {
            return None;
        }
        let flit = self.flits[self.front as usize];
        self.front = (self.front + 1) & self.mask;
        self.len -= 1;
        if flit.head() {
            debug_assert!(self.heads_len > 0, "every head in the FIFO has its hops");
            self.hops = self.heads[self.heads_front as usize];
            self.heads_front = (self.heads_front + 1) & self.mask;
            self.heads_len -= 1;
        }
        Some(flit)
    }

    #[inline]
    pub fn front(&self) -> Option<Flit> {
        (self.len > 0).then(|| self.flits[self.front as usize])
    }

    /// The hops of the copy whose head is at the front.
    #[inline]
    pub fn front_hops(&self) -> u16 {
        assert!(self.heads_len > 0, "a head at the front has its hops");
        self.heads[self.heads_front as usize]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ring keeps order and each head's hops across many wraps, at a capacity that is not a power
    /// of two.
    #[test]
    fn keeps_order_and_hops_across_wraps() {
        let mut fifo = FlitFifo::new(5);
        let mut expected = std::collections::VecDeque::new();
        let mut next = 0u32;
        for round in 0..200u32 {
            let pushes = round % 5 + 1;
            for _ in 0..pushes.min(5 - fifo.len() as u32) {
                let head = next % 3 == 0;
                fifo.push(Flit::new(next, head, false), next as u16);
                expected.push_back((next, head));
                next += 1;
            }
            for _ in 0..(round % 4 + 1) {
                let Some(flit) = fifo.pop() else { break };
                let (packet, head) = expected.pop_front().unwrap();
                assert_eq!((flit.packet(), flit.head()), (packet, head));
                if head {
                    assert_eq!(fifo.hops, packet as u16);
                }
            }
            assert_eq!(fifo.len(), expected.len());
        }
    }
}
