//! What every switch model is given and does (the vocabulary of `switch/`; the registry of models is
//! `mod.rs`). A router receives flits and credits from the timing wheel, and each cycle it is active it
//! decides what moves and sends flits and credits back into the wheel through a [`StepCtx`]. It reads
//! only its own state, so visit order cannot leak into results.

use crate::credits::Lanes;
use crate::dest_set::DestSets;
use crate::error::BlockedChannel;
use crate::facts::Facts;
use crate::packet::{Flit, Packet, Slab};
use crate::params::{choice, Kind, Problem};
use crate::queue_view::QueueView;
use crate::routing::Routing;
use crate::selection::{
    Request as SelectionRequest, Selection, SelectionHistory, SelectionKind, Site as SelectionSite,
};
use crate::time::Cycle;
use crate::topology::{PortLink, Topology};
use crate::wheel::{Arrival, Wheel, TO_TERMINAL};

choice! {
    /// How a router's buffers hold back their senders.
    pub enum FlowControl {
        /// A head advances when the downstream VC is free and has one free flit slot.
        Wormhole = "wormhole",
        /// Virtual cut-through: a head advances only when the downstream VC can take the whole packet.
        Vct = "vct",
        /// Slack buffers with stop/go back-pressure (study 001): senders stop and go as receivers fill
        /// and drain (`stop_go.rs`).
        StopGo = "stop_go",
    }
}

/// A switch microarchitecture, one per file (`switch/mod.rs` registers them): its parameters, how it
/// is built, and what a router of its kind does each cycle.
pub trait Model: Kind + Sized {
    /// Router `site.router`, of this model with parameters `p`.
    fn new(p: &Self::Params, site: &Site) -> Self;

    /// How this model's buffers hold back their senders.
    fn flow_control(p: &Self::Params) -> FlowControl;

    /// Virtual channels per channel.
    fn vcs(_: &Self::Params) -> u32 {
        1
    }

    /// Flits a downstream buffer of one virtual channel holds (a sender's initial credits).
    fn buffer_flits(p: &Self::Params) -> u32;

    /// Cycles from a head's arrival to its departure on the output channel at zero load.
    fn router_delay_cycles(p: &Self::Params) -> u32;

    /// Cycles from a flit's arrival at a router until it may leave its input FIFO (the rest of the
    /// pipeline is the output stage).
    fn input_delay(p: &Self::Params) -> u32 {
        Self::router_delay_cycles(p)
    }

    /// Bytes all routers of `topo` need: (flit buffers, everything else).
    fn bytes(p: &Self::Params, topo: &Topology) -> (u64, u64);

    /// The switch keys that drive those bytes (beside the network's size: `Builder::sized_by`).
    fn sized_by(_: &Self::Params) -> &'static str {
        "switch.buffer_flits"
    }

    /// The networks on which it replicates multidestination worms (none: it does not).
    fn replicates_on(_: &Self::Params) -> &'static [&'static str] {
        &[]
    }

    /// What it needs of the rest of the scenario, as docs/config.md states it ("" if nothing): the
    /// conditions `unfit` checks.
    fn needs(_: &Self::Params) -> &'static str {
        ""
    }

    /// The problems of running it where `facts` hold (none where its `needs` hold).
    fn unfit(_: &Self::Params, _: &Facts) -> Vec<Problem> {
        Vec::new()
    }

    /// One cycle of the router `me`. It reads its own state and what `ctx` shares read-only, and
    /// writes only its own state, its output lanes' credits, the flits and credits it sends and the
    /// move counters: routers of other regions step at the same time (docs/engine.md, "Regions").
    fn step(&mut self, me: u32, ctx: &mut StepCtx);

    /// A flit arrives on (`port`, `vc`), its copy having made `hops` hops; false if the buffer
    /// overflowed (a flow-control bug). Flits arriving on different ports in one cycle may come in any
    /// order (a region takes them from every region's wheel), and the router's state after them must
    /// not depend on it; one port's flits come in the order they were sent.
    fn accept_flit(&mut self, port: u8, vc: u8, flit: Flit, hops: u16, now: Cycle) -> bool;

    /// Flits held in this router's buffers.
    fn flits(&self) -> u32;

    /// The model's own bookkeeping invariants (checked at the end of every run).
    fn check_accounting(&self) -> Result<(), String> {
        Ok(())
    }

    /// Flits sent out of `port` during the measurement window.
    fn window_flits(&self, port: u8) -> u64;

    /// Every non-empty buffer and why its head cannot move (for the deadlock report).
    fn blocked(&self, me: u32, credits: &[u32]) -> Vec<BlockedChannel>;

    /// Records the queues of its outputs `view.ports()` into `view` (`queue_view.rs`) at `now`, before any
    /// router of the cycle steps: the flits waiting downstream as the router knows them, what its own
    /// routing reads of its outputs. Only a model a routing that reads other routers' queues runs on records
    /// (UGAL-G: the input-buffered router); the others are never asked.
    fn record_queues(&self, _me: u32, _now: Cycle, _credits: &[u32], _view: &QueueView) {}
}

