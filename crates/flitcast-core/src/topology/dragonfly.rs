//! Dragonfly (Kim, Dally, Scott & Abts, "Technology-Driven, Highly-Scalable Dragonfly Topology", ISCA
//! 2008, §3): `g` groups of `a` routers; each router has `p` terminals, `a − 1` local channels (the routers
//! of a group are fully connected) and `h` global channels. Every pair of groups is joined by exactly one
//! global channel, so there are at most a·h + 1 groups (the default, the paper's largest network); with
//! fewer groups the global ports a group does not need are unused. The paper's balanced sizing a = 2p =
//! 2h is the default (p = h = 2, a = 4, g = 9: 72 nodes).
//!
//! Numbering: router r = G·a + i is router i of group G; terminal t = r·p + k sits on router r's port
//! k. Ports of every router:
//!
//! | ports | lead to |
//! |---|---|
//! | 0 … p−1 | terminals r·p … r·p + p − 1 |
//! | p … p+a−2 | local: port p + m leads to router m of the group if m < i, else to router m + 1 (the other routers in increasing order) |
//! | p+a−1 … p+a+h−2 | global: port p + a − 1 + k is the group's global slot s = i·h + k |
//!
//! Which group each global slot s (0 … a·h − 1) of group G leads to is the *arrangement*
//! (`network.arrangement`); slots s ≥ g − 1 are unused. Hastings et al., "Comparing Global Link
//! Arrangements for Dragonfly Networks" (IEEE Cluster 2015), name and compare the absolute arrangement
//! and the relative ones (the group a slot leads to depends only on its offset from G):
//!
//! - `absolute` (the consecutive arrangement; BookSim 2's dragonfly): slot s leads to the s-th other
//!   group in increasing order, group s if s < G, else s + 1. Router 0 of every group holds the links to
//!   the lowest-numbered groups.
//! - `palm_tree` (a relative arrangement, Camarero, Vallejo & Beivide, "Topological Characterization of
//!   Hamming and Dragonfly Networks and its Implications on Routing", ACM TACO 2014): slot s leads to
//!   group (G − s − 1) mod g, arriving on slot g − 2 − s there (with g = a·h + 1: router a − 1 − i, port
//!   h − 1 − k). Every group sees the others at the same offsets.
//!
//! Channels come in two classes: local ones, `network.channel_latency_cycles` long, and global ones,
//! `network.global_latency_cycles` (the paper's global channels are long cables; left out, as long as the
//! local ones, which keeps the closed forms of the dragonfly experiment). A routing that reads queues
//! reads them in flits, whatever a channel's length (docs/models/dragonfly.md).

use super::graph::{Arrangement, Builder, DragonflyGeometry, Geometry, PortLink, Topology};
use crate::error::Error;
use crate::facts::Facts;
use crate::params::{params, Kind, Problem};

/// Most groups: Valiant's intermediate group travels in the packet's 8-bit route variant.
pub const MAX_GROUPS: u32 = 255;

params! {
    /// A dragonfly.
    pub struct Params {
        /// Terminals per router.
        p: u32 = 2, range(1, 32);
        /// Routers per group (fully connected by local channels).
        a: u32 = 4, range(1, 63);
        /// Global channels per router.
        h: u32 = 2, range(1, 32);
        /// Groups, from 2 to a·h + 1 (every pair of groups joined by one global channel; at most 255);
        /// left out: a·h + 1.
        g: Option<u32> = None, range(2, 255);
        /// Which router of a group holds the global channel to which group: `absolute` (consecutive:
        /// slot s of group G to group s if s < G, else s + 1) or `palm_tree` (slot s to group (G − s −
        /// 1) mod g); slot s = i·h + k is port p + a − 1 + k of router i.
        arrangement: Arrangement = Arrangement::Absolute;
        /// Latency of the global channels (between groups); left out: network.channel_latency_cycles,
        /// the local channels' (BookSim 2's dragonfly: 10 local, 100 global).
        global_latency_cycles: Option<u32> = None, range(1, 1000), unit("cycles");
    }
}

impl Params {
    /// The groups: `g`, or a·h + 1 when left out.
    pub fn groups(&self) -> u32 {
        self.g.unwrap_or(self.a * self.h + 1)
    }

