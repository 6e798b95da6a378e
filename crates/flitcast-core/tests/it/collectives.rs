//! Collective operations (docs/models/collectives.md): every operation and algorithm completes with
//! each member served exactly once; at zero load, where no two messages meet, the simulated completion
//! is the α-β-γ estimate to the cycle, and elsewhere it is never below it.

use flitcast_core::collective::{algorithms, Algorithm, Operation};
use flitcast_core::Scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

/// One collective on `network` (its switch and routing), the workload's other keys from `workload`.
fn collective(network: &(Value, &str, &str), operation: Operation, algorithm: Algorithm, workload: Value) -> Scenario {
    let (topology, switch, routing) = network;
    let mut w = json!({"program": "collective", "operation": operation.name(), "scheme": algorithm.name()});
    w.as_object_mut().unwrap().extend(workload.as_object().unwrap().clone());
    Scenario::of(json!({
        "network": topology,
        "switch": {"model": switch},
        "routing": {"algorithm": routing},
        "workload": w,
        "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 200_000},
    }))
}

fn crossbar(switch: &'static str) -> (Value, &'static str, &'static str) {
    (json!({"topology": "fat_tree", "k": 8, "n": 1}), switch, "adaptive")
}

fn software() -> impl Iterator<Item = (Operation, Algorithm)> {
    Operation::ALL
        .iter()
        .flat_map(|&op| algorithms(op).iter().map(move |&a| (op, a)))
        .filter(|&(_, a)| a != Algorithm::Hardware)
}

fn run(s: &Scenario) -> flitcast_core::RunResult {
    let r = flitcast_core::run(s).unwrap();
    assert!(!r.saturated, "{}", r.saturation_reason);
    assert_eq!(r.operations_measured, 1);
    r
}

#[test]
fn on_one_switch_the_simulated_completion_is_the_estimate() {
    // One crossbar: every message has its own input and output, and a rank's sends queue at its NIC
    // as the estimate's do, so nothing waits that the estimate does not see — as long as no rank
    // receives two messages at once. With P not a power of two, a binomial reduce's root and the
    // fold's odd ranks do (their ejection channel serialises them; the estimate does not: the
    // difference is the second message's length, docs/models/collectives.md), so there only powers
    // of two are exact.
    let costs =
        [json!({}), json!({"send_overhead_cycles": 7, "receive_overhead_cycles": 5, "reduce_cycles_per_flit": 0.5})];
    let one_at_a_time = |op: Operation, a: Algorithm| {
        op == Operation::Broadcast || matches!(a, Algorithm::Ring | Algorithm::Pairwise | Algorithm::Dissemination)
    };
    for switch in ["central_buffer", "input_buffered"] {
        for (operation, algorithm) in software() {
            let sizes = [
                (8, 0, 64, 8),
                (4, 3, 100, 16),
                (8, 5, 1, 1),
                (2, 1, 33, 8),
                (5, 3, 100, 16),
                (7, 6, 1, 1),
                (6, 2, 8, 3),
            ];
            for (size, root, flits, segment) in sizes {
                if !(size as u32).is_power_of_two() && !one_at_a_time(operation, algorithm) {
                    continue;
                }
                for extra in &costs {
                    let mut w =
                        json!({"group_size": size, "root": root, "message_flits": flits, "segment_flits": segment});
                    w.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
                    let r = run(&collective(&crossbar(switch), operation, algorithm, w.clone()));
                    assert_eq!(r.completion_cycles, r.estimate_cycles, "{switch} {operation:?} {algorithm:?} {w}");
                }
            }
        }
    }
}

