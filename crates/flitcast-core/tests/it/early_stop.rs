//! Saturated runs end early (`run.saturation_stop = "backlog"`) with the verdict and the accepted load
//! of the full run; runs below saturation are untouched, bit for bit; the live-packet bound stops a
//! run whose source queues would grow without bound.

use flitcast_core::scenario::SaturationStop;
use flitcast_core::RunResult;
use serde_json::json;

use crate::common::cube;

fn mesh(load: f64, measure: u64, stop: SaturationStop) -> RunResult {
    let s = cube("mesh", 8, 2).set(&[
        ("workload.load", json!(load)),
        ("run.warmup_cycles", json!(5_000)),
        ("run.measure_cycles", json!(measure)),
        ("run.saturation_stop", json!(stop.name())),
    ]);
    flitcast_core::run(&s).unwrap()
}

#[test]
fn a_saturated_run_stops_early_with_the_full_runs_verdict_and_throughput() {
    let full = mesh(0.7, 300_000, SaturationStop::Off);
    let early = mesh(0.7, 300_000, SaturationStop::Backlog);
    assert!(full.saturated && early.saturated);
    assert!(early.measured_cycles < 100_000, "stopped after {} measured cycles", early.measured_cycles);
    assert!(early.measured_cycles >= 30_000, "never before a tenth of the window");
    assert_eq!(full.measured_cycles, 300_000);
    assert!(early.cycles * 3 < full.cycles, "{} vs {} cycles", early.cycles, full.cycles);
    assert!(
        (early.accepted_load - full.accepted_load).abs() < 0.01,
        "accepted {} early vs {} full",
        early.accepted_load,
        full.accepted_load
    );
    assert!(early.saturation_reason.contains("stopped early"), "{}", early.saturation_reason);
}

#[test]
fn a_run_below_saturation_is_unchanged_bit_for_bit() {
    let off = mesh(0.3, 100_000, SaturationStop::Off);
    let on = mesh(0.3, 100_000, SaturationStop::Backlog);
    assert!(!on.saturated);
    assert_eq!(on, off);
}

#[test]
fn too_many_live_packets_stop_the_run_as_saturated() {
    // One-flit messages at full load into a 4x4 mesh whose bisection takes far less: with early stop
    // off the queues would grow for the whole window; the live-packet bound ends it.
    let s = cube("mesh", 4, 2).set(&[
        ("workload.load", json!(1.0)),
        ("workload.packet_flits", json!(1)),
        ("workload.message_flits", json!(1)),
        ("run.warmup_cycles", json!(0)),
        ("run.measure_cycles", json!(10_000_000)),
        ("run.saturation_stop", json!("off")),
    ]);
    let r = flitcast_core::run(&s).unwrap();
    assert!(r.saturated && r.saturation_reason.contains("packets alive"), "{}", r.saturation_reason);
    assert!(r.measured_cycles < 1_000_000, "{}", r.measured_cycles);
}
