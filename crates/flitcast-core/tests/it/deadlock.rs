//! Deadlock: the build-time check rejects cyclic channel dependencies; the watchdog stops a run in
//! which flits are stuck and names the blocked channels; the studies' mechanisms (DOR on meshes,
//! DOR with dateline classes on tori) never trip it, even far beyond saturation.

use flitcast_core::scenario::{FlowControl, TopologyKind};
use flitcast_core::Error;

use crate::common::scenario;

#[test]
fn single_vc_torus_is_rejected_at_build_time() {
    let mut s = scenario(TopologyKind::Ring, 6, 1);
    s.switch.vcs = 1;
    assert!(matches!(flitcast_core::run(&s), Err(Error::Config { key, .. }) if key == "switch.vcs"));
}

#[test]
fn cyclic_dependencies_are_found_by_the_checker() {
    use flitcast_core::check::routes::verify;
    use flitcast_core::routing::Routing;
    use flitcast_core::topology::Topology;
    let mut s = scenario(TopologyKind::Torus, 4, 2);
    s.switch.vcs = 1;
    s.routing.check_deadlock_free = false;
    let topo = Topology::build(&s.network).unwrap();
    let routing = Routing::build(&s.routing, s.switch.vcs as u8, &topo).unwrap();
    let err = verify(&topo, &routing, 1, true).unwrap_err();
    assert!(matches!(&err, Error::Routing { message } if message.contains("cycle")), "{err}");
    // The same routing is fine with the dateline classes on two VCs.
    s.switch.vcs = 2;
    let routing = Routing::build(&s.routing, s.switch.vcs as u8, &topo).unwrap();
    verify(&topo, &routing, 2, true).unwrap();
}

#[test]
fn watchdog_fires_on_a_deadlock_prone_torus() {
    let mut s = scenario(TopologyKind::Torus, 4, 2);
    s.switch.vcs = 1;
    s.switch.buffer_flits = 4;
    s.routing.check_deadlock_free = false;
    s.workload.load = 0.9;
    s.workload.packet_flits = 16;
    s.workload.message_flits = 16;
    s.run.watchdog_cycles = 2_000;
    match flitcast_core::run(&s) {
        Err(Error::Deadlock { cycle, idle, blocked }) => {
            assert_eq!(idle, 2_000);
            assert!(cycle >= 2_000);
            assert!(!blocked.is_empty());
            assert!(
                blocked.iter().all(|b| b.reason.contains("no credit") || b.reason.contains("waits")),
                "{blocked:?}"
            );
        }
        other => panic!("expected a deadlock, got {other:?}"),
    }
}

#[test]
fn studied_mechanisms_never_deadlock_beyond_saturation() {
    for (topo, uni, fc) in [
        (TopologyKind::Mesh, false, FlowControl::Wormhole),
        (TopologyKind::Torus, false, FlowControl::Wormhole),
        (TopologyKind::Torus, true, FlowControl::Wormhole),
        (TopologyKind::Torus, false, FlowControl::Vct),
        (TopologyKind::Ring, false, FlowControl::Wormhole),
    ] {
        let mut s = scenario(topo, 4, 2);
        s.network.unidirectional = uni;
        s.switch.flow_control = fc;
        s.switch.buffer_flits = 8;
        s.workload.load = 1.0;
        s.workload.packet_flits = 8;
        s.workload.message_flits = 8;
        s.run.measure_cycles = 20_000;
        s.run.drain_max_cycles = 5_000;
        s.run.watchdog_cycles = 1_000;
        let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{topo:?} uni={uni} {fc:?}: {e}"));
        assert!(r.saturated, "{topo:?}: load 1.0 should saturate");
    }
}
