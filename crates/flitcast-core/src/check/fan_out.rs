//! Build-time check of a multicast routing (docs/engine.md, "Invariants checked on every run"), run
//! with the unicast check of `routes.rs` when the routing has a fan-out step:
//!
//! 1. below every switch, its down ports' reachability strings are pairwise disjoint, so a fan-out
//!    never sends two copies towards one destination;
//! 2. a broadcast from one terminal of every node switch reaches every other terminal exactly once and
//!    never its source, whichever up ports it takes (every switch it can turn at is walked);
//! 3. its channel dependencies — a replicating copy waits on every branch at once, so its input
//!    channel depends on each output it fans out to — join the unicast ones for the acyclicity test.

use std::collections::BTreeSet;

use crate::error::Error;
use crate::packet::{Dest, Header};
use crate::routing::{At, Candidates, Routing, Step};
use crate::topology::{PortLink, Topology};

/// Checks 1 and 2, and adds the multicast dependencies to `deps` (index: channel · vcs + vc).
pub fn check(topo: &Topology, routing: &Routing, vcs: u8, deps: &mut [Vec<u32>]) -> Result<(), Error> {
    let Some(tree) = routing.multicast() else { return Ok(()) };
    let fail = |message: String| Err(Error::Routing { message: format!("{} multicast: {message}", routing.name()) });
    for r in 0..topo.routers() as u32 {
        let mut seen = vec![0u64; crate::dest_set::words_for(topo.terminals())];
        for p in crate::bitset::ones(tree.down_ports(r)) {
            for (w, &word) in tree.reach_of(topo, r, p as u8).iter().enumerate() {
                if seen[w] & word != 0 {
                    return fail(format!(
                        "router {r} reaches a terminal through two down ports (port {p} and another)"
                    ));
                }
                seen[w] |= word;
            }
        }
    }
    let mut sets = crate::dest_set::DestSets::new(topo.terminals());
    let mut leaves = BTreeSet::new();
    let mut cands = Candidates::default();
    for (src, &(leaf, port)) in topo.terminal_at.iter().enumerate() {
        if !leaves.insert(leaf) {
            continue;
        }
        let src = src as u32;
        let set = sets.insert((0..topo.terminals() as u32).filter(|&t| t != src));
        let mut header = Header::new(src, Dest::Set(set), 0, 1, 0, false, 0);
        let Some(turn) = routing.turn(src, sets.words(set)) else {
            return fail(format!("no switch above terminal {src} reaches every other terminal"));
        };
        header.turn = turn;
        // Up phase: every path; the switches where copies turn, with the channel they arrived on.
        let mut turning = BTreeSet::new();
        let mut stack = vec![(leaf, port, 0u8, 0u16)];
        while let Some((r, p, v, hops)) = stack.pop() {
            let at = At { router: r, in_port: p, in_vc: v, hops };
            if routing.step(topo, at, &header, &sets, &mut cands) != Step::Choose {
                turning.insert((r, p, v, hops));
                continue;
            }
            for c in cands.as_slice() {
                let PortLink::Router { router, port: in_port } = topo.link(r, c.port) else {
                    return fail(format!("router {r} sends a copy below its count out of port {}", c.port));
                };
                for w in c.vc_lo..c.vc_hi {
                    depend(topo, vcs, deps, r, p, v, c.port, w);
                    stack.push((router, in_port, w, hops + 1));
                }
            }
        }
        // Down phase from each turning switch: deterministic, so count the deliveries of each.
        for &start in &turning {
            let mut delivered = vec![0u32; topo.terminals()];
            let mut stack = vec![start];
            while let Some((r, p, v, hops)) = stack.pop() {
                let at = At { router: r, in_port: p, in_vc: v, hops };
                let Step::FanOut(ports) = routing.step(topo, at, &header, &sets, &mut cands) else {
                    return fail(format!("a copy going down chooses instead of fanning out at router {r}"));
                };
                for out in crate::bitset::ones(ports) {
                    match topo.link(r, out as u8) {
                        PortLink::Terminal { terminal } => delivered[terminal as usize] += 1,
                        PortLink::Router { router, port: in_port } => {
                            // (a copy may use any VC going down: walked once, on VC 0 — the fan-out
                            // does not depend on it — with the dependencies of every VC pair)
                            for (from_vc, w) in (0..vcs).flat_map(|a| (0..vcs).map(move |b| (a, b))) {
                                depend(topo, vcs, deps, r, p, if hops == start.3 { v } else { from_vc }, out as u8, w);
                            }
                            stack.push((router, in_port, 0, hops + 1));
                        }
                        PortLink::Unused => return fail(format!("router {r} fans out to unconnected port {out}")),
                    }
                }
            }
            let wrong = (0..topo.terminals()).find(|&t| delivered[t] != u32::from(t as u32 != src));
            if let Some(t) = wrong {
                return fail(format!(
                    "a broadcast from terminal {src} turning at router {} reaches terminal {t} {} times",
                    start.0, delivered[t]
                ));
            }
        }
        sets.remove(set);
    }
    Ok(())
}

/// Records that (the channel into `r` by port `p`, vc `v`) waits on (`r`'s output `out`, vc `w`).
#[allow(clippy::too_many_arguments)]
fn depend(topo: &Topology, vcs: u8, deps: &mut [Vec<u32>], r: u32, p: u8, v: u8, out: u8, w: u8) {
    let PortLink::Router { router: up, port: up_port } = topo.input(r, p) else { return };
    let from = topo.port_index(up, up_port) * vcs as usize + v as usize;
    let to = (topo.port_index(r, out) * vcs as usize + w as usize) as u32;
    if !deps[from].contains(&to) {
        deps[from].push(to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn tree() -> (Topology, Routing) {
        let s = Scenario::of(serde_json::json!({
            "network": {"topology": "fat_tree", "k": 4, "n": 2},
            "routing": {"algorithm": "adaptive"},
        }));
        let topo = s.topology().unwrap();
        let routing = s.routing(&topo).unwrap().with_multicast(&topo).unwrap();
        (topo, routing)
    }

    fn check_of(topo: &Topology, routing: &Routing) -> Result<(), Error> {
        let mut deps = vec![Vec::new(); topo.links.len()];
        check(topo, routing, 1, &mut deps)
    }

    #[test]
    fn a_destination_reachable_by_two_down_ports_is_caught() {
        let (topo, mut routing) = tree();
        assert!(check_of(&topo, &routing).is_ok());
        // top switch 4 also "reaches" terminal 0 (under its down port 0) through down port 1
        if let Routing::Source(r) = &mut routing {
            r.multicast.as_mut().unwrap().add_reach(&topo, 4, 1, 0);
        }
        let err = check_of(&topo, &routing).unwrap_err().to_string();
        assert!(err.contains("router 4 reaches a terminal through two down ports"), "{err}");
    }

    #[test]
    fn replication_dependencies_are_recorded() {
        let (topo, routing) = tree();
        let mut deps = vec![Vec::new(); topo.links.len()];
        check(&topo, &routing, 1, &mut deps).unwrap();
        // the channel from leaf 0 up to top switch 4 fans out to the top switch's down channels
        let up = topo.port_index(0, 4);
        let down: Vec<u32> = (1..4).map(|p| topo.port_index(4, p) as u32).collect();
        assert!(down.iter().all(|d| deps[up].contains(d)), "{:?}", deps[up]);
    }
}
