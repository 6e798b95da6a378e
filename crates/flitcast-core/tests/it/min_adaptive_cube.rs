//! Minimal adaptive routing on meshes and tori (`routing/min_adaptive_cube.rs`, docs/models/min_adaptive.md):
//! on random small meshes and tori every route choice is a hop that shortens the way, every destination
//! is reached, the escape VCs' extended channel dependency graph is acyclic (Duato's condition, checked at
//! build) and a probe takes the minimal hop count; past saturation it never deadlocks; it carries more
//! than dimension-order routing on the transpose of an 8x8 mesh; and a run split over two threads gives
//! one thread's result to the bit.

use flitcast_core::check::routes::verify;
use flitcast_core::routing::{At, Candidates, Routing};
use flitcast_core::topology::{PortLink, Topology};
use flitcast_core::{Scenario, Simulation};
use proptest::prelude::*;
use serde_json::json;

use crate::common::cube_dir;

/// A `k`-ary `n`-mesh, or torus (`wrap`, one-way links if `one_way`), routed by `algorithm` on `vcs`
/// virtual channels, short run.
fn cube(k: u32, n: u32, wrap: bool, one_way: bool, algorithm: &str, vcs: u8) -> Scenario {
    cube_dir(if wrap { "torus" } else { "mesh" }, k, n, one_way).set(&[
        ("routing.algorithm", json!(algorithm)),
        ("switch.vcs", json!(vcs)),
        ("run.warmup_cycles", json!(500)),
        ("run.measure_cycles", json!(3_000)),
    ])
}

/// Hops between routers `a` and `b` of a `k`-ary `n`-cube, the shorter way round on a torus.
fn distance(k: u32, n: u32, wrap: bool, one_way: bool, a: u32, b: u32) -> u32 {
    let (mut x, mut y, mut h) = (a, b, 0);
    for _ in 0..n {
        let (c, t) = (x % k, y % k);
        let forward = (t + k - c) % k;
        h += match (wrap, one_way) {
            (false, _) => c.abs_diff(t),
            (true, true) => forward,
            (true, false) => forward.min(k - forward),
        };
        (x, y) = (x / k, y / k);
    }
    h
}

/// Every candidate is a hop to a router one hop closer, or at the destination's router its terminal.
fn every_choice_is_minimal(topo: &Topology, routing: &Routing, dist: impl Fn(u32, u32) -> u32) -> Result<(), String> {
    let mut out = Candidates::default();
    for variant in 0..routing.variants() {
        let header =
            |dst| flitcast_core::packet::Header::new(0, flitcast_core::packet::Dest::One(dst), 0, 1, 0, false, variant);
        for r in 0..topo.routers() as u32 {
            for dst in 0..topo.terminals() as u32 {
                out.clear();
                routing.route(At { router: r, in_port: 0, in_vc: 0, hops: 0 }, &header(dst), &mut out);
                let here = dist(r, dst);
                if out.is_empty() {
                    return Err(format!("no candidate at router {r} for {dst}"));
                }
                for c in out.as_slice() {
                    let ok = match topo.link(r, c.port) {
                        PortLink::Router { router, .. } => here > 0 && dist(router, dst) == here - 1,
                        PortLink::Terminal { terminal } => here == 0 && terminal == dst,
                        PortLink::Unused => false,
                    };
                    if !ok || c.vc_lo >= c.vc_hi || c.vc_hi > routing.vcs() {
                        return Err(format!("router {r} for {dst}: {c:?} is not a minimal hop"));
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn mesh_and_torus_routes_are_minimal_connected_and_deadlock_free(
        k in 2u32..7, n in 1u32..4, wrap in any::<bool>(), one_way in any::<bool>(), extra in 0u8..2, seed in any::<u32>()
    ) {
        let one_way = wrap && one_way;
        let vcs = if wrap { 3 } else { 2 } + extra;
        let s = cube(k, n, wrap, one_way, "min_adaptive", vcs);
        let topo = s.topology().unwrap();
        let routing = Routing::build(&s.routing.algorithm, vcs, &topo).unwrap();
        prop_assert_eq!(every_choice_is_minimal(&topo, &routing, |a, b| distance(k, n, wrap, one_way, a, b)), Ok(()));
        // every destination reached over every path; the escape VCs' extended dependency graph acyclic
        prop_assert_eq!(verify(&topo, &routing, vcs, true).map_err(|e| e.to_string()), Ok(()));
        let nodes = topo.terminals() as u32;
        let (a, b) = (seed % nodes, seed.rotate_left(16) % nodes);
        let p = Simulation::build(&s).unwrap().probe(a, b).unwrap();
        prop_assert_eq!(p.hops, distance(k, n, wrap, one_way, a, b));
    }
}

#[test]
fn it_never_deadlocks_beyond_saturation() {
    for (wrap, vcs) in [(false, 2), (false, 3), (true, 3), (true, 4)] {
        for pattern in ["uniform", "transpose", "random_permutation"] {
            let s = cube(8, 2, wrap, false, "min_adaptive", vcs).set(&[
                ("switch.buffer_flits", json!(4)),
                ("workload.pattern", json!(pattern)),
                ("workload.load", json!(1.0)),
                ("run.measure_cycles", json!(4_000)),
                ("run.drain_max_cycles", json!(4_000)),
                ("run.watchdog_cycles", json!(1_000)),
            ]);
            let at = format!("wrap={wrap} vcs={vcs} {pattern}");
            let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(r.saturated, "{at}: load 1.0 should saturate");
        }
    }
}

#[test]
fn it_carries_more_than_dimension_order_on_the_transpose_of_a_mesh() {
    // (transpose loads DOR's turn routers; minimal adaptive spreads it over both minimal quadrant paths)
    let accepted = |algorithm: &str| {
        let s = cube(8, 2, false, false, algorithm, 2).set(&[
            ("workload.pattern", json!("transpose")),
            ("workload.load", json!(0.5)),
            ("run.saturation_stop", json!("off")),
        ]);
        flitcast_core::run(&s).unwrap().accepted_load
    };
    let (dor, adaptive) = (accepted("dor"), accepted("min_adaptive"));
    assert!(adaptive > 1.2 * dor, "min_adaptive {adaptive} against dor {dor}");
}

#[test]
fn two_threads_give_one_threads_result_to_the_bit() {
    let fingerprint = |s: &Scenario, threads: u32| {
        let r = flitcast_core::run(&s.set(&[("run.threads", json!(threads))])).unwrap();
        serde_json::to_string(&r).unwrap()
    };
    for wrap in [false, true] {
        for (load, pattern) in [(0.4, "uniform"), (1.0, "random_permutation")] {
            let s = cube(6, 2, wrap, false, "min_adaptive", 4)
                .set(&[("workload.load", json!(load)), ("workload.pattern", json!(pattern))]);
            assert_eq!(fingerprint(&s, 1), fingerprint(&s, 2), "wrap={wrap} load {load} {pattern}");
        }
    }
}
