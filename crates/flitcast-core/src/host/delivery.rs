//! What hosts keep about the messages they sent and the operations those serve, and the accounting
//! at the receiving end: which message a tail completes at a destination, which operation that
//! serves, and when an operation is complete (docs/results.md, "Operations").
//!
//! * A **message** is what a program sends: one or more packets to one destination or a set. It is
//!   delivered at a destination when the tails of all its packets have reached it.
//! * An **operation** is what the statistics time: an open-loop message, a hardware multicast, or a
//!   software multicast made of many messages. It has a set of destinations, each of which must be
//!   served exactly once; its latency is (a) until the last destination is served and (b) the
//!   average over its destinations (study 000 §7.2).

use std::collections::HashMap;

use crate::dest_set::{DestSets, Pending};
use crate::error::Error;
use crate::packet::Slab;
use crate::time::Cycle;

#[derive(Debug, Clone)]
pub struct Message {
    pub src: u32,
    pub flits: u32,
    pub operation: u32,
    pub tag: u64,
    pub packets: u32,
    /// Tails still to arrive, over all destinations; the message is freed at zero.
    pub tails_left: u32,
}

#[derive(Debug, Clone)]
pub struct Operation {
    pub created: Cycle,
    /// Payload flits (each destination receives them once).
    pub flits: u32,
    /// Measurement id if created in the measurement window.
    pub measured: Option<u32>,
    pub destinations: u32,
    /// A multicast (its program sent it to a set, even of one destination), not a unicast.
    pub multicast: bool,
    /// Destinations not served yet; the operation completes when none is left.
    pub pending: Pending,
    /// Sum of the served destinations' latencies (definition (b)).
    pub latency_sum: u64,
}

/// An operation that has just been completed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Completed {
    pub created: Cycle,
    pub flits: u32,
    pub measured: Option<u32>,
    /// Definition (b): the mean latency over its destinations.
    pub mean_latency: f64,
    pub destinations: u32,
    pub multicast: bool,
}

/// One destination of an operation served.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Served {
    /// This destination's latency: from the operation's creation to now.
    pub latency: Cycle,
    pub measured: bool,
    pub multicast: bool,
    /// The operation, if that was its last destination.
    pub done: Option<Completed>,
}

#[derive(Debug, Clone, Default)]
pub struct Deliveries {
    pub messages: Slab<Message>,
    pub operations: Slab<Operation>,
    /// For a message of several packets to several destinations: (destination, tails still to arrive
    /// there), by message (rare: one packet completes a message at each tail's destination, and with
    /// one destination `tails_left` counts them). Looked up, never iterated.
    per_destination: HashMap<u32, Vec<(u32, u32)>>,
}

impl Deliveries {
    /// A new operation of `flits` flits to `destinations`, created at `now`.
    pub fn open(
        &mut self,
        destinations: &[u32],
        flits: u32,
        now: Cycle,
        measured: Option<u32>,
        multicast: bool,
        sets: &mut DestSets,
    ) -> u32 {
        self.operations.insert(Operation {
            created: now,
            flits,
            measured,
            destinations: destinations.len() as u32,
            multicast,
            pending: Pending::new(destinations, sets),
            latency_sum: 0,
        })
    }

    /// Records a message of `packets` packets from `src` to `destinations`; returns its id.
    pub fn record(
        &mut self,
        src: u32,
        flits: u32,
        operation: u32,
        tag: u64,
        packets: u32,
        destinations: &[u32],
    ) -> u32 {
        let tails_left = packets * destinations.len() as u32;
        let message = self.messages.insert(Message { src, flits, operation, tag, packets, tails_left });
        if packets > 1 && destinations.len() > 1 {
            self.per_destination.insert(message, destinations.iter().map(|&d| (d, packets)).collect());
        }
        message
    }

    /// A packet of `message` delivered its tail at `host`: true if that completes the message there.
    pub fn tail(&mut self, message: u32, host: u32) -> bool {
        let m = &mut self.messages[message];
        m.tails_left -= 1;
        let (packets, left) = (m.packets, m.tails_left);
        // (the map holds only messages of several packets to several destinations)
        let counts = if packets > 1 { self.per_destination.get_mut(&message) } else { None };
        let done = match counts {
            None => packets == 1 || left == 0,
            Some(counts) => {
                let entry = counts.iter_mut().find(|(d, _)| *d == host).expect("a destination of the message");
                entry.1 -= 1;
                entry.1 == 0
            }
        };
        if left == 0 {
            self.messages.remove(message);
            if packets > 1 {
                self.per_destination.remove(&message);
            }
        }
        done
    }

    /// `host` received a message serving `operation` at `now`: that destination is served; an error
    /// if `host` is not one of its destinations still to serve.
    pub fn serve(&mut self, operation: u32, host: u32, now: Cycle, sets: &mut DestSets) -> Result<Served, Error> {
        let op = &mut self.operations[operation];
        if !op.pending.take(host, sets) {
            return Err(Error::Conservation {
                message: format!(
                    "host {host} received a message of operation {operation} (created at cycle {}), but is not one of \
                     its destinations still to serve",
                    op.created
                ),
            });
        }
        let latency = now - op.created;
        op.latency_sum += latency;
        let mut served = Served { latency, measured: op.measured.is_some(), multicast: op.multicast, done: None };
        if op.pending.left() > 0 {
            return Ok(served);
        }
        served.done = Some(Completed {
            created: op.created,
            flits: op.flits,
            measured: op.measured,
            mean_latency: op.latency_sum as f64 / op.destinations as f64,
            destinations: op.destinations,
            multicast: op.multicast,
        });
        op.pending.release(sets);
        self.operations.remove(operation);
        Ok(served)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_destination_served_twice_or_not_a_destination_is_an_error() {
        let (mut d, mut sets) = (Deliveries::default(), DestSets::new(16));
        let op = d.open(&[3, 5, 9], 1, 100, Some(0), true, &mut sets);
        let first = d.serve(op, 5, 110, &mut sets).unwrap();
        assert_eq!((first.latency, first.measured, first.multicast, first.done), (10, true, true, None));
        assert!(d.serve(op, 5, 111, &mut sets).is_err(), "5 again");
        assert!(d.serve(op, 4, 112, &mut sets).is_err(), "4 is not a destination");
        assert_eq!(d.serve(op, 3, 120, &mut sets).unwrap().done, None);
        let done = d.serve(op, 9, 130, &mut sets).unwrap().done.expect("complete");
        assert_eq!(done.mean_latency, (10.0 + 20.0 + 30.0) / 3.0);
        assert!(sets.is_empty() && d.operations.is_empty());
        let one = d.open(&[7], 1, 0, None, false, &mut sets);
        assert!(d.serve(one, 6, 1, &mut sets).is_err());
        assert!(d.serve(one, 7, 2, &mut sets).unwrap().done.is_some());
    }
}
