//! Up*/down* routing (Schroeder et al., "Autonet: a high-speed, self-configuring local area network
//! using point-to-point links", IEEE JSAC 9(8), 1991, §6.6), as InfiniBand subnet managers route
//! irregular fabrics (OpenSM's `updn`).
//!
//! A breadth-first spanning tree from a root router gives each router a level (its hop distance from
//! the root). Each link's "up" end is the end closer to the root — on the lower level, or, on the same
//! level, the router with the lower id (Autonet breaks ties by the lower UID). A legal route takes
//! zero or more links up, then zero or more links down: never an up link after a down link. Up ends
//! order the routers totally by (level, id), so the channel dependencies of legal routes have no
//! cycle, with one virtual channel (§6.6.2); `check/routes.rs` confirms it for every network built.
//!
//! Reading choices:
//! * **Root**: `routing.root`, router 0 by default. Autonet elects the switch with the lowest UID as
//!   root; router ids stand for UIDs here. (Subnet managers often pick a central switch instead; any
//!   root gives a deadlock-free routing, and the choice moves the load onto the links near it.)
//! * **Which legal routes**: every next hop that lies on a shortest legal route (shortest among the
//!   up*/down* routes, which can be longer than the shortest path in the graph) is offered, so the
//!   selection function (`routing.selection`) picks among them; Autonet's forwarding tables likewise
//!   list every output on a shortest legal route. At most 8 candidates are offered (the lowest ports
//!   first) where more would qualify.
//! * **State**: whether a packet may still go up is told by the link it arrived on (an arrival over a
//!   down link forbids up links from here on), so the packet carries nothing extra; a packet freshly
//!   injected may go up.
//! * **Virtual channels**: any, on every hop (the routing is deadlock-free on each alone).

use super::algorithm::{unfit, Algorithm, Facts};
use super::route::Route;
use crate::candidates::{At, Candidate, Candidates};
use crate::error::Error;
use crate::packet::Header;
use crate::params::{params, Kind, Problem};
use crate::selection::SelectionKind;
use crate::sizing::{Part, Sizing};
use crate::topology::{distances, Geometry, PortLink, Topology};

params! {
    /// Up*/down* routing.
    pub struct Params {
        /// The root of the spanning tree that gives every link its up direction: a router id (Autonet
        /// elects the switch with the lowest UID, router 0 here).
        root: u32 = 0, range(0, 4095);
        /// Output selection among the free legal shortest next hops: `lru`, `mru`, `rnd`, `rr`, `lruc`,
        /// `lrud`, `lfu`, or `first_free` (lowest port).
        selection: SelectionKind = SelectionKind::Lru(Default::default());
    }
}

impl Kind for UpDown {
    const NAME: &'static str = "up_down";
    const DOC: &'static str =
        "up*/down* routing on an irregular network (Autonet, IEEE JSAC 1991): any shortest legal \
                               route, deadlock-free on one VC";
    type Params = Params;
}

impl Algorithm for UpDown {
    type Runtime = UpDown;

    /// Any connected network routed from its own graph (a Slim Fly's too).
    fn networks(_: &Params) -> &'static [&'static str] {
        &["irregular", "slim_fly"]
    }

    fn build(p: &Params, vcs: u8, topo: &Topology) -> Result<UpDown, Error> {
        match topo.geometry {
            Geometry::Graph => UpDown::new(topo, p.root, vcs),
            _ => Err(unfit(Self::NAME, Self::networks(p))),
        }
    }

    fn needs(_: &Params) -> &'static str {
        "a `routing.root` that names one of the network's routers"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let Some(routers) = f.known_routers.filter(|&r| p.root >= r) else { return Vec::new() };
        let allowed = format!("a router id from 0 to {} (the network has {routers} routers)", routers - 1);
        vec![Problem::new("routing.root", p.root.to_string(), allowed, None)]
    }

    /// Hops of the shortest legal route from each router, in either phase, to each node switch.
    fn bytes(_: &Params, n: &Sizing) -> Vec<Part> {
        let bytes = 2 * n.routers * n.node_switches * 2;
        vec![Part { what: "up*/down* distance table", bytes, keys: n.network_keys.to_string() }]
    }

    fn adaptive(_: &Params) -> bool {
        true
    }
    fn selection(p: &Params) -> SelectionKind {
        p.selection.clone()
    }
}

/// No legal route (only in a network that is not connected, which the file check refuses).
const FAR: u16 = u16::MAX;

