//! Study 004's software multicast on a unidirectional torus, simulated with host overheads
//! (`host/programs/torus_multicast.rs`): on an idle network the completion latency is the sum, along the deepest
//! path, of each message's overheads and its zero-load transfer time T0 = (H + 1)(D + L) + L + (M − 1)
//! (tests/it/zero_load.rs), which is what the analytic model's Eq. 3 adds up; every destination is
//! served exactly once; the program's metrics follow the plans.

use flitcast_core::scenario::{MulticastScheme, TopologyKind};
use flitcast_core::Scenario;

const O_S: u64 = 100;
const O_R: u64 = 90;
const T_P: u64 = 50;
const L_S: u64 = 7;
const FLITS: u32 = 4;

fn torus(scheme: MulticastScheme, group: u32) -> Scenario {
    let mut s = Scenario::default();
    s.network.topology = TopologyKind::Torus;
    s.network.unidirectional = true;
    s.network.k = 4;
    s.workload.multicast_group_size = group;
    s.workload.multicast_scheme = scheme;
    s.workload.message_flits = FLITS;
    s.workload.packet_flits = FLITS;
    s.adapter.send_overhead_cycles = O_S;
    s.adapter.receive_overhead_cycles = O_R;
    s.adapter.process_cycles = T_P;
    s.switch.turn_cycles = L_S as u32;
    s.run.warmup_cycles = 0;
    s.run.measure_cycles = 2;
    s.run.batches = 2;
    s
}

/// Zero-load transfer time from a to b (x then y, forward only) and whether it turns.
fn transfer(a: u32, b: u32) -> (u64, u64) {
    let k = 4;
    let (dx, dy) = ((b % k + k - a % k) % k, (b / k + k - a / k) % k);
    let (d, l) = (1u64, 1u64);
    (((dx + dy) as u64 + 1) * (d + l) + l + FLITS as u64 - 1, (dx > 0 && dy > 0) as u64)
}

#[test]
fn a_chain_costs_its_overheads_and_transfers() {
    // S-torus, G = 7 from node 0: 0 → 1 → 2 → 3 → 4 → 5 → 6 (rank order), each relay o_r + t_p + o_s
    let r = flitcast_core::run(&torus(MulticastScheme::STorus, 7)).unwrap();
    let chain = [0, 1, 2, 3, 4, 5, 6];
    let mut expected = 0;
    for (i, pair) in chain.windows(2).enumerate() {
        let (t0, turn) = transfer(pair[0], pair[1]);
        expected += O_S + t0 + turn * L_S + O_R + if i > 0 { T_P } else { 0 };
    }
    assert_eq!(r.completion_cycles, expected as f64);
    assert_eq!(r.root_busy_cycles, O_S as f64);
    assert_eq!(r.link_concurrency, 1.0, "a chain has one message in transit at a time");
    assert_eq!(r.operations_measured, 1);
}

#[test]
fn separate_addressing_pipelines_its_sends() {
    // the root hands its i-th message over after i·(t_p + o_s); transfers overlap
    let group = 10;
    let r = flitcast_core::run(&torus(MulticastScheme::Separate, group)).unwrap();
    let expected = (1..group)
        .map(|i| {
            let (t0, turn) = transfer(0, i);
            i as u64 * (T_P + O_S) + t0 + turn * L_S + O_R
        })
        .max()
        .unwrap();
    assert_eq!(r.completion_cycles, expected as f64);
    assert_eq!(r.root_busy_cycles, ((group - 1) as u64 * (T_P + O_S)) as f64);
    // 9 messages from 0 to 1 … 9 over the x-ringlet of row 0 and into rows 1 and 2
    assert!(r.link_concentration > 1.0);
}

#[test]
fn every_algorithm_serves_every_member_once_at_every_group_size() {
    for scheme in [
        MulticastScheme::Separate,
        MulticastScheme::UTorus,
        MulticastScheme::STorus,
        MulticastScheme::MdTorus,
        MulticastScheme::MuTorus,
    ] {
        for group in 2..=16 {
            for root in [0, 6] {
                let mut s = torus(scheme, group);
                s.workload.multicast_root = root;
                s.workload.message_flits = 40; // several packets per message
                let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{scheme:?} G {group}: {e}"));
                assert_eq!(r.operations_measured, 1, "{scheme:?} G {group}");
                assert!(r.completion_cycles > r.latency_max, "the last reception includes its overhead");
                assert!(r.link_concurrency >= 1.0 && r.link_concentration >= 1.0);
            }
        }
    }
}

#[test]
fn a_group_needs_a_unidirectional_torus() {
    let mut s = torus(MulticastScheme::UTorus, 8);
    s.network.unidirectional = false;
    assert!(
        matches!(flitcast_core::run(&s), Err(flitcast_core::Error::Config { key, .. }) if key == "network.topology")
    );
    let mut s = torus(MulticastScheme::UTorus, 17);
    s.workload.multicast_partition = 4;
    assert!(
        matches!(flitcast_core::run(&s), Err(flitcast_core::Error::Config { key, .. }) if key == "workload.multicast_group_size")
    );
}
