//! Dimension-order (XY…) routing on a k-ary n-mesh: correct dimension 0 first, then 1, …, then
//! eject. Deterministic and minimal; any virtual channel may be used (a mesh with DOR has an
//! acyclic channel dependency graph without VC classes).
//!
//! Multicast (study 003 §3.3.2): a copy at a router fans out to the union of the ports its source's
//! unicasts to each destination leave that router by — the multicast forwarding table the union
//! operation builds for the (source, group), computed where the copy is (`fan_out`; the subnet
//! manager's tables in `subnet/` give the same entries). The dimension-order paths from one source
//! form a tree, so each destination gets one copy.

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

    /// The port the dimension-order path to `dst` leaves `router` by (the terminal port at `dst`).
    #[inline]
    fn port_to(&self, router: u32, dst: u32) -> u8 {
        let (here, there) = (self.coords.of(router), self.coords.of(dst));
        match (0..self.geo.n as usize).find(|&d| here[d] != there[d]) {
            Some(d) => self.geo.port(d as u32, there[d] > here[d]),
            None => self.geo.terminal_port(),
        }
    }

    /// Whether the dimension-order path from `src` to `dst` passes `router`: for some dimension j,
    /// `router` agrees with `dst` below j, with `src` above j, and lies between them in j.
    #[inline]
    fn on_path(&self, router: u32, src: u32, dst: u32) -> bool {
        let (r, s, d) = (self.coords.of(router), self.coords.of(src), self.coords.of(dst));
        (0..r.len())
            .any(|j| r[..j] == d[..j] && r[j + 1..] == s[j + 1..] && r[j] >= s[j].min(d[j]) && r[j] <= s[j].max(d[j]))
    }

    /// The ports a multicast copy from `src` to `dests` leaves `router` by: the union, over the
    /// destinations whose path from `src` passes `router`, of the port that path leaves it by.
    pub fn fan_out(&self, router: u32, src: u32, dests: impl Iterator<Item = u32>) -> u64 {
        dests.filter(|&d| self.on_path(router, src, d)).fold(0, |mask, d| mask | 1 << self.port_to(router, d))
    }
}
