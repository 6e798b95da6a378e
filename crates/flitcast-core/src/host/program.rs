//! What a host program is given and does (the vocabulary every program uses; the registry of programs
//! is `programs/mod.rs`; docs/engine.md, "Hosts"). A program never touches the network: it asks its
//! host to send messages, set timers and open operations through an [`Outbox`], and the hosts carry
//! the requests out after the call (`hosts.rs`), so programs of different hosts cannot see each
//! other's state.

use crate::facts::Facts;
use crate::params::{params, Kind, Problem};
use crate::sizing::{Part, Sizing};
use crate::stats::Report;
use crate::time::Cycle;
use crate::topology::Topology;
use crate::workload::Shape;

params! {
    /// The header of a multidestination worm, the key of the programs that send them.
    pub struct WormHeader {
        /// Extra flits a multidestination worm carries for its N-bit destination string; left out:
        /// ceil(nodes / (8 · workload.flit_bytes)), with 2-byte flits when sizes are in flits (study 000
        /// §3.2, §7.1), and none on the InfiniBand switch (its multicast LID takes the DLID's place,
        /// study 003 §2).
        header_flits: Option<u32> = None, range(0, 4096), unit("flits");
    }
}

/// What a program is built for beside its parameters: the network and the run.
pub struct Site<'a> {
    pub topo: &'a Topology,
    /// The network as traffic patterns see it (nodes, and node ids as coordinates).
    pub shape: Shape,
    /// The network wraps around (a torus or ring).
    pub wraps: bool,
    /// Cycles a hop between neighbouring switches takes at zero load: channel and router.
    pub hop_cycles: u32,
    /// Cycles from a head's arrival at a router to its departure on the output channel at zero load.
    pub router_delay_cycles: u32,
    pub seed: u64,
    /// Payload flits of a message (a mean where a program draws sizes) and of a packet at most.
    pub message_flits: u32,
    pub packet_flits: u32,
    /// Header flits a multidestination worm carries (its destination string, and the program's
    /// multicast header bytes in flits).
    pub header_flits: u32,
    /// Header flits a unicast packet carries (the program's unicast header bytes in flits).
    pub unicast_header_flits: u32,
}

/// A host program: what every host of a simulation does when one of its timers fires or a message
/// reaches it, one per file (`programs/mod.rs` registers them). Methods a program has nothing to say
/// in default to doing nothing.
pub trait Program: Kind + Sized {
    /// The program of every host, with parameters `p`.
    fn new(p: &Self::Params, site: &Site) -> Self;

    /// Offered load, flits per node per cycle, of an open workload (the early-stop test's offered
    /// traffic); 0 for a closed one.
    fn load(_: &Self::Params) -> f64 {
        0.0
    }

    /// A closed workload: a fixed set of operations from cycle 0, measured until all complete (no
    /// steady state, so no saturation and no early stop).
    fn closed(_: &Self::Params) -> bool {
        false
    }

    /// Sends multidestination worms, which need a routing that replicates them.
    fn multidestination(_: &Self::Params) -> bool {
        false
    }

    /// Destinations of each multicast (a group's size), which bounds the operations alive at once; None
    /// for unicast traffic.
    fn multicast_degree(_: &Self::Params) -> Option<u32> {
        None
    }

    /// Header flits of a multidestination worm, where set (else the switch's default).
    fn header_flits(_: &Self::Params) -> Option<u32> {
        None
    }

    /// Bytes of headers each (unicast, multicast) packet carries besides its payload and the
    /// multidestination worm's header flits, rounded up to whole flits of `workload.flit_bytes`.
    fn header_bytes(_: &Self::Params) -> (u32, u32) {
        (0, 0)
    }

    /// What its own state needs in memory on the network `sizing` describes, beyond the packets its hosts
    /// have alive (none by default).
    fn bytes(_: &Self::Params, _: &Sizing) -> Vec<Part> {
        Vec::new()
    }

    /// The most packets its hosts have alive at once, where it bounds them below the engine's limit
    /// (`memory::max_live_packets`; None: that limit).
    fn live_packets(_: &Self::Params, _: &Sizing) -> Option<u64> {
        None
    }

