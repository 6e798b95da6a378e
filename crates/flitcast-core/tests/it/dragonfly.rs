//! The dragonfly and its routings (docs/models/dragonfly.md). Zero-load latency is the closed form
//!   T0 = (H + 1) · (D + L) + L + (F − 1)
//! of `zero_load.rs`, with H the router-to-router hops of the route, computed here from the network's
//! graph, independently of the routing: for `minimal` (and `ugal_l`, which at zero load sees empty
//! queues and keeps the minimal path) a local hop to the end of the one global channel between the two
//! groups where the source's router is not it, the global hop, and a local hop from where it lands
//! where that is not the destination's router; for `valiant`, the same to an intermediate group and
//! from there to the destination, each packet's hops one of those of the g − 2 possible intermediate
//! groups, and their mean over all pairs that of a uniform draw. Beyond saturation no routing trips
//! the deadlock watchdog, and the 1,056-node dragonfly builds and runs.

use flitcast_core::topology::PortLink;
use flitcast_core::{Error, Scenario, Simulation};
use serde_json::json;

/// A dragonfly scenario, `routing` on 3 VCs, short run.
pub fn dragonfly(p: u32, a: u32, h: u32, g: u32, arrangement: &str, routing: &str) -> Scenario {
    Scenario::of(json!({
        "network": {"topology": "dragonfly", "p": p, "a": a, "h": h, "g": g, "arrangement": arrangement},
        "switch": {"vcs": 3},
        "routing": {"algorithm": routing},
        "run": {"warmup_cycles": 500, "measure_cycles": 2_000, "drain_max_cycles": 5_000},
    }))
}

/// The 72-node dragonfly (p = h = 2, a = 4, g = 9) under its worst case (group i to group i + 1) at
/// `load`, 2,000 warm-up cycles and `measure` measured.
fn worst_case_72(routing: &str, load: f64, measure: u64) -> Scenario {
    dragonfly(2, 4, 2, 9, "absolute", routing).set(&[
        ("workload.pattern", json!("dragonfly_worst_case")),
        ("workload.load", json!(load)),
        ("run.warmup_cycles", json!(2_000)),
        ("run.measure_cycles", json!(measure)),
    ])
}

/// The global channels of a dragonfly's graph (routers r of group r / a): `ends[x · g + y]` = the
/// router of group x and the router of group y that the channel between the two groups joins.
struct Graph {
    p: u32,
    a: u32,
    g: u32,
    ends: Vec<Option<(u32, u32)>>,
}

impl Graph {
    fn of(s: &Scenario, p: u32, a: u32, g: u32) -> Graph {
        let topo = s.topology().unwrap();
        let mut ends = vec![None; (g * g) as usize];
        for r in 0..topo.routers() as u32 {
            for port in 0..topo.radix(r) as u8 {
                if let PortLink::Router { router, .. } = topo.link(r, port) {
                    let (x, y) = (r / a, router / a);
                    if x != y {
                        assert!(ends[(x * g + y) as usize].is_none(), "two channels join groups {x} and {y}");
                        ends[(x * g + y) as usize] = Some((r, router));
                    }
                }
            }
        }
        Graph { p, a, g, ends }
    }

    /// Hops from router `r` to router `d` with at most one global hop.
    fn minimal(&self, r: u32, d: u32) -> u32 {
        let (x, y) = (r / self.a, d / self.a);
        if x == y {
            return u32::from(r != d);
        }
        let (u, v) = self.ends[(x * self.g + y) as usize].expect("every pair of groups is joined");
        u32::from(r != u) + 1 + u32::from(v != d)
    }

    /// Hops from router `r` through group `via` to router `d`.
    fn through(&self, r: u32, via: u32, d: u32) -> u32 {
        let (u, v) = self.ends[((r / self.a) * self.g + via) as usize].unwrap();
        u32::from(r != u) + 1 + self.minimal(v, d)
    }

