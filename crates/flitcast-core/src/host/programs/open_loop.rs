//! The open-network source of every unicast workload: per host an arrival process (Poisson or
//! Bernoulli, `workload/arrival.rs`) at `load / message_flits` messages per cycle and a destination
//! from the traffic pattern (`workload/pattern.rs`), each message a new operation of one destination.
//! Each host draws from its own two streams, so results do not depend on the order hosts are visited.

use crate::host::program::{Outbox, Priority, Program, Send, Serves, Target};
use crate::workload::{Pattern, Source};
use crate::Cycle;

#[derive(Debug, Clone)]
pub struct OpenLoop {
    pattern: Pattern,
    sources: Vec<Source>,
    message_flits: u32,
}

impl OpenLoop {
    pub fn new(pattern: Pattern, sources: Vec<Source>, message_flits: u32) -> OpenLoop {
        OpenLoop { pattern, sources, message_flits }
    }
}

impl Program for OpenLoop {
    fn start(&mut self, out: &mut Outbox) {
        for (host, source) in self.sources.iter_mut().enumerate() {
            out.timers.push((source.arrivals.next_arrival(), host as u32, 0));
        }
    }

    /// A message arrives at `host`: send it, and wait for the next.
    #[inline]
    fn on_timer(&mut self, host: u32, _tag: u32, _now: Cycle, out: &mut Outbox) {
        let source = &mut self.sources[host as usize];
        let dst = self.pattern.destination(host, &mut source.dest_rng);
        out.timers.push((source.arrivals.next_arrival(), host, 0));
        out.sends.push(Send {
            src: host,
            target: Target::One(dst),
            flits: self.message_flits,
            header_flits: 0,
            serves: Serves::NewOperation,
            tag: 0,
            priority: Priority::Unicast,
            cut_through: None,
        });
    }
}
