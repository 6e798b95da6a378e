//! Timing wheel for channel traversals: flits and credits in flight arrive `latency` cycles after
//! they were sent. Every latency is at least one cycle, so nothing sent in cycle t is seen before
//! t+1 — which is what makes each cycle read-evaluate-write and independent of visit order.
//!
//! Flits and credits ride in separate lanes: a flit needs its receiver's code to run, a credit is
//! only a counter to increment (`credits.rs`), so it travels as a bare lane number.

use crate::packet::Flit;
use crate::time::Cycle;

/// A flit on a channel: where it lands, on which virtual channel, and the router-to-router hops its
/// copy has made on arriving (read with a head flit: a copy's route position travels with its head,
/// like the hop count or route fields of a real header). 12 bytes, no decoding.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    /// A router id, or [`TO_TERMINAL`] plus a terminal id.
    pub dest: u32,
    /// The router's input port (unused for a terminal).
    pub port: u8,
    pub vc: u8,
    pub hops: u16,
    pub flit: Flit,
}

/// Marks an [`Arrival::dest`] that is a terminal.
pub const TO_TERMINAL: u32 = 1 << 31;

#[derive(Debug)]
pub struct Wheel {
    /// A power-of-two number of buckets, more than the largest latency.
    buckets: Vec<Vec<Arrival>>,
    /// Credit lanes due in each cycle, bucketed like the flits.
    credits: Vec<Vec<u32>>,
    /// Stop/go signals due in each cycle: (lane, its new counter: 0 or `stop_go::GO`).
    signals: Vec<Vec<(u32, u32)>>,
    pending_signals: usize,
    mask: u64,
    spare: Vec<Arrival>,
    pending_credits: usize,
    flits: usize,
}

impl Wheel {
    pub fn new(max_latency: u32) -> Wheel {
        let n = (max_latency as usize + 1).next_power_of_two();
        Wheel {
            buckets: (0..n).map(|_| Vec::new()).collect(),
            credits: (0..n).map(|_| Vec::new()).collect(),
            signals: (0..n).map(|_| Vec::new()).collect(),
            pending_signals: 0,
            mask: n as u64 - 1,
            spare: Vec::new(),
            pending_credits: 0,
            flits: 0,
        }
    }

    /// The longest latency it was built for.
    pub fn latency(&self) -> u32 {
        self.mask as u32
    }

    /// Schedules a flit to arrive at `at`.
    #[inline]
    pub fn schedule_flit(&mut self, at: Cycle, ev: Arrival) {
        self.flits += 1;
        self.buckets[(at & self.mask) as usize].push(ev);
    }

    /// Schedules a credit for `lane` to arrive at `at`.
    #[inline]
    pub fn schedule_credit(&mut self, at: Cycle, lane: u32) {
        self.pending_credits += 1;
        self.credits[(at & self.mask) as usize].push(lane);
    }

    /// Schedules a stop/go signal setting `lane`'s counter to `value` at `at` (`stop_go.rs`).
    pub fn schedule_signal(&mut self, at: Cycle, lane: u32, value: u32) {
        self.pending_signals += 1;
        self.signals[(at & self.mask) as usize].push((lane, value));
    }

    /// Takes the credit lanes due at `now` (under stop/go they are freed slots for the engine to count).
    pub fn take_credits(&mut self, now: Cycle) -> Vec<u32> {
        let due = std::mem::take(&mut self.credits[(now & self.mask) as usize]);
        self.pending_credits -= due.len();
        due
    }

    /// Sets the lanes whose stop/go signals are due at `now`.
    pub fn deliver_signals(&mut self, now: Cycle, counters: &mut [u32]) {
        let due = &mut self.signals[(now & self.mask) as usize];
        self.pending_signals -= due.len();
        for &(lane, value) in due.iter() {
            counters[lane as usize] = value;
        }
        due.clear();
    }

    /// Takes the flits due at `now`; give the vector back with [`Wheel::recycle`].
    pub fn take(&mut self, now: Cycle) -> Vec<Arrival> {
        let out = std::mem::replace(&mut self.buckets[(now & self.mask) as usize], std::mem::take(&mut self.spare));
        self.flits -= out.len();
        out
    }

    pub fn recycle(&mut self, mut v: Vec<Arrival>) {
        v.clear();
        self.spare = v;
    }

    /// Adds the credits due at `now` to their lanes' counters.
    #[inline]
    pub fn deliver_credits(&mut self, now: Cycle, counters: &mut [u32]) {
        let due = &mut self.credits[(now & self.mask) as usize];
        self.pending_credits -= due.len();
        for &lane in due.iter() {
            counters[lane as usize] += 1;
        }
        due.clear();
    }

    /// The flits due at `now`, left in place: with regions on threads every region reads them, and
    /// the engine clears them afterwards with [`Wheel::clear_due`] (docs/engine.md, "Regions").
    pub fn due(&self, now: Cycle) -> &[Arrival] {
        &self.buckets[(now & self.mask) as usize]
    }

    /// The credit lanes due at `now`, left in place like [`Wheel::due`]'s flits.
    pub fn due_credits(&self, now: Cycle) -> &[u32] {
        &self.credits[(now & self.mask) as usize]
    }

    /// Drops the flits and credits due at `now` once they have been delivered.
    pub fn clear_due(&mut self, now: Cycle) {
        let slot = (now & self.mask) as usize;
        self.flits -= self.buckets[slot].len();
        self.pending_credits -= self.credits[slot].len();
        self.buckets[slot].clear();
        self.credits[slot].clear();
    }

    /// Takes the stop/go signals due at `now` (with regions on threads, each region sets its own lanes).
    pub fn take_signals(&mut self, now: Cycle) -> Vec<(u32, u32)> {
        let due = std::mem::take(&mut self.signals[(now & self.mask) as usize]);
        self.pending_signals -= due.len();
        due
    }

    /// Adds everything `other` holds (a region's wheel at the end of a run on threads).
    pub fn absorb(&mut self, other: &mut Wheel) {
        debug_assert_eq!(self.mask, other.mask);
        for (mine, theirs) in self.buckets.iter_mut().zip(&mut other.buckets) {
            mine.append(theirs);
        }
        for (mine, theirs) in self.credits.iter_mut().zip(&mut other.credits) {
            mine.append(theirs);
        }
        self.flits += std::mem::take(&mut other.flits);
        self.pending_credits += std::mem::take(&mut other.pending_credits);
    }

    pub fn is_empty(&self) -> bool {
        self.flits == 0 && self.pending_credits == 0 && self.pending_signals == 0
    }
    /// Flits currently on channels.
    pub fn flits(&self) -> usize {
        self.flits
    }
}
