//! Input-buffered virtual-channel router (Dally & Towles ch. 16–19; the "input buffering" switch
//! family of study 000 §5 without multicast replication).
//!
//! * Per input port, `vcs` FIFOs of `buffer_flits` flits each; credit-based flow control per VC.
//! * Wormhole: a head takes an output VC that is not owned by another packet and has a free slot.
//!   Virtual cut-through: the output VC must also have room for the whole packet, so a packet never
//!   blocks across two routers. An output VC is owned from head to tail.
//! * Timing: a flit that arrives at cycle a may leave on its output channel at cycle a +
//!   `router_delay_cycles` at the earliest (the whole pipeline: route, VC and switch allocation,
//!   crossbar). Zero-load latency per router is therefore delay + channel latency. The engine
//!   models the pipeline by delivering the flit into the input FIFO when its delay has elapsed;
//!   its slot is reserved from the moment it was sent, because the sender spent a credit on it.
//! * Allocation: separable, input-first. Each input port offers one flit (round robin over its VCs
//!   that can move: routed, an output VC held or free, a credit); each output port grants one
//!   requesting input (round robin). The crossbar moves one flit per input and per output per cycle.
//!   Routing decides candidates once per head; `Selection` picks among the free ones.
//! * Turns (`switch.turn_cycles`, study 004 §5 Eq. 4's switching delay L_s): on a mesh or torus, a head that
//!   arrived on one dimension's link and leaves on another's may take its output only that many cycles
//!   after it arrived; its body follows it.
//!
//! Layout: one struct per port with its VCs inline (at most [`MAX_VCS`]), so the allocator's inner
//! loops index fixed arrays; flits live in one ring buffer per input VC inside `slots`.

use std::mem::size_of;

use super::model::{
    links_of, owed, selection_request, vct_unfit, FlowControl, InLink, Model, OutLink, Site, StepCtx, Timing,
};
use super::on_wire::OnWire;
use super::vc_allocation::{VcAllocation, VcRequest, VcRequests};
use crate::arbiter::RoundRobin;
use crate::error::BlockedChannel;
use crate::facts::Facts;
use crate::packet::Flit;
use crate::params::{params, Kind, Problem};
use crate::queue_view::QueueView;
use crate::routing::{At, Candidates};
use crate::selection::{records, Selection, SelectionHistory};
use crate::time::Cycle;
use crate::topology::Topology;
use crate::topology::{Geometry, PortLink};

/// Most virtual channels per port (the scenario allows 1..=16).
pub const MAX_VCS: usize = 16;

params! {
    /// The input-buffered virtual-channel router.
    pub struct Params {
        /// `wormhole` (a packet advances when the next buffer has room for a flit), `vct` (virtual
        /// cut-through: only when it has room for the whole packet; needs switch.buffer_flits >=
        /// workload.packet_flits) or `stop_go` (slack buffers with stop/go back-pressure, study 001; see
        /// switch.stop_flits).
        flow_control: FlowControl = FlowControl::Wormhole;
        /// Virtual channels per input port. DOR on a torus or ring needs 2 (dateline classes) when
        /// routing.check_deadlock_free is on.
        vcs: u32 = 2, range(1, 16);
        /// Buffer depth per virtual channel.
        buffer_flits: u32 = 8, range(1, 4096), unit("flits");
        /// Cycles from a head's arrival at a router to its departure on the output channel at zero load
        /// (the whole pipeline; switch.vc_allocation = "separate" adds one).
        router_delay_cycles: u32 = 1, range(1, 1000), unit("cycles");
        /// `combined`: a head is granted its output VC and the switch in one cycle, and the next packet's
        /// head may take an output VC in the cycle after its predecessor's tail left; `separate`: VC
        /// allocation is a stage of its own before switch allocation (BookSim 2's input-queued router):
        /// a head granted an output VC requests the switch from the next cycle, one cycle more per router
        /// (docs/models/input_buffered.md, "Allocation").
        vc_allocation: VcAllocation = VcAllocation::Combined;
        /// On a mesh or torus: cycles a head waits, beyond the router delay, where it turns from one
        /// dimension to another (study 004's switching delay L_s).
        turn_cycles: u32 = 0, range(0, 1_000_000), unit("cycles");
        /// stop_go: a receiving buffer holding this many flits stops its sender; left out:
        /// switch.buffer_flits − (2 × L + switch.router_delay_cycles − 1), L the longest channel's latency
        /// (network.channel_latency_cycles, or longer where the network's classes or file say so): the most
        /// that leaves room for what a sender can still send before STOP reaches it.
        stop_flits: Option<u32> = None, range(1, 4096), unit("flits");
        /// stop_go: a receiving buffer drained to this many flits lets its sender go again; left out:
        /// switch.stop_flits − L (at least 0).
        go_flits: Option<u32> = None, range(0, 4096), unit("flits");
    }
}

