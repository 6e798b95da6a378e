//! Helpers shared by the integration tests.

use flitcast_core::Scenario;
use serde_json::json;

/// A small scenario: k-ary n-cube of `topology` (`mesh`, `torus`, or `ring`, which has no n), short
/// run.
pub fn cube(topology: &str, k: u32, n: u32) -> Scenario {
    let network = if topology == "ring" {
        json!({"topology": topology, "k": k})
    } else {
        json!({"topology": topology, "k": k, "n": n})
    };
    Scenario::of(json!({
        "network": network,
        "run": {"warmup_cycles": 1_000, "measure_cycles": 10_000, "drain_max_cycles": 20_000},
    }))
}

/// [`cube`] with unidirectional links where `unidirectional` (a torus or ring; a mesh has none).
pub fn cube_dir(topology: &str, k: u32, n: u32, unidirectional: bool) -> Scenario {
    let s = cube(topology, k, n);
    if unidirectional {
        s.set(&[("network.unidirectional", json!(true))])
    } else {
        s
    }
}

/// `s` at load 1.0 with 8-flit packets in 8-flit buffers, for 4,000 cycles and a 1,000-cycle watchdog:
/// far past saturation, where a routing that can deadlock does.
pub fn saturated(s: &Scenario) -> Scenario {
    s.set(&[
        ("workload.load", json!(1.0)),
        ("workload.packet_flits", json!(8)),
        ("workload.message_flits", json!(8)),
        ("switch.buffer_flits", json!(8)),
        ("run.measure_cycles", json!(4_000)),
        ("run.drain_max_cycles", json!(4_000)),
        ("run.watchdog_cycles", json!(1_000)),
    ])
}
