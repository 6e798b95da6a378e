//! Dimension-order (XY…) routing on a k-ary n-mesh: correct dimension 0 first, then 1, …, then
//! eject. Deterministic and minimal; any virtual channel may be used (a mesh with DOR has an
//! acyclic channel dependency graph without VC classes).
//!
//! Multicast (study 003 §3.3.2): a copy at a router fans out to the union of the ports its source's
//! unicasts to each destination leave that router by — the multicast forwarding table the union
//! operation builds for the (source, group), computed where the copy is (`fan_out`; the subnet
//! manager's tables in `check/subnet/` give the same entries). The dimension-order paths from one source
//! form a tree, so each destination gets one copy.

use super::algorithm::{too_few_vcs, unfit, variant_streams, Algorithm, Facts, OneOf};
use super::dor_dateline::{DorDateline, TorusTies};
use super::dor_hyperx::DorHyperx;
use super::route::Route;
use crate::candidates::Step;
use crate::candidates::{At, Candidate, Candidates};
use crate::dest_set::DestSets;
use crate::error::Error;
use crate::packet::Header;
use crate::params::{choice, params, Kind, Problem};
use crate::sizing::{Part, Sizing};
use crate::topology::Topology;
use crate::topology::{Coords, CubeGeometry, Geometry};

choice! {
    /// How dimension-order routing on a 2-D mesh uses the virtual channels (lanes) of an output.
    pub enum LaneMap {
        /// Any lane of any output ("NESW: VL0, VL1[, VL2, VL3]", the SL-to-VL mapping configurations).
        Any = "any",
        /// One lane per output direction ("NE: VL0; SW: VL1" with 2 lanes; "N: VL0; E: VL1; S: VL2; W:
        /// VL3" with 4); packets are injected on lane 0.
        ByPort = "by_port",
        /// As `by_port` between switches, but a host injects on any lane: the legends name only the
        /// mesh's directions, and a host link's lane comes from its own SL-to-VL table (study 003 Fig. 8;
        /// docs/models/infiniband.md).
        ByPortHostAny = "by_port_host_any",
    }
}

params! {
    /// Dimension-order routing.
    pub struct Params {
        /// On a 2-D mesh: which virtual channels (lanes) a packet may take on an output (study 003 Fig.
        /// 8). `any`: every lane ("NESW: VL0, VL1[, VL2, VL3]"); `by_port`: one lane per direction, with
        /// 2 lanes north and east lane 0, south and west lane 1, with 4 north 0, east 1, south 2, west 3
        /// (needs switch.vcs = 1, 2 or 4); packets are then injected on lane 0; `by_port_host_any`: as
        /// `by_port`, but hosts inject on any lane.
        lanes: LaneMap = LaneMap::Any;
        /// On a bidirectional torus or ring with k even: which way a packet goes at distance exactly
        /// k/2, where both ways are minimal. `balanced`: + or − with probability 1/2 per packet (both
        /// directions of a ring carry equal load, the textbook reading); `positive`: always + (flitcast's
        /// rule before balanced ties, kept to reproduce older results).
        torus_ties: TorusTies = TorusTies::Balanced;
    }
}

impl Kind for Dor {
    const NAME: &'static str = "dor";
    const DOC: &'static str =
        "dimension-order routing; on tori and rings with dateline VC classes (needs switch.vcs >= 2)";
    type Params = Params;
}

impl Algorithm for Dor {
    type Runtime = OnNetwork;

    fn by_table(_: &Params) -> bool {
        true
    }

    fn networks(_: &Params) -> &'static [&'static str] {
        &["mesh", "torus", "ring", "hyperx"]
    }

    /// A mesh's `Dor`, a torus's or ring's `DorDateline` (dateline classes), a HyperX's `DorHyperx`.
    fn build(p: &Params, vcs: u8, topo: &Topology) -> Result<OnNetwork, Error> {
        match topo.geometry {
            Geometry::Cube(g) if !g.wrap => Ok(OneOf::First(Dor::new(g, vcs, p.lanes))),
            Geometry::Cube(g) => Ok(OneOf::Second(OneOf::First(DorDateline::new(g, vcs, p.torus_ties)))),
            Geometry::Hyperx(g) => Ok(OneOf::Second(OneOf::Second(DorHyperx::new(g, vcs)))),
            _ => Err(unfit(Self::NAME, Self::networks(p))),
        }
    }

    /// Balanced torus ties draw each packet's way from its source's stream.
    fn bytes(p: &Params, n: &Sizing) -> Vec<Part> {
        match p.torus_ties {
            TorusTies::Balanced => vec![variant_streams(n)],
            TorusTies::Positive => Vec::new(),
        }
    }

    fn needs(_: &Params) -> &'static str {
        "on a `torus` or `ring` with `routing.check_deadlock_free = true`, `switch.vcs >= 2` (two dateline classes); \
         `routing.lanes = \"by_port\"` (or `\"by_port_host_any\"`) only on a 2-D `mesh` with `switch.vcs` = 2 or 4 (one \
         lane per direction; with `switch.vcs = 1` there is one lane, and the key has no effect)"
    }

    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let mut out = Vec::new();
        if f.wraps && f.check_deadlock_free {
            out.extend(too_few_vcs(
                f,
                2,
                "at least 2 for dimension-order routing on a torus or ring (two dateline classes); set \
                 routing.check_deadlock_free = false to simulate a deadlock-prone single-VC torus"
                    .into(),
                "on a torus or ring: dimension-order routing there needs two virtual channels (dateline classes)",
            ));
        }
        if p.lanes != LaneMap::Any && !(f.network == "mesh" && f.dimensions == Some(2) && [1, 2, 4].contains(&f.vcs)) {
            out.push(Problem::new(
                "routing.lanes",
                format!("'{}'", p.lanes.name()),
                "'any', unless dimension-order routing on a 2-D mesh with switch.vcs = 2 or 4 (one lane per direction; \
                 with switch.vcs = 1 there is one lane, and the key has no effect)",
                None,
            ));
        }
        out
    }
}

