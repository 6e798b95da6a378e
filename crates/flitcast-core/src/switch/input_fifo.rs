//! The input-buffer switch of study 000 §5 (docs/models/input_fifo.md): the SP switch's ports,
//! pipeline and crossbar without a central buffer; instead each input has one large FIFO
//! (`buffer_flits`, 320 flits in §7.1: the central-buffer model's total storage split evenly), larger
//! than the largest packet, so any multicast that reaches an input is eventually wholly buffered.
//!
//! * Timing as the central-buffer switch: a head may request `route_cycles` (4) after it arrives;
//!   a flit that cuts through leaves `router_delay_cycles − route_cycles` (2) cycles after it left
//!   the FIFO: 6 cycles through an idle switch.
//! * Unicasts (and multicast copies that take one output here) request their candidate outputs
//!   every cycle until one grants (least recently granted input first; the selection function picks
//!   among grants), then cut through the crossbar one flit per cycle as credits allow. Only the
//!   packet at the head of a FIFO moves (§5.1: FIFO order; head-of-line blocking included).
//! * Asynchronous replication (§5.1): a multicast copy that goes to k ≥ 2 outputs requests each of
//!   them; every output that grants reads the packet's chunks (`chunk_flits`, 8) from the input FIFO
//!   into its own register and sends one flit per cycle from it, independently of the others. A chunk
//!   can be read once its last flit is in the FIFO — the deserialisation that costs 7 extra cycles
//!   with 8-flit chunks (§7.1). The outputs of one input take turns: one chunk read per input per
//!   cycle, least recently served output first. Each chunk counts its readers and leaves the FIFO
//!   (its slots returned upstream as credits) when the last of its k outputs has read it.
//! * §5.2's register-staircase and split-RAM organisations "perform as well as" this model (their
//!   point is wiring, not timing): one timing serves both; their structural counts are in the docs.
//!
//! Flits are counted once per copy: a chunk read by an output that is not its last reader makes a
//! copy of its flits (`MoveCounters::copied_flits`).

use super::flit_fifo::FlitFifo;
use super::model::{
    links_of, route_cycles_unfit, selection_request, worm_unfit, FlowControl, InLink, Model, OutLink, Site, StepCtx,
    Timing,
};
use crate::arbiter::{least_served, Recency};
use crate::bitset::ones;
use crate::error::BlockedChannel;
use crate::facts::Facts;
use crate::packet::Flit;
use crate::params::{params, Kind, Problem};
use crate::routing::{At, Candidates, Step};
use crate::selection::{records, Selection, SelectionHistory};
use crate::time::Cycle;
use crate::topology::Topology;

params! {
    /// The SP switch with one large FIFO per input.
    pub struct Params {
        /// Depth of each input FIFO (study 000 §7.1: the central buffer's 5 KB split evenly over the
        /// inputs, 320 flits); at least the largest worm.
        buffer_flits: u32 = 320, range(1, 4096), unit("flits");
        /// Cycles from a head's arrival to its departure through the crossbar at zero load (6).
        router_delay_cycles: u32 = 6, range(1, 1000), unit("cycles");
        /// Cycles from a head's arrival to its output request and grant; at most
        /// switch.router_delay_cycles.
        route_cycles: u32 = 4, range(1, 1000), unit("cycles");
        /// Flits per chunk, the unit a replicating packet is read from the FIFO in.
        chunk_flits: u32 = 8, range(1, 64), unit("flits");
    }
}

