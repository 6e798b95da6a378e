//! What every selection function is given and does (the vocabulary of `selection/`; the registry of
//! functions is `mod.rs`).
//!
//! `choose` looks at the routing's candidates that are free ("granted") now and picks one; `commit`
//! records a choice once it is final — in the input-buffered router when the head leaves through the
//! port (a pick can still lose output arbitration there), in the SP switches when the input selects
//! among its grants or commits the packet to an output's central-buffer queue.

use crate::candidates::Candidates;
use crate::params::{choice, Kind, NoParams};

choice! {
    /// Which hops update a history-keeping selection function (study 002 §4.3 leaves it open).
    pub enum SelectionHistory {
        /// Every hop, forced ones included: RRID holds "the most recently used output port used by a
        /// message entering from the input port", whatever the message's route offered.
        EveryHop = "every_hop",
        /// Only hops where the routing offered more than one port (adaptive choices).
        AdaptiveHops = "adaptive_hops",
    }
}

/// Whether a hop whose routing offered the ports in `offered` updates the selection's history
/// (`routing.selection_history`; study 002 §4.3 does not say whether forced hops count).
#[inline]
pub fn records(history: SelectionHistory, offered: u64) -> bool {
    history == SelectionHistory::EveryHop || offered.count_ones() > 1
}

/// What a selection may know about the request.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// Input port the packet entered by.
    pub in_port: u8,
    /// Index of the destination's node switch (LRUD).
    pub dst_switch: u32,
}

/// Where a selection function works: its router, its ports, the network's node switches, and the
/// seed of the router's own random stream.
#[derive(Debug, Clone, Copy)]
pub struct Site {
    pub router: u32,
    pub radix: usize,
    pub switches: usize,
    pub seed: u64,
}

/// The granted candidates: for each port, the lowest free VC, and a mask of granted ports.
#[derive(Debug, Clone, Copy)]
pub struct Grants {
    pub ports: u64,
    vc: [u8; 64],
}

impl Grants {
    /// Collects, among `cands`, the ports with a free VC.
    #[inline]
    pub fn collect(cands: &Candidates, mut free: impl FnMut(u8, u8) -> bool) -> Grants {
        let mut g = Grants { ports: 0, vc: [0; 64] };
        for c in cands.as_slice() {
            if g.ports & (1 << c.port) != 0 {
                continue;
            }
            if let Some(vc) = (c.vc_lo..c.vc_hi).find(|&vc| free(c.port, vc)) {
                g.ports |= 1 << c.port;
                g.vc[c.port as usize & 63] = vc;
            }
        }
        g
    }
    pub fn vc(&self, port: u8) -> u8 {
        self.vc[port as usize & 63]
    }
    pub fn count(&self) -> u32 {
        self.ports.count_ones()
    }
}

/// A selection function (study 002 §4.3), one per file; it has no parameters.
pub trait Function: Kind<Params = NoParams> {
    fn new(params: &NoParams, site: Site) -> Self;

    /// The port among `granted` (at least two ports) this function prefers.
    fn pick(&mut self, req: Request, granted: u64) -> u8;

    /// Records that a packet of `req` left through `port` (functions with a history).
    fn commit(&mut self, _req: Request, _port: u8) {}

    /// Whether `commit` does anything (so callers can skip looking up what it needs).
    fn has_history(_: &NoParams) -> bool {
        true
    }

    /// Bytes one router's function keeps, `radix` ports, `switches` node switches in the network (the
    /// memory estimate, `memory.rs`).
    fn bytes(_: &NoParams, _radix: u64, _switches: u64) -> u64 {
        0
    }

    /// Whether `pick` reads [`Request::dst_switch`] (so callers can skip looking it up).
    fn keys_on_destination(&self) -> bool {
        false
    }

    /// Picks (port, vc) among `cands` for which `free(port, vc)` holds: the lowest free VC of the port
    /// this function prefers among those with one.
    #[inline]
    fn choose(&mut self, req: Request, cands: &Candidates, free: impl FnMut(u8, u8) -> bool) -> Option<(u8, u8)> {
        let grants = Grants::collect(cands, free);
        if grants.ports == 0 {
            return None;
        }
        let port = if grants.count() == 1 { grants.ports.trailing_zeros() as u8 } else { self.pick(req, grants.ports) };
        Some((port, grants.vc(port)))
    }
}
