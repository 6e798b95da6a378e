//! What a scenario needs in memory, estimated before anything large is allocated, and the budget it
//! must fit (`run.memory_limit_mb`; docs/engine.md "Memory").
//!
//! The estimate adds up what the kinds say they need — each switch model its buffers and state, each
//! routing its tables, each program its own state and, where it bounds them, its live packets — and the
//! engine's own parts: topology and credits, selection lists, the build-time route check, the source
//! queues (bounded, see [`max_live_packets`]) and the per-terminal state. Fixed-size parts (a few kB) are
//! left out. Each part names the configuration keys that drive it, so a refusal tells the user what to
//! change.

use std::mem::size_of;

use crate::check::routes::{MAX_CHECKED_NODES, MAX_CHECKED_SOURCE_ROUTED};
use crate::error::Error;
use crate::host::delivery::{Message, Operation};
use crate::packet::Packet;
use crate::scenario::Scenario;
use crate::sizing::Sizing;
pub use crate::sizing::{max_live_operations, Part};
use crate::topology::min_hops::MinHops;
use crate::topology::Topology;

#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub parts: Vec<Part>,
}

impl Estimate {
    pub fn bytes(&self) -> u64 {
        self.parts.iter().map(|p| p.bytes).fold(0, u64::saturating_add)
    }

    /// Refuses the scenario if it needs more than `limit_bytes`, naming the largest parts.
    pub fn check(&self, limit_bytes: u64, limit_key_value: u64) -> Result<(), Error> {
        let need = self.bytes();
        if need <= limit_bytes {
            return Ok(());
        }
        let mut parts = self.parts.clone();
        parts.sort_by_key(|p| std::cmp::Reverse(p.bytes));
        let shown: Vec<String> = parts
            .iter()
            .take(3)
            .filter(|p| p.bytes > 0)
            .map(|p| format!("{} {} (driven by {})", p.what, mb(p.bytes), p.keys))
            .collect();
        Err(Error::config(
            "run.memory_limit_mb",
            if limit_key_value == 0 {
                format!("0 (automatic: {})", mb(limit_bytes))
            } else {
                limit_key_value.to_string()
            },
            format!(
                "a budget of at least {} for this scenario: it needs {}; shrink the keys that drive it or raise \
                 run.memory_limit_mb deliberately",
                mb(need),
                shown.join(", ")
            ),
        ))
    }
}

fn mb(bytes: u64) -> String {
    let mb = bytes as f64 / (1 << 20) as f64;
    if mb >= 10_240.0 {
        format!("{:.0} GB", mb / 1024.0)
    } else {
        format!("{mb:.0} MB")
    }
}

/// Most packets alive at once (queued at sources or in the network): past this a run stops as
/// saturated. At least 2^21, and 16 messages per node so big networks are not cut short.
pub fn max_live_packets(s: &Scenario, nodes: u64) -> u64 {
    let per_message = s.message_flits().div_ceil(s.packet_flits()) as u64;
    (1u64 << 21).max(16 * nodes * per_message).min(crate::packet::Flit::MAX_PACKETS as u64 / 2)
}

/// [`max_live_operations`] of the multicasts of `s` on `nodes` nodes; unbounded for unicasts (every
/// one of which holds a live packet until it completes, so `max_live_packets` bounds them).
pub fn max_live_operations_of(s: &Scenario, nodes: u64) -> u64 {
    match s.workload.program.multicast_degree() {
        Some(m) => max_live_operations(m as u64, nodes),
        None => u64::MAX,
    }
}

