//! The InfiniBand switch of study 003 (docs/models/infiniband.md, "Switch"): virtual cut-through with
//! credit flow control per virtual lane, and replication of multicast packets to every port of their
//! forwarding-table entry.
//!
//! * Per input port and virtual lane (`switch.vcs` lanes) a buffer of `buffer_flits` flits, at least
//!   one whole packet (virtual cut-through: "a packet will stay in a channel (buffer) until the next
//!   required channel is free", §3).
//! * The packet at the front of a lane is routed once (`Routing::step`): to one output, or — a
//!   multicast — to every port of its entry (the union of §3.3.2).
//! * An idle output takes one waiting packet, round robin over the (input, lane) pairs that want it
//!   and for which one of the output lanes the routing allows has credits for the **whole packet**
//!   downstream (VCT); it then owns that output lane and sends one flit per cycle. A packet's head never
//!   leaves without credits for all of it (tested).
//! * Each branch of a multicast advances on its own ("each copy advances when its own output and
//!   downstream credits allow"): outputs read the packet from the input lane at their own pace; a flit
//!   leaves the lane, and its credit goes upstream, once every branch has sent it.
//! * Timing: a flit is in the lane `router_delay_cycles` after it arrives and leaves the chip in the
//!   cycle it is sent (as the input-buffered router).
//!
//! Flits are counted once per copy: a flit sent by a branch that is not its last makes a copy
//! (`MoveCounters::copied_flits`).

use std::collections::VecDeque;

use super::model::{links_of, FlowControl, InLink, Model, OutLink, Site, StepCtx, Timing};
use crate::arbiter::RoundRobin;
use crate::bitset::ones;

use crate::error::BlockedChannel;
use crate::packet::Flit;
use crate::params::{params, Kind};
use crate::routing::{At, Candidates, Step};
use crate::time::Cycle;
use crate::topology::Topology;

params! {
    /// The InfiniBand switch: virtual cut-through per virtual lane.
    pub struct Params {
        /// Virtual lanes per port.
        vcs: u32 = 2, range(1, 16);
        /// Buffer of each virtual lane, at least the largest packet (virtual cut-through).
        buffer_flits: u32 = 8, range(1, 4096), unit("flits");
        /// Cycles from a head's arrival at a switch to its departure at zero load.
        router_delay_cycles: u32 = 1, range(1, 1000), unit("cycles");
    }
}

impl Kind for Infiniband {
    const NAME: &'static str = "infiniband";
    const DOC: &'static str =
        "InfiniBand switch: virtual cut-through per virtual lane, replicates multicasts by forwarding table (study 003)";
    type Params = Params;
}

/// A buffered flit and the hops its copy had made on arriving.
#[derive(Debug, Clone, Copy)]
struct Slot {
    flit: Flit,
    hops: u16,
}

/// One input lane: its flits and, once routed, the packet at its front and its branches.
#[derive(Debug, Clone, Default)]
struct Lane {
    slots: VecDeque<Slot>,
    /// The front packet is routed: these outputs take it (one for a unicast).
    fan: u64,
    /// Outputs of `fan` that have not started sending it.
    waiting: u64,
    /// Output lanes the routing allows, per output (a bit per lane).
    lanes: [u32; MAX_PORTS],
    /// Flits each output of `fan` has sent.
    sent: [u32; MAX_PORTS],
    /// Flits of the front packet already gone from `slots` (sent by every branch).
    freed: u32,
    flits: u32,
    packet: u32,
    hops: u16,
}

