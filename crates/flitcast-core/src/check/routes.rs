//! Build-time routing sanity (docs/engine.md, "Invariants checked on every run"): every destination is
//! reachable from every source over every path the routing may choose, no path loops, and — when `acyclic` is asked for — the
//! channel dependency graph (Dally & Seitz) over (channel, virtual channel) pairs has no cycle. A
//! routing with a multicast fan-out step adds its own checks and dependencies (`fan_out.rs`).
//!
//! A routing deadlock-free by Duato's protocol (`Routing::escape_vcs`: adaptive VCs on which cycles are
//! allowed, escape VCs that always offer a way on) is checked by Duato's condition instead: the escape
//! sub-network's *extended* channel dependency graph is acyclic. Its edges are the direct dependencies
//! between escape VCs and the indirect ones: escape VC a, then only adaptive VCs, then escape VC b, all
//! asked for by packets for one destination (Duato, IEEE TPDS 4(12), 1993). The walks below collect
//! each destination's dependencies and `escape_dependencies` adds what they imply.
//!
//! For each destination the checker explores every state (router, input port, input VC) a packet
//! for it can reach from any injection VC, following *all* candidates the routing returns, so it is
//! exact for deterministic routings and conservative (all choices) for adaptive ones. It walks every
//! route variant (O4's routes, a torus tie's two directions, a dragonfly's intermediate groups), and on
//! a dragonfly one terminal per router (`Routing::checks_destination`: the routes depend on the
//! destination's router only). Networks with
//! more than `MAX_CHECKED_NODES` terminals are not checked (the cost grows as nodes² · radix · VCs).

use crate::error::Error;
use crate::packet::{Dest, Header};
use crate::routing::{At, Candidates, Routing};
use crate::topology::{PortLink, Topology};

pub const MAX_CHECKED_NODES: usize = 4096;
/// Source routes are walked per source, destination and variant: a smaller limit.
pub const MAX_CHECKED_SOURCE_ROUTED: usize = 1024;

/// A virtual channel leaving (router, port): index port_index * vcs + vc.
fn vc_node(topo: &Topology, vcs: u8, router: u32, port: u8, vc: u8) -> usize {
    topo.port_index(router, port) * vcs as usize + vc as usize
}

fn describe(topo: &Topology, vcs: u8, node: usize) -> String {
    let (idx, vc) = (node / vcs as usize, node % vcs as usize);
    let router = topo.port_base.partition_point(|&b| b as usize <= idx) - 1;
    let port = idx - topo.port_base[router] as usize;
    format!("{} vc {vc}", topo.channel_name(router as u32, port as u8).unwrap_or_default())
}

