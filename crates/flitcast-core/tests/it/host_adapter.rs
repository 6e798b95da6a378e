//! Study 001's host adapters (`host/programs/host_adapter.rs`): every scheme serves each member of each multicast
//! exactly once — with worms refused, NACKed and retransmitted under heavy load and tiny reception
//! FIFOs — and the two buffer classes prevent the adapter buffer deadlock that one class produces.

use flitcast_core::scenario::{FlowControl, MulticastScheme, SaturationStop, TopologyKind};
use flitcast_core::{Error, Scenario};
use proptest::prelude::*;

/// The study's network (§5): an 8×8 torus, 50-cycle links, 250-flit slack buffers under stop/go, host
/// adapters next to their switches (1-cycle host links); its group and sizes; `load` flits per cycle
/// originated by each member.
pub fn casetti(scheme: MulticastScheme, load: f64) -> Scenario {
    let mut s = Scenario::default();
    s.network.topology = TopologyKind::Torus;
    s.network.channel_latency_cycles = 50;
    s.network.terminal_latency_cycles = Some(1);
    s.switch.flow_control = FlowControl::StopGo;
    s.switch.buffer_flits = 250;
    s.workload.multicast_group = vec![0, 1, 2, 3, 13, 15, 16, 17, 31];
    s.workload.multicast_scheme = scheme;
    s.workload.message_flits = 100;
    s.workload.message_flits_max = Some(1000);
    s.workload.packet_flits = 4000;
    s.workload.load = load;
    s.run.warmup_cycles = 5_000;
    s.run.measure_cycles = 50_000;
    s.run.drain_max_cycles = 200_000;
    s.run.watchdog_cycles = 50_000;
    s.run.saturation_stop = SaturationStop::Off;
    s
}

const SCHEMES: [MulticastScheme; 5] = [
    MulticastScheme::Separate,
    MulticastScheme::Ring,
    MulticastScheme::Bus,
    MulticastScheme::TreeWrapAround,
    MulticastScheme::TreeUpDown,
];

