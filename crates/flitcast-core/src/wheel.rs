//! Timing wheel for channel traversals: flits and credits in flight arrive `latency` cycles after
//! they were sent. Every latency is at least one cycle, so nothing sent in cycle t is seen before
//! t+1 — which is what makes each cycle read-evaluate-write and independent of visit order.
//!
//! Flits and credits ride in separate lanes: a flit needs its receiver's code to run, a credit is
//! only a counter to increment (`credits.rs`), so it travels as a bare lane number. Each cycle's flits
//! are kept in parts by receiver: those for routers, those for terminals (ejections, which go to the
//! hosts) — and, in a region's wheel when a run is split across threads, one part per region
//! (`regions.rs`).

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
    /// Flits due, `parts` buckets per cycle over a power-of-two number of cycles, more than the
    /// largest latency.
    buckets: Vec<Vec<Arrival>>,
    /// Credit lanes due, `credit_parts` buckets per cycle.
    credits: Vec<Vec<u32>>,
    /// Stop/go signals due in each cycle: (lane, its new counter: 0 or `stop_go::GO`).
    signals: Vec<Vec<(u32, u32)>>,
    pending_signals: usize,
    mask: u64,
    /// Flit parts per cycle: 2 (routers, terminals), or a split's parts.
    parts: usize,
    credit_parts: usize,
    spare: [Vec<Arrival>; 2],
    pending_credits: usize,
    flits: usize,
    /// With regions on threads: how a region's wheel is cut (`regions.rs`).
    split: Option<Split>,
}

/// The part of a region's wheel each flit and credit goes to: the region of the router it reaches
/// (the last part: a terminal), the region owning the lane a credit returns to.
#[derive(Debug, Clone)]
pub struct Split {
    /// The regions, and the terminals' part after them.
    pub parts: usize,
    pub of_router: Arc<[u8]>,
    pub of_lane: Arc<[u8]>,
}

/// The part of a plain wheel's cycle that holds flits for routers, and the one for terminals.
pub const ROUTERS: usize = 0;
pub const TERMINALS: usize = 1;

impl Wheel {
    pub fn new(max_latency: u32) -> Wheel {
        let n = (max_latency as usize + 1).next_power_of_two();
        Wheel {
            buckets: (0..2 * n).map(|_| Vec::new()).collect(),
            credits: (0..n).map(|_| Vec::new()).collect(),
            signals: (0..n).map(|_| Vec::new()).collect(),
            pending_signals: 0,
            mask: n as u64 - 1,
            parts: 2,
            credit_parts: 1,
            spare: [Vec::new(), Vec::new()],
            pending_credits: 0,
            flits: 0,
            split: None,
        }
    }

    /// A region's wheel, its cycles cut in `split`'s parts; it is filled by [`Wheel::pour`].
    pub fn split(max_latency: u32, split: Split) -> Wheel {
        let mut wheel = Wheel::new(max_latency);
        let n = (wheel.mask + 1) as usize * split.parts;
        wheel.buckets = (0..n).map(|_| Vec::new()).collect();
        wheel.credits = (0..n).map(|_| Vec::new()).collect();
        (wheel.parts, wheel.credit_parts) = (split.parts, split.parts);
        wheel.split = Some(split);
        wheel
    }

    /// A longest latency that builds a wheel of this one's size (a region's: `regions.rs`).
    pub fn latency(&self) -> u32 {
        self.mask as u32
    }

    /// Schedules a flit to arrive at `at`, with the routers' flits or the terminals' (without a
    /// branch: `TO_TERMINAL` is the top bit).
    #[inline]
    pub fn schedule_flit(&mut self, at: Cycle, ev: Arrival) {
        debug_assert!(self.split.is_none(), "a split wheel is filled by pour");
        self.flits += 1;
        self.buckets[(((at & self.mask) as usize) << 1) | (ev.dest >> 31) as usize].push(ev);
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

    /// Takes the flits due at `now` for `part` ([`ROUTERS`] or [`TERMINALS`]); give the vector back
    /// with [`Wheel::recycle`].
    pub fn take(&mut self, now: Cycle, part: usize) -> Vec<Arrival> {
        let bucket = self.bucket(now, part);
        let out = std::mem::replace(&mut self.buckets[bucket], std::mem::take(&mut self.spare[part]));
        self.flits -= out.len();
        out
    }

    pub fn recycle(&mut self, mut v: Vec<Arrival>, part: usize) {
        v.clear();
        self.spare[part] = v;
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

    /// The flits due at `now` in `part`, left in place: with regions on threads the receiving region
    /// takes them, and the engine clears them afterwards with [`Wheel::clear_due`].
    pub fn due(&self, now: Cycle, part: usize) -> &[Arrival] {
        &self.buckets[self.bucket(now, part)]
    }

    /// The credit lanes due at `now` in `part`, left in place like [`Wheel::due`]'s flits.
    pub fn due_credits(&self, now: Cycle, part: usize) -> &[u32] {
        &self.credits[(now & self.mask) as usize * self.credit_parts + part]
    }

    fn bucket(&self, now: Cycle, part: usize) -> usize {
        (now & self.mask) as usize * self.parts + part
    }

    /// Drops the flits and credits due at `now` once they have been delivered.
    pub fn clear_due(&mut self, now: Cycle) {
        let slot = (now & self.mask) as usize;
        for b in &mut self.buckets[slot * self.parts..(slot + 1) * self.parts] {
            self.flits -= b.len();
            b.clear();
        }
        for b in &mut self.credits[slot * self.credit_parts..(slot + 1) * self.credit_parts] {
            self.pending_credits -= b.len();
            b.clear();
        }
    }

    /// Takes the stop/go signals due at `now` (with regions on threads, each region sets its own lanes).
    pub fn take_signals(&mut self, now: Cycle) -> Vec<(u32, u32)> {
        let due = std::mem::take(&mut self.signals[(now & self.mask) as usize]);
        self.pending_signals -= due.len();
        due
    }

    /// Moves everything a region sent this cycle (`sent`, a plain wheel) into this split wheel, each
    /// flit and credit to the part of the region that receives it, in the order it was sent.
    pub fn pour(&mut self, sent: &mut Wheel) {
        let split = self.split.as_ref().expect("a split wheel");
        let (parts, terminals) = (split.parts, split.parts - 1);
        for slot in 0..=self.mask as usize {
            for ev in sent.buckets[slot << 1].drain(..) {
                self.buckets[slot * parts + split.of_router[ev.dest as usize] as usize].push(ev);
            }
            self.buckets[slot * parts + terminals].append(&mut sent.buckets[(slot << 1) | TERMINALS]);
            for lane in sent.credits[slot].drain(..) {
                self.credits[slot * parts + split.of_lane[lane as usize] as usize].push(lane);
            }
        }
        self.flits += std::mem::take(&mut sent.flits);
        self.pending_credits += std::mem::take(&mut sent.pending_credits);
    }

    /// Adds everything `other`, a region's split wheel, holds (at the end of a run on threads).
    pub fn absorb(&mut self, other: &mut Wheel) {
        debug_assert!(self.mask == other.mask && self.split.is_none());
        let terminals = other.parts - 1;
        for (b, theirs) in other.buckets.iter_mut().enumerate() {
            let (slot, part) = (b / other.parts, b % other.parts);
            self.buckets[(slot << 1) | (part == terminals) as usize].append(theirs);
        }
        for (b, theirs) in other.credits.iter_mut().enumerate() {
            self.credits[b / other.credit_parts].append(theirs);
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
