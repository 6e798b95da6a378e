//! Closed workloads (a fixed set of operations from cycle 0: `batch`, `torus_multicast`) report what
//! they measure and nothing else (docs/results.md, "Closed workloads"): no rates over their window,
//! a completion time only once every operation has completed, and one consistent with the run's
//! length.

use flitcast_core::Scenario;
use serde_json::json;

fn batch(scheme: &str) -> Scenario {
    Scenario::of(json!({
        "network": {"topology": "mesh", "k": 4},
        "switch": {"model": "infiniband"},
        "workload": {"program": "batch", "scheme": scheme, "message_flits": 4, "group_share": 0.5},
        "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2},
    }))
}

fn torus(send_overhead: u64, flits: u32) -> Scenario {
    Scenario::of(json!({
        "network": {"topology": "torus", "unidirectional": true, "k": 4},
        "workload": {
            "program": "torus_multicast",
            "group_size": 16,
            "scheme": "separate",
            "message_flits": flits,
            "send_overhead_cycles": send_overhead,
            "receive_overhead_cycles": 30,
        },
        "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 20_000},
    }))
}

#[test]
fn a_finished_batch_has_a_completion_and_no_rates() {
    for scheme in ["hardware", "separate"] {
        let r = flitcast_core::run(&batch(scheme)).unwrap();
        assert!(!r.saturated, "{scheme}: {}", r.saturation_reason);
        for (name, rate) in [
            ("offered_load", r.offered_load),
            ("effective_load", r.effective_load),
            ("accepted_load", r.accepted_load),
            ("channel_util_mean", r.channel_util_mean),
            ("channel_util_max", r.channel_util_max),
            ("multicast_throughput", r.multicast_throughput),
            ("multicast_offered", r.multicast_offered),
            ("source_queue_flits", r.source_queue_flits),
        ] {
            assert!(rate.is_nan(), "{scheme}: {name} = {rate} over a 2-cycle window of a closed workload");
        }
        assert!(r.channel_utilisation.iter().all(|u| u.is_nan()));
        // every source sent to the group: the batch completes when its last operation does
        assert_eq!(r.operations_measured, 16, "{scheme}");
        assert_eq!(r.completion_cycles, r.latency_max, "{scheme}: every operation starts at cycle 0");
        assert!((r.cycles as f64) > r.completion_cycles, "{scheme}");
        assert!(r.completion_dest_mean <= r.completion_cycles && r.completion_dest_p50 <= r.completion_dest_p99);
        assert!(r.packets_measured > 0, "{scheme}: every packet of a closed workload is measured");
    }
}

#[test]
fn a_multicast_that_did_not_finish_has_no_completion() {
    // the root's overhead per message outlasts the run, and a message too long for it
    for s in [torus(1_000_000_000_000, 4), torus(0, 1_000_000)] {
        let r = flitcast_core::run(&s).unwrap();
        assert!(r.saturated && r.saturation_reason.contains("incomplete"), "{}", r.saturation_reason);
        for (name, value) in [
            ("completion_cycles", r.completion_cycles),
            ("completion_dest_mean", r.completion_dest_mean),
            ("completion_dest_p99", r.completion_dest_p99),
            ("link_concentration", r.link_concentration),
            ("link_concurrency", r.link_concurrency),
        ] {
            assert!(value.is_nan(), "{name} = {value} for a multicast that did not finish");
        }
        assert!(r.cycles <= 20_002);
    }
    // the root finished sending (15 messages of o_s) though the multicast did not: its busy time counts
    let r = flitcast_core::run(&torus(10, 1_000_000)).unwrap();
    assert_eq!(r.root_busy_cycles, 150.0);
    // the root did not finish sending: no busy time
    assert!(flitcast_core::run(&torus(1_000_000_000_000, 4)).unwrap().root_busy_cycles.is_nan());
}

#[test]
fn a_finished_torus_multicast_ends_with_its_last_reception() {
    let r = flitcast_core::run(&torus(20, 4)).unwrap();
    assert!(!r.saturated);
    assert_eq!(r.completion_cycles, r.latency_max, "the operation ends when the last receive overhead does");
    assert!((r.cycles as f64) > r.completion_cycles, "{} cycles, completion {}", r.cycles, r.completion_cycles);
    assert_eq!(r.root_busy_cycles, 15.0 * 20.0);
}

#[test]
fn a_group_of_two_is_a_multicast() {
    let open = |program: &str| {
        Scenario::of(json!({
            "network": {"topology": "fat_tree", "k": 4, "n": 2},
            "switch": {"model": "central_buffer"},
            "routing": {"algorithm": "adaptive"},
            "workload": {"program": program, "destinations": 1, "load": 0.1},
            "run": {"warmup_cycles": 1_000, "measure_cycles": 10_000},
        }))
    };
    for program in ["hardware_multicast", "software_multicast"] {
        let r = flitcast_core::run(&open(program)).unwrap();
        assert!(r.multicast_throughput > 0.0, "{program}: {}", r.multicast_throughput);
        assert!(r.latency_multicast_mean > 0.0 && r.latency_unicast_mean.is_nan(), "{program}");
    }
}
