//! The scenario: plain data describing one simulation point (see docs/core-interface.md).
//!
//! The Python front validates first and fills in defaults; [`Scenario::validate`] (`validate.rs`) is the core's own
//! last line of defence, so a scenario that reaches the engine is always buildable.

use serde::{Deserialize, Serialize};

use crate::error::Error;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub network: Network,
    pub switch: Switch,
    pub routing: Routing,
    pub workload: Workload,
    pub run: Run,
    /// The host adapters' multicast protocol (study 001); defaults when absent.
    #[serde(default)]
    pub adapter: Adapter,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TopologyKind {
    Mesh,
    Torus,
    Ring,
    /// k-ary n-tree (k = half the switch radix, n = levels).
    FatTree,
    /// The 16-node SP board (study 002 Fig. 2).
    Sp16,
    /// The 128-node SP network (study 002 Fig. 3).
    Sp128,
}

/// How the SP networks number their nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum NodeNumbering {
    /// The SP numbering of study 002 Fig. 2 ("an artifact of the wiring layout").
    #[default]
    Sp,
    /// Node chip i holds nodes 4i … 4i+3.
    Plain,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    pub topology: TopologyKind,
    pub k: u32,
    pub n: u32,
    pub unidirectional: bool,
    pub channel_latency_cycles: u32,
    pub terminals_per_router: u32,
    /// Node numbering of the SP networks (ignored elsewhere).
    #[serde(default)]
    pub node_numbering: NodeNumbering,
    /// Latency of the channels between hosts and their switches; None: `channel_latency_cycles`.
    #[serde(default)]
    pub terminal_latency_cycles: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchModel {
    InputBuffered,
    /// The SP buffered-wormhole switch with a shared central buffer (study 000 §4.1, 002 §2).
    CentralBuffer,
    /// The SP switch with one large FIFO per input instead of a central buffer (study 000 §5).
    InputFifo,
    /// The InfiniBand switch: virtual cut-through per virtual lane, replication by forwarding table
    /// (study 003).
    Infiniband,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlowControl {
    /// A head may advance when the downstream VC is free and has one free flit slot.
    Wormhole,
    /// A head may advance only when the downstream VC can take the whole packet.
    Vct,
    /// Slack buffers with stop/go back-pressure (`stop_go.rs`; study 001).
    StopGo,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Switch {
    pub model: SwitchModel,
    pub flow_control: FlowControl,
    pub vcs: u32,
    pub buffer_flits: u32,
    pub router_delay_cycles: u32,
    /// Central buffer: cycles from a head's arrival to its output request (FIFO read, route, request,
    /// grant).
    #[serde(default = "default_route_cycles")]
    pub route_cycles: u32,
    /// Central buffer and input FIFO: flits per chunk.
    #[serde(default = "default_chunk_flits")]
    pub chunk_flits: u32,
    /// Central buffer: capacity in chunks.
    #[serde(default = "default_central_buffer_chunks")]
    pub central_buffer_chunks: u32,
    /// Central buffer: when a replicating multicast's header may enter (study 000 §4.2.2).
    #[serde(default)]
    pub multicast_admission: MulticastAdmission,
    /// Stop/go: a receiving buffer holding this many flits stops its sender, and this many lets it go
    /// again (defaults: the buffer less the round trip of a channel, and that less one channel latency).
    #[serde(default)]
    pub stop_flits: Option<u32>,
    #[serde(default)]
    pub go_flits: Option<u32>,
    /// Input-buffered router on a mesh or torus: cycles a head waits, on top of the router delay, at a
    /// router where it turns from one dimension to another (study 004's switching delay L_s).
    #[serde(default)]
    pub turn_cycles: u32,
}

/// When the central-buffer switch lets a multicast that replicates into its buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MulticastAdmission {
    /// Only once the buffer can take the whole packet, its chunks reserved (the VCT-emulation rule).
    #[default]
    Reserve,
    /// At once, without reservation: deliberately broken, it deadlocks under load (a watchdog test).
    Unreserved,
}

fn default_route_cycles() -> u32 {
    4
}
fn default_chunk_flits() -> u32 {
    8
}
fn default_central_buffer_chunks() -> u32 {
    256
}

impl Switch {
    /// Cycles from a flit's arrival at a router until it may leave its input FIFO.
    pub fn input_delay(&self) -> u32 {
        match self.model {
            SwitchModel::InputBuffered | SwitchModel::Infiniband => self.router_delay_cycles,
            SwitchModel::CentralBuffer | SwitchModel::InputFifo => self.route_cycles,
        }
    }
    /// Cycles from a flit leaving the input FIFO until it is on the output channel.
    pub fn output_delay(&self) -> u32 {
        self.router_delay_cycles - self.input_delay()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoutingAlgorithm {
    Dor,
    /// Adaptive source routing with every permissible up port allowed (study 002 §4.2).
    Adaptive,
    /// One oblivious source route per source-destination pair (study 002 §3).
    O1,
    /// Four oblivious routes per pair, used round robin by each source (study 002 §3).
    O4,
}

/// Output selection among the granted candidates (study 002 §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SelectionKind {
    #[default]
    FirstFree,
    Lru,
    Mru,
    Rnd,
    Rr,
    Lruc,
    Lrud,
}

/// How the O1 / O4 route tables are chosen (study 002 §3 gives none; see routing/source_route.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ObliviousTable {
    /// Static load balancing: routes chosen pair by pair to keep the busiest link as light as possible.
    #[default]
    Balanced,
    /// d-mod-k: the destination's position digits pick the up ports.
    DModK,
    /// s-mod-k: the source's position digits pick the up ports.
    SModK,
}

/// Which up stages the four O4 routes of a pair differ in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum O4Spread {
    #[default]
    FirstStage,
    EveryStage,
}