    /// Valiant's possible hop counts from terminal `src` to `dst`.
    fn valiant(&self, src: u32, dst: u32) -> Vec<u32> {
        let (r, d) = (src / self.p, dst / self.p);
        let (x, y) = (r / self.a, d / self.a);
        if x == y || self.g < 3 {
            return vec![self.minimal(r, d)];
        }
        (0..self.g).filter(|&i| i != x && i != y).map(|i| self.through(r, i, d)).collect()
    }
}

fn closed_form(hops: u32, d: u32, l: u32, f: u32) -> u64 {
    ((hops + 1) * (d + l) + l + (f - 1)) as u64
}

/// Every ordered pair of terminals, one lone packet each, `gap` cycles apart (the network idle for each).
fn all_pairs(nodes: u32, gap: u64) -> Vec<(u64, u32, u32)> {
    let pairs = (0..nodes).flat_map(|s| (0..nodes).filter(move |&d| d != s).map(move |d| (s, d)));
    pairs.enumerate().map(|(i, (s, d))| (i as u64 * gap, s, d)).collect()
}

fn check_zero_load(p: u32, a: u32, h: u32, g: u32, arrangement: &str) {
    for routing in ["minimal", "valiant", "ugal_l", "ugal_g"] {
        for (d, l, f) in [(1, 1, 1), (2, 3, 4)] {
            let s = dragonfly(p, a, h, g, arrangement, routing).set(&[
                ("switch.router_delay_cycles", json!(d)),
                ("network.channel_latency_cycles", json!(l)),
                ("workload.packet_flits", json!(f)),
                ("workload.message_flits", json!(f)),
                ("routing.check_deadlock_free", json!(false)),
            ]);
            let graph = Graph::of(&s, p, a, g);
            let nodes = p * a * g;
            let script = all_pairs(nodes, 64);
            let probes = Simulation::build(&s).unwrap().probe_many(&script).unwrap();
            let (mut hops, mut expected) = (0.0, 0.0);
            for (&(_, src, dst), probe) in script.iter().zip(&probes) {
                let what = format!("{routing} p={p} a={a} h={h} g={g} {arrangement} {src}->{dst} d={d} l={l} f={f}");
                assert_eq!(probe.latency, closed_form(probe.hops, d, l, f), "{what}: latency");
                let possible = match routing {
                    "valiant" => graph.valiant(src, dst),
                    _ => vec![graph.minimal(src / p, dst / p)],
                };
                assert!(possible.contains(&probe.hops), "{what}: {} hops, not one of {possible:?}", probe.hops);
                hops += probe.hops as f64;
                expected += possible.iter().sum::<u32>() as f64 / possible.len() as f64;
            }
            let pairs = script.len() as f64;
            let (mean, expect) = (hops / pairs, expected / pairs);
            if routing == "valiant" {
                // (each pair's draw is uniform over g − 2 groups: the sample mean of ~N² draws)
                assert!((mean - expect).abs() < 0.05 * expect, "{routing} g={g}: mean hops {mean} vs {expect}");
            } else {
                assert_eq!(mean, expect);
            }
        }
    }
}

#[test]
fn zero_load_latency_is_the_closed_form_on_the_72_node_dragonfly() {
    check_zero_load(2, 4, 2, 9, "absolute");
    check_zero_load(2, 4, 2, 9, "palm_tree");
}

#[test]
fn zero_load_latency_is_the_closed_form_on_other_dragonflies() {
    check_zero_load(1, 3, 2, 7, "palm_tree");
    check_zero_load(2, 3, 2, 5, "absolute");
    check_zero_load(1, 2, 1, 3, "absolute");
    check_zero_load(1, 2, 2, 2, "palm_tree");
}