/// A router's pipeline as its links see it: virtual channels per channel, the input stage (arrival
/// to leaving the input FIFO) and the output stage (to the output channel), and whether senders obey
/// stop/go signals rather than credits.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub vcs: u32,
    pub input_delay: u32,
    pub output_delay: u32,
    pub stop_go: bool,
}

impl Timing {
    /// The timing of model `M` with parameters `p`.
    pub fn of<M: Model>(p: &M::Params) -> Timing {
        let input_delay = M::input_delay(p);
        Timing {
            vcs: M::vcs(p),
            input_delay,
            output_delay: M::router_delay_cycles(p) - input_delay,
            stop_go: M::flow_control(p) == FlowControl::StopGo,
        }
    }
}

/// What a router is built from beside its switch's parameters: where it is, the routing and selection
/// it serves, and the run's seed.
#[derive(Clone)]
pub struct Site<'a> {
    pub router: u32,
    pub topo: &'a Topology,
    pub routing: &'a Routing,
    pub selection: SelectionKind,
    pub history: SelectionHistory,
    pub seed: u64,
    /// With multidestination worms: the largest one, in flits (packet and header).
    pub largest_worm: Option<u32>,
    /// Node switches of the network (a selection function may keep a list per node switch).
    pub node_switches: usize,
}

impl Site<'_> {
    /// The selection function of this router, with `radix` ports.
    pub fn selection(&self, radix: usize) -> Selection {
        let site = SelectionSite { router: self.router, radix, switches: self.node_switches, seed: self.seed };
        Selection::build(&self.selection, site)
    }
}

/// Counters routers update as flits move.
#[derive(Debug, Clone, Default)]
pub struct MoveCounters {
    /// Flit router traversals over the whole run.
    pub flit_hops: u64,
    /// Last cycle any flit moved (deadlock watchdog).
    pub last_progress: Cycle,
    /// Flits made by replication: a switch that turns one copy of a flit into k counts k − 1
    /// (conservation: injected + copied = delivered + buffered + on channels).
    pub copied_flits: u64,
}

/// What a router may touch while it steps: read-only shared structure, and the outbox.
pub struct StepCtx<'a> {
    pub now: Cycle,
    pub topo: &'a Topology,
    pub routing: &'a Routing,
    /// Packets by id: a router reads their headers and never writes them (several regions read them
    /// at once: docs/engine.md, "Regions").
    pub packets: &'a Slab<Packet>,
    /// The multicast destination sets packet headers refer to.
    pub sets: &'a DestSets,
    /// Where the flits and credits sent go (its region's wheel, when regions run on threads).
    pub wheel: &'a mut Wheel,
    /// Every lane's credit counters (`credits.rs`; with regions on threads, the region's copy of
    /// them): a router reads and spends those of its outputs' lanes and no others.
    pub credits: &'a mut [u32],
    pub counters: &'a mut MoveCounters,
    /// True during the measurement window (routers count the flits each output sends).
    pub measuring: bool,
    /// Every router output's queue as the cycle began (empty unless the routing reads it: UGAL-G).
    pub view: &'a QueueView,
}

