//! Timing wheel for channel traversals: flits and credits in flight arrive `latency` cycles after
//! they were sent. Every latency is at least one cycle, so nothing sent in cycle t is seen before
//! t+1 — which is what makes each cycle read-evaluate-write and independent of visit order.

use crate::packet::Flit;
use crate::Cycle;

#[derive(Debug, Clone, Copy)]
pub enum Event {
    FlitToRouter { router: u32, port: u8, vc: u8, flit: Flit },
    CreditToRouter { router: u32, port: u8, vc: u8 },
    FlitToTerminal { terminal: u32, vc: u8, flit: Flit },
    CreditToTerminal { terminal: u32, vc: u8 },
}

#[derive(Debug)]
pub struct Wheel {
    buckets: Vec<Vec<Event>>,
    spare: Vec<Event>,
    pending: usize,
    flits: usize,
}

impl Wheel {
    pub fn new(max_latency: u32) -> Wheel {
        Wheel { buckets: (0..=max_latency).map(|_| Vec::new()).collect(), spare: Vec::new(), pending: 0, flits: 0 }
    }

    #[inline]
    pub fn schedule(&mut self, at: Cycle, ev: Event) {
        let n = self.buckets.len() as u64;
        self.pending += 1;
        if matches!(ev, Event::FlitToRouter { .. } | Event::FlitToTerminal { .. }) {
            self.flits += 1;
        }
        self.buckets[(at % n) as usize].push(ev);
    }

    /// Takes the events due at `now`; give the vector back with [`Wheel::recycle`].
    pub fn take(&mut self, now: Cycle) -> Vec<Event> {
        let n = self.buckets.len() as u64;
        let out = std::mem::replace(&mut self.buckets[(now % n) as usize], std::mem::take(&mut self.spare));
        self.pending -= out.len();
        self.flits -= out
            .iter()
            .filter(|e| matches!(e, Event::FlitToRouter { .. } | Event::FlitToTerminal { .. }))
            .count();
        out
    }

    pub fn recycle(&mut self, mut v: Vec<Event>) {
        v.clear();
        self.spare = v;
    }

    pub fn is_empty(&self) -> bool {
        self.pending == 0
    }
    /// Flits currently on channels.
    pub fn flits(&self) -> usize {
        self.flits
    }
}