#[test]
fn minimal_mean_hops_under_uniform_traffic_on_the_72_node_dragonfly() {
    // Independently of the graph, over all pairs: between groups, the source's router holds the global
    // channel for 1 in a sources and the channel lands on the destination's router for 1 in a
    // destinations, so H = 3 − 2/a; within a group, p − 1 of the a·p − 1 others share the source's
    // router (0 hops) and the rest are 1 hop away.
    let (p, a, g) = (2u32, 4u32, 9u32);
    let s = dragonfly(p, a, 2, g, "absolute", "minimal").set(&[("routing.check_deadlock_free", json!(false))]);
    let nodes = p * a * g;
    let script = all_pairs(nodes, 64);
    let probes = Simulation::build(&s).unwrap().probe_many(&script).unwrap();
    let mean = probes.iter().map(|p| p.hops as f64).sum::<f64>() / probes.len() as f64;
    let (group, others) = ((a * p - 1) as f64, (nodes - a * p) as f64);
    let own = ((a - 1) * p) as f64 / group;
    let far = 3.0 - 2.0 / a as f64;
    let expect = (group * own + others * far) / (group + others);
    assert!((mean - expect).abs() < 1e-9, "mean hops {mean}, closed form {expect}");
}

#[test]
fn bad_dragonfly_setups_are_refused_by_key() {
    let s = crate::common::cube("mesh", 4, 2).with(&[("workload.pattern", json!("dragonfly_worst_case"))]);
    assert!(matches!(s, Err(Error::Config { key, .. }) if key == "workload.pattern"));
    let s = dragonfly(2, 4, 2, 9, "absolute", "minimal").with(&[("routing.algorithm", json!("dor"))]);
    assert!(matches!(s, Err(Error::Config { key, .. }) if key == "routing.algorithm"));
    let s = crate::common::cube("torus", 4, 2).with(&[("routing.algorithm", json!("ugal_l"))]);
    assert!(matches!(s, Err(Error::Config { key, .. }) if key == "routing.algorithm"));
    let s = dragonfly(2, 4, 2, 9, "absolute", "minimal").with(&[("network.g", json!(10))]);
    assert!(matches!(s, Err(Error::Config { key, .. }) if key == "network.g"));
    let s = dragonfly(2, 4, 2, 9, "absolute", "minimal").with(&[("network.g", json!(1))]);
    assert!(matches!(s, Err(Error::Config { key, .. }) if key == "network.g"));
    let s = dragonfly(2, 4, 2, 9, "absolute", "valiant").with(&[("switch.vcs", json!(2))]);
    assert!(matches!(s, Err(Error::Config { key, .. }) if key == "switch.vcs"));
    for routing in ["minimal", "ugal_l"] {
        let doc = json!({
            "network": {"topology": "dragonfly"},
            "switch": {"model": "input_fifo"},
            "routing": {"algorithm": routing},
        });
        let problems = Scenario::check(&doc).err().unwrap_or_else(|| panic!("{routing} on input_fifo"));
        let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["switch.model"], "{routing}: {problems:?}");
    }
}

#[test]
fn no_routing_deadlocks_beyond_saturation() {
    for routing in ["minimal", "valiant", "ugal_l"] {
        for pattern in ["dragonfly_worst_case", "uniform"] {
            for fc in ["wormhole", "vct"] {
                let s = dragonfly(2, 4, 2, 9, "absolute", routing).set(&[
                    ("switch.flow_control", json!(fc)),
                    ("switch.buffer_flits", json!(8)),
                    ("workload.pattern", json!(pattern)),
                    ("workload.load", json!(1.0)),
                    ("workload.packet_flits", json!(8)),
                    ("workload.message_flits", json!(8)),
                    ("run.warmup_cycles", json!(1_000)),
                    ("run.measure_cycles", json!(3_000)),
                    ("run.drain_max_cycles", json!(2_000)),
                    ("run.watchdog_cycles", json!(1_000)),
                ]);
                let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{routing} {pattern} {fc}: {e}"));
                assert!(r.saturated, "{routing} {pattern} {fc}: load 1.0 should saturate");
            }
        }
    }
}

#[test]
fn the_worst_case_needs_a_non_minimal_routing() {
    // Minimal routing puts a group's whole traffic on one global channel: at most 1/(a·p) = 1/8 flit
    // per node per cycle. Valiant spreads it over the g − 1 channels of the group.
    let load = |routing: &str| flitcast_core::run(&worst_case_72(routing, 0.3, 4_000)).unwrap().accepted_load;
    let (minimal, valiant, ugal) = (load("minimal"), load("valiant"), load("ugal_l"));
    assert!(minimal < 0.13, "minimal accepts {minimal}");
    assert!(valiant > 0.25, "valiant accepts {valiant}");
    assert!(ugal > 0.25, "ugal_l accepts {ugal}");
}