/// Dimension-order routing as its network needs it: a mesh's, a torus's or ring's, a HyperX's.
pub type OnNetwork = OneOf<Dor, OneOf<DorDateline, DorHyperx>>;

#[derive(Debug, Clone)]
pub struct Dor {
    pub geo: CubeGeometry,
    pub vcs: u8,
    coords: Coords,
    /// Lanes each output port allows, `lo..hi` (study 003 Fig. 8).
    lanes: Vec<(u8, u8)>,
    /// Lanes a host may inject on, `lo..hi`.
    pub injection: (u8, u8),
}

impl Dor {
    pub fn new(geo: CubeGeometry, vcs: u8, map: LaneMap) -> Dor {
        let ports = geo.terminal_port() as u32 + 1;
        let lanes = (0..ports as u8)
            .map(|p| match map {
                LaneMap::ByPort | LaneMap::ByPortHostAny if p != geo.terminal_port() => {
                    let lane = by_port(p, vcs);
                    (lane, lane + 1)
                }
                _ => (0, vcs),
            })
            .collect();
        let injection = if map == LaneMap::ByPort { (0, 1) } else { (0, vcs) };
        Dor { geo, vcs, coords: geo.coords(), lanes, injection }
    }

    /// The lanes output `port` allows.
    #[inline]
    pub fn lanes(&self, port: u8) -> (u8, u8) {
        self.lanes[port as usize]
    }

    #[inline]
    pub fn route(&self, at: At, dst: u32, out: &mut Candidates) {
        let g = &self.geo;
        let (here, there) = (self.coords.of(at.router), self.coords.of(dst));
        for d in 0..g.n {
            let (c, t) = (here[d as usize] as u32, there[d as usize] as u32);
            if c != t {
                let port = g.port(d, t > c);
                let (vc_lo, vc_hi) = self.lanes(port);
                out.push(Candidate { port, vc_lo, vc_hi });
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

/// The dedicated lane of a 2-D mesh output (ports: 0 east, 1 west, 2 north, 3 south), study 003
/// Fig. 8: with 2 lanes north and east take lane 0, south and west lane 1 ("NE: VL0; SW: VL1"); with 4
/// lanes, "N: VL0; E: VL1; S: VL2; W: VL3" (the figures' legend; §3.2's text orders them E, N, W, S,
/// which performs the same). With one lane, lane 0.
fn by_port(port: u8, vcs: u8) -> u8 {
    match vcs {
        2 => [0, 1, 0, 1][port as usize],
        4 => [1, 3, 0, 2][port as usize],
        _ => 0,
    }
}

impl Route for Dor {
    fn name(&self) -> &'static str {
        "dor"
    }

    #[inline]
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates) {
        self.route(at, header.dst(), out)
    }

    fn vcs(&self) -> u8 {
        self.vcs
    }

    fn injection_vcs(&self, _header: &Header) -> (u8, u8) {
        self.injection
    }

    fn fan_out_vcs(&self, port: u8) -> (u8, u8) {
        self.lanes(port)
    }

    /// On a mesh, a multicast copy fans out by the union of the source's dimension-order paths, as it
    /// is (study 003 §3.3.2).
    fn add_multicast(&mut self, _topo: &Topology) -> Result<(), Error> {
        Ok(())
    }

    fn replicates(&self) -> bool {
        true
    }

    fn step_multicast(
        &self,
        _: &Topology,
        at: At,
        header: &Header,
        set: u32,
        sets: &DestSets,
        _: &mut Candidates,
    ) -> Step {
        Step::FanOut(self.fan_out(at.router, header.src, sets.members(set)))
    }
}
