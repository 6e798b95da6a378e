//! Zero-load latency is exact. A lone packet takes
//!   T0 = (H + 1) · (D + L) + L + (F − 1)
//! cycles from creation to tail delivery, where H is the number of router-to-router hops, D the
//! router delay (head arrival to head leaving), L the channel latency (injection, each hop,
//! ejection) and F the packet length in flits. H is computed here independently of the routing:
//! the Manhattan distance on a mesh, the shorter way round each ring of a torus, forward distance
//! on a unidirectional ring or torus.

use flitcast_core::scenario::{FlowControl, TopologyKind};
use flitcast_core::{Scenario, Simulation};

use crate::common::scenario;

fn closed_form(hops: u32, d: u32, l: u32, f: u32) -> u64 {
    ((hops + 1) * (d + l) + l + (f - 1)) as u64
}

fn distance(s: &Scenario, a: u32, b: u32) -> u32 {
    let k = s.network.k;
    let n = if s.network.topology == TopologyKind::Ring { 1 } else { s.network.n };
    (0..n)
        .map(|d| {
            let (x, y) = ((a / k.pow(d)) % k, (b / k.pow(d)) % k);
            let fwd = (y + k - x) % k;
            match (s.network.topology, s.network.unidirectional) {
                (TopologyKind::Mesh, _) => x.abs_diff(y),
                (_, true) => fwd,
                _ => fwd.min(k - fwd),
            }
        })
        .sum()
}

fn check_all_pairs(s: &Scenario) {
    let nodes = s.nodes().unwrap() as u32;
    let (d, l, f) = (s.switch.router_delay_cycles, s.network.channel_latency_cycles, s.workload.packet_flits);
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
        (TopologyKind::Mesh, 4, 2, false),
        (TopologyKind::Mesh, 3, 3, false),
        (TopologyKind::Torus, 5, 2, false),
        (TopologyKind::Torus, 4, 2, false),
        (TopologyKind::Torus, 4, 2, true),
        (TopologyKind::Ring, 6, 1, false),
        (TopologyKind::Ring, 5, 1, true),
    ];
    for (topo, k, n, uni) in shapes {
        for fc in [FlowControl::Wormhole, FlowControl::Vct] {
            for (d, l, f) in [(1, 1, 1), (3, 2, 8), (2, 5, 4)] {
                let mut s = scenario(topo, k, n);
                s.network.unidirectional = uni;
                s.switch.flow_control = fc;
                s.switch.router_delay_cycles = d;
                s.switch.buffer_flits = 8;
                s.network.channel_latency_cycles = l;
                s.workload.packet_flits = f;
                s.workload.message_flits = f;
                check_all_pairs(&s);
            }
        }
    }
}

#[test]
fn multi_packet_message_serialises_its_packets() {
    // A message of 3 packets of 4 flits leaves the source back to back: the last tail arrives
    // 8 cycles after a lone packet's would.
    let mut s = scenario(TopologyKind::Mesh, 4, 2);
    s.workload.packet_flits = 4;
    s.workload.message_flits = 12;
    let p = Simulation::build(&s).unwrap().probe(0, 15).unwrap();
    assert_eq!(p.latency, closed_form(6, 1, 1, 4) + 8);
}

#[test]
fn a_turning_head_waits_the_turn_cycles() {
    // switch.turn_cycles (study 004's L_s): a packet that changes dimension at a router waits there that
    // much longer; one that goes straight, or is injected or ejected, does not
    let mut s = scenario(TopologyKind::Torus, 4, 2);
    s.network.unidirectional = true;
    s.switch.turn_cycles = 7;
    let f = s.workload.packet_flits;
    for (dst, turns) in [(1u32, 0u64), (4, 0), (5, 7), (15, 7), (3, 0)] {
        let p = Simulation::build(&s).unwrap().probe(0, dst).unwrap();
        assert_eq!(p.latency, closed_form(distance(&s, 0, dst), 1, 1, f) + turns, "0 → {dst}");
    }
}

#[test]
fn a_stream_through_a_turn_keeps_its_rate() {
    // ten packets of 4 flits back to back, turning at one router: the turn delays the message once, not
    // once per packet (a latency, not a gap), provided the buffer holds the turn's worth of flits
    let mut s = scenario(TopologyKind::Torus, 4, 2);
    s.network.unidirectional = true;
    s.switch.turn_cycles = 7;
    s.switch.buffer_flits = 16;
    s.workload.packet_flits = 4;
    s.workload.message_flits = 40;
    let p = Simulation::build(&s).unwrap().probe(0, 5).unwrap();
    assert_eq!(p.latency, closed_form(distance(&s, 0, 5), 1, 1, 4) + 36 + 7);
}