#[test]
fn every_scheme_delivers_at_low_load() {
    for scheme in SCHEMES {
        let mut s = casetti(scheme, 0.005);
        s.run.measure_cycles = 200_000;
        let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{scheme:?}: {e}"));
        assert!(!r.saturated, "{scheme:?}: {}", r.saturation_reason);
        assert!(r.operations_measured > 50, "{scheme:?}: {}", r.operations_measured);
        // (9 members at 0.005 each: 0.045 flits per cycle offered, all carried)
        assert!((r.multicast_throughput / r.multicast_offered - 1.0).abs() < 0.1, "{scheme:?}: {r:?}");
        assert!((r.multicast_offered / 0.045 - 1.0).abs() < 0.3, "{scheme:?}: {}", r.multicast_offered);
        assert_eq!(r.worms_refused, 0, "{scheme:?}: no refusals at low load");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Under heavy load with one- or two-worm FIFOs, worms are refused and retransmitted, and still each
    /// member receives each multicast exactly once (the engine stops with a conservation error if a
    /// member is served twice, or by one that is not a destination) and nothing is lost.
    #[test]
    fn each_member_is_served_once_despite_refusals(
        scheme in 1usize..5, k in 1u32..=2, seed in 0u64..1000, background in prop::bool::ANY,
    ) {
        let mut s = casetti(SCHEMES[scheme], 0.03);
        s.adapter.reception_worms = k;
        s.adapter.timeout_cycles = 300;
        s.workload.background_load = if background { 0.05 } else { 0.0 };
        s.run.seed = seed;
        s.run.warmup_cycles = 0;
        s.run.measure_cycles = 20_000;
        s.run.drain_max_cycles = 2_000_000;
        let r = flitcast_core::run(&s).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(r.operations_measured > 0);
        prop_assert!(r.saturation_reason.is_empty() || !r.saturation_reason.contains("drain"), "{}", r.saturation_reason);
    }
}

/// Bus-like paths on four neighbours: worms going up meet worms going down. With one class of
/// one-worm FIFOs, host 1 holds an up-going worm for 2 while 2 holds a down-going one for 1: each
/// refuses the other's forever (§3's two-host mutual wait). With the two classes, up-going worms use
/// the lower class and down-going ones the upper: no wait can close a cycle.
#[test]
fn two_buffer_classes_prevent_the_adapter_buffer_deadlock_one_class_produces() {
    let mut s = casetti(MulticastScheme::Bus, 0.05);
    s.workload.multicast_group = vec![0, 1, 2, 3];
    s.adapter.reception_worms = 1;
    s.run.watchdog_cycles = 20_000;
    s.run.measure_cycles = 100_000;
    s.run.drain_max_cycles = 1_000_000;
    s.adapter.buffer_classes = 1;
    match flitcast_core::run(&s) {
        Err(Error::AdapterDeadlock { pending, .. }) => assert!(pending > 0),
        other => panic!("one buffer class: expected the adapter buffer deadlock, got {other:?}"),
    }
    s.adapter.buffer_classes = 2;
    let r = flitcast_core::run(&s).expect("two classes: no deadlock");
    assert!(r.operations_measured > 100 && r.worms_refused > 0, "{} / {}", r.operations_measured, r.worms_refused);
}

/// The bidirectional Manhattan Street Network (Borgonovo and Cadorin, the study's [2]): an 8×8 grid
/// wrapped into a torus whose rows alternate direction (row 0 eastward, row 1 westward, …) and likewise
/// its columns (column 0 southward, column 1 northward, …), with the reverse of every link added. Its
/// links are exactly those of the engine's 8-ary 2-cube, which is what the study's network is built as.
#[test]
fn the_bidirectional_msn_is_the_torus_the_engine_builds() {
    use flitcast_core::topology::{PortLink, Topology};
    use std::collections::BTreeSet;
    let k = 8u32;
    let node = |row: u32, col: u32| (row % k) * k + col % k; // router = col + k·row
    let mut msn = BTreeSet::new();
    for row in 0..k {
        for col in 0..k {
            let east = if row % 2 == 0 { node(row, col + 1) } else { node(row, col + k - 1) };
            let south = if col % 2 == 0 { node(row + 1, col) } else { node(row + k - 1, col) };
            for next in [east, south] {
                msn.insert((node(row, col), next));
                msn.insert((next, node(row, col))); // the bidirectional variant
            }
        }
    }
    let s = casetti(MulticastScheme::Ring, 0.01);
    let topo = Topology::build(&s.network).unwrap();
    let mut torus = BTreeSet::new();
    for r in 0..topo.routers() as u32 {
        for p in 0..topo.radix(r) as u8 {
            if let PortLink::Router { router, .. } = topo.link(r, p) {
                torus.insert((r, router));
            }
        }
    }
    assert_eq!(msn.len(), 4 * 64, "four neighbours per switch");
    assert_eq!(torus, msn);
}

/// Minimum-distance routing on the study's network is made deadlock-free with virtual channels (§2,
/// §5): dimension order with two dateline classes, whose channel dependency graph the build-time check
/// finds acyclic; with one class it finds the cycle.
#[test]
fn the_studys_virtual_channel_scheme_has_an_acyclic_channel_dependency_graph() {
    use flitcast_core::check::routes::verify;
    use flitcast_core::routing::Routing;
    use flitcast_core::topology::Topology;
    let s = casetti(MulticastScheme::Ring, 0.01);
    let topo = Topology::build(&s.network).unwrap();
    for vcs in [1u8, 2] {
        let mut r = s.routing.clone();
        r.check_deadlock_free = false;
        let routing = Routing::build(&r, vcs, &topo).unwrap();
        let verdict = verify(&topo, &routing, vcs, true);
        assert_eq!(verdict.is_ok(), vcs == 2, "{vcs} VCs: {verdict:?}");
    }
}

/// A lone multicast on an idle network follows its scheme's zero-load cost. A worm's head crosses h
/// switch-to-switch hops in 51·h + 3 byte times (50 per link and 1 per router, 1 per host link and 1 for
/// the first router), and its tail follows 99 later. A ring relay acknowledges first (an 8-byte ACK on
/// its one transmitter) and then forwards in cut-through: from source s, with H_s hops around the ring,
/// the delay is 51·H_s + 8·3 + 7·8 + 99. Multiple unicasts send eight copies back to back: the copy to
/// the i-th other member (in ID order) leaves after i worms, so the delay is max_i (100·i + 51·h_i + 102).
/// The means over the nine sources match within 3%.
#[test]
fn zero_load_delays_follow_the_schemes_structure() {
    let delay = |scheme| {
        let mut s = casetti(scheme, 0.000_05);
        s.workload.message_flits_max = None;
        s.run.warmup_cycles = 0;
        s.run.measure_cycles = 20_000_000;
        let r = flitcast_core::run(&s).unwrap();
        assert!(r.operations_measured >= 50 && r.worms_refused == 0);
        r.latency_mean
    };
    let group = [0u32, 1, 2, 3, 13, 15, 16, 17, 31];
    let hops = |a: u32, b: u32| {
        // global ID -> (row, col): odd rows (0-based) run right to left
        let at = |g: u32| (g / 8, if (g / 8).is_multiple_of(2) { g % 8 } else { 7 - g % 8 });
        let ((ra, ca), (rb, cb)) = (at(a), at(b));
        let d = |x: u32, y: u32| x.abs_diff(y).min(8 - x.abs_diff(y));
        (d(ra, rb) + d(ca, cb)) as f64
    };
    let n = group.len();
    let ring: f64 = (0..n)
        .map(|s| {
            let around: f64 = (0..n - 1).map(|i| hops(group[(s + i) % n], group[(s + i + 1) % n])).sum();
            51.0 * around + 8.0 * 3.0 + 7.0 * 8.0 + 99.0
        })
        .sum::<f64>()
        / n as f64;
    let separate: f64 = (0..n)
        .map(|s| {
            let others = group.iter().filter(|&&g| g != group[s]);
            others.enumerate().map(|(i, &g)| 100.0 * i as f64 + 51.0 * hops(group[s], g) + 102.0).fold(0.0, f64::max)
        })
        .sum::<f64>()
        / n as f64;
    for (name, got, expected) in
        [("ring", delay(MulticastScheme::Ring), ring), ("separate", delay(MulticastScheme::Separate), separate)]
    {
        assert!((got / expected - 1.0).abs() < 0.03, "{name}: {got:.1} against {expected:.1}");
    }
}

#[test]
fn host_adapter_runs_are_deterministic() {
    let mut s = casetti(MulticastScheme::TreeWrapAround, 0.03);
    s.adapter.reception_worms = 1;
    s.workload.background_load = 0.05;
    s.run.measure_cycles = 20_000;
    let (a, b) = (flitcast_core::run(&s).unwrap(), flitcast_core::run(&s).unwrap());
    assert!(a.worms_refused > 0);
    assert_eq!(a, b);
    s.run.seed = 2;
    assert_ne!(flitcast_core::run(&s).unwrap(), a);
}

#[test]
fn worms_waiting_in_transmission_queues_count_as_backlog_for_the_early_stop() {
    // far past saturation the NICs hold little (one worm in service per queue); the backlog grows in
    // the adapters' transmission queues, which the saturation test must see to stop the run early
    let mut s = casetti(MulticastScheme::Ring, 0.2);
    s.run.saturation_stop = SaturationStop::Backlog;
    s.run.measure_cycles = 1_000_000;
    let r = flitcast_core::run(&s).unwrap();
    assert!(r.saturated && r.measured_cycles < 1_000_000, "{} / {}", r.measured_cycles, r.saturation_reason);
    assert!(r.source_queue_flits > 10_000);
}