/// Where an output port leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    /// No router (a terminal, or nothing).
    None,
    /// A link up (towards the root) to `router`.
    Up(u32),
    /// A link down to `router`.
    Down(u32),
}

#[derive(Debug, Clone)]
pub struct UpDown {
    pub vcs: u8,
    pub root: u32,
    port_base: Vec<u32>,
    /// Per (router, port), flattened like `Topology::links`: where the output leads.
    outs: Vec<Out>,
    /// Per (router, port): a packet arriving on this input came down a link (and may not go up again).
    came_down: Vec<bool>,
    /// Router and port of each terminal; index of its router among the node switches.
    terminal_at: Vec<(u32, u8)>,
    terminal_switch: Vec<u32>,
    switches: usize,
    /// Hops of the shortest legal route from (phase, router) to a node switch, at
    /// `(phase · routers + router) · switches + switch`; phase 0 may still go up, phase 1 only down.
    dist: Vec<u16>,
    routers: usize,
}

impl UpDown {
    /// Up*/down* routing on `topo` from `root`, with `vcs` virtual channels.
    pub fn new(topo: &Topology, root: u32, vcs: u8) -> Result<UpDown, Error> {
        let routers = topo.routers();
        if root as usize >= routers {
            return Err(Error::config(
                "routing.root",
                root,
                format!("a router id from 0 to {} (the network has {routers} routers)", routers - 1),
            ));
        }
        let level = levels(topo, root);
        // (the up end of a link: lower level, then lower id)
        let above = |a: u32, b: u32| (level[a as usize], a) < (level[b as usize], b);
        let mut outs = vec![Out::None; topo.links.len()];
        let mut came_down = vec![false; topo.links.len()];
        for r in 0..routers as u32 {
            for p in 0..topo.radix(r) as u8 {
                let i = topo.port_index(r, p);
                if let PortLink::Router { router: n, .. } = topo.links[i] {
                    outs[i] = if above(n, r) { Out::Up(n) } else { Out::Down(n) };
                }
                if let PortLink::Router { router: from, .. } = topo.inputs[i] {
                    came_down[i] = above(from, r);
                }
            }
        }
        let switches = topo.node_switches();
        let mut dist = vec![FAR; 2 * routers * switches.len()];
        let at = |phase: usize, r: usize, s: usize| (phase * routers + r) * switches.len() + s;
        // Backwards breadth-first search from each node switch over the states (router, phase): a
        // step r → n is legal up from phase 0 only (to phase 0), down from either phase (to phase 1).
        let mut queue = std::collections::VecDeque::new();
        for (s, &target) in switches.iter().enumerate() {
            for phase in 0..2 {
                dist[at(phase, target as usize, s)] = 0;
                queue.push_back((phase, target));
            }
            while let Some((phase, n)) = queue.pop_front() {
                let d = dist[at(phase, n as usize, s)];
                // The predecessors r of n: the routers at the other end of n's links (links are
                // bidirectional: r's channel to n runs beside n's to r).
                for p in 0..topo.radix(n) as u8 {
                    let (Out::Up(r) | Out::Down(r)) = outs[topo.port_index(n, p)] else { continue };
                    let r_to_n_up = above(n, r);
                    let from: &[usize] = match (r_to_n_up, phase) {
                        (true, 0) => &[0],
                        (true, _) => &[],
                        (false, 1) => &[0, 1],
                        (false, _) => &[],
                    };
                    for &ph in from {
                        let slot = &mut dist[at(ph, r as usize, s)];
                        if *slot == FAR {
                            *slot = d + 1;
                            queue.push_back((ph, r));
                        }
                    }
                }
            }
        }
        Ok(UpDown {
            vcs,
            root,
            port_base: topo.port_base.clone(),
            outs,
            came_down,
            terminal_at: topo.terminal_at.clone(),
            terminal_switch: topo.terminal_switch.clone(),
            switches: switches.len(),
            dist,
            routers,
        })
    }

    #[inline]
    fn dist(&self, phase: usize, router: u32, switch: u32) -> u16 {
        self.dist[(phase * self.routers + router as usize) * self.switches + switch as usize]
    }

    /// Hops of the shortest legal route from a packet freshly injected at `router` to node switch
    /// `switch` (its index among the node switches).
    pub fn hops(&self, router: u32, switch: u32) -> Option<u16> {
        Some(self.dist(0, router, switch)).filter(|&d| d != FAR)
    }

