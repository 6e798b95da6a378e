//! Hardware multicast (study 000 §3–§5): multidestination worms replicated by the central-buffer and
//! input-FIFO switches. Every destination is served exactly once (the engine stops with a
//! conservation error otherwise), zero-load latency follows the switches' timing, saturation does
//! not deadlock either switch, and the deliberately broken admission rule does.

use flitcast_core::{Error, Scenario, Simulation};
use serde_json::json;

use super::central_buffer::sp;

/// The study's 16-node tree (k = 4, n = 2), 128-byte messages, hardware multicast on `model` (the
/// `central_buffer` or the `input_fifo` switch, with its 320-flit FIFOs, timing as `sp`'s).
pub fn hw_tree16(model: &str, m: u32, load: f64) -> Scenario {
    sp("fat_tree", "adaptive").set(&[
        ("network.k", json!(4)),
        ("network.n", json!(2)),
        ("switch.model", json!(model)),
        ("workload.program", json!("hardware_multicast")),
        ("workload.destinations", json!(m)),
        ("workload.load", json!(load)),
    ])
}

const MODELS: [&str; 2] = ["central_buffer", "input_fifo"];

#[test]
fn every_multicast_completes_and_loads_add_up() {
    for model in MODELS {
        for m in [2, 6, 15] {
            let s = hw_tree16(model, m, 0.3).set(&[("run.measure_cycles", json!(100_000))]);
            let r = flitcast_core::run(&s).unwrap();
            assert!(!r.saturated, "{model} m = {m}: {}", r.saturation_reason);
            assert!(r.operations_measured > 50, "{model} m = {m}");
            assert!((r.effective_load - 0.3).abs() < 0.03, "{model} m = {m}: effective load {}", r.effective_load);
            // one message per operation: offered = B_i = effective / m
            assert!((r.offered_load * m as f64 - r.effective_load).abs() < 0.02, "{model} m = {m}");
            // delivered flits include the worm's one header flit (16 nodes, 2-byte flits)
            let expected = r.effective_load * 65.0 / 64.0;
            assert!((r.accepted_load - expected).abs() < 0.02, "{model} m = {m}: {} vs {expected}", r.accepted_load);
            assert!(r.latency_mean >= r.latency_dest_mean, "{model} m = {m}");
            assert_eq!(
                r.packets_measured,
                r.operations_measured * m as u64,
                "{model} m = {m}: a packet per destination"
            );
        }
    }
}

/// Zero-load arrival of every destination's tail on the idle 16-node tree, from the switches' timing
/// (docs/models/multicast.md, "Zero-load latency"). A unicast through h switches takes
/// h·(D + l) + l + (F − 1). A switch that replicates k ways sends branch j (its j-th output in port
/// order) 7 + j cycles later than a cut-through would: the header chunk's deserialisation, then one
/// chunk read per cycle. The central buffer also writes the header chunk k times before the next chunk
/// can be assembled, which holds every branch back k − 1 cycles once; along a path the largest such
/// hold-up counts (a later switch's own hold-up absorbs the gap an earlier one left in the stream).
fn closed_form(model: &str, src: u32, dests: &[u32]) -> Vec<u64> {
    let (d, l, flits) = (6u64, 1u64, 65u64);
    let leaf = |t: u32| t / 4;
    let leaves: std::collections::BTreeSet<u32> = dests.iter().map(|&t| leaf(t)).collect();
    let up = !(leaves.len() == 1 && leaves.contains(&leaf(src)));
    dests
        .iter()
        .map(|&t| {
            let switches = if up { 3 } else { 1 };
            let mut extra = 0;
            let mut hold = 0;
            // (the replicating switches on t's path: the root, then t's leaf; each with its fan-out)
            let mut fans: Vec<(u64, u64)> = Vec::new();
            if up && leaves.len() > 1 {
                let j = leaves.iter().position(|&x| x == leaf(t)).unwrap() as u64;
                fans.push((leaves.len() as u64, j));
            }
            let here: Vec<u32> = dests.iter().copied().filter(|&x| leaf(x) == leaf(t)).collect();
            if here.len() > 1 {
                fans.push((here.len() as u64, here.iter().position(|&x| x == t).unwrap() as u64));
            }
            for (k, j) in fans {
                extra += 7 + j;
                if model == "central_buffer" {
                    hold = hold.max(k - 1);
                }
            }
            switches * (d + l) + l + (flits - 1) + extra + hold
        })
        .collect()
}

