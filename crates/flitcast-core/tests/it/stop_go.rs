//! Stop/go flow control with slack buffers (study 001): at any link latency, a saturated network loses
//! and overwrites nothing (a buffer overflow stops the run with an error; conservation is checked at
//! the end), and a STOP threshold that leaves less slack than a round trip is refused.

use flitcast_core::scenario::{FlowControl, TopologyKind};
use flitcast_core::{Error, Scenario};

/// The study's 8×8 bidirectional Manhattan Street Network (a torus), 250-flit slack buffers, links of
/// `latency` cycles.
fn bmsn(latency: u32) -> Scenario {
    let mut s = Scenario::default();
    s.network.topology = TopologyKind::Torus;
    s.network.channel_latency_cycles = latency;
    s.switch.flow_control = FlowControl::StopGo;
    s.switch.buffer_flits = 250;
    s.workload.packet_flits = 100;
    s.workload.message_flits = 100;
    s.workload.load = 1.0;
    s.run.warmup_cycles = 2_000;
    s.run.measure_cycles = 20_000;
    s.run.saturation_stop = flitcast_core::scenario::SaturationStop::Off;
    s
}

#[test]
fn nothing_is_lost_at_any_link_latency() {
    for latency in [1, 2, 7, 25, 50, 100] {
        let s = bmsn(latency);
        let (stop, go) = s.stop_go_thresholds();
        // (STOP: the buffer less 2·latency + 1 − 1 flits; GO one latency lower)
        assert_eq!((stop, go), (250 - 2 * latency, (250 - 2 * latency).saturating_sub(latency)), "latency {latency}");
        let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("latency {latency}: {e}"));
        assert!(r.accepted_load > 0.05, "latency {latency}: accepted {}", r.accepted_load);
    }
}

#[test]
fn a_stop_threshold_without_room_for_a_round_trip_is_refused() {
    // links of 50 cycles, one router cycle: after the flit that fills a buffer to STOP, its sender can
    // still send 2·50 + 1 − 1 = 100 flits: STOP at 150 fits 250-flit buffers, at 151 it does not
    let mut s = bmsn(50);
    s.switch.stop_flits = Some(150);
    s.switch.go_flits = Some(100);
    flitcast_core::run(&s).unwrap();
    s.switch.stop_flits = Some(151);
    match flitcast_core::run(&s) {
        Err(Error::Config { key, .. }) => assert_eq!(key, "switch.stop_flits"),
        other => panic!("expected a configuration error, got {other:?}"),
    }
}
