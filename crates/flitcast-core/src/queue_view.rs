//! Every router output's queue as the cycle began: what a routing with global knowledge reads (UGAL-G,
//! `Route::decide`'s `anywhere`). Each router writes its own outputs' entries before any router of the
//! cycle steps (its region's deliver phase on several threads, `regions.rs`), and every router reads any
//! entry while stepping, so what a router reads depends neither on the order the routers step in nor on
//! the region that holds the other router: the results are the same on any number of threads.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::topology::Topology;

/// One entry per router output port (`Topology::port_index`): the flits waiting downstream of it.
#[derive(Debug)]
pub struct QueueView {
    queued: Vec<AtomicU32>,
}

impl QueueView {
    /// A view of every output of `topo`, or an empty one where no routing reads it (`wanted` false).
    pub fn new(topo: &Topology, wanted: bool) -> QueueView {
        let outputs = if wanted { topo.links.len() } else { 0 };
        QueueView { queued: (0..outputs).map(|_| AtomicU32::new(0)).collect() }
    }

    /// Whether any router records into it.
    #[inline]
    pub fn wanted(&self) -> bool {
        !self.queued.is_empty()
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
