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

#[test]
fn a_long_link_of_a_network_file_sets_the_slack_stop_go_needs() {
    // an irregular network with one 1,000-cycle link: the thresholds are those of that link's round trip
    // (2·1000 + 1 − 1 flits), so a buffer too small for it is refused naming the file's link, and one
    // large enough runs saturated without losing or overwriting a flit (before: "internal error …
    // buffer overflow (credit protocol)")
    let file = crate::irregular::NetFile::new(
        "routers,3,3\nlink,0,0,1,0,1000\nlink,1,1,2,0\nterminal,0,0,2\nterminal,1,1,2\nterminal,2,2,2\n",
    );
    let roomy = crate::irregular::irregular(&file).set(&[
        ("switch.flow_control", json!("stop_go")),
        ("switch.buffer_flits", json!(2_100)),
        ("workload.load", json!(1.0)),
        ("run.saturation_stop", json!("off")),
    ]);
    match roomy.with(&[("switch.buffer_flits", json!(8))]) {
        Err(Error::Config { key, allowed, .. }) => {
            assert_eq!(key, "switch.buffer_flits");
            assert!(allowed.contains("at least 2001") && allowed.contains("network.file"), "{allowed}");
        }
        other => panic!("expected a configuration error, got {other:?}"),
    }
    assert_eq!(roomy.stop_go_thresholds(), (100, 0));
    let r = flitcast_core::run(&roomy).unwrap();
    assert!(r.accepted_load > 0.01, "accepted {}", r.accepted_load);
}

#[test]
fn a_watchdog_shorter_than_a_long_links_round_trip_is_refused() {
    let file = crate::irregular::NetFile::new("routers,2,2\nlink,0,0,1,0,700\nterminal,0,0,1\nterminal,1,1,1\n");
    let s = crate::irregular::irregular(&file);
    match s.with(&[("run.watchdog_cycles", json!(1_000))]) {
        Err(Error::Config { key, allowed, .. }) => {
            assert_eq!(key, "run.watchdog_cycles");
            assert!(allowed.starts_with("more than 1401 cycles"), "{allowed}");
        }
        other => panic!("expected a configuration error, got {other:?}"),
    }
    s.with(&[("run.watchdog_cycles", json!(1_402))]).unwrap();
}
