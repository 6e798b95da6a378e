//! Minimal adaptive routing, deadlock-free by escape virtual channels that route by dimension order
//! (Duato, "A New Theory of Deadlock-Free Adaptive Routing in Wormhole Networks", IEEE TPDS 4(12),
//! 1993): the `min_adaptive` kind, on a HyperX (this file's runtime; the HyperX of Ahn et al., SC 2009,
//! docs/models/hyperx.md) and on meshes and tori (`min_adaptive_cube.rs`, docs/models/min_adaptive.md).
//!
//! On a HyperX:
//! At each router a packet may correct any dimension in which its router differs from its
//! destination's, in one hop (each dimension is all-to-all): every such hop is minimal, on any of its
//! K parallel links. The virtual channels are split in two classes:
//!
//! - **adaptive**: VCs `0 … vcs−2`, offered on every minimal hop's every parallel link;
//! - **escape**: VC `vcs−1`, offered only on the hop dimension-order routing takes (the lowest
//!   unaligned dimension, all K links): the escape sub-network routes by DOR (`dor_hyperx.rs`).
//!
//! The DOR hop's links are offered on VCs `0 … vcs−1`, so a router takes an adaptive VC there when
//! one is free (lowest first) and the escape VC only when none is; a packet on the escape VC may go back
//! to adaptive VCs at its next hop (Duato's protocol, not the variant where escape is absorbing). The
//! selection function (`routing.selection`) picks among the ports with a free VC.
//!
//! Deadlock freedom (Duato's theorem): the routing is connected and the escape sub-network's
//! *extended* channel dependency graph — direct dependencies between escape VCs, and indirect ones
//! through adaptive VCs a packet for the same destination takes in between — is acyclic. A packet
//! leaves an escape VC of dimension d with dimensions 0 … d aligned, and minimal hops never unalign a
//! dimension, so its next escape VC is of a higher dimension: every dependency leads upwards. The
//! build-time check (`check/routes.rs`) builds that graph and confirms it; the adaptive VCs' own
//! dependencies may form cycles, and do.
//!
//! The paper's own adaptive routing, DAL (dimensionally-adaptive, load-balanced: at most one
//! non-minimal hop per dimension), is not implemented; docs/models/hyperx.md says how the two differ.

use super::algorithm::{too_few_vcs, unfit, Algorithm, Facts, OneOf};
use super::dor_hyperx::DorHyperx;
use super::min_adaptive_cube::{self, MinAdaptiveCube};
use super::route::Route;
use crate::candidates::{At, Candidate, Candidates};
use crate::error::Error;
use crate::packet::Header;
use crate::params::{params, Kind, Problem};
use crate::selection::SelectionKind;
use crate::topology::{Geometry, HyperxGeometry, Topology};

params! {
    /// Minimal adaptive routing with an escape VC.
    pub struct Params {
        /// Which port among the minimal hops with a free virtual channel a packet takes: `rnd` (at
        /// random, from the router's own stream), `first_free` (lowest port: lowest dimension first),
        /// `lru`, `mru`, `rr`, `lruc`, `lrud` or `lfu` (docs/models/selection.md).
        selection: SelectionKind = SelectionKind::Rnd(Default::default());
    }
}

impl Kind for MinAdaptive {
    const NAME: &'static str = "min_adaptive";
    const DOC: &'static str = "any minimal hop on the adaptive VCs, dimension order on the escape VCs (Duato): \
                               on a hyperx or mesh the last VC, on a torus or ring the last two (dateline classes)";
    type Params = Params;
}

/// The runtime on the network at hand: a HyperX's, a mesh's, torus's or ring's.
pub type OnNetwork = OneOf<MinAdaptive, MinAdaptiveCube>;

impl Algorithm for MinAdaptive {
    type Runtime = OnNetwork;

