//! Cross-section checks of a scenario (`Scenario::validate`): every key's range, and the rules that
//! relate keys of different sections (a central-buffer switch has one VC, virtual cut-through needs
//! buffers as large as a packet, …). `scenario.rs` holds the data; the Python front mirrors these
//! rules with the same messages (docs/config.md, "Rules across keys").

use crate::error::Error;
use crate::scenario::{
    FlowControl, LaneMap, MulticastScheme, ObliviousTable, PatternKind, RoutingAlgorithm, Scenario, SwitchModel,
    TopologyKind,
};

fn check(ok: bool, key: &str, value: impl std::fmt::Display, allowed: &str) -> Result<(), Error> {
    if ok {
        Ok(())
    } else {
        Err(Error::config(key, value, allowed))
    }
}

impl Scenario {
    pub fn validate(&self) -> Result<(), Error> {
        let (net, sw, wl, run) = (&self.network, &self.switch, &self.workload, &self.run);
        check((2..=1024).contains(&net.k), "network.k", net.k, "an integer from 2 to 1024")?;
        check((1..=6).contains(&net.n), "network.n", net.n, "an integer from 1 to 6")?;
        check(net.topology != TopologyKind::Ring || net.n == 1, "network.n", net.n, "1 for a ring")?;
        check(
            !net.unidirectional || matches!(net.topology, TopologyKind::Torus | TopologyKind::Ring),
            "network.unidirectional",
            net.unidirectional,
            "false except for a torus or ring (only they can be unidirectional)",
        )?;
        check(
            net.topology != TopologyKind::FatTree || (2..=8).contains(&net.k),
            "network.k",
            net.k,
            "an integer from 2 to 8 for a fat tree (switches have 2k ports; a route offers at most 8 up ports)",
        )?;
        check(
            net.terminal_latency_cycles.is_none_or(|t| (1..=1000).contains(&t))
                && (sw.flow_control != FlowControl::StopGo
                    || net.terminal_latency_cycles.is_none_or(|t| t <= net.channel_latency_cycles)),
            "network.terminal_latency_cycles",
            format!("{:?}", net.terminal_latency_cycles),
            "an integer from 1 to 1000, at most network.channel_latency_cycles under stop/go (the slack covers a \
             round trip of the longest channel), or none for network.channel_latency_cycles",
        )?;
        check(
            sw.turn_cycles <= 1_000_000
                && (sw.turn_cycles == 0
                    || (sw.model == SwitchModel::InputBuffered
                        && matches!(net.topology, TopologyKind::Mesh | TopologyKind::Torus))),
            "switch.turn_cycles",
            sw.turn_cycles,
            "an integer from 0 to 1000000, and 0 except for the input-buffered router on a mesh or torus",
        )?;
        check(
            (1..=1000).contains(&net.channel_latency_cycles),
            "network.channel_latency_cycles",
            net.channel_latency_cycles,
            "an integer from 1 to 1000",
        )?;
        check(net.terminals_per_router == 1, "network.terminals_per_router", net.terminals_per_router, "1")?;
        let nodes = self.nodes().unwrap_or(u64::MAX);
        check(
            nodes <= run.max_nodes && nodes <= 1 << 20,
            "network.k",
            net.k,
            &format!("a size with at most run.max_nodes = {} nodes (k^n = {nodes})", run.max_nodes),
        )?;
        check((1..=16).contains(&sw.vcs), "switch.vcs", sw.vcs, "an integer from 1 to 16")?;
        check(
            (1..=4096).contains(&sw.buffer_flits),
            "switch.buffer_flits",
            sw.buffer_flits,
            "an integer from 1 to 4096",
        )?;
        check(
            (1..=1000).contains(&sw.router_delay_cycles),
            "switch.router_delay_cycles",
            sw.router_delay_cycles,
            "an integer from 1 to 1000",
        )?;
        if matches!(sw.model, SwitchModel::CentralBuffer | SwitchModel::InputFifo) {
            check(
                sw.vcs == 1,
                "switch.vcs",
                sw.vcs,
                "1 for the central-buffer and input-FIFO switches (SP switches have no virtual channels)",
            )?;
            check(
                sw.flow_control == FlowControl::Wormhole,
                "switch.flow_control",
                "vct",
                "wormhole for the central-buffer and input-FIFO switches",
            )?;
            check(
                (1..=sw.router_delay_cycles).contains(&sw.route_cycles),
                "switch.route_cycles",
                sw.route_cycles,
                &format!("an integer from 1 to switch.router_delay_cycles = {}", sw.router_delay_cycles),
            )?;
            check((1..=64).contains(&sw.chunk_flits), "switch.chunk_flits", sw.chunk_flits, "an integer from 1 to 64")?;
            check(
                (1..=1_000_000).contains(&sw.central_buffer_chunks),
                "switch.central_buffer_chunks",
                sw.central_buffer_chunks,
                "an integer from 1 to 1000000",
            )?;
        }
        if sw.flow_control == FlowControl::StopGo {
            check(
                sw.model == SwitchModel::InputBuffered,
                "switch.flow_control",
                "stop_go",
                "wormhole or vct with this switch (stop/go slack buffers are modelled on the input-buffered router)",
            )?;
            let slack = 2 * net.channel_latency_cycles + sw.router_delay_cycles - 1;
            let (stop, go) = self.stop_go_thresholds();
            check(
                stop >= 1 && stop + slack <= sw.buffer_flits,
                "switch.stop_flits",
                stop,
                &format!(
                    "an integer from 1 to switch.buffer_flits − {slack} = {} (the flits a sender can still send \
                     before STOP reaches it: 2 × network.channel_latency_cycles + switch.router_delay_cycles − 1)",
                    sw.buffer_flits as i64 - slack as i64
                ),
            )?;
            check(go < stop, "switch.go_flits", go, &format!("an integer below switch.stop_flits = {stop}"))?;
        }
        if sw.model == SwitchModel::Infiniband {
            check(
                sw.flow_control == FlowControl::Vct,
                "switch.flow_control",
                "wormhole",
                "vct for the InfiniBand switch (virtual cut-through)",
            )?;
            let radix = match net.topology {
                TopologyKind::FatTree => 2 * net.k,
                TopologyKind::Sp16 | TopologyKind::Sp128 => 8,
                _ if net.unidirectional => net.n + 1,
                _ => 2 * net.n + 1,
            };
            check(
                radix <= 8,
                "network.n",
                net.n,
                "a network of switches with at most 8 ports for the InfiniBand switch",
            )?;
        }
        check(
            !matches!(self.routing.algorithm, RoutingAlgorithm::O1 | RoutingAlgorithm::O4)
                || self.routing.oblivious_table != ObliviousTable::Balanced
                || nodes <= 256,
            "routing.oblivious_table",
            "balanced",
            "d_mod_k or s_mod_k above 256 nodes (balanced tables are built pair by pair)",
        )?;
        check(
            wl.load.is_finite() && wl.load > 0.0 && wl.load <= 1.0,
            "workload.load",
            wl.load,
            "a number in (0, 1] flits/node/cycle",
        )?;
        check(
            (1..=4096).contains(&wl.packet_flits),
            "workload.packet_flits",
            wl.packet_flits,
            "an integer from 1 to 4096",
        )?;
        check(
            (1..=1_000_000).contains(&wl.message_flits),
            "workload.message_flits",
            wl.message_flits,
            "an integer from 1 to 1000000",
        )?;
        check(
            sw.flow_control != FlowControl::Vct || sw.buffer_flits >= wl.packet_flits,
            "switch.buffer_flits",
            sw.buffer_flits,
            &format!("at least workload.packet_flits = {} with virtual cut-through", wl.packet_flits),
        )?;
        check(
            wl.hotspot_fraction.is_finite() && (0.0..=1.0).contains(&wl.hotspot_fraction),
            "workload.hotspot_fraction",
            wl.hotspot_fraction,
            "a number in [0, 1]",
        )?;
        for &h in &wl.hotspot_nodes {
            check((h as u64) < nodes, "workload.hotspot_nodes", h, &format!("node ids from 0 to {}", nodes - 1))?;
        }
        check(
            (1..=1_000_000_000).contains(&run.measure_cycles),
            "run.measure_cycles",
            run.measure_cycles,
            "an integer from 1 to 1e9",
        )?;
        check(run.warmup_cycles <= 1_000_000_000, "run.warmup_cycles", run.warmup_cycles, "an integer from 0 to 1e9")?;
        check(
            run.drain_max_cycles <= 1_000_000_000,
            "run.drain_max_cycles",
            run.drain_max_cycles,
            "an integer from 0 to 1e9",
        )?;
        check(
            (1..=1_000_000_000).contains(&run.watchdog_cycles),
            "run.watchdog_cycles",
            run.watchdog_cycles,
            "an integer from 1 to 1e9",
        )?;
        check(
            run.batches >= 2 && run.batches as u64 <= run.measure_cycles.min(1000),
            "run.batches",
            run.batches,
            "an integer from 2 to min(1000, run.measure_cycles)",
        )?;
        check(
            (wl.multicast_destinations as u64) < nodes,
            "workload.multicast_destinations",
            wl.multicast_destinations,
            &format!("an integer from 0 to {} (the other nodes)", nodes.saturating_sub(1)),
        )?;
        check(
            wl.multicast_destinations == 0 || (wl.pattern == PatternKind::Uniform && !wl.uniform_include_self),
            "workload.pattern",
            format!("{:?}", wl.pattern).to_lowercase(),
            "uniform (without workload.uniform_include_self) with multicasts: their destinations are uniform \
             among the other nodes",
        )?;
        check(
            wl.multicast_forward_cycles <= 1_000_000_000,
            "workload.multicast_forward_cycles",
            wl.multicast_forward_cycles,
            "an integer from 0 to 1e9",
        )?;
        check(
            (0.0..=1.0).contains(&wl.multicast_fraction) && (wl.multicast_fraction > 0.0),
            "workload.multicast_fraction",
            wl.multicast_fraction,
            "a number in (0, 1]: the share of the received load carried by multicasts",
        )?;
        check(
            wl.multicast_header_flits.is_none_or(|h| h <= 4096),
            "workload.multicast_header_flits",
            format!("{:?}", wl.multicast_header_flits),
            "an integer from 0 to 4096, or none for ⌈nodes/16⌉",
        )?;
        if wl.hardware_multicast() {
            hardware_multicast_fits(self, nodes as u32)?;
        }
        batch_fits(self)?;
        group_fits(self, nodes as u32)?;
        crate::workload::pattern::check_size(wl, nodes as u32, net)?;
        routing_fits_network(self)?;
        Ok(())
    }
}