impl Params {
    /// Stop/go slack: the flits a sender can still put on a channel of `latency` cycles before STOP
    /// reaches it — one forward and one backward traversal and the router pipeline, 2·L + D − 1
    /// (`stop_go.rs`).
    pub fn stop_go_slack(&self, latency: u32) -> u32 {
        2 * latency + self.router_delay_cycles - 1
    }

    /// Stop/go thresholds (stop, go) on channels of `latency` cycles: by default the buffer less the
    /// slack, and that less one channel latency.
    pub fn stop_go_thresholds(&self, latency: u32) -> (u32, u32) {
        let stop = self.stop_flits.unwrap_or(self.buffer_flits.saturating_sub(self.stop_go_slack(latency)));
        (stop, self.go_flits.unwrap_or(stop.saturating_sub(latency)))
    }

    /// The problems of stop/go thresholds that leave no room for a round trip where `f` holds.
    fn stop_go_unfit(&self, f: &Facts) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut fail =
            |key: &str, value: u32, allowed: String| problems.push(Problem::new(key, value.to_string(), allowed, None));
        // (the longest channel's round trip: a network whose classes or file give longer channels names them)
        let (latency, longer_by) = f.longest_channel;
        let slack = self.stop_go_slack(latency);
        let (stop, go) = self.stop_go_thresholds(latency);
        let channel = match longer_by {
            None => "network.channel_latency_cycles".to_string(),
            Some(key) => format!("{latency} (the longest channel, by {key})"),
        };
        let round_trip = format!("2 × {channel} + switch.router_delay_cycles − 1");
        if self.stop_flits.is_none() && self.buffer_flits <= slack {
            // (the user set the buffer, not the threshold derived from it: name the key they set)
            let allowed = format!(
                "at least {} under stop/go: a sender can still send {slack} flits before STOP reaches it \
                 ({round_trip}), so switch.stop_flits, derived as switch.buffer_flits − {slack}, would be {stop}",
                slack + 1
            );
            fail("switch.buffer_flits", self.buffer_flits, allowed);
        } else if !(stop >= 1 && stop + slack <= self.buffer_flits) {
            let allowed = format!(
                "an integer from 1 to switch.buffer_flits − {slack} = {} (the flits a sender can still send before \
                 STOP reaches it: {round_trip})",
                self.buffer_flits as i64 - slack as i64
            );
            fail("switch.stop_flits", stop, allowed);
        } else if go >= stop {
            fail("switch.go_flits", go, format!("an integer below switch.stop_flits = {stop}"));
        }
        if let Some(t) = f.terminal_latency.filter(|&t| t > latency) {
            let allowed = format!(
                "an integer from 1 to {channel} under stop/go (the slack covers a round trip of the longest \
                 channel), or left out"
            );
            fail("network.terminal_latency_cycles", t, allowed);
        }
        problems
    }
}