pub fn verify(topo: &Topology, routing: &Routing, vcs: u8, acyclic: bool) -> Result<(), Error> {
    let limit = if routing.is_source_routed() { MAX_CHECKED_SOURCE_ROUTED } else { MAX_CHECKED_NODES };
    if topo.terminals() > limit {
        return Ok(());
    }
    let radix = topo.max_radix();
    let states = topo.routers() * radix * vcs as usize;
    let state = |r: u32, p: u8, v: u8| (r as usize * radix + p as usize) * vcs as usize + v as usize;
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); topo.links.len() * vcs as usize];
    // Per state: the walk that last saw it and whether it is on the DFS stack (1) or done (2).
    let mut seen = vec![(u32::MAX, 0u8); states];
    let mut cands = Candidates::default();
    let escape = routing.escape_vcs();
    // (Duato's extended graph over the escape VCs; this walk's dependencies; a visit stamp per VC)
    let mut escape_deps: Vec<Vec<u32>> = vec![Vec::new(); if escape.is_some() { deps.len() } else { 0 }];
    let mut walk_deps: Vec<(u32, u32)> = Vec::new();
    let (mut stamp, mut searches) = (vec![0u64; escape_deps.len()], 0u64);
    let terminals = topo.terminals() as u32;
    let mut walk = 0u32;
    for dst in (0..terminals).filter(|&d| routing.checks_destination(d)) {
        // A destination-routed packet's route depends only on where it is: one walk per destination
        // from every source. A source route also depends on its source and variant.
        let groups: Vec<(Option<u32>, u8)> = if routing.is_source_routed() {
            let mut classes = std::collections::BTreeMap::new();
            for s in 0..terminals {
                classes.entry(routing.source_class(s)).or_insert(s);
            }
            classes.into_values().flat_map(|s| (0..routing.variants()).map(move |v| (Some(s), v))).collect()
        } else {
            (0..routing.variants()).map(|v| (None, v)).collect()
        };
        for (src, variant) in groups {
            walk += 1;
            let header = Header::new(src.unwrap_or(0), Dest::One(dst), 0, 1, 0, false, variant);
            let (lo, hi) = routing.injection_vcs(&header);
            let starts: Vec<(u32, u8)> = match src {
                Some(s) => vec![topo.terminal_at[s as usize]],
                None => topo.terminal_at.clone(),
            };
            for (r0, p0) in starts {
                for v0 in lo..hi {
                    // Iterative DFS over (router, in_port, in_vc) with the hop count; the stack holds
                    // (state, hops, expanded?).
                    let mut stack = vec![(r0, p0, v0, 0u16, false)];
                    while let Some((r, p, v, hops, expanded)) = stack.pop() {
                        let s = state(r, p, v);
                        if expanded {
                            seen[s] = (walk, 2);
                            continue;
                        }
                        match seen[s] {
                            (w, 2) if w == walk => continue,
                            (w, 1) if w == walk => {
                                return Err(Error::Routing {
                                    message: format!(
                                        "{}: packets for terminal {dst} can loop through router {r} in-port {p} vc {v}",
                                        routing.name()
                                    ),
                                })
                            }
                            _ => {}
                        }
                        seen[s] = (walk, 1);
                        stack.push((r, p, v, hops, true));
                        let at = At { router: r, in_port: p, in_vc: v, hops };
                        routing.route(at, &header, &mut cands);
                        if cands.is_empty() {
                            return Err(Error::Routing {
                                message: format!("{}: no route from router {r} to terminal {dst}", routing.name()),
                            });
                        }
                        if let Some((lo, hi)) = escape {
                            // (Duato: a packet anywhere may always go on by an escape VC)
                            let escapes = cands.as_slice().iter().any(|c| c.vc_lo < hi && lo < c.vc_hi);
                            if !escapes {
                                return Err(Error::Routing {
                                    message: format!(
                                        "{}: router {r} offers packets for terminal {dst} no escape virtual channel",
                                        routing.name()
                                    ),
                                });
                            }
                        }
                        let incoming = match topo.input(r, p) {
                            PortLink::Router { router: up, port: up_port } => Some((up, up_port)),
                            _ => None,
                        };
                        for c in cands.as_slice() {
                            match topo.link(r, c.port) {
                                PortLink::Terminal { terminal } if terminal == dst => {}
                                PortLink::Terminal { terminal } => {
                                    return Err(Error::Routing {
                                        message: format!(
                                            "{}: a packet for terminal {dst} is ejected at terminal {terminal}",
                                            routing.name()
                                        ),
                                    })
                                }
                                PortLink::Unused => {
                                    return Err(Error::Routing {
                                        message: format!(
                                            "{}: router {r} routes to unconnected port {}",
                                            routing.name(),
                                            c.port
                                        ),
                                    })
                                }
                                PortLink::Router { router: to, port: in_port } => {
                                    for w in c.vc_lo..c.vc_hi {
                                        if let Some((up, up_port)) = incoming {
                                            let from = vc_node(topo, vcs, up, up_port, v);
                                            let to_node = vc_node(topo, vcs, r, c.port, w) as u32;
                                            if !deps[from].contains(&to_node) {
                                                deps[from].push(to_node);
                                            }
                                            if escape.is_some() {
                                                walk_deps.push((from as u32, to_node));
                                            }
                                        }
                                        if seen[state(to, in_port, w)] != (walk, 2) {
                                            stack.push((to, in_port, w, hops + 1, false));
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if let Some((lo, hi)) = escape {
                let is_escape = |node: u32| (lo..hi).contains(&((node % vcs as u32) as u8));
                escape_dependencies(&mut walk_deps, is_escape, &mut stamp, &mut searches, &mut escape_deps);
            }
        }
    }
    super::fan_out::check(topo, routing, vcs, &mut deps)?;
    if acyclic {
        let (graph, what) = match escape {
            Some(_) => (&escape_deps, "the escape VCs' extended channel dependency graph"),
            None => (&deps, "the channel dependency graph"),
        };
        if let Some(cycle) = find_cycle(graph) {
            let names: Vec<String> = cycle.iter().map(|&n| describe(topo, vcs, n)).collect();
            return Err(Error::Routing {
                message: format!(
                    "{}: {what} has a cycle, so the network can deadlock: {}",
                    routing.name(),
                    names.join(" -> ")
                ),
            });
        }
    }
    Ok(())
}

/// Adds to `extended` the escape-to-escape dependencies of one destination's walk, whose dependencies
/// are `walk` (emptied): a direct one, a → b, and an indirect one for every path a → adaptive VCs → b.
/// `stamp` marks the VCs a search has visited with the search's number (`searches` counts them).
fn escape_dependencies(
    walk: &mut Vec<(u32, u32)>,
    is_escape: impl Fn(u32) -> bool,
    stamp: &mut [u64],
    searches: &mut u64,
    extended: &mut [Vec<u32>],
) {
    walk.sort_unstable();
    walk.dedup();
    let after = |node: u32| {
        let lo = walk.partition_point(|&(f, _)| f < node);
        let hi = walk.partition_point(|&(f, _)| f <= node);
        walk[lo..hi].iter().map(|&(_, t)| t)
    };
    let mut stack = Vec::new();
    let mut i = 0;
    while i < walk.len() {
        let a = walk[i].0;
        i = walk.partition_point(|&(f, _)| f <= a);
        if !is_escape(a) {
            continue;
        }
        *searches += 1;
        let mark = *searches;
        stack.extend(after(a));
        while let Some(b) = stack.pop() {
            if stamp[b as usize] == mark {
                continue;
            }
            stamp[b as usize] = mark;
            if is_escape(b) {
                if !extended[a as usize].contains(&b) {
                    extended[a as usize].push(b);
                }
            } else {
                stack.extend(after(b));
            }
        }
    }
    walk.clear();
}

/// A cycle of the directed graph, if there is one (iterative three-colour DFS).
pub fn find_cycle(adj: &[Vec<u32>]) -> Option<Vec<usize>> {
    let mut color = vec![0u8; adj.len()];
    let mut parent = vec![usize::MAX; adj.len()];
    for root in 0..adj.len() {
        if color[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        color[root] = 1;
        while let Some(&mut (u, ref mut i)) = stack.last_mut() {
            if *i < adj[u].len() {
                let w = adj[u][*i] as usize;
                *i += 1;
                match color[w] {
                    0 => {
                        color[w] = 1;
                        parent[w] = u;
                        stack.push((w, 0));
                    }
                    1 => {
                        let mut path = Vec::new();
                        let mut x = u;
                        while x != w {
                            path.push(x);
                            x = parent[x];
                        }
                        path.reverse();
                        let mut cycle = vec![w];
                        cycle.extend(path);
                        cycle.push(w);
                        return Some(cycle);
                    }
                    _ => {}
                }
            } else {
                color[u] = 2;
                stack.pop();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cycles() {
        assert!(find_cycle(&[vec![1], vec![2], vec![]]).is_none());
        let c = find_cycle(&[vec![1], vec![2], vec![0]]).unwrap();
        assert_eq!(c.first(), c.last());
        assert_eq!(c.len(), 4);
    }

    #[test]
    fn escape_dependencies_follow_adaptive_detours() {
        // VCs of 2 classes: odd nodes escape, even adaptive. One destination's packets go escape 1 →
        // adaptive 2 → escape 3 and escape 3 → adaptive 4 → escape 1: no direct dependency between the
        // escape VCs, an indirect cycle 1 → 3 → 1.
        let is_escape = |n: u32| n % 2 == 1;
        let mut extended = vec![Vec::new(); 6];
        let mut stamp = vec![0; 6];
        let mut searches = 0;
        let mut walk = vec![(1, 2), (2, 3), (3, 4), (4, 1)];
        escape_dependencies(&mut walk, is_escape, &mut stamp, &mut searches, &mut extended);
        assert!(walk.is_empty());
        assert_eq!(extended[1], vec![3]);
        assert_eq!(extended[3], vec![1]);
        assert!(find_cycle(&extended).is_some());
        // the same channels used for two destinations, one path each: no path of one destination
        // closes the cycle
        let mut extended = vec![Vec::new(); 6];
        for mut walk in [vec![(1, 2), (2, 3)], vec![(3, 5), (0, 4)]] {
            escape_dependencies(&mut walk, is_escape, &mut stamp, &mut searches, &mut extended);
        }
        assert_eq!(extended[1], vec![3]);
        assert_eq!(extended[3], vec![5]);
        assert!(find_cycle(&extended).is_none());
    }
}
