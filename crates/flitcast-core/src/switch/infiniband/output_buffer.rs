//! The output buffer of an InfiniBand switch port (docs/models/infiniband.md, "Output buffers"): study
//! 003's Fig. 1 draws "one port (including input buffer and output buffer) on each edge". Per virtual
//! lane a buffer of `depth` flits, filled across the crossbar and drained onto the port's link.
//!
//! * A packet crosses into a lane only if the lane has room for all of it (virtual cut-through inside
//!   the switch): [`OutputBuffer::room`] counts the flits promised to packets still crossing.
//! * The link sends one packet at a time, one flit per cycle; the lanes whose front packet may leave
//!   are served round robin, packet by packet (InfiniBand arbitrates lanes per packet). A head leaves
//!   only with credits downstream for its whole packet, and a flit leaves as soon as it is in the
//!   buffer: a packet may leave while its tail is still crossing (cut-through).

use std::collections::VecDeque;

use crate::arbiter::RoundRobin;
use crate::error::BlockedChannel;
use crate::packet::Flit;
use crate::switch::model::{OutLink, StepCtx};

/// A buffered flit and the hops its copy had made on arriving at the switch.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    pub flit: Flit,
    pub hops: u16,
}

/// One lane of an output buffer.
#[derive(Debug, Clone, Default)]
struct Lane {
    slots: VecDeque<Slot>,
    /// Flits of each packet that has started crossing into this lane and not left, oldest first.
    packets: VecDeque<u32>,
    /// Their sum less the flits that have left: flits held or still to cross.
    promised: u32,
}

/// An output port's buffer: its lanes and the link's lane arbitration.
#[derive(Debug, Clone)]
pub struct OutputBuffer {
    lanes: Vec<Lane>,
    depth: u32,
    /// The lane whose front packet the link is sending.
    sending: Option<u8>,
    rr: RoundRobin,
    held: u32,
}

impl OutputBuffer {
    /// `lanes` lanes of `depth` flits each.
    pub fn new(lanes: usize, depth: u32) -> OutputBuffer {
        OutputBuffer { lanes: vec![Lane::default(); lanes], depth, sending: None, rr: RoundRobin::default(), held: 0 }
    }

    /// Flits lane `vl` can still promise to a packet starting to cross.
    #[inline]
    pub fn room(&self, vl: usize) -> u32 {
        self.depth - self.lanes[vl].promised
    }

    /// Flits of lane `vl` held or still to cross: what must leave before a packet crossing now.
    #[inline]
    pub fn promised(&self, vl: usize) -> u32 {
        self.lanes[vl].promised
    }

    /// A packet of `flits` flits starts crossing into lane `vl` (it has room: checked by the caller).
    #[inline]
    pub fn promise(&mut self, vl: usize, flits: u32) {
        debug_assert!(self.room(vl) >= flits, "a packet crosses only into room for all of it");
        let lane = &mut self.lanes[vl];
        lane.packets.push_back(flits);
        lane.promised += flits;
    }

    /// A flit of a packet crossing into lane `vl` arrives.
    #[inline]
    pub fn push(&mut self, vl: usize, slot: Slot) {
        let lane = &mut self.lanes[vl];
        debug_assert!((lane.slots.len() as u32) < lane.promised, "a flit arrives only into the room promised");
        lane.slots.push_back(slot);
        self.held += 1;
    }

    /// Flits held, every lane.
    #[inline]
    pub fn held(&self) -> u32 {
        self.held
    }

    /// The link's cycle: it sends the next flit of the packet it is sending, or, idle, starts the next
    /// packet whose head is here and has credits downstream for all of it. True if a flit left.
    pub fn send(&mut self, link: OutLink, ctx: &mut StepCtx) -> bool {
        let vl = match self.sending {
            Some(vl) => vl as usize,
            None => {
                let mut ready = 0u64;
                for (w, lane) in self.lanes.iter().enumerate() {
                    if let Some(front) = lane.slots.front() {
                        debug_assert!(front.flit.head(), "an idle link's lanes start with heads");
                        ready |= ((ctx.credits(link, w as u8) >= lane.packets[0]) as u64) << w;
                    }
                }
                if ready == 0 {
                    return false;
                }
                let vl = self.rr.first(ready);
                self.rr.served(vl, self.lanes.len());
                self.sending = Some(vl as u8);
                vl
            }
        };
        let lane = &mut self.lanes[vl];
        let Some(Slot { flit, hops }) = lane.slots.pop_front() else {
            return false; // the next flit is still crossing
        };
        lane.promised -= 1;
        self.held -= 1;
        ctx.spend_credit(link, vl as u8);
        ctx.send_flit(link, vl as u8, flit, hops);
        if flit.tail() {
            lane.packets.pop_front();
            self.sending = None;
        }
        true
    }

    /// Flits held per lane (the accounting check).
    pub fn lane_flits(&self) -> impl Iterator<Item = u32> + '_ {
        self.lanes.iter().map(|l| l.slots.len() as u32)
    }

    /// Every non-empty lane and what its front packet waits for, for the deadlock report (`port`: the
    /// output port, reported in the in-port field with the reason saying so).
    pub fn blocked(&self, me: u32, port: u8, link: OutLink, credits: &[u32]) -> Vec<BlockedChannel> {
        let mut out = Vec::new();
        for (v, lane) in self.lanes.iter().enumerate() {
            let Some(front) = lane.slots.front() else { continue };
            let have = credits[(link.lane + v as u32) as usize];
            let reason = if self.sending == Some(v as u8) {
                format!("output buffer of out-port {port}: packet {} is being sent", front.flit.packet())
            } else {
                format!(
                    "output buffer of out-port {port}: packet {} waits for credits downstream ({have}, needs {})",
                    front.flit.packet(),
                    lane.packets[0]
                )
            };
            out.push(BlockedChannel { router: me, in_port: port, vc: v as u8, flits: lane.slots.len() as u32, reason });
        }
        out
    }
}