/// Which hops update a history-keeping selection function (study 002 §4.3 leaves it open).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SelectionHistory {
    /// Every hop, forced ones included: RRID holds "the most recently used output port used by a
    /// message entering from the input port", whatever the message's route offered.
    #[default]
    EveryHop,
    /// Only hops where the routing offered more than one port (adaptive choices).
    AdaptiveHops,
}

/// Which way a torus packet goes at distance exactly k/2 (k even), where both ways are minimal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TorusTies {
    /// Either way with probability 1/2, per packet: both directions of a ring carry equal load.
    #[default]
    Balanced,
    /// Always the positive way (flitcast's rule before balanced ties).
    Positive,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Routing {
    pub algorithm: RoutingAlgorithm,
    pub check_deadlock_free: bool,
    #[serde(default)]
    pub selection: SelectionKind,
    #[serde(default)]
    pub oblivious_table: ObliviousTable,
    #[serde(default)]
    pub o4_spread: O4Spread,
    #[serde(default)]
    pub selection_history: SelectionHistory,
    #[serde(default)]
    pub torus_ties: TorusTies,
    /// Which virtual lanes a packet may take on each output (study 003 Fig. 8).
    #[serde(default)]
    pub lanes: LaneMap,
}

/// How dimension-order routing on a 2-D mesh uses the virtual channels (lanes) of an output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LaneMap {
    /// Any lane of any output ("NESW: VL0, VL1[, VL2, VL3]", the SL-to-VL mapping configurations).
    #[default]
    Any,
    /// One lane per output direction ("NE: VL0; SW: VL1" with 2 lanes; "N: VL0; E: VL1; S: VL2; W: VL3"
    /// with 4); packets are injected on lane 0.
    ByPort,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PatternKind {
    Uniform,
    BitReversal,
    BitComplement,
    Transpose,
    Shuffle,
    Tornado,
    Neighbor,
    Hotspot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrivalKind {
    Poisson,
    Bernoulli,
}

/// How matrix transpose splits an odd number of id bits (study 002 defines it for even n only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TransposeSplit {
    /// The upper ⌈b/2⌉ bits become the lower ones (our reading: docs/models/workload.md).
    #[default]
    Ceil,
    /// The upper ⌊b/2⌋ bits become the lower ones.
    Floor,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    pub pattern: PatternKind,
    /// Offered load, flits per node per cycle.
    pub load: f64,
    pub packet_flits: u32,
    pub message_flits: u32,
    pub arrival: ArrivalKind,
    pub uniform_include_self: bool,
    pub hotspot_nodes: Vec<u32>,
    pub hotspot_fraction: f64,
    #[serde(default)]
    pub transpose_split: TransposeSplit,
    /// Destinations of each operation: 0 sends unicast traffic by `pattern`; m ≥ 1 sends m-way
    /// multicasts, m distinct destinations drawn uniformly among the other nodes (study 000 §7.1),
    /// `load` being the effective applied load m·B_i (§7.2).
    #[serde(default)]
    pub multicast_destinations: u32,
    #[serde(default)]
    pub multicast_scheme: MulticastScheme,
    /// Cycles a host spends between receiving a software multicast and forwarding it (§7.2: zero).
    #[serde(default)]
    pub multicast_forward_cycles: u64,
    /// Share of the received load carried by multicasts; the rest is unicasts to uniform
    /// destinations (bimodal traffic, study 000 §7.6: 0.2). 1: every operation is a multicast.
    #[serde(default = "one")]
    pub multicast_fraction: f64,
    /// Header flits a multidestination worm adds for its N-bit destination string; None: ⌈N/16⌉
    /// (2-byte flits, study 000 §7.1).
    #[serde(default)]
    pub multicast_header_flits: Option<u32>,
    /// A closed batch (study 003 §4): this share of the nodes (at least one) each send one message to
    /// the group at cycle 0, and the run ends when every member has it; 0: open-loop traffic.
    #[serde(default)]
    pub batch_sources: f64,
    /// The batch's group: this share of the nodes (at least one).
    #[serde(default = "forty_percent")]
    pub batch_group: f64,
    /// A fixed multicast group by global host ID (study 001: the Hamiltonian ordering of
    /// `multicast/rooted_tree.rs`); every member originates multicasts to the others at `load` flits per
    /// cycle. Empty: no fixed group.
    #[serde(default)]
    pub multicast_group: Vec<u32>,
    /// Message sizes: None, every message has `message_flits`; Some(max), truncated geometric on
    /// 1 ..= max with mean `message_flits` (study 001 §5; `workload/sizes.rs`).
    #[serde(default)]
    pub message_flits_max: Option<u32>,
    /// Background unicast traffic beside a fixed group's multicasts: Poisson, uniform destinations,
    /// flits per node per cycle (study 001 §5: 0.1); 0: none.
    #[serde(default)]
    pub background_load: f64,
    /// Background unicast sizes: mean, and the truncated geometric's maximum (study 001: 400, 4000).
    #[serde(default = "background_mean")]
    pub background_flits: u32,
    #[serde(default = "background_max")]
    pub background_flits_max: u32,
    /// One software multicast on a unidirectional torus (study 004): the group's size G, the root and
    /// the next G − 1 nodes of its dimension-ordered chain; 0: none.
    #[serde(default)]
    pub multicast_group_size: u32,
    #[serde(default)]
    pub multicast_root: u32,
    /// Mu-torus partition length r.
    #[serde(default = "default_partition")]
    pub multicast_partition: u32,
}

