//! Every router output's queue as the cycle began: what a routing with global knowledge reads (UGAL-G,
//! `Route::decide`'s `anywhere`). Each router writes its own outputs' entries before any router of the
//! cycle steps (its region's deliver phase on several threads, `regions.rs`), and every router reads any
//! entry while stepping, so what a router reads depends neither on the order the routers step in nor on
//! the region that holds the other router: the results are the same on any number of threads.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::topology::Topology;

/// What a routing with global knowledge reads of every router (`Route::reads_anywhere`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Anywhere {
    /// The output ports whose queues it reads (none: it reads no other router's).
    pub ports: Range<u8>,
    /// A queue counts, beside the flits waiting downstream of the output, those waiting for it in its
    /// router's input buffers.
    pub with_router: bool,
}

/// One entry per router output port (`Topology::port_index`): the flits queued for it, for the ports
/// `anywhere.ports` of every router (the others stay 0).
#[derive(Debug)]
pub struct QueueView {
    queued: Vec<AtomicU32>,
    anywhere: Anywhere,
}

impl QueueView {
    /// A view of what `anywhere` reads of every router of `topo`, or an empty one where the routing reads
    /// nothing.
    pub fn new(topo: &Topology, anywhere: Anywhere) -> QueueView {
        let outputs = if anywhere.ports.is_empty() { 0 } else { topo.links.len() };
        QueueView { queued: (0..outputs).map(|_| AtomicU32::new(0)).collect(), anywhere }
    }

    /// Whether any router records into it.
    #[inline]
    pub fn wanted(&self) -> bool {
        !self.queued.is_empty()
    }

    /// The output ports every router records.
    #[inline]
    pub fn ports(&self) -> Range<u8> {
        self.anywhere.ports.clone()
    }

    /// A queue counts the flits waiting for the output in its router too.
    #[inline]
    pub fn with_router(&self) -> bool {
        self.anywhere.with_router
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