#[test]
fn the_dissemination_barrier_takes_ceil_log2_p_rounds_for_any_p() {
    // On one switch a round is one one-flit message, the P = 2 barrier's time: ⌈log₂ P⌉ of them, P not a
    // power of two included, where recursive doubling's fold adds two (docs/models/collectives.md)
    let net = crossbar("input_buffered");
    let costs = json!({"send_overhead_cycles": 50, "receive_overhead_cycles": 50});
    let at = |algorithm: Algorithm, size: u32| {
        let mut w = json!({"group_size": size});
        w.as_object_mut().unwrap().extend(costs.as_object().unwrap().clone());
        run(&collective(&net, Operation::Barrier, algorithm, w))
    };
    let round = at(Algorithm::Dissemination, 2).completion_cycles;
    for size in 2..=8u32 {
        let r = at(Algorithm::Dissemination, size);
        let rounds = (32 - (size - 1).leading_zeros()) as f64;
        assert_eq!((r.completion_cycles, r.estimate_cycles), (rounds * round, rounds * round), "P = {size}");
        let folded = at(Algorithm::RecursiveDoubling, size);
        if size.is_power_of_two() {
            assert_eq!(folded.completion_cycles, r.completion_cycles, "P = {size}");
        } else {
            // (the fold's and the unfold's start-ups, less what the exchange overlaps with them)
            assert!(folded.completion_cycles > r.completion_cycles, "P = {size}");
        }
    }
    // and it is the barrier's default (MPICH's)
    let s = Scenario::of(json!({"network": {"topology": "fat_tree", "k": 8, "n": 1},
        "switch": {"model": "input_buffered"}, "routing": {"algorithm": "adaptive"},
        "workload": {"program": "collective", "operation": "barrier", "group_size": 3,
            "send_overhead_cycles": 50, "receive_overhead_cycles": 50},
        "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2}}));
    let default = flitcast_core::run(&s).unwrap().completion_cycles;
    assert_eq!(default, at(Algorithm::Dissemination, 3).completion_cycles);
    assert!(default < at(Algorithm::RecursiveDoubling, 3).completion_cycles);
}

#[test]
fn a_hardware_broadcast_on_the_infiniband_mesh_is_the_estimate() {
    // one worm, replicated along dimension-order paths that share no channel
    let mesh = (json!({"topology": "mesh", "k": 4, "n": 2}), "infiniband", "dor");
    for (operation, root) in [(Operation::Broadcast, 0), (Operation::Broadcast, 5), (Operation::Allreduce, 0)] {
        let r = run(&collective(&mesh, operation, Algorithm::Hardware, json!({"root": root, "message_flits": 64})));
        assert_eq!(r.completion_cycles, r.estimate_cycles, "{operation:?} root {root}");
    }
}

#[test]
fn elsewhere_contention_only_adds_to_the_estimate() {
    let networks = [
        (json!({"topology": "fat_tree", "k": 4, "n": 2}), "central_buffer", "adaptive"),
        (json!({"topology": "mesh", "k": 4, "n": 2}), "input_buffered", "dor"),
        (json!({"topology": "torus", "k": 4, "n": 2}), "input_buffered", "dor"),
    ];
    let mut slower = 0;
    for network in &networks {
        for (operation, algorithm) in software() {
            let w = json!({"group_size": 11, "members": "random", "root": 4, "message_flits": 64});
            let r = run(&collective(network, operation, algorithm, w));
            assert!(r.completion_cycles >= r.estimate_cycles, "{network:?} {operation:?} {algorithm:?}");
            assert!(r.completion_dest_mean <= r.completion_cycles && r.completion_dest_p50 <= r.completion_dest_p99);
            slower += usize::from(r.completion_cycles > r.estimate_cycles);
        }
    }
    // (and contention is real: on the mesh, recursive doubling's and all-to-all's exchanges share links)
    assert!(slower > 0);
    // on the central buffer, replication costs more than a unicast's latency: never less than the estimate
    let tree = (json!({"topology": "fat_tree", "k": 4, "n": 2}), "central_buffer", "adaptive");
    for operation in [Operation::Broadcast, Operation::Allreduce] {
        let r = run(&collective(&tree, operation, Algorithm::Hardware, json!({"message_flits": 64})));
        assert!(r.completion_cycles >= r.estimate_cycles, "{operation:?}");
    }
}

#[test]
fn a_larger_vector_takes_longer_and_overheads_add_up() {
    let net = crossbar("central_buffer");
    for (operation, algorithm) in software() {
        let at = |w: Value| run(&collective(&net, operation, algorithm, w)).completion_cycles;
        let (small, large) = (at(json!({"message_flits": 8})), at(json!({"message_flits": 512})));
        if operation == Operation::Barrier {
            assert_eq!(small, large, "a barrier carries no data");
        } else {
            assert!(large > small, "{operation:?} {algorithm:?}");
        }
        assert!(at(json!({"message_flits": 8, "send_overhead_cycles": 100})) >= small + 100.0);
    }
}

#[test]
fn a_bad_collective_is_refused_naming_the_key() {
    let cases = [
        (
            json!({"operation": "alltoall", "scheme": "ring"}),
            "workload.scheme",
            "'pairwise' for workload.operation = 'alltoall'",
        ),
        (json!({"group_size": 17}), "workload.group_size", "from 2 to 16"),
        (json!({"group_size": 4, "root": 4}), "workload.root", "below the group's size, 4"),
    ];
    for (w, key, allowed) in cases {
        let mut scenario = json!({
            "network": {"topology": "mesh", "k": 4},
            "workload": {"program": "collective"},
            "run": {"warmup_cycles": 0},
        });
        scenario["workload"].as_object_mut().unwrap().extend(w.as_object().unwrap().clone());
        let err = Scenario::from_json(&scenario.to_string()).unwrap_err().to_string();
        assert!(err.contains(key) && err.contains(allowed), "{err}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Any group, size, root, algorithm and message: the collective completes (each member served
    /// exactly once: the operation's accounting refuses a second), no faster than its estimate.
    #[test]
    fn every_collective_completes_exactly_once(
        op in 0..Operation::ALL.len(), alg in 0..5usize, size in 2u32..17, root in 0u32..16,
        flits in 1u32..200, members in prop::bool::ANY, seed in 0u64..1000, mesh in prop::bool::ANY,
    ) {
        let operation = Operation::ALL[op];
        let allowed: Vec<Algorithm> = algorithms(operation).iter().copied().filter(|&a| a != Algorithm::Hardware).collect();
        let algorithm = allowed[alg % allowed.len()];
        let network = if mesh {
            (json!({"topology": "mesh", "k": 4, "n": 2}), "input_buffered", "dor")
        } else {
            (json!({"topology": "fat_tree", "k": 4, "n": 2}), "central_buffer", "adaptive")
        };
        let w = json!({
            "group_size": size, "root": root % size, "message_flits": flits,
            "members": if members { "random" } else { "first" },
        });
        let mut s = collective(&network, operation, algorithm, w);
        s.run.seed = seed;
        let r = flitcast_core::run(&s).unwrap();
        prop_assert!(!r.saturated, "{}", r.saturation_reason);
        prop_assert_eq!(r.operations_measured, 1);
        prop_assert!(r.completion_cycles >= r.estimate_cycles);
    }
}

#[test]
fn an_all_to_all_too_big_for_memory_is_refused_before_it_is_built() {
    // 65,536 ranks: 4.3 G messages
    let s = Scenario::of(json!({
        "network": {"topology": "torus", "k": 256, "n": 2},
        "workload": {"program": "collective", "operation": "alltoall"},
        "run": {"warmup_cycles": 0},
    }));
    let err = flitcast_core::run(&s).unwrap_err().to_string();
    assert!(err.contains("run.memory_limit_mb") && err.contains("collective schedule"), "{err}");
}

/// Allreduces at a rate on one 8-port switch: an open workload.
fn repeated(load: f64) -> Scenario {
    let mut s = collective(
        &crossbar("central_buffer"),
        Operation::Allreduce,
        Algorithm::Rabenseifner,
        json!({"message_flits": 8, "load": load}),
    );
    s.run.warmup_cycles = 2_000;
    s.run.measure_cycles = 50_000;
    s.run.drain_max_cycles = 20_000;
    s
}

#[test]
fn collectives_at_a_rate_give_a_latency_load_curve() {
    // rarely two at once: the median collective is alone, and takes the estimate (one switch, 8 ranks)
    let light = flitcast_core::run(&repeated(0.02)).unwrap();
    assert!(!light.saturated, "{}", light.saturation_reason);
    assert!(light.operations_measured > 40, "{}", light.operations_measured);
    assert_eq!(light.latency_p50, light.estimate_cycles);
    assert!((light.offered_load - 0.02).abs() < 0.006, "offered {}", light.offered_load);
    assert!((light.accepted_load - light.offered_load).abs() < 0.01 * light.offered_load.max(0.1));
    assert!(light.completion_cycles.is_nan(), "an open workload has no completion");
    // busier: collectives queue behind each other, and latency grows
    let busy = flitcast_core::run(&repeated(0.2)).unwrap();
    assert!(busy.latency_mean > light.latency_mean);
    // past what the members can do, the collectives pile up: saturated
    let over = flitcast_core::run(&repeated(1.0)).unwrap();
    assert!(over.saturated, "{} {}", over.latency_mean, over.accepted_load);
}

#[test]
fn the_loads_of_collectives_count_the_flits_their_schedules_send() {
    // below saturation what is applied is what is sent and what arrives: the effective load counts each
    // message of the schedule once per receiver, not workload.message_flits once per member (a barrier's
    // messages are one flit whatever the message size; an all-to-all's P − 1 blocks per member)
    for (operation, algorithm, flits) in [
        (Operation::Barrier, Algorithm::Binomial, 1),
        (Operation::Barrier, Algorithm::Binomial, 500),
        (Operation::Alltoall, Algorithm::Pairwise, 16),
        (Operation::Broadcast, Algorithm::Binomial, 16),
    ] {
        let mut s = collective(
            &crossbar("central_buffer"),
            operation,
            algorithm,
            json!({"message_flits": flits, "load": 0.01}),
        );
        (s.run.warmup_cycles, s.run.measure_cycles) = (2_000, 100_000);
        let r = flitcast_core::run(&s).unwrap();
        let what = format!("{operation:?} {algorithm:?} {flits} flits");
        assert!(!r.saturated, "{what}: {}", r.saturation_reason);
        assert!(
            (r.effective_load - r.offered_load).abs() < 0.1 * r.offered_load,
            "{what}: {} {}",
            r.effective_load,
            r.offered_load
        );
        assert!(
            (r.accepted_load - r.effective_load).abs() < 0.1 * r.effective_load,
            "{what}: {} {}",
            r.accepted_load,
            r.effective_load
        );
    }
}

#[test]
fn a_rate_that_saturates_in_the_warm_up_keeps_its_loads() {
    // stopped before its window (too many collectives incomplete), the point still says what it applied:
    // its loads over the cycles it ran, marked saturated, nothing measured
    let mut s = repeated(1.0);
    s.run.warmup_cycles = 100_000;
    let r = flitcast_core::run(&s).unwrap();
    assert!(r.saturated && r.measured_cycles == 0, "{}", r.saturation_reason);
    assert!(r.offered_load > 0.1 && r.effective_load > 0.1, "{} {}", r.offered_load, r.effective_load);
    assert!(r.accepted_load.is_nan() && r.latency_mean.is_nan());
}

#[test]
fn the_estimate_without_a_run_is_the_one_a_run_reports() {
    let tree = (json!({"topology": "fat_tree", "k": 4, "n": 2}), "central_buffer", "adaptive");
    for (operation, algorithm) in software() {
        let s = collective(
            &tree,
            operation,
            algorithm,
            json!({"group_size": 11, "members": "random", "message_flits": 40}),
        );
        let (members, estimate) = flitcast_core::collective_estimate(&s).unwrap();
        assert_eq!(members.len(), 11);
        assert_eq!(estimate.completion() as f64, run(&s).estimate_cycles, "{operation:?} {algorithm:?}");
    }
    let err = flitcast_core::collective_estimate(&Scenario::default()).unwrap_err().to_string();
    assert!(err.contains("workload.program") && err.contains("'collective'"), "{err}");
}

#[test]
fn a_closed_run_counts_the_flits_each_link_between_routers_carried() {
    // A pipelined chain broadcast on a line of 4 routers, one member each: the links 0→1, 1→2, 2→3
    // each carry the message once, the 3 links back carry nothing: the most is the message, the mean
    // over the 6 links half of it.
    let line = (json!({"topology": "mesh", "k": 4, "n": 1}), "input_buffered", "dor");
    let s = collective(
        &line,
        Operation::Broadcast,
        Algorithm::Chain,
        json!({"message_flits": 64, "segment_flits": 16, "packet_flits": 16}),
    );
    let r = run(&s);
    assert_eq!((r.link_flits_max, r.link_flits_mean), (64.0, 32.0));
    assert!(r.channel_util_max.is_nan(), "a closed run has no rates");
    // an open workload has no such counts (its channel_util_* say it per cycle of its window)
    let open = Scenario::of(json!({"network": {"topology": "mesh", "k": 4, "n": 1}, "workload": {"load": 0.1},
        "run": {"warmup_cycles": 100, "measure_cycles": 1_000}}));
    let r = flitcast_core::run(&open).unwrap();
    assert!(r.link_flits_max.is_nan() && r.link_flits_mean.is_nan() && r.channel_util_max > 0.0);
}