impl Kind for InputFifo {
    const NAME: &'static str = "input_fifo";
    const DOC: &'static str = "SP switch with one large FIFO per input instead of a central buffer; replicates \
                               multicasts from the FIFO (study 000 §5)";
    type Params = Params;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InState {
    /// The front flit, if any, is a head that has not been routed.
    Idle,
    /// The head packet asks for any of these outputs, every cycle until one grants.
    Requesting(u64),
    /// The head packet cuts through the crossbar to this output.
    Crossbar(u8),
    /// The head packet replicates to every output of `Input::fan`.
    Replicate,
}

#[derive(Debug, Clone)]
struct Input {
    link: InLink,
    fifo: FlitFifo,
    state: InState,
    /// Replicating: the head packet, its hops on arriving, its length, its outputs, those not yet
    /// granted, and the chunks already freed from the FIFO (read by every output).
    packet: u32,
    hops: u16,
    flits: u32,
    fan: u64,
    ungranted: u64,
    freed: u32,
    /// Chunks read so far by each output of the fan-out.
    reads: Box<[u32]>,
    /// Last cycle each output read from this input (the outputs' turns).
    turn: Box<[Cycle]>,
}

impl Input {
    /// Flits of chunk `j` of the replicating packet, if its last flit is in the FIFO.
    fn chunk_ready(&self, j: u32, c: u32) -> Option<u32> {
        let first = j * c;
        if first >= self.flits {
            return None;
        }
        let count = (self.flits - first).min(c);
        let arrived = self.freed * c + (self.fifo.len() as u32).min(self.flits - self.freed * c);
        (arrived >= first + count).then_some(count)
    }
}

/// An output's chunk register: flits `first .. first + count` of a copy of `packet` (`flits`
/// long, `hops` made on arriving), `sent` of them already sent (`sent == count`: empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Register {
    packet: u32,
    flits: u32,
    hops: u16,
    first: u32,
    count: u32,
    sent: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutState {
    Idle,
    Crossbar(u8),
    /// Reading a replicated packet from input `from` into its register.
    Reading {
        from: u8,
        reg: Register,
    },
}

/// The ports in each state, as bit sets kept with every state change, so that each phase of a cycle
/// visits only the ports it concerns (near saturation every switch steps every cycle).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Ports {
    in_idle: u64,
    /// Inputs requesting outputs: a unicast's head, or a replicating copy (which may have every grant).
    in_asking: u64,
    in_replicate: u64,
    out_crossbar: u64,
    out_reading: u64,
}

impl Ports {
    fn input(&mut self, p: usize, state: InState) {
        let bit = 1u64 << p;
        let (idle, asking, replicate) = match state {
            InState::Idle => (bit, 0, 0),
            InState::Requesting(_) => (0, bit, 0),
            InState::Crossbar(_) => (0, 0, 0),
            InState::Replicate => (0, bit, bit),
        };
        self.in_idle = (self.in_idle & !bit) | idle;
        self.in_asking = (self.in_asking & !bit) | asking;
        self.in_replicate = (self.in_replicate & !bit) | replicate;
    }
    fn output(&mut self, o: usize, state: OutState) {
        let bit = 1u64 << o;
        let (crossbar, reading) = match state {
            OutState::Idle => (0, 0),
            OutState::Crossbar(_) => (bit, 0),
            OutState::Reading { .. } => (0, bit),
        };
        self.out_crossbar = (self.out_crossbar & !bit) | crossbar;
        self.out_reading = (self.out_reading & !bit) | reading;
    }
    /// The sets as the ports' states say they should be.
    fn of(inputs: &[Input], outputs: &[Output]) -> Ports {
        let mut ports = Ports::default();
        for (p, i) in inputs.iter().enumerate() {
            ports.input(p, i.state);
        }
        for (o, out) in outputs.iter().enumerate() {
            ports.output(o, out.state);
        }
        ports
    }
}

#[derive(Debug, Clone)]
struct Output {
    link: OutLink,
    state: OutState,
    grant_order: Recency,
    window_flits: u64,
}