/// The routing algorithm fits the network, and a wrapping network has its dateline classes.
fn routing_fits_network(s: &Scenario) -> Result<(), Error> {
    let bmin = matches!(s.network.topology, TopologyKind::FatTree | TopologyKind::Sp16 | TopologyKind::Sp128);
    if bmin == (s.routing.algorithm == RoutingAlgorithm::Dor) {
        return Err(Error::config(
            "routing.algorithm",
            format!("{:?}", s.routing.algorithm).to_lowercase(),
            "dor on a mesh, torus or ring; adaptive, o1 or o4 on a fat_tree, sp16 or sp128",
        ));
    }
    if s.routing.lanes == LaneMap::ByPort {
        check(
            s.network.topology == TopologyKind::Mesh && s.network.n == 2 && matches!(s.switch.vcs, 1 | 2 | 4),
            "routing.lanes",
            "by_port",
            "any, unless dimension-order routing on a 2-D mesh with switch.vcs = 1, 2 or 4 (one lane per direction)",
        )?;
    }
    let wraps = matches!(s.network.topology, TopologyKind::Torus | TopologyKind::Ring);
    if wraps && s.routing.check_deadlock_free && s.switch.vcs < 2 {
        return Err(Error::config(
            "switch.vcs",
            s.switch.vcs,
            "at least 2 for dimension-order routing on a torus or ring (two dateline classes); \
             set routing.check_deadlock_free = false to simulate a deadlock-prone single-VC torus",
        ));
    }
    Ok(())
}

