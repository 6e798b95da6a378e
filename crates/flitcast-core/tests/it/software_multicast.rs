//! Software multicast along the binomial U-Min tree (study 000 §7): every destination served once
//! (the engine stops with a conservation error otherwise), the loads of §7.2, and a 1-way multicast
//! that is exactly the uniform unicast workload.

use flitcast_core::Scenario;
use serde_json::json;

use super::central_buffer::sp;

/// The study's 16-node tree (k = 4, n = 2) with central-buffer switches, 128-byte messages: software
/// multicasts to `m` destinations (m = 0: uniform unicast traffic) at `load`.
fn tree16(m: u32, load: f64) -> Scenario {
    let s = sp("fat_tree", "adaptive").set(&[("network.k", json!(4)), ("network.n", json!(2))]);
    if m == 0 {
        s.set(&[("workload.load", json!(load))])
    } else {
        s.set(&[
            ("workload.program", json!("software_multicast")),
            ("workload.destinations", json!(m)),
            ("workload.load", json!(load)),
        ])
    }
}

/// `s` on `model` switches: the central buffer, the input-FIFO switch of study 000 §5, or the VC router
/// (one 320-flit VC), each with the SP switch's timing.
fn on(s: Scenario, model: &str) -> Scenario {
    match model {
        "central_buffer" => s,
        "input_fifo" => s.set(&[("switch.model", json!(model)), ("switch.buffer_flits", json!(320))]),
        _ => s.set(&[
            ("switch.model", json!(model)),
            ("switch.vcs", json!(1)),
            ("switch.buffer_flits", json!(320)),
            ("switch.router_delay_cycles", json!(6)),
        ]),
    }
}

#[test]
fn every_multicast_completes_and_loads_add_up() {
    for (m, model) in [(2, "central_buffer"), (6, "central_buffer"), (15, "input_buffered")] {
        // a few hundred operations: the load within a few percent
        let s = on(tree16(m, 0.2).set(&[("run.measure_cycles", json!(100_000))]), model);
        let r = flitcast_core::run(&s).unwrap();
        assert!(!r.saturated, "m = {m}: {}", r.saturation_reason);
        assert!(r.operations_measured > 50, "m = {m}");
        // each destination gets one unicast: offered (every unicast, relays included) = effective (m·B_i),
        // up to the relays of operations that straddle the window's edges
        assert!(
            (r.offered_load - r.effective_load).abs() < 0.02,
            "m = {m}: {} vs {}",
            r.offered_load,
            r.effective_load
        );
        assert!((r.effective_load - 0.2).abs() < 0.03, "m = {m}: effective load {}", r.effective_load);
        assert!((r.accepted_load - r.offered_load).abs() < 0.02, "m = {m}");
        // (a) the last destination is never earlier than (b) the mean over destinations
        assert!(r.latency_mean >= r.latency_dest_mean, "m = {m}");
        // one packet per destination (packets are measured by their own creation time, so relays of
        // operations at the window's edges make the counts differ slightly)
        let per_operation = r.packets_measured as f64 / r.operations_measured as f64;
        assert!((per_operation / m as f64 - 1.0).abs() < 0.02, "m = {m}: {per_operation} packets per operation");
    }
}

#[test]
fn more_destinations_take_longer_in_software() {
    // ⌈log2(m+1)⌉ sequential phases: definition (a) grows with m at light load
    let lat = |m| flitcast_core::run(&tree16(m, 0.05)).unwrap().latency_mean;
    let (two, six, fifteen) = (lat(2), lat(6), lat(15));
    assert!(two < six && six < fifteen, "{two} {six} {fifteen}");
}

#[test]
fn a_one_way_multicast_is_the_uniform_unicast_workload() {
    // one destination drawn uniformly among the others from the same streams, one unicast
    let unicast = tree16(0, 0.3);
    let one_way = tree16(1, 0.3);
    let (a, mut b) = (flitcast_core::run(&unicast).unwrap(), flitcast_core::run(&one_way).unwrap());
    // the same run, but a one-way multicast is still a multicast (a group of two): its latency and
    // throughput are the multicast class's
    // (a run without multicasts has no multicast throughput: empty)
    assert!(a.latency_multicast_mean.is_nan() && a.multicast_throughput.is_nan() && a.multicast_offered.is_nan());
    assert!(b.latency_unicast_mean.is_nan() && b.multicast_throughput > 0.0);
    (b.latency_unicast_mean, b.latency_multicast_mean) = (b.latency_multicast_mean, f64::NAN);
    (b.multicast_throughput, b.multicast_offered) = (f64::NAN, f64::NAN);
    assert_eq!(a, b);
}

#[test]
fn forwarding_overhead_adds_to_every_relay() {
    let slow = tree16(15, 0.05).set(&[("workload.forward_cycles", json!(500))]);
    let (fast, slow) = (flitcast_core::run(&tree16(15, 0.05)).unwrap(), flitcast_core::run(&slow).unwrap());
    // the deepest path of a 15-way U-Min tree relays 3 times
    assert!(
        slow.latency_mean > fast.latency_mean + 3.0 * 500.0 * 0.9,
        "{} vs {}",
        slow.latency_mean,
        fast.latency_mean
    );
}

