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
    /// A power-of-two number of buckets, more than the largest latency.
    buckets: Vec<Vec<Event>>,
    mask: u64,
    spare: Vec<Event>,
    pending: usize,
    flits: usize,
}

impl Wheel {
    pub fn new(max_latency: u32) -> Wheel {
        let n = (max_latency as usize + 1).next_power_of_two();
        Wheel {
            buckets: (0..n).map(|_| Vec::new()).collect(),
            mask: n as u64 - 1,
            spare: Vec::new(),
            pending: 0,
            flits: 0,
        }
    }

    #[inline]
    pub fn schedule(&mut self, at: Cycle, ev: Event) {
        self.pending += 1;
        self.buckets[(at & self.mask) as usize].push(ev);
    }

    /// Like [`Wheel::schedule`], for an event that carries a flit.
    #[inline]
    pub fn schedule_flit(&mut self, at: Cycle, ev: Event) {
        self.flits += 1;
        self.schedule(at, ev);
    }

    /// Takes the events due at `now`; give the vector back with [`Wheel::recycle`]. The caller
    /// reports how many of them carried flits with [`Wheel::flits_delivered`].
    pub fn take(&mut self, now: Cycle) -> Vec<Event> {
        let out = std::mem::replace(&mut self.buckets[(now & self.mask) as usize], std::mem::take(&mut self.spare));
        self.pending -= out.len();
        out
    }

    pub fn flits_delivered(&mut self, n: usize) {
        self.flits -= n;
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