/// Mean utilisation of the worst case's direct global channels (group i to i + 1) and of the other
/// global channels of the 72-node dragonfly, and the accepted load, under Valiant drawing from `groups`.
fn worst_case_global_channels(groups: &str) -> (f64, f64, f64) {
    let s = worst_case_72("valiant", 0.2, 8_000).set(&[("routing.intermediate_groups", json!(groups))]);
    let r = flitcast_core::run(&s).unwrap();
    let (mut direct, mut other) = (vec![], vec![]);
    for (name, &u) in r.channel_names.iter().zip(&r.channel_utilisation) {
        // "rA.pK->rB": global ports are 5 and 6 (p + a − 1 = 5 on); groups are routers / 4.
        let Some((from, to)) = name.split_once("->") else { continue };
        let Some((ra, port)) = from.trim_start_matches('r').split_once(".p") else { continue };
        let (ra, port): (u32, u32) = (ra.parse().unwrap(), port.parse().unwrap());
        let Ok(rb) = to.trim_start_matches('r').parse::<u32>() else { continue };
        if port >= 5 {
            if rb / 4 == (ra / 4 + 1) % 9 {
                direct.push(u)
            } else {
                other.push(u)
            }
        }
    }
    assert_eq!((direct.len(), other.len()), (9, 63));
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    (mean(&direct), mean(&other), r.accepted_load)
}

#[test]
fn valiant_loads_the_global_channels_as_its_draw_says_under_the_worst_case() {
    // Group i sends to group i + 1. Drawing among the 7 other groups, Valiant leaves the direct
    // channels idle and every other global channel carries a seventh of a group's traffic twice (into
    // and out of the intermediate group): 16/7 of the per-node load. Drawing among all 9, an end group
    // (2 draws in 9) takes the direct channel: every global channel 16/9 of it.
    let (direct, other, accepted) = worst_case_global_channels("others");
    assert!(direct < 0.01, "direct channels {direct}");
    let expect = 16.0 / 7.0 * accepted;
    assert!((other - expect).abs() < 0.1 * expect, "other global channels {other}, expected {expect}");
    let (direct, other, accepted) = worst_case_global_channels("all");
    let expect = 16.0 / 9.0 * accepted;
    assert!((direct - expect).abs() < 0.1 * expect, "direct channels {direct}, expected {expect}");
    assert!((other - expect).abs() < 0.1 * expect, "other global channels {other}, expected {expect}");
}

#[test]
fn ugal_stays_minimal_where_minimal_queues_are_short() {
    // Uniform traffic at a light load: the minimal output's queue is rarely longer than the Valiant
    // one's, and UGAL-L's hops stay near minimal's, far from Valiant's.
    let run = |routing: &str| {
        let s = dragonfly(2, 4, 2, 9, "absolute", routing).set(&[
            ("workload.load", json!(0.1)),
            ("run.warmup_cycles", json!(1_000)),
            ("run.measure_cycles", json!(4_000)),
        ]);
        let r = flitcast_core::run(&s).unwrap();
        (r.hops_mean, r.nonminimal_share)
    };
    let ((minimal, none), (valiant, most), (ugal, some)) = (run("minimal"), run("valiant"), run("ugal_l"));
    assert!(valiant > minimal + 1.0, "valiant {valiant}, minimal {minimal}");
    assert!(ugal >= minimal && ugal < minimal + 0.2, "ugal_l {ugal}, minimal {minimal}");
    // the share routed non-minimally: none, all but those within a group or whose detour is no longer
    // (8 of 71 destinations in the source's group), and UGAL-L's few detours
    assert_eq!(none, 0.0);
    assert!(most > 0.8 && most < 8.0 / 9.0, "valiant {most}");
    assert!(some > 0.0 && some < 0.2, "ugal_l {some}");
}