/// Mu-torus's partition length unless one is given (study 004's 4×4 runs).
pub(crate) fn default_partition() -> u32 {
    4
}

fn background_mean() -> u32 {
    400
}

fn background_max() -> u32 {
    4000
}

/// The host adapters' reliable forwarding protocol (study 001 §3; `host/programs/host_adapter.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Adapter {
    /// K: worms each buffer class of a reception FIFO holds (study 001: 4; Fig. 5: 1).
    pub reception_worms: u32,
    /// 2: lower class before the ID-order reversal, upper after (deadlock-free); 1: one class (it
    /// deadlocks: the demonstration of §3).
    pub buffer_classes: u32,
    /// Size of an ACK, NACK or READY control worm.
    pub control_flits: u32,
    /// A NACKed sender retransmits after this long unless READY comes first.
    pub timeout_cycles: u64,
    /// Largest number of children a rooted-tree host may have (0: unbounded; §4.3).
    pub max_children: u32,
    /// Host software of study 004's programs: sender and receiver overheads o, and processing time
    /// t_process per relayed (or, with separate addressing, sent) message.
    pub send_overhead_cycles: u64,
    pub receive_overhead_cycles: u64,
    pub process_cycles: u64,
}

impl Default for Adapter {
    fn default() -> Self {
        Adapter {
            reception_worms: 4,
            buffer_classes: 2,
            control_flits: 8,
            timeout_cycles: 1000,
            max_children: 0,
            send_overhead_cycles: 0,
            receive_overhead_cycles: 0,
            process_cycles: 0,
        }
    }
}

