//! First free: the first candidate in the routing's order of preference, and on it the lowest
//! free virtual channel. Deterministic; used by the deterministic routings.

use super::function::{Function, Request, Site};
use crate::candidates::Candidates;
use crate::params::{Kind, NoParams};

#[derive(Debug, Clone)]
pub struct FirstFree;

impl Kind for FirstFree {
    const NAME: &'static str = "first_free";
    const DOC: &'static str = "first candidate in routing order, lowest free VC";
    type Params = NoParams;
}

impl Function for FirstFree {
    fn new(_: &NoParams, _: Site) -> Self {
        FirstFree
    }

    fn pick(&mut self, _: Request, granted: u64) -> u8 {
        granted.trailing_zeros() as u8
    }

    fn has_history(_: &NoParams) -> bool {
        false
    }

    #[inline]
    fn choose(&mut self, _: Request, cands: &Candidates, mut free: impl FnMut(u8, u8) -> bool) -> Option<(u8, u8)> {
        for c in cands.as_slice() {
            for vc in c.vc_lo..c.vc_hi {
                if free(c.port, vc) {
                    return Some((c.port, vc));
                }
            }
        }
        None
    }
}