    /// Whether the link leaving (router, port) goes up.
    pub fn is_up(&self, router: u32, port: u8) -> bool {
        matches!(self.outs[self.port_base[router as usize] as usize + port as usize], Out::Up(_))
    }

    #[inline]
    pub fn route(&self, at: At, dst: u32, out: &mut Candidates) {
        let (dr, dp) = self.terminal_at[dst as usize];
        if at.router == dr {
            out.push(Candidate { port: dp, vc_lo: 0, vc_hi: self.vcs });
            return;
        }
        let s = self.terminal_switch[dst as usize];
        let base = self.port_base[at.router as usize] as usize;
        let phase = usize::from(self.came_down[base + at.in_port as usize]);
        let here = self.dist(phase, at.router, s);
        let ports = (self.port_base[at.router as usize + 1] as usize - base) as u8;
        for port in 0..ports {
            let next = match self.outs[base + port as usize] {
                Out::Up(n) if phase == 0 => self.dist(0, n, s),
                Out::Down(n) => self.dist(1, n, s),
                _ => continue,
            };
            if next != FAR && next + 1 == here {
                out.push(Candidate { port, vc_lo: 0, vc_hi: self.vcs });
                if out.as_slice().len() == Candidates::MAX {
                    return;
                }
            }
        }
    }
}

/// Every router's hop distance from `root` (`u32::MAX`: unreachable).
fn levels(topo: &Topology, root: u32) -> Vec<u32> {
    distances::from_router(topo, root).iter().map(|d| d.map_or(u32::MAX, |d| d.hops)).collect()
}

impl Route for UpDown {
    fn name(&self) -> &'static str {
        "up_down"
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
    use crate::topology::irregular::parse;

    /// A ring of five routers, a terminal on each; root 0. Levels 0, 1, 2, 2, 1: the link 2–3 joins two
    /// routers of level 2 and goes up towards 2 (the lower id).
    const RING5: &str = "routers,5,3\n\
                         link,0,0,1,1\nlink,1,0,2,1\nlink,2,0,3,1\nlink,3,0,4,1\nlink,4,0,0,1\n\
                         terminal,0,0,2\nterminal,1,1,2\nterminal,2,2,2\nterminal,3,3,2\nterminal,4,4,2\n";

    fn ring5() -> (Topology, UpDown) {
        let topo = parse(RING5).unwrap().topology("ring5", 1);
        let r = UpDown::new(&topo, 0, 1).unwrap();
        (topo, r)
    }

    #[test]
    fn links_point_up_to_the_root_and_to_the_lower_id_on_a_level() {
        let (_, r) = ring5();
        assert!(r.is_up(1, 1) && !r.is_up(0, 0), "1 -> 0 goes up, 0 -> 1 down");
        assert!(r.is_up(3, 1) && !r.is_up(2, 0), "3 -> 2 goes up (same level, lower id)");
        assert!(r.is_up(3, 0) && !r.is_up(4, 1), "3 -> 4 goes up (level 2 to 1)");
    }

    #[test]
    fn the_shortest_legal_route_can_be_longer_than_the_shortest_path() {
        let (topo, r) = ring5();
        let hops = |a: u32, b: u32| r.hops(a, topo.terminal_switch[b as usize]).unwrap();
        // 2 -> 3 is one link, up from 3's view but down from 2's: legal (a down link alone).
        assert_eq!(hops(2, 3), 1);
        // 3 -> 2 goes up: legal too.
        assert_eq!(hops(3, 2), 1);
        // 1 -> 3: the short way 1-2-3 takes 1->2 (down) then 2->3 (down): legal, 2 hops.
        assert_eq!(hops(1, 3), 2);
        // 4 -> 2: 4-3-2 would go 4->3 (down) then 3->2 (up): illegal; the legal route 4-0-1-2 has 3.
        assert_eq!(hops(4, 2), 3);
        let mut c = Candidates::default();
        r.route(At { router: 4, in_port: 2, in_vc: 0, hops: 0 }, 2, &mut c);
        assert_eq!(c.as_slice().iter().map(|c| c.port).collect::<Vec<_>>(), [0], "from 4 only up, to 0 (port 0)");
    }

    #[test]
    fn a_root_out_of_range_is_a_config_error() {
        let (topo, _) = ring5();
        let e = UpDown::new(&topo, 5, 1).unwrap_err();
        assert!(e.to_string().contains("routing.root = 5"), "{e}");
    }
}
