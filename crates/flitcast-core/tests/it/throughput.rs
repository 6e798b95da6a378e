//! Throughput bounds: accepted load never exceeds what the bisection or an ejection channel can
//! carry, and the 8x8 mesh saturates where theory says it should.

use flitcast_core::scenario::{PatternKind, TopologyKind};
use flitcast_core::Scenario;

use crate::common::scenario;

fn accepted(mut s: Scenario, load: f64) -> (f64, bool) {
    s.workload.load = load;
    s.run.warmup_cycles = 3_000;
    s.run.measure_cycles = 15_000;
    s.run.drain_max_cycles = 10_000;
    let r = flitcast_core::run(&s).unwrap();
    (r.accepted_load, r.saturated)
}

#[test]
fn mesh8_uniform_saturates_between_0_35_and_the_bisection_bound() {
    // Uniform traffic on a k x k mesh: half the traffic crosses the bisection, 4/k = 0.5 bound.
    let s = scenario(TopologyKind::Mesh, 8, 2);
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
    let mut s = scenario(TopologyKind::Mesh, 8, 2);
    s.workload.pattern = PatternKind::BitComplement;
    let (a, sat) = accepted(s, 0.6);
    assert!(sat && a <= 0.25 + 0.005, "accepted {a}");
}

#[test]
fn a_hotspot_is_held_to_its_ejection_channel() {
    // Everybody sends to node 0: its ejection channel carries at most one flit per cycle, i.e.
    // 1/16 flits/node/cycle on a 4x4 mesh.
    let mut s = scenario(TopologyKind::Mesh, 4, 2);
    s.workload.pattern = PatternKind::Hotspot;
    s.workload.hotspot_nodes = vec![0];
    s.workload.hotspot_fraction = 1.0;
    let (a, sat) = accepted(s, 0.3);
    assert!(sat && a <= 1.0 / 16.0 + 1e-9 && a > 0.9 / 16.0, "accepted {a}");
}

#[test]
fn torus_with_four_vcs_outperforms_the_mesh() {
    let mut mesh = scenario(TopologyKind::Mesh, 8, 2);
    mesh.switch.vcs = 4;
    let mut torus = scenario(TopologyKind::Torus, 8, 2);
    torus.switch.vcs = 4;
    let (m, _) = accepted(mesh, 0.7);
    let (t, _) = accepted(torus, 0.7);
    assert!(t > m + 0.03, "torus {t} vs mesh {m}");
}

#[test]
fn idle_cycles_are_skipped_not_simulated() {
    // At a very light load the network is empty most of the time: the engine jumps over those
    // cycles. At a heavy load there is always work (but for the first cycles before any arrival).
    let mut s = scenario(TopologyKind::Mesh, 4, 2);
    s.workload.load = 0.0005;
    s.run.measure_cycles = 200_000;
    let r = flitcast_core::run(&s).unwrap();
    assert!(r.cycles_skipped as f64 > 0.5 * r.cycles as f64, "{} of {}", r.cycles_skipped, r.cycles);
    s.workload.load = 0.3;
    s.run.measure_cycles = 10_000;
    let r = flitcast_core::run(&s).unwrap();
    assert!(r.cycles_skipped < r.cycles / 1000, "{} of {}", r.cycles_skipped, r.cycles);
}