#[derive(Debug, Clone)]
pub struct InputFifo {
    chunk_flits: u32,
    fifo_flits: usize,
    selection: Selection,
    history: SelectionHistory,
    inputs: Vec<Input>,
    outputs: Vec<Output>,
    ports: Ports,
    cands: Candidates,
    /// Scratch tables of `grant`, by port: the inputs requesting each output, the outputs granting each input.
    requests: Vec<u64>,
    grants: Vec<u64>,
    /// Flits held, a flit in an output register counting as that output's copy.
    flits: u32,
}

impl Model for InputFifo {
    fn flow_control(_: &Params) -> FlowControl {
        FlowControl::Wormhole
    }
    fn buffer_flits(p: &Params) -> u32 {
        p.buffer_flits
    }
    fn router_delay_cycles(p: &Params) -> u32 {
        p.router_delay_cycles
    }
    fn input_delay(p: &Params) -> u32 {
        p.route_cycles
    }
    fn sized_by(_: &Params) -> &'static str {
        "switch.buffer_flits"
    }

    /// A bidirectional multistage network whose every link goes up or down a level (sp128's intermediate
    /// boards link chips of one level).
    fn replicates_on(_: &Params) -> &'static [&'static str] {
        &["fat_tree", "sp16"]
    }

    fn needs(_: &Params) -> &'static str {
        "`switch.route_cycles` at most `switch.router_delay_cycles` (a head's route is read within the router's \
         delay); with multidestination worms, an input FIFO at least as long as the largest worm (packet and \
         header)"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let route = route_cycles_unfit(p.route_cycles, p.router_delay_cycles);
        let worm = worm_unfit(p.buffer_flits, f, "worm", " (packet and header), for input-FIFO replication");
        route.into_iter().chain(worm).collect()
    }

    /// (input FIFOs, everything else)
    fn bytes(s: &Params, topo: &Topology) -> (u64, u64) {
        let ports = topo.links.len() as u64;
        // (a FIFO keeps its flits as runs of one worm each, at worst one per flit)
        let fifos = ports * FlitFifo::spill_bytes(s.buffer_flits) as u64;
        // (per port and output also: its grant order's byte, an input's chunk reads (u32) and turns
        // (Cycle), and the grant tables' two words)
        let by_output = 1 + 4 + std::mem::size_of::<Cycle>() + 2 * 8;
        let per_port = std::mem::size_of::<Input>() + std::mem::size_of::<Output>() + topo.max_radix() * by_output;
        (fifos, ports * per_port as u64 + topo.routers() as u64 * std::mem::size_of::<InputFifo>() as u64)
    }

    fn new(sw: &Params, site: &Site) -> InputFifo {
        let (topo, router) = (site.topo, site.router);
        let radix = topo.radix(router);
        assert!(radix <= 64, "router radix above 64 is not supported");
        let (out_links, in_links) = links_of(topo, router, Timing::of::<Self>(sw));
        let inputs: Vec<Input> = in_links
            .into_iter()
            .map(|link| Input {
                link,
                fifo: FlitFifo::default(),
                state: InState::Idle,
                packet: 0,
                hops: 0,
                flits: 0,
                fan: 0,
                ungranted: 0,
                freed: 0,
                reads: vec![0; radix].into_boxed_slice(),
                turn: vec![0; radix].into_boxed_slice(),
            })
            .collect();
        let outputs: Vec<Output> = out_links
            .into_iter()
            .map(|link| Output { link, state: OutState::Idle, grant_order: Recency::new(radix), window_flits: 0 })
            .collect();
        InputFifo {
            chunk_flits: sw.chunk_flits,
            fifo_flits: sw.buffer_flits as usize,
            selection: site.selection(radix),
            history: site.history,
            ports: Ports::of(&inputs, &outputs),
            inputs,
            outputs,
            cands: Candidates::default(),
            requests: vec![0; radix],
            grants: vec![0; radix],
            flits: 0,
        }
    }

    #[inline(never)]
    fn flits(&self) -> u32 {
        self.flits
    }

    fn window_flits(&self, port: u8) -> u64 {
        self.outputs[port as usize].window_flits
    }

    // (out of line, as `flits`: inlined into the routers' dispatch they cost the other switches ~1%)
    #[inline(never)]
    fn accept_flit(&mut self, port: u8, _vc: u8, flit: Flit, hops: u16, _now: Cycle) -> bool {
        let input = &mut self.inputs[port as usize];
        if input.fifo.len() == self.fifo_flits {
            return false;
        }
        input.fifo.push(flit, hops);
        self.flits += 1;
        true
    }

    /// Every flit counted is in a FIFO or an output register.
    fn check_accounting(&self) -> Result<(), String> {
        if self.ports != Ports::of(&self.inputs, &self.outputs) {
            return Err(format!("port state sets {:?} do not match the ports' states", self.ports));
        }
        let fifo: u32 = self.inputs.iter().map(|i| i.fifo.len() as u32).sum();
        let registers: u32 = self
            .outputs
            .iter()
            .map(|o| match o.state {
                OutState::Reading { reg, .. } => reg.count - reg.sent,
                _ => 0,
            })
            .sum();
        if fifo + registers != self.flits {
            return Err(format!("{} flits counted but {fifo} in FIFOs and {registers} in registers", self.flits));
        }
        Ok(())
    }

    fn step(&mut self, me: u32, ctx: &mut StepCtx) {
        self.route_heads(me, ctx);
        self.grant(ctx);
        let mut moved = self.crossbar(ctx);
        self.read_chunks(ctx);
        moved += self.send_registers(ctx);
        if moved > 0 {
            ctx.counters.flit_hops += moved;
            ctx.counters.last_progress = ctx.now;
        }
    }

    fn blocked(&self, me: u32, credits: &[u32]) -> Vec<BlockedChannel> {
        self.blocked_channels(me, credits)
    }
}

