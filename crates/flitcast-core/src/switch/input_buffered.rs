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
//!   that can move: ready, routed, an output VC held or free, a credit); each output port grants one
//!   requesting input (round robin). The crossbar moves one flit per input and per output per cycle.
//!   Routing decides candidates once per head; `Selection` picks among the free ones.

use super::{links_of, InLink, OutLink, StepCtx};
use crate::error::BlockedChannel;
use crate::packet::Flit;
use crate::routing::{At, Candidates};
use crate::scenario::{FlowControl, Scenario};
use crate::selection::Selection;
use crate::topology::{PortLink, Topology};

/// Credits of an output that feeds a terminal: terminals sink one flit per cycle without limit.
const SINK_CREDITS: u32 = u32::MAX / 2;


#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VcState {
    /// The front flit (if any) is a head that has not been routed yet.
    Idle,
    /// The front head has been routed; its candidates are cached.
    Routed,
    /// The packet at the front holds output `port`, virtual channel `vc`.
    Active { port: u8, vc: u8 },
}

/// One input virtual channel: a ring buffer of flits in `slots` plus what the allocator needs to
/// decide without touching the flits.
#[derive(Debug, Clone, Copy)]
struct InVc {
    head: u32,
    len: u32,
    state: VcState,
}

#[derive(Debug, Clone, Copy, Default)]
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
    vct: bool,
    selection: Selection,
    out_links: Vec<OutLink>,
    in_links: Vec<InLink>,
    // Per input VC (index port * vcs + vc).
    slots: Vec<Flit>,
    queues: Vec<InVc>,
    cands: Vec<Candidates>,
    // Per output VC.
    out_busy: Vec<bool>,
    credits: Vec<u32>,
    /// Bit v of `vc_mask[p]` set while input VC (p, v) holds flits; bit p of `port_mask` set while
    /// input port p holds flits — the step visits only occupied queues.
    vc_mask: Vec<u32>,
    port_mask: u64,
    // Round-robin pointers and per-cycle scratch.
    // Fixed-size per-port arrays (radix ≤ 64), indexed with `& 63` so no bounds checks remain.
    in_rr: [u8; 64],
    out_rr: [u8; 64],
    /// This cycle's request of each input port; valid where the port's bit is in some `out_mask`.
    req: [Request; 64],
    out_mask: [u64; 64],
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
        let (out_links, in_links) = links_of(topo, router, s.switch.router_delay_cycles);
        InputBuffered {
            out_links,
            in_links,
            radix,
            vcs,
            depth,
            vct: s.switch.flow_control == FlowControl::Vct,
            selection: Selection::FirstFree,
            slots: vec![Flit::new(0, false, false); radix * vcs * depth],
            queues: vec![InVc { head: 0, len: 0, state: VcState::Idle }; radix * vcs],
            cands: vec![Candidates::default(); radix * vcs],
            out_busy: vec![false; radix * vcs],
            credits,
            vc_mask: vec![0; radix],
            port_mask: 0,
            in_rr: [0; 64],
            out_rr: [0; 64],
            req: [Request::default(); 64],
            out_mask: [0; 64],
            flits: 0,
        }
    }

    #[inline]
    pub fn flits(&self) -> u32 {
        self.flits
    }

    #[inline]
    pub fn accept_flit(&mut self, port: u8, vc: u8, flit: Flit) -> bool {
        let iv = port as usize * self.vcs + vc as usize;
        let q = &mut self.queues[iv];
        let len = q.len as usize;
        if len == self.depth {
            return false;
        }
        let mut pos = q.head as usize + len;
        if pos >= self.depth {
            pos -= self.depth;
        }
        q.len += 1;
        self.slots[iv * self.depth + pos] = flit;
        self.flits += 1;
        self.vc_mask[port as usize] |= 1 << vc;
        self.port_mask |= 1 << port;
        true
    }

    #[inline]
    pub fn accept_credit(&mut self, port: u8, vc: u8) {
        self.credits[port as usize * self.vcs + vc as usize] += 1;
    }

    #[inline]
    fn front(&self, iv: usize) -> Flit {
        self.slots[iv * self.depth + self.queues[iv].head as usize]
    }

    /// The output (port, vc) the front flit of input VC `iv` would take now, if any.
    #[inline]
    fn wants(&mut self, me: u32, p: usize, v: usize, ctx: &mut StepCtx) -> Option<(u8, u8)> {
        let iv = p * self.vcs + v;
        match self.queues[iv].state {
            VcState::Active { port, vc } => {
                (self.credits[port as usize * self.vcs + vc as usize] > 0).then_some((port, vc))
            }
            state => {
                let packet = &ctx.packets[self.front(iv).packet()];
                if state == VcState::Idle {
                    let at = At { router: me, in_port: p as u8, in_vc: v as u8 };
                    ctx.routing.route(at, packet, &mut self.cands[iv]);
                    self.queues[iv].state = VcState::Routed;
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
        let radix = self.radix;
        let mut outputs = 0u64;
        // Input stage: each occupied input port offers one flit, round robin over its occupied VCs.
        let mut ports = self.port_mask;
        while ports != 0 {
            let p = ports.trailing_zeros() as usize;
            ports &= ports - 1;
            let occupied = self.vc_mask[p];
            // Occupied VCs at or after the round-robin pointer first, then the ones before it.
            let rr = self.in_rr[p & 63] as u32;
            let (mut late, mut early) = (occupied & (u32::MAX << rr), occupied & !(u32::MAX << rr));
            while late | early != 0 {
                let v = if late != 0 {
                    let v = late.trailing_zeros();
                    late &= late - 1;
                    v
                } else {
                    let v = early.trailing_zeros();
                    early &= early - 1;
                    v
                } as usize;
                if let Some((port, out_vc)) = self.wants(me, p, v, ctx) {
                    self.req[p & 63] = Request { vc: v as u8, port, out_vc };
                    self.out_mask[port as usize & 63] |= 1 << p;
                    outputs |= 1 << port;
                    break;
                }
            }
        }
        // Output stage: each requested output grants one requesting input, round robin.
        while outputs != 0 {
            let o = outputs.trailing_zeros() as usize;
            outputs &= outputs - 1;
            let o = o & 63;
            let mask = self.out_mask[o];
            self.out_mask[o] = 0;
            let from_rr = mask & (u64::MAX << self.out_rr[o]);
            let p = if from_rr != 0 { from_rr.trailing_zeros() } else { mask.trailing_zeros() } as usize;
            self.out_rr[o] = if p + 1 == radix { 0 } else { (p + 1) as u8 };
            let r = self.req[p & 63];
            self.traverse(p, r, ctx);
        }
    }

    /// Moves the front flit of input (p, r.vc) through the crossbar onto (r.port, r.out_vc).
    #[inline]
    fn traverse(&mut self, p: usize, r: Request, ctx: &mut StepCtx) {
        let iv = p * self.vcs + r.vc as usize;
        let flit = self.front(iv);
        let q = &mut self.queues[iv];
        q.head = if q.head as usize + 1 == self.depth { 0 } else { q.head + 1 };
        q.len -= 1;
        self.flits -= 1;
        if q.len == 0 {
            self.vc_mask[p] &= !(1 << r.vc);
            if self.vc_mask[p] == 0 {
                self.port_mask &= !(1 << p);
            }
        }
        self.in_rr[p & 63] = if r.vc as usize + 1 == self.vcs { 0 } else { r.vc + 1 };
        let ov = r.port as usize * self.vcs + r.out_vc as usize;
        if flit.head() {
            self.out_busy[ov] = true;
            self.queues[iv].state = VcState::Active { port: r.port, vc: r.out_vc };
        }
        if flit.tail() {
            self.out_busy[ov] = false;
            self.queues[iv].state = VcState::Idle;
        }
        self.credits[ov] -= 1;
        ctx.send_flit(self.out_links[r.port as usize], r.out_vc, flit);
        ctx.send_credit(self.in_links[p], r.vc);
    }

    pub fn blocked(&self, me: u32) -> Vec<BlockedChannel> {
        let mut out = Vec::new();
        for iv in 0..self.radix * self.vcs {
            let q = self.queues[iv];
            if q.len == 0 {
                continue;
            }
            let packet = self.front(iv).packet();
            let reason = {
                match q.state {
                    VcState::Active { port, vc } => {
                        let c = self.credits[port as usize * self.vcs + vc as usize];
                        if c == 0 {
                            format!("packet {} holds out-port {port} vc {vc}, which has no credit", packet)
                        } else {
                            format!("packet {} holds out-port {port} vc {vc}, waiting for the switch", packet)
                        }
                    }
                    _ => {
                        let want: Vec<String> = self.cands[iv]
                            .as_slice()
                            .iter()
                            .map(|c| format!("out-port {} vc {}..{}", c.port, c.vc_lo, c.vc_hi))
                            .collect();
                        format!("head of packet {} waits for a free output VC among [{}]", packet, want.join(", "))
                    }
                }
            };
            out.push(BlockedChannel {
                router: me,
                in_port: (iv / self.vcs) as u8,
                vc: (iv % self.vcs) as u8,
                flits: q.len,
                reason,
            });
        }
        out
    }
}
