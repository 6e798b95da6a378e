//! The open-network source of every unicast workload: per host an arrival process (Poisson or
//! Bernoulli, `workload/arrival.rs`) at `load / message_flits` messages per cycle and a destination
//! from the traffic pattern (`workload/patterns/`), each message a new operation of one destination.
//! Each host draws from its own two streams, so results do not depend on the order hosts are visited.

use crate::facts::Facts;
use crate::host::program::{Outbox, Priority, Program, Send, Serves, Site, Target};
use crate::params::{params, Kind, Problem};
use crate::time::Cycle;
use crate::workload::{sources, Arrival, Pattern, PatternKind, Shape, Source};

params! {
    /// Open-network unicast traffic.
    pub struct Params {
        /// Offered load in flits per node per cycle (1.0 = one flit per cycle per node).
        load: f64 = 0.1, above(0.0, 1.0), unit("flits/node/cycle");
        /// Message arrival process at each node: `poisson` (exponential inter-arrival times) or
        /// `bernoulli` (a message each cycle with fixed probability).
        arrival: Arrival = Arrival::Poisson;
        /// Destination pattern (see `flitcast list patterns`).
        pattern: PatternKind = PatternKind::default();
    }
}

impl Kind for OpenLoop {
    const NAME: &'static str = "open_loop";
    const DOC: &'static str =
        "open-network unicasts: a Poisson or Bernoulli source per host, destinations by a pattern";
    type Params = Params;
}

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
    fn new(p: &Params, site: &Site) -> Self {
        let nodes = site.shape.nodes;
        OpenLoop::new(
            Pattern::build(&p.pattern, &site.shape),
            sources(p.arrival, p.load, site.message_flits, site.seed, nodes),
            site.message_flits,
        )
    }

    fn load(p: &Params) -> f64 {
        p.load
    }

    fn needs(_: &Params) -> &'static str {
        "a traffic pattern where it is defined, as the pattern table above says (e.g. the bit permutations on a \
         power-of-two node count; `hotspot` with a non-empty `workload.hotspot_nodes` of node ids and \
         `workload.hotspot_fraction > 0`)"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let shape = Shape { nodes: f.nodes.min(u32::MAX as u64) as u32, digits: f.digits, groups: f.groups };
        p.pattern.unfit(&shape).into_iter().collect()
    }

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