impl InputFifo {
    /// Heads at the front of idle inputs are routed: a copy to one output requests it, a copy to
    /// several starts replicating.
    fn route_heads(&mut self, me: u32, ctx: &mut StepCtx) {
        for p in ones(self.ports.in_idle) {
            let input = &mut self.inputs[p];
            let Some(flit) = input.fifo.front() else { continue };
            debug_assert!(flit.head(), "an idle input's front flit is a head");
            let hops = input.fifo.front_hops();
            let header = &ctx.packets[flit.packet()].header;
            let at = At { router: me, in_port: p as u8, in_vc: 0, hops };
            input.state = match ctx.routing.step(ctx.topo, at, header, ctx.sets, &mut self.cands) {
                Step::Choose => {
                    // (a routing that chooses by the queues downstream, as the input-buffered router)
                    let (outputs, depth) = (&self.outputs, self.fifo_flits as u32);
                    ctx.routing.decide(
                        at,
                        header,
                        &mut self.cands,
                        |o| ctx.queued(outputs[o as usize].link, 1, depth),
                        |r, o| ctx.queued_at(r, o),
                    );
                    InState::Requesting(self.cands.ports())
                }
                Step::FanOut(mask) if mask.count_ones() == 1 => InState::Requesting(mask),
                Step::FanOut(mask) => {
                    input.hops = hops;
                    input.packet = flit.packet();
                    input.flits = header.flits;
                    input.fan = mask;
                    input.ungranted = mask;
                    input.freed = 0;
                    for o in ones(mask) {
                        input.reads[o] = 0;
                    }
                    InState::Replicate
                }
            };
            self.ports.input(p, input.state);
        }
    }