    /// What is wrong with the sizes, if anything: too many groups for the global ports, or routers of
    /// more than 64 ports.
    pub fn problem(&self) -> Option<Problem> {
        let most = (self.a * self.h + 1).min(MAX_GROUPS);
        let radix = self.p + self.a - 1 + self.h;
        if self.groups() > most {
            let key = if self.g.is_some() { "network.g" } else { "network.a" };
            let value = if self.g.is_some() { self.groups() } else { self.a };
            let allowed = format!(
                "groups from 2 to network.a · network.h + 1 = {} and at most {MAX_GROUPS} (one global channel joins \
                 each pair of groups; this network has {} groups)",
                self.a * self.h + 1,
                self.groups()
            );
            Some(Problem::new(key, value.to_string(), allowed, None))
        } else if radix > 64 {
            Some(Problem::new(
                "network.a",
                self.a.to_string(),
                format!(
                    "routers of at most 64 ports: network.p + network.a − 1 + network.h is {radix} (p = {}, a = {}, \
                     h = {})",
                    self.p, self.a, self.h
                ),
                None,
            ))
        } else {
            None
        }
    }
}

pub struct Dragonfly;

impl Kind for Dragonfly {
    const NAME: &'static str = "dragonfly";
    const DOC: &'static str = "dragonfly: g groups of a fully connected routers, p terminals and h global links \
                               per router; ports terminals, local, global";
    type Params = Params;
}

impl Builder for Dragonfly {
    fn size_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.a", p.a.to_string()))
    }
    fn sized_by(_: &Params) -> &'static str {
        "network.p, network.a, network.h, network.g"
    }

    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        if let Some(problem) = p.problem() {
            return Err(Error::from_problems(vec![problem]));
        }
        let geo = DragonflyGeometry { p: p.p, a: p.a, h: p.h, g: p.groups(), arrangement: p.arrangement };
        let global_from = p.p + p.a - 1;
        let latencies = [latency, p.global_latency_cycles.unwrap_or(latency)];
        Ok(build(geo, latency)?.with_classes(&CLASSES.map(String::from), &latencies, |_, port| {
            usize::from(u32::from(port) >= global_from)
        }))
    }
    fn longest_channel(p: &Params, latency: u32) -> (u32, Option<&'static str>) {
        match p.global_latency_cycles {
            Some(global) if global > latency => (global, Some("network.global_latency_cycles")),
            _ => (latency, None),
        }
    }
    fn nodes(p: &Params) -> Option<u64> {
        Some(p.p as u64 * p.a as u64 * p.groups() as u64)
    }
    fn radix(p: &Params) -> u32 {
        p.p + p.a - 1 + p.h
    }
    fn needs(_: &Params) -> &'static str {
        "from 2 to `network.a` · `network.h` + 1 groups (one global channel joins each pair of groups), at most \
         255, and routers of at most 64 ports (`network.p` + `network.a` − 1 + `network.h`)"
    }
    fn unfit(p: &Params, _: &Facts) -> Vec<Problem> {
        p.problem().into_iter().collect()
    }
    fn groups(p: &Params) -> Option<(u32, u32)> {
        Some((p.p * p.a, p.groups()))
    }
}

/// The channel classes: local (within a group), global (between groups).
pub const CLASSES: [&str; 2] = ["local", "global"];

