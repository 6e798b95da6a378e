//! Routing on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4): `minimal`, `valiant` and `ugal_l`
//! (the kinds, `minimal.rs`, `valiant.rs`, `ugal_l.rs`; this file routes all three). docs/models/dragonfly.md.
//!
//! - **Minimal**: at most a local hop to the router of the source group that holds the global channel to
//!   the destination's group, the global hop, and a local hop to the destination's router.
//! - **Valiant**: minimal to an intermediate group, then minimal to the destination. A packet between
//!   two groups draws its intermediate group uniformly among the g − 2 others, neither its source's nor
//!   its destination's group; a packet within one group, or on a network of two groups, routes
//!   minimally (our reading: the paper names a random intermediate group; BookSim 2 draws a node and
//!   routes minimally when it falls in the source group).
//! - **UGAL-L**: at the source router, minimal or Valiant, whichever has the smaller queue times hops:
//!   minimal when q_min · H_min ≤ q_nm · H_nm + `routing.ugal_threshold`, where q is the occupancy of the
//!   candidate's first output (the flits held in the next router's buffers of that channel, all VCs, as
//!   this router's credits count them: BookSim 2's `GetUsedCredit`) and H the router-to-router hops of
//!   the whole path from here.
//!
//! **VC classes** (a class per hop class, as in the paper §4 and BookSim 2's dragonfly; the VCs are
//! split evenly, class c = `c·V/C .. (c+1)·V/C` of C classes):
//!
//! | hop | minimal (C = 2) | valiant, ugal_l (C = 3) |
//! |---|---|---|
//! | local, source group, toward the intermediate group | — | 0 |
//! | global, into the intermediate group | — | 1 |
//! | local, in the intermediate group | — | 1 |
//! | local, source group, toward the destination's group | 0 | 1 |
//! | global, into the destination's group | 1 | 2 |
//! | local, in the destination's group | 1 | 2 |
//!
//! Every route takes at most one channel of each kind and class, in the order local 0 < global 1 <
//! local 1 < global 2 < local 2 (one local hop reaches any router of a group), so every channel
//! dependency goes forward in that order and the dependency graph has no cycle: minimal needs 2 classes,
//! Valiant and UGAL-L 3, which the build-time check confirms (`check/routes.rs`).
//!
//! **What a later hop knows.** Headers are fixed at creation, and only the hops travel with a copy's
//! head. Valiant's intermediate group is drawn when the packet is created, from its source's own random
//! stream, and carried as the packet's route variant (`routing/variants.rs`; at most 255 groups). UGAL-L's
//! choice is carried by the virtual channel it takes: after the source router, a packet on class 0 is
//! on its way to the intermediate group, on class 1 in the source group on its minimal path (class 1 in
//! another group: in the intermediate group, now minimal to the destination), on class 2 in the
//! destination's group. The routing offers both first hops at the source (`route`, which the build-time
//! check walks, both of them), and the switch narrows them to one with its own outputs' credits when it
//! routes the head (`decide`, which every switch calls: `StepCtx::queued`), so the decision is the
//! router's own state and bit-identical for any `run.threads`.

use super::algorithm::{other_than, too_few_vcs, unfit, Facts};
use super::route::Route;
use crate::candidates::{At, Candidate, Candidates};
use crate::error::Error;
use crate::packet::Header;
use crate::params::{choice, Problem};
use crate::queue_view::Anywhere;
use crate::sizing::{Part, Sizing};
use crate::topology::{DragonflyGeometry, Geometry, Topology};

choice! {
    /// What UGAL-G counts as a global channel's queue.
    pub enum GlobalQueue {
        /// The flits waiting in the next router's buffers, as the channel's router knows them (its credits
        /// owed less its flits on the wire): the queue UGAL-L reads of its own outputs.
        Downstream = "downstream",
        /// Those, and the flits waiting for the channel in its router's input buffers (the packets that hold
        /// or were routed to it): the whole backlog in front of the channel.
        Whole = "whole",
    }
}

