//! Network interface of a terminal in an open network: unbounded FIFO source queues of packets, one
//! per [`Priority`], the most urgent non-empty one served first (so latency includes source queueing;
//! a run stops, saturated, past `memory::max_live_packets`), one injection channel that sends one flit per cycle
//! under credit flow control into the router's injection port, and an ejection side that accepts
//! every flit at once (docs/engine.md).
//!
//! Packets are injected one after the other (the injection channel is serial). A packet takes the
//! next virtual channel, round robin among those the routing allows for injection, that has a
//! credit (wormhole) or room for the whole packet (virtual cut-through).
//!
//! A packet may be *gated* on a packet arriving at this terminal (a host adapter forwarding in
//! cut-through, study 001 §3): it sends its i-th flit only once the i-th flit of that one has arrived.

use std::collections::VecDeque;

use super::program::Priority;
use crate::dest_set::{DestSets, Pending};
use crate::error::Error;
use crate::packet::{Dest, Flit, Header, Packet, Slab};
use crate::routing::variants::Variants;
use crate::routing::Routing;
use crate::time::Cycle;

#[derive(Debug, Clone)]
pub struct Nic {
    /// Source queues by [`Priority`].
    queues: [VecDeque<u32>; 3],
    /// Packets in them (checked every cycle: one test instead of three).
    queued: u32,
    /// (packet, the arriving packet it copies in cut-through) while that one is still arriving.
    gates: Vec<(u32, u32)>,
    /// Packet being injected: (packet, flits sent, its flits, vc).
    current: Option<(u32, u32, u32, u8)>,
    /// Credit lane of the injection channel's virtual channel 0 (`credits.rs`).
    lane: u32,
    next_vc: u8,
}

/// A flit the NIC put on its injection channel this cycle.
pub struct Injected {
    pub flit: Flit,
    pub vc: u8,
}

impl Nic {
    /// A NIC whose injection channel's credits are in lanes `lane ..` of the simulation's counters.
    pub fn new(lane: u32) -> Nic {
        Nic { queues: Default::default(), queued: 0, gates: Vec::new(), current: None, lane, next_vc: 0 }
    }

    /// The arriving packet `packet` has delivered its tail here: nothing waits for it any longer.
    #[inline]
    pub fn open_gates(&mut self, packet: u32) {
        if !self.gates.is_empty() {
            self.gates.retain(|&(_, arriving)| arriving != packet);
        }
    }

    /// Packets of a message of `flits` flits: as many of `packet_flits` as fit, the last one shorter.
    pub fn packets_of(flits: u32, packet_flits: u32) -> u32 {
        flits.div_ceil(packet_flits)
    }

    /// Splits message `message` of `flits` flits from `src` to `dests` (one terminal, or a set of
    /// several: a multidestination worm whose count field `routing` sets) into
    /// [`packets_of`](Self::packets_of) packets, each with `header_flits` more in front, each unicast
    /// taking the next of its pair's route variants, and queues them at `priority`, gated on the
    /// arriving packet `gate` if given (a one-packet message).
    #[allow(clippy::too_many_arguments)]
    pub fn queue_message(
        &mut self,
        src: u32,
        dests: &[u32],
        message: u32,
        flits: u32,
        header_flits: u32,
        packet_flits: u32,
        now: Cycle,
        measured: bool,
        packets: &mut Slab<Packet>,
        sets: &mut DestSets,
        variants: &mut Variants,
        routing: &Routing,
        priority: Priority,
        gate: Option<u32>,
    ) -> Result<(), Error> {
        for i in 0..Nic::packets_of(flits, packet_flits) {
            let size = (flits - i * packet_flits).min(packet_flits) + header_flits;
            let (dest, variant) = match dests {
                [one] => (Dest::One(*one), variants.next(src, *one)),
                many => (Dest::Set(sets.insert(many.iter().copied())), 0),
            };
            let mut header = Header::new(src, dest, message, size, now, measured, variant);
            if let Dest::Set(set) = dest {
                if !routing.replicates() {
                    return Err(Error::Routing {
                        message: format!("{}: no multidestination routing for a worm to a set", routing.name()),
                    });
                }
                if let Some(tree) = routing.multicast() {
                    header.turn = tree.turn(src, sets.words(set)).ok_or_else(|| Error::Routing {
                        message: format!("no switch above terminal {src} reaches every destination of its multicast"),
                    })?;
                }
            }
            let p = packets.insert(Packet::new(header, Pending::new(dests, sets), now));
            if p >= Flit::MAX_PACKETS {
                // (cannot happen: max_live_packets is far lower; kept as the engine's last guard)
                return Err(Error::Internal {
                    message: format!(
                        "more than {} packets alive at cycle {now}: the run is far past saturation",
                        Flit::MAX_PACKETS
                    ),
                });
            }
            self.queues[priority as usize].push_back(p);
            self.queued += 1;
            if let Some(arriving) = gate {
                self.gates.push((p, arriving));
            }
        }
        Ok(())
    }

    /// True while the NIC has something to inject.
    pub fn busy(&self) -> bool {
        self.current.is_some() || self.queued > 0
    }

    /// Flits of `packet` that may leave by now: all, or as many as have arrived of the packet it copies.
    #[inline]
    fn releasable(&self, packet: u32, packets: &Slab<Packet>) -> u32 {
        match self.gates.iter().find(|&&(p, _)| p == packet) {
            Some(&(_, arriving)) => packets[arriving].delivered,
            None => u32::MAX,
        }
    }

    /// Credit lane of the injection channel's virtual channel 0.
    pub fn lane(&self) -> u32 {
        self.lane
    }

    /// Injects at most one flit at `now`. `vcs` is the routing's injection VC range; `vct` asks for
    /// room for the whole packet before the head leaves; `credits` are the injection channel's lanes
    /// (from [`lane`](Self::lane) on). A packet it starts is pushed on `started`: the caller stamps
    /// its injection time (packets are shared read-only while NICs step).
    #[inline]
    pub fn step(
        &mut self,
        packets: &Slab<Packet>,
        vcs: impl Fn(&Header) -> (u8, u8),
        vct: bool,
        credits: &mut [u32],
        started: &mut Vec<u32>,
    ) -> Option<Injected> {
        if self.current.is_none() {
            if self.queued == 0 {
                return None;
            }
            let queue = self.queues.iter_mut().find(|q| !q.is_empty())?;
            let &p = queue.front()?;
            let (lo, hi) = vcs(&packets[p].header);
            let need = if vct { packets[p].header.flits } else { 1 };
            let span = hi - lo;
            let start = if self.next_vc >= lo && self.next_vc < hi { self.next_vc - lo } else { 0 };
            let vc = (0..span).map(|i| lo + (start + i) % span).find(|&vc| credits[vc as usize] >= need)?;
            queue.pop_front();
            self.queued -= 1;
            self.next_vc = vc + 1;
            started.push(p);
            self.current = Some((p, 0, packets[p].header.flits, vc));
        }
        let (p, sent, size, vc) = self.current?;
        if credits[vc as usize] == 0 || (!self.gates.is_empty() && sent >= self.releasable(p, packets)) {
            return None;
        }
        credits[vc as usize] -= 1;
        let flit = Flit::new(p, sent == 0, sent + 1 == size);
        self.current = if flit.tail() { None } else { Some((p, sent + 1, size, vc)) };
        if flit.tail() && !self.gates.is_empty() {
            self.gates.retain(|&(gated, _)| gated != p);
        }
        Some(Injected { flit, vc })
    }
}
