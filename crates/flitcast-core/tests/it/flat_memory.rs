//! Statistics in flat memory: a run ten times longer holds the same statistics bytes (latencies go
//! into a fixed-size histogram, not a list; docs/results.md).

use flitcast_core::scenario::TopologyKind;
use flitcast_core::Simulation;

use crate::common::scenario;

fn stats_bytes(measure: u64) -> (usize, u64) {
    let mut s = scenario(TopologyKind::Mesh, 4, 2);
    s.workload.load = 0.3;
    s.run.measure_cycles = measure;
    let (r, bytes) = Simulation::build(&s).unwrap().run_reporting_stats_bytes().unwrap();
    (bytes, r.operations_measured)
}

#[test]
fn statistics_memory_does_not_grow_with_the_run() {
    let (short, short_messages) = stats_bytes(1_000_000);
    let (long, long_messages) = stats_bytes(10_000_000);
    assert!(long_messages > 9 * short_messages, "{long_messages} vs {short_messages} messages");
    let change = (long as f64 - short as f64).abs() / short as f64;
    assert!(change < 0.01, "statistics bytes {short} after 1e6 cycles, {long} after 1e7");
}
