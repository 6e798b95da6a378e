//! One simulation split across threads (`run.threads`, docs/engine.md "Regions") gives the result of
//! one thread to the bit: every switch model, every study's network and workload program, and random
//! small scenarios on random thread counts.

use flitcast_core::Scenario;
use proptest::prelude::*;
use serde_json::json;

use super::central_buffer::sp;
use super::hardware_multicast::hw_tree16;
use super::host_adapter::casetti;
use super::infiniband::iba_mesh;

/// The whole result as JSON (so NaN fields compare equal to themselves), or the error.
fn fingerprint(s: &Scenario, threads: u32) -> String {
    match flitcast_core::run(&s.set(&[("run.threads", json!(threads))])) {
        Ok(r) => serde_json::to_string(&r).unwrap(),
        Err(e) => format!("error: {e}"),
    }
}

fn short(s: Scenario, warmup: u64, measure: u64) -> Scenario {
    s.set(&[("run.warmup_cycles", json!(warmup)), ("run.measure_cycles", json!(measure))])
}

/// Every study's network and program, and every switch model, shortened.
fn studies() -> Vec<(&'static str, Scenario)> {
    let mesh = |load: f64| short(Scenario::default(), 500, 3_000).set(&[("workload.load", json!(load))]);
    let tree16 = |program: &str, model: &str| {
        let s = hw_tree16(model, 6, 0.3).set(&[("workload.program", json!(program))]);
        let s = if model == "input_fifo" { s.set(&[("switch.buffer_flits", json!(320))]) } else { s };
        short(s, 500, 3_000)
    };
    let sp_net = |net: &str, model: &str, load: f64| {
        let s = sp(net, "adaptive").set(&[
            ("switch.model", json!(model)),
            ("workload.pattern", json!("bit_reversal")),
            ("workload.load", json!(load)),
        ]);
        let s = if model == "input_fifo" { s.set(&[("switch.buffer_flits", json!(320))]) } else { s };
        short(s, 500, 2_000)
    };
    let batch = |scheme: &str| {
        iba_mesh(4, 2, 4).set(&[
            ("workload.program", json!("batch")),
            ("workload.source_share", json!(0.5)),
            ("workload.group_share", json!(0.5)),
            ("workload.scheme", json!(scheme)),
            ("run.warmup_cycles", json!(0)),
            ("run.measure_cycles", json!(2)),
            ("run.batches", json!(2)),
        ])
    };
    let torus_multicast = |scheme: &str| {
        Scenario::of(json!({
            "network": {"topology": "torus", "unidirectional": true, "k": 4},
            "switch": {"turn_cycles": 7},
            "workload": {
                "program": "torus_multicast",
                "group_size": 16,
                "scheme": scheme,
                "message_flits": 4,
                "send_overhead_cycles": 100,
                "receive_overhead_cycles": 90,
            },
            "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 20_000},
        }))
    };
    let adapters = |scheme: &str| {
        casetti(scheme, 0.02).set(&[
            ("run.warmup_cycles", json!(1_000)),
            ("run.measure_cycles", json!(6_000)),
            ("run.drain_max_cycles", json!(20_000)),
        ])
    };
    vec![
        // the open network: input-buffered routers, mesh and torus, wormhole and VCT
        ("mesh8 input_buffered 0.3", mesh(0.3)),
        ("mesh8 input_buffered saturated", mesh(0.7)),
        (
            "torus8 vct tornado",
            mesh(0.25).set(&[
                ("network.topology", json!("torus")),
                ("switch.flow_control", json!("vct")),
                ("workload.pattern", json!("tornado")),
            ]),
        ),
        (
            "ring6 latency 3",
            mesh(0.2).set(&[
                ("network.topology", json!("ring")),
                ("network.k", json!(6)),
                ("network.unidirectional", json!(true)),
                ("network.channel_latency_cycles", json!(3)),
                ("switch.router_delay_cycles", json!(2)),
            ]),
        ),
        // study 000: the 16-node tree, hardware and software multicast, both SP switch models
        ("tree16 hardware multicast central_buffer", tree16("hardware_multicast", "central_buffer")),
        ("tree16 hardware multicast input_fifo", tree16("hardware_multicast", "input_fifo")),
        ("tree16 software multicast central_buffer", tree16("software_multicast", "central_buffer")),
        ("tree16 software multicast input_fifo", tree16("software_multicast", "input_fifo")),
        // study 001: host adapters on the 8x8 torus, stop/go slack buffers, 50-cycle links
        ("bmsn8 host adapters tree_up_down", adapters("tree_up_down")),
        ("bmsn8 host adapters ring", adapters("ring")),
        // study 002: the SP networks, both switch models, at load and saturated
        ("sp16 central_buffer 0.6", sp_net("sp16", "central_buffer", 0.6)),
        ("sp128 central_buffer 0.5", sp_net("sp128", "central_buffer", 0.5)),
        ("sp128 input_fifo 1.0", sp_net("sp128", "input_fifo", 1.0)),
        // study 003: InfiniBand switches on a mesh, closed batches and open hardware multicast
        ("mesh4 infiniband batch hardware", batch("hardware")),
        ("mesh4 infiniband batch separate", batch("separate")),
        (
            "mesh4 infiniband batch hardware, input lanes only",
            batch("hardware").set(&[("switch.output_buffers", json!(false))]),
        ),
        (
            "mesh4 infiniband batch hardware, headers in bytes",
            Scenario::of(json!({
                "network": {"k": 4},
                "switch": {"model": "infiniband", "vcs": 2, "buffer_flits": 14},
                "workload": {"program": "batch", "source_share": 0.5, "group_share": 0.5, "message_bytes": 32,
                             "flit_bytes": 8, "max_packet_bytes": 32, "unicast_header_bytes": 34,
                             "multicast_header_bytes": 74},
                "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2},
            })),
        ),
        (
            "mesh4 infiniband multicast",
            short(iba_mesh(4, 2, 4), 500, 3_000).set(&[
                ("workload.program", json!("hardware_multicast")),
                ("workload.destinations", json!(5)),
                ("workload.load", json!(0.2)),
            ]),
        ),
        // study 004: software multicast on the unidirectional torus, with host overheads
        ("torus4 multicast separate", torus_multicast("separate")),
        ("torus4 multicast u_torus", torus_multicast("u_torus")),
        // collectives (docs/models/collectives.md): software and hardware multicast underneath
        (
            "fat tree rabenseifner allreduce",
            Scenario::of(json!({
                "network": {"topology": "fat_tree", "k": 4, "n": 2},
                "switch": {"model": "central_buffer"},
                "routing": {"algorithm": "adaptive"},
                "workload": {"program": "collective", "operation": "allreduce", "scheme": "rabenseifner",
                             "message_flits": 256, "send_overhead_cycles": 20, "reduce_cycles_per_flit": 0.5},
                "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2},
            })),
        ),
        (
            "mesh binomial broadcasts at a rate",
            Scenario::of(json!({
                "network": {"topology": "mesh", "k": 4},
                "workload": {"program": "collective", "operation": "broadcast", "load": 0.1, "message_flits": 32,
                             "group_size": 9, "members": "random"},
                "run": {"warmup_cycles": 500, "measure_cycles": 3000, "batches": 2},
            })),
        ),
        (
            "mesh hardware allreduce",
            Scenario::of(json!({
                "network": {"topology": "mesh", "k": 4},
                "switch": {"model": "infiniband"},
                "workload": {"program": "collective", "operation": "allreduce", "scheme": "hardware", "message_flits": 64},
                "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2},
            })),
        ),
    ]
}