/// Which of the three routings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Minimal,
    /// Valiant, drawing its intermediate group among all g groups or among the g − 2 others.
    Valiant {
        all_groups: bool,
    },
    /// UGAL with its threshold (flits; below 0 a bias toward the non-minimal path): UGAL-L by the queues
    /// of the source router's outputs, UGAL-G (`global`, what a queue counts) by those of the two paths'
    /// global channels.
    Ugal {
        threshold: i64,
        global: Option<GlobalQueue>,
    },
}

/// Where a packet is on its route, from where it is and the class it arrived on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// In the source group, bound for the intermediate group.
    ToIntermediate,
    /// Bound for the destination's group (minimal from here).
    ToDestinationGroup,
    /// In the destination's group.
    Final,
    /// At a UGAL-L source router: either of the first two.
    Either,
}

#[derive(Debug, Clone)]
pub struct DragonflyRouting {
    pub geo: DragonflyGeometry,
    pub vcs: u8,
    pub mode: Mode,
    /// The VC classes: 2 (minimal) or 3.
    classes: u8,
    /// The class of each virtual channel.
    class_of: [u8; 16],
}

/// The networks the dragonfly routings run on.
pub const DRAGONFLY: &[&str] = &["dragonfly"];

/// `name` with fewer virtual channels than its `classes` (one class per hop class).
pub fn too_few_classes(name: &str, classes: u32, f: &Facts) -> Option<Problem> {
    too_few_vcs(
        f,
        classes,
        format!("at least {classes} for {name} on a dragonfly (one virtual-channel class per hop class)"),
        &format!("for {name} on a dragonfly (it needs virtual channels)"),
    )
}

/// What UGAL (`name`, its choice reading `what` credits) needs where `f` holds: a VC class per hop class,
/// and credits to read (not stop/go).
pub fn ugal_unfit(name: &str, what: &str, f: &Facts) -> Vec<Problem> {
    let mut out: Vec<Problem> = too_few_classes(name, 3, f).into_iter().collect();
    if !f.reads_credits {
        let allowed = format!("'wormhole' or 'vct' for {name} (its choice at the source reads the {what}' credits)");
        out.push(Problem::new("switch.flow_control", "'stop_go'", allowed, None));
    }
    out
}

/// Each router output's sends still on the wire, which its switch keeps for UGAL (`switch/on_wire.rs`: at
/// most one a cycle of the channel's latency and the routers' pipeline, a few cycles, taken as 4).
pub fn on_wire_part(n: &Sizing) -> Part {
    let bytes = n.ports * (u64::from(n.longest_channel) + 4) * 8;
    Part {
        what: "sends on the wire (bounded)",
        bytes,
        keys: format!("{}, network.global_latency_cycles", n.network_keys),
    }
}

/// The routing `mode` of the kind `name` on `topo`, which must be a dragonfly.
pub fn on_dragonfly(name: &str, topo: &Topology, vcs: u8, mode: Mode) -> Result<DragonflyRouting, Error> {
    match topo.geometry {
        Geometry::Dragonfly(g) => DragonflyRouting::new(g, vcs, mode, name),
        _ => Err(unfit(name, DRAGONFLY)),
    }
}

impl DragonflyRouting {
    /// The routing `mode` on `geo` with `vcs` virtual channels per channel (at least one per class).
    pub fn new(geo: DragonflyGeometry, vcs: u8, mode: Mode, name: &str) -> Result<DragonflyRouting, Error> {
        let classes = if mode == Mode::Minimal { 2 } else { 3 };
        if vcs < classes || vcs as usize > 16 {
            return Err(Error::config(
                "switch.vcs",
                vcs,
                format!(
                    "from {classes} to 16 for {name} on a dragonfly (one virtual-channel class per hop class: \
                     docs/models/dragonfly.md)"
                ),
            ));
        }
        let mut r = DragonflyRouting { geo, vcs, mode, classes, class_of: [0; 16] };
        for class in 0..classes {
            let (lo, hi) = r.class_vcs(class);
            r.class_of[lo as usize..hi as usize].fill(class);
        }
        Ok(r)
    }

    /// The virtual channels of class `class`.
    #[inline]
    pub fn class_vcs(&self, class: u8) -> (u8, u8) {
        let (v, c) = (self.vcs as u32, self.classes as u32);
        ((class as u32 * v / c) as u8, ((class as u32 + 1) * v / c) as u8)
    }

