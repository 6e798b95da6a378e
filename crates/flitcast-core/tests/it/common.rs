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
