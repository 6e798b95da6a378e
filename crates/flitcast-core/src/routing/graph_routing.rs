//! Minimal and Valiant routing on a network routed from its own distances (the Slim Fly, Besta & Hoefler,
//! SC 2014, §4; Valiant & Brebner, STOC 1981): the `minimal` and `valiant` kinds' runtime off a
//! dragonfly; docs/models/slim_fly.md.
//!
//! - **minimal**: every hop to a neighbour one hop closer to the destination's router is a candidate, in
//!   port order (a router takes the first with a free VC: among a Slim Fly's several two-hop paths, the
//!   one whose channel is free).
//! - **valiant**: minimal to an intermediate router drawn per packet, uniformly among the routers other
//!   than its source's and destination's, then minimal to the destination. The packet is in its first
//!   phase while it has made fewer hops than its source router's distance to the intermediate one.
//!
//! Deadlock freedom: the virtual channels split evenly into one class per hop (a packet's i-th
//! router-to-router hop takes class i), as many classes as the longest route has hops — the diameter
//! under minimal routing, twice it under Valiant. Hops only go up in class, so no channel dependency
//! closes a cycle (the build-time check, `check/routes.rs`, confirms it).

use super::algorithm::{other_than, too_few_vcs, Facts, OneOf};
use super::dragonfly::{on_dragonfly, too_few_classes, DragonflyRouting, Mode};
use super::route::Route;
use crate::candidates::{At, Candidate, Candidates};
use crate::error::Error;
use crate::packet::Header;
use crate::params::Problem;
use crate::topology::{distances, Geometry, PortLink, Topology};

/// What `minimal` and `valiant` build: the dragonfly's own routing, or this one on a network routed from
/// its distances.
pub type OnNetwork = OneOf<DragonflyRouting, GraphRouting>;

/// The networks `minimal` and `valiant` run on.
pub const NETWORKS: &[&str] = &["dragonfly", "slim_fly"];

/// `minimal` or `valiant` (`mode`) on `topo`: the dragonfly's routing, or this one on a Slim Fly.
pub fn build(name: &str, topo: &Topology, vcs: u8, mode: Mode) -> Result<OnNetwork, Error> {
    match topo.geometry {
        Geometry::Graph => GraphRouting::new(topo, vcs, mode != Mode::Minimal, name).map(OneOf::Second),
        _ => on_dragonfly(name, topo, vcs, mode).map(OneOf::First),
    }
}

#[derive(Debug, Clone)]
pub struct GraphRouting {
    valiant: bool,
    routers: u32,
    /// Router-to-router hops, `routers`² entries.
    hops: Vec<u8>,
    /// Each router's neighbours, with the port that leads to each.
    neighbours: Vec<Vec<(u8, u32)>>,
    /// Each terminal's router and port.
    at: Vec<(u32, u8)>,
    vcs: u8,
    classes: u8,
}

/// `minimal` or `valiant` (`valiant`) with fewer VCs than hop classes where `f` holds: a dragonfly's
/// two or three, one per hop of the longest route on a network of known diameter.
pub fn too_few(name: &str, valiant: bool, f: &Facts) -> Option<Problem> {
    if f.network == "dragonfly" {
        return too_few_classes(name, if valiant { 3 } else { 2 }, f);
    }
    if let Some(routers) = f.known_routers.filter(|&r| valiant && r > 255) {
        let allowed = format!(
            "a network of at most 255 routers for {name} (its intermediate router travels in the packet's 8-bit \
             route variant; a Slim Fly's q at most 11)"
        );
        return Some(Problem::new("network.topology", format!("'{}' of {routers} routers", f.network), allowed, None));
    }
    let n = classes(valiant, f.diameter?);
    let why = "one virtual-channel class per hop of its longest route";
    too_few_vcs(f, n, format!("at least {n} for {name} on a {} ({why})", f.network), &format!("for {name} ({why})"))
}

/// The hop classes (and so the fewest VCs) a routing needs on a network of diameter `diameter`.
pub fn classes(valiant: bool, diameter: u32) -> u32 {
    if valiant {
        2 * diameter
    } else {
        diameter
    }
}

