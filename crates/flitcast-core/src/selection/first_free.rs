//! First free: the first candidate in the routing's order of preference, and on it the lowest
//! free virtual channel. Deterministic; used by the deterministic routings.

use crate::routing::Candidates;

#[inline]
pub fn pick(cands: &Candidates, mut free: impl FnMut(u8, u8) -> bool) -> Option<(u8, u8)> {
    for c in cands.as_slice() {
        for vc in c.vc_lo..c.vc_hi {
            if free(c.port, vc) {
                return Some((c.port, vc));
            }
        }
    }
    None
}