    /// Idle outputs grant one request each, least recently granted input first; a unicast picks
    /// among its grants, a replicating input takes every one.
    fn grant(&mut self, ctx: &mut StepCtx) {
        let wanted = |input: &Input| match input.state {
            InState::Requesting(mask) => mask,
            InState::Replicate => input.ungranted,
            _ => 0,
        };
        let asking = self.ports.in_asking;
        let requested = ones(asking).fold(0, |all, p| all | wanted(&self.inputs[p]));
        // Near saturation most heads wait for busy outputs: nothing to grant, no tables to build.
        let free = requested & !(self.ports.out_crossbar | self.ports.out_reading);
        if free == 0 {
            return;
        }
        // (scratch tables by port, kept between cycles; only the entries this cycle uses are set)
        let (mut requests, mut grants) = (std::mem::take(&mut self.requests), std::mem::take(&mut self.grants));
        for o in ones(free) {
            requests[o] = 0;
        }
        for p in ones(asking) {
            for o in ones(wanted(&self.inputs[p]) & free) {
                requests[o] |= 1 << p;
            }
        }
        let mut granted = 0u64;
        for o in ones(free) {
            let p = self.outputs[o].grant_order.least_recent(requests[o]) as usize;
            grants[p] = if granted & (1 << p) == 0 { 1 << o } else { grants[p] | 1 << o };
            granted |= 1 << p;
        }
        self.take_grants(granted, &grants, ctx);
        (self.requests, self.grants) = (requests, grants);
    }

    /// The inputs of `granted` take their grants: a unicast picks one, a replicating copy takes all.
    fn take_grants(&mut self, granted: u64, grants: &[u64], ctx: &mut StepCtx) {
        for p in ones(granted) {
            match self.inputs[p].state {
                InState::Requesting(wanted) => {
                    let flit = self.inputs[p].fifo.front().expect("a requesting input has a head");
                    let choice = selection_request(p as u8, flit, &self.selection, ctx);
                    let mut cands = Candidates::default();
                    cands.push_ports(grants[p], 0, 1);
                    let (o, _) = self.selection.choose(choice, &cands, |_, _| true).expect("a grant");
                    if records(self.history, wanted) {
                        self.selection.commit(choice, o);
                    }
                    let out = &mut self.outputs[o as usize];
                    out.grant_order.touch(p as u8);
                    out.state = OutState::Crossbar(p as u8);
                    self.inputs[p].state = InState::Crossbar(o);
                    self.ports.output(o as usize, out.state);
                    self.ports.input(p, self.inputs[p].state);
                }
                InState::Replicate => {
                    let input = &mut self.inputs[p];
                    input.ungranted &= !grants[p];
                    let reg = Register {
                        packet: input.packet,
                        flits: input.flits,
                        hops: input.hops,
                        first: 0,
                        count: 0,
                        sent: 0,
                    };
                    for o in ones(grants[p]) {
                        let out = &mut self.outputs[o];
                        out.grant_order.touch(p as u8);
                        out.state = OutState::Reading { from: p as u8, reg };
                        self.ports.output(o, out.state);
                    }
                }
                _ => unreachable!("grants go to requesting inputs"),
            }
        }
    }

    /// Crossbar connections move one flit per cycle as credits allow.
    fn crossbar(&mut self, ctx: &mut StepCtx) -> u64 {
        let mut moved = 0;
        for o in ones(self.ports.out_crossbar) {
            let OutState::Crossbar(p) = self.outputs[o].state else { unreachable!("listed as crossbar") };
            let out = &mut self.outputs[o];
            if ctx.credits(out.link, 0) == 0 {
                continue;
            }
            let input = &mut self.inputs[p as usize];
            let Some(flit) = input.fifo.pop() else { continue };
            ctx.spend_credit(out.link, 0);
            out.window_flits += ctx.measuring as u64;
            self.flits -= 1;
            moved += 1;
            ctx.send_credit(input.link, 0);
            ctx.send_flit(out.link, 0, flit, input.fifo.hops);
            if flit.tail() {
                out.state = OutState::Idle;
                input.state = InState::Idle;
                self.ports.output(o, OutState::Idle);
                self.ports.input(p as usize, InState::Idle);
            }
        }
        moved
    }

