//! The InfiniBand switch of study 003 (docs/models/infiniband.md, "Switch"): virtual cut-through with
//! credit flow control per virtual lane, an input and an output buffer on every port (Fig. 1: "one port
//! (including input buffer and output buffer) on each edge"), and replication of multicast packets to
//! every port of their forwarding-table entry.
//!
//! * Per input port and virtual lane (`switch.vcs` lanes) a buffer of `buffer_flits` flits, at least
//!   one whole packet (virtual cut-through: "a packet will stay in a channel (buffer) until the next
//!   required channel is free", §3); per output port and lane an output buffer of as many
//!   (`output_buffer.rs`), or none with `output_buffers = false` (the switch before them).
//! * The packet at the front of a lane is routed once (`Routing::step`): to one output, or — a
//!   multicast — to every port of its entry (the union of §3.3.2).
//! * Crossbar: an output not taking a packet takes one waiting packet, round robin over the
//!   (input, lane) pairs that want it and for which one of the output lanes the routing allows has room
//!   for the **whole packet** (VCT): room in that lane's output buffer, preferring a lane whose credits
//!   downstream cover it too; without output buffers, credits downstream. It then moves one flit per
//!   cycle into that lane's output buffer (or onto the link). A head never leaves the switch without
//!   credits downstream for all of it (tested).
//! * Each branch of a multicast advances on its own ("each copy advances when its own output and
//!   downstream credits allow"): outputs read the packet from the input lane at their own pace; a flit
//!   leaves the lane, and its credit goes upstream, once every branch has taken it. With output buffers
//!   a branch needs only room in its output buffer, so a packet leaves its input lane while another
//!   output's link is still blocked.
//! * Timing: a flit is in the lane `router_delay_cycles` after it arrives, and may cross the crossbar
//!   and leave on the link in the cycle it is taken (output buffers add room, not latency: the zero-load
//!   times are those of the switch without them).
//!
//! Flits are counted once per copy: a flit taken by a branch that is not its last makes a copy
//! (`MoveCounters::copied_flits`).

mod output_buffer;

use std::collections::VecDeque;

use super::model::{links_of, vct_unfit, worm_unfit, FlowControl, InLink, Model, OutLink, Site, StepCtx, Timing};
use crate::arbiter::RoundRobin;
use crate::bitset::ones;
use output_buffer::{OutputBuffer, Slot};

use crate::error::BlockedChannel;
use crate::facts::Facts;
use crate::packet::Flit;
use crate::params::{or_list, params, Kind, Problem};
use crate::routing;
use crate::routing::{At, Candidates, Step};
use crate::time::Cycle;
use crate::topology::Topology;

params! {
    /// The InfiniBand switch: virtual cut-through per virtual lane.
    pub struct Params {
        /// Virtual lanes per port.
        vcs: u32 = 2, range(1, 16);
        /// Buffer of each virtual lane, at least the largest packet (virtual cut-through); an output
        /// buffer's lanes hold as many.
        buffer_flits: u32 = 8, range(1, 4096), unit("flits");
        /// Cycles from a head's arrival at a switch to its departure at zero load.
        router_delay_cycles: u32 = 1, range(1, 1000), unit("cycles");
        /// Every port has an output buffer, per virtual lane switch.buffer_flits flits (study 003 Fig. 1:
        /// "one port (including input buffer and output buffer)"): a multicast's branches leave the input
        /// lane into them, each at its own pace. false: input lanes only, packets cross straight onto
        /// the links (docs/models/infiniband.md, "Output buffers").
        output_buffers: bool = true;
    }
}

impl Kind for Infiniband {
    const NAME: &'static str = "infiniband";
    const DOC: &'static str =
        "InfiniBand switch: virtual cut-through per virtual lane, input and output buffers, replicates multicasts by forwarding table (study 003)";
    type Params = Params;
}

