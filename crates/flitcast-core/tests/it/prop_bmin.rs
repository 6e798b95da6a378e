//! Source routes on the BMINs (study 002 §3, §4.2): every path a route allows is minimal and goes
//! up to an LCA and then only down (never down then up again; "level" = hops from the nearest node
//! switch); far pairs of the 128-node network
//! have 64 adaptive routes and exactly one oblivious route; O4 spreads a pair's packets over
//! exactly four routes, round robin.

use flitcast_core::packet::{Dest, Header};
use flitcast_core::routing::source_route::ObliviousTable;
use flitcast_core::routing::{At, Candidates, Routing};
use flitcast_core::topology::{PortLink, Topology};
use flitcast_core::Scenario;
use serde_json::{json, Value};

/// The default scenario on the network `network` (a `network` table) routed by `algorithm` (adaptive
/// with first-free selection).
fn scenario(network: Value, algorithm: &str) -> Scenario {
    let routing = if algorithm == "adaptive" {
        json!({"algorithm": algorithm, "selection": "first_free"})
    } else {
        json!({"algorithm": algorithm})
    };
    Scenario::of(json!({"network": network, "routing": routing}))
}

fn sp128(algorithm: &str) -> Scenario {
    scenario(json!({"topology": "sp128"}), algorithm)
}

fn packet(src: u32, dst: u32, variant: u8) -> Header {
    Header::new(src, Dest::One(dst), 0, 1, 0, false, variant)
}

/// Every path from `src` to `dst` the routing allows: (routers visited, level sequence) per path.
fn paths(topo: &Topology, routing: &Routing, src: u32, dst: u32, variant: u8) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let (r0, p0) = topo.terminal_at[src as usize];
    let mut stack = vec![(r0, p0, vec![r0])];
    let mut cands = Candidates::default();
    while let Some((r, in_port, path)) = stack.pop() {
        let pk = packet(src, dst, variant);
        let hops = path.len() as u16 - 1;
        routing.route(At { router: r, in_port, in_vc: 0, hops }, &pk, &mut cands);
        for c in cands.as_slice() {
            match topo.link(r, c.port) {
                PortLink::Terminal { terminal } => {
                    assert_eq!(terminal, dst);
                    out.push(path.clone());
                }
                PortLink::Router { router, port } => {
                    let mut next = path.clone();
                    next.push(router);
                    assert!(next.len() <= 16, "path too long");
                    stack.push((router, port, next));
                }
                PortLink::Unused => panic!("unconnected port"),
            }
        }
    }
    out
}

fn check_network(s: &Scenario) {
    let topo = s.topology().unwrap();
    let routing = s.routing(&topo).unwrap();
    let level = topo.levels();
    let terminals = topo.terminals() as u32;
    // Hop distances between node switches, for minimality.
    for src in 0..terminals {
        for dst in 0..terminals {
            let all = paths(&topo, &routing, src, dst, 0);
            assert!(!all.is_empty());
            let shortest = all.iter().map(Vec::len).min().unwrap();
            for path in &all {
                assert_eq!(path.len(), shortest, "{src}->{dst}: not minimal");
                // Up (the 128-node network also crosses between its ISB chips at the top), then
                // only down: once a hop goes down, no later hop goes up.
                let levels: Vec<i64> = path.iter().map(|&r| level[r as usize] as i64).collect();
                let steps: Vec<i64> = levels.windows(2).map(|w| w[1] - w[0]).collect();
                if let Some(first_down) = steps.iter().position(|&d| d < 0) {
                    assert!(steps[first_down..].iter().all(|&d| d < 0), "{src}->{dst} {levels:?}: down then up");
                }
            }
        }
    }
}

#[test]
fn routes_are_minimal_and_turn_around_once() {
    check_network(&scenario(json!({"topology": "sp16"}), "adaptive"));
    check_network(&sp128("adaptive"));
    check_network(&scenario(json!({"topology": "fat_tree", "k": 4, "n": 2}), "adaptive"));
    check_network(&scenario(json!({"topology": "fat_tree", "k": 4, "n": 3}), "adaptive"));
}

