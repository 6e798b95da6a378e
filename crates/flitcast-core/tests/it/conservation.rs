//! Nothing is lost or duplicated: every run checks flit conservation at its end and that each packet
//! reaches its own destination with all its flits (the engine returns an error otherwise). Here we
//! drive many shapes, flow controls and patterns through it and check what comes out.

use serde_json::json;

use crate::common::{cube, cube_dir};

#[test]
fn every_measured_message_is_delivered_once_below_saturation() {
    let patterns = ["uniform", "bit_reversal", "bit_complement", "transpose", "shuffle", "tornado", "neighbor"];
    for (topo, uni) in [("mesh", false), ("torus", false), ("torus", true)] {
        for fc in ["wormhole", "vct"] {
            for pattern in patterns {
                let s = cube_dir(topo, 4, 2, uni).set(&[
                    ("switch.flow_control", json!(fc)),
                    ("workload.pattern", json!(pattern)),
                    ("workload.load", json!(0.08)),
                    ("workload.message_flits", json!(12)), // two packets: 8 + 4 flits
                    ("workload.arrival", json!("bernoulli")),
                ]);
                let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{topo} uni={uni} {fc} {pattern}: {e}"));
                assert!(!r.saturated, "{topo} uni={uni} {fc} {pattern}: {}", r.saturation_reason);
                assert_eq!(r.packets_measured, 2 * r.operations_measured);
                // Offered and accepted load agree within the window's statistical error.
                assert!((r.accepted_load - r.offered_load).abs() < 0.1 * r.offered_load, "{r:?}");
            }
        }
    }
}

#[test]
fn hotspot_traffic_reaches_the_hotspots() {
    let s = cube("mesh", 4, 2).set(&[
        ("workload.pattern", json!("hotspot")),
        ("workload.hotspot_nodes", json!([5])),
        ("workload.hotspot_fraction", json!(0.5)),
        ("workload.load", json!(0.05)),
    ]);
    let r = flitcast_core::run(&s).unwrap();
    // Half of all traffic ends at terminal 5: its ejection channel carries about 16 · 0.05 / 2.
    let i = r.channel_names.iter().position(|n| n.ends_with("->t5")).unwrap();
    let expect = 16.0 * 0.05 * 0.5 + 15.0 * 0.05 * 0.5 / 15.0;
    assert!((r.channel_utilisation[i] - expect).abs() < 0.1 * expect, "{} vs {expect}", r.channel_utilisation[i]);
}
