//! Multidestination routing on k-ary n-trees (study 000 §3.2–3.3): reachability strings of every port,
//! the count field, and the build-time check (each destination exactly once, dependencies acyclic).

use flitcast_core::check::routes;
use flitcast_core::routing::Routing;
use flitcast_core::topology::{PortLink, Topology};
use flitcast_core::Scenario;
use serde_json::json;

fn tree(n: u32) -> (Scenario, Topology, Routing) {
    let s = Scenario::default().set(&[
        ("network.topology", json!("fat_tree")),
        ("network.k", json!(4)),
        ("network.n", json!(n)),
        ("routing.algorithm", json!("adaptive")),
        ("routing.selection", json!("first_free")),
    ]);
    let topo = s.topology().unwrap();
    let vcs = s.switch.model.vcs() as u8;
    let routing = Routing::build(&s.routing.algorithm, vcs, &topo).unwrap().with_multicast(&topo).unwrap();
    (s, topo, routing)
}

/// Base-4 digit `i` of `x`.
fn digit(x: u32, i: u32) -> u32 {
    (x / 4u32.pow(i)) % 4
}

#[test]
fn reachability_strings_match_the_tree_for_16_64_and_256_nodes() {
    for n in [2, 3, 4] {
        let (_, topo, routing) = tree(n);
        let m = routing.multicast().unwrap();
        let per_level = 4u32.pow(n - 1);
        for r in 0..topo.routers() as u32 {
            let (l, w) = (r / per_level, r % per_level);
            for j in 0..8u8 {
                let reach: Vec<u32> = (0..topo.terminals() as u32)
                    .filter(|&t| m.reach_of(&topo, r, j)[t as usize / 64] & (1 << (t % 64)) != 0)
                    .collect();
                // Down port j of ⟨w, l⟩ reaches the nodes p with p_l = j and p_{i+1} = w_i for i ≥ l.
                let expected: Vec<u32> = if j < 4 {
                    (0..topo.terminals() as u32)
                        .filter(|&p| digit(p, l) == j as u32 && (l..n - 1).all(|i| digit(p, i + 1) == digit(w, i)))
                        .collect()
                } else {
                    Vec::new()
                };
                assert_eq!(reach, expected, "{n}-tree router {r} (level {l}) port {j}");
                let up = m.up_ports(r) & (1 << j) != 0;
                assert_eq!(up, j >= 4 && l + 1 < n, "router {r} port {j} up?");
            }
        }
    }
}

#[test]
fn the_count_field_is_the_lca_stage_of_source_and_all_destinations() {
    let (_, _, routing) = tree(3);
    let words = |members: &[u32]| {
        let mut w = [0u64; 1];
        for &t in members {
            w[0] |= 1 << t;
        }
        w
    };
    assert_eq!(routing.turn(0, &words(&[1, 2, 3])), Some(0), "same leaf");
    assert_eq!(routing.turn(0, &words(&[1, 5])), Some(1), "another leaf of the same level-1 subtree");
    assert_eq!(routing.turn(0, &words(&[1, 5, 63])), Some(2), "across the top");
}

#[test]
fn build_time_check_passes_for_multicast_on_trees() {
    for n in [2, 3, 4] {
        let (s, topo, routing) = tree(n);
        routes::verify(&topo, &routing, s.switch.model.vcs() as u8, true).unwrap();
    }
}

#[test]
fn multicast_routing_is_refused_where_it_cannot_work() {
    let s = Scenario::default().set(&[("network.topology", json!("torus"))]); // an 8x8 torus with dateline DOR
    let topo = s.topology().unwrap();
    let vcs = s.switch.model.vcs() as u8;
    let err = Routing::build(&s.routing.algorithm, vcs, &topo).unwrap().with_multicast(&topo).unwrap_err().to_string();
    assert!(err.contains("bidirectional MINs"), "{err}");
    // every up port of a tree leads to a router one level up
    let (_, topo, routing) = tree(2);
    for r in 0..4u32 {
        for p in flitcast_core::bitset::ones(routing.multicast().unwrap().up_ports(r)) {
            assert!(matches!(topo.link(r, p as u8), PortLink::Router { router, .. } if router >= 4));
        }
    }
}