/// The memory a run of `s` on `topo` needs.
pub fn estimate(s: &Scenario, topo: &Topology) -> Estimate {
    let (sw, r) = (&s.switch.model, &s.routing);
    let routers = topo.routers() as u64;
    let nodes = topo.terminals() as u64;
    let ports = topo.links.len() as u64;
    let radix = topo.max_radix() as u64;
    let vcs = sw.vcs() as u64;
    let mut parts = Vec::new();
    // (the keys that size this network: `network.k, network.n` for a mesh, `network.file` for an
    // irregular network)
    let net = s.network.topology.sized_by();
    let mut part = |what, bytes: u64, keys: String| parts.push(Part { what, bytes, keys });

    let (buffers, state) = sw.bytes(topo);
    part("router buffers", buffers, format!("{net}, {}", sw.sized_by()));
    part("router state", state, format!("{net}, switch.vcs"));
    // Topology (links both ways, latencies) and one credit counter per lane.
    part("topology and credits", ports * 32 + (ports + nodes) * vcs * 4, format!("{net}, switch.vcs"));
    let regions = crate::regions::regions_for(s.run.threads) as u64;
    if regions > 1 {
        // (each region keeps a copy of every lane's counter: `regions.rs`)
        part("regions' credit copies", regions * (ports + nodes) * vcs * 4, format!("run.threads, {net}"));
    }

    let selection = r.algorithm.selection().bytes(radix, topo.node_switches().len() as u64);
    part("selection lists", routers * selection, format!("routing.selection, {net}"));

    let bmin = s.network.topology.multistage();
    let mut sizing = sizing(s, topo);
    for p in r.algorithm.bytes(&sizing) {
        part(p.what, p.bytes, p.keys);
    }

    let checked = if bmin { MAX_CHECKED_SOURCE_ROUTED } else { MAX_CHECKED_NODES } as u64;
    if r.check_deadlock_free && nodes <= checked {
        // Visited states (router, port, VC), dependency lists per (channel, VC): a few entries each.
        let states = routers * radix * vcs;
        part("route check", states * 8 + ports * vcs * (24 + 8 * 4), format!("{net}, switch.vcs"));
    }

    let program = &s.workload.program;
    // ("(bounded)": the engine's limit on a run's growth, reached only by a run that grows to it; a
    // program that bounds its own packets gives their estimate)
    // (a live packet and its queue slot, and at worst a message and an operation of its own; a program
    // that bounds its packets sends them in messages of many packets)
    let packet = (size_of::<Packet>() + 4) as u64;
    let (what, keys, per_packet) = match program.live_packets(&sizing) {
        Some(live) if live < sizing.live_packets => {
            sizing.live_packets = live;
            ("source queues", format!("workload.message_flits, workload.packet_flits, {net}"), packet)
        }
        _ => (
            "source queues (bounded)",
            "workload.load, workload.packet_flits, run.measure_cycles".to_string(),
            packet + (size_of::<Message>() + size_of::<Operation>()) as u64,
        ),
    };
    part(what, sizing.live_packets * per_packet, keys);
    for p in program.bytes(&sizing) {
        part(p.what, p.bytes, p.keys);
    }
    part("terminals", nodes * 256, net.to_string());
    let dragonfly = matches!(topo.geometry, crate::topology::Geometry::Dragonfly(_));
    part("minimal hops of every pair of routers", MinHops::bytes(routers, dragonfly), net.to_string());
    // Latencies go into a fixed-size histogram: the statistics do not grow with the run.
    part("statistics", crate::stats::Latencies::default().heap_bytes() as u64, "nothing (fixed)".to_string());
    Estimate { parts }
}

/// What sizes the kinds' own parts (`Program::bytes`, `Algorithm::bytes`) of `s` on `topo`.
fn sizing(s: &Scenario, topo: &Topology) -> Sizing {
    let nodes = topo.terminals() as u64;
    Sizing {
        nodes,
        routers: topo.routers() as u64,
        node_switches: topo.node_switches().len() as u64,
        max_route_hops: s.network.topology.max_route_hops(),
        network_keys: s.network.topology.sized_by(),
        message_flits: s.message_flits(),
        packet_flits: s.packet_flits(),
        live_packets: max_live_packets(s, nodes),
        ports: topo.links.len() as u64,
        longest_channel: topo.longest_channel(),
    }
}

/// Refuses the program of `s` alone on `topo` if it needs more than the budget: what a computation that
/// builds the program without simulating it needs (a collective's α-β-γ estimate: its schedule and
/// distances), none of a run's buffers, queues or statistics.
pub fn check_program(s: &Scenario, topo: &Topology) -> Result<(), Error> {
    let sizing = sizing(s, topo);
    let parts = s.workload.program.bytes(&sizing);
    let graph = Part { what: "topology", bytes: topo.links.len() as u64 * 32, keys: sizing.network_keys.to_string() };
    let need = Estimate { parts: std::iter::once(graph).chain(parts).collect() };
    need.check(limit_bytes(s.run.memory_limit_mb), s.run.memory_limit_mb)
}

/// Refuses `s` on `topo` if it needs more than its budget (`run.memory_limit_mb`), before anything large
/// is allocated.
pub fn check(s: &Scenario, topo: &Topology) -> Result<(), Error> {
    estimate(s, topo).check(limit_bytes(s.run.memory_limit_mb), s.run.memory_limit_mb)
}

/// The budget in bytes: `run.memory_limit_mb`, or with 0 half the machine's memory (4 GB where it
/// cannot be read).
pub fn limit_bytes(memory_limit_mb: u64) -> u64 {
    if memory_limit_mb > 0 {
        return memory_limit_mb.saturating_mul(1 << 20);
    }
    machine_bytes().map_or(4 << 30, |b| b / 2)
}

/// Total memory of the machine (Linux: `MemTotal` of /proc/meminfo).
fn machine_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