/// One input lane: its flits and, once routed, the packet at its front and its branches.
#[derive(Debug, Clone, Default)]
struct Lane {
    slots: VecDeque<Slot>,
    /// The front packet is routed: these outputs take it (one for a unicast).
    fan: u64,
    /// Outputs of `fan` that have not started taking it.
    waiting: u64,
    /// Output lanes the routing allows, per output (a bit per lane).
    lanes: [u32; MAX_PORTS],
    /// Flits each output of `fan` has taken.
    sent: [u32; MAX_PORTS],
    /// Flits of the front packet already gone from `slots` (taken by every branch).
    freed: u32,
    flits: u32,
    packet: u32,
    hops: u16,
}

const MAX_PORTS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutState {
    Idle,
    /// Taking the front packet of input `from`'s lane `lane` into output lane `vl`.
    Taking {
        from: u8,
        lane: u8,
        vl: u8,
    },
}

#[derive(Debug, Clone)]
struct Output {
    link: OutLink,
    state: OutState,
    /// Round-robin pointer over (input, lane) pairs.
    rr: RoundRobin,
    /// The port's output buffer (none: packets cross straight onto the link).
    buffer: Option<OutputBuffer>,
    window_flits: u64,
}

#[derive(Debug, Clone)]
pub struct Infiniband {
    lanes_per_port: usize,
    depth: usize,
    inputs: Vec<(InLink, Vec<Lane>)>,
    outputs: Vec<Output>,
    cands: Candidates,
    /// Flits held, input lanes and output buffers.
    flits: u32,
    /// Bit sets over (input, lane) pairs (bit input · lanes + lane), kept in step with the lanes so
    /// that each phase visits only what concerns it: lanes holding flits, lanes whose front packet is
    /// routed, and per output the lanes waiting for it.
    occupied: u128,
    routed: u128,
    wants: [u128; MAX_PORTS],
    /// Outputs taking a packet across the crossbar.
    busy: u64,
    /// Outputs whose output buffer holds flits.
    holding: u64,
}

impl Model for Infiniband {
    fn flow_control(_: &Params) -> FlowControl {
        FlowControl::Vct
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
        "switch.vcs, switch.buffer_flits, switch.output_buffers"
    }