#[test]
fn zero_load_hardware_multicast_matches_the_closed_form() {
    let cases: [(u32, &[u32]); 6] = [
        (0, &[1, 2, 3]),
        (5, &[4, 6]),
        (0, &[5, 9, 14]),
        (0, &[4, 5, 8, 9]),
        (7, &[0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15]),
        (9, &[3, 10, 12, 13, 14]),
    ];
    for model in MODELS {
        for (src, dests) in cases {
            let times = closed_form(model, src, dests);
            let last = *times.iter().max().unwrap();
            let mean = times.iter().sum::<u64>() as f64 / times.len() as f64;
            let s = hw_tree16(model, dests.len() as u32, 0.1);
            let (a, b) = Simulation::build(&s).unwrap().probe_multicast(src, dests).unwrap();
            assert_eq!((a, b), (last, mean), "{model}: {src} -> {dests:?} ({times:?})");
        }
    }
}

#[test]
fn saturation_does_not_deadlock_either_switch() {
    // past saturation for a while: the watchdog would stop a deadlocked run with an error
    for model in MODELS {
        // (16 nodes, m = 2, 128 B at full load deadlocked the central buffer before up-bound packets
        // left room for down-bound ones; 64 nodes replicate at every level)
        for (n, m, flits) in [(2, 2, 64), (2, 4, 64), (3, 2, 64), (3, 6, 256), (3, 15, 64)] {
            let s = hw_tree16(model, m, 1.0).set(&[
                ("workload.message_flits", json!(flits)),
                ("workload.packet_flits", json!(flits)),
                ("network.n", json!(n)),
                ("run.warmup_cycles", json!(5_000)),
                ("run.measure_cycles", json!(if n == 2 { 150_000 } else { 40_000 })),
                ("run.saturation_stop", json!("off")),
            ]);
            let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{model} m = {m}: {e}"));
            assert!(r.accepted_load > 0.3, "{model} m = {m}: accepted {}", r.accepted_load);
        }
    }
}

#[test]
fn central_buffer_without_reservation_deadlocks_and_the_watchdog_names_it() {
    // multicast headers admitted without reserving room for the whole packet: partly written
    // multicasts fill the buffer, none can finish, and their outputs wait for ever (study 000 §4.2.2)
    let s = hw_tree16("central_buffer", 15, 1.0).set(&[
        ("switch.multicast_admission", json!("unreserved")),
        ("workload.message_flits", json!(256)),
        ("workload.packet_flits", json!(256)),
        ("switch.central_buffer_chunks", json!(80)),
        ("run.measure_cycles", json!(200_000)),
    ]);
    match flitcast_core::run(&s) {
        Err(e @ Error::Deadlock { .. }) => {
            let text = e.to_string();
            assert!(text.contains("replicating a multicast into the central buffer"), "{text}");
        }
        other => panic!("expected a deadlock, got {other:?}"),
    }
    // the same traffic under the VCT-emulation rule completes
    let s = s.set(&[("switch.multicast_admission", json!("reserve")), ("run.measure_cycles", json!(50_000))]);
    flitcast_core::run(&s).unwrap();
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// Random degrees, sizes, loads (up to past saturation), trees and both switches: every
    /// destination of every multicast is served exactly once (the engine stops with a conservation
    /// error otherwise, and checks flit conservation with the copies made at the end), and (a) is
    /// never below (b).
    #[test]
    fn hardware_multicasts_serve_every_destination_once(
        m in 1u32..16, flits in 1u32..200, load in 0.02f64..1.0, n in 2u32..4, fifo in proptest::bool::ANY,
        fraction in 0.1f64..1.0, seed in 0u64..1000,
    ) {
        let model = if fifo { "input_fifo" } else { "central_buffer" };
        let s = hw_tree16(model, m, load).set(&[
            ("network.n", json!(n)),
            ("workload.message_flits", json!(flits)),
            ("workload.packet_flits", json!(flits.min(128))),
            ("workload.multicast_fraction", json!(fraction)),
            ("run.seed", json!(seed)),
            ("run.warmup_cycles", json!(500)),
            ("run.measure_cycles", json!(3_000)),
            ("run.drain_max_cycles", json!(5_000)),
        ]);
        let r = flitcast_core::run(&s).unwrap();
        proptest::prop_assert!(r.operations_measured == 0 || r.latency_mean >= r.latency_dest_mean);
    }
}

#[test]
fn the_share_kept_for_down_bound_packets_keeps_the_tree_free_of_deadlock() {
    // the study's admission rule alone (reserve_unshared): at full load a leaf's buffer fills with
    // up-bound chunks waiting for its parent's inputs, whose fronts are multicasts waiting for room in
    // a buffer full of down-bound chunks waiting for the leaf's inputs (docs/models/central_buffer.md)
    let s = hw_tree16("central_buffer", 2, 1.0)
        .set(&[("switch.multicast_admission", json!("reserve_unshared")), ("run.measure_cycles", json!(300_000))]);
    match flitcast_core::run(&s) {
        Err(Error::Deadlock { .. }) => {}
        other => panic!("expected a deadlock, got {other:?}"),
    }
    // with up-bound packets kept off the last chunks, the same traffic runs
    let s = s.set(&[("switch.multicast_admission", json!("reserve"))]);
    flitcast_core::run(&s).unwrap();
}