/// A router's view of the channel leaving one of its ports, precomputed so that sending a flit
/// costs no topology look-ups.
#[derive(Debug, Clone, Copy)]
pub struct OutLink {
    /// Where the channel lands, as an [`Arrival::dest`] (`u32::MAX` on an unconnected port).
    pub dest: u32,
    /// The input port it lands on, at a router.
    pub port: u8,
    /// Feeds a terminal: ejection spends no credits and is not a router-to-router hop.
    pub sink: bool,
    /// Cycles from sending until the flit is in the next hop's input FIFO, ready to leave:
    /// channel latency plus, into a router, its pipeline delay.
    pub latency: u32,
    /// Credit lane of the channel's virtual channel 0.
    pub lane: u32,
}

/// A router's view of whoever feeds one of its input ports (where its credits go back to).
#[derive(Debug, Clone, Copy)]
pub struct InLink {
    pub from: PortLink,
    pub latency: u32,
    /// Credit lane of the feeding channel's virtual channel 0 (where freed slots are returned).
    pub lane: u32,
}

/// The output and input links of `router`, in port order. A flit sent on an output reaches the
/// next hop's input FIFO after this router's output stage, the channel, and — into a router — that
/// router's input stage (`timing`).
pub fn links_of(topo: &Topology, router: u32, timing: Timing) -> (Vec<OutLink>, Vec<InLink>) {
    let lanes = Lanes::new(topo, timing.vcs);
    let ports = 0..topo.radix(router) as u8;
    let outs = ports
        .clone()
        .map(|p| {
            let idx = topo.port_index(router, p);
            let to = topo.links[idx];
            let (dest, port, input) = match to {
                PortLink::Router { router, port } => (router, port, timing.input_delay),
                PortLink::Terminal { terminal } => (TO_TERMINAL | terminal, 0, 0),
                PortLink::Unused => (u32::MAX, 0, 0),
            };
            let lane = lanes.router_output(topo, router, p);
            let latency = topo.latency[idx] + timing.output_delay + input;
            OutLink { dest, port, sink: matches!(to, PortLink::Terminal { .. }), latency, lane }
        })
        .collect();
    let ins = ports
        .map(|p| {
            let from = topo.input(router, p);
            // Credits travel back over the feeding channel's wires, with its latency. (Under stop/go a
            // freed slot reaches the engine next cycle, which sends GO over that latency: stop_go.rs.)
            let latency = if timing.stop_go { 1 } else { topo.feeding_latency(router, p) };
            InLink { from, latency, lane: lanes.feeding(topo, from) }
        })
        .collect();
    (outs, ins)
}

/// What the selection function may know about the head `flit` that entered by `in_port`: the node
/// switch of the terminal it steers by (a unicast's destination; for a multicast copy on its way up,
/// its lowest-numbered destination), looked up only for a function that keys on it (LRUD).
#[inline]
pub fn selection_request(in_port: u8, flit: Flit, selection: &Selection, ctx: &StepCtx) -> SelectionRequest {
    let dst_switch = if selection.keys_on_destination() {
        let steer = match ctx.packets[flit.packet()].header.dest {
            crate::packet::Dest::One(d) => d,
            crate::packet::Dest::Set(set) => ctx.sets.members(set).next().expect("a multicast has destinations"),
        };
        ctx.topo.terminal_switch[steer as usize]
    } else {
        0
    };
    SelectionRequest { in_port, dst_switch }
}

