//! Stop/go flow control with slack buffers (study 001): at any link latency, a saturated network loses
//! and overwrites nothing (a buffer overflow stops the run with an error; conservation is checked at
//! the end), and a STOP threshold that leaves less slack than a round trip is refused.

use flitcast_core::{Error, Scenario};
use serde_json::json;

/// The study's 8×8 bidirectional Manhattan Street Network (a torus), 250-flit slack buffers, links of
/// `latency` cycles.
fn bmsn(latency: u32) -> Scenario {
    Scenario::of(json!({
        "network": {"topology": "torus", "channel_latency_cycles": latency},
        "switch": {"flow_control": "stop_go", "buffer_flits": 250},
        "workload": {"packet_flits": 100, "message_flits": 100, "load": 1.0},
        "run": {"warmup_cycles": 2_000, "measure_cycles": 20_000, "saturation_stop": "off"},
    }))
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
    let s = bmsn(50).set(&[("switch.stop_flits", json!(150)), ("switch.go_flits", json!(100))]);
    flitcast_core::run(&s).unwrap();
    match s.with(&[("switch.stop_flits", json!(151))]) {
        Err(Error::Config { key, .. }) => assert_eq!(key, "switch.stop_flits"),
        other => panic!("expected a configuration error, got {other:?}"),
    }
}
