//! Slim Fly (`topology/slim_fly.rs`, docs/models/slim_fly.md) under minimal and Valiant routing
//! (`routing/graph_routing.rs`): every minimal candidate is a hop one closer, every destination is reached
//! and the build-time check passes (one VC class per hop); a zero-load message takes the closed form
//! with H = its routers' distance (at most 2) under minimal routing and at most 4 hops under Valiant;
//! past saturation neither deadlocks; and a run split over two threads gives one thread's result to the
//! bit.

use flitcast_core::check::routes::verify;
use flitcast_core::routing::{At, Candidates, Routing};
use flitcast_core::topology::{distances, PortLink};
use flitcast_core::{Scenario, Simulation};
use serde_json::json;

use crate::common::saturated;

/// A Slim Fly of the prime `q` with `p` terminals per router, routed by `algorithm` on `vcs` VCs.
fn slim_fly(q: u32, p: u32, algorithm: &str, vcs: u8) -> Scenario {
    Scenario::of(json!({
        "network": {"topology": "slim_fly", "q": q, "p": p},
        "routing": {"algorithm": algorithm},
        "switch": {"vcs": vcs},
        "run": {"warmup_cycles": 500, "measure_cycles": 3_000, "drain_max_cycles": 20_000},
    }))
}

#[test]
fn routes_are_minimal_connected_and_deadlock_free() {
    for q in [3, 5, 7] {
        for (algorithm, vcs) in [("minimal", 2), ("minimal", 3), ("valiant", 4)] {
            let s = slim_fly(q, 2, algorithm, vcs);
            let topo = s.topology().unwrap();
            let routing = Routing::build(&s.routing.algorithm, vcs, &topo).unwrap();
            let at = format!("q = {q}, {algorithm}, {vcs} VCs");
            // every destination over every path (Valiant: from each source router, every intermediate);
            // the channel dependency graph acyclic
            verify(&topo, &routing, vcs, true).unwrap_or_else(|e| panic!("{at}: {e}"));
            if algorithm == "minimal" {
                let hops: Vec<Vec<u32>> = (0..topo.routers() as u32)
                    .map(|r| distances::from_router(&topo, r).iter().map(|d| d.unwrap().hops).collect())
                    .collect();
                let mut out = Candidates::default();
                for r in 0..topo.routers() as u32 {
                    for dst in 0..topo.terminals() as u32 {
                        let header = flitcast_core::packet::Header::new(
                            0,
                            flitcast_core::packet::Dest::One(dst),
                            0,
                            1,
                            0,
                            false,
                            0,
                        );
                        out.clear();
                        routing.route(At { router: r, in_port: 0, in_vc: 0, hops: 0 }, &header, &mut out);
                        let target = topo.terminal_at[dst as usize].0;
                        assert!(!out.is_empty(), "{at}: no candidate at {r} for {dst}");
                        for c in out.as_slice() {
                            let ok = match topo.link(r, c.port) {
                                PortLink::Router { router, .. } => {
                                    hops[r as usize][target as usize] > 0
                                        && hops[router as usize][target as usize] + 1
                                            == hops[r as usize][target as usize]
                                }
                                PortLink::Terminal { terminal } => terminal == dst,
                                PortLink::Unused => false,
                            };
                            assert!(ok, "{at}: router {r} for {dst}: {c:?} is not a minimal hop");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn zero_load_latency_is_the_closed_form_of_the_routers_distance() {
    let (d, l, f) = (2u64, 3u64, 4u64);
    for (algorithm, vcs) in [("minimal", 2), ("valiant", 4)] {
        let s = slim_fly(5, 2, algorithm, vcs).set(&[
            ("switch.router_delay_cycles", json!(d)),
            ("network.channel_latency_cycles", json!(l)),
            ("workload.packet_flits", json!(f)),
            ("workload.message_flits", json!(f)),
        ]);
        let topo = s.topology().unwrap();
        for (a, b) in [(0, 1), (0, 37), (5, 90), (99, 3), (42, 42)] {
            let distance = distances::from_router(&topo, topo.terminal_at[a].0)[topo.terminal_at[b].0 as usize]
                .unwrap()
                .hops as u64;
            let p = Simulation::build(&s).unwrap().probe(a as u32, b as u32).unwrap();
            let hops = p.hops as u64;
            match algorithm {
                "minimal" => assert_eq!(hops, distance, "{a} → {b}"),
                _ => assert!(hops <= 4 && hops >= distance, "{a} → {b}: {hops} hops"),
            }
            // (the closed form: every router on the way and every channel, then the body's flits)
            assert_eq!(p.latency, (hops + 1) * (d + l) + l + (f - 1), "{algorithm} {a} → {b}");
        }
    }
}

#[test]
fn neither_routing_deadlocks_beyond_saturation() {
    for (algorithm, vcs) in [("minimal", 2), ("valiant", 4)] {
        for pattern in ["uniform", "random_permutation"] {
            let s = saturated(&slim_fly(5, 4, algorithm, vcs)).set(&[("workload.pattern", json!(pattern))]);
            let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{algorithm} {pattern}: {e}"));
            assert!(r.saturated, "{algorithm} {pattern}: load 1.0 should saturate");
        }
    }
}

#[test]
fn two_threads_give_one_threads_result_to_the_bit() {
    let fingerprint = |s: &Scenario, threads: u32| {
        let r = flitcast_core::run(&s.set(&[("run.threads", json!(threads))])).unwrap();
        serde_json::to_string(&r).unwrap()
    };
    for (algorithm, vcs) in [("minimal", 2), ("valiant", 4)] {
        let s = slim_fly(5, 4, algorithm, vcs).set(&[("workload.load", json!(0.4))]);
        assert_eq!(fingerprint(&s, 1), fingerprint(&s, 2), "{algorithm}");
    }
}
