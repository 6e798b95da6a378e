//! Deadlock: the build-time check rejects cyclic channel dependencies; the watchdog stops a run in
//! which flits are stuck and names the blocked channels; the studies' mechanisms (DOR on meshes,
//! DOR with dateline classes on tori) never trip it, even far beyond saturation.

use flitcast_core::Error;
use serde_json::json;

use crate::common::{cube, cube_dir};

#[test]
fn single_vc_torus_is_rejected_at_build_time() {
    let s = cube("ring", 6, 1).with(&[("switch.vcs", json!(1))]);
    assert!(matches!(s, Err(Error::Config { key, .. }) if key == "switch.vcs"));
}

#[test]
fn cyclic_dependencies_are_found_by_the_checker() {
    use flitcast_core::check::routes::verify;
    use flitcast_core::routing::Routing;
    let s = cube("torus", 4, 2).set(&[("switch.vcs", json!(1)), ("routing.check_deadlock_free", json!(false))]);
    let topo = s.topology().unwrap();
    let routing = Routing::build(&s.routing.algorithm, s.switch.model.vcs() as u8, &topo).unwrap();
    let err = verify(&topo, &routing, 1, true).unwrap_err();
    assert!(matches!(&err, Error::Routing { message } if message.contains("cycle")), "{err}");
    // The same routing is fine with the dateline classes on two VCs.
    let s = s.set(&[("switch.vcs", json!(2))]);
    let routing = Routing::build(&s.routing.algorithm, s.switch.model.vcs() as u8, &topo).unwrap();
    verify(&topo, &routing, 2, true).unwrap();
}

/// One VC on a 4x4 torus with the routing check off, heavily loaded: it deadlocks within a few
/// thousand cycles.
pub fn deadlock_prone_torus() -> flitcast_core::Scenario {
    cube("torus", 4, 2).set(&[
        ("switch.vcs", json!(1)),
        ("switch.buffer_flits", json!(4)),
        ("routing.check_deadlock_free", json!(false)),
        ("workload.load", json!(0.9)),
        ("workload.packet_flits", json!(16)),
        ("workload.message_flits", json!(16)),
        ("run.watchdog_cycles", json!(2_000)),
    ])
}

#[test]
fn watchdog_fires_on_a_deadlock_prone_torus() {
    let s = deadlock_prone_torus();
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
        ("mesh", false, "wormhole"),
        ("torus", false, "wormhole"),
        ("torus", true, "wormhole"),
        ("torus", false, "vct"),
        ("ring", false, "wormhole"),
    ] {
        let s = cube_dir(topo, 4, 2, uni).set(&[
            ("switch.flow_control", json!(fc)),
            ("switch.buffer_flits", json!(8)),
            ("workload.load", json!(1.0)),
            ("workload.packet_flits", json!(8)),
            ("workload.message_flits", json!(8)),
            ("run.measure_cycles", json!(20_000)),
            ("run.drain_max_cycles", json!(5_000)),
            ("run.watchdog_cycles", json!(1_000)),
        ]);
        let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{topo} uni={uni} {fc}: {e}"));
        assert!(r.saturated, "{topo}: load 1.0 should saturate");
    }
}
