//! Torus ties (distance exactly k/2): balanced by default, so both directions of every ring carry the
//! same load under uniform traffic; `positive` sends them all the + way (docs/models/dor.md).

use flitcast_core::routing::dor_dateline::TorusTies;
use flitcast_core::Scenario;
use serde_json::json;

use crate::common::cube;

/// Flits carried by the + and the − router-to-router channels of a bidirectional torus (port 2d is
/// +d, port 2d + 1 is −d).
fn direction_loads(s: &Scenario) -> (f64, f64) {
    let r = flitcast_core::run(s).unwrap();
    let (mut plus, mut minus) = (0.0, 0.0);
    for (name, util) in r.channel_names.iter().zip(&r.channel_utilisation) {
        let Some((from, to)) = name.split_once("->") else { continue };
        if from.starts_with('t') || !to.starts_with('r') {
            continue; // injection or ejection channel
        }
        let port: u32 = from.rsplit_once(".p").unwrap().1.parse().unwrap();
        if port.is_multiple_of(2) {
            plus += util;
        } else {
            minus += util;
        }
    }
    (plus, minus)
}

fn uniform_torus(ties: TorusTies) -> Scenario {
    cube("torus", 8, 2).set(&[
        ("switch.vcs", json!(4)),
        ("workload.load", json!(0.3)),
        ("run.measure_cycles", json!(20_000)),
        ("routing.torus_ties", json!(ties.name())),
    ])
}

#[test]
fn balanced_ties_load_both_directions_of_a_ring_equally() {
    let (plus, minus) = direction_loads(&uniform_torus(TorusTies::Balanced));
    // Per dimension, + and − hops are 1+2+3+2 each over distances 1..7: equal.
    assert!((plus / minus - 1.0).abs() < 0.03, "+ {plus:.2} vs − {minus:.2}");
}

#[test]
fn positive_ties_load_the_positive_direction_two_thirds_more() {
    let (plus, minus) = direction_loads(&uniform_torus(TorusTies::Positive));
    // + hops 1+2+3+4 = 10 against − hops 3+2+1 = 6 per dimension: a ratio of 5/3.
    assert!((plus / minus - 5.0 / 3.0).abs() < 0.08, "+ {plus:.2} vs − {minus:.2}");
}

#[test]
fn balanced_ties_keep_the_torus_deadlock_free_and_minimal() {
    // The build-time check walks both tie directions; a ring with k even uses both.
    for (topology, k, n) in [("torus", 4, 2), ("torus", 6, 3), ("ring", 8, 1)] {
        let s = cube(topology, k, n).set(&[("workload.load", json!(0.2)), ("run.measure_cycles", json!(5_000))]);
        let r = flitcast_core::run(&s).unwrap();
        assert!(!r.saturated, "{topology} k={k}: {}", r.saturation_reason);
    }
}