    /// What it needs of the rest of the scenario, as docs/config.md states it ("" if nothing): the
    /// conditions `unfit` checks.
    fn needs(_: &Self::Params) -> &'static str {
        ""
    }

    /// The problems of running it where `facts` hold (none where its `needs` hold).
    fn unfit(_: &Self::Params, _: &Facts) -> Vec<Problem> {
        Vec::new()
    }

    /// Every host's first timers.
    fn start(&mut self, out: &mut Outbox);

    /// `host`'s timer `tag` fired at `now`.
    fn on_timer(&mut self, host: u32, tag: u32, now: Cycle, out: &mut Outbox);

    /// A whole message reached `host` at `now`.
    fn on_delivered(&mut self, _host: u32, _message: &Delivered, _now: Cycle, _out: &mut Outbox) {}

    /// Whether the program sees heads arrive and its messages leave (`on_head`, `on_sent`), and waits on
    /// the hosts' reception buffers (so the hosts watch its operations for a buffer deadlock).
    fn sees_flits(&self) -> bool {
        false
    }

    /// The head of `message` reached `host`: false refuses it (its flits are drained and dropped,
    /// and it serves nobody). Called only where [`sees_flits`](Self::sees_flits).
    fn on_head(&mut self, _host: u32, _message: &Arriving, _now: Cycle, _out: &mut Outbox) -> bool {
        true
    }

    /// The last flit of `host`'s message `tag` left its NIC. Called only where
    /// [`sees_flits`](Self::sees_flits).
    fn on_sent(&mut self, _host: u32, _tag: u64, _now: Cycle, _out: &mut Outbox) {}

    /// The operation `host` asked to open with `tag` has id `operation`.
    fn on_opened(&mut self, _host: u32, _tag: u64, _operation: u32, _now: Cycle, _out: &mut Outbox) {}

    /// Flits the program holds that its hosts have not handed to their NICs yet (a source queue kept
    /// by the program).
    fn queued_flits(&self) -> u64 {
        0
    }

    /// What the program measured beyond the engine's statistics.
    fn report(&self) -> Option<Report> {
        None
    }

    /// `src` starts a multicast to `dests` (distinct, increasing, without `src`) now, as the program
    /// sends its own (a zero-load probe); false if the program does not multicast that way.
    fn begin_multicast(&mut self, _src: u32, _dests: Vec<u32>, _out: &mut Outbox) -> bool {
        false
    }
}

/// Where a message goes: one host, or every member of a list (a multicast message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    One(u32),
    Set(Vec<u32>),
}

/// The statistics operation a message serves (docs/results.md, "Operations").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Serves {
    /// A new operation whose destinations are the message's own (an open-loop message, a
    /// hardware multicast): it completes when each of them has received the message. It is a
    /// multicast if the message goes to a set.
    NewOperation,
    /// A new multicast operation with these destinations, of which the message reaches some (the
    /// first unicast of a software multicast, or the one message of a multicast to a group of two).
    Open(Vec<u32>),
    /// The operation the previous message of the same program call serves.
    Previous,
    /// An operation begun earlier (a relay of a software multicast): each host it reaches counts as
    /// one of that operation's destinations.
    Operation(u32),
    /// No operation: protocol traffic (study 001's ACK, NACK and READY control worms), or a message
    /// whose receiver's program serves the operation itself once it has received it
    /// ([`Outbox::served`]).
    Nothing,
}

/// Which of a host's queues a message waits in: its NIC sends the oldest message of the most urgent
/// non-empty queue next, never interrupting a message under way (study 001 §5: "multicast transmission
/// and multicast worm forwarding have priority over local unicast transmissions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Control = 0,
    Multicast = 1,
    Unicast = 2,
}

/// A message a program asks its host to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Send {
    pub src: u32,
    pub target: Target,
    /// Payload flits (the loads count these).
    pub flits: u32,
    /// Extra header flits each of its packets carries (a multidestination worm's bit string).
    pub header_flits: u32,
    pub serves: Serves,
    /// The program's own payload, handed back with the message on delivery.
    pub tag: u64,
    pub priority: Priority,
    /// Forward in cut-through: the message copies one arriving at this host (its [`Arriving::handle`]),
    /// and none of its flits leaves before the same flit of that one has arrived.
    pub cut_through: Option<u32>,
}

/// A message whose head has just reached a host (the host may refuse it: [`Program::on_head`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arriving {
    pub src: u32,
    pub flits: u32,
    pub operation: u32,
    pub tag: u64,
    /// Names the arriving message for [`Send::cut_through`] until its tail has arrived.
    pub handle: u32,
}

/// A message as its destination host receives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivered {
    pub src: u32,
    pub flits: u32,
    pub operation: u32,
    pub tag: u64,
}

/// What programs asked for during one call.
#[derive(Debug, Default)]
pub struct Outbox {
    pub sends: Vec<Send>,
    /// (when, host, tag): the host's program is called back with `tag` at `when`.
    pub timers: Vec<(Cycle, u32, u32)>,
    /// Multicast operations to open now, calling the host's program back with each one's id
    /// ([`Program::on_opened`]): operations that start before their first message leaves.
    pub opens: Vec<Open>,
    /// (host, operation): the host has received for this operation now — its program's receive
    /// overhead done (study 004's o_r) — so it counts as served (its messages serve nobody).
    pub served: Vec<(u32, u32)>,
}

/// A multicast operation a program opens (`Outbox::opens`).
#[derive(Debug, Clone)]
pub struct Open {
    /// The host called back with the operation's id, and the tag it is called back with.
    pub host: u32,
    pub tag: u64,
    pub destinations: Vec<u32>,
    /// Flits of its message.
    pub flits: u32,
    /// Flits it delivers, every destination counted (its share of the effective load): `flits` times
    /// the destinations for one message to all, the sum over its messages of their flits times their
    /// receivers for a collective's schedule.
    pub delivers: u64,
}

impl Open {
    /// One message of `flits` flits from `host` to every one of `destinations`.
    pub fn message(host: u32, tag: u64, destinations: Vec<u32>, flits: u32) -> Open {
        let delivers = u64::from(flits) * destinations.len() as u64;
        Open { host, tag, destinations, flits, delivers }
    }
}

impl Outbox {
    pub fn is_empty(&self) -> bool {
        self.sends.is_empty() && self.timers.is_empty() && self.opens.is_empty() && self.served.is_empty()
    }
}
