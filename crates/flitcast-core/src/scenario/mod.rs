//! The scenario: one simulation point, five tables of keys (docs/config.md; docs/core-interface.md).
//!
//! Every key is declared once, beside its field: the tables' own keys in `sections.rs`, each kind's in
//! its component's file. This module reads a scenario from JSON (every problem as data: the key, the
//! value and what is allowed), applies the rules that relate keys of different tables (`rules.rs`), says
//! which keys set here have no effect (`conditional.rs`), and writes the scenario back resolved or
//! minimal. [`schema`] is the catalogue of every key and rule.

mod conditional;
mod moved;
mod read;
mod rules;
mod sections;

use serde_json::{json, Map, Value as Json};

pub use read::{schema, Checked, Schema};
pub use sections::{Network, Routing, Run, SaturationStop, Switch, Workload};

use crate::error::Error;
use crate::params::Section;
use crate::routing::Routing as Router;
use crate::switch::{FlowControl, Site, SwitchKind};
use crate::topology::Topology;
use crate::workload::Shape;

/// The tables of a scenario, in the order of a scenario file.
pub const SECTIONS: [&str; 5] = ["network", "switch", "routing", "workload", "run"];

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scenario {
    pub network: Network,
    pub switch: Switch,
    pub routing: Routing,
    pub workload: Workload,
    pub run: Run,
}

impl Scenario {
    /// The network of this scenario.
    pub fn topology(&self) -> Result<Topology, Error> {
        let net = &self.network;
        Topology::build(&net.topology, net.channel_latency_cycles, net.terminal_latency_cycles)
    }

    /// The routing of this scenario on `topo` (multidestination routing added where the program sends
    /// multidestination worms).
    pub fn routing(&self, topo: &Topology) -> Result<Router, Error> {
        let routing = Router::build(&self.routing.algorithm, self.switch.model.vcs() as u8, topo)?;
        if self.workload.program.multidestination() {
            routing.with_multicast(topo)
        } else {
            Ok(routing)
        }
    }

    /// What router `router` of this scenario is built from on `topo` with `routing` (router 0; the
    /// others by `Site { router, ..site }`).
    pub fn switch_site<'a>(&self, topo: &'a Topology, routing: &'a Router) -> Site<'a> {
        let algorithm = &self.routing.algorithm;
        Site {
            router: 0,
            topo,
            routing,
            selection: algorithm.selection(),
            history: algorithm.selection_history(),
            seed: self.run.seed,
            largest_worm: routing.multicast().and(self.largest_worm()),
            node_switches: topo.node_switches().len(),
        }
    }