    /// Route variants: Valiant's and UGAL-L's intermediate group (one per group; the draw,
    /// `intermediate`, is made in `variants.rs`).
    pub fn variants(&self) -> u8 {
        match self.mode {
            Mode::Minimal => 1,
            _ => self.geo.g as u8,
        }
    }

    /// The intermediate group of a new packet from terminal `src` to `dst`, from `draw` uniform in
    /// 0..u32::MAX: uniform among the groups other than the two ends (UGAL-L, whose minimal path is the
    /// other candidate, and Valiant's `others`), or among all g groups (Valiant's `all`: an end group
    /// drawn means the minimal route); the destination's group (a minimal route) where there is none.
    pub fn intermediate(&self, src: u32, dst: u32, draw: u32) -> u8 {
        let geo = &self.geo;
        let (gs, gd) = (geo.group(geo.router_of(src)), geo.group(geo.router_of(dst)));
        if gs == gd || geo.g < 3 {
            return gd as u8;
        }
        if self.mode == (Mode::Valiant { all_groups: true }) {
            let i = ((draw as u64 * geo.g as u64) >> 32) as u32;
            return if i == gs { gd as u8 } else { i as u8 };
        }
        other_than(draw, geo.g, gs, gd) as u8
    }

    /// Candidate outputs of a packet with `header` at `at`. At a UGAL-L source router where the packet
    /// leaves its group, two: the minimal first hop, then the Valiant one (`decide` keeps one).
    #[inline]
    pub fn route(&self, at: At, header: &Header, out: &mut Candidates) {
        let geo = &self.geo;
        let dst = header.dst();
        let d = geo.router_of(dst);
        if at.router == d {
            out.push(Candidate { port: (dst % geo.p) as u8, vc_lo: 0, vc_hi: self.vcs });
            return;
        }
        let (here, gd) = (geo.group(at.router), geo.group(d));
        let via = header.variant as u32;
        let injected = (at.in_port as u32) < geo.p;
        let phase = if here == gd {
            Phase::Final
        } else if self.mode == Mode::Minimal {
            Phase::ToDestinationGroup
        } else if injected {
            match self.mode {
                _ if via == here || via == gd => Phase::ToDestinationGroup,
                Mode::Ugal { .. } => Phase::Either,
                _ => Phase::ToIntermediate,
            }
        } else if self.class_of[at.in_vc as usize & 15] == 0 && via != here {
            Phase::ToIntermediate
        } else {
            Phase::ToDestinationGroup
        };
        match phase {
            Phase::Final => self.hop(at.router, d, self.classes - 1, out),
            Phase::ToDestinationGroup => self.toward(at.router, gd, self.classes - 2, out),
            Phase::ToIntermediate => self.toward(at.router, via, 0, out),
            Phase::Either => {
                self.toward(at.router, gd, 1, out);
                self.toward(at.router, via, 0, out);
            }
        }
    }

    /// The next hop from router `r` toward group `to` (≠ `r`'s): the global channel, class `local + 1`,
    /// where `r` holds it, else the local hop to the router that does, class `local`.
    #[inline]
    fn toward(&self, r: u32, to: u32, local: u8, out: &mut Candidates) {
        let geo = &self.geo;
        let from = geo.group(r);
        let holder = geo.holder(from, to);
        if holder == r {
            let (vc_lo, vc_hi) = self.class_vcs(local + 1);
            out.push(Candidate { port: geo.global_port(from, to), vc_lo, vc_hi });
        } else {
            self.hop(r, holder, local, out);
        }
    }

    /// The local hop from router `r` to router `to` of its group, class `class`.
    #[inline]
    fn hop(&self, r: u32, to: u32, class: u8, out: &mut Candidates) {
        let (vc_lo, vc_hi) = self.class_vcs(class);
        out.push(Candidate { port: self.geo.local_port(r, to), vc_lo, vc_hi });
    }
}

