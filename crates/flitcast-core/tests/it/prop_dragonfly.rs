//! Property tests on random small dragonflies (p, a, h, g, arrangement): under each of `minimal`,
//! `valiant` and `ugal_l` every destination is reachable from every source over every path the
//! routing may take and the channel dependency graph has no cycle (the build-time check, which walks
//! every intermediate group and both of UGAL-L's first hops); minimal routes are minimal (a lone
//! packet's hops equal the one-global-hop distance read off the graph).

use flitcast_core::check::routes::verify;
use flitcast_core::routing::Routing;
use flitcast_core::Simulation;
use proptest::prelude::*;
use serde_json::json;

use crate::dragonfly::dragonfly;

fn sizes() -> impl Strategy<Value = (u32, u32, u32, u32, &'static str)> {
    (1u32..4, 1u32..6, 1u32..4, any::<u32>(), prop_oneof![Just("absolute"), Just("palm_tree")])
        .prop_map(|(p, a, h, g, arrangement)| (p, a, h, 2 + g % (a * h), arrangement))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn every_routing_reaches_everywhere_without_cycles_and_minimal_is_minimal(
        (p, a, h, g, arrangement) in sizes(), src_seed in any::<u32>(), dst_seed in any::<u32>()
    ) {
        for routing in ["minimal", "valiant", "ugal_l"] {
            let s = dragonfly(p, a, h, g, arrangement, routing);
            let topo = s.topology().unwrap();
            let vcs = s.switch.model.vcs() as u8;
            let r = Routing::build(&s.routing.algorithm, vcs, &topo).unwrap();
            verify(&topo, &r, vcs, true).map_err(|e| TestCaseError::fail(format!("{routing}: {e}")))?;
        }
        // Minimal hops from the graph: the one channel joining the two groups, and a local hop at
        // either end where the route does not start or end on it.
        let s = dragonfly(p, a, h, g, arrangement, "minimal").set(&[("routing.check_deadlock_free", json!(false))]);
        let topo = s.topology().unwrap();
        let nodes = p * a * g;
        let (src, dst) = (src_seed % nodes, dst_seed % nodes);
        let (r, d) = (src / p, dst / p);
        let expect = if r / a == d / a {
            u32::from(r != d)
        } else {
            let ends = (0..topo.routers() as u32).flat_map(|x| (0..topo.radix(x) as u8).map(move |q| (x, q)));
            let (u, v) = ends
                .filter_map(|(x, q)| match topo.link(x, q) {
                    flitcast_core::topology::PortLink::Router { router, .. } => Some((x, router)),
                    _ => None,
                })
                .find(|&(x, y)| x / a == r / a && y / a == d / a)
                .expect("every pair of groups is joined");
            u32::from(r != u) + 1 + u32::from(v != d)
        };
        let probe = Simulation::build(&s).unwrap().probe(src, dst).unwrap();
        prop_assert_eq!(probe.hops, expect);
    }
}