fn forty_percent() -> f64 {
    0.4
}

fn one() -> f64 {
    1.0
}

impl Workload {
    /// Multicasts (open-loop, or a closed batch's) are sent as multidestination packets.
    pub fn hardware_multicast(&self) -> bool {
        (self.multicast_destinations > 0 || self.batch_sources > 0.0)
            && self.multicast_scheme == MulticastScheme::Hardware
    }

    /// Central-buffer chunks the largest replicating worm needs on a network of `nodes` nodes with
    /// `down` down ports per switch: its packet and header flits in `chunk_flits`-flit chunks, and a
    /// header-chunk copy per further output (study 000 §4.2).
    pub fn replication_chunks(&self, nodes: u32, down: u32, chunk_flits: u32) -> u32 {
        let worm = self.packet_flits.min(self.message_flits) + self.header_flits(nodes);
        worm.div_ceil(chunk_flits) + down - 1
    }

    /// Header flits of a multidestination worm on a network of `nodes` nodes.
    pub fn header_flits(&self, nodes: u32) -> u32 {
        self.multicast_header_flits.unwrap_or(nodes.div_ceil(16))
    }
}

/// How a multicast is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MulticastScheme {
    /// Unicasts along the binomial U-Min tree (`host/programs/software_multicast.rs`).
    #[default]
    Software,
    /// Multidestination worms replicated by the switches (`host/programs/hardware_multicast.rs`).
    Hardware,
    /// One unicast from the source to each destination, back to back (separate addressing: the
    /// "unicast scheme" of study 003; the "multiple unicasts" of study 001 §4.1).
    Separate,
    /// Study 001 §4.2, ring-like linear path: one worm visits the group in increasing global ID,
    /// wrapping once from the highest to the lowest.
    Ring,
    /// Study 001 §4.2, bus-like linear path: one worm up the IDs, one down.
    Bus,
    /// Study 001 §4.4, the wrap-around rooted tree of the OMT heuristic.
    TreeWrapAround,
    /// Study 001 §4.4, the up/down rooted tree of the OMT heuristic.
    TreeUpDown,
    /// Study 004 §3 on a unidirectional torus (`multicast/torus.rs`): the binomial U-torus, the
    /// S-torus chain, and the Md-torus and Mu-torus partitions.
    UTorus,
    STorus,
    MdTorus,
    MuTorus,
}

impl MulticastScheme {
    /// The schemes of study 001's host adapters (with a fixed group).
    pub fn host_adapter(self) -> bool {
        matches!(self, Self::Ring | Self::Bus | Self::TreeWrapAround | Self::TreeUpDown)
    }

    /// The schemes of study 004's software multicast on unidirectional tori.
    pub fn torus_software(self) -> bool {
        matches!(self, Self::UTorus | Self::STorus | Self::MdTorus | Self::MuTorus)
    }
}

/// Whether a run past saturation may end before its window does (`stats/early_stop.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SaturationStop {
    /// Stop once the source backlog's growth shows saturation (the documented test).
    #[default]
    Backlog,
    /// Always run the whole window and the drain.
    Off,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    pub warmup_cycles: u64,
    pub measure_cycles: u64,
    pub drain_max_cycles: u64,
    pub seed: u64,
    pub watchdog_cycles: u64,
    pub batches: u32,
    pub max_nodes: u64,
    #[serde(default)]
    pub saturation_stop: SaturationStop,
    /// Memory budget in MB; 0: half the machine's memory (`memory.rs`).
    #[serde(default)]
    pub memory_limit_mb: u64,
}