    /// The union of XY paths (study 003 §2).
    fn replicates_on(_: &Params) -> &'static [&'static str] {
        &["mesh"]
    }

    fn needs(_: &Params) -> &'static str {
        "at most 8 ports, and a forwarding table that gives one output per destination (study 003 §2): a routing \
         such a table can hold (`dor`, `o1` or `o4`, where each runs), and on a `hyperx` only \
         `network.parallel_links = 1` (`dor` there offers every parallel link); `switch.buffer_flits` at least the largest packet (virtual \
         cut-through), its header and a multidestination worm's included"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let mut problems = Vec::new();
        if f.radix > MAX_PORTS as u32 {
            let (key, value) = f.radix_key.clone().unwrap_or(("network.topology", format!("'{}'", f.network)));
            let allowed = "a network of switches with at most 8 ports for the InfiniBand switch";
            problems.push(Problem::new(key, value, allowed, None));
        }
        let table = "(a forwarding table gives one output per destination)";
        if !f.by_table {
            let here = routing::by_table_on(f.network);
            problems.push(if here.is_empty() {
                let networks = or_list(&routing::by_table_networks());
                let allowed = format!(
                    "{networks} with the InfiniBand switch (where some routing a forwarding table can hold runs)"
                );
                Problem::new("network.topology", format!("'{}'", f.network), allowed, None)
            } else {
                let allowed = format!("{} with the InfiniBand switch on a {} {table}", or_list(&here), f.network);
                Problem::new("routing.algorithm", format!("'{}'", f.routing), allowed, None)
            });
        }
        if let Some(links) = Some(f.parallel_links).filter(|&links| links > 1) {
            let allowed = format!("1 with the InfiniBand switch {table}");
            problems.push(Problem::new("network.parallel_links", links.to_string(), allowed, None));
        }
        problems.extend(vct_unfit(p.buffer_flits, f));
        problems.extend(worm_unfit(p.buffer_flits, f, "packet", ", for virtual cut-through"));
        problems
    }

    /// (lane buffers, everything else)
    fn bytes(s: &Params, topo: &Topology) -> (u64, u64) {
        let ports = topo.links.len() as u64;
        let sides = 1 + s.output_buffers as u64;
        let buffers = sides * ports * s.vcs as u64 * s.buffer_flits as u64 * std::mem::size_of::<Slot>() as u64;
        let per_port = s.vcs as usize * std::mem::size_of::<Lane>() + std::mem::size_of::<Output>() + 32;
        (buffers, ports * per_port as u64 + topo.routers() as u64 * std::mem::size_of::<Infiniband>() as u64)
    }

    fn new(sw: &Params, site: &Site) -> Infiniband {
        let (topo, router) = (site.topo, site.router);
        let radix = topo.radix(router);
        assert!(radix <= MAX_PORTS, "the InfiniBand switch model has at most {MAX_PORTS} ports");
        let lanes = sw.vcs as usize;
        assert!(radix * lanes <= 128, "at most 128 (port, lane) pairs");
        let (out_links, in_links) = links_of(topo, router, Timing::of::<Self>(sw));
        let buffer = || sw.output_buffers.then(|| OutputBuffer::new(lanes, sw.buffer_flits));
        Infiniband {
            lanes_per_port: lanes,
            depth: sw.buffer_flits as usize,
            inputs: in_links.into_iter().map(|l| (l, vec![Lane::default(); lanes])).collect(),
            outputs: out_links
                .into_iter()
                .map(|link| Output {
                    link,
                    state: OutState::Idle,
                    rr: RoundRobin::default(),
                    buffer: buffer(),
                    window_flits: 0,
                })
                .collect(),
            cands: Candidates::default(),
            flits: 0,
            occupied: 0,
            routed: 0,
            wants: [0; MAX_PORTS],
            busy: 0,
            holding: 0,
        }
    }

    fn flits(&self) -> u32 {
        self.flits
    }

    fn window_flits(&self, port: u8) -> u64 {
        self.outputs[port as usize].window_flits
    }

    fn accept_flit(&mut self, port: u8, vc: u8, flit: Flit, hops: u16, _now: Cycle) -> bool {
        let lane = &mut self.inputs[port as usize].1[vc as usize];
        if lane.slots.len() == self.depth {
            return false;
        }
        lane.slots.push_back(Slot { flit, hops });
        self.occupied |= 1 << (port as usize * self.lanes_per_port + vc as usize);
        self.flits += 1;
        true
    }

    /// Every flit counted is in a lane, an input's or an output buffer's, and no output buffer holds
    /// more than its depth.
    fn check_accounting(&self) -> Result<(), String> {
        let inputs: u32 = self.inputs.iter().flat_map(|(_, lanes)| lanes).map(|l| l.slots.len() as u32).sum();
        let mut outputs = 0;
        for (o, out) in self.outputs.iter().enumerate() {
            for (v, held) in out.buffer.iter().flat_map(|b| b.lane_flits()).enumerate() {
                if held as usize > self.depth {
                    return Err(format!(
                        "output buffer of port {o} lane {v} holds {held} flits, more than {}",
                        self.depth
                    ));
                }
                outputs += held;
            }
        }
        if inputs + outputs != self.flits {
            return Err(format!(
                "{} flits counted but {inputs} in input lanes and {outputs} in output buffers",
                self.flits
            ));
        }
        Ok(())
    }

    fn step(&mut self, me: u32, ctx: &mut StepCtx) {
        self.route_fronts(me, ctx);
        self.grant(ctx);
        let (taken, direct) = self.take(ctx);
        let sent = direct + self.drain(ctx);
        if taken + sent > 0 {
            ctx.counters.flit_hops += sent;
            ctx.counters.last_progress = ctx.now;
        }
    }

    fn blocked(&self, me: u32, credits: &[u32]) -> Vec<BlockedChannel> {
        self.blocked_channels(me, credits)
    }
}