/// Multidestination packets need a routing that replicates them — up and down a bidirectional MIN
/// (study 000 §3.3), or the union of dimension-order paths on a mesh (study 003 §3.3.2) — and a switch
/// that replicates them with room to hold a whole one: the input FIFO must be larger than the largest
/// packet (000 §5), the central buffer must take a whole packet plus its header-chunk copies (§4.2.2),
/// or the switch could never admit it; the InfiniBand switch's lanes hold whole packets (VCT).
fn hardware_multicast_fits(s: &Scenario, nodes: u32) -> Result<(), Error> {
    let (sw, wl) = (&s.switch, &s.workload);
    let bmin = matches!(s.network.topology, TopologyKind::FatTree | TopologyKind::Sp16 | TopologyKind::Sp128);
    let mesh = s.network.topology == TopologyKind::Mesh;
    check(
        bmin || mesh,
        "network.topology",
        format!("{:?}", s.network.topology).to_lowercase(),
        "fat_tree, sp16, sp128 or mesh with workload.multicast_scheme = hardware (multidestination packets are \
         routed on bidirectional MINs and by the union of XY paths on meshes)",
    )?;
    let fits = if bmin {
        matches!(sw.model, SwitchModel::CentralBuffer | SwitchModel::InputFifo)
    } else {
        sw.model == SwitchModel::Infiniband
    };
    check(
        fits,
        "switch.model",
        format!("{:?}", sw.model).to_lowercase(),
        "central_buffer or input_fifo on a fat_tree, sp16 or sp128, infiniband on a mesh, with \
         workload.multicast_scheme = hardware (the switches that replicate)",
    )?;
    let worm = wl.packet_flits.min(wl.message_flits) + s.worm_header_flits(nodes);
    let down = if s.network.topology == TopologyKind::FatTree { s.network.k } else { 4 };
    match sw.model {
        SwitchModel::InputBuffered => Ok(()),
        SwitchModel::Infiniband => check(
            sw.buffer_flits >= worm,
            "switch.buffer_flits",
            sw.buffer_flits,
            &format!("at least the largest packet, {worm} flits, for virtual cut-through"),
        ),
        SwitchModel::InputFifo => check(
            sw.buffer_flits >= worm,
            "switch.buffer_flits",
            sw.buffer_flits,
            &format!("at least the largest worm, {worm} flits (packet and header), for input-FIFO replication"),
        ),
        SwitchModel::CentralBuffer => {
            // (twice: up-bound packets leave the last worm's worth to down-bound ones, central_buffer.rs)
            let need = 2 * wl.replication_chunks(nodes, down, sw.chunk_flits);
            check(
                sw.central_buffer_chunks >= need,
                "switch.central_buffer_chunks",
                sw.central_buffer_chunks,
                &format!(
                    "at least {need}: twice a whole worm and a header-chunk copy per further down port (one such \
                     share is kept for down-bound packets)"
                ),
            )
        }
    }
}

