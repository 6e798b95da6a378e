//! Selection: which of the routing's candidates a packet takes among those that are free now.
//! One function per file; the adaptive functions of study 002 §4.3 (LRU, MRU, RND, RR, LRUC,
//! LRUD) arrive as further variants with per-router state.

pub mod first_free;

use crate::routing::Candidates;

#[derive(Debug, Clone)]
pub enum Selection {
    FirstFree,
}

impl Selection {
    /// Picks (port, vc) among `cands` for which `free(port, vc)` holds.
    #[inline]
    pub fn pick(&mut self, cands: &Candidates, free: impl FnMut(u8, u8) -> bool) -> Option<(u8, u8)> {
        match self {
            Selection::FirstFree => first_free::pick(cands, free),
        }
    }
}