/// The 72-node dragonfly under `routing` with BookSim 2's channels (10-cycle local, 100-cycle global)
/// and 10-flit packets.
fn long_channels(routing: &str) -> Scenario {
    dragonfly(2, 4, 2, 9, "absolute", routing).set(&[
        ("network.channel_latency_cycles", json!(10)),
        ("network.global_latency_cycles", json!(100)),
        ("workload.packet_flits", json!(10)),
        ("workload.message_flits", json!(10)),
    ])
}

#[test]
fn ugal_routes_minimally_at_zero_load_on_long_channels() {
    // 10-cycle local and 100-cycle global channels (BookSim 2's dragonfly): a lone packet finds every
    // queue empty and keeps its minimal path, from node 0 to every other node
    for routing in ["ugal_l", "ugal_g"] {
        let s = long_channels(routing);
        let graph = Graph::of(&s, 2, 4, 9);
        let script: Vec<_> = (1..72).map(|d| (u64::from(d) * 1_000, 0, d)).collect();
        let probes = Simulation::build(&s).unwrap().probe_many(&script).unwrap();
        for (&(_, _, dst), probe) in script.iter().zip(&probes) {
            assert_eq!(probe.hops, graph.minimal(0, dst / 2), "{routing}: 0 → {dst}");
        }
    }
}

#[test]
fn ugal_does_not_count_flits_on_the_wire_as_a_queue() {
    // a packet right behind another on the same minimal global channel: the first one's flits are on
    // the 100-cycle wire, not waiting in the next router, so the second stays minimal too (counting
    // them as queue sent it the Valiant way). Router 0 holds the global channels to groups 1 and 2;
    // UGAL-G's downstream queue is the same as UGAL-L's, read at the router that holds the channel (its
    // whole queue counts the first packet's flits still in that router too).
    for routing in ["ugal_l", "ugal_g"] {
        let s = long_channels(routing);
        let s = if routing == "ugal_g" { s.set(&[("routing.global_queue", json!("downstream"))]) } else { s };
        let graph = Graph::of(&s, 2, 4, 9);
        for dst in [8, 9, 16, 17] {
            let probes = Simulation::build(&s).unwrap().probe_many(&[(0, 0, dst), (12, 0, dst)]).unwrap();
            let minimal = graph.minimal(0, dst / 2);
            assert_eq!([probes[0].hops, probes[1].hops], [minimal; 2], "{routing}: 0 → {dst}");
        }
    }
}

#[test]
fn ugal_g_reads_the_queue_of_a_global_channel_at_another_router() {
    // node 2 (router 1) sends to group 1, whose global channel router 0 holds. Two streams into node 8
    // (router 4), one over that global channel from node 0 and one from node 10 in group 1, share node 8's
    // ejection, so the global channel's buffer at router 4 fills. UGAL-G at router 1 sees that queue and
    // detours; UGAL-L sees only its own local output to router 0, which is idle, and stays minimal.
    let s = dragonfly(2, 4, 2, 9, "absolute", "ugal_g")
        .set(&[("workload.packet_flits", json!(16)), ("workload.message_flits", json!(16))]);
    let graph = Graph::of(&s, 2, 4, 9);
    let mut script: Vec<(u64, u32, u32)> = (0..40).flat_map(|i| [(i, 0, 8), (i, 10, 8)]).collect();
    script.push((100, 2, 9));
    let last = |routing: &str| {
        let s = s.set(&[("routing.algorithm", json!(routing))]);
        Simulation::build(&s).unwrap().probe_many(&script).unwrap().last().unwrap().hops
    };
    assert_eq!(last("ugal_l"), graph.minimal(1, 4));
    assert!(last("ugal_g") > graph.minimal(1, 4), "UGAL-G took the minimal path past a full global channel");
}