impl Kind for InputBuffered {
    const NAME: &'static str = "input_buffered";
    const DOC: &'static str =
        "input-queued VC router: per-VC FIFOs, credits, separable input-first round-robin allocation";
    type Params = Params;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VcState {
    /// The front flit (if any) is a head that has not been routed yet.
    Idle,
    /// The front head has been routed; its candidates are cached.
    Routed,
    /// The packet at the front holds output `port`, virtual channel `vc`.
    Active { port: u8, vc: u8 },
}

/// One input virtual channel: where its flits are in the ring buffer, and its allocation state
/// (16 bytes, so a port's hot state shares a cache line; routing candidates live apart).
#[derive(Debug, Clone, Copy)]
struct InVc {
    /// Index in `slots` of this VC's first slot.
    base: u32,
    head: u16,
    len: u16,
    state: VcState,
    /// While `Active`: the credit lane of the output VC held (checked every cycle a flit waits).
    out_lane: u32,
}

/// A buffered flit and the hops its copy had made on arriving (its route position, read with a head).
#[derive(Debug, Clone, Copy)]
struct Slot {
    flit: Flit,
    hops: u16,
}

#[derive(Debug, Clone, Copy, Default)]
struct Request {
    vc: u8,
    port: u8,
    out_vc: u8,
}

// `repr(C)` keeps the fields the allocator touches every cycle together at the front, and the
// alignment puts them in one cache line.
#[derive(Debug, Clone)]
#[repr(C, align(64))]
struct InPort {
    /// Bit v set while VC v holds flits.
    occupied: u32,
    /// Round robin over this port's VCs.
    rr: RoundRobin,
    /// This cycle's request (valid while this port's bit is in some output's `requests`).
    request: Request,
    /// Bit v set while VC v was granted its output VC this cycle (`separate` VC allocation: it requests
    /// the switch from the next cycle).
    fresh: u32,
    link: InLink,
    /// The first few VCs share the cache line of the fields above.
    vcs: [InVc; MAX_VCS],
}

#[derive(Debug, Clone)]
#[repr(C, align(64))]
struct OutPort {
    /// This cycle's requesting input ports.
    requests: u64,
    /// Flits sent during the measurement window (channel utilisation).
    window_flits: u64,
    /// Bit w set while output VC w is owned by a packet.
    busy: u32,
    /// Round robin over the input ports.
    rr: RoundRobin,
    /// Round robin over the input ports for this output's VCs (`separate` VC allocation).
    vc_rr: RoundRobin,
    /// The channel; the free slots of each downstream VC are in its credit lanes (`StepCtx::credits`).
    link: OutLink,
}

#[derive(Debug, Clone)]
pub struct InputBuffered {
    vcs: usize,
    depth: usize,
    vct: bool,
    /// `separate` VC allocation: this cycle's requests for output VCs (empty between cycles).
    vc_requests: Option<VcRequests>,
    /// Under a routing that reads the queues (UGAL-L, UGAL-G): each output's flits still on their way.
    on_wire: Option<Vec<OnWire>>,
    selection: Selection,
    history: SelectionHistory,
    /// The selection function keeps a history (`commit` does anything).
    keeps_history: bool,
    inputs: Vec<InPort>,
    outputs: Vec<OutPort>,
    /// Cached routing candidates of the head at the front of each input VC (port · MAX_VCS + vc).
    cands: Vec<Candidates>,
    /// Flits, `depth` slots per input VC (index (port · vcs + vc) · depth).
    slots: Vec<Slot>,
    /// Bit p set while input port p holds flits.
    port_mask: u64,
    flits: u32,
    /// The switching delay between dimensions, where there is one.
    turns: Option<Turns>,
}

/// The switching delay of packets that change dimension here (`switch.turn_cycles`): the head leaves
/// its input FIFO no earlier than that many cycles after it arrived, and its body follows it; a delay,
/// not a gap: a stream of packets keeps its rate through the turn if the FIFO holds that many flits.
#[derive(Debug, Clone)]
struct Turns {
    cycles: Cycle,
    /// Each port's dimension; `u8::MAX` for the terminal's.
    dim: Vec<u8>,
    /// Per input VC (port · MAX_VCS + vc): whether the packet at its front turns.
    turning: Vec<bool>,
    /// Per buffer slot (as `slots`): the cycle its flit arrived, for heads.
    arrived: Vec<Cycle>,
}

impl Turns {
    /// The head just routed into `cands` from input `in_port` turns if it changes dimension.
    fn routed(&mut self, in_port: u8, in_vc: u8, cands: &Candidates) {
        let from = self.dim[in_port as usize];
        let to = cands.as_slice().first().map_or(u8::MAX, |c| self.dim[c.port as usize]);
        self.turning[in_port as usize * MAX_VCS + in_vc as usize] = from != u8::MAX && to != u8::MAX && from != to;
    }