    /// What the hosts' program of this scenario is built for on `topo`.
    pub fn program_site<'a>(&self, topo: &'a Topology) -> crate::host::program::Site<'a> {
        let (net, sw) = (&self.network, &self.switch.model);
        crate::host::program::Site {
            topo,
            shape: Shape {
                nodes: topo.terminals() as u32,
                digits: net.topology.digits(),
                groups: net.topology.groups(),
            },
            wraps: net.topology.wraps(),
            hop_cycles: net.channel_latency_cycles + sw.router_delay_cycles(),
            router_delay_cycles: sw.router_delay_cycles(),
            seed: self.run.seed,
            message_flits: self.message_flits(),
            packet_flits: self.packet_flits(),
            header_flits: self.header_flits(),
            unicast_header_flits: self.unicast_header_flits(),
        }
    }

    /// The scenario as a document: every key (`minimal`: only those that differ from their defaults).
    pub fn to_json(&self, minimal: bool) -> Json {
        let mut doc = Map::new();
        let mut table = |name: &str, write: &dyn Fn(&mut Map<String, Json>)| {
            let mut t = Map::new();
            write(&mut t);
            if !minimal || !t.is_empty() {
                doc.insert(name.to_string(), Json::Object(t));
            }
        };
        table("network", &|t| self.network.write(t, minimal));
        table("switch", &|t| self.switch.write(t, minimal));
        table("routing", &|t| self.routing.write(t, minimal));
        table("workload", &|t| self.workload.write(t, minimal));
        table("run", &|t| self.run.write(t, minimal));
        Json::Object(doc)
    }

    /// Values derived from other keys where left out, under their dotted keys: the node count, the
    /// sizes in flits, a multidestination worm's header, stop/go thresholds, the host links' latency.
    pub fn derived(&self) -> Json {
        let mut d = Map::new();
        d.insert("nodes".into(), json!(self.nodes()));
        d.insert("workload.packet_flits".into(), json!(self.packet_flits()));
        d.insert("workload.message_flits".into(), json!(self.message_flits()));
        if self.workload.program.multidestination() {
            d.insert("workload.header_flits".into(), json!(self.header_flits()));
        }
        if self.switch.model.flow_control() == FlowControl::StopGo {
            let (stop, go) = self.stop_go_thresholds();
            d.insert("switch.stop_flits".into(), json!(stop));
            d.insert("switch.go_flits".into(), json!(go));
        }
        let net = &self.network;
        d.insert(
            "network.terminal_latency_cycles".into(),
            json!(net.terminal_latency_cycles.unwrap_or(net.channel_latency_cycles)),
        );
        Json::Object(d)
    }

    /// Number of terminal nodes, or None if it overflows.
    pub fn nodes(&self) -> Option<u64> {
        self.network.topology.nodes()
    }

    /// Flits of a packet at most: `workload.packet_flits`, or from the byte sizes.
    pub fn packet_flits(&self) -> u32 {
        let wl = &self.workload;
        match (wl.message_bytes, wl.flit_bytes, wl.max_packet_bytes) {
            (Some(_), Some(flit), Some(packet)) if flit > 0 => packet / flit,
            _ => wl.packet_flits,
        }
    }

    /// Flits of a message: `workload.message_flits` (a packet's when left out), or from the byte sizes.
    pub fn message_flits(&self) -> u32 {
        let wl = &self.workload;
        match (wl.message_bytes, wl.flit_bytes) {
            (Some(message), Some(flit)) if flit > 0 => message.div_ceil(flit),
            _ => wl.message_flits.unwrap_or(wl.packet_flits),
        }
    }

    /// Header flits a multidestination worm carries: its N-bit destination string as the program sets
    /// it, else in flits of `workload.flit_bytes` (2 bytes when sizes are in flits; study 000 §3.2, §7.1)
    /// on the SP switches and none on the InfiniBand switch (the multicast LID takes the DLID's place,
    /// study 003 §2); and the program's multicast header bytes in whole flits.
    pub fn header_flits(&self) -> u32 {
        let string = match self.workload.program.header_flits() {
            Some(h) => h,
            None if matches!(self.switch.model, SwitchKind::Infiniband(_)) => 0,
            None => {
                let bits_per_flit = 8 * self.workload.flit_bytes.unwrap_or(2) as u64;
                self.nodes().unwrap_or(0).div_ceil(bits_per_flit) as u32
            }
        };
        string + self.in_flits(self.workload.program.header_bytes().1)
    }

    /// Header flits a unicast packet carries: the program's unicast header bytes in whole flits.
    pub fn unicast_header_flits(&self) -> u32 {
        self.in_flits(self.workload.program.header_bytes().0)
    }

    /// `bytes` in whole flits of `workload.flit_bytes` (none without it: a rule refuses header bytes
    /// with the sizes in flits).
    fn in_flits(&self, bytes: u32) -> u32 {
        self.workload.flit_bytes.map_or(0, |flit| bytes.div_ceil(flit.max(1)))
    }

    /// The largest multidestination worm (packet and header), where the program sends them.
    pub fn largest_worm(&self) -> Option<u32> {
        self.workload
            .program
            .multidestination()
            .then(|| self.packet_flits().min(self.message_flits()) + self.header_flits())
    }

    /// Stop/go thresholds (stop, go): by default the buffer less the flits a sender can still put on
    /// the wire before STOP reaches it — one forward and one backward channel traversal, 2·L + D − 1 —
    /// and that less one channel latency (`stop_go.rs`), L the longest channel's (every buffer can then
    /// take what its channel still brings).
    pub fn stop_go_thresholds(&self) -> (u32, u32) {
        let SwitchKind::InputBuffered(sw) = &self.switch.model else { return (0, 0) };
        sw.stop_go_thresholds(self.longest_channel().0)
    }

    /// The longest router-to-router channel in cycles, and the key that makes it longer than
    /// `network.channel_latency_cycles` (a class's own latency, a network file's link).
    pub fn longest_channel(&self) -> (u32, Option<&'static str>) {
        self.network.topology.longest_channel(self.network.channel_latency_cycles)
    }

    /// Whether the program is closed (a fixed set of operations, measured until all complete).
    pub fn closed(&self) -> bool {
        self.workload.program.closed()
    }
}