    fn networks(_: &Params) -> &'static [&'static str] {
        &["mesh", "torus", "ring", "hyperx"]
    }

    fn build(p: &Params, vcs: u8, topo: &Topology) -> Result<OnNetwork, Error> {
        let g = match topo.geometry {
            Geometry::Hyperx(g) => g,
            Geometry::Cube(g) => {
                let most = min_adaptive_cube::candidates(g.n, g.wrap);
                if u32::from(vcs) < min_adaptive_cube::vcs_needed(g.wrap) || most as usize > Candidates::MAX {
                    return Err(Error::Routing {
                        message: format!(
                            "min_adaptive needs {} virtual channels or more here (it has {vcs}) and at most {} \
                             candidates a hop (it would offer {most})",
                            min_adaptive_cube::vcs_needed(g.wrap),
                            Candidates::MAX
                        ),
                    });
                }
                return Ok(OneOf::Second(MinAdaptiveCube::new(g, vcs)));
            }
            _ => return Err(unfit(Self::NAME, Self::networks(p))),
        };
        let most = candidates(g.dims.into(), g.links.into());
        if vcs < 2 || most as usize > Candidates::MAX {
            return Err(Error::Routing {
                message: format!(
                    "min_adaptive needs 2 virtual channels or more (it has {vcs}) and at most {} candidates a hop \
                     (it would offer {most})",
                    Candidates::MAX
                ),
            });
        }
        Ok(OneOf::First(MinAdaptive::new(g, vcs)))
    }

    fn needs(_: &Params) -> &'static str {
        "`switch.vcs >= 2` on a `hyperx` or `mesh` (an escape VC and at least one adaptive VC), `switch.vcs >= 3` on \
         a `torus` or `ring` (two dateline classes of escape VCs and an adaptive one), and at most 8 candidates a hop: on a \
         `hyperx` the dimensions of `network.shape` × `network.parallel_links` ≤ 8, on a `torus` at most 3 \
         dimensions (both ways round and the escape hop)"
    }

    fn unfit(_: &Params, f: &Facts) -> Vec<Problem> {
        let Some(dims) = f.dimensions else { return Vec::new() };
        let torus = f.wraps;
        let need = if torus { min_adaptive_cube::vcs_needed(true) } else { 2 };
        let why = if torus {
            "two dateline classes of escape VCs and an adaptive one"
        } else {
            "an escape VC and an adaptive one"
        };
        let mut out: Vec<Problem> = too_few_vcs(
            f,
            need,
            format!("at least {need} with min_adaptive routing on a {} ({why})", f.network),
            &format!("with min_adaptive routing (it needs {need} virtual channels: {why})"),
        )
        .into_iter()
        .collect();
        if f.network != "hyperx" {
            let most = min_adaptive_cube::candidates(dims, torus);
            if most as usize > Candidates::MAX {
                let max =
                    (1..=dims).rev().find(|&n| min_adaptive_cube::candidates(n, torus) as usize <= Candidates::MAX);
                let allowed = format!(
                    "at most {} dimensions with min_adaptive on a {} (a hop would offer {most} candidates, at most {})",
                    max.unwrap_or(0),
                    f.network,
                    Candidates::MAX
                );
                out.push(Problem::new("network.n", dims.to_string(), allowed, None));
            }
            return out;
        }
        let links = f.parallel_links;
        if candidates(dims, links) as usize > Candidates::MAX {
            out.push(Problem::new(
                "network.parallel_links",
                links.to_string(),
                format!(
                    "at most {} with min_adaptive on {dims} dimensions (a hop offers dimensions × parallel links ≤ {} \
                     candidates)",
                    Candidates::MAX / dims.max(1) as usize,
                    Candidates::MAX
                ),
                None,
            ));
        }
        out
    }

    fn adaptive(_: &Params) -> bool {
        true
    }
    fn selection(p: &Params) -> SelectionKind {
        p.selection.clone()
    }
}

/// Most candidates a hop offers: L·K (every parallel link of every unaligned dimension).
pub fn candidates(dims: u32, links: u32) -> u32 {
    dims * links
}

#[derive(Debug, Clone)]
pub struct MinAdaptive {
    dor: DorHyperx,
}

impl MinAdaptive {
    /// On `geo` with `vcs` ≥ 2 virtual channels and at most `Candidates::MAX` candidates a hop (the
    /// scenario rules refuse other setups).
    pub fn new(geo: HyperxGeometry, vcs: u8) -> MinAdaptive {
        MinAdaptive { dor: DorHyperx::new(geo, vcs) }
    }

    pub fn vcs(&self) -> u8 {
        self.dor.vcs
    }

    /// The escape class: the last VC.
    pub fn escape_vcs(&self) -> (u8, u8) {
        (self.dor.vcs - 1, self.dor.vcs)
    }

    #[inline]
    pub fn route(&self, at: At, dst: u32, out: &mut Candidates) {
        let (target, eject) = self.dor.home(dst);
        let vcs = self.dor.vcs;
        let mut hops = self.dor.hops(at.router, target);
        match hops.next() {
            // the dimension-order hop, with the escape VC last
            Some(first) => self.dor.push_links(first, 0, vcs, out),
            None => return out.push(Candidate { port: eject, vc_lo: 0, vc_hi: vcs }),
        }
        for hop in hops {
            self.dor.push_links(hop, 0, vcs - 1, out);
        }
    }
}

impl Route for MinAdaptive {
    fn name(&self) -> &'static str {
        "min_adaptive"
    }

    #[inline]
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates) {
        self.route(at, header.dst(), out)
    }

    fn vcs(&self) -> u8 {
        self.vcs()
    }

    fn escape_vcs(&self) -> Option<(u8, u8)> {
        Some(self.escape_vcs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::hyperx::Params as Shape;

    #[test]
    fn offers_every_minimal_hop_and_the_escape_vc_on_the_dor_hop_only() {
        // 3 x 4 x 2, K = 2, T = 1, 3 VCs: router 0 = (0,0,0) to terminal 23 = (2,3,1)
        let geo =
            Shape { shape: vec![3, 4, 2], parallel_links: 2, terminals_per_router: 1, dimension_latency_cycles: None }
                .geometry();
        let r = MinAdaptive::new(geo, 3);
        let mut out = Candidates::default();
        r.route(At { router: 0, in_port: 0, in_vc: 0, hops: 0 }, 23, &mut out);
        // dimension 0 (ports 1..5), offset 2: 3, 4 with the escape VC; dimension 1 (ports 5..11),
        // offset 3: 9, 10; dimension 2 (ports 11, 12), offset 1: 11, 12
        let c = |port, hi| Candidate { port, vc_lo: 0, vc_hi: hi };
        assert_eq!(out.as_slice(), &[c(3, 3), c(4, 3), c(9, 2), c(10, 2), c(11, 2), c(12, 2)]);
        assert_eq!(r.escape_vcs(), (2, 3));
        out.clear();
        r.route(At { router: 23, in_port: 9, in_vc: 2, hops: 3 }, 23, &mut out);
        assert_eq!(out.as_slice(), &[c(0, 3)]);
    }
}
