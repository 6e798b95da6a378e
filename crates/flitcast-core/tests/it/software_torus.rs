//! Study 004's software multicast on a unidirectional torus, simulated with host overheads
//! (`host/programs/torus_multicast.rs`): on an idle network the completion latency is the sum, along the deepest
//! path, of each message's overheads and its zero-load transfer time T0 = (H + 1)(D + L) + L + (M − 1)
//! (tests/it/zero_load.rs), which is what the analytic model's Eq. 3 adds up; every destination is
//! served exactly once; the program's metrics follow the plans.

use flitcast_core::multicast::torus::TorusScheme;
use flitcast_core::Scenario;
use serde_json::json;

const O_S: u64 = 100;
const O_R: u64 = 90;
const T_P: u64 = 50;
const L_S: u64 = 7;
const FLITS: u32 = 4;

fn torus(scheme: TorusScheme, group: u32) -> Scenario {
    Scenario::of(json!({
        "network": {"topology": "torus", "unidirectional": true, "k": 4},
        "switch": {"turn_cycles": L_S},
        "workload": {
            "program": "torus_multicast",
            "group_size": group,
            "scheme": scheme.name(),
            "message_flits": FLITS,
            "packet_flits": FLITS,
            "send_overhead_cycles": O_S,
            "receive_overhead_cycles": O_R,
            "process_cycles": T_P,
        },
        "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2},
    }))
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
    let r = flitcast_core::run(&torus(TorusScheme::STorus, 7)).unwrap();
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
    let r = flitcast_core::run(&torus(TorusScheme::Separate, group)).unwrap();
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
fn md_torus_has_a_fixed_fan_out_and_a_falling_link_concentration() {
    // the root sends to the k − 1 headers of its x-ringlet, then down its own column: k messages once the
    // group fills its ringlet (study 004 §4.3: constant startup "because of their fixed fan-out")
    for group in 5..=16 {
        let r = flitcast_core::run(&torus(TorusScheme::MdTorus, group)).unwrap();
        assert_eq!(r.root_busy_cycles, (4 * O_S) as f64, "G {group}");
        assert!(r.link_concurrency <= 4.0, "G {group}: at most k ringlets relay at once (§4.4)");
    }
    // §4.4: the root's messages to the headers share its x-links (visits 1 + 2 + 3 = 6 on 3 links); each
    // column's relays add one link each, so the concentration falls towards 1: 6/3 at G = 4, 18/15 at 16
    let concentration = |g| flitcast_core::run(&torus(TorusScheme::MdTorus, g)).unwrap().link_concentration;
    assert_eq!(concentration(4), 2.0);
    assert_eq!(concentration(16), 1.2);
}

#[test]
fn every_algorithm_serves_every_member_once_at_every_group_size() {
    for scheme in
        [TorusScheme::Separate, TorusScheme::UTorus, TorusScheme::STorus, TorusScheme::MdTorus, TorusScheme::MuTorus]
    {
        for group in 2..=16 {
            for root in [0, 6] {
                let s = torus(scheme, group).set(&[
                    ("workload.root", json!(root)),
                    ("workload.message_flits", json!(40)), // several packets per message
                ]);
                let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{scheme:?} G {group}: {e}"));
                assert_eq!(r.operations_measured, 1, "{scheme:?} G {group}");
                // (the operation ends with its last reception, that host's receive overhead included)
                assert_eq!(r.completion_cycles, r.latency_max, "{scheme:?} G {group}");
                assert!(r.cycles as f64 > r.completion_cycles, "the run ends after the multicast does");
                // (with at most 15 destinations the 99th percentile is the last: a histogram estimate)
                assert!((r.completion_dest_p99 / r.completion_cycles - 1.0).abs() <= 1e-3);
                assert!(r.link_concurrency >= 1.0 && r.link_concentration >= 1.0);
            }
        }
    }
}

#[test]
fn a_group_needs_a_unidirectional_torus() {
    let s = torus(TorusScheme::UTorus, 8).with(&[("network.unidirectional", json!(false))]);
    assert!(matches!(s, Err(flitcast_core::Error::Config { key, .. }) if key == "network.topology"));
    let s =
        torus(TorusScheme::UTorus, 16).with(&[("workload.group_size", json!(17)), ("workload.partition", json!(4))]);
    assert!(matches!(s, Err(flitcast_core::Error::Config { key, .. }) if key == "workload.group_size"));
}

#[test]
fn members_drawn_at_random_leave_idle_nodes_between_them() {
    // (study 004 §4 does not place the group; Fig. 1 shows idle nodes between members)
    let random = |scheme, group| torus(scheme, group).set(&[("workload.members", json!("random"))]);
    for scheme in
        [TorusScheme::Separate, TorusScheme::UTorus, TorusScheme::STorus, TorusScheme::MdTorus, TorusScheme::MuTorus]
    {
        for group in 2..=16 {
            let r = flitcast_core::run(&random(scheme, group)).unwrap_or_else(|e| panic!("{scheme:?} G {group}: {e}"));
            assert_eq!(r.operations_measured, 1, "{scheme:?} G {group}");
        }
        // the whole torus is the same group whichever way it is drawn
        let all = |s: Scenario| flitcast_core::run(&s).unwrap().completion_cycles;
        assert_eq!(all(random(scheme, 16)), all(torus(scheme, 16)), "{scheme:?}");
    }
    // a chain over scattered members crosses more links than over the next nodes of the root's chain
    let s_torus = |s: Scenario| flitcast_core::run(&s).unwrap().completion_cycles;
    assert!(s_torus(random(TorusScheme::STorus, 6)) > s_torus(torus(TorusScheme::STorus, 6)));
}