impl Infiniband {
    /// The head at the front of every lane not yet routed is routed: its outputs and the output lanes
    /// each allows.
    fn route_fronts(&mut self, me: u32, ctx: &mut StepCtx) {
        let mut pending = self.occupied & !self.routed;
        while pending != 0 {
            let pair = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let (p, v) = (pair / self.lanes_per_port, pair % self.lanes_per_port);
            let lane = &mut self.inputs[p].1[v];
            let Slot { flit, hops } = *lane.slots.front().expect("an occupied lane has a front flit");
            debug_assert!(flit.head(), "an unrouted lane's front flit is a head");
            let header = &ctx.packets[flit.packet()].header;
            let at = At { router: me, in_port: p as u8, in_vc: v as u8, hops };
            let range = |(lo, hi): (u8, u8)| ((1u32 << hi) - 1) & !((1u32 << lo) - 1);
            lane.lanes = [0; MAX_PORTS];
            lane.fan = match ctx.routing.step(ctx.topo, at, header, ctx.sets, &mut self.cands) {
                Step::Choose => {
                    // (a routing that chooses by the queues downstream, as the input-buffered router)
                    let (outputs, lanes, depth) = (&self.outputs, self.lanes_per_port as u8, self.depth as u32);
                    let here = |o: u8| ctx.queued(outputs[o as usize].link, lanes, depth);
                    ctx.routing.decide(at, header, &mut self.cands, here, |r, o| ctx.queued_at(r, o));
                    // a forwarding table gives one output per destination (adaptive routing is refused)
                    debug_assert_eq!(self.cands.ports().count_ones(), 1, "one output for a unicast");
                    for c in self.cands.as_slice() {
                        lane.lanes[c.port as usize] |= range((c.vc_lo, c.vc_hi));
                    }
                    self.cands.ports()
                }
                Step::FanOut(mask) => {
                    for o in ones(mask) {
                        lane.lanes[o] = range(ctx.routing.fan_out_vcs(o as u8));
                    }
                    mask
                }
            };
            lane.waiting = lane.fan;
            lane.sent = [0; MAX_PORTS];
            (lane.freed, lane.flits, lane.packet, lane.hops) = (0, header.flits, flit.packet(), hops);
            for o in ones(lane.fan) {
                self.wants[o] |= 1 << pair;
            }
            self.routed |= 1 << pair;
        }
    }

    /// Outputs not taking a packet take a waiting one with room for all of it in one of its output
    /// lanes, round robin.
    fn grant(&mut self, ctx: &mut StepCtx) {
        let lanes = self.lanes_per_port;
        let pairs = self.inputs.len() * lanes;
        for o in 0..self.outputs.len() {
            if self.busy & (1 << o) != 0 || self.wants[o] == 0 {
                continue;
            }
            let out = &self.outputs[o];
            let found = out.rr.order_wide(self.wants[o]).find_map(|pair| {
                let lane = &self.inputs[pair / lanes].1[pair % lanes];
                let allowed = || ones(lane.lanes[o] as u64);
                // (virtual cut-through: room for the whole packet; an ejection link always has credits)
                let clear = |w: usize, ahead: u32| ctx.credits(out.link, w as u8) >= ahead + lane.flits;
                let vl = match &out.buffer {
                    None => allowed().find(|&w| clear(w, 0)),
                    Some(buf) => {
                        let fits = |w: usize| buf.room(w) >= lane.flits;
                        allowed()
                            .find(|&w| fits(w) && clear(w, buf.promised(w)))
                            .or_else(|| allowed().find(|&w| fits(w)))
                    }
                }?;
                Some((pair, vl))
            });
            let Some((pair, vl)) = found else { continue };
            let lane = &mut self.inputs[pair / lanes].1[pair % lanes];
            lane.waiting &= !(1 << o);
            self.wants[o] &= !(1 << pair);
            self.busy |= 1 << o;
            let out = &mut self.outputs[o];
            if let Some(buf) = &mut out.buffer {
                buf.promise(vl, lane.flits);
            }
            out.state = OutState::Taking { from: (pair / lanes) as u8, lane: (pair % lanes) as u8, vl: vl as u8 };
            out.rr.served(pair, pairs);
        }
    }