impl Route for DragonflyRouting {
    fn name(&self) -> &'static str {
        match self.mode {
            Mode::Minimal => "minimal",
            Mode::Valiant { .. } => "valiant",
            Mode::Ugal { global: None, .. } => "ugal_l",
            Mode::Ugal { global: Some(_), .. } => "ugal_g",
        }
    }

    #[inline]
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates) {
        self.route(at, header, out)
    }

    /// UGAL-L's choice at the source router: keeps the minimal candidate if q_min · H_min ≤ q_nm · H_nm +
    /// threshold, else the Valiant one, `occupancy(port)` being the flits waiting in the next router's
    /// buffers of that output as this router knows them (`Route::decide`). Any other hop: unchanged.
    #[inline]
    fn decide(
        &self,
        at: At,
        header: &Header,
        out: &mut Candidates,
        occupancy: impl Fn(u8) -> u32,
        anywhere: impl Fn(u32, u8) -> u32,
    ) {
        let Mode::Ugal { threshold, global } = self.mode else { return };
        let [min, nm] = out.as_slice() else { return };
        let geo = &self.geo;
        let d = geo.router_of(header.dst());
        let h_min = geo.minimal_hops(at.router, d) as u64;
        let h_nm = geo.valiant_hops(at.router, header.variant as u32, d) as u64;
        let (q_min, q_nm) = if global.is_some() {
            // the global channel each path leaves the source group by, wherever in the group it is
            let (from, via) = (geo.group(at.router), header.variant as u32);
            let global_queue = |to: u32| i128::from(anywhere(geo.holder(from, to), geo.global_port(from, to)));
            (global_queue(geo.group(d)), global_queue(via))
        } else {
            (i128::from(occupancy(min.port)), i128::from(occupancy(nm.port)))
        };
        out.keep(usize::from(q_min * i128::from(h_min) > q_nm * i128::from(h_nm) + i128::from(threshold)));
    }

    fn reads_queues(&self) -> bool {
        matches!(self.mode, Mode::Ugal { .. })
    }

    /// UGAL-G reads the global channels' queues: ports p + a − 1 onward (`DragonflyGeometry::global_port`).
    fn reads_anywhere(&self) -> Anywhere {
        let geo = &self.geo;
        let first = (geo.p + geo.a - 1) as u8;
        match self.mode {
            Mode::Ugal { global: Some(queue), .. } => {
                Anywhere { ports: first..first + geo.h as u8, with_router: queue == GlobalQueue::Whole }
            }
            _ => Anywhere::default(),
        }
    }

    fn vcs(&self) -> u8 {
        self.vcs
    }

    fn variants(&self) -> u8 {
        self.variants()
    }

    fn draws_intermediate(&self) -> bool {
        true
    }

    fn intermediate(&self, src: u32, dst: u32, draw: u32) -> u8 {
        self.intermediate(src, dst, draw)
    }

    /// It routes by the destination's router alone, up to the ejection port: the check walks the first
    /// terminal of each router, whose channels and dependencies are those of the router's other
    /// terminals.
    fn checks_destination(&self, dst: u32) -> bool {
        dst.is_multiple_of(self.geo.p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Dest;
    use crate::topology::Arrangement;

    fn geo() -> DragonflyGeometry {
        DragonflyGeometry { p: 2, a: 4, h: 2, g: 9, arrangement: Arrangement::Absolute }
    }

    #[test]
    fn classes_split_the_vcs_evenly_and_too_few_are_refused() {
        let r = DragonflyRouting::new(geo(), 3, Mode::Valiant { all_groups: false }, "valiant").unwrap();
        assert_eq!([r.class_vcs(0), r.class_vcs(1), r.class_vcs(2)], [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(r.class_of[..3], [0, 1, 2]);
        let r = DragonflyRouting::new(geo(), 7, Mode::Valiant { all_groups: false }, "valiant").unwrap();
        assert_eq!([r.class_vcs(0), r.class_vcs(1), r.class_vcs(2)], [(0, 2), (2, 4), (4, 7)]);
        assert_eq!(r.class_of[..7], [0, 0, 1, 1, 2, 2, 2]);
        let r = DragonflyRouting::new(geo(), 2, Mode::Minimal, "minimal").unwrap();
        assert_eq!([r.class_vcs(0), r.class_vcs(1)], [(0, 1), (1, 2)]);
        assert!(DragonflyRouting::new(geo(), 2, Mode::Valiant { all_groups: false }, "valiant").is_err());
        assert!(DragonflyRouting::new(geo(), 1, Mode::Minimal, "minimal").is_err());
    }

    #[test]
    fn intermediate_groups_are_uniform_over_the_others_or_over_all_groups() {
        // terminal 0 is in group 0, terminal 8·3 = 24 in group 3.
        let draws = |n: u32| (0..n).map(move |k| ((k as u64 * (1u64 << 32)) / n as u64 + 1) as u32);
        for mode in [Mode::Valiant { all_groups: false }, Mode::Ugal { threshold: 0, global: None }] {
            let r = DragonflyRouting::new(geo(), 3, mode, "valiant").unwrap();
            let mut seen = [0u32; 9];
            for draw in draws(7) {
                seen[r.intermediate(0, 24, draw) as usize] += 1;
            }
            assert_eq!(seen, [0, 1, 1, 0, 1, 1, 1, 1, 1], "{mode:?}");
            assert_eq!(r.intermediate(0, 7, 12345), 0, "same group: minimal");
        }
        // all groups: each of the 9 once, the source's group given as the destination's (minimal)
        let r = DragonflyRouting::new(geo(), 3, Mode::Valiant { all_groups: true }, "valiant").unwrap();
        let mut seen = [0u32; 9];
        for draw in draws(9) {
            seen[r.intermediate(0, 24, draw) as usize] += 1;
        }
        assert_eq!(seen, [0, 1, 1, 2, 1, 1, 1, 1, 1]);
        assert_eq!(r.intermediate(0, 7, 12345), 0, "same group: minimal");
    }

    #[test]
    fn ugal_keeps_minimal_at_zero_load_and_valiant_when_minimal_is_full() {
        let r = DragonflyRouting::new(geo(), 3, Mode::Ugal { threshold: 0, global: None }, "ugal_l").unwrap();
        // terminal 0 (router 0, group 0) to terminal 24·2 = 48 (router 24, group 6) via group 3.
        let header = Header::new(0, Dest::One(48), 0, 1, 0, false, 3);
        let at = At { router: 0, in_port: 0, in_vc: 0, hops: 0 };
        let mut out = Candidates::default();
        r.route(at, &header, &mut out);
        assert_eq!(out.as_slice().len(), 2);
        let (min, nm) = (out.as_slice()[0], out.as_slice()[1]);
        let mut kept = out;
        r.decide(at, &header, &mut kept, |_| 0, |_, _| 0);
        assert_eq!(kept.as_slice(), [min]);
        let mut kept = out;
        r.decide(at, &header, &mut kept, |port| if port == min.port { 100 } else { 1 }, |_, _| 0);
        assert_eq!(kept.as_slice(), [nm]);
        assert_eq!(nm.vc_lo, 0, "the Valiant path starts on class 0");
        // UGAL-G reads the global channels the two paths leave the group by, wherever they are: the
        // minimal one (group 0 to group 6) full, its local first hop empty, it goes the Valiant way
        let g = DragonflyRouting::new(
            geo(),
            3,
            Mode::Ugal { threshold: 0, global: Some(GlobalQueue::Downstream) },
            "ugal_g",
        )
        .unwrap();
        let full = (geo().holder(0, 6), geo().global_port(0, 6));
        let mut kept = out;
        g.decide(at, &header, &mut kept, |_| 0, |r, p| if (r, p) == full { 100 } else { 0 });
        assert_eq!(kept.as_slice(), [nm]);
        let mut kept = out;
        g.decide(at, &header, &mut kept, |port| if port == min.port { 100 } else { 0 }, |_, _| 0);
        assert_eq!(kept.as_slice(), [min], "UGAL-G does not read the local queue");
        // a negative threshold biases toward the non-minimal path: with both queues empty, Valiant
        let biased = DragonflyRouting::new(geo(), 3, Mode::Ugal { threshold: -1, global: None }, "ugal_l").unwrap();
        let mut kept = out;
        biased.decide(at, &header, &mut kept, |_| 0, |_, _| 0);
        assert_eq!(kept.as_slice(), [nm]);
    }
}