    /// The head (in `slot`) of a turning packet must wait longer.
    #[inline]
    fn waiting(&self, in_port: usize, in_vc: usize, slot: usize, now: Cycle) -> bool {
        self.turning[in_port * MAX_VCS + in_vc] && now < self.arrived[slot] + self.cycles
    }
}

/// Routes the head at the front of `q` (once) and picks a free output VC for it. Out of line: only
/// heads come here, and keeping it apart leaves the body-flit path of `step` lean.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn allocate(
    q: &mut InVc,
    cands: &mut Candidates,
    at: At,
    flit: Flit,
    (vct, vc_only): (bool, bool),
    (vcs, depth): (u8, u32),
    (outputs, on_wire): (&[OutPort], Option<&[OnWire]>),
    selection: &mut Selection,
    mut turns: Option<&mut Turns>,
    slot: usize,
    ctx: &StepCtx,
) -> Option<(u8, u8)> {
    if q.state == VcState::Idle {
        let header = &ctx.packets[flit.packet()].header;
        ctx.routing.route(at, header, cands);
        // (UGAL-L chooses its path here, by the flits waiting downstream of its outputs; UGAL-G by those of
        // any router's, as the cycle began)
        let here = |port: u8| waiting(outputs, on_wire, port as usize, ctx.credits, (vcs, depth), ctx.now);
        ctx.routing.decide(at, header, cands, here, |router, port| ctx.queued_at(router, port));
        q.state = VcState::Routed;
        if let Some(t) = turns.as_deref_mut() {
            t.routed(at.in_port, at.in_vc, cands);
        }
    }
    if turns.is_some_and(|t| t.waiting(at.in_port as usize, at.in_vc as usize, slot, ctx.now)) {
        return None;
    }
    // A wormhole head granted the switch with its VC needs one free slot, one granted only its VC
    // (`separate`: it waits for the credit at switch allocation) none; VCT needs the packet's length.
    let need = if vct { ctx.packets[flit.packet()].header.flits } else { u32::from(!vc_only) };
    let choice = selection_request(at.in_port, flit, selection, ctx);
    let chosen = selection.choose(choice, cands, |o, w| {
        let out = &outputs[o as usize];
        out.busy & (1 << w) == 0 && ctx.credits(out.link, w) >= need
    });
    #[cfg(feature = "worm_counts")]
    crate::worm_counts::with(|c| {
        c.head_tries += 1;
        c.head_fails += chosen.is_none() as u64;
    });
    chosen
}

/// The flits waiting downstream of output `port` as this router knows them at `now`: those its credits
/// show (`vcs` VCs of `depth` flits), less those still on the wire where it keeps them (a credit on its way
/// back it cannot tell from a flit still waiting). What UGAL decides on (`Route::decide`).
#[inline]
fn waiting(
    outputs: &[OutPort],
    on_wire: Option<&[OnWire]>,
    port: usize,
    credits: &[u32],
    (vcs, depth): (u8, u32),
    now: Cycle,
) -> u32 {
    owed(credits, outputs[port].link, vcs, depth).saturating_sub(on_wire.map_or(0, |w| w[port].count(now)))
}