#[test]
fn far_pairs_have_64_adaptive_routes_and_one_oblivious_route() {
    for (algorithm, routes) in [("adaptive", 64), ("o1", 1)] {
        let s = sp128(algorithm);
        let topo = s.topology().unwrap();
        let routing = s.routing(&topo).unwrap();
        for (src, dst) in [(0, 127), (5, 70), (100, 3)] {
            assert_eq!(paths(&topo, &routing, src, dst, 0).len(), routes, "{algorithm} {src}->{dst}");
        }
    }
}

#[test]
fn o4_uses_exactly_four_routes_round_robin() {
    let s = sp128("o4");
    let topo = s.topology().unwrap();
    let routing = s.routing(&topo).unwrap();
    assert_eq!(routing.variants(), 4);
    for (src, dst) in [(0, 127), (0, 40), (0, 15)] {
        let routes: Vec<Vec<u32>> = (0..4)
            .map(|v| {
                let p = paths(&topo, &routing, src, dst, v);
                assert_eq!(p.len(), 1, "each O4 route is one path");
                p[0].clone()
            })
            .collect();
        let mut distinct = routes.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 4, "{src}->{dst}: {routes:?}");
    }
    // In a run, a source cycles through the four: with all of node 0's traffic going to node 127,
    // its four first-stage up links carry a quarter each.
    let s = s.set(&[
        ("workload.pattern", json!("hotspot")),
        ("workload.hotspot_nodes", json!([127])),
        ("workload.hotspot_fraction", json!(1.0)),
        ("workload.load", json!(0.02)),
        ("run.warmup_cycles", json!(0)),
        ("run.measure_cycles", json!(40_000)),
    ]);
    let r = flitcast_core::run(&s).unwrap();
    let (chip, _) = topo.terminal_at[0];
    let up: Vec<f64> = (4..8u8)
        .map(|p| {
            let name = topo.channel_name(chip, p).unwrap();
            r.channel_utilisation[r.channel_names.iter().position(|n| *n == name).unwrap()]
        })
        .collect();
    let mean = up.iter().sum::<f64>() / 4.0;
    assert!(up.iter().all(|&u| (u - mean).abs() < 0.15 * mean), "{up:?}");
}

/// Source–destination pairs whose O1 route uses each channel, at most.
fn busiest_channel(table: ObliviousTable) -> usize {
    let s = sp128("o1").set(&[("routing.oblivious_table", json!(table.name()))]);
    let topo = s.topology().unwrap();
    let routing = s.routing(&topo).unwrap();
    let mut pairs = vec![0usize; topo.links.len()];
    for src in 0..128 {
        for dst in 0..128 {
            let path = &paths(&topo, &routing, src, dst, 0)[0];
            let mut r = path[0];
            for &next in &path[1..] {
                let p = (0..topo.radix(r) as u8)
                    .find(|&p| matches!(topo.link(r, p), PortLink::Router { router, .. } if router == next))
                    .unwrap();
                pairs[topo.port_index(r, p)] += 1;
                r = next;
            }
        }
    }
    *pairs.iter().max().unwrap()
}

#[test]
fn balanced_oblivious_tables_spread_the_pairs_over_the_links() {
    // Every ejection link carries the 127 pairs ending at its node: no channel needs more than
    // about that. Balanced tables get close; d-mod-k on this network funnels all traffic into a
    // board through one chip.
    let balanced = busiest_channel(ObliviousTable::Balanced);
    let d_mod_k = busiest_channel(ObliviousTable::DModK);
    assert!(balanced <= 140, "balanced: {balanced} pairs on the busiest channel");
    assert!(d_mod_k > 250, "d-mod-k: {d_mod_k}");
}
