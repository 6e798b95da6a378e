//! Selection: which of the routing's candidates a packet takes among those that are free ("granted")
//! now. One function per file; `Selection` dispatches statically and holds the per-router state.
//!
//! `pick` looks at the grants and chooses; `commit` records a choice once it is final — in the
//! input-buffered router when the head leaves through the port (a pick can still lose output
//! arbitration there), in the central-buffer switch when the input selects among its grants or
//! commits the packet to an output's central-buffer queue.
//! The adaptive functions are those of study 002 §4.3.

pub mod first_free;
pub mod lru;
pub mod lruc;
pub mod lrud;
pub mod mru;
pub mod order;
pub mod rnd;
pub mod rr;

use crate::rng::{stream, StreamKind};
use crate::routing::Candidates;
use crate::scenario::{SelectionHistory, SelectionKind};

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

#[derive(Debug, Clone)]
pub enum Selection {
    FirstFree,
    Lru(lru::Lru),
    Mru(mru::Mru),
    Rnd(rnd::Rnd),
    Rr(rr::Rr),
    Lruc(lruc::Lruc),
    Lrud(lrud::Lrud),
}

impl Selection {
    /// The selection `kind` for router `router` with `radix` ports in a network with `switches`
    /// node switches, drawing from the router's own random stream under `seed`.
    pub fn build(kind: SelectionKind, router: u32, radix: usize, switches: usize, seed: u64) -> Selection {
        match kind {
            SelectionKind::FirstFree => Selection::FirstFree,
            SelectionKind::Lru => Selection::Lru(lru::Lru::new(radix)),
            SelectionKind::Mru => Selection::Mru(mru::Mru::new(radix)),
            SelectionKind::Rnd => Selection::Rnd(rnd::Rnd::new(stream(seed, StreamKind::Router, router as u64))),
            SelectionKind::Rr => Selection::Rr(rr::Rr::new(radix)),
            SelectionKind::Lruc => Selection::Lruc(lruc::Lruc::new(radix)),
            SelectionKind::Lrud => Selection::Lrud(lrud::Lrud::new(radix, switches)),
        }
    }

    /// Picks (port, vc) among `cands` for which `free(port, vc)` holds.
    #[inline]
    pub fn pick(&mut self, req: Request, cands: &Candidates, free: impl FnMut(u8, u8) -> bool) -> Option<(u8, u8)> {
        if let Selection::FirstFree = self {
            return first_free::pick(cands, free);
        }
        let grants = Grants::collect(cands, free);
        if grants.ports == 0 {
            return None;
        }
        let port = if grants.count() == 1 {
            grants.ports.trailing_zeros() as u8
        } else {
            match self {
                Selection::FirstFree => unreachable!(),
                Selection::Lru(s) => s.pick(req, grants.ports),
                Selection::Mru(s) => s.pick(req, grants.ports),
                Selection::Rnd(s) => s.pick(grants.ports),
                Selection::Rr(s) => s.pick(req, grants.ports),
                Selection::Lruc(s) => s.pick(grants.ports),
                Selection::Lrud(s) => s.pick(req, grants.ports),
            }
        };
        Some((port, grants.vc(port)))
    }

    /// Records that a packet of `req` left through `port`.
    #[inline]
    pub fn commit(&mut self, req: Request, port: u8) {
        match self {
            Selection::FirstFree | Selection::Rnd(_) => {}
            Selection::Lru(s) => s.commit(req, port),
            Selection::Mru(s) => s.commit(req, port),
            Selection::Rr(s) => s.commit(req, port),
            Selection::Lruc(s) => s.commit(port),
            Selection::Lrud(s) => s.commit(req, port),
        }
    }

    /// Whether `commit` does anything (so callers can skip looking up what it needs).
    pub fn has_history(&self) -> bool {
        !matches!(self, Selection::FirstFree | Selection::Rnd(_))
    }
}