#[test]
fn every_study_network_gives_the_same_result_on_1_2_and_3_threads() {
    for (name, s) in studies() {
        let one = fingerprint(&s, 1);
        assert!(!one.starts_with("error"), "{name}: {one}");
        for threads in [2, 3] {
            assert_eq!(fingerprint(&s, threads), one, "{name} on {threads} threads");
        }
    }
}

#[test]
fn more_threads_than_routers_leave_some_regions_empty_and_change_nothing() {
    let s = short(Scenario::default(), 200, 1_000).set(&[("network.k", json!(2)), ("workload.load", json!(0.3))]);
    assert_eq!(fingerprint(&s, 7), fingerprint(&s, 1));
}

#[test]
fn a_deadlock_is_reported_alike_on_any_thread_count() {
    // (the watchdog fires, naming the blocked channels)
    let s = super::deadlock::deadlock_prone_torus();
    let one = fingerprint(&s, 1);
    assert!(one.starts_with("error: ") && one.contains("deadlock"), "{one}");
    assert_eq!(fingerprint(&s, 3), one);
}

#[test]
fn an_absurd_thread_count_is_refused_naming_the_key() {
    let e = Scenario::default().with(&[("run.threads", json!(100_000))]).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("run.threads") && text.contains("100000"), "{text}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, max_global_rejects: 10_000, ..ProptestConfig::default() })]

    /// Random small networks, switch models, loads, latencies and seeds, on 2 to 5 threads.
    #[test]
    fn random_scenarios_are_the_same_on_any_thread_count(
        topology in prop::sample::select(vec!["mesh", "torus", "fat_tree"]),
        k in 2u32..6,
        model in prop::sample::select(vec!["input_buffered", "central_buffer", "input_fifo", "infiniband"]),
        load in 0.05f64..0.9,
        latency in 1u32..4,
        seed in 0u64..1_000,
        threads in 2u32..6,
    ) {
        let network = if topology == "fat_tree" {
            json!({"topology": "fat_tree", "k": k.min(4), "n": 2, "channel_latency_cycles": latency})
        } else {
            json!({"topology": topology, "k": k, "n": 2, "channel_latency_cycles": latency})
        };
        let mut switch = json!({"model": model});
        if model == "input_fifo" {
            switch["buffer_flits"] = json!(320);
        }
        let routing = if topology == "fat_tree" { json!({"algorithm": "adaptive"}) } else { json!({}) };
        let s = Scenario::from_json(&json!({
            "network": network,
            "switch": switch,
            "routing": routing,
            "workload": {"load": load},
            "run": {"warmup_cycles": 200, "measure_cycles": 1_500, "drain_max_cycles": 5_000, "seed": seed},
        }).to_string());
        // (some models do not fit some networks: a torus needs two virtual channels for its datelines)
        prop_assume!(s.is_ok());
        let s = s.unwrap();
        prop_assert_eq!(fingerprint(&s, threads), fingerprint(&s, 1));
    }
}