impl StepCtx<'_> {
    /// Sends `flit` on virtual channel `vc` of the channel `link`; `hops` is the router-to-router
    /// hops its copy had made when it arrived here (meaningful for a head). The flit arrives with one
    /// more — at a terminal too, which does not count the ejection channel (`Simulation::eject`). The
    /// caller counts the flit hop and the progress (once per step, not per flit).
    #[inline]
    pub fn send_flit(&mut self, link: OutLink, vc: u8, flit: Flit, hops: u16) {
        debug_assert!(link.dest != u32::MAX, "routing chose an unconnected port");
        let at = self.now + link.latency as Cycle;
        let hops = hops + 1;
        self.wheel.schedule_flit(at, Arrival { dest: link.dest, port: link.port, vc, hops, flit });
    }

    /// Returns a credit for a freed slot of virtual channel `vc` to whoever feeds `link`.
    #[inline]
    pub fn send_credit(&mut self, link: InLink, vc: u8) {
        self.wheel.schedule_credit(self.now + link.latency as Cycle, link.lane + vc as u32);
    }

    /// Credits of virtual channel `vc` of the channel leaving by `link`.
    #[inline]
    pub fn credits(&self, link: OutLink, vc: u8) -> u32 {
        self.credits[(link.lane + vc as u32) as usize]
    }

    /// Flits the credits of the channel leaving by `link` show in the next router's buffers of its
    /// `vcs` virtual channels, each `depth` flits deep: what a routing that chooses by the router's
    /// queues reads (`Route::decide`, UGAL-L).
    #[inline]
    pub fn queued(&self, link: OutLink, vcs: u8, depth: u32) -> u32 {
        owed(self.credits, link, vcs, depth)
    }

    /// The queue of any router's output `port` as the cycle began, as that router knows it (`QueueView`):
    /// what a routing with global knowledge reads (UGAL-G).
    #[inline]
    pub fn queued_at(&self, router: u32, port: u8) -> u32 {
        debug_assert!(self.view.ports().contains(&port), "port {port} is not among those the routing reads anywhere");
        self.view.queued(self.topo.port_index(router, port))
    }

    /// Spends one credit of virtual channel `vc` of the channel leaving by `link`; ejection
    /// channels hold `SINK` credits and spend none (without a branch: which channel a flit takes is
    /// data, not a pattern the branch predictor learns).
    #[inline]
    pub fn spend_credit(&mut self, link: OutLink, vc: u8) {
        self.credits[(link.lane + vc as u32) as usize] -= (!link.sink) as u32;
    }
}

/// Flits the credits `credits` of the channel leaving by `link` show in the next router's buffers of its
/// `vcs` virtual channels, each `depth` flits deep (StepCtx::queued; a router's view recorded for others).
#[inline]
pub fn owed(credits: &[u32], link: OutLink, vcs: u8, depth: u32) -> u32 {
    (0..u32::from(vcs)).map(|w| depth.saturating_sub(credits[(link.lane + w) as usize])).sum()
}

/// A virtual cut-through buffer of `buffer` flits too small for the largest packet.
pub fn vct_unfit(buffer: u32, f: &Facts) -> Option<Problem> {
    let (packet, header) = (f.packet_flits + f.unicast_header_flits, f.unicast_header_flits);
    if buffer >= packet {
        return None;
    }
    let what = if header == 0 {
        format!("workload.packet_flits = {packet}")
    } else {
        format!("{packet}, workload.packet_flits and the unicast header's {header} flits,")
    };
    let allowed = format!("at least {what} with virtual cut-through");
    Some(Problem::new("switch.buffer_flits", buffer.to_string(), allowed, None))
}

/// A switch that replicates multidestination worms whole: its buffer of `buffer` flits holds the
/// largest worm (`what` it is, and `why` the buffer must hold it).
pub fn worm_unfit(buffer: u32, f: &Facts, what: &str, why: &str) -> Option<Problem> {
    let worm = f.multidestination_worm.filter(|&w| buffer < w)?;
    let allowed = format!("at least the largest {what}, {worm} flits{why}");
    Some(Problem::new("switch.buffer_flits", buffer.to_string(), allowed, None))
}

/// A head's route read later than the router's delay (`switch.route_cycles`).
pub fn route_cycles_unfit(route: u32, delay: u32) -> Option<Problem> {
    let allowed = format!("an integer from 1 to switch.router_delay_cycles = {delay}");
    (route > delay).then(|| Problem::new("switch.route_cycles", route.to_string(), allowed, None))
}
