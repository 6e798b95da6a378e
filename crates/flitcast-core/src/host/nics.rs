//! The hosts' NICs in chunks of consecutive terminals: one chunk on one thread, one per region when a
//! simulation runs on several (docs/engine.md, "Regions"). A chunk steps its own NICs and keeps what
//! their step changed outside them — packets started, tails sent, flits injected — for the hosts to
//! take in terminal order afterwards, so the outcome does not depend on how terminals are chunked.

use std::sync::{Arc, Mutex, MutexGuard};

use super::nic::Nic;
use crate::bitset::IdSet;
use crate::packet::{Packet, Slab};
use crate::routing::Routing;
use crate::time::Cycle;
use crate::topology::Topology;
use crate::wheel::{Arrival, Wheel};

/// What a NIC step needs to know beside the NICs.
#[derive(Debug, Clone, Copy)]
pub struct NicStep {
    pub now: Cycle,
    pub measuring: bool,
    /// Virtual cut-through: a head leaves only with room downstream for its whole packet.
    pub vct: bool,
    /// Cycles from a flit's arrival at a router until it may leave its input FIFO.
    pub input_delay: Cycle,
    /// The program wants to know when its messages have left (`Hosts::tell_sent`).
    pub sees_flits: bool,
}

#[derive(Debug)]
pub struct NicChunk {
    /// Its first terminal.
    pub base: u32,
    nics: Vec<Nic>,
    /// Its NICs with something to inject, by position in the chunk.
    active: IdSet,
    /// Flits each NIC sent during the window.
    window_flits: Vec<u64>,
    /// What the last step did, for the hosts to carry out: packets started (their injection time is
    /// stamped), (terminal, message) of the tails sent, flits sent.
    pub started: Vec<u32>,
    pub sent_tails: Vec<(u32, u32)>,
    pub sent: u64,
}

impl NicChunk {
    fn new(base: u32, nics: Vec<Nic>) -> NicChunk {
        let n = nics.len();
        NicChunk {
            base,
            nics,
            active: IdSet::new(n),
            window_flits: vec![0; n],
            started: Vec::new(),
            sent_tails: Vec::new(),
            sent: 0,
        }
    }

    pub fn nic(&mut self, terminal: u32) -> &mut Nic {
        &mut self.nics[(terminal - self.base) as usize]
    }

    /// `terminal` has something to inject.
    pub fn activate(&mut self, terminal: u32) {
        self.active.insert((terminal - self.base) as usize);
    }

    /// Terminals in the chunk.
    pub fn len(&self) -> u32 {
        self.nics.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.nics.is_empty()
    }

    /// Each active NIC puts at most one flit on its injection channel (`credits`: every lane's counter); it
    /// reaches the router's input FIFO once the channel and the router's input stage are passed.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        at: NicStep,
        packets: &Slab<Packet>,
        routing: &Routing,
        topo: &Topology,
        credits: &mut [u32],
        wheel: &mut Wheel,
    ) {
        let NicChunk { base, nics, active, window_flits, started, sent_tails, sent, .. } = self;
        let base = *base as usize;
        active.retain(|i| {
            let nic = &mut nics[i];
            let t = base + i;
            let lanes = &mut credits[nic.lane() as usize..];
            if let Some(inj) = nic.step(packets, |p| routing.injection_vcs(p), at.vct, lanes, started) {
                if at.sees_flits && inj.flit.tail() {
                    sent_tails.push((t as u32, packets[inj.flit.packet()].header.message));
                }
                let (router, port) = topo.terminal_at[t];
                let when = at.now + topo.terminal_latency[t] as Cycle + at.input_delay;
                wheel.schedule_flit(when, Arrival { dest: router, port, vc: inj.vc, hops: 0, flit: inj.flit });
                *sent += 1;
                window_flits[i] += at.measuring as u64;
            }
            nic.busy()
        });
    }
}

/// Every terminal's NIC, in chunks of `per` consecutive terminals.
#[derive(Debug)]
pub struct Nics {
    chunks: Vec<Arc<Mutex<NicChunk>>>,
    per: u32,
}

impl Nics {
    /// `nics` in `chunks` chunks of equal size (the last one shorter).
    pub fn new(mut nics: Vec<Nic>, chunks: usize) -> Nics {
        let per = nics.len().div_ceil(chunks.max(1)).max(1);
        let mut out = Vec::new();
        let mut base = 0;
        while !nics.is_empty() || out.is_empty() {
            let rest = nics.split_off(per.min(nics.len()));
            out.push(Arc::new(Mutex::new(NicChunk::new(base, std::mem::replace(&mut nics, rest)))));
            base += per as u32;
        }
        Nics { chunks: out, per: per as u32 }
    }

    /// The chunks in terminal order (shared with the regions that step them).
    pub fn chunks(&self) -> &[Arc<Mutex<NicChunk>>] {
        &self.chunks
    }

    /// The chunk of `terminal`. Nobody else holds it: regions lock theirs only while they step.
    pub fn chunk_of(&self, terminal: u32) -> MutexGuard<'_, NicChunk> {
        lock(&self.chunks[(terminal / self.per) as usize])
    }

    pub fn idle(&self) -> bool {
        self.chunks.iter().all(|c| lock(c).active.is_empty())
    }

    /// Flits terminal `t` sent on its injection channel during the window.
    pub fn window_flits(&self, t: u32) -> u64 {
        let chunk = self.chunk_of(t);
        chunk.window_flits[(t - chunk.base) as usize]
    }
}

/// Locks a chunk; a region that panicked while holding it has already failed the run.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
