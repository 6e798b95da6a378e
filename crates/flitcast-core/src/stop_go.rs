//! Stop/go flow control with slack buffers (study 001 §2 and §5: Myrinet-style "back-pressure flow
//! control" with slack buffers of 5 × a link's in-flight bytes; docs/engine.md, "Flow control"), a
//! kind of its own beside credits.
//!
//! The receiver of each lane counts the flits in its buffer. When a flit arriving makes the count
//! reach `stop`, it sends STOP upstream; when a flit leaving brings it down to `go`, it sends GO. Both
//! travel back over the channel's latency. A sender sends while its lane is in GO. Between the flit
//! that triggers STOP and the moment STOP takes effect, the sender may put up to (forward latency +
//! backward latency) more flits on the wire: the buffer must hold `stop` plus that many (the slack),
//! which the configuration checks, so no flit is ever lost or overwritten.
//!
//! The sender's side reuses the credit lanes (`credits.rs`): GO sets the lane's counter to [`GO`], a
//! count no run can spend, STOP sets it to 0; senders test it as they test credits. Routers return a
//! freed slot as they return a credit, but with one cycle of latency, to the engine, which counts it
//! and sends GO over the rest of the channel's latency — the same timing, and no cost to credit runs.

use crate::credits::Lanes;
use crate::time::Cycle;
use crate::topology::Topology;
use crate::wheel::{Arrival, Wheel, TO_TERMINAL};

/// A lane's counter while its receiver says GO.
pub const GO: u32 = u32::MAX / 2;

#[derive(Debug, Clone)]
pub struct StopGo {
    pub stop: u32,
    pub go: u32,
    /// Flits in each lane's receiving buffer (by the lane of the channel feeding it).
    occupancy: Vec<u32>,
    /// Per lane, the latency of its channel (how long a signal takes back to the sender).
    pub latency: Vec<u32>,
    /// Per router input (`Topology::port_index`), the lane of virtual channel 0 of the channel feeding it.
    pub feeding: Vec<u32>,
    /// The most flits any receiving buffer held (for the no-loss tests).
    pub peak: u32,
}

/// What a receiver tells its sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Stop,
    Go,
}

impl StopGo {
    pub fn new(stop: u32, go: u32, lanes: usize) -> StopGo {
        debug_assert!(go < stop);
        StopGo { stop, go, occupancy: vec![0; lanes], latency: vec![1; lanes], feeding: Vec::new(), peak: 0 }
    }

    /// Stop/go on every channel of `topo` with `vcs` virtual channels per channel, the receivers
    /// stopping their senders at `stop` flits and letting them go at `go`. Senders start in GO: their
    /// initial credit counts are [`GO`] (`Lanes::initial`).
    pub fn wire(topo: &Topology, lanes: &Lanes, vcs: u32, stop: u32, go: u32) -> StopGo {
        let mut sg = StopGo::new(stop, go, lanes.count(topo));
        for r in 0..topo.routers() as u32 {
            for p in 0..topo.radix(r) as u8 {
                let lane = lanes.feeding(topo, topo.input(r, p));
                sg.feeding.push(lane);
                if lane != u32::MAX {
                    for vc in 0..vcs {
                        sg.latency[(lane + vc) as usize] = topo.feeding_latency(r, p);
                    }
                }
            }
        }
        sg
    }

    /// The slots in `lanes` freed last cycle are counted; a buffer drained to GO sends GO over the rest
    /// of its channel's latency.
    pub fn freed(&mut self, now: Cycle, lanes: &[u32], wheel: &mut Wheel) {
        for &lane in lanes {
            if self.left(lane).is_some() {
                wheel.schedule_signal(now + self.latency[lane as usize] as Cycle - 1, lane, GO);
            }
        }
    }

    /// Start of a cycle: the slots freed last cycle are counted, a buffer drained to GO sends GO over the
    /// rest of its channel's latency, and the signals due now take effect on the senders' `credits`.
    pub fn signals(&mut self, now: Cycle, wheel: &mut Wheel, credits: &mut [u32]) {
        let freed = wheel.take_credits(now);
        self.freed(now, &freed, wheel);
        wheel.deliver_signals(now, credits);
    }

    /// The flits that entered router buffers at `now` are counted; a buffer filled to STOP sends STOP
    /// over its channel's latency.
    pub fn arrivals(&mut self, now: Cycle, events: &[Arrival], topo: &Topology, wheel: &mut Wheel) {
        for ev in events.iter().filter(|ev| ev.dest & TO_TERMINAL == 0) {
            let lane = self.feeding[topo.port_index(ev.dest, ev.port)] + ev.vc as u32;
            if self.arrived(lane).is_some() {
                wheel.schedule_signal(now + self.latency[lane as usize] as Cycle, lane, 0);
            }
        }
    }

    /// A flit entered the buffer fed by `lane`: STOP if it fills it to the threshold.
    #[inline]
    pub fn arrived(&mut self, lane: u32) -> Option<Signal> {
        let occ = &mut self.occupancy[lane as usize];
        *occ += 1;
        self.peak = self.peak.max(*occ);
        (*occ == self.stop).then_some(Signal::Stop)
    }

    /// A flit left the buffer fed by `lane`: GO if it drains it to the threshold.
    #[inline]
    pub fn left(&mut self, lane: u32) -> Option<Signal> {
        let occ = &mut self.occupancy[lane as usize];
        *occ -= 1;
        (*occ == self.go).then_some(Signal::Go)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_at_the_stop_threshold_and_go_at_the_go_threshold() {
        let mut sg = StopGo::new(5, 2, 1);
        let signals: Vec<Option<Signal>> = (0..6).map(|_| sg.arrived(0)).collect();
        assert_eq!(signals[4], Some(Signal::Stop), "the 5th flit stops the sender");
        assert!(signals.iter().enumerate().all(|(i, s)| i == 4 || s.is_none()));
        let signals: Vec<Option<Signal>> = (0..6).map(|_| sg.left(0)).collect();
        assert_eq!(signals[3], Some(Signal::Go), "down to 2 flits, the sender may go again");
        assert!(signals.iter().enumerate().all(|(i, s)| i == 3 || s.is_none()));
        assert_eq!(sg.peak, 6);
    }
}