    /// Each replicating input's RAM serves one chunk read per cycle, to the least recently served of
    /// its outputs whose register is empty and whose next chunk is wholly in the FIFO. A chunk read
    /// by its last reader leaves the FIFO.
    fn read_chunks(&mut self, ctx: &mut StepCtx) {
        let c = self.chunk_flits;
        for p in ones(self.ports.in_replicate) {
            let input = &self.inputs[p];
            let wants = |o: usize| match self.outputs[o].state {
                OutState::Reading { from, reg } => {
                    from as usize == p && reg.count == reg.sent && input.chunk_ready(input.reads[o], c).is_some()
                }
                _ => false,
            };
            let Some(o) = least_served(ones(input.fan).filter(|&o| wants(o)), |o| input.turn[o]) else { continue };
            let input = &mut self.inputs[p];
            let j = input.reads[o];
            let count = input.chunk_ready(j, c).expect("ready");
            input.reads[o] += 1;
            input.turn[o] = ctx.now;
            let OutState::Reading { reg, .. } = &mut self.outputs[o].state else { unreachable!("reading") };
            (reg.first, reg.count, reg.sent) = (j * c, count, 0);
            let readers = ones(input.fan).filter(|&x| input.reads[x] > j).count() as u32;
            if readers < input.fan.count_ones() {
                // (a copy: the FIFO keeps the chunk for its other readers)
                self.flits += count;
                ctx.counters.copied_flits += count as u64;
                continue;
            }
            // The last reader: the chunk leaves the FIFO.
            for _ in 0..count {
                input.fifo.pop();
                ctx.send_credit(input.link, 0);
            }
            input.freed += 1;
            if j * c + count == input.flits {
                input.state = InState::Idle;
                input.fan = 0;
                self.ports.input(p, InState::Idle);
            }
        }
    }

    /// Outputs reading a replicated packet send one flit per cycle from their register.
    fn send_registers(&mut self, ctx: &mut StepCtx) -> u64 {
        let mut moved = 0;
        for o in ones(self.ports.out_reading) {
            let out = &mut self.outputs[o];
            let OutState::Reading { reg, .. } = &mut out.state else { unreachable!("listed as reading") };
            if reg.sent == reg.count || ctx.credits(out.link, 0) == 0 {
                continue;
            }
            let n = reg.first + reg.sent;
            let flit = Flit::new(reg.packet, n == 0, n + 1 == reg.flits);
            ctx.spend_credit(out.link, 0);
            out.window_flits += ctx.measuring as u64;
            self.flits -= 1;
            moved += 1;
            ctx.send_flit(out.link, 0, flit, reg.hops);
            if flit.tail() {
                out.state = OutState::Idle;
                self.ports.output(o, OutState::Idle);
            } else {
                reg.sent += 1;
            }
        }
        moved
    }

    fn blocked_channels(&self, me: u32, credits: &[u32]) -> Vec<BlockedChannel> {
        let mut out = Vec::new();
        for (p, input) in self.inputs.iter().enumerate() {
            if input.fifo.is_empty() {
                continue;
            }
            let reason = match input.state {
                InState::Idle => "head waiting to be routed".to_string(),
                InState::Requesting(mask) => {
                    format!("head requesting out-ports {:?}, all busy", ones(mask).collect::<Vec<_>>())
                }
                InState::Crossbar(o) if credits[self.outputs[o as usize].link.lane as usize] == 0 => {
                    format!("cutting through to out-port {o}, which has no credit")
                }
                InState::Crossbar(o) => format!("cutting through to out-port {o}, waiting for its flits"),
                InState::Replicate => format!(
                    "replicating to out-ports {:?}, not yet granted {:?}",
                    ones(input.fan).collect::<Vec<_>>(),
                    ones(input.ungranted).collect::<Vec<_>>()
                ),
            };
            out.push(BlockedChannel { router: me, in_port: p as u8, vc: 0, flits: input.fifo.len() as u32, reason });
        }
        out
    }
}
