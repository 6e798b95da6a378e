//! Minimal adaptive routing on meshes and tori, deadlock-free by escape virtual channels that route by
//! dimension order (Duato, "A New Theory of Deadlock-Free Adaptive Routing in Wormhole Networks", IEEE
//! TPDS 4(12), 1993): the `min_adaptive` kind's runtime there (`min_adaptive.rs`; on a HyperX it is
//! `MinAdaptive` itself). docs/models/min_adaptive.md argues the choices below.
//!
//! At each router a packet may take a hop in any dimension in which its router differs from its
//! destination's, in a direction that shortens the way: on a mesh towards the destination, on a torus
//! the shorter way round (both ways at distance exactly k/2 of a bidirectional torus; always + on a
//! unidirectional one). The virtual channels split in two classes:
//!
//! - **adaptive**: VCs `0 … a−1`, offered on every minimal hop;
//! - **escape**: the last VC on a mesh (a = vcs − 1), the last two on a torus (a = vcs − 2): the hop
//!   dimension-order routing takes (the lowest unaligned dimension), on a torus in one of two dateline
//!   classes.
//!
//! On a torus the escape class is the packet's place, not its history: class 0 while the rest of its
//! way in this dimension still crosses the dateline (the wrap-around link), class 1 once it does not.
//! A packet that travelled part of a ring on adaptive VCs takes the class its position gives; along any
//! ring a packet's escape hops go class 0 up to the dateline and class 1 after it, so every escape
//! dependency, direct or through adaptive hops in between, leads forwards (Duato's extended channel
//! dependency graph is acyclic: the build-time check, `check/routes.rs`, builds it and confirms it).
//! A tie (k even, distance exactly k/2) goes the way the packet's route variant says on its escape hop,
//! as `dor` does under balanced ties.
//!
//! The escape hop is offered last, after every adaptive one, so a router takes it only where no adaptive
//! VC is free at that port (a packet on an escape VC may go back to adaptive VCs at its next hop).

use super::route::Route;
use crate::candidates::{At, Candidate, Candidates};
use crate::packet::Header;
use crate::topology::{Coords, CubeGeometry};

#[derive(Debug, Clone)]
pub struct MinAdaptiveCube {
    geo: CubeGeometry,
    coords: Coords,
    vcs: u8,
    /// Ties on a bidirectional torus of even k: two route variants, one per way round.
    ties: bool,
}

/// Most candidates a hop offers on a mesh or torus of `dims` dimensions: one way per dimension on a mesh
/// (the escape VC rides on the dimension-order hop's range), both ways on a torus plus its escape hop.
pub fn candidates(dims: u32, torus: bool) -> u32 {
    if torus {
        2 * dims + 1
    } else {
        dims
    }
}

/// The VCs a `min_adaptive` routing needs on a mesh (an escape VC and an adaptive one) or a torus (two
/// dateline classes of escape VCs and an adaptive one).
pub fn vcs_needed(torus: bool) -> u32 {
    if torus {
        3
    } else {
        2
    }
}

impl MinAdaptiveCube {
    /// On `geo` with at least [`vcs_needed`] virtual channels (the scenario rules refuse fewer).
    pub fn new(geo: CubeGeometry, vcs: u8) -> MinAdaptiveCube {
        let ties = geo.wrap && !geo.unidirectional && geo.k.is_multiple_of(2);
        MinAdaptiveCube { geo, coords: geo.coords(), vcs, ties }
    }

    /// The escape VCs: the last on a mesh, the last two (dateline classes 0 and 1) on a torus.
    pub fn escape_vcs(&self) -> (u8, u8) {
        (self.vcs - if self.geo.wrap { 2 } else { 1 }, self.vcs)
    }