impl Model for InputBuffered {
    fn flow_control(p: &Params) -> FlowControl {
        p.flow_control
    }
    fn vcs(p: &Params) -> u32 {
        p.vcs
    }
    fn buffer_flits(p: &Params) -> u32 {
        p.buffer_flits
    }
    fn router_delay_cycles(p: &Params) -> u32 {
        p.router_delay_cycles
    }
    fn sized_by(_: &Params) -> &'static str {
        "switch.vcs, switch.buffer_flits"
    }

    fn needs(_: &Params) -> &'static str {
        "`switch.turn_cycles` > 0 only on a `mesh` or `torus` (turns between dimensions); under virtual \
         cut-through (`switch.flow_control = \"vct\"`), `switch.buffer_flits >= workload.packet_flits` and the \
         unicast header's flits (`workload.unicast_header_bytes`); under `switch.flow_control = \"stop_go\"`, \
         `switch.stop_flits` at most `switch.buffer_flits` − (2 × the longest channel's latency + \
         `switch.router_delay_cycles` − 1), `switch.go_flits` below it, and `network.terminal_latency_cycles` at \
         most the longest channel's latency (`network.channel_latency_cycles`, or a class's own such as \
         `network.global_latency_cycles`, or a network file's longest link)"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let mut problems = Vec::new();
        if p.turn_cycles > 0 && !["mesh", "torus"].contains(&f.network) {
            problems.push(Problem::new(
                "switch.turn_cycles",
                p.turn_cycles.to_string(),
                "0 except on a mesh or torus",
                None,
            ));
        }
        match p.flow_control {
            FlowControl::Vct => problems.extend(vct_unfit(p.buffer_flits, f)),
            FlowControl::StopGo => problems.extend(p.stop_go_unfit(f)),
            FlowControl::Wormhole => {}
        }
        problems
    }

    fn bytes(s: &Params, topo: &Topology) -> (u64, u64) {
        let ports = topo.links.len() as u64;
        let per_port = size_of::<InPort>() + size_of::<OutPort>() + MAX_VCS * size_of::<Candidates>();
        let state = ports * per_port as u64 + topo.routers() as u64 * size_of::<InputBuffered>() as u64;
        (ports * s.vcs as u64 * s.buffer_flits as u64 * size_of::<Slot>() as u64, state)
    }

    fn new(sw: &Params, site: &Site) -> InputBuffered {
        let (topo, router) = (site.topo, site.router);
        let radix = topo.radix(router);
        assert!(radix <= 64, "router radix above 64 is not supported");
        let vcs = sw.vcs as usize;
        assert!(vcs <= MAX_VCS, "at most {MAX_VCS} virtual channels");
        let depth = sw.buffer_flits as usize;
        let (out_links, in_links) = links_of(topo, router, Timing::of::<Self>(sw));
        let inputs = in_links
            .into_iter()
            .enumerate()
            .map(|(p, link)| {
                let vc = |v: usize| InVc {
                    base: ((p * vcs + v) * depth) as u32,
                    head: 0,
                    len: 0,
                    state: VcState::Idle,
                    out_lane: 0,
                };
                InPort {
                    link,
                    occupied: 0,
                    rr: RoundRobin::default(),
                    request: Request::default(),
                    fresh: 0,
                    vcs: std::array::from_fn(vc),
                }
            })
            .collect();
        let on_wire = site.routing.reads_queues().then(|| out_links.iter().map(|l| OnWire::new(l.latency)).collect());
        let outputs = out_links
            .into_iter()
            .map(|link| OutPort {
                link,
                busy: 0,
                rr: RoundRobin::default(),
                vc_rr: RoundRobin::default(),
                requests: 0,
                window_flits: 0,
            })
            .collect();
        InputBuffered {
            vcs,
            depth,
            vct: sw.flow_control == FlowControl::Vct,
            vc_requests: (sw.vc_allocation == VcAllocation::Separate).then(VcRequests::default),
            on_wire,
            selection: site.selection(radix),
            history: site.history,
            keeps_history: site.selection.has_history(),
            inputs,
            outputs,
            cands: vec![Candidates::default(); radix * MAX_VCS],
            slots: vec![Slot { flit: Flit::new(0, false, false), hops: 0 }; radix * vcs * depth],
            port_mask: 0,
            flits: 0,
            turns: match &topo.geometry {
                Geometry::Cube(geo) if sw.turn_cycles > 0 => Some(Turns {
                    cycles: sw.turn_cycles as Cycle,
                    dim: (0..radix as u8)
                        .map(|p| match topo.link(router, p) {
                            PortLink::Router { .. } => geo.port_dim(p).0 as u8,
                            _ => u8::MAX,
                        })
                        .collect(),
                    turning: vec![false; radix * MAX_VCS],
                    arrived: vec![0; radix * vcs * depth],
                }),
                _ => None,
            },
        }
    }

    #[inline]
    fn flits(&self) -> u32 {
        self.flits
    }

    #[inline]
    fn accept_flit(&mut self, port: u8, vc: u8, flit: Flit, hops: u16, now: Cycle) -> bool {
        let depth = self.depth;
        let input = &mut self.inputs[port as usize];
        let q = &mut input.vcs[vc as usize & (MAX_VCS - 1)];
        if q.len as usize == depth {
            return false;
        }
        let mut pos = q.head as usize + q.len as usize;
        if pos >= depth {
            pos -= depth;
        }
        q.len += 1;
        input.occupied |= 1 << vc;
        self.slots[q.base as usize + pos] = Slot { flit, hops };
        // (only a head's arrival is read: `Turns::waiting`)
        if flit.head() {
            if let Some(t) = &mut self.turns {
                t.arrived[q.base as usize + pos] = now;
            }
        }
        self.flits += 1;
        self.port_mask |= 1 << port;
        true
    }

    fn step(&mut self, me: u32, ctx: &mut StepCtx) {
        let vct = self.vct;
        let separate = self.vc_requests.is_some();
        #[cfg(feature = "worm_counts")]
        let census = self.census(me, ctx);
        #[cfg(feature = "worm_counts")]
        let mut granted: Vec<(usize, Request, bool)> = Vec::new();
        if separate {
            self.allocate_vcs(me, ctx);
        }
        let mut requested = 0u64;
        // Input stage: each occupied input port offers one flit, round robin over its occupied VCs.
        let mut ports = self.port_mask;
        while ports != 0 {
            let p = ports.trailing_zeros() as usize;
            ports &= ports - 1;
            let input = &mut self.inputs[p];
            // Occupied VCs from the round-robin pointer on (not those granted an output VC this cycle).
            let fresh = if separate { std::mem::take(&mut input.fresh) } else { 0 };
            for v in input.rr.order_narrow(input.occupied & !fresh) {
                let q = &mut input.vcs[v & (MAX_VCS - 1)];
                let want = match q.state {
                    VcState::Active { port, vc } => (ctx.credits[q.out_lane as usize] > 0).then_some((port, vc)),
                    _ if separate => None,
                    _ => {
                        let slot = (q.base + q.head as u32) as usize;
                        let Slot { flit, hops } = self.slots[slot];
                        let at = At { router: me, in_port: p as u8, in_vc: v as u8, hops };
                        let cands = &mut self.cands[p * MAX_VCS + v];
                        let turns = self.turns.as_mut();
                        let size = (self.vcs as u8, self.depth as u32);
                        allocate(
                            q,
                            cands,
                            at,
                            flit,
                            (vct, false),
                            size,
                            (&self.outputs, self.on_wire.as_deref()),
                            &mut self.selection,
                            turns,
                            slot,
                            ctx,
                        )
                    }
                };
                if let Some((port, out_vc)) = want {
                    input.request = Request { vc: v as u8, port, out_vc };
                    self.outputs[port as usize].requests |= 1 << p;
                    requested |= 1 << port;
                    break;
                }
            }
        }
        // Output stage: each requested output grants one requesting input, round robin.
        let radix = self.inputs.len();
        let mut moved = 0;
        while requested != 0 {
            let o = requested.trailing_zeros() as usize;
            requested &= requested - 1;
            let out = &mut self.outputs[o];
            let mask = std::mem::take(&mut out.requests);
            let p = out.rr.first(mask);
            out.rr.served(p, radix);
            #[cfg(feature = "worm_counts")]
            {
                let r = self.inputs[p].request;
                let q = &self.inputs[p].vcs[r.vc as usize];
                granted.push((p, r, self.slots[(q.base + q.head as u32) as usize].flit.head()));
            }
            self.traverse(p, ctx);
            moved += 1;
        }
        if moved > 0 {
            ctx.counters.flit_hops += moved;
            ctx.counters.last_progress = ctx.now;
        }
        #[cfg(feature = "worm_counts")]
        self.count_step(me, &census, &granted, ctx);
    }

    fn window_flits(&self, port: u8) -> u64 {
        self.outputs[port as usize].window_flits
    }

    fn record_queues(&self, _me: u32, now: Cycle, credits: &[u32], view: &QueueView) {
        let size = (self.vcs as u8, self.depth as u32);
        let ports = usize::from(view.ports().start)..usize::from(view.ports().end).min(self.outputs.len());
        let here = if view.with_router() { self.waiting_here() } else { [0; 64] };
        for port in ports {
            // (an output's lanes are its port index · vcs onward: `credits.rs`)
            let index = (self.outputs[port].link.lane / self.vcs as u32) as usize;
            let downstream = waiting(&self.outputs, self.on_wire.as_deref(), port, credits, size, now);
            view.record(index, downstream + here[port]);
        }
    }

    fn blocked(&self, me: u32, credits: &[u32]) -> Vec<BlockedChannel> {
        let mut out = Vec::new();
        for (p, input) in self.inputs.iter().enumerate() {
            for (v, q) in input.vcs[..self.vcs].iter().enumerate() {
                if q.len == 0 {
                    continue;
                }
                let packet = self.slots[(q.base + q.head as u32) as usize].flit.packet();
                let reason = match q.state {
                    VcState::Active { port, vc } => {
                        if credits[(self.outputs[port as usize].link.lane + vc as u32) as usize] == 0 {
                            format!("packet {packet} holds out-port {port} vc {vc}, which has no credit")
                        } else {
                            format!("packet {packet} holds out-port {port} vc {vc}, waiting for the switch")
                        }
                    }
                    _ => {
                        let want: Vec<String> = self.cands[p * MAX_VCS + v]
                            .as_slice()
                            .iter()
                            .map(|c| format!("out-port {} vc {}..{}", c.port, c.vc_lo, c.vc_hi))
                            .collect();
                        format!("head of packet {packet} waits for a free output VC among [{}]", want.join(", "))
                    }
                };
                out.push(BlockedChannel { router: me, in_port: p as u8, vc: v as u8, flits: q.len as u32, reason });
            }
        }
        out
    }
}