const MAX_PORTS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutState {
    Idle,
    /// Sending the front packet of input `from`'s lane `lane` on output lane `vl`.
    Sending {
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
    window_flits: u64,
}

#[derive(Debug, Clone)]
pub struct Infiniband {
    lanes_per_port: usize,
    depth: usize,
    inputs: Vec<(InLink, Vec<Lane>)>,
    outputs: Vec<Output>,
    cands: Candidates,
    flits: u32,
    /// Bit sets over (input, lane) pairs (bit input · lanes + lane), kept in step with the lanes so
    /// that each phase visits only what concerns it: lanes holding flits, lanes whose front packet is
    /// routed, and per output the lanes waiting for it.
    occupied: u128,
    routed: u128,
    wants: [u128; MAX_PORTS],
    /// Outputs sending.
    busy: u64,
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
        "network.k, network.n, switch.vcs, switch.buffer_flits"
    }

    /// (lane buffers, everything else)
    fn bytes(s: &Params, topo: &Topology) -> (u64, u64) {
        let ports = topo.links.len() as u64;
        let buffers = ports * s.vcs as u64 * s.buffer_flits as u64 * std::mem::size_of::<Slot>() as u64;
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
        Infiniband {
            lanes_per_port: lanes,
            depth: sw.buffer_flits as usize,
            inputs: in_links.into_iter().map(|l| (l, vec![Lane::default(); lanes])).collect(),
            outputs: out_links
                .into_iter()
                .map(|link| Output { link, state: OutState::Idle, rr: RoundRobin::default(), window_flits: 0 })
                .collect(),
            cands: Candidates::default(),
            flits: 0,
            occupied: 0,
            routed: 0,
            wants: [0; MAX_PORTS],
            busy: 0,
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

    /// Every flit counted is in a lane.
    fn check_accounting(&self) -> Result<(), String> {
        let held: u32 = self.inputs.iter().flat_map(|(_, lanes)| lanes).map(|l| l.slots.len() as u32).sum();
        if held != self.flits {
            return Err(format!("{} flits counted but {held} in lanes", self.flits));
        }
        Ok(())
    }

    fn step(&mut self, me: u32, ctx: &mut StepCtx) {
        self.route_fronts(me, ctx);
        self.grant(ctx);
        let moved = self.send(ctx);
        if moved > 0 {
            ctx.counters.flit_hops += moved;
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

    /// Idle outputs take a waiting packet with credits downstream for all of it, round robin.
    fn grant(&mut self, ctx: &mut StepCtx) {
        let lanes = self.lanes_per_port;
        let pairs = self.inputs.len() * lanes;
        for o in 0..self.outputs.len() {
            if self.busy & (1 << o) != 0 || self.wants[o] == 0 {
                continue;
            }
            let link = self.outputs[o].link;
            let found = self.outputs[o].rr.order_wide(self.wants[o]).find_map(|pair| {
                let lane = &self.inputs[pair / lanes].1[pair % lanes];
                // (virtual cut-through: room downstream for the whole packet; an ejection link always has it)
                let vl = ones(lane.lanes[o] as u64).find(|&w| ctx.credits(link, w as u8) >= lane.flits)?;
                Some((pair, vl))
            });
            let Some((pair, vl)) = found else { continue };
            self.inputs[pair / lanes].1[pair % lanes].waiting &= !(1 << o);
            self.wants[o] &= !(1 << pair);
            self.busy |= 1 << o;
            let out = &mut self.outputs[o];
            out.state = OutState::Sending { from: (pair / lanes) as u8, lane: (pair % lanes) as u8, vl: vl as u8 };
            out.rr.served(pair, pairs);
        }
    }

    /// Every sending output moves its next flit; flits every branch has sent leave their lane.
    fn send(&mut self, ctx: &mut StepCtx) -> u64 {
        let mut moved = 0;
        for o in ones(self.busy) {
            let OutState::Sending { from, lane: v, vl } = self.outputs[o].state else { unreachable!("busy") };
            let (in_link, lanes) = &mut self.inputs[from as usize];
            let lane = &mut lanes[v as usize];
            let n = lane.sent[o];
            let Some(&Slot { flit, .. }) = lane.slots.get((n - lane.freed) as usize) else { continue };
            let out = &mut self.outputs[o];
            ctx.spend_credit(out.link, vl);
            out.window_flits += ctx.measuring as u64;
            ctx.send_flit(out.link, vl, flit, lane.hops);
            moved += 1;
            lane.sent[o] = n + 1;
            if flit.tail() {
                out.state = OutState::Idle;
                self.busy &= !(1 << o);
            }
            // The flit leaves the lane with its last branch; before that, this send was a copy.
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
        moved
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
                            let link = self.outputs[o].link;
                            let free: Vec<u32> =
                                ones(lane.lanes[o] as u64).map(|w| credits[(link.lane + w as u32) as usize]).collect();
                            format!("out-port {o} (credits per allowed lane {free:?}, needs {})", lane.flits)
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
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::credits::Lanes;
    use crate::packet::{Dest, Header, Packet};
    use crate::scenario::Scenario;
    use crate::switch::{Alone, SwitchKind};

    /// A 16-flit packet at an input of a mesh switch waits while its output lane has room for 15
    /// flits, and leaves once it has room for 16: virtual cut-through, never a head without room for
    /// the whole packet.
    #[test]
    fn a_head_waits_for_credits_for_its_whole_packet() {
        let s = Scenario::of(serde_json::json!({
            "network": {"k": 4},
            "switch": {"model": "infiniband", "vcs": 1, "buffer_flits": 16},
        }));
        let topo = s.topology().unwrap();
        let routing = s.routing(&topo).unwrap();
        let me = 5; // (1, 1): a packet for terminal 7, (3, 1), leaves by +x (port 0)
        let site = Site { router: me, ..s.switch_site(&topo, &routing) };
        let SwitchKind::Infiniband(params) = &s.switch.model else { unreachable!() };
        let mut sw = Infiniband::new(params, &site);
        let lanes = Lanes::new(&topo, 1);
        let east = lanes.router_output(&topo, me, 0) as usize;
        let mut alone = Alone::new(topo.clone(), routing, lanes.initial(&topo, 16));
        alone.credits[east] = 15;
        let p = alone.packets.insert(Packet::unicast(Header::new(4, Dest::One(7), 0, 16, 0, false, 0)));
        for i in 0..16 {
            assert!(sw.accept_flit(1, 0, Flit::new(p, i == 0, i == 15), 1, 0));
        }
        for now in 0..40 {
            if now == 20 {
                alone.credits[east] = 16;
            }
            alone.cycle(now, |ctx| sw.step(me, ctx));
            if now < 20 {
                assert_eq!(sw.flits(), 16, "cycle {now}: the head left with room for 15 of 16 flits");
            }
        }
        assert_eq!(sw.flits(), 0, "the packet left once the lane had room for all of it");
        assert_eq!(alone.credits[east], 0);
    }
}
