//! Every router output's queue as the cycle began: what a routing with global knowledge reads (UGAL-G,
//! `Route::decide`'s `anywhere`). Each router writes its own outputs' entries before any router of the
//! cycle steps (its region's deliver phase on several threads, `regions.rs`), and every router reads any
//! entry while stepping, so what a router reads depends neither on the order the routers step in nor on
//! the region that holds the other router: the results are the same on any number of threads.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::topology::Topology;

/// One entry per router output port (`Topology::port_index`): the flits waiting downstream of it, for the
/// ports `ports` of every router (the others stay 0).
#[derive(Debug)]
pub struct QueueView {
    queued: Vec<AtomicU32>,
    ports: Range<u8>,
}

impl QueueView {
    /// A view of outputs `ports` of every router of `topo` (`Route::reads_anywhere`), or an empty one where
    /// the routing reads none.
    pub fn new(topo: &Topology, ports: Range<u8>) -> QueueView {
        let outputs = if ports.is_empty() { 0 } else { topo.links.len() };
        QueueView { queued: (0..outputs).map(|_| AtomicU32::new(0)).collect(), ports }
    }

    /// Whether any router records into it.
    #[inline]
    pub fn wanted(&self) -> bool {
        !self.queued.is_empty()
    }

    /// The output ports every router records.
    #[inline]
    pub fn ports(&self) -> Range<u8> {
        self.ports.clone()
    }

    /// Output `port_index`'s queue is `flits`. (Relaxed: the phase barrier between recording and
    /// reading, or the one thread, orders them.)
    #[inline]
    pub fn record(&self, port_index: usize, flits: u32) {
        self.queued[port_index].store(flits, Ordering::Relaxed);
    }

    /// Output `port_index`'s queue as the cycle began.
    #[inline]
    pub fn queued(&self, port_index: usize) -> u32 {
        self.queued[port_index].load(Ordering::Relaxed)
    }

    /// Bytes it takes for a network of `ports` router output ports.
    pub fn bytes(ports: u64) -> u64 {
        ports * std::mem::size_of::<AtomicU32>() as u64
    }
}
