//! Timing wheel for channel traversals: flits and credits in flight arrive `latency` cycles after
//! they were sent. Every latency is at least one cycle, so nothing sent in cycle t is seen before
//! t+1 — which is what makes each cycle read-evaluate-write and independent of visit order.
//!
//! Flits and credits ride in separate lanes: a flit needs its receiver's code to run, a credit is
//! only a counter to increment (`credits.rs`), so it travels as a bare lane number.

use std::sync::Arc;

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
    /// With regions on threads, each bucket is cut in parts, one per receiving region (`regions.rs`).
    split: Option<Split>,
}

/// Which part of a bucket each flit and credit goes to: the region of the router it reaches (the
/// last part: a terminal), the region owning the lane a credit returns to.
#[derive(Debug, Clone)]
pub struct Split {
    pub parts: usize,
    pub of_router: Arc<[u8]>,
    pub of_lane: Arc<[u8]>,
}

impl Split {
    #[inline]
    fn flit(&self, dest: u32) -> usize {
        if dest & TO_TERMINAL != 0 {
            self.parts - 1
        } else {
            self.of_router[dest as usize] as usize
        }
    }
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
            split: None,
        }
    }

    /// A wheel of a region, its buckets cut as `split` says.
    pub fn split(max_latency: u32, split: Split) -> Wheel {
        let mut wheel = Wheel::new(max_latency);
        let n = wheel.buckets.len() * split.parts;
        wheel.buckets = (0..n).map(|_| Vec::new()).collect();
        wheel.credits = (0..n).map(|_| Vec::new()).collect();
        wheel.split = Some(split);
        wheel
    }

    /// The longest latency it was built for.
    pub fn latency(&self) -> u32 {
        self.mask as u32
    }

    /// Schedules a flit to arrive at `at`.
    #[inline]
    pub fn schedule_flit(&mut self, at: Cycle, ev: Arrival) {
        self.flits += 1;
        let slot = (at & self.mask) as usize;
        let bucket = match &self.split {
            None => slot,
            Some(split) => slot * split.parts + split.flit(ev.dest),
        };
        self.buckets[bucket].push(ev);
    }

    /// Schedules a credit for `lane` to arrive at `at`.
    #[inline]
    pub fn schedule_credit(&mut self, at: Cycle, lane: u32) {
        self.pending_credits += 1;
        let slot = (at & self.mask) as usize;
        let bucket = match &self.split {
            None => slot,
            Some(split) => slot * split.parts + split.of_lane[lane as usize] as usize,
        };
        self.credits[bucket].push(lane);
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

    /// The flits due at `now` for `part` of a split wheel, left in place: the receiving region takes
    /// them, and the engine clears them afterwards with [`Wheel::clear_due`] (docs/engine.md, "Regions").
    pub fn due(&self, now: Cycle, part: usize) -> &[Arrival] {
        &self.buckets[self.bucket(now, part)]
    }

    /// The credit lanes due at `now` for `part`, left in place like [`Wheel::due`]'s flits.
    pub fn due_credits(&self, now: Cycle, part: usize) -> &[u32] {
        &self.credits[self.bucket(now, part)]
    }

    fn bucket(&self, now: Cycle, part: usize) -> usize {
        let parts = self.split.as_ref().map_or(1, |s| s.parts);
        (now & self.mask) as usize * parts + part
    }

    /// Drops the flits and credits due at `now` once they have been delivered.
    pub fn clear_due(&mut self, now: Cycle) {
        let parts = self.split.as_ref().map_or(1, |s| s.parts);
        let slot = (now & self.mask) as usize * parts;
        for b in slot..slot + parts {
            self.flits -= self.buckets[b].len();
            self.pending_credits -= self.credits[b].len();
            self.buckets[b].clear();
            self.credits[b].clear();
        }
    }

    /// Takes the stop/go signals due at `now` (with regions on threads, each region sets its own lanes).
    pub fn take_signals(&mut self, now: Cycle) -> Vec<(u32, u32)> {
        let due = std::mem::take(&mut self.signals[(now & self.mask) as usize]);
        self.pending_signals -= due.len();
        due
    }

    /// Adds everything `other` holds (a region's wheel at the end of a run on threads).
    pub fn absorb(&mut self, other: &mut Wheel) {
        debug_assert!(self.mask == other.mask && self.split.is_none());
        let parts = other.split.as_ref().map_or(1, |s| s.parts);
        for (slot, theirs) in other.buckets.iter_mut().enumerate() {
            self.buckets[slot / parts].append(theirs);
        }
        for (slot, theirs) in other.credits.iter_mut().enumerate() {
            self.credits[slot / parts].append(theirs);
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
