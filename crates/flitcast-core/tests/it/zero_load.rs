//! Zero-load latency is exact. A lone packet takes
//!   T0 = (H + 1) · (D + L) + L + (F − 1)
//! cycles from creation to tail delivery, where H is the number of router-to-router hops, D the
//! router delay (head arrival to head leaving), L the channel latency (injection, each hop,
//! ejection) and F the packet length in flits. H is computed here independently of the routing:
//! the Manhattan distance on a mesh, the shorter way round each ring of a torus, forward distance
//! on a unidirectional ring or torus.

use flitcast_core::topology::TopologyKind;
use flitcast_core::{Scenario, Simulation};
use serde_json::json;

use crate::common::{cube, cube_dir};

fn closed_form(hops: u32, d: u32, l: u32, f: u32) -> u64 {
    ((hops + 1) * (d + l) + l + (f - 1)) as u64
}

fn distance(s: &Scenario, a: u32, b: u32) -> u32 {
    // (radix, dimensions, a mesh, unidirectional)
    let (k, n, mesh, unidirectional) = match &s.network.topology {
        TopologyKind::Mesh(t) => (t.k, t.n, true, false),
        TopologyKind::Torus(t) => (t.k, t.n, false, t.unidirectional),
        TopologyKind::Ring(t) => (t.k, 1, false, t.unidirectional),
        other => panic!("not a k-ary n-cube: {other:?}"),
    };
    (0..n)
        .map(|d| {
            let (x, y) = ((a / k.pow(d)) % k, (b / k.pow(d)) % k);
            let fwd = (y + k - x) % k;
            match (mesh, unidirectional) {
                (true, _) => x.abs_diff(y),
                (_, true) => fwd,
                _ => fwd.min(k - fwd),
            }
        })
        .sum()
}

fn check_all_pairs(s: &Scenario) {
    let nodes = s.nodes().unwrap() as u32;
    let (d, l, f) = (s.switch.model.router_delay_cycles(), s.network.channel_latency_cycles, s.packet_flits());
    for src in 0..nodes {
        for dst in 0..nodes {
            let p = Simulation::build(s).unwrap().probe(src, dst).unwrap();
            let h = distance(s, src, dst);
            assert_eq!(p.hops, h, "{:?} {src}->{dst}: hops", s.network.topology);
            assert_eq!(p.latency, closed_form(h, d, l, f), "{:?} {src}->{dst} d={d} l={l} f={f}", s.network.topology);
        }
    }
}

#[test]
fn single_packet_latency_is_the_closed_form() {
    let shapes = [
        ("mesh", 4, 2, false),
        ("mesh", 3, 3, false),
        ("torus", 5, 2, false),
        ("torus", 4, 2, false),
        ("torus", 4, 2, true),
        ("ring", 6, 1, false),
        ("ring", 5, 1, true),
    ];
    for (topo, k, n, uni) in shapes {
        for fc in ["wormhole", "vct"] {
            for (d, l, f) in [(1, 1, 1), (3, 2, 8), (2, 5, 4)] {
                let s = cube_dir(topo, k, n, uni).set(&[
                    ("switch.flow_control", json!(fc)),
                    ("switch.router_delay_cycles", json!(d)),
                    ("switch.buffer_flits", json!(8)),
                    ("network.channel_latency_cycles", json!(l)),
                    ("workload.packet_flits", json!(f)),
                    ("workload.message_flits", json!(f)),
                ]);
                check_all_pairs(&s);
            }
        }
    }
}

#[test]
fn multi_packet_message_serialises_its_packets() {
    // A message of 3 packets of 4 flits leaves the source back to back: the last tail arrives
    // 8 cycles after a lone packet's would.
    let s = cube("mesh", 4, 2).set(&[("workload.packet_flits", json!(4)), ("workload.message_flits", json!(12))]);
    let p = Simulation::build(&s).unwrap().probe(0, 15).unwrap();
    assert_eq!(p.latency, closed_form(6, 1, 1, 4) + 8);
}

#[test]
fn a_turning_head_waits_the_turn_cycles() {
    // switch.turn_cycles (study 004's L_s): a packet that changes dimension at a router waits there that
    // much longer; one that goes straight, or is injected or ejected, does not
    let s = cube_dir("torus", 4, 2, true).set(&[("switch.turn_cycles", json!(7))]);
    let f = s.packet_flits();
    for (dst, turns) in [(1u32, 0u64), (4, 0), (5, 7), (15, 7), (3, 0)] {
        let p = Simulation::build(&s).unwrap().probe(0, dst).unwrap();
        assert_eq!(p.latency, closed_form(distance(&s, 0, dst), 1, 1, f) + turns, "0 → {dst}");
    }
}

#[test]
fn a_stream_through_a_turn_keeps_its_rate() {
    // ten packets of 4 flits back to back, turning at one router: the turn delays the message once, not
    // once per packet (a latency, not a gap), provided the buffer holds the turn's worth of flits
    let s = cube_dir("torus", 4, 2, true).set(&[
        ("switch.turn_cycles", json!(7)),
        ("switch.buffer_flits", json!(16)),
        ("workload.packet_flits", json!(4)),
        ("workload.message_flits", json!(40)),
    ]);
    let p = Simulation::build(&s).unwrap().probe(0, 5).unwrap();
    assert_eq!(p.latency, closed_form(distance(&s, 0, 5), 1, 1, 4) + 36 + 7);
}

#[test]
fn a_separate_vc_allocation_stage_costs_one_cycle_per_router() {
    // switch.vc_allocation = "separate": a head is granted its output VC in one cycle and the switch in
    // the next, at each of its H + 1 routers; the body follows the head as before
    let s = cube("mesh", 4, 2).set(&[("switch.vc_allocation", json!("separate"))]);
    let f = s.packet_flits();
    for dst in [1u32, 5, 15] {
        let p = Simulation::build(&s).unwrap().probe(0, dst).unwrap();
        let h = distance(&s, 0, dst);
        assert_eq!(p.latency, closed_form(h, 1, 1, f) + u64::from(h + 1), "0 → {dst}");
    }
    // a message's packets: with two VCs each next head is granted its VC while its predecessor's body
    // crosses, so only the routers' cycle is added; with one VC it waits behind that tail, one cycle per
    // packet, once (the gap then travels with the stream)
    for (vcs, gaps) in [(2, 0), (1, 2)] {
        let stream = s.set(&[
            ("switch.vcs", json!(vcs)),
            ("workload.packet_flits", json!(4)),
            ("workload.message_flits", json!(12)),
        ]);
        let p = Simulation::build(&stream).unwrap().probe(0, 15).unwrap();
        assert_eq!(p.latency, closed_form(6, 1, 1, 4) + 8 + 7 + gaps, "{vcs} VCs");
    }
}
