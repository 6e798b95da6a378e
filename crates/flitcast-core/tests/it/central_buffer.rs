//! The SP central-buffer switch (study 000 §4.1, §7.1; study 002 §2): zero-load latency through 1,
//! 3, 5 and 6 switches is the closed form of its timing; the central-buffer path adds the chunk
//! assembly; chunks are never lost; heavy load never deadlocks the SP networks.

use flitcast_core::{Scenario, Simulation};
use serde_json::json;

/// An SP network of central-buffer switches with the study's timing (6-cycle minimum, 4 to request:
/// the switch's defaults), `algorithm` routing (adaptive with LRU selection).
pub fn sp(topology: &str, algorithm: &str) -> Scenario {
    let routing = if algorithm == "adaptive" {
        json!({"algorithm": algorithm, "selection": "lru"})
    } else {
        json!({"algorithm": algorithm})
    };
    Scenario::of(json!({
        "network": {"topology": topology},
        "switch": {"model": "central_buffer", "buffer_flits": 64, "router_delay_cycles": 6},
        "routing": routing,
        "workload": {"packet_flits": 64, "message_flits": 64},
        "run": {"warmup_cycles": 2_000, "measure_cycles": 20_000, "drain_max_cycles": 50_000},
    }))
}

#[test]
fn zero_load_latency_through_1_3_5_6_switches() {
    // T0 = chips · (router delay + channel latency) + channel latency + (flits − 1).
    let s = sp("sp128", "adaptive");
    let (d, l, f) = (6u64, 1u64, 64u64);
    for (src, dst, chips) in [(13, 8, 1u64), (0, 15, 3), (0, 40, 5), (0, 127, 6)] {
        let p = Simulation::build(&s).unwrap().probe(src, dst).unwrap();
        assert_eq!(p.hops as u64 + 1, chips, "{src}->{dst}");
        assert_eq!(p.latency, chips * (d + l) + l + (f - 1), "{src}->{dst}");
    }
    // The timing is configuration: 10 cycles through a switch, 3 of them before the request.
    let s = s.set(&[
        ("switch.router_delay_cycles", json!(10)),
        ("switch.route_cycles", json!(3)),
        ("network.channel_latency_cycles", json!(2)),
    ]);
    let p = Simulation::build(&s).unwrap().probe(0, 127).unwrap();
    assert_eq!(p.latency, 6 * (10 + 2) + 2 + 63);
}

#[test]
fn the_central_buffer_path_costs_the_chunk_assembly() {
    // Plain numbering: nodes 0 and 1 sit on node chip SW4, node 4 on SW5. With d-mod-k O1 both
    // packets to node 4 leave SW4 by the same up port. A (8 flits) is created at 0 and crosses SW4 at cycles
    // 5-12; B is created at 7, is ready to request at 12 — A's tail is still crossing — gets no grant
    // and goes into the central buffer: 8 flits read into the chunk register in cycles 12-19, the
    // chunk written, read and its head sent at 19, 7 cycles after its request.
    let s = sp("sp16", "o1").set(&[
        ("network.node_numbering", json!("plain")),
        // d-mod-k: every route to node 4 takes up port 4, whatever the source.
        ("routing.oblivious_table", json!("d_mod_k")),
        ("workload.packet_flits", json!(8)),
        ("workload.message_flits", json!(8)),
    ]);
    let t0 = 3 * (6 + 1) + 1 + 7;
    let p = Simulation::build(&s).unwrap().probe_many(&[(0, 0, 4), (7, 1, 4)]).unwrap();
    assert_eq!(p[0].latency, t0, "A cuts through");
    assert_eq!(p[1].latency, t0 + 7, "B pays the 7-cycle chunk assembly");
    // Created one cycle later, B requests after A's tail has gone: the crossbar is free again.
    let p = Simulation::build(&s).unwrap().probe_many(&[(0, 0, 4), (8, 1, 4)]).unwrap();
    assert_eq!(p[1].latency, t0);
}

#[test]
fn a_hotspot_is_held_to_its_ejection_link() {
    // Two sources on one node chip send to the same destination on another chip at the same time
    // through a one-route network: the second packet finds the shared output busy, goes into the
    // central buffer and follows the first one out of it.
    let s = sp("sp16", "o1").set(&[
        ("network.node_numbering", json!("plain")),
        ("workload.pattern", json!("hotspot")),
        ("workload.hotspot_nodes", json!([15])),
        ("workload.hotspot_fraction", json!(1.0)),
        ("workload.load", json!(0.2)),
        ("run.measure_cycles", json!(30_000)),
    ]);
    let r = flitcast_core::run(&s).unwrap();
    // Everything reaches node 15 and the ejection link is the bottleneck: 1 flit/cycle in total.
    assert!(r.accepted_load <= 1.0 / 16.0 + 1e-9 && r.accepted_load > 0.055, "{}", r.accepted_load);
}

#[test]
fn chunks_all_come_back_and_nothing_deadlocks_past_saturation() {
    for topo in ["sp16", "sp128"] {
        for algorithm in ["adaptive", "o1", "o4"] {
            for pattern in ["uniform", "bit_reversal"] {
                let s = sp(topo, algorithm).set(&[
                    ("workload.pattern", json!(pattern)),
                    ("workload.load", json!(1.0)),
                    ("workload.packet_flits", json!(512)),
                    ("workload.message_flits", json!(1024)),
                    ("switch.central_buffer_chunks", json!(64)), // small, so it fills up
                    ("run.warmup_cycles", json!(1_000)),
                    ("run.measure_cycles", json!(5_000)),
                    ("run.drain_max_cycles", json!(5_000)),
                    ("run.watchdog_cycles", json!(2_000)),
                ]);
                // Conservation (buffers, channels) and the central buffer's chunk accounting are
                // checked at the end of every run.
                flitcast_core::run(&s).unwrap_or_else(|e| panic!("{topo} {algorithm} {pattern}: {e}"));
            }
        }
    }
}