impl InputBuffered {
    /// Per output port (of at most 64), the flits waiting for it in this router's input buffers: those of
    /// the input VCs whose front packet holds it, or was routed to it and waits for one of its VCs (UGAL-G's
    /// `whole` queue; a VC's flits behind its front packet are counted with it). Only the ports holding
    /// flits are visited.
    fn waiting_here(&self) -> [u32; 64] {
        let mut out = [0u32; 64];
        for p in crate::bitset::ones(self.port_mask) {
            let input = &self.inputs[p];
            for v in crate::bitset::ones(u64::from(input.occupied)) {
                let q = &input.vcs[v];
                let port = match q.state {
                    VcState::Active { port, .. } => Some(port),
                    VcState::Routed => self.cands[p * MAX_VCS + v].as_slice().first().map(|c| c.port),
                    VcState::Idle => None,
                };
                if let Some(port) = port {
                    out[usize::from(port)] += u32::from(q.len);
                }
            }
        }
        out
    }

    /// The VC-allocation stage of `separate` VC allocation, before switch allocation and on the state
    /// the cycle began with: every head at the front of an input VC without an output VC asks for one
    /// of its candidates that is free (as `allocate` decides it); each output VC asked for goes to one
    /// input port, round robin over the ports per output (the lowest VC of that port), and its head
    /// requests the switch from the next cycle.
    fn allocate_vcs(&mut self, me: u32, ctx: &StepCtx) {
        let mut requests = self.vc_requests.take().expect("separate VC allocation");
        let size = (self.vcs as u8, self.depth as u32);
        let mut ports = self.port_mask;
        while ports != 0 {
            let p = ports.trailing_zeros() as usize;
            ports &= ports - 1;
            let input = &mut self.inputs[p];
            for v in crate::bitset::ones(u64::from(input.occupied)) {
                let q = &mut input.vcs[v];
                if matches!(q.state, VcState::Active { .. }) {
                    continue;
                }
                let slot = (q.base + q.head as u32) as usize;
                let Slot { flit, hops } = self.slots[slot];
                let at = At { router: me, in_port: p as u8, in_vc: v as u8, hops };
                let cands = &mut self.cands[p * MAX_VCS + v];
                let turns = self.turns.as_mut();
                let want = allocate(
                    q,
                    cands,
                    at,
                    flit,
                    (self.vct, true),
                    size,
                    (&self.outputs, self.on_wire.as_deref()),
                    &mut self.selection,
                    turns,
                    slot,
                    ctx,
                );
                if let Some((port, vc)) = want {
                    requests.push(VcRequest { port, vc, in_port: p as u8, in_vc: v as u8 });
                }
            }
        }
        let radix = self.inputs.len();
        for grant in requests.grants(|port, mask| {
            let out = &mut self.outputs[port as usize];
            let winner = out.vc_rr.first(mask);
            out.vc_rr.served(winner, radix);
            winner
        }) {
            let out = &mut self.outputs[grant.port as usize];
            out.busy |= 1 << grant.vc;
            let input = &mut self.inputs[grant.in_port as usize];
            let q = &mut input.vcs[grant.in_vc as usize];
            q.state = VcState::Active { port: grant.port, vc: grant.vc };
            q.out_lane = out.link.lane + grant.vc as u32;
            input.fresh |= 1 << grant.in_vc;
        }
        self.vc_requests = Some(requests);
    }

