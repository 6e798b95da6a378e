//! The rules that relate keys: each stated once, as docs/config.md prints it, beside the check that
//! enforces it. A key's own range and the keys a kind takes are declared with the key; what is here
//! needs more than one key (or the network's size) to judge.

use super::Scenario;
use crate::facts::Facts;
use crate::host::programs;
use crate::params::{or_list, Problem, Problems};
use crate::routing;
use crate::switch::{self, FlowControl, SwitchKind};
use crate::topology;

/// What a rule judges: the scenario, its node count, and its facts as the kinds check themselves.
struct Ctx<'a> {
    s: &'a Scenario,
    nodes: u64,
    facts: Facts<'a>,
}

struct Rule {
    text: Text,
    check: fn(&Ctx, &mut Problems),
}

/// A rule's text as docs/config.md prints it: fixed, or made from what the kinds declare.
enum Text {
    Fixed(&'static str),
    Made(fn() -> String),
}

fn fail(p: &mut Problems, key: &str, value: impl std::fmt::Display, allowed: impl Into<String>) {
    p.push(Problem::new(key, value.to_string(), allowed, None));
}

fn quoted(name: &str) -> String {
    format!("'{name}'")
}

const RULES: &[Rule] = &[
    Rule {
        text: Text::Fixed("The network has at most `run.max_nodes` nodes (and at most 2^20)."),
        check: |c, p| {
            let max = c.s.run.max_nodes.min(1 << 20);
            if c.s.nodes().is_none() && c.s.network.topology.size_key().is_none() {
                return; // (a file that cannot be read: the network's own rule says why)
            }
            if c.nodes > max {
                let shown = c.s.nodes().map_or("more than 2^64".to_string(), |n| n.to_string());
                let network = &c.s.network.topology;
                match network.size_key() {
                    Some((key, value)) => p.push(Problem::new(
                        key,
                        value,
                        format!("a size with at most run.max_nodes = {max} nodes (this one has {shown})"),
                        None,
                    )),
                    None => fail(
                        p,
                        "run.max_nodes",
                        c.s.run.max_nodes,
                        format!("at least {shown}, the nodes of the {} network", network.name()),
                    ),
                }
            }
        },
    },
    Rule {
        text: Text::Made(|| format!("The routing fits the network: {}.", routing::fits(("`", "`"), ("`", "`")))),
        check: |c, p| {
            let (routing, network) = (&c.s.routing.algorithm, &c.s.network.topology);
            if !routing.networks().contains(&network.name()) {
                p.push(Problem::new(
                    "routing.algorithm",
                    quoted(routing.name()),
                    routing::fits(("'", "'"), ("", "")),
                    Some(format!("this scenario's network is '{}'", network.name())),
                ));
            }
        },
    },
    Rule {
        text: Text::Made(|| format!("Each network's own needs hold: {}.", topology::needs())),
        check: |c, p| p.extend(c.s.network.topology.unfit(&c.facts)),
    },
    Rule {
        text: Text::Made(|| format!("Each routing's own needs hold: {}.", routing::needs())),
        check: |c, p| p.extend(c.s.routing.algorithm.unfit(&c.facts)),
    },
    Rule {
        text: Text::Made(|| format!("Each switch's own needs hold: {}.", switch::needs())),
        check: |c, p| p.extend(c.s.switch.model.unfit(&c.facts)),
    },
    Rule {
        text: Text::Made(|| format!("Each program's own needs hold: {}.", programs::needs())),
        check: |c, p| p.extend(c.s.workload.program.unfit(&c.facts)),
    },
    Rule {
        text: Text::Fixed("Byte sizing: `workload.message_bytes` needs `workload.flit_bytes` and `workload.max_packet_bytes` (a \
               multiple of `flit_bytes`), excludes `workload.message_flits` and a `workload.packet_flits` other than its \
               default, and must \
               give at most 4096 flits a packet and 1000000 a message; `flit_bytes` and `max_packet_bytes` go only \
               with `message_bytes`."),
        check: |c, p| {
            let wl = &c.s.workload;
            let Some(message) = wl.message_bytes else {
                for (key, v) in [("workload.flit_bytes", wl.flit_bytes), ("workload.max_packet_bytes", wl.max_packet_bytes)] {
                    if let Some(v) = v {
                        fail(p, key, v, "only together with workload.message_bytes (leave it out to size in flits)");
                    }
                }
                return;
            };
            // (a resolved scenario writes packet_flits at its default: only another value is a conflict)
            if wl.packet_flits != super::Workload::default().packet_flits {
                fail(p, "workload.packet_flits", wl.packet_flits, "left out when workload.message_bytes is set (the flit sizes are derived from the byte sizes)");
            }
            if let Some(m) = wl.message_flits {
                fail(p, "workload.message_flits", m, "left out when workload.message_bytes is set (the flit sizes are derived from the byte sizes)");
            }
            let (Some(flit), Some(packet)) = (wl.flit_bytes, wl.max_packet_bytes) else {
                let key = if wl.flit_bytes.is_none() { "workload.flit_bytes" } else { "workload.max_packet_bytes" };
                fail(p, key, "(not set)", "an integer >= 1, required with workload.message_bytes");
                return;
            };
            if packet % flit != 0 {
                fail(p, "workload.max_packet_bytes", packet, format!("a multiple of workload.flit_bytes = {flit}"));
            } else if packet / flit > 4096 {
                fail(
                    p,
                    "workload.max_packet_bytes",
                    packet,
                    format!("at most 4096 flits, i.e. <= {} bytes with workload.flit_bytes = {flit}", 4096 * flit as u64),
                );
            } else if message.div_ceil(flit) > 1_000_000 {
                fail(
                    p,
                    "workload.message_bytes",
                    message,
                    format!("at most 1000000 flits, i.e. <= {} bytes with workload.flit_bytes = {flit}", 1_000_000 * flit as u64),
                );
            }
        },
    },
    Rule {
        text: Text::Fixed("Header bytes (`workload.unicast_header_bytes`, `workload.multicast_header_bytes`) are counted in whole \
               flits of `workload.flit_bytes`: above 0 they need the sizes in bytes (`workload.message_bytes`)."),
        check: |c, p| {
            if c.s.workload.flit_bytes.is_some() {
                return;
            }
            let (unicast, multicast) = c.s.workload.program.header_bytes();
            for (key, bytes) in [("workload.unicast_header_bytes", unicast), ("workload.multicast_header_bytes", multicast)] {
                if bytes > 0 {
                    fail(
                        p,
                        key,
                        bytes,
                        "0 with the sizes in flits (header bytes are counted in whole flits of workload.flit_bytes: \
                         give the sizes in bytes, workload.message_bytes)",
                    );
                }
            }
        },
    },
    Rule {
        text: Text::Made(|| {
            format!(
                "Multidestination worms (`hardware_multicast`, a `batch` or `collective` with `workload.scheme = \
                 \"hardware\"`) need a switch that replicates them on the network: {}.",
                switch::replicating(("`", "`"), ("`", "`"))
            )
        }),
        check: |c, p| {
            if c.facts.multidestination_worm.is_none() {
                return;
            }
            let networks = switch::replicating_networks();
            let (network, sw) = (c.facts.network, &c.s.switch.model);
            if !networks.contains(&network) {
                let allowed = format!(
                    "{} with multidestination worms (the networks where a switch replicates them: {})",
                    or_list(&networks),
                    switch::replicating(("'", "'"), ("", ""))
                );
                fail(p, "network.topology", quoted(network), allowed);
            } else if !sw.replicates_on().contains(&network) {
                let allowed = format!(
                    "{}, with multidestination worms (the switches that replicate)",
                    switch::replicating(("'", "'"), ("", ""))
                );
                fail(p, "switch.model", quoted(sw.name()), allowed);
            }
        },
    },
    Rule {
        text: Text::Fixed("The deadlock watchdog waits longer than a flit can rest without one: `run.watchdog_cycles` is more \
               than a credit's round trip over the slowest link (2 × the longest of the network's channels — \
               `network.channel_latency_cycles`, a class's own latency such as `network.global_latency_cycles`, a \
               network file's links — and `network.terminal_latency_cycles`) plus the switch's router delay (and \
               `switch.turn_cycles`)."),
        check: |c, p| {
            let net = &c.s.network;
            let link = c.facts.longest_channel.0.max(net.terminal_latency_cycles.unwrap_or(0)) as u64;
            let sw = &c.s.switch.model;
            let turn = if let SwitchKind::InputBuffered(b) = sw { b.turn_cycles } else { 0 };
            let rest = 2 * link + sw.router_delay_cycles() as u64 + turn as u64;
            if c.s.run.watchdog_cycles <= rest {
                fail(
                    p,
                    "run.watchdog_cycles",
                    c.s.run.watchdog_cycles,
                    format!(
                        "more than {rest} cycles: a flit may rest that long in a network that is not deadlocked (a \
                         credit's round trip over the slowest link, and a router's delay)"
                    ),
                );
            }
        },
    },
    Rule {
        text: Text::Fixed("A closed workload (`batch`, `torus_multicast`, `collective`) measures from cycle 0: `run.warmup_cycles = 0`."),
        check: |c, p| {
            if c.s.closed() && c.s.run.warmup_cycles != 0 {
                fail(
                    p,
                    "run.warmup_cycles",
                    c.s.run.warmup_cycles,
                    format!(
                        "0 with workload.program = '{}' (its operations start at cycle 0 and must be measured)",
                        c.s.workload.program.name()
                    ),
                );
            }
        },
    },
    Rule {
        text: Text::Fixed("`run.batches` is at most `run.measure_cycles` (one cycle per batch at least)."),
        check: |c, p| {
            let run = &c.s.run;
            if run.batches as u64 > run.measure_cycles {
                fail(p, "run.batches", run.batches, format!("at most run.measure_cycles = {} (one cycle per batch at least)", run.measure_cycles));
            }
        },
    },
];

/// The switch models with virtual channels (a `switch.vcs` key).
fn models_with_vcs() -> Vec<&'static str> {
    SwitchKind::kind_keys().into_iter().filter(|(_, keys)| keys.contains(&"vcs")).map(|(name, _)| name).collect()
}

