//! Hardware multicast (study 000 §3): each operation is one message to its whole destination set,
//! sent as multidestination worms (`Target::Set`) that the switches replicate. The worm carries its
//! destinations as an N-bit string in `header_flits` extra flits (§3.2; docs/models/multicast.md).
//! A unicast operation of bimodal traffic is an ordinary unicast.

use super::multiway;
use crate::facts::Facts;
use crate::host::program::{Outbox, Priority, Program, Send, Serves, Site, Target, WormHeader};
use crate::params::{params, Flat, Kind, Problem};
use crate::sizing::{Part, Sizing};
use crate::time::Cycle;
use crate::workload::operations::{mway_unfit, Multiway, Operations, MWAY_NEEDS};

params! {
    /// Hardware multicast: multidestination worms the switches replicate.
    pub struct Params {
        /// The m-way multicast traffic: load, arrival, destinations, multicast_fraction.
        traffic: Flat<Multiway> = Flat::default();
        /// The header of a multidestination worm: header_flits.
        header: Flat<WormHeader> = Flat::default();
    }
}

impl Kind for HardwareMulticast {
    const NAME: &'static str = "hardware_multicast";
    const DOC: &'static str = "m-way multicasts as multidestination worms the switches replicate (study 000 §3-5)";
    type Params = Params;
}

#[derive(Debug, Clone)]
pub struct HardwareMulticast {
    operations: Operations,
    message_flits: u32,
    header_flits: u32,
}

impl HardwareMulticast {
    pub fn new(operations: Operations, message_flits: u32, header_flits: u32) -> HardwareMulticast {
        HardwareMulticast { operations, message_flits, header_flits }
    }
}

impl Program for HardwareMulticast {
    fn new(p: &Params, site: &Site) -> Self {
        let operations = Operations::of(&p.traffic, site.message_flits, site.seed, site.shape.nodes);
        HardwareMulticast::new(operations, site.message_flits, site.header_flits)
    }

    fn load(p: &Params) -> f64 {
        p.traffic.load
    }

    fn multidestination(_: &Params) -> bool {
        true
    }

    fn multicast_degree(p: &Params) -> Option<u32> {
        Some(p.traffic.destinations)
    }

    fn bytes(p: &Params, sizing: &Sizing) -> Vec<Part> {
        multiway::bytes(p.traffic.destinations, true, sizing)
    }

    fn needs(_: &Params) -> &'static str {
        MWAY_NEEDS
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        mway_unfit(p.traffic.destinations, f).into_iter().collect()
    }

    fn header_flits(p: &Params) -> Option<u32> {
        p.header.header_flits
    }

    fn start(&mut self, out: &mut Outbox) {
        self.operations.start(&mut out.timers);
    }

    fn on_timer(&mut self, host: u32, _tag: u32, _now: Cycle, out: &mut Outbox) {
        let (dests, multicast) = self.operations.arrive(host, &mut out.timers);
        self.send(host, dests, multicast, out);
    }

    /// `host` starts a multicast to `dests` (distinct, without `host`).
    fn begin_multicast(&mut self, host: u32, dests: Vec<u32>, out: &mut Outbox) -> bool {
        self.send(host, dests, true, out);
        true
    }
}

impl HardwareMulticast {
    /// `host` sends one message to `dests`: a multidestination worm, or a unicast worm to a single
    /// destination (still a multicast operation if `multicast`: a group of two).
    fn send(&mut self, host: u32, dests: Vec<u32>, multicast: bool, out: &mut Outbox) {
        let (target, header_flits, serves) = match dests[..] {
            [one] if multicast => (Target::One(one), 0, Serves::Open(dests)),
            [one] => (Target::One(one), 0, Serves::NewOperation),
            _ => (Target::Set(dests), self.header_flits, Serves::NewOperation),
        };
        out.sends.push(Send {
            src: host,
            target,
            flits: self.message_flits,
            header_flits,
            serves,
            tag: 0,
            priority: Priority::Unicast,
            cut_through: None,
        });
    }
}