#[test]
fn the_busiest_host_injection_sets_software_saturation() {
    // Over the address-sorted chain the low addresses relay most: at m = 15 on 16 nodes host 0 injects
    // 38/15 of the mean (exact, the unit test `hosts_inject_unevenly`), so its injection channel is full
    // at an effective load of 15/38 = 0.39, far below where uniform unicasts of the same received load
    // saturate (docs/models/multicast.md, "What a software multicast costs").
    let at = |load: f64| tree16(15, load).set(&[("run.measure_cycles", json!(100_000))]);
    let light = flitcast_core::run(&at(0.3)).unwrap();
    assert!(!light.saturated, "{}", light.saturation_reason);
    let busiest = 0.3 * 38.0 / 15.0;
    assert!((light.channel_util_max - busiest).abs() < 0.06, "{} vs {busiest}", light.channel_util_max);
    let past = flitcast_core::run(&at(0.45)).unwrap();
    assert!(past.saturated, "m = 15 at 0.45");
    let unicast = flitcast_core::run(&tree16(0, 0.45).set(&[("run.measure_cycles", json!(100_000))])).unwrap();
    assert!(!unicast.saturated, "{}", unicast.saturation_reason);
}

/// The U-Min tree over the sorted chain from the root at `root`: for each receiver, its sender and the
/// index of that send among the sender's sends (the recursive halving of docs/models/multicast.md).
fn u_min_edges(chain: &[u32], root: usize) -> Vec<(u32, u32, u64)> {
    let mut edges = Vec::new();
    let mut stack = vec![(root, 0usize, chain.len() - 1)];
    while let Some((p, mut l, mut r)) = stack.pop() {
        let mut j = 0;
        while l < r {
            let c = l + (r - l).div_ceil(2);
            let to = if p < c { c } else { l };
            edges.push((chain[p], chain[to], j));
            if p < c {
                stack.push((c, c, r));
                r = c - 1;
            } else {
                stack.push((l, l, c - 1));
                l = c;
            }
            j += 1;
        }
    }
    edges
}

#[test]
fn zero_load_software_multicast_matches_the_closed_form() {
    // A unicast through h switches of the tree: h·(D + l) + l + (L − 1) (cut through every switch);
    // a host's j-th send starts j·L cycles after its first (its NIC sends one flit per cycle) and a
    // relay starts sending the cycle the whole message has arrived (no forwarding overhead).
    let (d, l, flits) = (6u64, 1u64, 64u64);
    let switches = |a: u32, b: u32| if a / 4 == b / 4 { 1 } else { 3 };
    let unicast = |a: u32, b: u32| switches(a, b) * (d + l) + l + (flits - 1);
    for model in ["central_buffer", "input_fifo", "input_buffered"] {
        for (src, dests) in
            [(0u32, vec![5u32, 9, 14]), (7, vec![0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15]), (9, vec![3, 10])]
        {
            let s = on(tree16(dests.len() as u32, 0.1), model);
            let mut chain = dests.clone();
            chain.push(src);
            chain.sort_unstable();
            let root = chain.iter().position(|&x| x == src).unwrap();
            let edges = u_min_edges(&chain, root);
            let mut arrival = std::collections::BTreeMap::from([(src, 0u64)]);
            // edges are listed parents before children (a receiver's own sends come after its arrival)
            for &(from, to, j) in &edges {
                let start = arrival[&from];
                arrival.insert(to, start + j * flits + unicast(from, to));
            }
            let last = dests.iter().map(|x| arrival[x]).max().unwrap();
            let mean = dests.iter().map(|x| arrival[x] as f64).sum::<f64>() / dests.len() as f64;
            let sim = flitcast_core::Simulation::build(&s).unwrap();
            let (a, b) = sim.probe_multicast(src, &dests).unwrap();
            assert_eq!((a, b), (last, mean), "{model}: {src} -> {dests:?}");
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// Random degrees, sizes, loads (up to past saturation), trees and all three switches: every operation that
    /// completes has served each destination exactly once (the engine stops with a conservation error
    /// otherwise, and checks flit conservation at the end), and (a) is never below (b).
    #[test]
    fn software_multicasts_serve_every_destination_once(
        m in 1u32..16, flits in 1u32..160, load in 0.02f64..0.9, n in 2u32..4, model in 0usize..3,
        seed in 0u64..1000,
    ) {
        let s = tree16(m, load).set(&[
            ("network.n", json!(n)),
            ("workload.message_flits", json!(flits)),
            ("workload.packet_flits", json!(flits.min(64))),
            ("run.seed", json!(seed)),
            ("run.warmup_cycles", json!(500)),
            ("run.measure_cycles", json!(3_000)),
            ("run.drain_max_cycles", json!(5_000)),
        ]);
        // the central buffer, the input-FIFO switch of study 000 §5, the VC router
        let s = on(s, ["central_buffer", "input_fifo", "input_buffered"][model]);
        let r = flitcast_core::run(&s).unwrap();
        proptest::prop_assert!(r.operations_measured == 0 || r.latency_mean >= r.latency_dest_mean);
    }
}

#[test]
fn operations_that_pile_up_stop_the_run_as_saturated() {
    // relays wait 10^9 cycles each: operations arrive far faster than they complete, with few packets
    // alive, so the bound on live operations (not the one on packets) must end the run
    let s = tree16(15, 1.0).set(&[
        ("workload.packet_flits", json!(1)),
        ("workload.message_flits", json!(1)),
        ("workload.forward_cycles", json!(1_000_000_000)),
        ("run.measure_cycles", json!(100_000_000)),
    ]);
    let r = flitcast_core::run(&s).unwrap();
    assert!(r.saturated && r.saturation_reason.contains("operations incomplete"), "{}", r.saturation_reason);
}
