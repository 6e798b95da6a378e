//! Throughput bounds: accepted load never exceeds what the bisection or an ejection channel can
//! carry, and the 8x8 mesh saturates where theory says it should.

use flitcast_core::Scenario;
use serde_json::json;

use crate::common::cube;

fn accepted(s: Scenario, load: f64) -> (f64, bool) {
    let s = s.set(&[
        ("workload.load", json!(load)),
        ("run.warmup_cycles", json!(3_000)),
        ("run.measure_cycles", json!(15_000)),
        ("run.drain_max_cycles", json!(10_000)),
    ]);
    let r = flitcast_core::run(&s).unwrap();
    (r.accepted_load, r.saturated)
}

#[test]
fn mesh8_uniform_saturates_between_0_35_and_the_bisection_bound() {
    // Uniform traffic on a k x k mesh: half the traffic crosses the bisection, 4/k = 0.5 bound.
    let s = cube("mesh", 8, 2);
    let (a, sat) = accepted(s.clone(), 0.30);
    assert!(!sat && (a - 0.30).abs() < 0.01, "0.30 offered: {a} saturated={sat}");
    let (a, sat) = accepted(s, 0.60);
    assert!(sat, "0.60 offered should saturate");
    assert!(a > 0.35 && a < 0.5, "saturation throughput {a}");
}

#[test]
fn bit_complement_is_held_to_the_bisection() {
    // Every packet crosses the bisection of the 8x8 mesh: 64·λ flits per cycle over 2·8 channels in
    // each direction ⇒ λ ≤ 2/k = 0.25.
    let s = cube("mesh", 8, 2).set(&[("workload.pattern", json!("bit_complement"))]);
    let (a, sat) = accepted(s, 0.6);
    assert!(sat && a <= 0.25 + 0.005, "accepted {a}");
}

#[test]
fn a_hotspot_is_held_to_its_ejection_channel() {
    // Everybody sends to node 0: its ejection channel carries at most one flit per cycle, i.e.
    // 1/16 flits/node/cycle on a 4x4 mesh.
    let s = cube("mesh", 4, 2).set(&[
        ("workload.pattern", json!("hotspot")),
        ("workload.hotspot_nodes", json!([0])),
        ("workload.hotspot_fraction", json!(1.0)),
    ]);
    let (a, sat) = accepted(s, 0.3);
    assert!(sat && a <= 1.0 / 16.0 + 1e-9 && a > 0.9 / 16.0, "accepted {a}");
}

#[test]
fn torus_with_four_vcs_outperforms_the_mesh() {
    let mesh = cube("mesh", 8, 2).set(&[("switch.vcs", json!(4))]);
    let torus = cube("torus", 8, 2).set(&[("switch.vcs", json!(4))]);
    let (m, _) = accepted(mesh, 0.7);
    let (t, _) = accepted(torus, 0.7);
    assert!(t > m + 0.03, "torus {t} vs mesh {m}");
}

#[test]
fn idle_cycles_are_skipped_not_simulated() {
    // At a very light load the network is empty most of the time: the engine jumps over those
    // cycles. At a heavy load there is always work (but for the first cycles before any arrival).
    let s = cube("mesh", 4, 2).set(&[("workload.load", json!(0.0005)), ("run.measure_cycles", json!(200_000))]);
    let r = flitcast_core::run(&s).unwrap();
    assert!(r.cycles_skipped as f64 > 0.5 * r.cycles as f64, "{} of {}", r.cycles_skipped, r.cycles);
    let s = s.set(&[("workload.load", json!(0.3)), ("run.measure_cycles", json!(10_000))]);
    let r = flitcast_core::run(&s).unwrap();
    assert!(r.cycles_skipped < r.cycles / 1000, "{} of {}", r.cycles_skipped, r.cycles);
}
