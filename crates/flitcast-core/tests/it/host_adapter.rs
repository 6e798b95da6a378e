//! Study 001's host adapters (`host/adapter.rs`): every scheme serves each member of each multicast
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
        eprintln!("{scheme:?}: delay {:.0}", r.latency_mean);
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
