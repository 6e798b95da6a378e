//! An input FIFO of flits (the central-buffer and input-FIFO switches' inputs), with each copy's
//! route position — the hops it had made on arriving — kept beside its head (docs/engine.md,
//! "Packets and copies").

use std::collections::VecDeque;

use crate::packet::Flit;

#[derive(Debug, Clone, Default)]
pub struct FlitFifo {
    flits: VecDeque<Flit>,
    /// The hops of the copies whose heads are in the FIFO, oldest first.
    heads: VecDeque<u16>,
    /// The hops of the copy whose flits are leaving (set as its head leaves).
    pub hops: u16,
}

impl FlitFifo {
    #[inline]
    pub fn push(&mut self, flit: Flit, hops: u16) {
        if flit.head() {
            self.heads.push_back(hops);
        }
        self.flits.push_back(flit);
    }

    /// Takes the front flit out (a head brings its copy's hops along).
    #[inline]
    pub fn pop(&mut self) -> Option<Flit> {
        let flit = self.flits.pop_front()?;
        if flit.head() {
            self.hops = self.heads.pop_front().expect("every head in the FIFO has its hops");
        }
        Some(flit)
    }

    #[inline]
    pub fn front(&self) -> Option<Flit> {
        self.flits.front().copied()
    }

    /// The hops of the copy whose head is at the front.
    #[inline]
    pub fn front_hops(&self) -> u16 {
        *self.heads.front().expect("a head at the front has its hops")
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.flits.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.flits.is_empty()
    }
}
