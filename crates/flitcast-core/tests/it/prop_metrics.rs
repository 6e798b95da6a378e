//! Every metric is either empty or consistent, for random scenarios of every host program — open
//! unicast and multicast traffic, closed batches, study 004's torus multicast and study 001's host
//! adapters (docs/results.md): rates only for open workloads and within what the ejection links can
//! carry, a completion only for a closed workload that completed and never after the run ended,
//! percentiles within the maximum, and no deadlock of the adapters' deadlock-free mechanism.

use flitcast_core::{RunResult, Scenario};
use proptest::prelude::*;
use serde_json::{json, Value};

fn run(seed: u64, warmup: u64, measure: u64) -> Value {
    // (one run in four has a drain too short to finish: its operations stay incomplete)
    let drain = if seed.is_multiple_of(4) { 100 } else { 20_000 };
    json!({"seed": seed, "warmup_cycles": warmup, "measure_cycles": measure, "batches": 2,
           "drain_max_cycles": drain, "saturation_stop": "off"})
}

/// A random scenario of program `which` (0–5) and whether its workload is closed.
fn scenario(which: u8, load: f64, size: u32, m: u32, seed: u64) -> (Scenario, bool) {
    let tree = json!({"topology": "fat_tree", "k": 4, "n": 2});
    let scheme = ["separate", "u_torus", "s_torus", "md_torus", "mu_torus"][(seed % 5) as usize];
    let s = match which {
        0 => json!({"network": {"topology": "mesh", "k": 4}, "workload": {"load": load, "message_flits": size},
                    "run": run(seed, 500, 3_000)}),
        1 => json!({"network": tree, "switch": {"model": "central_buffer"}, "routing": {"algorithm": "adaptive"},
                    "workload": {"program": "hardware_multicast", "destinations": m, "load": load,
                                 "message_flits": size}, "run": run(seed, 500, 3_000)}),
        2 => json!({"network": tree, "switch": {"model": "central_buffer"}, "routing": {"algorithm": "adaptive"},
                    "workload": {"program": "software_multicast", "destinations": m, "load": load,
                                 "message_flits": size}, "run": run(seed, 500, 3_000)}),
        3 => json!({"network": {"topology": "mesh", "k": 4}, "switch": {"model": "infiniband", "buffer_flits": 64},
                    "workload": {"program": "batch", "scheme": if m.is_multiple_of(2) { "hardware" } else { "separate" },
                                 "message_flits": size, "source_share": load, "group_share": m as f64 / 16.0},
                    "run": run(seed, 0, 2)}),
        4 => json!({"network": {"topology": "torus", "k": 4, "unidirectional": true},
                    "workload": {"program": "torus_multicast", "group_size": m + 1, "message_flits": size,
                                 "scheme": scheme,
                                 "send_overhead_cycles": size, "receive_overhead_cycles": size / 2},
                    "run": run(seed, 0, 2)}),
        _ => json!({"network": {"topology": "torus", "k": 4, "channel_latency_cycles": 10},
                    "switch": {"flow_control": "stop_go", "buffer_flits": 80},
                    "workload": {"program": "host_adapter", "group": (0..m.clamp(2, 15)).collect::<Vec<_>>(),
                                 "load": load / 10.0, "message_flits": size, "message_flits_max": 4 * size,
                                 "packet_flits": 4_000,
                                 "background_load": load / 5.0},
                    "run": run(seed, 500, 5_000)}),
    };
    (Scenario::of(s), which == 3 || which == 4)
}

fn empty(x: f64) -> bool {
    x.is_nan()
}

fn check(r: &RunResult, closed: bool) -> Result<(), TestCaseError> {
    let rates = [
        r.offered_load,
        r.effective_load,
        r.accepted_load,
        r.channel_util_mean,
        r.channel_util_max,
        r.source_queue_flits,
    ];
    // (a run's multicast rates are empty together: it multicast nothing in its window, or it is closed)
    let multicast = [r.multicast_throughput, r.multicast_offered];
    prop_assert_eq!(empty(multicast[0]), empty(multicast[1]), "multicast rates {:?}", multicast);
    prop_assert!(multicast.iter().all(|&x| empty(x) || (x.is_finite() && x >= 0.0)), "{:?}", multicast);
    if closed {
        prop_assert!(empty(multicast[0]), "a closed workload has no rates: {multicast:?}");
        prop_assert!(rates.iter().all(|&x| empty(x)), "a closed workload has no rates: {rates:?}");
        // (a batch whose one source is its group's only member sends nothing: no operation, so no
        // completion either, and nothing left unfinished)
        let complete = !r.saturated && r.operations_measured > 0;
        prop_assert_eq!(
            empty(r.completion_cycles),
            !complete,
            "completion {} saturated {} operations {}",
            r.completion_cycles,
            r.saturated,
            r.operations_measured
        );
        if complete {
            prop_assert!(
                r.completion_cycles < r.cycles as f64,
                "completion {} after {} cycles",
                r.completion_cycles,
                r.cycles
            );
            prop_assert!(
                r.completion_dest_p50 <= r.completion_dest_p99 && r.completion_dest_p99 <= r.completion_cycles
            );
            prop_assert!(r.completion_dest_mean <= r.completion_cycles);
        }
    } else {
        prop_assert!(rates.iter().all(|&x| x.is_finite() && x >= 0.0), "rates of an open workload: {rates:?}");
        // (the ejection links carry at most one flit per node and cycle, header flits included)
        prop_assert!(r.accepted_load <= 1.0 + 1e-9, "accepted {}", r.accepted_load);
        prop_assert!(r.channel_util_max <= 1.0 + 1e-9);
        prop_assert!(empty(r.completion_cycles) && empty(r.completion_dest_mean));
    }
    if r.operations_measured > 0 {
        prop_assert!(r.latency_p50 <= r.latency_p99 && r.latency_p99 <= r.latency_max);
        prop_assert!(r.latency_mean <= r.latency_max);
    } else {
        prop_assert!(empty(r.latency_mean) && empty(r.latency_max));
    }
    prop_assert_eq!(r.saturated, !r.saturation_reason.is_empty());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_metric_is_empty_or_consistent(
        which in 0u8..6,
        load in 0.02f64..0.9,
        size in 1u32..48,
        m in 1u32..15,
        seed in 1u64..1_000,
    ) {
        let (s, closed) = scenario(which, load, size, m, seed);
        match flitcast_core::run(&s) {
            Ok(r) => check(&r, closed)?,
            // (every mechanism here is deadlock-free — two buffer classes, the default, for the adapters —
            // so no watchdog may fire, and every scenario is valid)
            Err(e) => return Err(TestCaseError::fail(format!("program {which}: {e}"))),
        }
    }
}

/// The case proptest found: a batch of one source (0.02 of 16 nodes, at least one) whose one-member
/// group is that source sends nothing — no operation, so no completion, and nothing unfinished.
#[test]
fn a_batch_that_sends_nothing_has_no_completion_and_is_not_saturated() {
    let (s, closed) = scenario(3, 0.02, 1, 1, 742);
    let r = flitcast_core::run(&s).expect("a valid scenario");
    assert_eq!(r.operations_measured, 0);
    assert!(!r.saturated && empty(r.completion_cycles));
    check(&r, closed).expect("consistent");
}
