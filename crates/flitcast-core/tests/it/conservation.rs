//! Nothing is lost or duplicated: every run checks flit conservation at its end and that each packet
//! reaches its own destination with all its flits (the engine returns an error otherwise). Here we
//! drive many shapes, flow controls and patterns through it and check what comes out.

use flitcast_core::scenario::{ArrivalKind, FlowControl, PatternKind, TopologyKind};

use crate::common::scenario;

#[test]
fn every_measured_message_is_delivered_once_below_saturation() {
    let patterns = [
        PatternKind::Uniform,
        PatternKind::BitReversal,
        PatternKind::BitComplement,
        PatternKind::Transpose,
        PatternKind::Shuffle,
        PatternKind::Tornado,
        PatternKind::Neighbor,
    ];
    for (topo, uni) in [(TopologyKind::Mesh, false), (TopologyKind::Torus, false), (TopologyKind::Torus, true)] {
        for fc in [FlowControl::Wormhole, FlowControl::Vct] {
            for pattern in patterns {
                let mut s = scenario(topo, 4, 2);
                s.network.unidirectional = uni;
                s.switch.flow_control = fc;
                s.workload.pattern = pattern;
                s.workload.load = 0.08;
                s.workload.message_flits = 12; // two packets: 8 + 4 flits
                s.workload.arrival = ArrivalKind::Bernoulli;
                let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{topo:?} {fc:?} {pattern:?}: {e}"));
                assert!(!r.saturated, "{topo:?} {fc:?} {pattern:?}: {}", r.saturation_reason);
                assert_eq!(r.packets_measured, 2 * r.operations_measured);
                // Offered and accepted load agree within the window's statistical error.
                assert!((r.accepted_load - r.offered_load).abs() < 0.1 * r.offered_load, "{r:?}");
            }
        }
    }
}

#[test]
fn hotspot_traffic_reaches_the_hotspots() {
    let mut s = scenario(TopologyKind::Mesh, 4, 2);
    s.workload.pattern = PatternKind::Hotspot;
    s.workload.hotspot_nodes = vec![5];
    s.workload.hotspot_fraction = 0.5;
    s.workload.load = 0.05;
    let r = flitcast_core::run(&s).unwrap();
    // Half of all traffic ends at terminal 5: its ejection channel carries about 16 · 0.05 / 2.
    let i = r.channel_names.iter().position(|n| n.ends_with("->t5")).unwrap();
    let expect = 16.0 * 0.05 * 0.5 + 15.0 * 0.05 * 0.5 / 15.0;
    assert!((r.channel_utilisation[i] - expect).abs() < 0.1 * expect, "{} vs {expect}", r.channel_utilisation[i]);
}