    #[inline]
    pub fn route(&self, at: At, dst: u32, variant: u8, out: &mut Candidates) {
        let g = &self.geo;
        let (here, there) = (self.coords.of(at.router), self.coords.of(dst));
        let (escape_lo, _) = self.escape_vcs();
        // (the dimension-order hop: port and escape VC)
        let mut escape: Option<(u8, u8)> = None;
        for d in 0..g.n {
            let (c, t) = (here[d as usize] as u32, there[d as usize] as u32);
            if c == t {
                continue;
            }
            let (plus, minus, dor_plus) = if g.wrap {
                let forward = (t + g.k - c) % g.k;
                let backward = g.k - forward;
                let plus = g.unidirectional || forward <= backward;
                let minus = !g.unidirectional && backward <= forward;
                (plus, minus, plus && !(minus && variant == 1))
            } else {
                (t > c, t < c, t > c)
            };
            let dor = escape.is_none();
            if dor {
                let class = if g.wrap {
                    // (class 0 while the rest of the way round still crosses the wrap-around link)
                    let crosses = if dor_plus { t < c } else { t > c };
                    u8::from(!crosses)
                } else {
                    0
                };
                escape = Some((g.port(d, dor_plus), escape_lo + class));
            }
            for (way, on) in [(true, plus), (false, minus)] {
                // (on a mesh the escape VC follows the dimension-order hop's adaptive ones)
                let hi = if dor && way == dor_plus && !g.wrap { self.vcs } else { escape_lo };
                if on {
                    out.push(Candidate { port: g.port(d, way), vc_lo: 0, vc_hi: hi });
                }
            }
        }
        match escape {
            None => out.push(Candidate { port: g.terminal_port(), vc_lo: 0, vc_hi: self.vcs }),
            Some((port, vc)) if g.wrap => out.push(Candidate { port, vc_lo: vc, vc_hi: vc + 1 }),
            Some(_) => {}
        }
    }
}

impl Route for MinAdaptiveCube {
    fn name(&self) -> &'static str {
        "min_adaptive"
    }

    #[inline]
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates) {
        self.route(at, header.dst(), header.variant, out)
    }

    fn vcs(&self) -> u8 {
        self.vcs
    }

    fn escape_vcs(&self) -> Option<(u8, u8)> {
        Some(self.escape_vcs())
    }

    fn variants(&self) -> u8 {
        1 + u8::from(self.ties)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::CubeGeometry;

    fn at(router: u32) -> At {
        At { router, in_port: 0, in_vc: 0, hops: 0 }
    }
    fn c(port: u8, vc_lo: u8, vc_hi: u8) -> Candidate {
        Candidate { port, vc_lo, vc_hi }
    }

    #[test]
    fn on_a_mesh_every_minimal_hop_is_adaptive_and_the_dimension_order_hop_ends_in_the_escape_vc() {
        // 4 x 4 mesh, 3 VCs: router 0 = (0,0) to terminal 15 = (3,3): +x (port 0) and +y (port 2)
        let r = MinAdaptiveCube::new(CubeGeometry { k: 4, n: 2, wrap: false, unidirectional: false }, 3);
        let mut out = Candidates::default();
        r.route(at(0), 15, 0, &mut out);
        assert_eq!(out.as_slice(), &[c(0, 0, 3), c(2, 0, 2)]);
        assert_eq!(r.escape_vcs(), (2, 3));
        out.clear();
        r.route(at(15), 15, 0, &mut out);
        assert_eq!(out.as_slice(), &[c(4, 0, 3)]);
    }

    #[test]
    fn on_a_torus_the_escape_class_is_where_the_packet_stands_against_the_dateline() {
        // 8-ary 1-torus (a ring as a torus), 3 VCs: escape VCs 1 (class 0) and 2 (class 1)
        let r = MinAdaptiveCube::new(CubeGeometry { k: 8, n: 1, wrap: true, unidirectional: false }, 3);
        let mut out = Candidates::default();
        // 6 → 1 goes + across the wrap: class 0; 1 → 3 goes + without it: class 1
        r.route(at(6), 1, 0, &mut out);
        assert_eq!(out.as_slice(), &[c(0, 0, 1), c(0, 1, 2)]);
        out.clear();
        r.route(at(1), 3, 0, &mut out);
        assert_eq!(out.as_slice(), &[c(0, 0, 1), c(0, 2, 3)]);
        // a tie (distance 4): both ways adaptive, the escape hop the way the variant says (−, across
        // the wrap-around link 0 → 7: class 0)
        out.clear();
        r.route(at(0), 4, 1, &mut out);
        assert_eq!(out.as_slice(), &[c(0, 0, 1), c(1, 0, 1), c(1, 1, 2)]);
        assert_eq!(r.variants(), 2);
    }
}