/// A closed batch (`host/programs/batch.rs`): shares of the nodes in (0, 1], no open-loop multicasts beside
/// it, and a run that measures from cycle 0 (its operations all start then). Separate addressing is
/// a batch's scheme only.
fn batch_fits(s: &Scenario) -> Result<(), Error> {
    let wl = &s.workload;
    check(
        wl.batch_sources.is_finite() && (0.0..=1.0).contains(&wl.batch_sources),
        "workload.batch_sources",
        wl.batch_sources,
        "a number in [0, 1]: the share of the nodes that send (0: open-loop traffic)",
    )?;
    if wl.batch_sources == 0.0 {
        return check(
            wl.multicast_scheme != MulticastScheme::Separate || wl.multicast_destinations == 0,
            "workload.multicast_scheme",
            "separate",
            "software or hardware for open-loop multicasts (separate addressing is for closed batches: \
             workload.batch_sources > 0)",
        );
    }
    check(
        wl.batch_group.is_finite() && wl.batch_group > 0.0 && wl.batch_group <= 1.0,
        "workload.batch_group",
        wl.batch_group,
        "a number in (0, 1]: the share of the nodes in the group",
    )?;
    check(
        wl.multicast_destinations == 0,
        "workload.multicast_destinations",
        wl.multicast_destinations,
        "0 with a closed batch (its group gives the destinations)",
    )?;
    check(
        s.run.warmup_cycles == 0,
        "run.warmup_cycles",
        s.run.warmup_cycles,
        "0 with a closed batch (its messages all start at cycle 0 and must be measured)",
    )
}