pub fn build(geo: DragonflyGeometry, latency: u32) -> Result<Topology, Error> {
    let DragonflyGeometry { p, a, h, g, .. } = geo;
    let routers = a * g;
    let radix = p + a - 1 + h;
    let mut links = vec![PortLink::Unused; (routers * radix) as usize];
    for r in 0..routers {
        let (group, i) = (r / a, r % a);
        let base = (r * radix) as usize;
        for k in 0..p {
            links[base + k as usize] = PortLink::Terminal { terminal: r * p + k };
        }
        for j in (0..a).filter(|&j| j != i) {
            let to = group * a + j;
            links[base + geo.local_port(r, to) as usize] = PortLink::Router { router: to, port: geo.local_port(to, r) };
        }
        for k in 0..h {
            if let Some(to) = geo.slot_target(group, i * h + k) {
                let port = geo.global_port(to, group);
                links[base + (p + a - 1 + k) as usize] = PortLink::Router { router: geo.holder(to, group), port };
            }
        }
    }
    let nodes = routers * p;
    Topology::new(
        format!("dragonfly p={p} a={a} h={h} g={g} ({}, {nodes} nodes)", geo.arrangement.name()),
        Geometry::Dragonfly(geo),
        (0..=routers).map(|r| r * radix).collect(),
        links.clone(),
        vec![latency; links.len()],
        vec![latency; nodes as usize],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(p: u32, a: u32, h: u32, g: u32, arrangement: Arrangement) -> DragonflyGeometry {
        DragonflyGeometry { p, a, h, g, arrangement }
    }

    #[test]
    fn every_pair_of_groups_is_joined_once_and_links_are_symmetric() {
        for arrangement in Arrangement::ALL.iter().copied() {
            for (p, a, h, g) in [(2, 4, 2, 9), (1, 3, 2, 7), (2, 4, 2, 5), (1, 2, 3, 2), (3, 1, 2, 3)] {
                let geo = geo(p, a, h, g, arrangement);
                let t = build(geo, 1).unwrap();
                assert_eq!(t.routers() as u32, a * g);
                assert_eq!(t.terminals() as u32, p * a * g);
                let mut joined = vec![0u32; (g * g) as usize];
                for r in 0..t.routers() as u32 {
                    for port in 0..t.radix(r) as u8 {
                        if let PortLink::Router { router, port: back } = t.link(r, port) {
                            assert_eq!(t.link(router, back), PortLink::Router { router: r, port });
                            let (gr, gt) = (geo.group(r), geo.group(router));
                            if gr == gt {
                                assert!((p..p + a - 1).contains(&(port as u32)), "local on a local port");
                            } else {
                                assert!(port as u32 >= p + a - 1, "global on a global port");
                                joined[(gr * g + gt) as usize] += 1;
                                assert_eq!(geo.holder(gr, gt), r);
                                assert_eq!(geo.global_port(gr, gt), port);
                            }
                        }
                    }
                }
                for x in 0..g {
                    for y in 0..g {
                        assert_eq!(joined[(x * g + y) as usize], u32::from(x != y), "{arrangement:?} {x}->{y}");
                    }
                }
            }
        }
    }

    #[test]
    fn arrangements_put_links_where_their_definitions_say() {
        // Absolute, g = 9, a·h = 8: group 3's slots lead to 0, 1, 2, 4, 5, 6, 7, 8.
        let abs = geo(2, 4, 2, 9, Arrangement::Absolute);
        let to: Vec<u32> = (0..8).map(|s| abs.slot_target(3, s).unwrap()).collect();
        assert_eq!(to, [0, 1, 2, 4, 5, 6, 7, 8]);
        // Palm tree: slot s of group 3 to (3 − s − 1) mod 9, landing on router a − 1 − i, port h − 1 − k.
        let palm = geo(2, 4, 2, 9, Arrangement::PalmTree);
        let to: Vec<u32> = (0..8).map(|s| palm.slot_target(3, s).unwrap()).collect();
        assert_eq!(to, [2, 1, 0, 8, 7, 6, 5, 4]);
        let t = build(palm, 1).unwrap();
        // router 3·4 + 1 (i = 1), global port k = 0 (slot 2, to group 0): lands on router 0·4 + 2, port 2 + 3 + 1.
        assert_eq!(t.link(13, 5), PortLink::Router { router: 2, port: 6 });
        // Fewer groups: slots from g − 1 on are unused.
        assert_eq!(geo(2, 4, 2, 5, Arrangement::Absolute).slot_target(0, 4), None);
    }

    #[test]
    fn sizes_out_of_range_are_refused_by_key() {
        let p = |a, h, g| Params { p: 2, a, h, g, arrangement: Arrangement::Absolute, global_latency_cycles: None };
        assert!(p(4, 2, None).problem().is_none());
        assert_eq!(p(4, 2, None).groups(), 9);
        assert_eq!(p(4, 2, Some(10)).problem().unwrap().key, "network.g");
        assert_eq!(p(16, 16, None).problem().unwrap().key, "network.a");
        assert_eq!(p(40, 30, Some(4)).problem().unwrap().key, "network.a");
    }
}