impl Default for Scenario {
    /// The defaults the Python config uses: an 8x8 mesh, DOR, wormhole, 2 VCs x 8 flits.
    fn default() -> Self {
        Scenario {
            network: Network {
                topology: TopologyKind::Mesh,
                k: 8,
                n: 2,
                unidirectional: false,
                channel_latency_cycles: 1,
                terminals_per_router: 1,
                node_numbering: NodeNumbering::Sp,
                terminal_latency_cycles: None,
            },
            switch: Switch {
                model: SwitchModel::InputBuffered,
                flow_control: FlowControl::Wormhole,
                vcs: 2,
                buffer_flits: 8,
                router_delay_cycles: 1,
                route_cycles: 4,
                chunk_flits: 8,
                central_buffer_chunks: 256,
                multicast_admission: MulticastAdmission::Reserve,
                stop_flits: None,
                go_flits: None,
                turn_cycles: 0,
            },
            routing: Routing {
                algorithm: RoutingAlgorithm::Dor,
                check_deadlock_free: true,
                selection: SelectionKind::FirstFree,
                oblivious_table: ObliviousTable::Balanced,
                o4_spread: O4Spread::FirstStage,
                selection_history: SelectionHistory::EveryHop,
                torus_ties: TorusTies::Balanced,
                lanes: LaneMap::Any,
            },
            workload: Workload {
                pattern: PatternKind::Uniform,
                load: 0.1,
                packet_flits: 8,
                message_flits: 8,
                arrival: ArrivalKind::Poisson,
                uniform_include_self: false,
                hotspot_nodes: vec![],
                hotspot_fraction: 0.0,
                transpose_split: TransposeSplit::Ceil,
                multicast_destinations: 0,
                multicast_scheme: MulticastScheme::Software,
                multicast_forward_cycles: 0,
                multicast_fraction: 1.0,
                multicast_header_flits: None,
                batch_sources: 0.0,
                batch_group: 0.4,
                multicast_group: vec![],
                message_flits_max: None,
                background_load: 0.0,
                background_flits: 400,
                background_flits_max: 4000,
                multicast_group_size: 0,
                multicast_root: 0,
                multicast_partition: default_partition(),
            },
            run: Run {
                warmup_cycles: 10_000,
                measure_cycles: 100_000,
                drain_max_cycles: 100_000,
                seed: 1,
                watchdog_cycles: 10_000,
                batches: 10,
                max_nodes: 65_536,
                saturation_stop: SaturationStop::Backlog,
                memory_limit_mb: 0,
            },
            adapter: Adapter::default(),
        }
    }
}

impl Scenario {
    /// Stop/go thresholds (stop, go): by default the buffer less the flits a sender can still put on
    /// the wire before STOP reaches it — one forward and one backward channel traversal, 2·L + D − 1 —
    /// and that less one channel latency (`stop_go.rs`).
    pub fn stop_go_thresholds(&self) -> (u32, u32) {
        let sw = &self.switch;
        let slack = 2 * self.network.channel_latency_cycles + sw.router_delay_cycles - 1;
        let stop = sw.stop_flits.unwrap_or(sw.buffer_flits.saturating_sub(slack));
        (stop, sw.go_flits.unwrap_or(stop.saturating_sub(self.network.channel_latency_cycles)))
    }

    pub fn from_json(text: &str) -> Result<Scenario, Error> {
        let s: Scenario = serde_json::from_str(text)
            .map_err(|e| Error::config("scenario", "(json)", format!("a valid scenario document ({e})")))?;
        s.validate()?;
        Ok(s)
    }

    /// Header flits a multidestination packet carries beyond its message: a bit string of the
    /// destinations on the SP switches (`Workload::header_flits`); on the InfiniBand switch none, the
    /// multicast LID taking a unicast's DLID's place (study 003 §2) — unless set.
    pub fn worm_header_flits(&self, nodes: u32) -> u32 {
        match (self.switch.model, self.workload.multicast_header_flits) {
            (_, Some(h)) => h,
            (SwitchModel::Infiniband, None) => 0,
            _ => self.workload.header_flits(nodes),
        }
    }

    /// Number of terminal nodes, or None if it overflows.
    pub fn nodes(&self) -> Option<u64> {
        let net = &self.network;
        let n = match net.topology {
            TopologyKind::Sp16 => return Some(16),
            TopologyKind::Sp128 => return Some(128),
            TopologyKind::Ring => 1,
            _ => net.n,
        };
        (net.k as u64).checked_pow(n)?.checked_mul(net.terminals_per_router as u64)
    }
}