/// A truncated geometric size with mean `mean` needs a maximum above 2·mean − 1 (its mean is below the
/// uniform's, (max + 1) / 2).
fn sizes_fit(mean: u32, max: Option<u32>, key: &str) -> Result<(), Error> {
    match max {
        None => Ok(()),
        Some(max) => check(
            max as u64 + 1 > 2 * mean as u64 && max <= 1_000_000,
            key,
            max,
            &format!("an integer from {} to 1000000: above twice the mean {mean}, less one", 2 * mean),
        ),
    }
}

/// A fixed multicast group (study 001, `host/programs/host_adapter.rs`): members by global ID on a 2-D mesh or torus
/// with one host per switch, one of the host-adapter schemes, whole worms in one packet; and the
/// adapter protocol's ranges.
fn group_fits(s: &Scenario, nodes: u32) -> Result<(), Error> {
    let (net, wl, ad) = (&s.network, &s.workload, &s.adapter);
    sizes_fit(wl.message_flits, wl.message_flits_max, "workload.message_flits_max")?;
    check(
        (1..=1_000_000).contains(&wl.background_flits),
        "workload.background_flits",
        wl.background_flits,
        "an integer from 1 to 1000000",
    )?;
    sizes_fit(wl.background_flits, Some(wl.background_flits_max), "workload.background_flits_max")?;
    check(
        wl.background_load.is_finite() && (0.0..=1.0).contains(&wl.background_load),
        "workload.background_load",
        wl.background_load,
        "a number in [0, 1] (flits per node per cycle)",
    )?;
    check(
        (1..=1024).contains(&ad.reception_worms),
        "adapter.reception_worms",
        ad.reception_worms,
        "an integer from 1 to 1024",
    )?;
    check((1..=2).contains(&ad.buffer_classes), "adapter.buffer_classes", ad.buffer_classes, "1 or 2")?;
    check(
        (1..=4096).contains(&ad.control_flits),
        "adapter.control_flits",
        ad.control_flits,
        "an integer from 1 to 4096",
    )?;
    check(
        (1..=1_000_000_000).contains(&ad.timeout_cycles),
        "adapter.timeout_cycles",
        ad.timeout_cycles,
        "an integer from 1 to 1e9",
    )?;
    torus_group_fits(s, nodes)?;
    let adapter_scheme = wl.multicast_scheme.host_adapter();
    if wl.multicast_group.is_empty() {
        check(
            !adapter_scheme,
            "workload.multicast_scheme",
            format!("{:?}", wl.multicast_scheme).to_lowercase(),
            "software, hardware or separate without a workload.multicast_group (ring, bus, tree_wrap_around and \
             tree_up_down are schemes of a fixed group's host adapters)",
        )?;
        return check(
            wl.background_load == 0.0,
            "workload.background_load",
            wl.background_load,
            "0 without a workload.multicast_group (background unicasts accompany a fixed group's multicasts)",
        );
    }
    check(
        matches!(net.topology, TopologyKind::Torus | TopologyKind::Mesh)
            && net.n == 2
            && !net.unidirectional
            && net.terminals_per_router == 1,
        "network.topology",
        format!("{:?}", net.topology).to_lowercase(),
        "a bidirectional 2-D torus or mesh with one host per switch for a workload.multicast_group (the hosts' \
         global order is a Hamiltonian path of its grid)",
    )?;
    let mut ids = wl.multicast_group.clone();
    ids.sort_unstable();
    ids.dedup();
    check(
        ids.len() == wl.multicast_group.len()
            && ids.len() >= 2
            && ids.len() <= crate::host::programs::host_adapter::MAX_MEMBERS
            && ids.iter().all(|&g| g < nodes),
        "workload.multicast_group",
        format!("{:?}", wl.multicast_group),
        &format!(
            "2 to {} distinct global host IDs from 0 to {} (every source's tree costs the cube of the group)",
            crate::host::programs::host_adapter::MAX_MEMBERS,
            nodes - 1
        ),
    )?;
    check(
        wl.multicast_scheme == MulticastScheme::Separate || adapter_scheme,
        "workload.multicast_scheme",
        format!("{:?}", wl.multicast_scheme).to_lowercase(),
        "separate, ring, bus, tree_wrap_around or tree_up_down with a workload.multicast_group",
    )?;
    check(
        wl.multicast_destinations == 0 && wl.batch_sources == 0.0,
        "workload.multicast_destinations",
        wl.multicast_destinations,
        "0 with a workload.multicast_group (and no closed batch): the group gives the destinations",
    )?;
    let largest = [
        wl.message_flits_max.unwrap_or(wl.message_flits),
        if wl.background_load > 0.0 { wl.background_flits_max } else { 0 },
        ad.control_flits,
    ]
    .into_iter()
    .max()
    .unwrap_or(1);
    check(
        wl.packet_flits >= largest,
        "workload.packet_flits",
        wl.packet_flits,
        &format!("at least {largest} with a workload.multicast_group: every worm is one packet (the largest message)"),
    )
}