#[test]
fn ugal_gs_whole_queue_sees_the_backlog_before_a_global_channel() {
    // the flits waiting for a global channel in its router count too: UGAL-G spreads the worst case over
    // the Valiant paths further than when it reads the channel's downstream buffers alone (at most
    // 3 × 16 flits, which a minimal path of 3 hops against 5 outweighs only when Valiant's hold 29)
    let accepted = |queue: &str| {
        let s = worst_case_72("ugal_g", 0.5, 5_000)
            .set(&[("routing.global_queue", json!(queue)), ("run.saturation_stop", json!("off"))]);
        flitcast_core::run(&s).unwrap().accepted_load
    };
    let (downstream, whole) = (accepted("downstream"), accepted("whole"));
    assert!(whole > downstream + 0.03, "whole {whole} against downstream {downstream}");
}

#[test]
fn ugal_g_is_the_same_on_any_number_of_threads() {
    // every router reads the others' queues as the cycle began (`queue_view.rs`), whichever
    // region holds them and whenever that region steps
    let run = |s: &Scenario, threads: u32| {
        let r = flitcast_core::run(&s.set(&[("run.threads", json!(threads))])).unwrap();
        serde_json::to_string(&r).unwrap()
    };
    for (pattern, load, channels, queue) in [
        ("dragonfly_worst_case", 0.3, 1, "whole"),
        ("uniform", 0.5, 1, "whole"),
        ("dragonfly_worst_case", 0.2, 10, "whole"),
        ("dragonfly_worst_case", 0.3, 1, "downstream"),
        ("dragonfly_worst_case", 0.2, 10, "downstream"),
    ] {
        let s = dragonfly(2, 4, 2, 9, "absolute", "ugal_g").set(&[
            ("routing.global_queue", json!(queue)),
            ("workload.pattern", json!(pattern)),
            ("workload.load", json!(load)),
            ("network.channel_latency_cycles", json!(channels)),
            ("network.global_latency_cycles", json!(channels * 10)),
            ("run.warmup_cycles", json!(500)),
            ("run.measure_cycles", json!(2_000)),
        ]);
        let one = run(&s, 1);
        for threads in [2, 3, 7] {
            assert_eq!(run(&s, threads), one, "{pattern} {load} {channels} {queue} on {threads} threads");
        }
    }
    let r =
        flitcast_core::run(&dragonfly(2, 4, 2, 9, "absolute", "ugal_g").set(&[("workload.load", json!(0.3))])).unwrap();
    assert!(r.accepted_load > 0.25 && r.nonminimal_share > 0.0 && r.nonminimal_share < 0.5, "{r:?}");
}

#[test]
fn the_1056_node_dragonfly_builds_and_runs() {
    for routing in ["minimal", "ugal_l"] {
        let s = dragonfly(4, 8, 4, 33, "absolute", routing).set(&[
            ("workload.load", json!(0.3)),
            ("run.warmup_cycles", json!(200)),
            ("run.measure_cycles", json!(300)),
        ]);
        assert_eq!(s.nodes(), Some(1056));
        let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("{routing}: {e}"));
        assert!(r.packets_measured > 0 && r.hops_mean > 1.0, "{routing}: {r:?}");
    }
}

#[test]
fn results_are_bit_identical_on_1_2_and_3_threads() {
    // (UGAL-L's choice reads the source router's own credits; Valiant's groups come from the sources'
    // own streams: docs/engine.md, "Regions")
    let run = |s: &Scenario, threads: u32| {
        let r = flitcast_core::run(&s.set(&[("run.threads", json!(threads))])).unwrap();
        serde_json::to_string(&r).unwrap()
    };
    for (routing, pattern, load) in
        [("ugal_l", "dragonfly_worst_case", 0.25), ("ugal_l", "uniform", 0.6), ("valiant", "uniform", 0.3)]
    {
        let s = dragonfly(2, 4, 2, 9, "palm_tree", routing).set(&[
            ("workload.pattern", json!(pattern)),
            ("workload.load", json!(load)),
            ("run.warmup_cycles", json!(500)),
            ("run.measure_cycles", json!(2_000)),
        ]);
        let one = run(&s, 1);
        for threads in [2, 3] {
            assert_eq!(run(&s, threads), one, "{routing} {pattern} {load} on {threads} threads");
        }
    }
}
