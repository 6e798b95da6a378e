//! Input-buffered virtual-channel router (Dally & Towles ch. 16–19; the "input buffering" switch
//! family of study 000 §5 without multicast replication).
//!
//! * Per input port, `vcs` FIFOs of `buffer_flits` flits each; credit-based flow control per VC.
//! * Wormhole: a head takes an output VC that is not owned by another packet and has a free slot.
//!   Virtual cut-through: the output VC must also have room for the whole packet, so a packet never
//!   blocks across two routers. An output VC is owned from head to tail.
//! * Timing: a flit that arrives at cycle a may leave on its output channel at cycle a +
//!   `router_delay_cycles` at the earliest (the whole pipeline: route, VC and switch allocation,
//!   crossbar). Zero-load latency per router is therefore delay + channel latency.
//! * Allocation: separable, input-first. Each input port offers one flit (round robin over its VCs
//!   that can move: ready, routed, an output VC held or free, a credit); each output port grants one
//!   requesting input (round robin). The crossbar moves one flit per input and per output per cycle.
//!   Routing decides candidates once per head; `Selection` picks among the free ones.

use super::StepCtx;
use crate::error::BlockedChannel;
use crate::packet::Flit;
use crate::routing::{At, Candidates};
use crate::scenario::{FlowControl, Scenario};
use crate::selection::Selection;
use crate::topology::{PortLink, Topology};
use crate::Cycle;

/// Credits of an output that feeds a terminal: terminals sink one flit per cycle without limit.
const SINK_CREDITS: u32 = u32::MAX / 2;

#[derive(Debug, Clone, Copy)]
struct Slot {
    flit: Flit,
    ready: Cycle,
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

#[derive(Debug, Clone, Copy)]
struct Request {
    vc: u8,
    port: u8,
    out_vc: u8,
}

#[derive(Debug, Clone)]
pub struct InputBuffered {
    radix: usize,
    vcs: usize,
    depth: usize,
    delay: Cycle,
    vct: bool,
    selection: Selection,
    // Per input VC (index port * vcs + vc).
    slots: Vec<Slot>,
    head: Vec<u32>,
    len: Vec<u32>,
    state: Vec<VcState>,
    cands: Vec<Candidates>,
    // Per output VC.
    out_busy: Vec<bool>,
    credits: Vec<u32>,
    // Round-robin pointers and per-cycle scratch.
    in_rr: Vec<u8>,
    out_rr: Vec<u8>,
    req: Vec<Option<Request>>,
    out_mask: Vec<u64>,
    flits: u32,
}

impl InputBuffered {
    pub fn new(s: &Scenario, topo: &Topology, router: u32) -> InputBuffered {
        let radix = topo.radix(router);
        assert!(radix <= 64, "router radix above 64 is not supported");
        let vcs = s.switch.vcs as usize;
        let depth = s.switch.buffer_flits as usize;
        let credits = (0..radix * vcs)
            .map(|ov| match topo.link(router, (ov / vcs) as u8) {
                PortLink::Router { .. } => depth as u32,
                PortLink::Terminal { .. } => SINK_CREDITS,
                PortLink::Unused => 0,
            })
            .collect();
        InputBuffered {
            radix,
            vcs,
            depth,
            delay: s.switch.router_delay_cycles as Cycle,
            vct: s.switch.flow_control == FlowControl::Vct,
            selection: Selection::FirstFree,
            slots: vec![Slot { flit: Flit { packet: 0, head: false, tail: false }, ready: 0 }; radix * vcs * depth],
            head: vec![0; radix * vcs],
            len: vec![0; radix * vcs],
            state: vec![VcState::Idle; radix * vcs],
            cands: vec![Candidates::default(); radix * vcs],
            out_busy: vec![false; radix * vcs],
            credits,
            in_rr: vec![0; radix],
            out_rr: vec![0; radix],
            req: vec![None; radix],
            out_mask: vec![0; radix],
            flits: 0,
        }
    }

    #[inline]
    pub fn flits(&self) -> u32 {
        self.flits
    }

    #[inline]
    pub fn accept_flit(&mut self, now: Cycle, port: u8, vc: u8, flit: Flit) -> bool {
        let iv = port as usize * self.vcs + vc as usize;
        let len = self.len[iv] as usize;
        if len == self.depth {
            return false;
        }
        let pos = (self.head[iv] as usize + len) % self.depth;
        self.slots[iv * self.depth + pos] = Slot { flit, ready: now + self.delay };
        self.len[iv] += 1;
        self.flits += 1;
        true
    }

    #[inline]
    pub fn accept_credit(&mut self, port: u8, vc: u8) {
        self.credits[port as usize * self.vcs + vc as usize] += 1;
    }

    #[inline]
    fn front(&self, iv: usize) -> Slot {
        self.slots[iv * self.depth + self.head[iv] as usize]
    }

