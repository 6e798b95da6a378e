//! Dimension-order (XY…) routing on a k-ary n-mesh: correct dimension 0 first, then 1, …, then
//! eject. Deterministic and minimal; any virtual channel may be used (a mesh with DOR has an
//! acyclic channel dependency graph without VC classes).

use super::{At, Candidate, Candidates};
use crate::topology::{Coords, CubeGeometry};

#[derive(Debug, Clone)]
pub struct Dor {
    pub geo: CubeGeometry,
    pub vcs: u8,
    coords: Coords,
}

impl Dor {
    pub fn new(geo: CubeGeometry, vcs: u8) -> Dor {
        Dor { geo, vcs, coords: geo.coords() }
    }

    #[inline]
    pub fn route(&self, at: At, dst: u32, out: &mut Candidates) {
        let g = &self.geo;
        let (here, there) = (self.coords.of(at.router), self.coords.of(dst));
        for d in 0..g.n {
            let (c, t) = (here[d as usize] as u32, there[d as usize] as u32);
            if c != t {
                out.push(Candidate { port: g.port(d, t > c), vc_lo: 0, vc_hi: self.vcs });
                return;
            }
        }
        out.push(Candidate { port: g.terminal_port(), vc_lo: 0, vc_hi: self.vcs });
    }
}