    /// Every output taking a packet moves its next flit across the crossbar, into its output buffer or
    /// (without one) onto its link; flits every branch has taken leave their input lane. Returns the
    /// flits taken and those of them sent onto links.
    fn take(&mut self, ctx: &mut StepCtx) -> (u64, u64) {
        let (mut taken, mut sent) = (0, 0);
        for o in ones(self.busy) {
            let OutState::Taking { from, lane: v, vl } = self.outputs[o].state else { unreachable!("busy") };
            let (in_link, lanes) = &mut self.inputs[from as usize];
            let lane = &mut lanes[v as usize];
            let n = lane.sent[o];
            let Some(&Slot { flit, .. }) = lane.slots.get((n - lane.freed) as usize) else { continue };
            let out = &mut self.outputs[o];
            match &mut out.buffer {
                Some(buf) => {
                    buf.push(vl as usize, Slot { flit, hops: lane.hops });
                    self.flits += 1;
                    self.holding |= 1 << o;
                }
                None => {
                    ctx.spend_credit(out.link, vl);
                    out.window_flits += ctx.measuring as u64;
                    ctx.send_flit(out.link, vl, flit, lane.hops);
                    sent += 1;
                }
            }
            taken += 1;
            lane.sent[o] = n + 1;
            if flit.tail() {
                out.state = OutState::Idle;
                self.busy &= !(1 << o);
            }
            // The flit leaves the lane with its last branch; before that, this branch made a copy.
            let last = lane.waiting == 0 && ones(lane.fan).all(|b| lane.sent[b] > n);
            if !last {
                ctx.counters.copied_flits += 1;
                continue;
            }
            lane.slots.pop_front();
            lane.freed += 1;
            self.flits -= 1;
            ctx.send_credit(*in_link, v);
            if flit.tail() {
                lane.fan = 0; // the next packet's head is routed next cycle
                let pair = from as usize * self.lanes_per_port + v as usize;
                self.routed &= !(1 << pair);
                if lane.slots.is_empty() {
                    self.occupied &= !(1 << pair);
                }
            }
        }
        (taken, sent)
    }

    /// Every output buffer holding flits sends one onto its link, if its lane arbitration and the
    /// credits downstream allow. Returns the flits sent.
    fn drain(&mut self, ctx: &mut StepCtx) -> u64 {
        let mut sent = 0;
        for o in ones(self.holding) {
            let out = &mut self.outputs[o];
            let buf = out.buffer.as_mut().expect("only outputs with a buffer hold flits");
            if buf.send(out.link, ctx) {
                sent += 1;
                self.flits -= 1;
                out.window_flits += ctx.measuring as u64;
            }
            if buf.held() == 0 {
                self.holding &= !(1 << o);
            }
        }
        sent
    }

