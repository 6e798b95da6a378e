//! Helpers shared by the integration tests.

use flitcast_core::scenario::TopologyKind;
use flitcast_core::Scenario;

/// A small scenario: k-ary n-cube of `topology`, short run.
pub fn scenario(topology: TopologyKind, k: u32, n: u32) -> Scenario {
    let mut s = Scenario::default();
    s.network.topology = topology;
    s.network.k = k;
    s.network.n = if topology == TopologyKind::Ring { 1 } else { n };
    s.run.warmup_cycles = 1_000;
    s.run.measure_cycles = 10_000;
    s.run.drain_max_cycles = 20_000;
    s
}