/// The scenario as its kinds check themselves (`unfit`).
fn facts<'a>(s: &Scenario, nodes: u64, models_with_vcs: &'a [&'static str]) -> Facts<'a> {
    let (net, sw, routing) = (&s.network.topology, &s.switch.model, &s.routing.algorithm);
    Facts {
        nodes,
        network: net.name(),
        wraps: net.wraps(),
        dimensions: net.dimensions(),
        unidirectional: net.unidirectional(),
        parallel_links: net.parallel_links(),
        digits: net.digits(),
        groups: net.groups(),
        radix: net.radix(),
        radix_key: net.radix_key(),
        known_routers: net.known_routers(),
        diameter: net.diameter(),
        longest_channel: s.longest_channel(),
        threads: s.run.threads,
        terminal_latency: s.network.terminal_latency_cycles,
        switch: sw.name(),
        vcs: sw.vcs(),
        models_with_vcs,
        reads_credits: sw.flow_control() != FlowControl::StopGo,
        routing: routing.name(),
        by_table: routing.by_table(),
        check_deadlock_free: s.routing.check_deadlock_free,
        packet_flits: s.packet_flits(),
        unicast_header_flits: s.unicast_header_flits(),
        message_flits: s.message_flits(),
        multidestination_worm: s.largest_worm(),
    }
}

/// Every rule `s` breaks.
pub fn check(s: &Scenario) -> Problems {
    let nodes = s.nodes().unwrap_or(u64::MAX);
    let models = models_with_vcs();
    let ctx = Ctx { s, nodes, facts: facts(s, nodes, &models) };
    let mut problems = Vec::new();
    for rule in RULES {
        (rule.check)(&ctx, &mut problems);
        // (a network too large to judge makes every later rule about its nodes meaningless)
        if !problems.is_empty() && ctx.nodes > s.run.max_nodes.min(1 << 20) {
            break;
        }
    }
    problems
}

/// Every rule as docs/config.md states it.
pub fn texts() -> Vec<String> {
    RULES
        .iter()
        .map(|r| match r.text {
            Text::Fixed(text) => text.to_string(),
            Text::Made(make) => make(),
        })
        .collect()
}