    fn blocked_channels(&self, me: u32, credits: &[u32]) -> Vec<BlockedChannel> {
        let mut out = Vec::new();
        for (p, (_, lanes)) in self.inputs.iter().enumerate() {
            for (v, lane) in lanes.iter().enumerate() {
                if lane.slots.is_empty() {
                    continue;
                }
                let reason = if lane.waiting != 0 {
                    let room: Vec<String> = ones(lane.waiting)
                        .map(|o| {
                            let output = &self.outputs[o];
                            let free: Vec<u32> = ones(lane.lanes[o] as u64)
                                .map(|w| match &output.buffer {
                                    Some(buf) => buf.room(w),
                                    None => credits[(output.link.lane + w as u32) as usize],
                                })
                                .collect();
                            let what = if output.buffer.is_some() { "output-buffer room" } else { "credits" };
                            format!("out-port {o} ({what} per allowed lane {free:?}, needs {})", lane.flits)
                        })
                        .collect();
                    format!("packet {} waits for {}", lane.packet, room.join(", "))
                } else {
                    format!("packet {} is being sent", lane.packet)
                };
                out.push(BlockedChannel {
                    router: me,
                    in_port: p as u8,
                    vc: v as u8,
                    flits: lane.slots.len() as u32,
                    reason,
                });
            }
        }
        for (o, output) in self.outputs.iter().enumerate() {
            if let Some(buf) = &output.buffer {
                out.extend(buf.blocked(me, o as u8, output.link, credits));
            }
        }
        out
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::credits::Lanes;
    use crate::dest_set::Pending;
    use crate::packet::{Dest, Header, Packet};
    use crate::scenario::Scenario;
    use crate::switch::{Alone, SwitchKind};

    /// Router 5, (1, 1), of a 4×4 mesh of InfiniBand switches with `vcs` lanes of 16 flits, with or
    /// without output buffers, and everything it is stepped with; multicast routing on.
    fn switch_5(vcs: u32, output_buffers: bool) -> (Infiniband, Alone, Lanes) {
        let s = Scenario::of(serde_json::json!({
            "network": {"k": 4},
            "switch": {"model": "infiniband", "vcs": vcs, "buffer_flits": 16, "output_buffers": output_buffers},
            "workload": {"program": "hardware_multicast", "packet_flits": 16},
        }));
        let topo = s.topology().unwrap();
        let routing = s.routing(&topo).unwrap();
        let site = Site { router: 5, ..s.switch_site(&topo, &routing) };
        let SwitchKind::Infiniband(params) = &s.switch.model else { unreachable!() };
        let sw = Infiniband::new(params, &site);
        let lanes = Lanes::new(&topo, vcs);
        let alone = Alone::new(topo.clone(), routing, lanes.initial(&topo, 16));
        (sw, alone, lanes)
    }

    /// A 16-flit packet from terminal `src` to `dests` arrives whole on input port 1 (from −x), lane
    /// `vc`.
    fn arrive(sw: &mut Infiniband, alone: &mut Alone, src: u32, dests: &[u32], vc: u8) -> u32 {
        let (dest, pending) = match dests {
            [one] => (Dest::One(*one), Pending::one(*one)),
            many => (Dest::Set(alone.sets.insert(many.iter().copied())), Pending::new(many, &mut alone.sets)),
        };
        let p = alone.packets.insert(Packet::new(Header::new(src, dest, 0, 16, 0, false, 0), pending, 0));
        for i in 0..16 {
            assert!(sw.accept_flit(1, vc, Flit::new(p, i == 0, i == 15), 1, 0));
        }
        p
    }

    /// Flits held in the switch's input lanes.
    fn in_inputs(sw: &Infiniband) -> u32 {
        sw.inputs.iter().flat_map(|(_, lanes)| lanes).map(|l| l.slots.len() as u32).sum()
    }

    /// A 16-flit packet at an input of a mesh switch waits while its output lane has room for 15
    /// flits, and leaves once it has room for 16: virtual cut-through, never a head without room for
    /// the whole packet — with output buffers (it waits in one) and without.
    #[test]
    fn a_head_waits_for_credits_for_its_whole_packet() {
        for output_buffers in [true, false] {
            let (mut sw, mut alone, lanes) = switch_5(1, output_buffers);
            let east = lanes.router_output(&alone.topo, 5, 0) as usize; // terminal 7, (3, 1), is east
            alone.credits[east] = 15;
            arrive(&mut sw, &mut alone, 4, &[7], 0);
            for now in 0..40 {
                if now == 20 {
                    alone.credits[east] = 16;
                }
                alone.cycle(now, |ctx| sw.step(5, ctx));
                if now < 20 {
                    assert_eq!(sw.flits(), 16, "cycle {now}: the head left with room for 15 of 16 flits");
                }
                sw.check_accounting().unwrap();
            }
            assert_eq!(sw.flits(), 0, "the packet left once the lane had room for all of it");
            assert_eq!(alone.credits[east], 0);
        }
    }

    /// A multicast from terminal 4, (0, 1), to 7, (3, 1), and 13, (1, 3), fans out at (1, 1) to +x
    /// (port 0) and +y (port 2). With +x blocked downstream, the +y branch goes on; with output buffers
    /// the +x branch leaves the input lane into its output buffer too, so the lane empties and returns
    /// every credit upstream while +x is still blocked. Without them the blocked branch holds the whole
    /// packet in the input lane (the switch before: "2 shared lanes slower than 1", docs/experiments.md).
    #[test]
    fn a_multicast_branch_leaves_the_input_lane_while_another_is_blocked() {
        for output_buffers in [true, false] {
            let (mut sw, mut alone, lanes) = switch_5(1, output_buffers);
            let (east, north) =
                (lanes.router_output(&alone.topo, 5, 0) as usize, lanes.router_output(&alone.topo, 5, 2) as usize);
            let upstream = lanes.router_output(&alone.topo, 4, 0) as usize; // router 4's +x feeds port 1
            alone.credits[east] = 0;
            alone.credits[upstream] = 0;
            arrive(&mut sw, &mut alone, 4, &[7, 13], 0);
            for now in 0..40 {
                alone.cycle(now, |ctx| sw.step(5, ctx));
                sw.check_accounting().unwrap();
            }
            assert_eq!(alone.credits[north], 0, "the +y branch sent its whole copy");
            if output_buffers {
                assert_eq!(in_inputs(&sw), 0, "the input lane is empty");
                assert_eq!(alone.credits[upstream], 16, "every credit went back upstream");
                assert_eq!(sw.flits(), 16, "the +x copy waits in its output buffer");
                assert_eq!(alone.counters.copied_flits, 16, "one copy made of each flit");
            } else {
                assert_eq!(in_inputs(&sw), 16, "the blocked branch holds the input lane");
                assert_eq!(alone.credits[upstream], 0, "no credit went back");
            }
            alone.credits[east] = 16;
            for now in 40..80 {
                alone.cycle(now, |ctx| sw.step(5, ctx));
            }
            assert_eq!((sw.flits(), alone.credits[east], alone.credits[upstream]), (0, 0, 16), "then +x sent it");
        }
    }

    /// An output buffer's lane takes a packet only with room for all of it: with +x blocked downstream,
    /// a second packet for +x in another input lane stays there while the first fills the output lane
    /// (one packet of 16 flits), and follows once the first has left.
    #[test]
    fn an_output_buffer_never_takes_more_than_it_has_room_for() {
        let (mut sw, mut alone, lanes) = switch_5(2, true);
        let east = lanes.router_output(&alone.topo, 5, 0) as usize;
        for vl in 0..2 {
            alone.credits[east + vl] = 0;
        }
        arrive(&mut sw, &mut alone, 4, &[7], 0);
        arrive(&mut sw, &mut alone, 4, &[6], 1);
        for now in 0..40 {
            alone.cycle(now, |ctx| sw.step(5, ctx));
            sw.check_accounting().unwrap();
        }
        // two output lanes of one packet each: both packets wait in the output buffer, none in the inputs
        assert_eq!((in_inputs(&sw), sw.flits()), (0, 32));
        arrive(&mut sw, &mut alone, 4, &[6], 0);
        for now in 40..80 {
            alone.cycle(now, |ctx| sw.step(5, ctx));
            sw.check_accounting().unwrap();
        }
        assert_eq!(in_inputs(&sw), 16, "a third packet finds no output lane with room for it");
        alone.credits[east] = 16;
        for now in 80..140 {
            alone.cycle(now, |ctx| sw.step(5, ctx));
            sw.check_accounting().unwrap();
        }
        assert_eq!(alone.credits[east], 0, "the first packet left on lane 0");
        assert_eq!((in_inputs(&sw), sw.flits()), (0, 32), "and the third took its place in the output buffer");
    }

    /// With two lanes the packet takes an output lane whose credits downstream cover it, though a lower
    /// one has room in the output buffer: it leaves at once instead of waiting behind a full lane.
    #[test]
    fn a_packet_prefers_an_output_lane_it_can_leave_by() {
        let (mut sw, mut alone, lanes) = switch_5(2, true);
        let east = lanes.router_output(&alone.topo, 5, 0) as usize;
        alone.credits[east] = 0;
        arrive(&mut sw, &mut alone, 4, &[7], 0);
        for now in 0..20 {
            alone.cycle(now, |ctx| sw.step(5, ctx));
        }
        assert_eq!((sw.flits(), alone.credits[east + 1]), (0, 0), "it left on lane 1");
    }
}