    /// The output (port, vc) the front flit of input VC `iv` would take now, if any.
    #[inline]
    fn wants(&mut self, me: u32, p: usize, v: usize, ctx: &mut StepCtx) -> Option<(u8, u8)> {
        let iv = p * self.vcs + v;
        let slot = self.front(iv);
        if slot.ready > ctx.now {
            return None;
        }
        match self.state[iv] {
            VcState::Active { port, vc } => {
                (self.credits[port as usize * self.vcs + vc as usize] > 0).then_some((port, vc))
            }
            state => {
                let packet = &ctx.packets[slot.flit.packet];
                if state == VcState::Idle {
                    let at = At { router: me, in_port: p as u8, in_vc: v as u8 };
                    ctx.routing.route(at, packet, &mut self.cands[iv]);
                    self.state[iv] = VcState::Routed;
                }
                let need = if self.vct { packet.flits } else { 1 };
                let (vcs, busy, credits) = (self.vcs, &self.out_busy, &self.credits);
                self.selection.pick(&self.cands[iv], |o, w| {
                    let ov = o as usize * vcs + w as usize;
                    !busy[ov] && credits[ov] >= need
                })
            }
        }
    }

    pub fn step(&mut self, me: u32, ctx: &mut StepCtx) {
        if self.flits == 0 {
            return;
        }
        let (radix, vcs) = (self.radix, self.vcs);
        let mut any = false;
        // Input stage: each input port offers one flit, round robin over its VCs.
        for p in 0..radix {
            self.req[p] = None;
            let start = self.in_rr[p] as usize;
            for i in 0..vcs {
                let v = if start + i >= vcs { start + i - vcs } else { start + i };
                if self.len[p * vcs + v] == 0 {
                    continue;
                }
                if let Some((port, out_vc)) = self.wants(me, p, v, ctx) {
                    self.req[p] = Some(Request { vc: v as u8, port, out_vc });
                    self.out_mask[port as usize] |= 1 << p;
                    any = true;
                    break;
                }
            }
        }
        if !any {
            return;
        }
        // Output stage: each output grants one requesting input, round robin.
        for o in 0..radix {
            let mask = self.out_mask[o];
            if mask == 0 {
                continue;
            }
            self.out_mask[o] = 0;
            let from_rr = mask & (u64::MAX << self.out_rr[o]);
            let p = if from_rr != 0 { from_rr.trailing_zeros() } else { mask.trailing_zeros() } as usize;
            self.out_rr[o] = ((p + 1) % radix) as u8;
            let r = self.req[p].expect("granted input has a request");
            self.traverse(me, p, r, ctx);
        }
    }

    /// Moves the front flit of input (p, r.vc) through the crossbar onto (r.port, r.out_vc).
    #[inline]
    fn traverse(&mut self, me: u32, p: usize, r: Request, ctx: &mut StepCtx) {
        let iv = p * self.vcs + r.vc as usize;
        let flit = self.front(iv).flit;
        self.head[iv] = ((self.head[iv] as usize + 1) % self.depth) as u32;
        self.len[iv] -= 1;
        self.flits -= 1;
        self.in_rr[p] = ((r.vc as usize + 1) % self.vcs) as u8;
        let ov = r.port as usize * self.vcs + r.out_vc as usize;
        if flit.head {
            self.out_busy[ov] = true;
            self.state[iv] = VcState::Active { port: r.port, vc: r.out_vc };
        }
        if flit.tail {
            self.out_busy[ov] = false;
            self.state[iv] = VcState::Idle;
        }
        self.credits[ov] -= 1;
        ctx.send_flit(me, r.port, r.out_vc, flit);
        ctx.send_credit(me, p as u8, r.vc);
    }

    pub fn blocked(&self, me: u32, now: Cycle) -> Vec<BlockedChannel> {
        let mut out = Vec::new();
        for iv in 0..self.radix * self.vcs {
            if self.len[iv] == 0 {
                continue;
            }
            let slot = self.front(iv);
            let reason = if slot.ready > now {
                "in the router pipeline".to_string()
            } else {
                match self.state[iv] {
                    VcState::Active { port, vc } => {
                        let c = self.credits[port as usize * self.vcs + vc as usize];
                        if c == 0 {
                            format!("packet {} holds out-port {port} vc {vc}, which has no credit", slot.flit.packet)
                        } else {
                            format!("packet {} holds out-port {port} vc {vc}, waiting for the switch", slot.flit.packet)
                        }
                    }
                    _ => {
                        let want: Vec<String> = self.cands[iv]
                            .as_slice()
                            .iter()
                            .map(|c| format!("out-port {} vc {}..{}", c.port, c.vc_lo, c.vc_hi))
                            .collect();
                        format!("head of packet {} waits for a free output VC among [{}]", slot.flit.packet, want.join(", "))
                    }
                }
            };
            out.push(BlockedChannel {
                router: me,
                in_port: (iv / self.vcs) as u8,
                vc: (iv % self.vcs) as u8,
                flits: self.len[iv],
                reason,
            });
        }
        out
    }
}