    /// Every input VC holding flits as the step begins (feature `worm_counts`): (port, VC, the output its
    /// front flit wants, whether it could request that output this cycle, whether it is an unrouted head).
    /// Reads the state only (an unrouted head is routed into a scratch list: DOR's routing is pure).
    #[cfg(feature = "worm_counts")]
    fn census(&self, me: u32, ctx: &StepCtx) -> Vec<(usize, usize, u8, bool, bool)> {
        let mut out = Vec::new();
        for p in crate::bitset::ones(self.port_mask) {
            let input = &self.inputs[p];
            for v in crate::bitset::ones(u64::from(input.occupied)) {
                let q = &input.vcs[v];
                match q.state {
                    VcState::Active { port, .. } => out.push((p, v, port, ctx.credits[q.out_lane as usize] > 0, false)),
                    state => {
                        let Slot { flit, hops } = self.slots[(q.base + q.head as u32) as usize];
                        let mut scratch = Candidates::default();
                        let cands = if state == VcState::Routed {
                            &self.cands[p * MAX_VCS + v]
                        } else {
                            let at = At { router: me, in_port: p as u8, in_vc: v as u8, hops };
                            ctx.routing.route(at, &ctx.packets[flit.packet()].header, &mut scratch);
                            &scratch
                        };
                        let free = cands.as_slice().iter().find(|c| {
                            let o = &self.outputs[c.port as usize];
                            (c.vc_lo..c.vc_hi).any(|w| o.busy & (1 << w) == 0 && ctx.credits(o.link, w) >= 1)
                        });
                        let port = free.or(cands.as_slice().first()).map_or(u8::MAX, |c| c.port);
                        out.push((p, v, port, free.is_some(), state == VcState::Idle));
                    }
                }
            }
        }
        out
    }

