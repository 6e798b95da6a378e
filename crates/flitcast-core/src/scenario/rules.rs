//! The rules that relate keys: each stated once, as docs/config.md prints it, beside the check that
//! enforces it. A key's own range and the keys a kind takes are declared with the key; what is here
//! needs more than one key (or the network's size) to judge.

use super::Scenario;
use crate::collective;
use crate::host::programs::host_adapter::MAX_MEMBERS;
use crate::host::programs::ProgramKind;
use crate::params::{or_list, Problem, Problems};
use crate::routing::{self, RoutingKind};
use crate::switch::central_buffer::replication_chunks;
use crate::switch::{FlowControl, SwitchKind};
use crate::topology::{irregular, TopologyKind};
use crate::workload::patterns::Shape;

/// What a rule judges: the scenario and its node count.
struct Ctx<'a> {
    s: &'a Scenario,
    nodes: u64,
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
            if matches!(c.s.network.topology, TopologyKind::Irregular(_)) && c.s.nodes().is_none() {
                return; // (a file that cannot be read: the irregular network's rule says why)
            }
            if c.nodes > max {
                let shown = c.s.nodes().map_or("more than 2^64".to_string(), |n| n.to_string());
                let sized = format!("a size with at most run.max_nodes = {max} nodes (this one has {shown})");
                match &c.s.network.topology {
                    TopologyKind::Mesh(t) => fail(p, "network.k", t.k, sized),
                    TopologyKind::Torus(t) => fail(p, "network.k", t.k, sized),
                    TopologyKind::Ring(t) => fail(p, "network.k", t.k, sized),
                    TopologyKind::FatTree(t) => fail(p, "network.k", t.k, sized),
                    TopologyKind::Dragonfly(t) => fail(p, "network.a", t.a, sized),
                    TopologyKind::Hyperx(t) => fail(p, "network.shape", format!("{:?}", t.shape), sized),
                    fixed => fail(
                        p,
                        "run.max_nodes",
                        c.s.run.max_nodes,
                        format!("at least {shown}, the nodes of the {} network", fixed.name()),
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
                    Some(format!("the network is a {}", network.name())),
                ));
            }
        },
    },
    Rule {
        text: Text::Fixed("An `irregular` network's file (`network.file`) can be read and describes a connected network \
               (docs/models/irregular.md), and `routing.root` names one of its routers."),
        check: |c, p| {
            let TopologyKind::Irregular(t) = &c.s.network.topology else { return };
            match irregular::load(&t.file) {
                Err(e) => p.push(e.problem(&t.file)),
                Ok(net) => {
                    if let RoutingKind::UpDown(r) = &c.s.routing.algorithm {
                        if r.root >= net.routers {
                            fail(
                                p,
                                "routing.root",
                                r.root,
                                format!("a router id from 0 to {} (the network has {} routers)", net.routers - 1, net.routers),
                            );
                        }
                    }
                }
            }
        },
    },
    Rule {
        text: Text::Fixed("A `dragonfly` has from 2 to `network.a` · `network.h` + 1 groups (one global channel joins each pair \
               of groups), at most 255, and routers of at most 64 ports (`network.p` + `network.a` − 1 + \
               `network.h`)."),
        check: |c, p| {
            if let Some(problem) = match &c.s.network.topology {
                TopologyKind::Dragonfly(t) => t.problem(),
                _ => None,
            } {
                p.push(problem);
            }
        },
    },
    Rule {
        text: Text::Made(|| format!("Each routing's own needs hold: {}.", routing::needs())),
        check: |c, p| p.extend(c.s.routing.algorithm.unfit(&routing_facts(c, &models_with_vcs()))),
    },
    Rule {
        text: Text::Fixed("A `hyperx` has at least one dimension in `network.shape`, each of at least 2 routers, and routers of \
               at most 64 ports: `network.terminals_per_router` + Σ (S − 1) · `network.parallel_links` ≤ 64."),
        check: |c, p| {
            if let TopologyKind::Hyperx(t) = &c.s.network.topology {
                if let Some((key, value, allowed)) = t.problem() {
                    fail(p, key, value, allowed);
                }
            }
        },
    },
    Rule {
        text: Text::Fixed("`switch.turn_cycles` > 0 needs a `mesh` or `torus` (the input-buffered router's turns between \
               dimensions)."),
        check: |c, p| {
            if let SwitchKind::InputBuffered(sw) = &c.s.switch.model {
                let cube = matches!(c.s.network.topology, TopologyKind::Mesh(_) | TopologyKind::Torus(_));
                if sw.turn_cycles > 0 && !cube {
                    fail(p, "switch.turn_cycles", sw.turn_cycles, "0 except on a mesh or torus");
                }
            }
        },
    },
    Rule {
        text: Text::Fixed("The central-buffer and input-FIFO switches read a head's route at most `switch.router_delay_cycles` \
               after it arrives (`switch.route_cycles`)."),
        check: |c, p| {
            let (route, delay) = match &c.s.switch.model {
                SwitchKind::CentralBuffer(sw) => (sw.route_cycles, sw.router_delay_cycles),
                SwitchKind::InputFifo(sw) => (sw.route_cycles, sw.router_delay_cycles),
                _ => return,
            };
            if route > delay {
                fail(p, "switch.route_cycles", route, format!("an integer from 1 to switch.router_delay_cycles = {delay}"));
            }
        },
    },
    Rule {
        text: Text::Fixed("Virtual cut-through (`switch.flow_control = \"vct\"`, and the InfiniBand switch) needs \
               `switch.buffer_flits >= workload.packet_flits` and the unicast header's flits \
               (`workload.unicast_header_bytes`)."),
        check: |c, p| {
            let sw = &c.s.switch.model;
            let header = c.s.unicast_header_flits();
            let packet = c.s.packet_flits() + header;
            if sw.flow_control() == FlowControl::Vct && sw.buffer_flits() < packet {
                let what = if header == 0 {
                    format!("workload.packet_flits = {packet}")
                } else {
                    format!("{packet}, workload.packet_flits and the unicast header's {header} flits,")
                };
                fail(p, "switch.buffer_flits", sw.buffer_flits(), format!("at least {what} with virtual cut-through"));
            }
        },
    },
    Rule {
        text: Text::Fixed("`switch.flow_control = \"stop_go\"` needs `switch.stop_flits` at most `switch.buffer_flits` − (2 × \
               `network.channel_latency_cycles` + `switch.router_delay_cycles` − 1), `switch.go_flits` below it, and \
               `network.terminal_latency_cycles` at most `network.channel_latency_cycles`."),
        check: |c, p| {
            let SwitchKind::InputBuffered(sw) = &c.s.switch.model else { return };
            if sw.flow_control != FlowControl::StopGo {
                return;
            }
            let net = &c.s.network;
            let slack = sw.stop_go_slack(net.channel_latency_cycles);
            let (stop, go) = c.s.stop_go_thresholds();
            if sw.stop_flits.is_none() && sw.buffer_flits <= slack {
                // (the user set the buffer, not the threshold derived from it: name the key they set)
                fail(
                    p,
                    "switch.buffer_flits",
                    sw.buffer_flits,
                    format!(
                        "at least {} under stop/go: a sender can still send {slack} flits before STOP reaches it (2 \
                         × network.channel_latency_cycles + switch.router_delay_cycles − 1), so switch.stop_flits, \
                         derived as switch.buffer_flits − {slack}, would be {stop}",
                        slack + 1
                    ),
                );
            } else if !(stop >= 1 && stop + slack <= sw.buffer_flits) {
                fail(
                    p,
                    "switch.stop_flits",
                    stop,
                    format!(
                        "an integer from 1 to switch.buffer_flits − {slack} = {} (the flits a sender can still send \
                         before STOP reaches it: 2 × network.channel_latency_cycles + switch.router_delay_cycles − 1)",
                        sw.buffer_flits as i64 - slack as i64
                    ),
                );
            } else if go >= stop {
                fail(p, "switch.go_flits", go, format!("an integer below switch.stop_flits = {stop}"));
            }
            if let Some(t) = net.terminal_latency_cycles.filter(|&t| t > net.channel_latency_cycles) {
                fail(
                    p,
                    "network.terminal_latency_cycles",
                    t,
                    "an integer from 1 to network.channel_latency_cycles under stop/go (the slack covers a round \
                     trip of the longest channel), or left out",
                );
            }
        },
    },
    Rule {
        text: Text::Fixed("The InfiniBand switch has at most 8 ports and forwards a packet by its table, one output per \
               destination (study 003 §2): it takes `dor`, `o1` or `o4` routing, not `adaptive` or `min_adaptive`, \
               and on a `hyperx` only `network.parallel_links = 1` (`dor` there offers every parallel link)."),
        check: |c, p| {
            if !matches!(c.s.switch.model, SwitchKind::Infiniband(_)) {
                return;
            }
            if c.s.network.topology.radix() > 8 {
                let allowed = "a network of switches with at most 8 ports for the InfiniBand switch";
                match &c.s.network.topology {
                    TopologyKind::Mesh(t) => fail(p, "network.n", t.n, allowed),
                    TopologyKind::Torus(t) => fail(p, "network.n", t.n, allowed),
                    TopologyKind::FatTree(t) => fail(p, "network.k", t.k, allowed),
                    other => fail(p, "network.topology", quoted(other.name()), allowed),
                }
            }
            if c.s.routing.algorithm.adaptive() {
                fail(
                    p,
                    "routing.algorithm",
                    quoted(c.s.routing.algorithm.name()),
                    "'o1' or 'o4' with the InfiniBand switch on a fat_tree, sp16 or sp128 (a forwarding table \
                     gives one output per destination)",
                );
            }
            if let TopologyKind::Hyperx(t) = &c.s.network.topology {
                if t.parallel_links > 1 {
                    fail(
                        p,
                        "network.parallel_links",
                        t.parallel_links,
                        "1 with the InfiniBand switch (a forwarding table gives one output per destination)",
                    );
                }
            }
        },
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
        text: Text::Fixed("A traffic pattern runs only where it is defined, as the pattern table above says (e.g. the bit \
               permutations on a power-of-two node count; `hotspot` with a non-empty `workload.hotspot_nodes` of \
               node ids and `workload.hotspot_fraction > 0`)."),
        check: |c, p| {
            if let ProgramKind::OpenLoop(ol) = &c.s.workload.program {
                p.extend(ol.pattern.unfit(&shape(c)));
            }
        },
    },
    Rule {
        text: Text::Fixed("An m-way multicast has at most nodes − 1 destinations (`workload.destinations`)."),
        check: |c, p| {
            let m = match &c.s.workload.program {
                ProgramKind::SoftwareMulticast(w) => w.traffic.destinations,
                ProgramKind::HardwareMulticast(w) => w.traffic.destinations,
                _ => return,
            };
            if m as u64 >= c.nodes {
                fail(
                    p,
                    "workload.destinations",
                    m,
                    format!("an integer from 1 to {} (the other nodes)", c.nodes.saturating_sub(1)),
                );
            }
        },
    },
    Rule {
        text: Text::Fixed("Multidestination worms (`hardware_multicast`, a `batch` with `workload.scheme = \"hardware\"`) need \
               a `fat_tree` or `sp16` of `central_buffer` or `input_fifo` switches, or a `mesh` of `infiniband` \
               switches (not `sp128`: its intermediate boards link chips of one stage, and the replicating routing \
               needs every link to go up or down a level); an input FIFO or lane at least as long as the largest worm (packet and \
               header), and a central buffer of at least twice a worm's chunks plus one header-chunk copy per \
               further down port."),
        check: |c, p| {
            let Some(worm) = c.s.largest_worm() else { return };
            let topo = &c.s.network.topology;
            let mesh = matches!(topo, TopologyKind::Mesh(_));
            let levelled = topo.multistage() && !matches!(topo, TopologyKind::Sp128(_));
            if !levelled && !mesh {
                return fail(
                    p,
                    "network.topology",
                    quoted(topo.name()),
                    "'fat_tree', 'sp16' or 'mesh' with multidestination worms (they are routed up and down the \
                     levels of a bidirectional MIN — sp128's intermediate boards link chips of one level — and by \
                     the union of XY paths on meshes)",
                );
            }
            let sw = &c.s.switch.model;
            let fits = if mesh {
                matches!(sw, SwitchKind::Infiniband(_))
            } else {
                matches!(sw, SwitchKind::CentralBuffer(_) | SwitchKind::InputFifo(_))
            };
            if !fits {
                return fail(
                    p,
                    "switch.model",
                    quoted(sw.name()),
                    "'central_buffer' or 'input_fifo' on a fat_tree or sp16, 'infiniband' on a mesh, with \
                     multidestination worms (the switches that replicate)",
                );
            }
            match sw {
                SwitchKind::Infiniband(b) if b.buffer_flits < worm => fail(
                    p,
                    "switch.buffer_flits",
                    b.buffer_flits,
                    format!("at least the largest packet, {worm} flits, for virtual cut-through"),
                ),
                SwitchKind::InputFifo(b) if b.buffer_flits < worm => fail(
                    p,
                    "switch.buffer_flits",
                    b.buffer_flits,
                    format!("at least the largest worm, {worm} flits (packet and header), for input-FIFO replication"),
                ),
                SwitchKind::CentralBuffer(b) => {
                    let down = match topo {
                        TopologyKind::FatTree(t) => t.k,
                        _ => 4,
                    };
                    // (twice: up-bound packets leave the last worm's worth to down-bound ones, central_buffer.rs)
                    let need = 2 * replication_chunks(worm, down, b.chunk_flits);
                    if b.central_buffer_chunks < need {
                        fail(
                            p,
                            "switch.central_buffer_chunks",
                            b.central_buffer_chunks,
                            format!(
                                "at least {need}: twice a whole worm and a header-chunk copy per further down port \
                                 (one such share is kept for down-bound packets)"
                            ),
                        );
                    }
                }
                _ => {}
            }
        },
    },
    Rule {
        text: Text::Fixed("The deadlock watchdog waits longer than a flit can rest without one: `run.watchdog_cycles` is more \
               than a credit's round trip over the slowest link (2 × the larger of `network.channel_latency_cycles` \
               and `network.terminal_latency_cycles`) plus the switch's router delay (and `switch.turn_cycles`)."),
        check: |c, p| {
            let net = &c.s.network;
            let link = net.channel_latency_cycles.max(net.terminal_latency_cycles.unwrap_or(0)) as u64;
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
        text: Text::Fixed("A fixed group (`host_adapter`) lives on a bidirectional 2-D `torus` or `mesh`: `workload.group` holds 2 \
               to 1024 distinct global host IDs below the node count, every worm is one packet \
               (`workload.packet_flits` at least the largest message, background unicast and control worm), and a \
               truncated geometric size's maximum is at least twice its mean."),
        check: |c, p| {
            let ProgramKind::HostAdapter(a) = &c.s.workload.program else { return };
            let grid = match &c.s.network.topology {
                TopologyKind::Mesh(t) => t.n == 2,
                TopologyKind::Torus(t) => t.n == 2 && !t.unidirectional,
                _ => false,
            };
            if !grid {
                fail(
                    p,
                    "network.topology",
                    quoted(c.s.network.topology.name()),
                    "a bidirectional 2-D torus or mesh for workload.program = 'host_adapter' (the hosts' global \
                     order is a Hamiltonian path of its grid)",
                );
            }
            let mut ids = a.group.clone();
            ids.sort_unstable();
            ids.dedup();
            if ids.len() != a.group.len() || !(2..=MAX_MEMBERS).contains(&ids.len()) || ids.iter().any(|&g| g as u64 >= c.nodes)
            {
                fail(
                    p,
                    "workload.group",
                    format!("{:?}", a.group),
                    format!(
                        "2 to {MAX_MEMBERS} distinct global host IDs from 0 to {} (every source's tree costs the \
                         cube of the group)",
                        c.nodes.saturating_sub(1)
                    ),
                );
            }
            let mean = c.s.message_flits();
            for (key, mean, max) in [
                ("workload.message_flits_max", mean, a.message_flits_max),
                ("workload.background_flits_max", a.background_flits, Some(a.background_flits_max)),
            ] {
                if let Some(max) = max.filter(|&max| (max as u64) < 2 * mean as u64) {
                    fail(
                        p,
                        key,
                        max,
                        format!(
                            "an integer from {} to 1000000 (a truncated geometric size's maximum is at least twice \
                             its mean, {mean})",
                            2 * mean
                        ),
                    );
                }
            }
            let background = if a.background_load > 0.0 { a.background_flits_max } else { 0 };
            let largest = a.message_flits_max.unwrap_or(mean).max(background).max(a.control_flits);
            if c.s.packet_flits() < largest {
                fail(
                    p,
                    "workload.packet_flits",
                    c.s.packet_flits(),
                    format!("at least {largest} with workload.program = 'host_adapter': every worm is one packet (the largest message)"),
                );
            }
        },
    },
    Rule {
        text: Text::Fixed("One software multicast on a torus (`torus_multicast`) runs on a unidirectional 2-D `torus`, with \
               `workload.group_size` and `workload.partition` at most the node count and `workload.root` below it."),
        check: |c, p| {
            let ProgramKind::TorusMulticast(t) = &c.s.workload.program else { return };
            let fits = matches!(&c.s.network.topology, TopologyKind::Torus(n) if n.n == 2 && n.unidirectional);
            if !fits {
                fail(
                    p,
                    "network.topology",
                    quoted(c.s.network.topology.name()),
                    "a unidirectional 2-D torus (network.unidirectional = true, n = 2) for workload.program = \
                     'torus_multicast'",
                );
            }
            let n = c.nodes;
            if t.group_size as u64 > n {
                fail(p, "workload.group_size", t.group_size, format!("an integer from 2 to {n} (the root and its destinations)"));
            }
            if t.root as u64 >= n {
                fail(p, "workload.root", t.root, format!("a node id below {n}"));
            }
            if t.partition as u64 > n {
                fail(p, "workload.partition", t.partition, format!("an integer from 2 to {n}"));
            }
        },
    },
    Rule {
        text: Text::Fixed("One collective (`collective`) takes a `workload.scheme` (its algorithm) that carries out its `workload.operation` \
               (docs/models/collectives.md), a `workload.group_size` of at most the node count, and a `workload.root` \
               below the group's size."),
        check: |c, p| {
            let ProgramKind::Collective(k) = &c.s.workload.program else { return };
            let allowed = collective::algorithms(k.operation);
            if !allowed.contains(&k.algorithm()) {
                fail(
                    p,
                    "workload.scheme",
                    quoted(k.algorithm().name()),
                    format!(
                        "{} for workload.operation = '{}'",
                        or_list(&allowed.iter().map(|a| a.name()).collect::<Vec<_>>()),
                        k.operation.name()
                    ),
                );
            }
            let size = k.group_size.map_or(c.nodes, u64::from);
            if size > c.nodes {
                fail(p, "workload.group_size", size, format!("an integer from 2 to {} (the node count)", c.nodes));
            }
            if k.root as u64 >= size {
                fail(p, "workload.root", k.root, format!("a rank below the group's size, {size}"));
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

/// The scenario as its routing checks itself (`Algorithm::unfit`).
fn routing_facts<'a>(c: &Ctx, models_with_vcs: &'a [&'static str]) -> routing::Facts<'a> {
    let (net, sw) = (&c.s.network.topology, &c.s.switch.model);
    routing::Facts {
        nodes: c.nodes,
        wraps: net.wraps(),
        mesh_dims: match net {
            TopologyKind::Mesh(m) => Some(m.n),
            _ => None,
        },
        hyperx: match net {
            TopologyKind::Hyperx(h) => Some((h.shape.len() as u32, h.parallel_links)),
            _ => None,
        },
        switch: sw.name(),
        vcs: sw.vcs(),
        models_with_vcs,
        reads_credits: sw.flow_control() != FlowControl::StopGo,
        check_deadlock_free: c.s.routing.check_deadlock_free,
    }
}

/// The network as traffic patterns see it.
fn shape(c: &Ctx) -> Shape {
    let net = &c.s.network.topology;
    Shape { nodes: c.nodes.min(u32::MAX as u64) as u32, digits: net.digits(), groups: net.groups() }
}

/// Every rule `s` breaks.
pub fn check(s: &Scenario) -> Problems {
    let ctx = Ctx { s, nodes: s.nodes().unwrap_or(u64::MAX) };
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
