//! Statistics in flat memory: a run ten times longer holds the same statistics bytes (latencies go
//! into a fixed-size histogram, not a list; docs/results.md).

use flitcast_core::Simulation;
use serde_json::json;

use crate::common::cube;

fn stats_bytes(measure: u64) -> (usize, u64) {
    let s = cube("mesh", 4, 2).set(&[("workload.load", json!(0.3)), ("run.measure_cycles", json!(measure))]);
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