impl GraphRouting {
    /// Minimal or `valiant` routing on `topo` (connected) with `vcs` virtual channels, at least one per
    /// hop class; Valiant's intermediate router travels in the packet's 8-bit route variant, so at most
    /// 255 routers.
    pub fn new(topo: &Topology, vcs: u8, valiant: bool, name: &str) -> Result<GraphRouting, Error> {
        let routers = topo.routers() as u32;
        let mut hops = vec![0u8; (routers * routers) as usize];
        for r in 0..routers {
            for (s, d) in distances::from_router(topo, r).into_iter().enumerate() {
                let d = d.ok_or_else(|| Error::Routing { message: format!("{name}: the network is not connected") })?;
                hops[(r * routers) as usize + s] = d.hops.min(255) as u8;
            }
        }
        let neighbours = (0..routers)
            .map(|r| {
                (0..topo.radix(r) as u8)
                    .filter_map(|p| match topo.link(r, p) {
                        PortLink::Router { router, .. } => Some((p, router)),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let diameter = hops.iter().copied().max().unwrap_or(0) as u32;
        let classes = classes(valiant, diameter).max(1);
        if u32::from(vcs) < classes {
            return Err(Error::config(
                "switch.vcs",
                vcs,
                format!("at least {classes} for {name} here (one virtual-channel class per hop of its longest route)"),
            ));
        }
        if valiant && routers > 255 {
            return Err(Error::config(
                "network.topology",
                format!("a network of {routers} routers"),
                format!("at most 255 routers for {name} (its intermediate router travels in the packet's 8-bit route variant)"),
            ));
        }
        Ok(GraphRouting {
            valiant,
            routers,
            hops,
            neighbours,
            at: topo.terminal_at.clone(),
            vcs,
            classes: classes as u8,
        })
    }

    fn hops(&self, a: u32, b: u32) -> u32 {
        self.hops[(a * self.routers + b) as usize] as u32
    }

    /// The VCs of hop class `class`: the VCs split evenly, the last class taking what is left.
    fn class_vcs(&self, class: u8) -> (u8, u8) {
        let per = self.vcs / self.classes;
        let lo = class.min(self.classes - 1) * per;
        (lo, if class + 1 >= self.classes { self.vcs } else { lo + per })
    }

    /// Valiant's intermediate router for a packet from terminal `src` to `dst`, from a uniform 32-bit
    /// `draw`: among the routers other than their two (their own router where the two are one).
    pub fn intermediate(&self, src: u32, dst: u32, draw: u32) -> u8 {
        let (s, d) = (self.at[src as usize].0, self.at[dst as usize].0);
        if s == d || self.routers < 3 {
            return d as u8;
        }
        other_than(draw, self.routers, s, d) as u8
    }

    #[inline]
    pub fn route(&self, at: At, header: &Header, out: &mut Candidates) {
        let (dst_router, eject) = self.at[header.dst() as usize];
        let target = if self.valiant {
            let (src, mid) = (self.at[header.src as usize].0, header.variant as u32);
            if (at.hops as u32) < self.hops(src, mid) {
                mid
            } else {
                dst_router
            }
        } else {
            dst_router
        };
        if at.router == target {
            return out.push(Candidate { port: eject, vc_lo: 0, vc_hi: self.vcs });
        }
        let (lo, hi) = self.class_vcs(at.hops.min(u8::MAX as u16) as u8);
        let closer = self.hops(at.router, target) - 1;
        for &(port, next) in &self.neighbours[at.router as usize] {
            if self.hops(next, target) == closer && out.as_slice().len() < Candidates::MAX {
                out.push(Candidate { port, vc_lo: lo, vc_hi: hi });
            }
        }
    }
}

impl Route for GraphRouting {
    fn name(&self) -> &'static str {
        if self.valiant {
            "valiant"
        } else {
            "minimal"
        }
    }

    #[inline]
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates) {
        self.route(at, header, out)
    }

    fn vcs(&self) -> u8 {
        self.vcs
    }

    fn variants(&self) -> u8 {
        if self.valiant {
            self.routers as u8
        } else {
            1
        }
    }

    fn draws_intermediate(&self) -> bool {
        self.valiant
    }

    fn intermediate(&self, src: u32, dst: u32, draw: u32) -> u8 {
        self.intermediate(src, dst, draw)
    }

    /// Valiant's route depends on its source's router (its first phase's length): the check walks one
    /// source per router, every intermediate router.
    fn is_source_routed(&self) -> bool {
        self.valiant
    }

    fn source_class(&self, src: u32) -> u32 {
        self.at[src as usize].0
    }

    /// It routes by the destination's router and ejection port alone: the check walks the first
    /// terminal of each router.
    fn checks_destination(&self, dst: u32) -> bool {
        dst == 0 || self.at[dst as usize - 1].0 != self.at[dst as usize].0
    }
}
