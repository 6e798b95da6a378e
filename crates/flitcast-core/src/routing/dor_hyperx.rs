//! Dimension-order routing on a HyperX (`routing.algorithm = "dor"` there; Ahn et al., SC 2009, the
//! routing section, whose deterministic baseline it is; docs/models/hyperx.md): correct the lowest
//! dimension whose coordinate differs from the destination's, in one hop (a dimension is all-to-all,
//! so one hop aligns it), then the next, …, then eject. Minimal: a packet takes as many hops as its
//! source's router differs from its destination's in coordinates.
//!
//! Parallel links: all K links of the hop are offered, on every virtual channel; the routers take the
//! lowest-numbered one with a free VC (`first_free`, the selection function of `dor`), so a second
//! link carries traffic only while the first is busy.
//!
//! Deadlock freedom on one VC: a packet crosses dimensions in increasing order and takes one hop in
//! each, so every channel dependency leads from a dimension to a higher one and the channel
//! dependency graph is acyclic; the build-time check (`check/routes.rs`) confirms it.

use super::route::Route;
use crate::candidates::{At, Candidate, Candidates};
use crate::packet::Header;
use crate::topology::graph::MAX_RADIX;
use crate::topology::HyperxGeometry;

#[derive(Debug, Clone)]
pub struct DorHyperx {
    pub geo: HyperxGeometry,
    pub vcs: u8,
    /// Every router's coordinates, L bytes each.
    coords: Vec<u8>,
    /// The first port of each dimension.
    base: [u8; MAX_RADIX as usize],
}

/// One hop towards a destination: the dimension it corrects and the ports of its K parallel links.
#[derive(Debug, Clone, Copy)]
pub struct Hop {
    pub dim: usize,
    /// The port of parallel link 0; links 1 … K−1 follow it.
    pub port: u8,
}

impl DorHyperx {
    pub fn new(geo: HyperxGeometry, vcs: u8) -> DorHyperx {
        let mut base = [0; MAX_RADIX as usize];
        for (d, b) in base.iter_mut().enumerate().take(geo.dims as usize) {
            *b = geo.dim_base(d);
        }
        DorHyperx { geo, vcs, coords: geo.coords(), base }
    }

    /// The router terminal `dst` is attached to, and its port there.
    #[inline]
    pub fn home(&self, dst: u32) -> (u32, u8) {
        let t = u32::from(self.geo.terminals);
        (dst / t, (dst % t) as u8)
    }

    /// The router's coordinates.
    #[inline]
    fn of(&self, router: u32) -> &[u8] {
        let l = self.geo.dims as usize;
        &self.coords[router as usize * l..][..l]
    }

    /// Every hop from `router` that aligns one more dimension with `target`'s router, lowest dimension
    /// first (the first is dimension order's).
    #[inline]
    pub fn hops(&self, router: u32, target: u32) -> impl Iterator<Item = Hop> + '_ {
        let (here, there) = (self.of(router), self.of(target));
        (0..self.geo.dims as usize).filter(move |&d| here[d] != there[d]).map(move |d| {
            let s = self.geo.shape[d];
            let offset = (there[d] + s - here[d]) % s;
            Hop { dim: d, port: self.geo.port(self.base[d], offset, 0) }
        })
    }

    /// Pushes the K parallel links of `hop` on virtual channels `lo..hi`.
    #[inline]
    pub fn push_links(&self, hop: Hop, lo: u8, hi: u8, out: &mut Candidates) {
        for j in 0..self.geo.links {
            out.push(Candidate { port: hop.port + j, vc_lo: lo, vc_hi: hi });
        }
    }

    #[inline]
    pub fn route(&self, at: At, dst: u32, out: &mut Candidates) {
        let (target, eject) = self.home(dst);
        match self.hops(at.router, target).next() {
            Some(hop) => self.push_links(hop, 0, self.vcs, out),
            None => out.push(Candidate { port: eject, vc_lo: 0, vc_hi: self.vcs }),
        }
    }
}

impl Route for DorHyperx {
    fn name(&self) -> &'static str {
        "dor_hyperx"
    }

    #[inline]
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates) {
        self.route(at, header.dst(), out)
    }

    fn vcs(&self) -> u8 {
        self.vcs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::hyperx::{Hyperx, Params};
    use crate::topology::Builder;

    #[test]
    fn corrects_the_lowest_unaligned_dimension_on_every_parallel_link() {
        // 3 x 4, K = 2, T = 2: router 0 = (0, 0) to terminal 23 on router 11 = (2, 3), port 1
        let p =
            Params { shape: vec![3, 4], parallel_links: 2, terminals_per_router: 2, dimension_latency_cycles: None };
        let dor = DorHyperx::new(p.geometry(), 2);
        let topo = Hyperx::graph(&p, 1).unwrap();
        let mut out = Candidates::default();
        let at = |router| At { router, in_port: 0, in_vc: 0, hops: 0 };
        dor.route(at(0), 23, &mut out);
        // dimension 0, offset 2: ports 2 + 2 = 4 and 5
        assert_eq!(out.ports(), 0b11 << 4);
        for c in out.as_slice() {
            assert!(matches!(topo.link(0, c.port), crate::topology::PortLink::Router { router: 2, .. }));
        }
        out.clear();
        dor.route(at(2), 23, &mut out);
        // dimension 1, offset 3: ports 6 + 2·2 = 10 and 11, to router 11
        assert_eq!(out.ports(), 0b11 << 10);
        out.clear();
        dor.route(at(11), 23, &mut out);
        assert_eq!(out.as_slice(), &[Candidate { port: 1, vc_lo: 0, vc_hi: 2 }]);
    }
}
