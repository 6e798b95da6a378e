//! Channels of different lengths (docs/models/dragonfly.md, fat_tree.md, hyperx.md): each network's
//! channel classes take their own latency, and a lone packet's latency is the closed form over the
//! channels it crosses, T0 = (H + 1) · D + Σ L_channel + 2 · L_terminal + (F − 1), with the classes'
//! channels counted independently of the routing: a minimal dragonfly route crosses one global channel
//! between groups and none within one; the route between the first and last nodes of a fat tree crosses
//! each pair of adjacent levels twice; a dimension-order HyperX route crosses one channel of each
//! dimension in which the routers differ. Every channel is named with its class in the run's result.

use flitcast_core::{Scenario, Simulation};
use serde_json::json;

const D: u32 = 2;
const L: u32 = 3;
const F: u32 = 4;

fn timed(network: serde_json::Value, routing: &str) -> Scenario {
    Scenario::of(json!({
        "network": network,
        "switch": {"vcs": 3, "router_delay_cycles": D, "buffer_flits": 8},
        "routing": {"algorithm": routing},
        "workload": {"packet_flits": F, "message_flits": F},
        "run": {"warmup_cycles": 100, "measure_cycles": 1_000},
    }))
    .set(&[("network.channel_latency_cycles", json!(L))])
}

fn closed_form(hops: u32, crossed: u32) -> u64 {
    u64::from((hops + 1) * D + crossed + 2 * L + F - 1)
}

#[test]
fn a_dragonflys_global_channels_take_their_own_latency() {
    let (p, a, g, global) = (2, 4, 9, 40);
    let s = timed(json!({"topology": "dragonfly", "p": p, "a": a, "h": 2, "global_latency_cycles": global}), "minimal");
    let nodes = p * a * g;
    let script: Vec<_> = (1..nodes).map(|d| (u64::from(d) * 400, 0, d)).collect();
    let probes = Simulation::build(&s).unwrap().probe_many(&script).unwrap();
    for (&(_, src, dst), probe) in script.iter().zip(&probes) {
        let globals = u32::from(src / (p * a) != dst / (p * a));
        let crossed = (probe.hops - globals) * L + globals * global;
        assert_eq!(probe.latency, closed_form(probe.hops, crossed), "{src} → {dst}, {} hops", probe.hops);
    }
    let topo = s.topology().unwrap();
    assert_eq!(topo.classes, ["terminal", "local", "global"]);
    assert_eq!(topo.longest_channel(), global);
}

#[test]
fn a_fat_trees_levels_take_their_own_latencies() {
    let levels = [5u32, 11, 17];
    let s = timed(json!({"topology": "fat_tree", "k": 2, "n": 4, "level_latency_cycles": levels}), "o1");
    let last = 2u32.pow(4) - 1;
    let probe = Simulation::build(&s).unwrap().probe(0, last).unwrap();
    assert_eq!(probe.hops, 6);
    assert_eq!(probe.latency, closed_form(6, 2 * levels.iter().sum::<u32>()));
    let near = Simulation::build(&s).unwrap().probe(0, 2).unwrap(); // up to level 1 and back
    assert_eq!(near.latency, closed_form(2, 2 * levels[0]));
    assert_eq!(s.topology().unwrap().classes, ["terminal", "levels 0-1", "levels 1-2", "levels 2-3"]);
}

#[test]
fn a_hyperxs_dimensions_take_their_own_latencies() {
    let dims = [7u32, 20];
    let s = timed(json!({"topology": "hyperx", "shape": [3, 4], "dimension_latency_cycles": dims}), "dor");
    for (dst, crossed) in [(1u32, dims[0]), (3, dims[1]), (11, dims[0] + dims[1])] {
        let probe = Simulation::build(&s).unwrap().probe(0, dst).unwrap();
        assert_eq!(probe.latency, closed_form(probe.hops, crossed), "0 → {dst}");
    }
}

#[test]
fn a_class_list_of_the_wrong_length_is_refused_by_key() {
    let fat = timed(json!({"topology": "fat_tree", "k": 2, "n": 3}), "o1");
    for (s, key, bad) in [
        (&fat, "network.level_latency_cycles", json!([1, 2, 3])),
        (&fat, "network.level_latency_cycles", json!([0, 2])),
    ] {
        match s.with(&[(key, bad.clone())]) {
            Err(flitcast_core::Error::Config { key: k, allowed, .. }) => {
                assert_eq!(k, key, "{bad}");
                assert!(allowed.starts_with("2 latencies (one per pair of adjacent levels)"), "{allowed}");
            }
            other => panic!("{bad}: expected a configuration error, got {other:?}"),
        }
    }
    let hx = timed(json!({"topology": "hyperx", "shape": [3, 4]}), "dor");
    assert!(hx.with(&[("network.dimension_latency_cycles", json!([5]))]).is_err());
}

#[test]
fn a_run_names_each_channel_with_its_class() {
    let s = timed(json!({"topology": "dragonfly", "p": 1, "a": 2, "h": 1, "global_latency_cycles": 9}), "minimal");
    let r = flitcast_core::run(&s.set(&[("workload.load", json!(0.2))])).unwrap();
    assert_eq!(r.channel_classes.len(), r.channel_names.len());
    for (name, class) in r.channel_names.iter().zip(&r.channel_classes) {
        let expect = if name.starts_with('t') || name.contains("->t") {
            "terminal"
        } else {
            // a 2-router group: port 1 is the local channel, port 2 the global one
            if name.contains(".p1->") {
                "local"
            } else {
                "global"
            }
        };
        assert_eq!(class, expect, "{name}");
    }
}