/// One software multicast on a unidirectional torus (study 004, `host/programs/torus_multicast.rs`).
fn torus_group_fits(s: &Scenario, nodes: u32) -> Result<(), Error> {
    let (net, wl, ad) = (&s.network, &s.workload, &s.adapter);
    for (key, v) in [
        ("adapter.send_overhead_cycles", ad.send_overhead_cycles),
        ("adapter.receive_overhead_cycles", ad.receive_overhead_cycles),
        ("adapter.process_cycles", ad.process_cycles),
    ] {
        check(v <= 1_000_000_000_000, key, v, "an integer from 0 to 1e12")?;
    }
    if wl.multicast_group_size == 0 {
        return check(
            !wl.multicast_scheme.torus_software(),
            "workload.multicast_scheme",
            format!("{:?}", wl.multicast_scheme).to_lowercase(),
            "software, hardware or separate without a workload.multicast_group_size (u_torus, s_torus, md_torus \
             and mu_torus multicast one group on a unidirectional torus)",
        );
    }
    check(
        net.topology == TopologyKind::Torus && net.unidirectional && net.n == 2 && net.terminals_per_router == 1,
        "network.topology",
        format!("{:?}", net.topology).to_lowercase(),
        "a unidirectional 2-D torus (network.unidirectional = true, n = 2) for a workload.multicast_group_size",
    )?;
    check(
        (2..=nodes).contains(&wl.multicast_group_size),
        "workload.multicast_group_size",
        wl.multicast_group_size,
        &format!("an integer from 2 to {nodes} (the root and its destinations), or 0"),
    )?;
    check(
        wl.multicast_root < nodes,
        "workload.multicast_root",
        wl.multicast_root,
        &format!("a node id below {nodes}"),
    )?;
    check(
        (2..=nodes).contains(&wl.multicast_partition),
        "workload.multicast_partition",
        wl.multicast_partition,
        &format!("an integer from 2 to {nodes}"),
    )?;
    check(
        wl.multicast_scheme == MulticastScheme::Separate || wl.multicast_scheme.torus_software(),
        "workload.multicast_scheme",
        format!("{:?}", wl.multicast_scheme).to_lowercase(),
        "separate, u_torus, s_torus, md_torus or mu_torus with a workload.multicast_group_size",
    )?;
    check(
        wl.multicast_destinations == 0 && wl.batch_sources == 0.0 && wl.multicast_group.is_empty(),
        "workload.multicast_group_size",
        wl.multicast_group_size,
        "0 with workload.multicast_destinations, workload.batch_sources or workload.multicast_group (one kind of \
         multicast workload per run)",
    )?;
    check(
        s.run.warmup_cycles == 0,
        "run.warmup_cycles",
        s.run.warmup_cycles,
        "0 with a workload.multicast_group_size (the multicast starts at cycle 0 and must be measured)",
    )
}