    /// Counts this step's moves and whether they and the step are absorbable (`worm_counts.rs`).
    #[cfg(feature = "worm_counts")]
    fn count_step(
        &self,
        me: u32,
        census: &[(usize, usize, u8, bool, bool)],
        granted: &[(usize, Request, bool)],
        ctx: &StepCtx,
    ) {
        use crate::worm_counts::{moved_otherwise, segment, with};
        let (mut absorbable, mut strict) = (0, 0);
        let mut counts = (0u64, 0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
        for &(p, r, head) in granted {
            let (v, o) = (r.vc as usize, r.port);
            let sink = self.outputs[o as usize].link.sink;
            counts.0 += head as u64;
            counts.1 += sink as u64;
            // no other VC of the port could be offered, no other VC of the router could request the output
            let others_at_port = census.iter().filter(|c| c.0 == p && c.1 != v);
            let port_alone = others_at_port.clone().all(|c| !c.3);
            let port_only = others_at_port.count() == 0;
            let output_alone = census.iter().all(|c| (c.0, c.1) == (p, v) || !(c.3 && c.2 == o));
            let index = ((me as usize * 64 + p) * MAX_VCS) + v;
            if head || !port_alone || !output_alone {
                moved_otherwise(index);
                continue;
            }
            absorbable += 1;
            counts.2 += sink as u64;
            if port_only {
                strict += 1;
                counts.3 += sink as u64;
            }
            let (starts, starts_strict, starts_stalled) = segment(index, ctx.now, port_only);
            counts.6 += starts_stalled as u64;
            counts.4 += starts as u64;
            counts.5 += starts_strict as u64;
        }
        // (a VC that could request but had a rival for its port or output breaks its run, moved or not)
        for (i, c) in census.iter().enumerate() {
            let rival = census.iter().enumerate().any(|(j, d)| j != i && d.3 && (d.0 == c.0 || d.2 == c.2));
            if c.3 && rival {
                moved_otherwise(((me as usize * 64 + c.0) * MAX_VCS) + c.1);
            }
        }
        let moved = granted.len() as u64;
        let unrouted = census.iter().any(|c| c.4);
        let vanishing = moved > 0 && absorbable == moved && !unrouted;
        let vanishing_strict = moved > 0 && strict == moved && census.len() as u64 == moved;
        with(|c| {
            c.steps += 1;
            c.idle_steps += (moved == 0) as u64;
            c.moves += moved;
            c.head_moves += counts.0;
            c.to_terminal += counts.1;
            c.absorbable += absorbable;
            c.absorbable_strict += strict;
            c.absorbable_to_terminal += counts.2;
            c.absorbable_strict_to_terminal += counts.3;
            c.segments += counts.4;
            c.segments_strict += counts.5;
            c.runs_across_stalls += counts.6;
            c.vanishing += vanishing as u64;
            c.vanishing_strict += vanishing_strict as u64;
        });
    }

    /// Moves the front flit of input port `p`'s requesting VC through the crossbar.
    #[inline]
    fn traverse(&mut self, p: usize, ctx: &mut StepCtx) {
        let input = &mut self.inputs[p];
        let r = input.request;
        let q = &mut input.vcs[r.vc as usize & (MAX_VCS - 1)];
        let slot = (q.base + q.head as u32) as usize;
        let Slot { flit, hops } = self.slots[slot];
        q.head = if q.head as usize + 1 == self.depth { 0 } else { q.head + 1 };
        q.len -= 1;
        // Branch-free bookkeeping: which flit empties a VC or a port is data, not a pattern the
        // branch predictor can learn.
        input.occupied &= !(((q.len == 0) as u32) << r.vc);
        self.port_mask &= !(((input.occupied == 0) as u64) << p);
        input.rr.served_narrow(r.vc as usize);
        let out = &mut self.outputs[r.port as usize];
        // A packet holds its output VC from head to tail. Written without branches where it can be
        // (every flit of a packet writes the same lane and state; the tail releases them).
        let (head, tail) = (flit.head(), flit.tail());
        out.busy = (out.busy | ((head as u32) << r.out_vc)) & !((tail as u32) << r.out_vc);
        q.out_lane = out.link.lane + r.out_vc as u32;
        q.state = if tail { VcState::Idle } else { VcState::Active { port: r.port, vc: r.out_vc } };
        if head && self.keeps_history && records(self.history, self.cands[p * MAX_VCS + r.vc as usize].ports()) {
            let choice = selection_request(p as u8, flit, &self.selection, ctx);
            self.selection.commit(choice, r.port);
        }
        ctx.spend_credit(out.link, r.out_vc);
        if let Some(wires) = &mut self.on_wire {
            wires[r.port as usize].sent(ctx.now);
        }
        out.window_flits += ctx.measuring as u64;
        self.flits -= 1;
        ctx.send_flit(out.link, r.out_vc, flit, hops);
        ctx.send_credit(input.link, r.vc);
    }
}
