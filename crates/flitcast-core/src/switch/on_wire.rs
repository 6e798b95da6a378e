//! The flits a router has sent on one output that are still on their way (`Route::decide`'s queues,
//! UGAL-L): a router knows when it sent each flit and how long its channel is, so of the flits its
//! credits show downstream it can tell those still travelling from those waiting in the next router's
//! buffers. (A credit on its way back it cannot tell from a flit still waiting: those count as waiting.)

use std::collections::VecDeque;

use crate::time::Cycle;

/// The cycles of an output's recent sends, kept as long as a flit sent then can still be on its way.
#[derive(Debug, Clone)]
pub struct OnWire {
    /// Cycles from a send until the flit is in the next router's input buffer (`OutLink::latency`).
    latency: Cycle,
    sent: VecDeque<Cycle>,
}

impl OnWire {
    pub fn new(latency: u32) -> OnWire {
        OnWire { latency: Cycle::from(latency), sent: VecDeque::new() }
    }

    /// A flit left on the output at `now` (at most one a cycle).
    #[inline]
    pub fn sent(&mut self, now: Cycle) {
        while self.sent.front().is_some_and(|&t| t + self.latency <= now) {
            self.sent.pop_front();
        }
        self.sent.push_back(now);
    }

    /// Flits sent that are not in the next router's buffer yet at `now`. (The sends are in order: a
    /// binary search, as a long channel may hold many.)
    #[inline]
    pub fn count(&self, now: Cycle) -> u32 {
        (self.sent.len() - self.sent.partition_point(|&t| t + self.latency <= now)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flit_is_on_the_wire_for_the_channels_latency() {
        let mut w = OnWire::new(3);
        assert_eq!(w.count(0), 0);
        for t in [10, 11, 13] {
            w.sent(t);
        }
        // sent at 10 arrives at 13, at 11 at 14, at 13 at 16
        assert_eq!([12, 13, 14, 15, 16].map(|now| w.count(now)), [2, 2, 1, 1, 0]);
        w.sent(20);
        assert_eq!((w.sent.len(), w.count(20)), (1, 1), "what arrived is forgotten");
    }
}
